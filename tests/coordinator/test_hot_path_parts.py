"""The small parts every move goes through: chat keys, chat locks, waiting for a delivery."""

from __future__ import annotations

import asyncio
import dataclasses
import pickle

import pytest

from bot.coordinator.delivery.courier import Courier, Job
from bot.coordinator.locks import ChatLocks
from bot.coordinator.ports import ChatKey
from bot.coordinator.views import CardOption, SeatView, Text
from bot.engine.cards import Card


def test_chat_keys_equal_by_their_fields_and_hash_alike() -> None:
    key = ChatKey("telegram", "-100")
    same = ChatKey("telegram", "-100")
    assert key == same and hash(key) == hash(same) and {key: 1}[same] == 1
    assert key != ChatKey("telegram", "-101") and key != ChatKey("discord", "-100")
    assert key != ("telegram", "-100")  # a key is not a tuple
    moved = dataclasses.replace(key, chat_id="7")
    assert moved == ChatKey("telegram", "7") and hash(moved) == hash(ChatKey("telegram", "7"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        key.chat_id = "1"  # type: ignore[misc]


def test_a_pickled_chat_key_hashes_as_a_new_one() -> None:
    # Pickled by its fields, so a key read back (by this process or another, whose string
    # hashes differ) hashes as one made there.
    state = pickle.dumps(ChatKey("discord", "9"))
    assert b"_hash" not in state
    assert pickle.loads(state) == ChatKey("discord", "9")
    assert hash(pickle.loads(state)) == hash(ChatKey("discord", "9"))


async def test_a_chat_lock_runs_blocks_one_after_the_other_and_forgets_idle_chats() -> None:
    released: list[str] = []
    locks = ChatLocks(after_release=lambda: released.append("released"))
    chat = ChatKey("console", "1")
    order: list[str] = []
    entered = asyncio.Event()

    async def first() -> None:
        async with locks.hold(chat):
            order.append("first in")
            entered.set()
            await asyncio.sleep(0)
            await asyncio.sleep(0)
            order.append("first out")

    async def second() -> None:
        await entered.wait()
        async with locks.hold(chat):
            order.append("second")

    await asyncio.gather(first(), second())
    assert order == ["first in", "first out", "second"]
    assert released == ["released", "released"]
    assert locks.busy() == set()
    locks.forget([chat])
    assert len(locks) == 0


async def test_a_block_that_fails_releases_the_lock_without_housekeeping() -> None:
    released: list[str] = []
    locks = ChatLocks(after_release=lambda: released.append("released"))
    chat = ChatKey("console", "1")
    with pytest.raises(ValueError):
        async with locks.hold(chat):
            raise ValueError("refused")
    assert released == [] and locks.busy() == set()
    async with locks.hold(chat):  # not left locked
        pass
    assert released == ["released"]


async def test_a_wait_for_the_lock_that_is_cancelled_leaves_no_user_behind() -> None:
    locks = ChatLocks()
    chat = ChatKey("console", "1")
    holding, done = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with locks.hold(chat):
            holding.set()
            await done.wait()

    async def waiter() -> None:
        async with locks.hold(chat):
            pass

    task = asyncio.ensure_future(holder())
    await holding.wait()
    waiting = asyncio.ensure_future(waiter())
    await asyncio.sleep(0)  # let it queue for the lock
    assert locks.busy() == {chat}
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    done.set()
    await task
    assert locks.busy() == set()


def _job(chat: ChatKey, version: int) -> Job:
    return Job(chat, "g1", version, payload=None, has_table=True)


async def test_waits_for_a_stuck_delivery_end_at_their_own_timeouts() -> None:
    gate = asyncio.Event()

    async def deliver(job: Job) -> None:
        await gate.wait()  # the platform holds every message

    courier = Courier(deliver)
    chat = ChatKey("console", "1")
    jobs = [_job(chat, v) for v in (1, 2, 3)]
    for job in jobs:
        courier.submit(job)
    loop = asyncio.get_running_loop()
    started = loop.time()
    # A long wait, then a shorter one begun after it: each ends at its own deadline.
    long_wait = asyncio.ensure_future(courier.wait(jobs[0], 5.0))
    assert await courier.wait(jobs[1], 0.02) is False
    assert await courier.wait(jobs[2], 0.03) is False
    assert not long_wait.done()  # still waiting: its deadline is far off
    assert loop.time() - started < 5.0
    gate.set()
    assert await long_wait is True  # woken by the delivery, not by its timer
    await courier.close(1.0)
    assert await courier.wait(jobs[2], 0.01) is True  # delivered by now: no wait at all


async def test_waits_in_a_row_each_see_their_own_job_delivered() -> None:
    delivered: list[int] = []

    async def deliver(job: Job) -> None:
        await asyncio.sleep(0)
        delivered.append(job.version)

    courier = Courier(deliver)
    chat = ChatKey("console", "1")
    for version in range(1, 6):
        job = _job(chat, version)
        courier.submit(job)
        assert await courier.wait(job, 1.0) is True
    assert delivered == [1, 2, 3, 4, 5]


def test_views_compare_and_hash_by_value_and_change_only_by_copy() -> None:
    line = Text("{player} passed.", {"player": "Ana"})
    assert line == Text("{player} passed.", {"player": "Ana"}) != Text("{player} passed.")
    seat = SeatView("u1", "Ana", 3)
    assert hash(seat) == hash(SeatView("u1", "Ana", 3)) and {seat, SeatView("u1", "Ana", 3)} == {seat}
    moved = dataclasses.replace(seat, cards=2)
    assert (seat.cards, moved.cards) == (3, 2)
    option = CardOption(Card.parse("R5"), playable=True)
    assert hash(option) == hash(CardOption(Card.parse("R5"), playable=True))
    with pytest.raises(AttributeError):
        seat.nickname = "A"  # type: ignore[attr-defined]  # slotted: no stray attributes


def test_a_courier_used_again_in_a_new_event_loop_still_ends_waits_in_time() -> None:
    platform = {"answers": True}

    async def deliver(job: Job) -> None:
        if not platform["answers"]:
            await asyncio.Event().wait()  # stuck: never answers

    courier = Courier(deliver)
    chat = ChatKey("console", "1")

    async def one_wait(version: int, timeout: float) -> bool:
        job = _job(chat, version)
        courier.submit(job)
        delivered = await courier.wait(job, timeout)
        await courier.close(0.01)
        return delivered

    # Delivered at once: the loop ends with the shared timer still set for this wait's end.
    assert asyncio.run(one_wait(1, 0.5)) is True
    platform["answers"] = False

    async def bounded() -> bool:
        async with asyncio.timeout(5.0):  # would wait for good on the old loop's timer
            return await one_wait(2, 1.0)

    assert asyncio.run(bounded()) is False
