"""The console at two tables: the person's table is shown, the bots' table plays on unseen;
``--set`` reaches every rule and match format, with the settings' own refusals."""

from __future__ import annotations

import asyncio
import re

from bot.coordinator.memory_store import MemoryStore

from .test_console import Terminal, console_args, make_session, scripted_human


async def test_the_persons_table_is_shown_and_the_other_plays_unseen():
    store, terminal = MemoryStore(), Terminal()
    reader, typed = scripted_human(limit=40)
    moves = {"n": 0}

    async def some_moves(session):
        moves["n"] += 1
        return None if moves["n"] > 5 else await reader(session)

    session = make_session(console_args(setting_pairs=["rotation=on", "tables=2", "reaction_window=0"]),
                           store, some_moves, terminal)
    assert await asyncio.wait_for(session.run(), 60) == 0
    out = terminal.text
    assert "two tables at once" in out
    # each table's players on a line of their own, not one list run into the other
    assert re.search(r"every round\.\nTable 1: [^\n]+\nTable 2: ", out), out[:2000]
    assert typed, "the person played at their table"
    shown = set(re.findall(r"UNO · table (\d) · hand", out))
    assert len(shown) == 1  # one table only: the person's
    hub = await store.get(session.game_id)
    records = [await store.get(g) for g in hub.two_tables.games]
    assert len({s.user_id for r in records for s in r.seats}) == 8  # the person and 7 bots


async def test_a_bad_set_is_refused_with_the_settings_answer():
    store, terminal = MemoryStore(), Terminal()
    reader, _ = scripted_human(limit=1)
    session = make_session(console_args(setting_pairs=["tables=3"]), store, reader, terminal)
    assert await asyncio.wait_for(session.run(), 30) == 1
    assert "tables cannot be 3" in terminal.text


async def test_a_two_table_match_left_by_a_killed_run_resumes_at_the_persons_table():
    store = MemoryStore()

    async def eof(session):
        return None

    async def left_open():  # kill -9: nothing is stopped
        return None

    first = make_session(console_args(setting_pairs=["tables=2"]), store, eof, Terminal())
    first.stop_quietly = left_open
    assert await asyncio.wait_for(first.run(), 30) == 0
    terminal = Terminal()
    second = make_session(console_args(rules=None), store, eof, terminal)
    assert await asyncio.wait_for(second.run(), 30) == 0
    assert second.game_id == first.game_id
    start = terminal.text.split('Type "help"')[0]
    assert start.startswith("Your unfinished match goes on")
    assert re.search(r"UNO · table \d · hand", start) and "Your hand (only you can see this)" in start
    assert "New UNO game" not in terminal.text
