"""What a seat may know: its own hand and the public table, nothing else.

``PublicView`` is the only door from a strategy to the game state. It exposes the seat's own
hand, card counts, the discard pile, the top card and colour, direction and the flags the
table shows. Other hands and the draw pile order are deliberately not reachable from here.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from bot.engine import GameState
from bot.engine.cards import Card, Color, Rank, full_deck

_DECK = Counter(full_deck())


class PublicView:
    """A read-only window on ``state`` as ``player`` sees it."""

    def __init__(self, state: GameState, player: str) -> None:
        self._state = state
        self.player = player
        self.hand: tuple[Card, ...] = state.hand(player)
        self.players: tuple[str, ...] = state.players
        self.top: Card = state.top
        self.color: Color | None = state.color  # None only after a first-card Wild
        self.direction: int = state.direction
        self.pending_draw: int = state.pending_draw
        self.drawn_card: Card | None = state.drawn_card
        self.discard: tuple[Card, ...] = state.discard
        self.rules = state.rules
        # Who played the Wild Draw Four now waiting on the current player: everyone saw it.
        self.wild_draw_four_by: str | None = state.wd4_by

    def count(self, player: str) -> int:
        return self._state.card_count(player)

    def team_of(self, player: str) -> int | None:
        return self._state.team_of(player)

    def is_partner(self, player: str) -> bool:
        mine = self.team_of(self.player)
        return mine is not None and player != self.player and self.team_of(player) == mine

    def seat_after(self, player: str, steps: int = 1) -> str:
        """The player ``steps`` seats after ``player`` in the current direction."""
        index = self.players.index(player)
        return self.players[(index + steps * self.direction) % len(self.players)]

    @property
    def next_player(self) -> str:
        return self.seat_after(self.player)

    @property
    def previous_player(self) -> str:
        return self.seat_after(self.player, -1)

    @property
    def opponents(self) -> tuple[str, ...]:
        return tuple(p for p in self.players if p != self.player and not self.is_partner(p))

    # ---- card counting ------------------------------------------------------------------

    @cached_property
    def unseen(self) -> Counter[Card]:
        """Cards this seat has not seen: the deck minus the discard pile and its own hand.
        They are somewhere in other hands or the draw pile; which, the seat cannot know."""
        left = Counter(_DECK)
        left.subtract(self.discard)
        left.subtract(self.hand)
        return +left  # drop non-positive counts

    def unseen_of(self, color: Color) -> int:
        return sum(n for card, n in self.unseen.items() if card.color is color)

    def seen_of(self, color: Color) -> int:
        """Cards of ``color`` gone to the discard pile (fewer remain for the opponents)."""
        return sum(1 for card in self.discard if card.color is color)

    def probability_lacks(self, color: Color, cards: int) -> float:
        """Chance that ``cards`` unseen cards drawn at random hold none of ``color``."""
        total = sum(self.unseen.values())
        of_color = self.unseen_of(color)
        chance = 1.0
        for i in range(cards):
            if total - i <= 0:
                break
            chance *= max(total - of_color - i, 0) / (total - i)
        return chance

    def color_before_top(self) -> Color | None:
        """The colour in force before the top card, when the discard pile shows it."""
        if len(self.discard) < 2:
            return None
        below = self.discard[-2]
        return below.color  # None under a wild: the colour named then is not on the pile

    def top_is_wild_draw_four(self) -> bool:
        return self.top.rank is Rank.WILD_DRAW_FOUR


__all__ = ["PublicView"]
