"""Engine speed: greedy self-play (a random legal play if any, else draw/pass), 4 players, to the
first empty hand. Prints games/s and actions/s for the official and house presets and, when
``rlcard`` is installed (``pip install .[bench]``), RLCard's raw UNO engine and the ratio.

    python bench/engine.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import PRESETS, Draw, Pass, Play, apply, legal_actions, new_hand  # noqa: E402

PLAYERS = ("p0", "p1", "p2", "p3")


def greedy_game(rules, seed: int, rnd: random.Random) -> int:
    """One hand to its end; returns the number of actions applied."""
    state, _ = new_hand(PLAYERS, rules, seed)
    actions = 0
    while state.winner is not None or True:
        if state.winner is not None:
            return actions
        options = legal_actions(state, state.current)
        plays = [a for a in options if type(a) is Play]
        if plays:
            action = rnd.choice(plays)
        else:  # draw (or take the penalty), or keep the drawn card
            action = next(a for a in options if type(a) is Draw or type(a) is Pass)
        state, _ = apply(state, action)
        actions += 1
    return actions


def bench_engine(preset: str, games: int) -> float:
    rules = PRESETS[preset]
    rnd = random.Random(1)
    start = time.perf_counter()
    actions = sum(greedy_game(rules, seed, rnd) for seed in range(games))
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    print(f"unobot {preset:9s} {rate:8.0f} games/s  {actions / elapsed:9.0f} actions/s  "
          f"({actions / games:.1f} actions/game, {games} games)")
    return rate


def bench_rlcard(games: int) -> float | None:
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        print("rlcard not installed: pip install .[bench] to compare")
        return None
    rnd = random.Random(1)
    game = UnoGame(num_players=4)
    game.np_random.seed(1)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(rnd.choice(game.get_legal_actions()))
            actions += 1
    elapsed = time.perf_counter() - start
    rate = games / elapsed
    print(f"rlcard    raw UNO {rate:8.0f} games/s  {actions / elapsed:9.0f} actions/s  "
          f"({actions / games:.1f} actions/game, {games} games)")
    return rate


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    official = bench_engine("official", games)
    bench_engine("house", games)
    theirs = bench_rlcard(games)
    if theirs:
        print(f"official / rlcard = {official / theirs:.2f}x (target >= 1.5x)")


if __name__ == "__main__":
    main()
