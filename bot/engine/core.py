"""Internals shared by the rule modules: seeded shuffles, card predicates and the working copy
that one ``apply`` mutates before freezing it into the next GameState."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from . import events as ev
from .actions import Draw, Play
from .cards import Card, Color, Rank
from .rules import RuleSet
from .state import GameState

W4: Final = Rank.WILD_DRAW_FOUR
D2: Final = Rank.DRAW_TWO
COLORS: Final = tuple(Color)
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 10


def seeded_rng(seed: int | str, counter: int) -> random.Random:
    # A fresh generator per shuffle, keyed by seed and counter: replay needs no hidden state.
    return random.Random(f"{seed}:{counter}")


# random.Random.shuffle and .randrange(n), drawing exactly the same numbers (so a seed deals the
# same cards as ever) without a method call per card: ~2x faster, and every hand starts with one.
def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, given ``rng.getrandbits``."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_SHUFFLE_STEPS: Final = [(i, (i + 1).bit_length()) for i in range(200, 0, -1)]


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``, the same permutation."""
    getrandbits = rng.getrandbits
    size = len(items)
    steps = _SHUFFLE_STEPS[len(_SHUFFLE_STEPS) - size + 1:] if size <= len(_SHUFFLE_STEPS) + 1 \
        else [(i, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


# --- card predicates ------------------------------------------------------------------------

def matches(card: Card, top: Card, color: Color | None) -> bool:
    """Colour, number/symbol or wild match. ``color`` None (first card Wild): anything goes."""
    return card.color is None or color is None or card.color is color or card.rank is top.rank


def can_stack(rules: RuleSet, top: Card, card: Card) -> bool:
    """May ``card`` be put on a waiting +2/+4 penalty whose top card is ``top``? (Under
    ``by_value`` any +2/+4 may start a stack; ``stack_adds_enough`` checks the whole play.)"""
    stacking = rules.stacking
    if stacking == "off":
        return False
    if stacking == "by_value":
        return card.rank is D2 or card.rank is W4
    if top.rank is D2:
        return card.rank is D2 or (rules.stacking == "progressive" and card.rank is W4)
    return top.rank is W4 and card.rank is W4


def stack_adds_enough(rules: RuleSet, cards: Sequence[Card], answered: int) -> bool:
    """``by_value``: the cards played add at least as many as the play they answer."""
    if rules.stacking != "by_value":
        return True
    return sum(2 if c.rank is D2 else 4 if c.rank is W4 else 0 for c in cards) >= answered


def holds_color(hand: Iterable[Card], color: Color | None) -> bool:
    return color is not None and any(c.color is color for c in hand)


def wd4_dishonest(rules: RuleSet, hand: Iterable[Card], top: Card, color: Color | None) -> bool:
    """Would a W+4 from ``hand`` be a bluff? ``no_color``: the hand holds a card of the colour
    in force; ``no_match``: it holds a non-wild card that could be played (colour, number or
    symbol)."""
    if rules.wd4_rule == "no_color":
        return holds_color(hand, color)
    return any(c.color is not None and (color is None or c.color is color or c.rank is top.rank)
               for c in hand)


def uno_hand(rules: RuleSet, hand: Sequence[Card]) -> bool:
    """A hand that must declare UNO: one card, or (``uno_identical`` where ``multi_play`` lets
    them go down together) two or more identical cards."""
    if len(hand) == 1:
        return True
    if len(hand) < 2 or not (rules.uno_identical and rules.multi_play):
        return False
    first = hand[0]
    return all(c is first for c in hand)


def awaiting_color(state: GameState) -> bool:
    """A Wild was turned as the first card under ``first_wild: dealer_names``: the player to
    act (the dealer) names the colour before anything else happens."""
    return state.color is None and state.turn is not None and state.rules.first_wild == "dealer_names"


def playable(rules: RuleSet, card: Card, hand: Sequence[Card], top: Card, color: Color | None) -> bool:
    """Playable as a normal turn's (first) card, W+4 restriction included when unchallengeable."""
    if not matches(card, top, color):
        return False
    return not (card.rank is W4 and not rules.wd4_challenge and wd4_dishonest(rules, hand, top, color))


class Tx:
    """A mutable working copy for one ``apply``; ``freeze`` makes the next state."""

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
        return GameState(
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


# --- per-player values the hot paths hand out again and again --------------------------------

class SeatCache:
    """Frozen values one player's moves keep producing (plays, events, a Draw), built once per
    player id. They are immutable and equal to freshly built ones, so sharing them is safe."""

    __slots__ = ("player", "plays", "played", "started", "passed", "skipped", "draw")

    def __init__(self, player: str) -> None:
        self.player = player
        # Plays of one card with 0, 1 or 2+ cards left: card -> every variant (colours, UNO).
        self.plays: tuple[dict[Card, tuple[Play, ...]], ...] = ({}, {}, {})
        self.played: dict[Card, ev.CardPlayed] = {}  # a coloured card played on one's turn
        self.started = ev.TurnStarted(player)
        self.passed = ev.TurnPassed(player)
        self.skipped = ev.PlayerSkipped(player)
        self.draw = Draw(player)

    def plays_of(self, card: Card, left: int) -> tuple[Play, ...]:
        """Every Play of ``card`` alone leaving ``left`` cards (no 7-0 swap target): a colour
        per wild, with and without UNO when one card is left; the order legal_actions lists."""
        table = self.plays[left if left < 2 else 2]
        plays = table.get(card)
        if plays is None:
            colors: Sequence[Color | None] = COLORS if card.color is None else (None,)
            unos = (False, True) if left == 1 else (False,)
            plays = table[card] = tuple(Play(self.player, (card,), color, uno, None)
                                        for color in colors for uno in unos)
        return plays

    def card_played(self, card: Card) -> ev.CardPlayed:
        """CardPlayed for a coloured ``card`` played alone on one's own turn."""
        played = self.played.get(card)
        if played is None:
            played = self.played[card] = ev.CardPlayed(self.player, (card,), card.color, False)  # type: ignore[arg-type]
        return played


_SEAT_CACHES: Final[dict[str, SeatCache]] = {}
_SEAT_CACHE_LIMIT: Final = 4096  # player ids seen; past it the cache starts again (memory stays bounded)


def seat_cache(player: str) -> SeatCache:
    cache = _SEAT_CACHES.get(player)
    if cache is None:
        if len(_SEAT_CACHES) >= _SEAT_CACHE_LIMIT:
            _SEAT_CACHES.clear()
        cache = _SEAT_CACHES[player] = SeatCache(player)
    return cache
