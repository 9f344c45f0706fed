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


def win_share(strong: Strategy, weak: Strategy, rules: RuleSet, hands: int, seats: int = 2,
              first_seed: int = 0) -> tuple[float, int]:
    """Share of finished hands won by ``strong`` seats, the two levels alternating around the
    table and the first seat switching every hand; also how many actions were played."""
    wins = finished = actions = 0
    for seed in range(first_seed, first_seed + hands):
        order = (strong, weak) if seed % 2 == 0 else (weak, strong)
        table = {f"s{i}": order[i % 2] for i in range(seats)}
        outcome = play_hand(table, rules, seed)
        actions += outcome.actions
        if outcome.winner is not None:
            finished += 1
            wins += table[outcome.winner] is strong
    return (wins / finished if finished else 0.0), actions


def main(argv: list[str] | None = None) -> None:
    """Print head-to-head figures: ``python -m bot.ai.arena [--hands N]``."""
    import argparse
    import time

    from bot.engine.rules import PRESETS

    from . import get_strategy

    parser = argparse.ArgumentParser(description="AI levels head to head, straight on the engine.")
    parser.add_argument("--hands", type=int, default=1000)
    args = parser.parse_args(argv)
    print(f"{'pairing':<16}{'rules':<10}{'seats':>6}{'share':>8}{'hands/s':>10}{'actions/s':>11}")
    for strong, weak in (("hard", "easy"), ("hard", "normal"), ("normal", "easy")):
        for preset in ("official", "house"):
            for seats in (2, 4):
                started = time.perf_counter()
                share, actions = win_share(get_strategy(strong), get_strategy(weak),
                                           PRESETS[preset], args.hands, seats)
                took = time.perf_counter() - started
                print(f"{strong + ' v ' + weak:<16}{preset:<10}{seats:>6}{share:>8.3f}"
                      f"{args.hands / took:>10.0f}{actions / took:>11.0f}")


if __name__ == "__main__":
    main()
