"""Every legal action of a player now: catches, declarations, plays (a colour per wild, a
target per 7 under 7-0, with and without UNO), several cards at once, jump-ins, draw, pass,
challenge. Kept lean: the coordinator and the AI call it on every turn."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .actions import Action, CatchUno, Challenge, DeclareUno, Draw, Pass, Play
from .cards import Card, Color, Rank
from .core import COLORS, W4, can_stack, holds_color, new_object, seat_cache
from .state import GameState

SEVEN = Rank.SEVEN


def _play(player: str, cards: tuple[Card, ...], color: Color | None, uno: bool, swap: str | None) -> Play:
    # legal_actions builds many Plays: filling __dict__ directly is ~3x faster than the frozen
    # dataclass __init__ and gives an equal, hash-equal object.
    p = new_object(Play)
    d = p.__dict__
    d["player"] = player
    d["cards"] = cards
    d["color"] = color
    d["uno"] = uno
    d["swap"] = swap
    return p


def _variants(s: GameState, player: str, cards: tuple[Card, ...], left: int, out: list[Action]) -> None:
    """Every distinct Play of ``cards``: a colour per wild, a target per 7 (7-0), UNO or not."""
    last = cards[-1]
    if left > 1 and last.color is not None and not (last.rank is Rank.SEVEN and s.rules.seven_zero):
        out.append(_play(player, cards, None, False, None))  # the common case, kept lean
        return
    colors: Sequence[Color | None] = COLORS if last.color is None else (None,)
    swaps: Sequence[str | None] = (None,)
    if left and last.rank is Rank.SEVEN and s.rules.seven_zero:
        swaps = [p for p in s.players if p != player]
    unos = (False, True) if left == 1 else (False,)
    for color in colors:
        for swap in swaps:
            for uno in unos:
                out.append(_play(player, cards, color, uno, swap))


def _groups(s: GameState, player: str, hand: tuple[Card, ...], firsts: list[Card],
            out: list[Action]) -> None:
    """Multi-card plays: a legal first card, then any further cards of its rank; every
    distinct (first, middle multiset, last on top) combination."""
    for first in firsts:
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


def _turn_plays(s: GameState, player: str, hand: tuple[Card, ...], out: list[Action]) -> bool:
    """Append every Play of a normal turn (nothing pending or drawn) to ``out``; returns whether
    any card is playable."""
    rules = s.rules
    color = s.color
    top_rank = s.discard[-1].rank
    n = len(hand)
    seven_zero = rules.seven_zero
    cache = seat_cache(player) if FAST_PATHS else None
    firsts = []
    for c in dict.fromkeys(hand):  # identical cards are one choice
        cc = c.color
        if cc is None:
            # W+4 is listed only where legal: always with the challenge on (a bluff is legal).
            if c.rank is W4 and not rules.wd4_challenge and holds_color(hand, color):
                continue
        elif not (cc is color or color is None or c.rank is top_rank):
            continue
        firsts.append(c)
        if cache is None or (seven_zero and c.rank is SEVEN):
            _variants(s, player, (c,), n - 1, out)
        else:
            out += cache.plays_of(c, n - 1)
    if rules.multi_play:
        _groups(s, player, hand, firsts, out)
    return bool(firsts)


def _drawn_plays(s: GameState, player: str, hand: tuple[Card, ...], out: list[Action]) -> None:
    card = s.drawn_card
    assert card is not None
    if not FAST_PATHS or (card.rank is SEVEN and s.rules.seven_zero):
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
    out: list[Action] = [CatchUno(player, t) for t in s.catchable if t != player] \
        if s.catchable else []
    if len(hand) == 1 and player not in s.declared and player not in s.caught:
        out.append(DeclareUno(player))
    top = s.discard[-1]
    n = len(hand)
    if seat == s.turn:
        if s.pending_draw:
            firsts = [c for c in dict.fromkeys(hand) if can_stack(rules, top, c)]
            for c in firsts:
                _variants(s, player, (c,), n - 1, out)
            if rules.multi_play:
                _groups(s, player, hand, firsts, out)
            out.append(Draw(player))
            if s.challengeable:
                out.append(Challenge(player))
        elif s.drawn_card is not None:
            _drawn_plays(s, player, hand, out)
            out.append(Pass(player))
        elif not (_turn_plays(s, player, hand, out) and rules.force_play):
            out.append(seat_cache(player).draw if FAST_PATHS else Draw(player))
    elif rules.jump_in and not top.is_wild:
        held = hand.count(top)
        for k in range(1, (held if rules.multi_play else min(held, 1)) + 1):
            _variants(s, player, (top,) * k, n - k, out)
    return out


def legal_plays(state: GameState, player: str) -> list[Play]:
    """The Plays among ``legal_actions(state, player)``, in the same order: what a policy that
    plays whenever it can needs, without building the rest (catches, Draw, ...)."""
    s = state
    turn = s.turn
    if (FAST_PATHS and turn is not None and s.winner is None and not s.pending_draw
            and s.players[turn] == player):
        out: list[Action] = []
        if s.drawn_card is not None:
            _drawn_plays(s, player, s.hands[turn], out)
        else:
            _turn_plays(s, player, s.hands[turn], out)
        return out  # type: ignore[return-value]  # only Plays were added
    return [a for a in legal_actions(s, player) if type(a) is Play]
