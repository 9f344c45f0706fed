"""Deliveries go out in commit order, outside the chat's lock, and a table the platform
refused is repainted as soon as it accepts again."""

from __future__ import annotations

import asyncio

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.ports import DeliveryFailed
from tests.fakes import FakeChat
from tests.waiting import wait_until

from .conftest import Harness


class FlakyChat(FakeChat):
    """Refuses public messages while ``down`` (as a 5xx or 403 would), and can hold them
    (``gate`` closed) like a platform call being retried."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.refused = 0
        self.gate = asyncio.Event()
        self.gate.set()
        self.held = 0

    async def publish(self, chat, message, *, edit=None):
        if not self.gate.is_set():
            self.held += 1
            await self.gate.wait()
        if self.down:
            self.refused += 1
            raise DeliveryFailed("other", "HTTP 503")
        return await super().publish(chat, message, edit=edit)


def flaky_harness() -> Harness:
    h = Harness(chat=FlakyChat())
    h.coordinator.delivery.delivery_wait = 0.05
    h.coordinator.delivery.courier.first_retry = 0.01
    return h


async def test_a_refused_table_is_repainted_when_delivery_works_again() -> None:
    h = flaky_harness()
    people = await h.start(2, settings={"turn_timer": 0})
    chat: FlakyChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    chat.down = True
    mover = (await h.state()).current
    assert (await h.human_move(by_id[mover])).ok  # the move counts although the table failed
    await wait_until(lambda: chat.refused >= 2)  # tried again, with backoff
    assert chat.last_table().current == mover  # still the old picture
    chat.down = False  # the platform is back: no further move is needed
    after = await h.state()
    await wait_until(lambda: chat.last_table().current == after.current)
    assert chat.last_table().top == after.top
    refused = chat.refused
    await wait_until(lambda: not h.coordinator.delivery.courier.busy(h.key))  # nothing left to deliver
    assert chat.refused == refused  # and so it stops trying


async def test_a_newer_table_replaces_a_failed_one() -> None:
    h = flaky_harness()
    h.coordinator.delivery.courier.first_retry = 30.0  # a retry would come far too late for this test
    people = await h.start(2, settings={"turn_timer": 0})
    chat: FlakyChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    chat.down = True
    assert (await h.human_move(by_id[(await h.state()).current])).ok
    await wait_until(lambda: chat.refused >= 1)
    chat.down = False
    assert (await h.human_move(by_id[(await h.state()).current])).ok
    state = await h.state()
    await wait_until(lambda: chat.last_table().current == state.current)
    assert not h.coordinator.delivery.courier.busy(h.key)  # nothing left waiting for the old table


async def test_a_held_delivery_does_not_hold_the_chat() -> None:
    h = flaky_harness()
    people = await h.start(3, settings={"turn_timer": 0})
    chat: FlakyChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    mover = (await h.state()).current
    chat.gate.clear()  # the platform is stuck on the next public message (a 25 s retry)
    moving = asyncio.ensure_future(h.human_move(by_id[mover]))
    await wait_until(lambda: chat.held == 1)
    # The gate stays closed until further down: a command waiting on the stuck call would
    # never be answered, so a generous bound still tells the two apart on a loaded machine.
    async with asyncio.timeout(5.0):
        assert (await moving).ok  # answered although its table is still on its way
    # Others are answered meanwhile: their commands do not wait for the stuck call.
    now_to_act = (await h.state()).current
    other = next(p for p in people if p.id != now_to_act)
    async with asyncio.timeout(5.0):
        assert (await h.do(cmds.ShowHand, other)).ok
        assert (await h.human_move(by_id[(await h.state()).current])).ok
    tables_before = len(chat.tables())
    chat.gate.set()
    state = await h.state()
    await wait_until(lambda: chat.last_table().current == state.current)
    # In order: the stuck table went out first, the newer one after it (or replaced it).
    tables = chat.tables()[tables_before:]
    assert tables[-1].current == state.current
    assert all(t.current != state.current for t in tables[:-1])


@pytest.mark.parametrize("held", [False, True])
async def test_tables_keep_the_order_of_their_moves(held: bool) -> None:
    h = flaky_harness()
    people = await h.start(2, settings={"turn_timer": 0})
    chat: FlakyChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    shown_before = len(chat.tables())
    if held:
        chat.gate.clear()
    positions = []
    for _ in range(8):
        record = await h.record()
        if record.status != "running":
            break
        assert (await h.human_move(by_id[(await h.state()).current])).ok
        state = await h.state()
        positions.append((state.current, state.top, state.draw_pile_count))
    chat.gate.set()
    await wait_until(lambda: not h.coordinator.delivery.courier.busy(h.key))
    shown = [(t.current, t.top, t.draw_pile) for t in chat.tables()[shown_before:]]
    assert shown[-1] == positions[-1]  # the last table shows the position reached
    # ... and the tables shown are the positions in the order they were reached (some
    # skipped when a newer one was already waiting), never an older one after a newer one.
    indexes = [positions.index(p) for p in shown]
    assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)
    if not held:
        assert len(shown) == len(positions)


class CountingMarks:
    """Counts the store's "delivered, owed no more" writes."""

    def __init__(self, store) -> None:
        self.marks = 0
        mark = store.mark_delivered

        async def counted(game_id, version):
            self.marks += 1
            return await mark(game_id, version)

        store.mark_delivered = counted


