"""Match formats through the coordinator: what the hand-end notices say in each scoring
mode, fixed-length matches, and partner rotation at one table."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.hand_end import HAND_WON
from tests.coordinator.conftest import Harness


async def play_out(h: Harness, who) -> None:
    for _ in range(5000):
        if await h.store.load(h.key) is None:
            return
        state = await h.state()
        if state.current == who.id:
            assert (await h.human_move(who)).ok
        else:
            raise AssertionError("a bot should have moved")
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("scoring", ["winner_takes", "losers_accumulate", "chips"])
async def test_hand_notices_say_what_happened_and_a_hands_match_ends_on_time(scoring):
    h = Harness(seed=3)
    people = await h.start(1, 2, settings={"scoring": scoring, "match_end": "hands",
                                           "match_hands": "3", "target_score": "1"})
    await play_out(h, people[0])
    notices = h.chat.notices()
    hands = [n for n in notices if n.text.msgid == HAND_WON[scoring]]
    assert len(hands) == 3  # a 1-point target does not end a 3-hand match
    final = notices[-1]
    assert final.text.msgid.startswith("{winner} wins the match")
    points = [row.params["points"] for row in final.text.params["standings"]]
    assert points == (sorted(points) if scoring == "losers_accumulate" else sorted(points, reverse=True))
    if scoring == "chips":
        assert sum(points) == 0
    tables = h.chat.tables()
    assert tables[-1].last_hand == 3


async def test_rotation_at_one_table_twelve_hands_three_rounds():
    h = Harness(seed=2)
    people = await h.start(1, 3, settings={"rotation": "on"})
    await play_out(h, people[0])
    rounds = [n for n in h.chat.notices() if n.text.msgid.startswith("Round {round}")]
    assert [n.text.params["round"] for n in rounds] == [2, 3]
    hands = [n for n in h.chat.notices() if n.text.msgid == HAND_WON["winner_takes"]]
    assert len(hands) == 12
    assert h.chat.notices()[-1].text.msgid.startswith("{winner} wins the match")
    assert {t.rounds for t in h.chat.tables()} == {3}


async def test_rotation_needs_an_even_number_of_players():
    h = Harness()
    people = await h.lobby(1, 2, settings={"rotation": "on"})
    reply = await h.do(cmds.StartGame, people[0])
    assert not reply.ok and reply.error == "rotation_players"
