"""Lean paths for the commonest moves, used by ``apply`` before its general path.

Each returns exactly what the general path returns (an equal state and equal events; the
tests compare the two over many random games), or None when the move is not one it covers,
including every illegal one: the general path then checks it and raises the precise error.
Cards are single instances (see ``Card``), so ``is`` and ``tuple.index`` are exact tests here.
"""

from __future__ import annotations

from . import events as ev
from .actions import Draw, Play
from .cards import Card, Color, Rank
from .core import _SEAT_CACHES, W4, SeatCache, holds_color, new_object, seat_cache
from .legal import _MATCH_TOP
from .scoring import hand_winner_points, score_changes
from .state import GameState

# What a card does when played, as a small int (cheaper to test than enum members).
NUMBER, WILD, SEVEN_ZERO, SKIP, REVERSE, DRAW_TWO, WILD_DRAW_FOUR = range(7)
_KIND: dict[Card, int] = {}
for _color in Color:
    for _rank in Rank:
        if not _rank.is_wild:
            _KIND[Card.of(_color, _rank)] = {
                Rank.SEVEN: SEVEN_ZERO, Rank.ZERO: SEVEN_ZERO, Rank.SKIP: SKIP,
                Rank.REVERSE: REVERSE, Rank.DRAW_TWO: DRAW_TWO}.get(_rank, NUMBER)
_KIND[Card.of(None, Rank.WILD)] = WILD
_KIND[Card.of(None, Rank.WILD_DRAW_FOUR)] = WILD_DRAW_FOUR
_REVERSED = {d: ev.DirectionReversed(d) for d in (1, -1)}
set_attr = object.__setattr__  # set_attr(new, "__dict__", fields): a new frozen value, fields at once


def _cache(player: str) -> SeatCache:
    return _SEAT_CACHES.get(player) or seat_cache(player)


