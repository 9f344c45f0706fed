"""`unobot db backup`, `unobot db prune` and the doctor's database checks, on SQLite and on
the real PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import pytest
import sqlalchemy as sa

from bot import cli
from bot.config import Settings
from bot.coordinator.ports import ChatKey, PlayerResult
from bot.coordinator.record import DeliveryState, Outbox
from storage import maintenance, open_store
from storage.db import make_engine
from storage.migrate import upgrade
from tests.waiting import wait_until

from .test_contract import MATCH_JSON, make_record, result

DAY = 86400


async def test_a_database_at_head_passes_and_the_test_write_leaves_nothing(database_url):
    await asyncio.to_thread(upgrade, database_url)  # Alembic runs its own event loop
    checks = await maintenance.database_checks(database_url)
    assert [(c.name, c.ok) for c in checks] == [("database", True), ("schema", True),
                                                ("database write", True)]
    engine = make_engine(database_url)
    async with engine.connect() as conn:
        assert (await conn.execute(sa.text("SELECT count(*) FROM media_files"))).scalar() == 0
    await engine.dispose()


async def test_a_database_behind_head_says_how_to_upgrade(database_url):
    if database_url.startswith("sqlite"):
        sqlite3.connect(database_url.split("///", 1)[1]).close()  # an empty file
    checks = await maintenance.database_checks(database_url)
    assert checks[0].ok and not checks[1].ok and "unobot db upgrade" in checks[1].detail
    assert len(checks) == 2  # no write is tried on a schema that is not ours


async def test_an_unreachable_postgresql_is_one_failed_line():
    checks = await maintenance.database_checks("postgresql://unobot:s3cret-pw@127.0.0.1:1/unobot")
    assert len(checks) == 1 and not checks[0].ok and "s3cret-pw" not in checks[0].detail


def _writer(path: str, stop: threading.Event, written: list[int]) -> None:
    """Another connection committing as fast as it can, as a running bot would."""
    conn = sqlite3.connect(path, timeout=30)
    n = 0
    while not stop.is_set():
        n += 1
        conn.execute("INSERT INTO media_files (platform, key, file_id, created_at) "
                     "VALUES ('telegram', ?, 'f', 0)", (f"k{n}",))
        conn.commit()
        written.append(n)
    conn.close()


async def test_backup_while_another_connection_writes(tmp_path):
    path = tmp_path / "unobot.db"
    url = f"sqlite+aiosqlite:///{path}"
    store = await open_store(url)  # WAL mode, the schema, as the bot leaves it
    await store.save(make_record("g1", ChatKey("telegram", "1"), "running", match=MATCH_JSON))
    stop, written = threading.Event(), []
    writer = threading.Thread(target=_writer, args=(str(path), stop, written))
    writer.start()
    try:
        await wait_until(lambda: len(written) >= 50, timeout=30, what="the writer to get going")
        before = len(written)
        target = await asyncio.to_thread(maintenance.backup, url, tmp_path / "copy.db")
        after = len(written)
        # The copy holds no lock past its end: the writer commits again (a timeout if not).
        await wait_until(lambda: len(written) > after, timeout=30, what="the writer to go on")
    finally:
        stop.set()
        writer.join()
        await store.close()
    assert after > before or len(written) > after  # the writer kept going during the copy
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # one file
    keys = copy.execute("SELECT count(*) FROM media_files").fetchone()[0]
    assert before <= keys <= len(written)  # one consistent moment of the writes
    copy.close()
    assert not list(tmp_path.glob(".copy.db.*"))  # no partial file left behind
    restored = await open_store(f"sqlite+aiosqlite:///{target}")
    assert (await restored.get("g1")).match == MATCH_JSON
    await restored.close()


def test_backup_refuses_postgresql_and_its_own_file(tmp_path):
    with pytest.raises(maintenance.MaintenanceError, match="pg_dump"):
        maintenance.backup("postgresql://u@127.0.0.1/unobot", tmp_path / "x.db")
    path = tmp_path / "unobot.db"
    sqlite3.connect(path).close()
    with pytest.raises(maintenance.MaintenanceError, match="database itself"):
        maintenance.backup(f"sqlite:///{path}", path)


async def _finished_games(url: str, old: float) -> None:
    """Two finished matches last touched at ``old``, one live game and one owing a message."""
    store = await open_store(url, now=lambda: old)
    for n, winner in (("1", "u1"), ("2", "u2")):
        chat = ChatKey("telegram", n)
        players = [PlayerResult("u1", "Ana", points=40 if winner == "u1" else 0, won=winner == "u1"),
                   PlayerResult("u2", "Bo", points=40 if winner == "u2" else 0, won=winner == "u2")]
        await store.save(make_record(f"g{n}", chat, "finished", match=MATCH_JSON,
                                     hand_message_ids={"u1": "m1"}),
                         [result("hand", 1, players, game_id=f"g{n}", chat=chat),
                          result("match", 1, players, game_id=f"g{n}", chat=chat)])
    await store.save(make_record("g3", ChatKey("telegram", "3"), "running", match=MATCH_JSON))
    await store.save(make_record("g4", ChatKey("telegram", "4"), "stopped", match=MATCH_JSON,
                                 delivery=DeliveryState(Outbox(1, table=True))))
    await store.close()


async def _standings(url: str):
    store = await open_store(url)
    try:
        return ([await store.stats("telegram", u) for u in ("u1", "u2")],
                await store.stats("telegram", "u1", ChatKey("telegram", "1")),
                await store.leaderboard("telegram"),
                {g: (await store.get(g)).match is None for g in ("g1", "g2", "g3", "g4")})
    finally:
        await store.close()


async def test_prune_drops_old_finished_games_and_keeps_stats_identical(database_url):
    await _finished_games(database_url, time.time() - 40 * DAY)
    *before, dropped = await _standings(database_url)
    assert dropped == {"g1": False, "g2": False, "g3": False, "g4": False}
    assert await maintenance.prune(database_url, 60) == 0  # not that old
    assert await maintenance.prune(database_url, 30) == 2
    *after, dropped = await _standings(database_url)
    assert after == before and before[2]  # the leaderboard is not empty, and unchanged
    assert dropped == {"g1": True, "g2": True, "g3": False, "g4": False}
    assert await maintenance.prune(database_url, 30) == 0


def _cli(monkeypatch, tmp_path, url: str, *argv: str) -> int:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    return cli.main(["db", *argv])


def test_the_db_commands(tmp_path, monkeypatch, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    asyncio.run(_finished_games(url, time.time() - 10 * DAY))
    assert _cli(monkeypatch, tmp_path, url, "prune", "--older-than", "7") == 0
    assert capsys.readouterr().out.startswith("2 finished game(s) pruned")
    assert _cli(monkeypatch, tmp_path, url, "backup", "backup.db") == 0
    assert (tmp_path / "backup.db").is_file()
    assert _cli(monkeypatch, tmp_path, "postgresql://u:pw@127.0.0.1/x", "backup", "b.db") == 2
    assert "pg_dump" in capsys.readouterr().err
    assert _cli(monkeypatch, tmp_path, url, "prune", "--older-than", "-1") == 2
