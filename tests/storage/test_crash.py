"""SIGKILL a process in the middle of a game on a SQLite file; a new process finds exactly
what was last saved (every card in its place) and finishes the game."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from storage import open_store
from tests.fakes import FakeChat

from .games import deck_is_whole, humans, next_command

pytestmark = pytest.mark.slow  # each test starts processes

ROOT = Path(__file__).resolve().parents[2]


def start_child(url: str, mode: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.crash_child", url, mode], cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def read_line(child: subprocess.Popen) -> str:
    line = child.stdout.readline()
    if not line:
        child.wait(timeout=10)
        raise AssertionError(f"the child died: {child.stderr.read()[-3000:]}")
    return line


def kill(child: subprocess.Popen) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    assert child.returncode == -signal.SIGKILL
    child.stdout.close()
    child.stdin.close()
    child.stderr.close()


async def finish_game(url: str, game_id: str) -> None:
    """A fresh coordinator in this process plays the stored game to its end."""
    store = await open_store(url)
    try:
        coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=3)
        await coordinator.resume()
        users = humans(2)
        for _ in range(5000):
            record = await store.get(game_id)
            assert deck_is_whole(record.match)
            if record.status != "running":
                break
            reply = await coordinator.handle(next_command(record, users))
            assert reply.ok, reply
        final = await store.get(game_id)
        assert final.status == "finished" and deck_is_whole(final.match)
        assert (await store.stats("console", "u1")).games >= 1
        await coordinator.close()
    finally:
        await store.close()


@pytest.mark.parametrize("moves", [1, 9, 23])
async def test_killed_between_actions_the_game_resumes_exactly(sqlite_database, moves):
    child = start_child(sqlite_database, "step")
    saves = []
    try:
        ready = 0
        while ready <= moves:
            line = read_line(child)
            if line.startswith("SAVED "):
                saves.append(json.loads(line[6:]))
            elif line.startswith("READY"):
                ready += 1
                if ready <= moves:
                    child.stdin.write("go\n")
                    child.stdin.flush()
            elif line.startswith("OVER"):
                pytest.fail("the game ended before the kill: use fewer moves")
    finally:
        kill(child)  # it is blocked waiting for its next move: between two actions

    last = saves[-1]
    store = await open_store(sqlite_database)
    try:
        stored = await store.get(last["game_id"])
    finally:
        await store.close()
    assert stored.version == last["version"] and stored.status == "running"
    assert json.dumps(stored.match) == json.dumps(last["match"])  # every card in its place
    assert stored.table_message_id == last["table_message_id"]
    assert stored.hand_message_ids == last["hand_message_ids"]
    assert deck_is_whole(stored.match)
    await finish_game(sqlite_database, last["game_id"])


async def test_killed_at_any_moment_the_database_holds_a_saved_state(sqlite_database):
    rng = random.Random(os.getpid())
    child = start_child(sqlite_database, "free")
    saves = []
    try:
        wanted = rng.randint(60, 200)
        while len(saves) < wanted:
            line = read_line(child)
            if line.startswith("SAVED "):
                saves.append(json.loads(line[6:]))
            elif line.startswith("ACTED "):
                assert line.split()[1] == "True", line  # every move it sent was accepted
        time.sleep(rng.random() * 0.05)  # land anywhere: mid-transaction is fine too
    finally:
        kill(child)

    last = saves[-1]
    store = await open_store(sqlite_database)
    try:
        async with store.engine.connect() as conn:
            assert (await conn.execute(sa.text("PRAGMA integrity_check"))).scalar_one() == "ok"
        stored = await store.get(last["game_id"])
        assert stored is not None
        assert stored.match is None or deck_is_whole(stored.match)  # None: a lobby
        # Nothing reported as saved is lost; at most the saves it had no time to print follow.
        assert stored.version >= last["version"]
        if stored.version == last["version"]:
            assert stored.match == last["match"]
        running = stored.status == "running"
    finally:
        await store.close()
    if running:
        await finish_game(sqlite_database, last["game_id"])