def fast_play(s: GameState, a: Play) -> tuple[GameState, list[ev.Event]] | None:
    """One card on one's own turn with nothing pending, not the last card, no 7-0 swap."""
    turn = s.turn
    cards = a.cards
    if (turn is None or s.winner is not None or s.pending_draw or type(cards) is not tuple
            or len(cards) != 1):
        return None
    card = cards[0]
    if type(card) is not Card:
        return None
    kind = _KIND[card]
    player = a.player
    players = s.players
    if players[turn] != player:
        return None
    rules = s.rules
    if kind == SEVEN_ZERO and rules.seven_zero:
        return None
    drawn = s.drawn_card
    if drawn is not None and drawn is not card:
        return None
    hand = s.hands[turn]
    left = len(hand) - 1
    if left < 1 and (left < 0 or kind >= DRAW_TWO):  # a closing +2/+4 is still drawn: general
        return None
    try:
        i = hand.index(card)
    except ValueError:
        return None
    color_before = s.color
    color = card.color
    if color is None:  # a wild: any time, with a colour named (W+4 may be restricted)
        color = a.color
        if type(color) is not Color or (kind == WILD_DRAW_FOUR and not rules.wd4_challenge
                                        and holds_color(hand, color_before)):
            return None
        played = new_object(ev.CardPlayed)
        set_attr(played, "__dict__", {"player": player, "cards": cards, "color": color,
                                      "jump_in": False})
        chosen = new_object(ev.ColorChosen)
        set_attr(chosen, "__dict__", {"player": player, "color": color})
        events: list[ev.Event] = [played, chosen]
    else:
        if not (color is color_before or color_before is None or card.rank is s.discard[-1].rank):
            return None
        cache = _SEAT_CACHES.get(player) or seat_cache(player)
        events = [cache.played.get(card) or cache.card_played(card)]

    if not left:
        return _win(s, events, player, turn, hand[:i] + hand[i + 1:], cards, color), events
    d = s.__dict__.copy()  # the new state's fields: a copy (~5x faster than dict()), then changes
    hands = list(s.hands)
    hands[turn] = hand[:i] + hand[i + 1:]
    d["discard"] = s.discard + cards
    d["color"] = color
    if drawn is not None:
        d["drawn_card"] = None
    if s.wd4_by is not None or s.wd4_bluff:
        d["wd4_by"] = None
        d["wd4_bluff"] = False

    # UNO bookkeeping as the general path does it: others' catch windows close; with one card
    # left the player declares (uno=True) or becomes catchable; otherwise their marks go.
    catchable = s.catchable
    if catchable:
        catchable = d["catchable"] = tuple(p for p in catchable if p == player)
    if left == 1:
        if a.uno:
            d["caught"] = s.caught - {player}
            d["catchable"] = tuple(p for p in catchable if p != player)
            d["declared"] = s.declared | {player}
            declared_event = new_object(ev.UnoDeclared)
            declared_event.__dict__["player"] = player
            events.append(declared_event)
        elif player not in s.declared and player not in catchable:
            d["catchable"] = (*catchable, player)
    else:
        if player in s.declared:
            d["declared"] = s.declared - {player}
        if player in s.caught:
            d["caught"] = s.caught - {player}
        if player in catchable:
            d["catchable"] = tuple(p for p in catchable if p != player)

    if kind <= SEVEN_ZERO:  # numbers (7 and 0 without 7-0) and the plain Wild: the turn moves on
        nxt = (turn + s.direction) % len(players)
    elif kind == SKIP or (kind == REVERSE and len(players) == 2):  # Reverse for two: a Skip
        skipped = (turn + s.direction) % len(players)
        events.append(_cache(players[skipped]).skipped)
        nxt = (skipped + s.direction) % len(players)
    elif kind == REVERSE:
        direction = d["direction"] = -s.direction
        events.append(_REVERSED[direction])
        nxt = (turn + direction) % len(players)
    elif not _penalty(s, d, hands, events, kind, player, turn, hand):
        return None
    else:
        nxt = None  # _penalty started the next turn
    if nxt is not None:
        d["turn"] = nxt
        nxt_id = players[nxt]
        events.append((_SEAT_CACHES.get(nxt_id) or seat_cache(nxt_id)).started)
    d["hands"] = tuple(hands)
    new = new_object(GameState)
    set_attr(new, "__dict__", d)
    return new, events


def _win(s: GameState, events: list[ev.Event], player: str, turn: int, hand: tuple[Card, ...],
         cards: tuple[Card, ...], color: Color) -> GameState:
    """The player's last card went down (not a +2/+4): the hand is won and scored."""
    hands = list(s.hands)
    hands[turn] = hand
    points = hand_winner_points(s.players, hands, s.team_ids, player)
    changes = score_changes(s.players, hands, s.team_ids, player, s.rules.scoring)
    events.append(ev.HandWon(player, points, tuple(changes.items())))
    d = s.__dict__.copy()
    d.update(hands=tuple(hands), discard=s.discard + cards, color=color, drawn_card=None,
             wd4_by=None, wd4_bluff=False, winner=player, hand_points=((player, points),),
             turn=None, pending_draw=0, catchable=())
    if player in s.declared:
        d["declared"] = s.declared - {player}
    if player in s.caught:
        d["caught"] = s.caught - {player}
    new = new_object(GameState)
    set_attr(new, "__dict__", d)
    return new


