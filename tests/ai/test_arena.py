"""Whole hands of mixed levels, every rule set and table size: no seat ever errs."""

from __future__ import annotations

import pytest

from bot.ai import get_strategy
from bot.ai.arena import play_hand
from bot.engine.rules import HOUSE, OFFICIAL

LEVELS = ("easy", "normal", "hard")
RULES = {
    "official": OFFICIAL,
    "house": HOUSE,
    "stack-same-until-playable": OFFICIAL.with_(stacking="same", draw_until_playable=True,
                                                 play_after_draw=False),
    "no-challenge": OFFICIAL.with_(wd4_challenge=False, uno_penalty=4),
}


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
@pytest.mark.parametrize("players", [2, 3, 10])
def test_mixed_tables_play_hands_to_the_end(rules, players):
    seats = {f"s{i}": get_strategy(LEVELS[i % 3]) for i in range(players)}
    for seed in range(6):
        outcome = play_hand(seats, rules, seed)
        assert outcome.winner in seats
        assert outcome.state.card_total() == 108


def test_the_same_seed_replays_the_same_hand():
    seats = {f"s{i}": get_strategy(LEVELS[i % 3]) for i in range(4)}
    first = play_hand(seats, HOUSE, 7)
    again = play_hand(seats, HOUSE, 7)
    assert (first.winner, first.actions, first.state) == (again.winner, again.actions, again.state)
