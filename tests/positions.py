"""Positions reached by random legal play: what the move-model tests walk through, for every
frontend alike (the engine's property-test strategies pick rules, players and seeds)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.engine import GameState, apply, legal_actions, new_hand
from tests.engine.test_properties import choose


def positions(players, rules, seed: int, steps: int) -> Iterator[GameState]:
    """The hand dealt with ``seed``, then up to ``steps`` positions of random play."""
    rnd = random.Random(seed)
    state, _ = new_hand(players, rules, seed)
    for _ in range(steps):
        yield state
        if state.winner is not None:
            return
        try:
            state, _ = apply(state, choose(state, rnd))
        except Exception:  # a refused random choice: the first legal move of the player to act
            state, _ = apply(state, legal_actions(state, state.current)[0])
