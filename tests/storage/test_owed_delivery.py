"""A move stored but not yet announced when the process dies is announced by
the next process's resume(): the table and the hands for the stored state, the notices as they
were written; each shown once (a second restart announces nothing again)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.engine import Match
from storage import open_store
from tests.fakes import FakeChat

from .owed_child import CHAT

pytestmark = pytest.mark.slow  # each test starts processes

ROOT = Path(__file__).resolve().parents[2]


def run_child_until_sent(url: str, what: str) -> None:
    child = subprocess.Popen([sys.executable, "-m", "tests.storage.owed_child", url, what],
                             cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "READY", child.stderr.read()[-3000:]
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "SENT True", child.stderr.read()[-3000:]
    finally:
        os.kill(child.pid, signal.SIGKILL)  # dies with its delivery still under way
        child.communicate(timeout=10)


async def restart(url: str) -> FakeChat:
    store = await open_store(url)
    chat = FakeChat()
    coordinator = Coordinator(chat, store, FakeClock(), ai_delay=0, seed=9)
    try:
        await coordinator.resume()
        await coordinator.close()
    finally:
        await store.close()
    return chat


async def stored_game(url: str):
    store = await open_store(url)
    try:
        return (await store.owing_delivery(), await store.load(CHAT))
    finally:
        await store.close()


async def test_a_move_saved_before_the_crash_is_announced_after_it(database_url):
    run_child_until_sent(database_url, "move")
    [owing], record = await stored_game(database_url)
    assert owing.version == record.version and record.status == "running"
    state = Match.from_json(record.match).game

    chat = await restart(database_url)
    table = chat.last_table()
    assert (table.current, table.top, table.draw_pile) == (state.current, state.top, state.draw_pile_count)
    assert chat.public[-1][2] == record.table_message_id  # the old table edited in place
    for user_id in ("u1", "u2"):  # the hands of the stored state
        assert sorted(str(o.card) for o in chat.last_hand(user_id).cards) == \
            sorted(str(c) for c in state.hand(user_id))

    again = await restart(database_url)  # shown once: nothing is owed any more
    assert again.public == [] and not again.private
    assert (await stored_game(database_url))[0] == []


async def test_a_stop_notice_saved_before_the_crash_is_announced_after_it(database_url):
    run_child_until_sent(database_url, "stop")
    [owing], record = await stored_game(database_url)
    assert record is None and owing.status == "stopped"  # over, yet owing its notice

    chat = await restart(database_url)
    [notice] = chat.notices()
    assert notice.text.msgid == "{player} stopped the game." and notice.text.params == {"player": "P1"}
    again = await restart(database_url)
    assert again.public == [] and not again.private

