"""Every legal action of a player now: catches, declarations, plays (a colour per wild, a
target per 7 under 7-0, with and without UNO), several cards at once, jump-ins, draw, pass,
challenge. Kept lean: the coordinator and the AI call it on every turn."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Final

from .actions import Action, CatchUno, ChooseColor, Play
from .cards import Card, Color, Rank, full_deck
from .core import SeatCache, seat_cache
from .predicates import (
    COLORS,
    W4,
    awaiting_color,
    can_stack,
    jump_in_copies,
    matches,
    stack_adds_enough,
    uno_hand,
    wd4_dishonest,
)
from .state import GameState

SEVEN: Final = Rank.SEVEN

# The cards that match a top card (``matches``, W+4 restrictions aside), by the top card and the
# colour in force: MATCH_TOP for a coloured top card in its own colour (nearly every turn),
# MATCH_IN for any top card and colour.
_DECK = list(dict.fromkeys(full_deck()))
MATCH_IN: Final = {(top, color): frozenset(c for c in _DECK if matches(c, top, color))
                   for top in _DECK for color in Color}
MATCH_TOP: Final = {top: MATCH_IN[top, top.color] for top in _DECK if top.color is not None}
_W4_CARD: Final = Card.of(None, W4)


def match_set(top: Card, color: Color | None) -> frozenset[Card] | None:
    """The cards ``matches`` accepts on ``top`` in ``color``; None when every card does."""
    if color is None:
        return None
    if color is top.color:
        return MATCH_TOP[top]
    return MATCH_IN[top, color]


def _leaves_uno_hand(s: GameState, hand: tuple[Card, ...], cards: tuple[Card, ...]) -> bool:
    """Would the hand left after playing ``cards`` from ``hand`` have to declare UNO?"""
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return uno_hand(s.rules, rest)


def _variants(s: GameState, player: str, cards: tuple[Card, ...], hand: tuple[Card, ...],
              out: list[Action]) -> None:
    """Every distinct Play of ``cards``: a colour per wild, a target per 7 (7-0), UNO or not."""
    last = cards[-1]
    rules = s.rules
    left = len(hand) - len(cards)
    uno = left == 1 or (left > 1 and rules.uno_identical and _leaves_uno_hand(s, hand, cards))
    colors: Sequence[Color | None] = COLORS if last.color is None else (None,)
    swaps: Sequence[str | None] = (None,)
    if left and last.rank is SEVEN and rules.seven_zero:
        swaps = [p for p in s.players if p != player]
    unos = (False, True) if uno else (False,)
    for color in colors:
        for swap in swaps:
            for uno in unos:
                out.append(Play(player, cards, color, uno, swap))


def _card_plays(s: GameState, cache: SeatCache, card: Card, hand: tuple[Card, ...],
                distinct: int, out: list[Action]) -> None:
    """Every Play of ``card`` alone from ``hand``, as ``_variants`` lists them; shared from the
    player's cache unless a 7-0 swap is asked. ``distinct``: how many different cards the hand
    holds (read only under ``uno_identical``)."""
    rules = s.rules
    left = len(hand) - 1
    if left and card.rank is SEVEN and rules.seven_zero:
        _variants(s, cache.player, (card,), hand, out)
        return
    # uno_identical: a hand left of identical cards declares; it needs at most two kinds now
    uno = left == 1 or (left > 1 and distinct <= 2 and rules.uno_identical
                        and _leaves_uno_hand(s, hand, (card,)))
    out += cache.plays_of(card, uno)


def _groups(s: GameState, player: str, hand: tuple[Card, ...], firsts: Sequence[Card],
            out: list[Action]) -> None:
    """Multi-card plays: a legal first card, then any further cards of its rank; every
    distinct (first, middle multiset, last on top) combination."""
    ranks = [c.rank for c in hand]
    for first in firsts:
        if ranks.count(first.rank) < 2:  # usual: no other card of its rank
            continue
        rest = list(hand)
        rest.remove(first)
        same = [c for c in rest if c.rank is first.rank]
        distinct = list(dict.fromkeys(same))
        counts = [same.count(c) for c in distinct]
        for picks in itertools.product(*(range(k + 1) for k in counts)):
            chosen = [c for c, k in zip(distinct, picks, strict=True) for _ in range(k)]
            if not chosen:
                continue
            for last in dict.fromkeys(chosen):
                middle = list(chosen)
                middle.remove(last)
                _variants(s, player, (first, *middle, last), hand, out)


def _turn_plays(s: GameState, cache: SeatCache, hand: tuple[Card, ...], out: list[Action]) -> bool:
    """Append every Play of a normal turn (nothing pending or drawn) to ``out``; returns whether
    any card is playable."""
    rules = s.rules
    top = s.discard[-1]
    ok = match_set(top, s.color)
    firsts: list[Card] = []  # the matching cards in hand order, identical ones as one choice
    for c in hand:  # (a hand is short: cheaper than building a dict to dedupe)
        if (ok is None or c in ok) and c not in firsts:
            firsts.append(c)
    # W+4 is listed only where legal: always with the challenge on (a bluff is legal).
    if not rules.wd4_challenge and _W4_CARD in firsts and wd4_dishonest(rules, hand, top, s.color):
        firsts.remove(_W4_CARD)
    distinct = len(set(hand)) if rules.uno_identical else 0
    for c in firsts:
        _card_plays(s, cache, c, hand, distinct, out)
    if rules.multi_play:
        _groups(s, cache.player, hand, firsts, out)
    return bool(firsts)


def _drawn_plays(s: GameState, cache: SeatCache, hand: tuple[Card, ...], out: list[Action]) -> None:
    card = s.drawn_card
    assert card is not None
    _card_plays(s, cache, card, hand, len(set(hand)) if s.rules.uno_identical else 0, out)


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
    cache = seat_cache(player)
    if uno_hand(rules, hand) and player not in s.declared and player not in s.caught:
        out.append(cache.declare)
    top = s.discard[-1]
    if seat == s.turn:
        if s.pending_draw:
            firsts = [c for c in dict.fromkeys(hand) if can_stack(rules, top, c)]
            stacks: list[Action] = []
            distinct = len(set(hand)) if rules.uno_identical else 0
            for c in firsts:
                _card_plays(s, cache, c, hand, distinct, stacks)
            if rules.multi_play:
                _groups(s, player, hand, firsts, stacks)
            if rules.stacking == "by_value":
                answered = s.penalty_play
                stacks = [p for p in stacks if stack_adds_enough(rules, p.cards, answered, top)]  # type: ignore[union-attr]
            out += stacks
            out.append(cache.draw)
            if s.challengeable:
                out.append(cache.challenge)
        elif s.drawn_card is not None:
            _drawn_plays(s, cache, hand, out)
            out.append(cache.pass_)
        else:
            can_play = _turn_plays(s, cache, hand, out)
            if not (can_play and rules.force_play):
                out.append(cache.draw)
    elif held := jump_in_copies(rules, top, hand):
        for k in range(1, (held if rules.multi_play else min(held, 1)) + 1):
            if s.pending_draw and not stack_adds_enough(rules, (top,) * k, s.penalty_play):
                continue
            _variants(s, player, (top,) * k, hand, out)
    return out


def legal_plays(state: GameState, player: str) -> list[Play]:
    """The Plays among ``legal_actions(state, player)``, in the same order: what a policy that
    plays whenever it can needs, without building the rest (catches, Draw, ...)."""
    s = state
    turn = s.turn
    if (turn is not None and s.winner is None and not s.pending_draw and s.color is not None
            and s.players[turn] == player):
        hand = s.hands[turn]
        cache = seat_cache(player)
        out: list[Action] = []
        if s.drawn_card is not None:
            _drawn_plays(s, cache, hand, out)
        else:
            _turn_plays(s, cache, hand, out)
        return out  # type: ignore[return-value]  # only Plays were added
    return [a for a in legal_actions(s, player) if type(a) is Play]
