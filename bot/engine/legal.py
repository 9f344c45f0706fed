"""Every legal action of a player now: catches, declarations, plays (a colour per wild, a
target per 7 under 7-0, with and without UNO), several cards at once, jump-ins, draw, pass,
challenge. Kept lean: the coordinator and the AI call it on every turn."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from .actions import Action, CatchUno, Challenge, ChooseColor, DeclareUno, Draw, Pass, Play
from .cards import Card, Color, Rank, full_deck
from .core import SEAT_CACHES, seat_cache
from .predicates import (
    COLORS,
    W4,
    awaiting_color,
    can_stack,
    stack_adds_enough,
    uno_hand,
    wd4_dishonest,
)
from .state import GameState

SEVEN: Final = Rank.SEVEN


def _variants(s: GameState, player: str, cards: tuple[Card, ...], left: int, out: list[Action]) -> None:
    """Every distinct Play of ``cards``: a colour per wild, a target per 7 (7-0), UNO or not."""
    last = cards[-1]
    rules = s.rules
    uno = left == 1 or (left > 1 and rules.uno_identical and _leaves_uno_hand(s, player, cards))
    if not uno and last.color is not None and not (last.rank is Rank.SEVEN and rules.seven_zero):
        out.append(Play(player, cards, None, False, None))  # the common case, kept lean
        return
    colors: Sequence[Color | None] = COLORS if last.color is None else (None,)
    swaps: Sequence[str | None] = (None,)
    if left and last.rank is Rank.SEVEN and rules.seven_zero:
        swaps = [p for p in s.players if p != player]
    unos = (False, True) if uno else (False,)
    for color in colors:
        for swap in swaps:
            for uno in unos:
                out.append(Play(player, cards, color, uno, swap))


def _leaves_uno_hand(s: GameState, player: str, cards: tuple[Card, ...]) -> bool:
    """``uno_identical``: would the hand left after playing ``cards`` have to declare UNO?"""
    rest = list(s.hands[s.players.index(player)])
    for c in cards:
        rest.remove(c)
    return uno_hand(s.rules, rest)


def _groups(s: GameState, player: str, hand: tuple[Card, ...], firsts: list[Card],
            out: list[Action]) -> None:
    """Multi-card plays: a legal first card, then any further cards of its rank; every
    distinct (first, middle multiset, last on top) combination."""
    ranks = [c.rank for c in hand]
    for first in firsts:
        if FAST_PATHS and ranks.count(first.rank) < 2:  # usual: no other card of its rank
            continue
        rest = list(hand)
        rest.remove(first)
        same = [c for c in rest if c.rank is first.rank]
        if not same:
            continue
        distinct = list(dict.fromkeys(same))
        counts = [same.count(c) for c in distinct]
        for picks in itertools.product(*(range(k + 1) for k in counts)):
            chosen = [c for c, k in zip(distinct, picks, strict=True) for _ in range(k)]
            if not chosen:
                continue
            for last in dict.fromkeys(chosen):
                middle = list(chosen)
                middle.remove(last)
                cards = (first, *middle, last)
                _variants(s, player, cards, len(hand) - len(cards), out)


FAST_PATHS = True  # the per-player Play cache; tests switch it off to compare with _variants


def _matching(card: Card, top: Card, color: Color | None) -> bool:
    cc = card.color
    return cc is None or cc is color or color is None or card.rank is top.rank


# The cards a normal turn may start with (W+4 restrictions aside), by what is in force: for a
# coloured top card in its own colour, and for a wild top card by the colour named.
_DECK = list(dict.fromkeys(full_deck()))
MATCH_TOP: Final = {top: frozenset(c for c in _DECK if _matching(c, top, top.color))
              for top in _DECK if top.color is not None}
_MATCH_WILD: Final = {color: frozenset(c for c in _DECK if _matching(c, Card.of(None, Rank.WILD), color))
               for color in Color}
_W4_CARD: Final = Card.of(None, W4)


def _turn_firsts(s: GameState, hand: tuple[Card, ...]) -> list[Card]:
    """The distinct cards a normal turn (nothing pending or drawn) may play first, in hand order."""
    rules = s.rules
    color = s.color
    top = s.discard[-1]
    if FAST_PATHS and color is not None and (color is top.color or top.color is None):
        ok = MATCH_TOP[top] if top.color is not None else _MATCH_WILD[color]
        firsts = [c for c in dict.fromkeys(hand) if c in ok]  # identical cards are one choice
    else:
        firsts = [c for c in dict.fromkeys(hand) if _matching(c, top, color)]
    # W+4 is listed only where legal: always with the challenge on (a bluff is legal).
    if not rules.wd4_challenge and _W4_CARD in firsts and wd4_dishonest(rules, hand, top, color):
        firsts.remove(_W4_CARD)
    return firsts


def _turn_plays(s: GameState, player: str, hand: tuple[Card, ...], out: list[Action]) -> bool:
    """Append every Play of a normal turn (nothing pending or drawn) to ``out``; returns whether
    any card is playable."""
    firsts = _turn_firsts(s, hand)
    rules = s.rules
    left = len(hand) - 1
    # uno_identical: only a hand of at most two distinct cards can leave identical ones
    if not FAST_PATHS or (rules.uno_identical and len(set(hand)) <= 2):
        for c in firsts:
            _variants(s, player, (c,), left, out)
    else:
        cache = SEAT_CACHES.get(player) or seat_cache(player)
        table = cache.plays[left if left < 2 else 2]
        seven_zero = rules.seven_zero
        for c in firsts:
            if seven_zero and c.rank is SEVEN:
                _variants(s, player, (c,), left, out)
            else:
                out += table.get(c) or cache.plays_of(c, left)
    if rules.multi_play:
        _groups(s, player, hand, firsts, out)
    return bool(firsts)


def _drawn_plays(s: GameState, player: str, hand: tuple[Card, ...], out: list[Action]) -> None:
    card = s.drawn_card
    assert card is not None
    if not FAST_PATHS or (card.rank is SEVEN and s.rules.seven_zero) or (
            s.rules.uno_identical and len(set(hand)) <= 2):
        _variants(s, player, (card,), len(hand) - 1, out)
    else:
        out += seat_cache(player).plays_of(card, len(hand) - 1)


def legal_actions(state: GameState, player: str) -> list[Action]:
    """Every action ``player`` may take now (catches, declarations, plays, jump-ins, ...)."""
    s = state
    if s.winner is not None or player not in s.players:
        return []
    seat = s.players.index(player)
    hand = s.hands[seat]
    rules = s.rules
    if s.color is None and awaiting_color(s):  # the dealer names the first Wild's colour first
        return [ChooseColor(player, c) for c in COLORS] if seat == s.turn else []
    out: list[Action] = [CatchUno(player, t) for t in s.catchable if t != player] \
        if s.catchable else []
    if uno_hand(rules, hand) and player not in s.declared and player not in s.caught:
        out.append(DeclareUno(player))
    top = s.discard[-1]
    n = len(hand)
    if seat == s.turn:
        if s.pending_draw:
            firsts = [c for c in dict.fromkeys(hand) if can_stack(rules, top, c)]
            stacks: list[Action] = []
            for c in firsts:
                _variants(s, player, (c,), n - 1, stacks)
            if rules.multi_play:
                _groups(s, player, hand, firsts, stacks)
            if rules.stacking == "by_value":
                answered = s.penalty_play
                stacks = [p for p in stacks if stack_adds_enough(rules, p.cards, answered, top)]  # type: ignore[union-attr]
            out += stacks
            out.append(Draw(player))
            if s.challengeable:
                out.append(Challenge(player))
        elif s.drawn_card is not None:
            _drawn_plays(s, player, hand, out)
            out.append(Pass(player))
        else:
            plays = _common_turn_plays(s, player, hand)
            if plays is not None:
                out += plays
                can_play = bool(plays)
            else:
                can_play = _turn_plays(s, player, hand, out)
            if not (can_play and rules.force_play):
                out.append(seat_cache(player).draw if FAST_PATHS else Draw(player))
    elif rules.jump_in and not top.is_wild:
        held = hand.count(top)
        for k in range(1, (held if rules.multi_play else min(held, 1)) + 1):
            if s.pending_draw and not stack_adds_enough(rules, (top,) * k, s.penalty_play):
                continue
            _variants(s, player, (top,) * k, n - k, out)
    return out


def _common_turn_plays(s: GameState, player: str, hand: tuple[Card, ...]) -> list[Play] | None:
    """The Plays of the commonest turn, or None when it is not that turn: nothing pending or
    drawn, a coloured top card in its own colour, single plays, no 7-0, W+4 challengeable."""
    rules = s.rules
    top = s.discard[-1]
    color = s.color
    if not (FAST_PATHS and color is top.color and color is not None and s.drawn_card is None
            and not s.pending_draw and rules.wd4_challenge and not rules.seven_zero
            and not rules.multi_play):
        return None
    ok = MATCH_TOP[top]
    left = len(hand) - 1
    cache = SEAT_CACHES.get(player) or seat_cache(player)
    table = cache.plays[left if left < 2 else 2]
    plays: list[Play] = []
    for c in dict.fromkeys(hand):  # identical cards are one choice
        if c in ok:
            plays += table.get(c) or cache.plays_of(c, left)
    return plays


def legal_plays(state: GameState, player: str) -> list[Play]:
    """The Plays among ``legal_actions(state, player)``, in the same order: what a policy that
    plays whenever it can needs, without building the rest (catches, Draw, ...)."""
    s = state
    turn = s.turn
    if (FAST_PATHS and turn is not None and s.winner is None and not s.pending_draw
            and s.color is not None and s.players[turn] == player):
        hand = s.hands[turn]
        plays = _common_turn_plays(s, player, hand)
        if plays is not None:
            return plays
        out: list[Action] = []
        if s.drawn_card is not None:
            _drawn_plays(s, player, hand, out)
        else:
            _turn_plays(s, player, hand, out)
        return out  # type: ignore[return-value]  # only Plays were added
    return [a for a in legal_actions(s, player) if type(a) is Play]
