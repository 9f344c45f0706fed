"""The clocks and the in-memory store."""

from __future__ import annotations

import asyncio

import pytest

from bot.coordinator.clock import FakeClock, RealClock
from bot.coordinator.hand_book import HandBook
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import (
    ChatKey,
    GameRecord,
    GameResult,
    PlayerResult,
    Seat,
    VersionConflict,
)

CHAT = ChatKey("discord", "42")


async def test_fake_clock_runs_due_callbacks_in_order() -> None:
    clock = FakeClock(start=100.0)
    seen: list[tuple[str, float]] = []

    def note(name):
        async def callback():
            seen.append((name, clock.now()))
            if name == "a":  # a callback may schedule another within the same advance
                clock.call_at(clock.now() + 1, note("c"))
        return callback

    clock.call_at(105, note("b"))
    clock.call_at(103, note("a"))
    clock.call_at(90, note("late"))  # already passed: runs on the next advance
    cancelled = clock.call_at(104, note("x"))
    cancelled.cancel()
    await clock.advance(5)
    assert seen == [("late", 100.0), ("a", 103.0), ("c", 104.0), ("b", 105.0)]
    assert clock.now() == 105.0 and clock.pending == 0


async def test_real_clock_fires_and_cancels() -> None:
    clock = RealClock()
    fired = asyncio.Event()
    skipped: list[int] = []

    async def hit():
        fired.set()

    async def miss():
        skipped.append(1)

    handle = clock.call_at(clock.now() + 0.01, miss)
    later = asyncio.Event()

    async def after():
        later.set()

    clock.call_at(clock.now() + 0.02, after)  # set after the cancelled one, due after it
    handle.cancel()
    clock.call_at(clock.now() - 5, hit)  # a passed deadline fires at once
    await asyncio.wait_for(fired.wait(), timeout=2)
    await asyncio.wait_for(later.wait(), timeout=2)  # the loop is past the cancelled deadline
    await clock.drain()
    assert skipped == []


def record(game_id="g1", status="lobby") -> GameRecord:
    return GameRecord(game_id, CHAT, status, "u1", [Seat("u1", "Ana")], {"hand_size": 7},
                      book=HandBook(taken_over=["x1"]))


async def test_store_copies_in_and_out() -> None:
    store = MemoryStore(now=lambda: 5.0)
    mine = record()
    saved = await store.save(mine)
    assert saved.version == 1 and saved.updated_at == 5.0 and mine.version == 0
    mine.book.taken_over.append("x2")
    saved.seats.append(Seat("u2", "Bo"))
    loaded = await store.load(CHAT)
    assert loaded.book.taken_over == ["x1"] and len(loaded.seats) == 1
    loaded.book.taken_over.append("x3")
    assert (await store.get("g1")).book.taken_over == ["x1"]


async def test_a_stored_record_shares_no_mutable_part_with_the_saved_or_loaded_one() -> None:
    """Every field of the record and of its parts: a new mutable part added later that the
    copies would share fails here."""
    from dataclasses import fields, is_dataclass

    from bot.coordinator.hand_book import EndVote, RaceEvent, UnoCalls
    from bot.coordinator.record import Outbox

    store = MemoryStore(now=lambda: 5.0)
    mine = record(status="running")
    mine.book = HandBook({"u1": {"uno": 1}}, {"u1": {"uno": 2}}, {"u1": 1.0}, {"u1": 1}, ["x1"],
                         {"old": "Old"}, UnoCalls(["u1"], ["u1"]),
                         [RaceEvent("caught", "Ana", "Ana", 1000, 3, 1, 4.0)],
                         EndVote(["u1"], 1, 2.0), "vote")
    mine.delivery.outbox = Outbox(1, [{"n": 1}], True, ["u1"])
    mine.delivery.unreachable = ["u1"]
    mine.hand_message_ids, mine.deadlines = {"u1": "m"}, {"turn": 1.0}
    await store.save(mine)
    loaded = await store.load(CHAT)

    def mutable_parts(value, path="record"):
        if isinstance(value, (dict, list)):
            yield path, value
        elif is_dataclass(value) and not type(value).__dataclass_params__.frozen:
            yield path, value
            for f in fields(value):
                yield from mutable_parts(getattr(value, f.name), f"{path}.{f.name}")

    parts = [(path, part) for path, part in mutable_parts(loaded) if path != "record.rules"]
    assert {"record.book.counters", "record.book.uno_calls", "record.delivery.outbox"} <= {p for p, _ in parts}
    ours = {id(part) for _, part in mutable_parts(mine)}
    shared = [path for path, part in parts if id(part) in ours]
    assert shared == []


async def test_store_version_check_and_one_active_game() -> None:
    store = MemoryStore()
    first = await store.save(record())
    stale = await store.load(CHAT)
    await store.save(first)
    with pytest.raises(VersionConflict):
        await store.save(stale)
    with pytest.raises(VersionConflict):
        await store.save(record("g2"))  # a second active game in the chat
    with pytest.raises(VersionConflict):
        await store.save(record("g1"))  # inserting an existing id
    current = await store.load(CHAT)
    current.status = "finished"
    await store.save(current)
    assert await store.load(CHAT) is None and await store.active_games() == []
    assert (await store.save(record("g2"))).version == 1


async def test_stats_and_leaderboard_from_results() -> None:
    store = MemoryStore()

    def result(kind, rows):
        return GameResult("g1", CHAT, kind, 1, [PlayerResult(*row) for row in rows])

    await store.save(record(), [
        result("hand", [("u1", "Ana", 30, True, False, 1, 0, 1), ("ai1", "Bot", 0, False, True)]),
        result("hand", [("u1", "Ana", 0, False), ("ai1", "Bot", 40, True, True)]),
        result("match", [("u1", "Ana", 30, False), ("ai1", "Bot", 40, True, True)]),
    ])
    stats = await store.stats("discord", "u1", CHAT)
    assert (stats.games, stats.wins, stats.hands, stats.hands_won, stats.points) == (1, 0, 2, 1, 30)
    assert (stats.uno_calls, stats.caught, stats.challenges_won) == (1, 0, 1)
    assert (await store.stats("telegram", "u1")).games == 0
    board = await store.leaderboard("discord", CHAT)
    assert [row.user_id for row in board] == ["u1"]
