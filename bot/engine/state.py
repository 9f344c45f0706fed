"""GameState: one hand of UNO as a value, with an exact plain-JSON round trip.

Seats are player id strings; internally seats are addressed by index into ``players``.
A state is a value: the engine never changes one, it builds the next (``evolve`` is a copy
with some fields replaced). Every collection in it is a tuple or frozenset, so copies share
structure safely. The class is a plain dataclass rather than a frozen one so that the
mypyc-compiled engine builds each new state natively (a frozen dataclass initialises every
field through ``object.__setattr__``: ~2 us a state); nothing outside the engine assigns to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Final

from .cards import Card, Color, full_deck
from .errors import BadAction
from .rules import RuleSet

# One canonical Card object per notation: parsing JSON reuses them (cheap and identity-friendly).
CARD_BY_NAME: Final[dict[str, Card]] = {str(c): c for c in full_deck()}


def card_from_name(name: Any) -> Card:
    if isinstance(name, str):
        card = CARD_BY_NAME.get(name)
        if card is not None:
            return card
        return CARD_BY_NAME[str(Card.parse(name))]
    return Card.parse(name)  # raises BadAction with the offending input


# How GameState.from_position builds a position: ``deal.position``, which registers itself
# (it turns the first card with the working copy of a move, which itself builds on this module).
POSITION_BUILDERS: Final[list[Callable[..., tuple[GameState, list]]]] = []


def use_position_builder(build: Callable[..., tuple[GameState, list]]) -> None:
    POSITION_BUILDERS[:] = [build]


def cards_from_names(names: Any) -> tuple[Card, ...]:
    if not isinstance(names, list | tuple):
        raise BadAction("a list of cards is required", names)
    return tuple(card_from_name(n) for n in names)


@dataclass
class GameState:
    """One hand. ``turn`` is the seat index to act (None once the hand is over).

    Every construction names its fields (by keyword, ``build_state`` on the hot paths, or
    ``evolve`` for a copy), so a new
    field cannot be dropped by a transition (tests/engine/test_state_fields.py checks each).

    ``color`` is the colour in force; it is None only after a Wild turned as the first card,
    when the first player may play any card (and so sets the colour).
    ``draw_pile`` is listed top first, ``discard`` bottom first (its last card is on top).
    """

    rules: RuleSet
    players: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]  # per seat, in the order cards entered the hand
    draw_pile: tuple[Card, ...]
    discard: tuple[Card, ...]
    color: Color | None
    direction: int
    turn: int | None
    dealer: str
    pending_draw: int = 0
    drawn_card: Card | None = None  # the current player drew this and may play it or pass
    declared: frozenset[str] = frozenset()  # hold one card and said UNO
    catchable: tuple[str, ...] = ()  # hold one card, did not declare, window still open
    caught: frozenset[str] = frozenset()  # were called out while holding their one card
    wd4_by: str | None = None  # who played the W+4 the current player may challenge
    wd4_bluff: bool = False  # that player held a card of the colour in force before it
    winner: str | None = None
    hand_points: tuple[tuple[str, int], ...] = ()
    team_ids: tuple[int, ...] = ()  # per seat when teams are on, else empty
    seed: int | str = 0
    rng_counter: int = 0  # advanced by every shuffle, so a game replays exactly
    # Cards the last +2/+4 play added to the waiting penalty: what a ``by_value`` stack answers.
    penalty_play: int = 0

    # -- copies -----------------------------------------------------------------------------
    def evolve(self, **changes: Any) -> GameState:
        """A copy with some fields replaced (no validation: the engine keeps invariants)."""
        return replace(self, **changes)

    # -- read access ------------------------------------------------------------------------
    @property
    def current(self) -> str | None:
        return None if self.turn is None else self.players[self.turn]

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def draw_pile_count(self) -> int:
        return len(self.draw_pile)

    @property
    def points(self) -> dict[str, int]:
        """What the hand's winner scored from the others' cards; {} while the hand runs."""
        return dict(self.hand_points)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def challengeable(self) -> bool:
        """The current player may challenge the W+4 just played on them."""
        return self.wd4_by is not None and self.pending_draw > 0 and self.turn is not None

    def seat(self, player: str) -> int:
        try:
            return self.players.index(player)
        except ValueError:
            raise BadAction(f"{player!r} is not in this hand", player) from None

    def hand(self, player: str) -> tuple[Card, ...]:
        return self.hands[self.seat(player)]

    def card_count(self, player: str) -> int:
        return len(self.hands[self.seat(player)])

    def team_of(self, player: str) -> int | None:
        if not self.team_ids:
            return None
        return self.team_ids[self.seat(player)]

    def teammates(self, player: str) -> tuple[str, ...]:
        """The player and their partner(s); just the player when teams are off."""
        team = self.team_of(player)
        if team is None:
            return (player,)
        return tuple(p for p, t in zip(self.players, self.team_ids, strict=True) if t == team)

    def card_total(self) -> int:
        return len(self.draw_pile) + len(self.discard) + sum(len(h) for h in self.hands)

    # -- JSON -------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain JSON types only; ``GameState.from_json(s.to_json()) == s``. Holds every hand:
        this is for storage, not for showing to players."""
        return {
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "hands": [[str(c) for c in h] for h in self.hands],
            "draw_pile": [str(c) for c in self.draw_pile],
            "discard": [str(c) for c in self.discard],
            "color": None if self.color is None else self.color.value,
            "direction": self.direction,
            "turn": self.turn,
            "dealer": self.dealer,
            "pending_draw": self.pending_draw,
            "drawn_card": None if self.drawn_card is None else str(self.drawn_card),
            "declared": sorted(self.declared),
            "catchable": list(self.catchable),
            "caught": sorted(self.caught),
            "wd4_by": self.wd4_by,
            "wd4_bluff": self.wd4_bluff,
            "winner": self.winner,
            "hand_points": [[p, n] for p, n in self.hand_points],
            "team_ids": list(self.team_ids),
            "seed": self.seed,
            "rng_counter": self.rng_counter,
            "penalty_play": self.penalty_play,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        try:
            known = {f.name for f in fields(cls)}
            unknown = set(data) - known
            if unknown:
                raise BadAction(f"unknown state field(s): {sorted(unknown)}", data)
            rules = data["rules"]
            if isinstance(rules, dict) and "first_wild" not in rules:
                # Stored before first_wild existed: a first Wild then let anyone play any card.
                rules = {**rules, "first_wild": "any_card"}
            return cls(
                rules=rules if isinstance(rules, RuleSet) else RuleSet(**rules),
                players=tuple(data["players"]),
                hands=tuple(cards_from_names(h) for h in data["hands"]),
                draw_pile=cards_from_names(data["draw_pile"]),
                discard=cards_from_names(data["discard"]),
                color=None if data["color"] is None else Color(data["color"]),
                direction=int(data["direction"]),
                turn=data["turn"],
                dealer=data["dealer"],
                pending_draw=int(data.get("pending_draw", 0)),
                drawn_card=None if data.get("drawn_card") is None else card_from_name(data["drawn_card"]),
                declared=frozenset(data.get("declared", ())),
                catchable=tuple(data.get("catchable", ())),
                caught=frozenset(data.get("caught", ())),
                wd4_by=data.get("wd4_by"),
                wd4_bluff=bool(data.get("wd4_bluff", False)),
                winner=data.get("winner"),
                hand_points=tuple((p, int(n)) for p, n in data.get("hand_points", ())),
                team_ids=tuple(data.get("team_ids", ())),
                seed=data.get("seed", 0),
                rng_counter=int(data.get("rng_counter", 0)),
                penalty_play=int(data.get("penalty_play", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BadAction):
                raise
            raise BadAction(f"malformed game state: {exc!r}", None) from None

    # -- building a position ----------------------------------------------------------------
    @classmethod
    def from_position(cls, players: Any, hands: Any, draw_pile: Any, *, rules: RuleSet | None = None,
                      discard: Any = None, color: Any = None, current: str | None = None,
                      direction: int = 1, dealer: str | None = None, pending_draw: int = 0,
                      seed: int | str = 0) -> tuple[GameState, list]:
        """A state from the scenario format (see ``scenario.py``). Without ``discard`` the top of
        ``draw_pile`` is turned as the first card with its official effects (``dealer`` deals)."""
        return POSITION_BUILDERS[0](players, hands, draw_pile, rules=rules, discard=discard, color=color,
                        current=current, direction=direction, dealer=dealer,
                        pending_draw=pending_draw, seed=seed)


def build_state(*, rules: RuleSet, players: tuple[str, ...], hands: tuple[tuple[Card, ...], ...],
                draw_pile: tuple[Card, ...], discard: tuple[Card, ...], color: Color | None,
                direction: int, turn: int | None, dealer: str, pending_draw: int,
                drawn_card: Card | None, declared: frozenset[str], catchable: tuple[str, ...],
                caught: frozenset[str], wd4_by: str | None, wd4_bluff: bool, winner: str | None,
                hand_points: tuple[tuple[str, int], ...], team_ids: tuple[int, ...],
                seed: int | str, rng_counter: int, penalty_play: int) -> GameState:
    """A GameState from every field, each by name and none defaulted: how the hot paths build
    the next state. (Compiled, this native keyword-only call costs what a positional one
    does, while a keyword call of the dataclass itself is about three times slower.)"""
    return GameState(rules, players, hands, draw_pile, discard, color, direction, turn, dealer,
                     pending_draw, drawn_card, declared, catchable, caught, wd4_by, wd4_bluff,
                     winner, hand_points, team_ids, seed, rng_counter, penalty_play)
