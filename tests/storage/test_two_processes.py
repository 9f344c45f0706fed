"""Two processes on one PostgreSQL database fire hundreds of conflicting moves at the same
games: no move is applied twice, none is lost without a refusal, the 108 cards stay whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings
from storage import open_store

from .games import NullChat, deck_is_whole, humans

pytestmark = pytest.mark.slow  # each test starts processes

ROOT = Path(__file__).resolve().parents[2]
CHAT_IDS = [f"c{n}" for n in range(1, 9)]
MOVES_PER_GAME = 40


async def start_games(store) -> dict[str, int]:
    """Running 3-player games; returns game id -> version before the race."""
    coordinator = Coordinator(NullChat(), store, FakeClock(), ai_delay=0, seed=1)
    users = humans(3)
    versions = {}
    for chat_id in CHAT_IDS:
        chat = ChatKey("discord", chat_id)
        await store.save_chat_settings(chat, ChatSettings(turn_timer=0, overrides={"target_score": 300}))
        assert (await coordinator.handle(cmds.NewGame(chat, users["u1"]))).ok
        for uid in ("u2", "u3"):
            assert (await coordinator.handle(cmds.Join(chat, users[uid]))).ok
        assert (await coordinator.handle(cmds.StartGame(chat, users["u1"]))).ok
    await coordinator.close()  # stores that its deliveries went out: the last save before the race
    for chat_id in CHAT_IDS:
        record = await store.load(ChatKey("discord", chat_id))
        versions[record.game_id] = record.version
    return versions


async def test_two_processes_racing_on_the_same_games(pg_database):
    store = await open_store(pg_database)
    try:
        before = await start_games(store)
        children = [subprocess.Popen(
            [sys.executable, "-m", "tests.storage.race_child", pg_database, ",".join(CHAT_IDS),
             str(MOVES_PER_GAME)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
        for child in children:
            assert child.stdout.readline().strip() == "READY", child.stderr.read()
        for child in children:  # both start firing at the same moment
            child.stdin.write("go\n")
            child.stdin.flush()
        outputs = []
        for child in children:
            out, err = child.communicate(timeout=120)
            assert child.returncode == 0, err[-3000:]
            outputs.append(json.loads(out.strip().splitlines()[-1]))

        tallies = [Counter(o["tally"]) for o in outputs]
        saves = [Counter(o["saves"]) for o in outputs]
        settles = [Counter(o["settles"]) for o in outputs]
        for tally, saved, settled in zip(tallies, saves, settles, strict=True):
            refused = sum(n for key, n in tally.items() if key.startswith("refused:"))
            # Every move got an answer, and each accepted move is exactly one stored save (the
            # others store what a delivery learnt, and change no game state).
            assert tally["sent"] == tally["accepted"] + refused
            assert tally["accepted"] == sum(saved.values()) - sum(settled.values())
        total = tallies[0] + tallies[1]
        assert total["sent"] >= 400
        assert sum(n for key, n in total.items() if key.startswith("refused:")) > 0, total
        assert tallies[0]["accepted"] > 0 and tallies[1]["accepted"] > 0, total

        for game_id, version in before.items():
            record = await store.get(game_id)
            # No lost update: the stored version counts every save both processes were told
            # succeeded, and nothing else.
            assert record.version - version == saves[0][game_id] + saves[1][game_id]
            assert deck_is_whole(record.match)
            async with store.engine.connect() as conn:
                kinds = Counter(dict((await conn.execute(sa.text(
                    "SELECT kind, count(*) FROM results WHERE game_id = :g GROUP BY kind"),
                    {"g": game_id})).all()))
            hands_done = record.match["hand_number"] - (record.status == "running")
            assert kinds["hand"] == hands_done  # each finished hand recorded exactly once
            assert kinds["match"] == (record.status == "finished")
    finally:
        await store.close()
