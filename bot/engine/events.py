"""Events: every change of state, past tense, returned by ``apply``. Hands stay out of public
events: ``CardsDrawn.cards`` is private to the drawer (the coordinator shows only the count).

The events a move makes fresh (the others are shared per player, see ``core.SeatCache``) write
their ``__init__`` out, with the fields' names, order and defaults: compiled, it runs natively,
about five times faster than the one @dataclass generates, which runs interpreted
(tests/engine/test_state_fields.py checks they agree)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, Color


@dataclass(frozen=True)
class Event:
    pass


@dataclass(frozen=True)
class DealerChosen(Event):
    dealer: str
    draws: tuple[tuple[str, Card], ...] = ()  # the cards turned to choose the dealer, in order


@dataclass(frozen=True)
class HandDealt(Event):
    dealer: str
    hand_size: int


@dataclass(frozen=True)
class FirstCardTurned(Event):
    card: Card
    reshuffled: bool = False  # a W+4 went back and another card was turned


@dataclass(frozen=True, init=False)
class CardPlayed(Event):
    player: str
    cards: tuple[Card, ...]
    color: Color  # colour in force after the play
    jump_in: bool = False

    def __init__(self, player: str, cards: tuple[Card, ...], color: Color,
                 jump_in: bool = False) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "jump_in", jump_in)


@dataclass(frozen=True, init=False)
class CardsDrawn(Event):
    player: str
    count: int
    cards: tuple[Card, ...] = field(default=(), repr=False)  # secret: the drawer's eyes only
    reason: str = "draw"  # draw | penalty | uno_penalty | false_uno | challenge | first_card

    def __init__(self, player: str, count: int, cards: tuple[Card, ...] = (),
                 reason: str = "draw") -> None:
        # Written out (see the module's docstring): every draw makes one.
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "reason", reason)


@dataclass(frozen=True)
class TurnPassed(Event):
    player: str  # kept the drawn card / could not play


@dataclass(frozen=True)
class PlayerSkipped(Event):
    player: str


@dataclass(frozen=True)
class DirectionReversed(Event):
    direction: int


@dataclass(frozen=True)
class ColorChosen(Event):
    player: str
    color: Color


@dataclass(frozen=True, init=False)
class PenaltyPending(Event):
    player: str  # who must stack, draw or challenge
    amount: int

    def __init__(self, player: str, amount: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)


@dataclass(frozen=True)
class UnoDeclared(Event):
    player: str


@dataclass(frozen=True)
class UnoCaught(Event):
    caller: str
    target: str
    penalty: int


@dataclass(frozen=True)
class FalseUnoCall(Event):
    caller: str
    target: str
    penalty: int


@dataclass(frozen=True)
class ChallengeWon(Event):
    challenger: str
    bluffer: str  # drew 4
    # The challenged hand as it was when challenged: shown to the challenger only, never public.
    hand: tuple[Card, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class ChallengeLost(Event):
    challenger: str  # drew 6
    player: str
    # The challenged hand as it was when challenged: shown to the challenger only, never public.
    hand: tuple[Card, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class HandsSwapped(Event):
    player: str
    other: str


@dataclass(frozen=True)
class HandsRotated(Event):
    direction: int


@dataclass(frozen=True)
class DeckReshuffled(Event):
    cards: int  # how many cards went from the discard pile into the stock


@dataclass(frozen=True)
class PlayerJoined(Event):
    player: str  # joined a running game
    after: str | None  # seated to play after this player (None: joined between hands)
    cards: int  # how many cards they were dealt (0 between hands: the next deal includes them)


@dataclass(frozen=True)
class TurnStarted(Event):
    player: str


@dataclass(frozen=True)
class HandWon(Event):
    winner: str
    points: int  # what the winner (or their team) scores from the others' cards
    scores: tuple[tuple[str, int], ...] = ()  # per-player points change for this hand


@dataclass(frozen=True)
class MatchWon(Event):
    winner: str  # in teams mode, a member of the winning team
    standings: tuple[tuple[str, int], ...] = ()
