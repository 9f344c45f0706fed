"""Engine speed: greedy self-play (a random legal play if any, else draw), 4 players, to the
first empty hand. Prints games/s and actions/s for the official and house presets and, when
``rlcard`` is installed (``pip install .[bench]``), RLCard's raw UNO engine and the ratio.

    python bench/engine.py [GAMES] [ROUNDS]

The engine runs as installed: compiled with mypyc by ``pip install -e .`` / ``make`` (setup.py),
or from its sources with ``UNOBOT_PURE_PYTHON=1`` at install; the first line printed says which.

Our official hands take ~60 actions to RLCard's ~50 because of the rules, not the policy:
playing the card just drawn is its own action (RLCard plays a matching drawn card inside the
draw), about 5 per hand; a W+4 waits for the victim to take it or challenge (about 2 per
hand); RLCard only allows W+4 when nothing else matches.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import (  # noqa: E402
    COMPILED,
    PRESETS,
    ChooseColor,
    Color,
    Draw,
    Play,
    apply,
    legal_actions,
    new_hand,
)

PLAYERS = ("p0", "p1", "p2", "p3")
DRAWS = {p: Draw(p) for p in PLAYERS}  # actions are values: one per player, like RLCard's "draw"


def greedy_game(rules, seed: int, rnd: random.Random) -> int:
    """One hand to its end; returns the number of actions applied. The mirror of RLCard's loop:
    its ``get_legal_actions`` lists the legal plays, or ``draw`` when there are none; ours asks
    the full ``legal_actions`` every turn, as the coordinator does, picks among its Plays, and
    with none the player draws (or takes the waiting penalty). ``apply`` checks every action in
    full either way. (A drawn card is only kept when it is playable, so there is always a play
    then: no Pass.)"""
    state, _ = new_hand(PLAYERS, rules, seed)
    actions = 0
    if state.color is None and state.current == state.dealer:  # a first Wild: the dealer names it
        state, _ = apply(state, ChooseColor(state.dealer, Color(rnd.choice("RGBY"))))
        actions += 1
    while state.winner is None:
        player = state.current
        plays = [a for a in legal_actions(state, player) if type(a) is Play]
        state, _ = apply(state, rnd.choice(plays) if plays else DRAWS[player])
        actions += 1
    return actions


def run_unobot(preset: str, games: int, first_seed: int) -> tuple[float, int]:
    rules = PRESETS[preset]
    rnd = random.Random(first_seed)
    start = time.process_time()
    actions = sum(greedy_game(rules, seed, rnd) for seed in range(first_seed, first_seed + games))
    return time.process_time() - start, actions


def make_rlcard():
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    game = UnoGame(num_players=4)

    def run(games: int, first_seed: int) -> tuple[float, int]:
        game.np_random.seed(first_seed)  # the same games for the same first seed
        rnd = random.Random(first_seed)
        actions = 0
        start = time.process_time()
        for _ in range(games):
            game.init_game()
            while not game.is_over():
                game.step(rnd.choice(game.get_legal_actions()))
                actions += 1
        return time.process_time() - start, actions

    return run


def main() -> None:
    """Engines run in alternating rounds and are timed in CPU time of this process (the machine
    may be shared). Every round plays the same games (the same seeds), so rounds differ only by
    noise: each engine's best round is reported, and the ratio of those."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", type=int, nargs="?", default=3000, help="games per engine, over every round")
    parser.add_argument("rounds", type=int, nargs="?", default=5, help="alternating rounds")
    args = parser.parse_args()
    games, rounds = args.games, args.rounds
    per_round = max(1, games // rounds)
    print(f"engine: {'compiled (mypyc)' if COMPILED else 'uncompiled (pure Python)'}")
    runners = {"unobot official": lambda n, s: run_unobot("official", n, s),
               "unobot house": lambda n, s: run_unobot("house", n, s)}
    rl = make_rlcard()
    if rl is not None:
        runners["rlcard raw UNO"] = rl
    else:
        print("rlcard not installed: pip install .[bench] to compare")
    best: dict[str, tuple[float, int]] = {}
    for _ in range(rounds):
        for name, run in runners.items():
            elapsed, actions = run(per_round, 0)
            if name not in best or elapsed < best[name][0]:
                best[name] = (elapsed, actions)
    for name, (elapsed, actions) in best.items():
        print(f"{name:16s} {per_round / elapsed:8.0f} games/s  {actions / elapsed:9.0f} actions/s  "
              f"({actions / per_round:.1f} actions/game; best of {rounds} rounds of {per_round} games)")
    if rl is not None:
        theirs = per_round / best["rlcard raw UNO"][0]
        for preset, target in (("official", 1.5), ("house", 1.0)):
            ours = per_round / best[f"unobot {preset}"][0]
            print(f"{preset} / rlcard = {ours / theirs:.2f}x (target >= {target}x)")


if __name__ == "__main__":
    main()
