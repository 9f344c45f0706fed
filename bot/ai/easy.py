"""easy: a random legal play; forgets to declare UNO about 30% of the time; never catches."""

from __future__ import annotations

import random

from bot.engine.actions import Challenge, Draw, Pass, Play

from .base import Move, Options, Strategy
from .knowledge import PublicView

FORGET_UNO = 0.3  # so humans get to call "UNO!" on it
CHALLENGE_CHANCE = 0.2
JUMP_IN_CHANCE = 0.5


class EasyStrategy(Strategy):
    name = "easy"

    def decide(self, view: PublicView, options: Options, rng: random.Random) -> Play | Draw | Pass | Challenge:
        if options.can_challenge and rng.random() < CHALLENGE_CHANCE:
            return Challenge(view.player)
        if options.moves:
            return random_completion(rng.choice(options.moves), rng)
        return self.fallback(view, options)

    def declares_uno(self, rng: random.Random) -> bool:
        return rng.random() >= FORGET_UNO

    def pick_jump_in(self, view: PublicView, moves: tuple[Move, ...], rng: random.Random) -> Play | None:
        if rng.random() < JUMP_IN_CHANCE:
            return random_completion(rng.choice(moves), rng)
        return None


def random_completion(move: Move, rng: random.Random) -> Play:
    return rng.choice(move.completions)
