"""What only the SQL store promises beyond the GameStore contract: the seat rows mirror the
record, a result is recorded once, the database itself refuses a second active game, long
names fit, and ``unobot db upgrade`` works."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.coordinator.ports import GameResult, PlayerResult, Seat, VersionConflict
from storage import SqlStore, open_store

from .test_contract import CHAT, make_record

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def sql_store(database_url):
    store = await open_store(database_url)
    yield store
    await store.close()


async def seat_rows(store: SqlStore, game_id: str) -> list[tuple]:
    async with store.engine.connect() as conn:
        return [tuple(row) for row in await conn.execute(sa.text(
            "SELECT position, platform, user_id, name, language, ai FROM game_seats "
            "WHERE game_id = :g ORDER BY position"), {"g": game_id})]


async def test_seat_rows_follow_the_record(sql_store):
    saved = await sql_store.save(make_record())
    assert await seat_rows(sql_store, "g1") == [
        (0, "telegram", "u1", "Ana", "en", None), (1, "telegram", "ai1", "Bot Bo", None, "normal")]
    saved = await sql_store.save(replace(saved, seats=[*saved.seats, Seat("u2", "Cy", "zh_CN")]))
    saved = await sql_store.save(saved)  # unchanged seats: rows stay as they are
    assert [row[2] for row in await seat_rows(sql_store, "g1")] == ["u1", "ai1", "u2"]
    # Another process (another store) changes the seats: this store must notice on its next save.
    other = SqlStore.from_url(str(sql_store.engine.url.render_as_string(hide_password=False)))
    try:
        theirs = await other.save(replace(await other.get("g1"), seats=saved.seats[:1]))
    finally:
        await other.close()
    mine = await sql_store.get("g1")
    assert mine.version == theirs.version
    await sql_store.save(replace(mine, seats=[*mine.seats, Seat("u9", "Zed")]))
    assert [row[2] for row in await seat_rows(sql_store, "g1")] == ["u1", "u9"]


async def test_a_result_is_recorded_once(sql_store):
    saved = await sql_store.save(make_record(status="running"))
    hand = GameResult("g1", CHAT, "hand", 1, [PlayerResult("u1", "Ana", points=10, won=True)])
    saved = await sql_store.save(saved, [hand])
    with pytest.raises(VersionConflict):
        await sql_store.save(saved, [hand])  # the same hand again: refused, nothing written
    assert (await sql_store.get("g1")).version == saved.version
    assert (await sql_store.stats("telegram", "u1")).hands == 1


async def test_the_database_itself_refuses_a_second_active_game(sql_store):
    await sql_store.save(make_record("g1"))
    async with sql_store.engine.connect() as conn:
        with pytest.raises(sa.exc.IntegrityError):
            await conn.execute(sa.text(
                "INSERT INTO games (game_id, platform, chat_id, status, creator, seats, rules, "
                "version, hand_message_ids, deadlines, meta, created_at, updated_at) VALUES "
                "('g2', 'telegram', '-100123', 'running', 'u1', '[]', '{}', 1, '{}', '{}', '{}', 0, 0)"))
        await conn.rollback()
        # A finished game in the same chat is fine.
        await conn.execute(sa.text(
            "INSERT INTO games (game_id, platform, chat_id, status, creator, seats, rules, "
            "version, hand_message_ids, deadlines, meta, created_at, updated_at) VALUES "
            "('g3', 'telegram', '-100123', 'finished', 'u1', '[]', '{}', 1, '{}', '{}', '{}', 0, 0)"))
        await conn.commit()
    assert (await sql_store.load(CHAT)).game_id == "g1"
    assert (await sql_store.get("g3")).status == "finished"


async def test_long_display_names_are_cut_to_fit(sql_store):
    long_name = "N" * 300
    saved = await sql_store.save(make_record(seats=[Seat("u1", long_name)], status="running"))
    assert (await sql_store.get("g1")).seats[0].name == long_name  # the record keeps it whole
    await sql_store.save(saved, [GameResult("g1", CHAT, "match", 1,
                                            [PlayerResult("u1", long_name, won=True)])])
    assert (await sql_store.stats("telegram", "u1")).name == "N" * 128


def test_in_memory_sqlite_is_refused_with_a_clear_message():
    with pytest.raises(ValueError, match="SQLite file"):
        SqlStore.from_url("sqlite+aiosqlite://")


@pytest.mark.slow
def test_unobot_db_upgrade(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "db", "upgrade"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cli.db").exists()
    done = subprocess.run([sys.executable, "-c",
                           "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
                           "'select version_num from alembic_version').fetchone()[0])",
                           str(tmp_path / "cli.db")], capture_output=True, text=True)
    from .test_migrations import head_revision

    assert done.stdout.strip() == head_revision()


async def test_the_reads_a_games_opening_makes_go_straight_to_the_driver(sql_store):
    """A chat's settings, the creator's profile and whether anyone waits to be told: read at
    every game's opening, on the hot path's driver (one round trip each on PostgreSQL), none
    through SQLAlchemy's engine, and read back as they were saved."""
    from bot.coordinator.ports import ChatSettings, UserProfile

    await sql_store.save_chat_settings(CHAT, ChatSettings(
        preset="house", overrides={"target_score": 250, "stacking": "same"}, language="zh_CN",
        turn_timer=45, reaction_window=5, season_days=14, ai_level="hard"))
    await sql_store.save_user_profile("telegram", "u1", UserProfile(
        language="en", stats_opt_out=True, card_theme="high_contrast"))
    through_engine: list[str] = []
    sa.event.listen(sql_store.engine.sync_engine, "before_cursor_execute",
                    lambda conn, cursor, statement, *args: through_engine.append(statement))
    settings = await sql_store.chat_settings(CHAT)
    assert (settings.preset, settings.overrides, settings.language, settings.turn_timer,
            settings.reaction_window, settings.season_days, settings.ai_level, settings.version,
            settings.new) == ("house", {"target_score": 250, "stacking": "same"}, "zh_CN", 45, 5,
                              14, "hard", 1, False)
    assert (await sql_store.chat_settings(replace(CHAT, chat_id="elsewhere"))).new
    profile = await sql_store.user_profile("telegram", "u1")
    assert (profile.language, profile.stats_opt_out, profile.card_theme) == (
        "en", True, "high_contrast")
    assert await sql_store.user_profile("telegram", "nobody") == UserProfile()
    assert await sql_store.take_notify_requests(CHAT) == []  # nobody waits: nothing deleted
    assert through_engine == []


async def test_postgresql_reads_start_no_transaction(pg_database, monkeypatch):
    # A read is one statement each: no BEGIN before it and no ROLLBACK after (two round
    # trips, each a turn of a busy event loop).
    import asyncpg

    from bot.coordinator.ports import ChatKey, ChatSettings
    from storage import open_store

    store = await open_store(pg_database)
    try:
        chat = ChatKey("telegram", "-7")
        started: list[object] = []
        transaction = asyncpg.connection.Connection.transaction

        def counted(self, *args, **kwargs):
            started.append(self)
            return transaction(self, *args, **kwargs)

        monkeypatch.setattr(asyncpg.connection.Connection, "transaction", counted)
        await store.save_chat_settings(chat, ChatSettings(language="zh_CN"))
        assert started  # a write does run in a transaction: the count sees them
        started.clear()
        assert (await store.chat_settings(chat)).language == "zh_CN"
        await store.user_profile("telegram", "u1")
        assert await store.take_notify_requests(chat) == []
        await store.chat_presets(chat)
        await store.stats("telegram", "u1")
        await store.game_results("none")
        assert started == []
    finally:
        await store.close()
