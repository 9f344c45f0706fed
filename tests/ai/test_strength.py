"""Hard beats easy: a real head-to-head over seeded hands, straight on the engine."""

from __future__ import annotations

from bot.ai import get_strategy
from bot.ai.arena import play_hand
from bot.engine.rules import PRESETS

HANDS = 300


def head_to_head(strong: str, weak: str, preset: str) -> tuple[int, int]:
    """Hands won by each level over HANDS seeded two-player hands, seats alternating."""
    wins = {strong: 0, weak: 0}
    levels = {strong: get_strategy(strong), weak: get_strategy(weak)}
    for seed in range(HANDS):
        order = (strong, weak) if seed % 2 == 0 else (weak, strong)
        outcome = play_hand({name: levels[name] for name in order}, PRESETS[preset], seed)
        if outcome.winner is not None:
            wins[outcome.winner] += 1
    return wins[strong], wins[weak]


def test_hard_wins_more_often_than_easy():
    hard, easy = head_to_head("hard", "easy", "official")
    assert hard + easy >= HANDS * 0.95  # hands end
    assert hard >= 0.58 * (hard + easy), (hard, easy)