def _penalty(s: GameState, d: dict, hands: list, events: list[ev.Event], kind: int, player: str,
             turn: int, hand: tuple[Card, ...]) -> bool:
    """A +2 or W+4 (nothing pending before): it waits for the next player (stacking on, or a
    challengeable W+4), or they draw at once and lose their turn. Sets ``d["turn"]`` to the seat
    whose turn starts, with its TurnStarted event when it waits. False: the stock runs short
    (the general path refills it)."""
    rules = s.rules
    players = s.players
    amount = 2 if kind == DRAW_TWO else 4
    victim = (turn + s.direction) % len(players)
    victim_id = players[victim]
    challengeable = kind == WILD_DRAW_FOUR and rules.wd4_challenge
    if rules.stacking != "off" or challengeable:  # it waits: stack, take it or challenge
        d["pending_draw"] = amount
        if challengeable:
            d["wd4_by"] = player
            d["wd4_bluff"] = holds_color(hand, s.color)
        d["turn"] = victim
        events.append(_cache(victim_id).started)
        events.append(ev.PenaltyPending(victim_id, amount))
        return True
    pile = s.draw_pile
    if len(pile) < amount:
        return False
    got = pile[:amount]
    d["draw_pile"] = pile[amount:]
    hands[victim] = hands[victim] + got
    if len(hands[victim]) != 1:  # their UNO marks go with the count
        if victim_id in d["declared"]:
            d["declared"] = d["declared"] - {victim_id}
        if victim_id in d["caught"]:
            d["caught"] = d["caught"] - {victim_id}
        if victim_id in d["catchable"]:
            d["catchable"] = tuple(p for p in d["catchable"] if p != victim_id)
    events.append(ev.CardsDrawn(victim_id, amount, got, "penalty"))
    events.append(_cache(victim_id).skipped)
    nxt = (victim + s.direction) % len(players)
    d["turn"] = nxt
    events.append(_cache(players[nxt]).started)
    return True


def fast_draw(s: GameState, a: Draw) -> tuple[GameState, list[ev.Event]] | None:
    """On one's own turn, from a stock holding enough: the waiting penalty, or one card
    (nothing drawn yet, no draw-until-playable; with force play, no card matching)."""
    turn = s.turn
    player = a.player
    if turn is None or s.winner is not None or s.players[turn] != player:
        return None
    pile = s.draw_pile
    pending = s.pending_draw
    rules = s.rules
    if pending:
        if len(pile) < pending:
            return None
        got = pile[:pending]
    elif s.drawn_card is not None or not pile or rules.draw_until_playable:
        return None
    else:
        if rules.force_play:  # refused while a card is playable: the general path says so
            top = s.discard[-1]
            if top.color is None or s.color is not top.color or not _MATCH_TOP[top].isdisjoint(
                    s.hands[turn]):
                return None
        got = pile[:1]
    hand = s.hands[turn] + got
    hands = list(s.hands)
    hands[turn] = hand
    drawn = new_object(ev.CardsDrawn)
    set_attr(drawn, "__dict__", {"player": player, "count": len(got), "cards": got,
                                 "reason": "penalty" if pending else "draw"})
    events: list[ev.Event] = [drawn]
    d = s.__dict__.copy()
    d["hands"] = tuple(hands)
    d["draw_pile"] = pile[len(got):]
    catchable = s.catchable
    if catchable:  # others' windows close (and the drawer's own, below, with a second card)
        catchable = d["catchable"] = tuple(p for p in catchable if p == player)
    if len(hand) != 1:
        if player in s.declared:
            d["declared"] = s.declared - {player}
        if player in s.caught:
            d["caught"] = s.caught - {player}
        if player in catchable:
            d["catchable"] = ()
    new = new_object(GameState)
    set_attr(new, "__dict__", d)
    if pending:
        d["pending_draw"] = 0
        d["wd4_by"] = None
        d["wd4_bluff"] = False
    else:
        card = got[0]
        if rules.play_after_draw:  # may they play it? (``playable``, inlined)
            color = s.color
            if card.color is None:
                if card.rank is not W4 or rules.wd4_challenge or not holds_color(hand, color):
                    d["drawn_card"] = card
                    return new, events
            elif card.color is color or color is None or card.rank is s.discard[-1].rank:
                d["drawn_card"] = card
                return new, events
        events.append((_SEAT_CACHES.get(player) or seat_cache(player)).passed)
    players = s.players
    nxt_id = players[(turn + s.direction) % len(players)]
    d["turn"] = (turn + s.direction) % len(players)
    d["drawn_card"] = None
    events.append((_SEAT_CACHES.get(nxt_id) or seat_cache(nxt_id)).started)
    return new, events
