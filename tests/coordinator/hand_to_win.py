"""A hand one move from its end, and what the tests read of it: who acts, and where the
notices telling who won a hand stand among the public messages."""

from __future__ import annotations

from bot.coordinator.hand_end import HAND_WON
from bot.coordinator.ports import User
from bot.coordinator.views import Notice

from .conftest import Harness

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7"]


async def a_hand_u1_wins_with_r5(h: Harness):
    people = await h.start(3, settings={"turn_timer": 0})
    await h.rig({"u1": ["R5"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}, PILE,
                ["R9"], current="u1", color="R")
    return people


async def player_to_act(h: Harness) -> User:
    record = await h.record()
    seat = record.seat_of((await h.state()).current)
    assert seat is not None
    return User(seat.user_id, seat.name)


def hand_results(h: Harness) -> list[int]:
    """Indexes in the public messages of the notices telling who won a hand."""
    return [i for i, (_c, m, _e) in enumerate(h.chat.public)
            if isinstance(m, Notice) and m.text.msgid == HAND_WON["winner_takes"]]
