"""Levels really differ: seeded head-to-head hands straight on the engine (no coordinator).
The figures these margins guard (400 hands: 0.73 hard vs easy, 0.63 hard vs normal, 0.66 with
four seats, 0.60 under house rules, 0.63 normal vs easy) leave room for engine changes."""

from __future__ import annotations

import pytest

from bot.ai import get_strategy
from bot.ai.arena import play_hand
from bot.engine.rules import PRESETS

HANDS = 400


def win_share(strong: str, weak: str, preset: str, players: int = 2) -> float:
    """Share of hands won by seats of level ``strong`` over HANDS seeded hands where the two
    levels alternate around the table, the first seat switching every hand."""
    levels = {strong: get_strategy(strong), weak: get_strategy(weak)}
    wins = {strong: 0, weak: 0}
    finished = 0
    for seed in range(HANDS):
        order = (strong, weak) if seed % 2 == 0 else (weak, strong)
        seats = {f"{order[i % 2]}#{i}": levels[order[i % 2]] for i in range(players)}
        outcome = play_hand(seats, PRESETS[preset], seed)
        if outcome.winner is not None:
            wins[outcome.winner.split("#")[0]] += 1
            finished += 1
    assert finished >= HANDS * 0.95  # hands end
    return wins[strong] / finished


def test_hard_wins_more_often_than_easy():
    assert win_share("hard", "easy", "official") >= 0.6


@pytest.mark.parametrize("preset, players, share", [("official", 2, 0.55), ("official", 4, 0.56),
                                                    ("house", 2, 0.52)])
def test_hard_beats_normal(preset, players, share):
    assert win_share("hard", "normal", preset, players) >= share


def test_normal_beats_easy():
    assert win_share("normal", "easy", "official") >= 0.54
