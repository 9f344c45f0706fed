"""A save stores the move, not the match: each save that played appends its engine steps to
the game's log (in the same UPDATE), the match is written in full only at a snapshot, and a
process that never saw the game (another process, a restart) rebuilds exactly the same match
from the snapshot and the log."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.match_log import LogMismatch
from bot.coordinator.ports import ChatKey, ChatSettings
from storage import open_store
from tests.fakes import FakeChat

from .games import humans, next_command

CHAT = ChatKey("telegram", "-4242")


async def play(store, moves: int) -> str:
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=5)
    await store.save_chat_settings(CHAT, ChatSettings(preset="house", turn_timer=0))
    users = humans(2)
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    assert (await coordinator.handle(cmds.AddAiSeat(CHAT, users["u1"], strategy="normal"))).ok
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    game_id = (await store.load(CHAT)).game_id
    for _ in range(moves):
        command = next_command(await store.get(game_id), users)
        if command is None:
            break
        assert (await coordinator.handle(command)).ok
    await coordinator.close()
    return game_id


async def test_another_process_rebuilds_the_same_match_from_snapshot_and_log(database_url):
    first = await open_store(database_url)
    try:
        game_id = await play(first, 60)
        seen = await first.get(game_id)
        other = await open_store(database_url)  # knows nothing of the game: reads the log
        try:
            rebuilt = await other.get(game_id)
            assert rebuilt.version == seen.version and rebuilt.snapshot_version < seen.version
            assert rebuilt.match == seen.match
            # and it plays on from there, as the first process would
            again = await play_on(other, game_id)
            assert again.version > seen.version
        finally:
            await other.close()
    finally:
        await first.close()


async def play_on(store, game_id: str):
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=6)
    command = next_command(await store.get(game_id), humans(2))
    assert (await coordinator.handle(command)).ok
    await coordinator.close()
    return await store.get(game_id)


def log_rows(path) -> list[tuple[int, list, str]]:
    with sqlite3.connect(path) as db:
        return [(v, json.loads(steps), digest) for v, steps, digest
                in db.execute("SELECT version, steps, digest FROM game_log ORDER BY version")]


async def test_each_save_that_played_is_one_log_row_and_snapshots_are_rare(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    store = await open_store(url)
    try:
        game_id = await play(store, 80)
        record = await store.get(game_id)
    finally:
        await store.close()
    rows = log_rows(tmp_path / "unobot.db")
    versions = [v for v, _, _ in rows]
    assert versions == sorted(set(versions)) and versions[-1] <= record.version
    assert all(steps and len(digest) == 12 for _, steps, digest in rows)
    assert len(rows) > 40  # the game moved on by logged steps, not by rewriting the match
    with sqlite3.connect(tmp_path / "unobot.db") as db:
        [(bases,)] = db.execute("SELECT count(*) FROM game_bases WHERE game_id = ?", (game_id,))
    assert bases == 1  # where the match began


async def test_a_log_that_does_not_replay_to_its_digest_is_refused(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    store = await open_store(url)
    try:
        game_id = await play(store, 30)
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "unobot.db") as db:
        db.execute("UPDATE game_log SET digest = 'ffffffffffff' WHERE version = "
                   "(SELECT max(version) FROM game_log)")
    store = await open_store(url)
    try:
        with pytest.raises(LogMismatch):
            await store.get(game_id)
    finally:
        await store.close()


async def test_replay_and_export_read_the_log_of_a_stored_game(tmp_path, monkeypatch, capsys):
    from bot import cli
    from bot.engine import replay as replay_cli

    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    store = await open_store(url)
    try:
        game_id = await play(store, 400)
        hands = (await store.match_history(game_id))
    finally:
        await store.close()
    assert hands is not None and hands.log
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    assert await asyncio.to_thread(cli.main, ["replay", game_id, "--hand", "1"]) == 0
    told = capsys.readouterr().out.splitlines()
    assert told[0].startswith("Hand 1, dealt by ") and len(told) > 10
    scenario_file = tmp_path / "hand1.json"
    assert await asyncio.to_thread(cli.main, ["export", game_id, "1", "-o", str(scenario_file)]) == 0
    exported = json.loads(scenario_file.read_text(encoding="utf-8"))
    capsys.readouterr()
    assert replay_cli.main([str(scenario_file)]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["state"] == exported["expected"]["state"]
    assert await asyncio.to_thread(cli.main, ["export", "nosuchgame", "1"]) == 2
