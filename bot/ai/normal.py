"""normal: greedy by points (dump the most valuable cards first), always declares UNO, names
the colour it holds most, swaps with whoever holds fewest cards, catches whenever it can."""

from __future__ import annotations

import random

from bot.engine.actions import Challenge, Draw, Pass, Play
from bot.engine.cards import Color

from .base import Move, Options, Strategy
from .knowledge import PublicView


class NormalStrategy(Strategy):
    name = "normal"

    def decide(self, view: PublicView, options: Options, rng: random.Random) -> Play | Draw | Pass | Challenge:
        if not options.moves:
            return self.fallback(view, options)
        return self.complete(view, max(options.moves, key=greedy_key))

    def pick_catch(self, view: PublicView, targets: list[str], rng: random.Random) -> str | None:
        return targets[0]

    def pick_jump_in(self, view: PublicView, moves: tuple[Move, ...], rng: random.Random) -> Play | None:
        return self.complete(view, max(moves, key=greedy_key))

    def complete(self, view: PublicView, move: Move) -> Play:
        color = most_held_color(view, move) if move.colors else None
        swap = fewest_cards(view, move.swap_targets) if move.swap_targets else None
        return move.complete(color, swap)


def greedy_key(move: Move) -> tuple[int, int, int]:
    """Most points first; on a tie more cards, then the card that hurts the next player most."""
    return (move.points, len(move.cards), move.card.rank.draw_amount)


def remaining_hand(view: PublicView, move: Move) -> list:
    rest = list(view.hand)
    for card in move.cards:
        rest.remove(card)
    return rest


def most_held_color(view: PublicView, move: Move) -> Color:
    """The legal colour this seat holds most of after the play (first in order on a tie)."""
    rest = remaining_hand(view, move)
    return max(move.colors, key=lambda c: sum(1 for card in rest if card.color is c))


def fewest_cards(view: PublicView, targets: tuple[str, ...]) -> str:
    return min(targets, key=view.count)
