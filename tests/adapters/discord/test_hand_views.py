"""The registry of open hand views on its own: lifetime, pruning, answers in progress."""

from __future__ import annotations

from adapters.discord.hand_views import TOKEN_LIFETIME, OpenHands


class FakeInteraction:
    locale = "en-US"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_view_is_live_for_under_15_minutes_and_expired_ones_are_pruned():
    clock = Clock()
    hands = OpenHands(clock=clock)
    await hands.adopt("1", "u1", FakeInteraction(), message_id=5)
    clock.now += TOKEN_LIFETIME - 1
    assert hands.live("1", "u1") is not None
    clock.now += 1
    assert hands.live("1", "u1") is None  # Discord's 15 minutes, less a margin
    assert TOKEN_LIFETIME < 15 * 60
    for n in range(50):  # players come and go: old views do not pile up
        await hands.adopt("1", f"p{n}", FakeInteraction(), message_id=n)
    clock.now += TOKEN_LIFETIME + 61
    await hands.adopt("2", "late", FakeInteraction(), message_id=99)
    assert hands.count() == 1


async def test_a_hand_arriving_while_answering_waits_for_that_answer():
    hands = OpenHands()
    with hands.answering("1", "u1"):
        await hands.deliver("1", "u1", "newer-view")
        assert hands.leftover("1", "u1") is None  # still answering: the answer may show it
        assert hands.newest("1", "u1", "reply-view") == "newer-view"
    assert hands.leftover("1", "u1") is None  # shown by the answer: nothing left to refresh
    with hands.answering("1", "u1"):
        await hands.deliver("1", "u1", "view")
    assert hands.leftover("1", "u1") == "view"  # the answer showed no hand: refresh afterwards
