"""A save whose outcome the process never learnt: the database stored it, then the connection
dropped before the answer came (or a statement bound ran out as it committed). The command
was answered with an error, so nothing of that move went out; the next transaction that reads
the game as stored delivers what the move still owes (its notices, the table, the hands)
before its own messages. A save that raised without storing owes nothing: no message of it
ever goes out."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.views import TableView

from .conftest import Harness
from .hand_to_win import a_hand_u1_wins_with_r5, hand_results, player_to_act

pytestmark = pytest.mark.allow_errors  # the failed save is logged, as it should be


class UncertainStore(MemoryStore):
    """The next game save, once ``fail`` is "after" (stored, then the answer lost) or
    "before" (nothing stored), raises ConnectionError."""

    fail: str | None = None

    async def save(self, record, results=()):
        when, self.fail = self.fail, None
        if when == "before" and record.version:
            raise ConnectionError("the database went away before the commit")
        saved = await super().save(record, results)
        if when == "after" and record.version:
            raise ConnectionError("the connection dropped after the commit")
        return saved


async def test_a_move_stored_but_answered_with_an_error_is_delivered_by_the_next_one():
    store = UncertainStore()
    h = Harness(store=store)
    u1, *_ = await a_hand_u1_wins_with_r5(h)
    store.fail = "after"
    reply = await h.do(cmds.PlayCards, u1, cards=("R5",))
    assert not reply.ok and reply.error == "internal"
    record = await h.record()
    assert record.match is not None and (await h.match()).hand_number == 2  # it was stored
    assert hand_results(h) == []  # and nothing of it went out
    before = len(h.chat.public)
    # The next move (the second hand's first player) reads the game as stored.
    assert (await h.human_move(await player_to_act(h))).ok
    told = hand_results(h)
    assert len(told) == 1 and told[0] >= before  # the first hand's result, once, now
    later_tables = [i for i, (_c, m, _e) in enumerate(h.chat.public) if isinstance(m, TableView)
                    and i > told[0]]
    assert later_tables  # and the table after it
    assert (await h.record()).delivery.outbox is None  # owed no more


async def test_a_save_that_stored_nothing_sends_nothing_of_its_move():
    store = UncertainStore()
    h = Harness(store=store)
    u1, *_ = await a_hand_u1_wins_with_r5(h)
    version = (await h.record()).version
    store.fail = "before"
    reply = await h.do(cmds.PlayCards, u1, cards=("R5",))
    assert not reply.ok and reply.error == "internal"
    assert (await h.record()).version == version  # nothing stored
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok  # played again, stored this time
    assert (await h.human_move(await player_to_act(h))).ok
    assert len(hand_results(h)) == 1  # told once: by the move that was stored


async def test_a_save_in_doubt_is_forgotten_once_the_game_is_saved_at_that_version():
    # Had the doubt outlived the replayed move, the next read of the game (while that move's
    # messages are still owed, say an AI seat moving at once) would deliver them again.
    store = UncertainStore()
    h = Harness(store=store)
    u1, *_ = await a_hand_u1_wins_with_r5(h)
    store.fail = "before"
    assert not (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    assert h.coordinator.delivery._in_doubt  # stored or not: not known yet
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    assert h.coordinator.delivery._in_doubt == {}
