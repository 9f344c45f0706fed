"""Seats playing each other straight on the engine (no coordinator): for tests and benches.

After every action each other seat gets a chance to react (call "UNO!" or jump in), in seat
order starting after the actor, as quick players in a chat would.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine import GameState, apply, new_hand
from bot.engine.rules import RuleSet

from .base import Strategy


@dataclass(frozen=True)
class HandOutcome:
    winner: str | None  # None when the step cap was reached
    actions: int
    state: GameState


def play_hand(seats: Mapping[str, Strategy], rules: RuleSet, seed: int, *,
              max_actions: int = 2000) -> HandOutcome:
    """Play one hand between ``seats`` (player -> strategy, in seat order)."""
    players = tuple(seats)
    rng = random.Random(f"arena:{seed}")
    state, _ = new_hand(players, rules, seed)
    actions = 0
    while state.winner is None and actions < max_actions:
        actor = state.current
        if actor is None:
            break
        state, _ = apply(state, seats[actor].choose(state, actor, rng))
        actions += 1
        state, reacted = react_round(state, seats, actor, rng)
        actions += reacted
    return HandOutcome(state.winner, actions, state)


def react_round(state: GameState, seats: Mapping[str, Strategy], actor: str,
                rng: random.Random) -> tuple[GameState, int]:
    """Offer every other seat one reaction; apply those that are still legal."""
    if state.winner is not None or not (state.catchable or state.rules.jump_in):
        return state, 0
    players = state.players
    start = players.index(actor) if actor in players else 0
    applied = 0
    for offset in range(1, len(players)):
        player = players[(start + offset) % len(players)]
        action = seats[player].react(state, player, rng)
        if action is None:
            continue
        state, _ = apply(state, action)
        applied += 1
        if state.winner is not None:
            break
    return state, applied