async def test_ai_seats_moving_inline_store_their_delivery_once_before_the_answer() -> None:
    h = Harness()
    [person] = await h.start(1, ais=3, settings={"turn_timer": 0})
    marks = CountingMarks(h.store)
    saves_before = h.store.saves
    for _ in range(5):
        assert (await h.human_move(person)).ok
        # Answered: every move of the run is delivered and the store owes nothing, with one
        # mark for the whole run of moves (each later save dropped the outbox before it).
        assert await h.store.owing_delivery() == []
    assert h.store.saves - saves_before >= 10 and marks.marks <= 5


async def test_a_delivery_slower_than_the_answer_is_still_stored_as_done() -> None:
    h = flaky_harness()
    chat: FlakyChat = h.chat  # type: ignore[assignment]
    people = await h.start(2, settings={"turn_timer": 0})
    by_id = {p.id: p for p in people}
    chat.gate.clear()  # the platform holds every message: the answer comes first
    assert (await h.human_move(by_id[(await h.state()).current])).ok
    assert await h.store.owing_delivery() != []
    chat.gate.set()  # delivered after nobody waits for it any more: its own mark

    async def owes_nothing() -> bool:
        return await h.store.owing_delivery() == []

    await wait_until(owes_nothing, what="the delivery stored as done")


class HeldChat(FakeChat):
    """Holds every public message until ``public_gate`` opens and every private hand until
    ``hands_gate`` does, as a network round trip would; notes in ``calls`` when each began
    and in ``under_way`` the hands on their way."""

    def __init__(self) -> None:
        super().__init__()
        self.public_gate = asyncio.Event()
        self.public_gate.set()
        self.hands_gate = asyncio.Event()
        self.hands_gate.set()
        self.calls: list[str] = []
        self.under_way: set[str] = set()

    async def publish(self, chat, message, *, edit=None):
        self.calls.append("public")
        await self.public_gate.wait()
        return await super().publish(chat, message, edit=edit)

    async def send_hand(self, chat, user_id, view, *, edit=None):
        self.calls.append(f"hand {user_id}")
        self.under_way.add(user_id)
        await self.hands_gate.wait()
        self.under_way.discard(user_id)
        return await super().send_hand(chat, user_id, view, edit=edit)


async def test_the_hands_of_one_move_go_out_at_once() -> None:
    """The mover's hand and the next player's each go to a private chat of their own: the
    next player's does not wait for the mover's round trip."""
    h = Harness(chat=HeldChat())
    people = await h.start(3, settings={"turn_timer": 0})
    chat: HeldChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    mover = (await h.state()).current
    chat.hands_gate.clear()
    moving = asyncio.ensure_future(h.human_move(by_id[mover]))
    await wait_until(lambda: len(chat.under_way) >= 2)
    after = await h.state()
    assert {mover, after.current} <= chat.under_way
    chat.hands_gate.set()
    assert (await moving).ok
    assert chat.private[after.current][-1].turn_started  # the next player's hand came through


async def test_a_moves_hands_go_out_beside_its_table() -> None:
    """The next player's hand goes to a private chat: it does not wait for the table's round
    trip. It begins after the table did, so a platform sees the table first."""
    h = Harness(chat=HeldChat())
    people = await h.start(3, settings={"turn_timer": 0})
    chat: HeldChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    mover = (await h.state()).current
    await wait_until(lambda: not h.coordinator.delivery.courier.busy(h.key))
    chat.calls.clear()
    tables = len(chat.tables())
    chat.public_gate.clear()
    moving = asyncio.ensure_future(h.human_move(by_id[mover]))
    await wait_until(lambda: any(c.startswith("hand") for c in chat.calls), what="a hand sent")
    after = await h.state()
    assert after.current != mover
    await wait_until(lambda: f"hand {after.current}" in chat.calls, what="the next player's hand")
    assert chat.calls[0] == "public" and len(chat.tables()) == tables  # begun, still on its way
    assert chat.private[after.current][-1].turn_started  # ... while the next player has their turn
    assert not moving.done()  # the mover's answer waits for the table
    chat.public_gate.set()
    assert (await moving).ok
    assert chat.last_table().current == after.current


async def test_hands_on_their_way_stop_with_the_courier() -> None:
    """A delivery stopped at shutdown while its table and hands are on their way leaves
    nothing running, and stays owed for the next start."""
    h = Harness(chat=HeldChat())
    people = await h.start(3, settings={"turn_timer": 0})
    chat: HeldChat = h.chat  # type: ignore[assignment]
    by_id = {p.id: p for p in people}
    h.coordinator.delivery.delivery_wait = 0.01
    chat.public_gate.clear()
    chat.hands_gate.clear()
    assert (await h.human_move(by_id[(await h.state()).current])).ok
    await wait_until(lambda: any(c.startswith("hand") for c in chat.calls), what="a hand sent")
    await h.coordinator.delivery.courier.close(timeout=0.01)
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=1.0)
    assert all(t.done() for t in others)  # nothing of the delivery left running
    assert await h.store.owing_delivery() != []
