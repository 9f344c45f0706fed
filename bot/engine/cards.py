"""Cards, colours and ranks: small frozen value types and the spec's card notation."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .errors import BadAction


class Color(enum.Enum):
    RED = "R"
    GREEN = "G"
    BLUE = "B"
    YELLOW = "Y"

    @classmethod
    def parse(cls, text: str) -> Color:
        if not isinstance(text, str):
            raise BadAction(f"unknown colour {text!r}", text)
        try:
            return cls(text.strip().upper()[:1]) if len(text.strip()) == 1 else cls[text.strip().upper()]
        except (KeyError, ValueError):
            raise BadAction(f"unknown colour {text!r}", text) from None


class Rank(enum.Enum):
    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"

    @property
    def is_number(self) -> bool:
        return self.value.isdigit()

    @property
    def is_wild(self) -> bool:
        return self in (Rank.WILD, Rank.WILD_DRAW_FOUR)

    @property
    def number(self) -> int | None:
        return int(self.value) if self.is_number else None

    @property
    def points(self) -> int:
        """Official scoring value of a card of this rank."""
        if self.is_number:
            return int(self.value)
        return 50 if self.is_wild else 20

    @property
    def draw_amount(self) -> int:
        return {Rank.DRAW_TWO: 2, Rank.WILD_DRAW_FOUR: 4}.get(self, 0)


@dataclass(frozen=True, eq=False, init=False)
class Card:
    """One card. Wilds have ``color`` None: the colour chosen for them lives in the state.

    There is exactly one instance per (colour, rank): ``Card(color, rank)`` returns it, and
    copies and pickles come back as it. So equality and hashing are by identity, which CPython
    does in C: the engine compares, counts and dedupes cards on every move.
    """

    color: Color | None
    rank: Rank

    def __new__(cls, color: Any, rank: Any) -> Card:  # Any: a bad value is refused below
        try:
            card = _CANONICAL.get((color, rank))
        except TypeError:  # an unhashable colour or rank: refused just below
            card = None
        if card is None:
            if not (isinstance(rank, Rank) and (color is None or isinstance(color, Color))
                    and rank.is_wild == (color is None)):
                raise BadAction(f"invalid card {color} {rank}", str(getattr(rank, "value", rank)))
            card = object.__new__(cls)
            object.__setattr__(card, "color", color)
            object.__setattr__(card, "rank", rank)
            card = _CANONICAL.setdefault((color, rank), card)
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[Color | None, Rank]]:
        return (Card, (self.color, self.rank))

    @classmethod
    def of(cls, color: Color | None, rank: Rank) -> Card:
        """The one instance for this colour and rank (the same as ``Card(color, rank)``)."""
        return cls(color, rank)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the spec notation (``R5``, ``GS``, ``B+2``, ``W``, ``W+4``), case-insensitively."""
        if not isinstance(text, str):
            raise BadAction(f"card must be a string, not {type(text).__name__}", text)
        t = text.strip().upper()
        if t in ("W", "W+4"):
            return cls.of(None, Rank(t))
        if len(t) >= 2 and t[0] in "RGBY":
            try:
                return cls.of(Color(t[0]), Rank(t[1:]))
            except ValueError:
                pass
        raise BadAction(f"unknown card {text!r}", text)

    @property
    def is_wild(self) -> bool:
        return self.rank.is_wild

    @property
    def points(self) -> int:
        return self.rank.points

    def __str__(self) -> str:
        return self.rank.value if self.color is None else self.color.value + self.rank.value

    def __repr__(self) -> str:
        return f"Card({self})"


_CANONICAL: dict[tuple[Color | None, Rank], Card] = {}


def _build_deck() -> tuple[Card, ...]:
    deck: list[Card] = []
    for color in Color:
        deck.append(Card.of(color, Rank.ZERO))
        for rank in Rank:
            if rank is not Rank.ZERO and not rank.is_wild:
                deck += [Card.of(color, rank)] * 2
    deck += [Card.of(None, Rank.WILD)] * 4 + [Card.of(None, Rank.WILD_DRAW_FOUR)] * 4
    return tuple(deck)


_DECK = _build_deck()


def full_deck() -> list[Card]:
    """The 108-card deck in a fixed order: per colour one 0, two of 1-9/S/R/+2; 4 W; 4 W+4.
    The cards are the canonical instances (``Card.of``)."""
    return list(_DECK)


# Sort key for showing a hand: by colour, then rank order, wilds last.
_COLOR_ORDER = {c: i for i, c in enumerate(Color)}
_RANK_ORDER = {r: i for i, r in enumerate(Rank)}


def display_order(card: Card) -> tuple[int, int]:
    return (_COLOR_ORDER[card.color] if card.color else len(_COLOR_ORDER), _RANK_ORDER[card.rank])
