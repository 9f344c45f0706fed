"""Levels really differ: seeded head-to-head hands straight on the engine (no coordinator).
Figures over 1,000 hands (`python -m bot.ai.arena`): hard v easy 0.75, hard v normal 0.64
(0.68 with four seats, 0.57 under house rules), normal v easy 0.62. The margins below, over
400 hands, leave room for engine changes."""

from __future__ import annotations

import pytest

from bot.ai import get_strategy
from bot.ai.arena import win_share
from bot.engine.rules import PRESETS

HANDS = 400


def share(strong: str, weak: str, preset: str, seats: int = 2) -> float:
    value, actions = win_share(get_strategy(strong), get_strategy(weak), PRESETS[preset], HANDS, seats)
    assert actions > HANDS * 10  # real hands were played
    return value


def test_hard_wins_more_often_than_easy():
    assert share("hard", "easy", "official") >= 0.6


@pytest.mark.parametrize("preset, seats, at_least", [("official", 2, 0.55), ("official", 4, 0.56),
                                                     ("house", 2, 0.52)])
def test_hard_beats_normal(preset, seats, at_least):
    assert share("hard", "normal", preset, seats) >= at_least


def test_normal_beats_easy():
    assert share("normal", "easy", "official") >= 0.54
