"""The working copy that one ``apply`` mutates before freezing it into the next GameState, and
the per-player values every move hands out again and again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from . import events as ev
from .actions import Challenge, DeclareUno, Draw, Pass, Play
from .cards import Card, Color
from .predicates import COLORS
from .rng import seeded_rng, shuffle
from .rules import MAX_PLAYERS as MAX_PLAYERS  # noqa: F401  (read by the coordinator)
from .state import GameState, build_state


class WorkingCopy:
    """A mutable working copy of a GameState for one ``apply``; ``freeze`` makes the next state.
    Every change to the UNO bookkeeping (declared, catchable, caught) goes through it."""

    __slots__ = ("s", "hands", "pile", "discard", "color", "direction", "turn", "pending", "drawn",
                 "declared", "catchable", "caught", "wd4_by", "wd4_bluff", "winner", "points",
                 "counter", "events", "n", "penalty_play")

    def __init__(self, s: GameState) -> None:
        self.s = s
        self.hands = list(s.hands)
        self.pile = s.draw_pile
        self.discard = s.discard
        self.color = s.color
        self.direction = s.direction
        self.turn = s.turn
        self.pending = s.pending_draw
        self.drawn = s.drawn_card
        self.declared = s.declared
        self.catchable = s.catchable
        self.caught = s.caught
        self.wd4_by = s.wd4_by
        self.wd4_bluff = s.wd4_bluff
        self.winner = s.winner
        self.points = s.hand_points
        self.counter = s.rng_counter
        self.penalty_play = s.penalty_play
        self.events: list[ev.Event] = []
        self.n = len(s.players)

    def freeze(self) -> GameState:
        s = self.s  # rules, players, dealer, team_ids and seed stay
        return build_state(
            rules=s.rules, players=s.players, hands=tuple(self.hands), draw_pile=self.pile,
            discard=self.discard, color=self.color, direction=self.direction, turn=self.turn,
            dealer=s.dealer, pending_draw=self.pending, drawn_card=self.drawn,
            declared=self.declared, catchable=self.catchable, caught=self.caught,
            wd4_by=self.wd4_by, wd4_bluff=self.wd4_bluff, winner=self.winner,
            hand_points=self.points, team_ids=s.team_ids, seed=s.seed, rng_counter=self.counter,
            penalty_play=self.penalty_play if self.pending else 0)

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def start_turn(self, seat: int) -> None:
        self.turn = seat
        self.drawn = None
        self.events.append(seat_cache(self.s.players[seat]).started)

    def take(self, count: int) -> tuple[Card, ...]:
        """Up to ``count`` cards off the stock, refilling it from the discard pile if it runs out."""
        pile = self.pile
        if len(pile) >= count:
            self.pile = pile[count:]
            return pile[:count]
        got = pile
        self.pile = ()
        if len(self.discard) > 1:
            rest = list(self.discard[:-1])
            shuffle(seeded_rng(self.s.seed, self.counter), rest)
            self.counter += 1
            self.discard = self.discard[-1:]
            self.events.append(ev.DeckReshuffled(len(rest)))
            need = count - len(got)
            got += tuple(rest[:need])
            self.pile = tuple(rest[need:])
        return got

    def draw(self, seat: int, count: int, reason: str) -> tuple[Card, ...]:
        cards = self.take(count)
        if cards:
            self.hands[seat] = self.hands[seat] + cards
            self.hand_changed(seat)
        self.events.append(ev.CardsDrawn(self.s.players[seat], len(cards), cards, reason))
        return cards

    def skip(self, seat: int) -> None:
        self.events.append(seat_cache(self.s.players[seat]).skipped)

    def reverse(self) -> None:
        self.direction = -self.direction
        self.events.append(REVERSED[1] if self.direction == 1 else REVERSED[0])

    def hand_changed(self, seat: int) -> None:
        """UNO bookkeeping only applies to a one-card hand: forget it when the count moves
        (cards were added: a hand of identical cards that grows declares again)."""
        if len(self.hands[seat]) != 1:
            self.forget_uno(self.s.players[seat])

    def forget_uno(self, player: str) -> None:
        if player in self.declared:
            self.declared = self.declared - {player}
        if player in self.caught:
            self.caught = self.caught - {player}
        if player in self.catchable:
            self.catchable = tuple(p for p in self.catchable if p != player)

    def close_windows(self, actor: str) -> None:
        """A play, draw or pass by ``actor`` ends everyone else's catch window."""
        if self.catchable:
            self.catchable = tuple(p for p in self.catchable if p == actor)


# --- values every move hands out again and again ----------------------------------------------

REVERSED: Final = (ev.DirectionReversed(-1), ev.DirectionReversed(1))


class SeatCache:
    """Frozen values one player's moves keep producing (plays, events, actions), built once per
    player id. They are immutable and equal to freshly built ones, so sharing them is safe."""

    __slots__ = ("player", "plays", "played", "chosen", "started", "passed", "skipped",
                 "declared", "draw", "pass_", "declare", "challenge")

    def __init__(self, player: str) -> None:
        self.player = player
        # Plays of one card, without and with a UNO to declare: card -> every variant.
        self.plays: tuple[dict[Card, tuple[Play, ...]], dict[Card, tuple[Play, ...]]] = ({}, {})
        # CardPlayed of one card on one's own turn: card -> one per colour in force (COLORS)
        self.played: dict[Card, list[ev.CardPlayed | None]] = {}
        self.chosen = tuple(ev.ColorChosen(player, color) for color in COLORS)
        self.started = ev.TurnStarted(player)
        self.passed = ev.TurnPassed(player)
        self.skipped = ev.PlayerSkipped(player)
        self.declared = ev.UnoDeclared(player)
        self.draw = Draw(player)
        self.pass_ = Pass(player)
        self.declare = DeclareUno(player)
        self.challenge = Challenge(player)

    def plays_of(self, card: Card, uno: bool) -> tuple[Play, ...]:
        """Every Play of ``card`` alone with no 7-0 swap target: a colour per wild, with and
        without declaring UNO when the hand left must (``uno``); the order legal_actions lists."""
        table = self.plays[1 if uno else 0]
        plays = table.get(card)
        if plays is None:
            colors: Sequence[Color | None] = COLORS if card.color is None else (None,)
            unos = (False, True) if uno else (False,)
            plays = table[card] = tuple(Play(self.player, (card,), color, uno, None)
                                        for color in colors for uno in unos)
        return plays

    def card_played(self, card: Card, color: Color) -> ev.CardPlayed:
        """CardPlayed for ``card`` played alone on one's own turn, ``color`` in force after it."""
        by_color = self.played.get(card)
        if by_color is None:
            by_color = self.played[card] = [None, None, None, None]
        i = COLORS.index(color)  # an identity test, where a dict would hash the enum in Python
        played = by_color[i]
        if played is None:
            played = by_color[i] = ev.CardPlayed(self.player, (card,), color, False)
        return played

    def color_chosen(self, color: Color) -> ev.ColorChosen:
        return self.chosen[COLORS.index(color)]


SEAT_CACHES: Final[dict[str, SeatCache]] = {}
SEAT_CACHE_LIMIT: Final = 4096  # player ids seen; past it the cache starts again (memory stays bounded)


def seat_cache(player: str) -> SeatCache:
    cache = SEAT_CACHES.get(player)
    if cache is None:
        if len(SEAT_CACHES) >= SEAT_CACHE_LIMIT:
            SEAT_CACHES.clear()
        cache = SEAT_CACHES[player] = SeatCache(player)
    return cache
