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
from .core import holds_color, new_object, playable, seat_cache
from .state import GameState

# What a card does when played, as a small int (cheaper to test than enum members).
NUMBER, SEVEN_ZERO, SKIP, REVERSE, DRAW_TWO, WILD, WILD_DRAW_FOUR = range(7)
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
    if left < 1:
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
        played.__dict__.update(player=player, cards=cards, color=color, jump_in=False)
        chosen = new_object(ev.ColorChosen)
        chosen.__dict__.update(player=player, color=color)
        events: list[ev.Event] = [played, chosen]
    else:
        if not (color is color_before or color_before is None or card.rank is s.discard[-1].rank):
            return None
        events = [seat_cache(player).card_played(card)]

    # UNO bookkeeping as the general path does it: others' catch windows close; with one card
    # left the player declares (uno=True) or becomes catchable; otherwise their marks go.
    declared, caught, catchable = s.declared, s.caught, s.catchable
    if catchable:
        catchable = tuple(p for p in catchable if p == player)
    if left == 1:
        if a.uno:
            caught = caught - {player} if player in caught else caught
            catchable = tuple(p for p in catchable if p != player)
            declared = declared | {player}
            declared_event = new_object(ev.UnoDeclared)
            declared_event.__dict__["player"] = player
            events.append(declared_event)
        elif player not in declared and player not in catchable:
            catchable = (*catchable, player)
    else:
        if player in declared:
            declared = declared - {player}
        if player in caught:
            caught = caught - {player}
        if player in catchable:
            catchable = tuple(p for p in catchable if p != player)

    n = len(players)
    direction = s.direction
    hands = list(s.hands)
    hands[turn] = hand[:i] + hand[i + 1:]
    pile = s.draw_pile
    pending = 0
    wd4_by = None
    bluff = False
    if kind == SKIP or (kind == REVERSE and n == 2):  # Reverse with two players acts as Skip
        skipped = (turn + direction) % n
        events.append(seat_cache(players[skipped]).skipped)
        nxt = (skipped + direction) % n
    elif kind == REVERSE:
        direction = -direction
        events.append(_REVERSED[direction])
        nxt = (turn + direction) % n
    elif kind == DRAW_TWO or kind == WILD_DRAW_FOUR:
        amount = 2 if kind == DRAW_TWO else 4
        victim = (turn + direction) % n
        victim_id = players[victim]
        challengeable = kind == WILD_DRAW_FOUR and rules.wd4_challenge
        if rules.stacking != "off" or challengeable:  # waits: stack, take it or challenge
            pending = amount
            if challengeable:
                wd4_by = player
                bluff = holds_color(hand, color_before)
            nxt = victim
            events.append(seat_cache(victim_id).started)
            events.append(ev.PenaltyPending(victim_id, amount))
            return _after_play(s, hands, pile, cards, color, direction, nxt, pending, declared,
                               caught, catchable, wd4_by, bluff), events
        if len(pile) < amount:
            return None  # the stock must be refilled first: the general path does that
        got = pile[:amount]
        pile = pile[amount:]
        hands[victim] = hands[victim] + got
        if len(hands[victim]) != 1:  # their UNO marks go with the count
            if victim_id in declared:
                declared = declared - {victim_id}
            if victim_id in caught:
                caught = caught - {victim_id}
            if victim_id in catchable:
                catchable = tuple(p for p in catchable if p != victim_id)
        events.append(ev.CardsDrawn(victim_id, amount, got, "penalty"))
        events.append(seat_cache(victim_id).skipped)
        nxt = (victim + direction) % n
    else:
        nxt = (turn + direction) % n
    events.append(seat_cache(players[nxt]).started)
    return _after_play(s, hands, pile, cards, color, direction, nxt, pending, declared, caught,
                       catchable, wd4_by, bluff), events


def _after_play(s: GameState, hands: list, pile: tuple, cards: tuple, color: Color, direction: int,
                turn: int, pending: int, declared: frozenset, caught: frozenset, catchable: tuple,
                wd4_by: str | None, bluff: bool) -> GameState:
    new = new_object(GameState)
    d = new.__dict__
    d.update(s.__dict__)
    d["hands"] = tuple(hands)
    d["draw_pile"] = pile
    d["discard"] = s.discard + cards
    d["color"] = color
    d["direction"] = direction
    d["turn"] = turn
    d["pending_draw"] = pending
    d["drawn_card"] = None
    d["declared"] = declared
    d["caught"] = caught
    d["catchable"] = catchable
    d["wd4_by"] = wd4_by
    d["wd4_bluff"] = bluff
    return new


def fast_draw(s: GameState, a: Draw) -> tuple[GameState, list[ev.Event]] | None:
    """On one's own turn, from a stock holding enough: the waiting penalty, or one card
    (nothing drawn yet, neither force play nor draw-until-playable)."""
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
    elif s.drawn_card is not None or not pile or rules.force_play or rules.draw_until_playable:
        return None
    else:
        got = pile[:1]
    hand = s.hands[turn] + got
    hands = list(s.hands)
    hands[turn] = hand
    drawn = new_object(ev.CardsDrawn)
    drawn.__dict__.update(player=player, count=len(got), cards=got,
                          reason="penalty" if pending else "draw")
    events: list[ev.Event] = [drawn]
    new = new_object(GameState)
    d = new.__dict__
    d.update(s.__dict__)
    d["hands"] = tuple(hands)
    d["draw_pile"] = pile[len(got):]
    catchable = s.catchable
    if catchable:  # others' windows close (and the drawer's own, below, with a second card)
        catchable = tuple(p for p in catchable if p == player)
    if len(hand) != 1:
        if player in s.declared:
            d["declared"] = s.declared - {player}
        if player in s.caught:
            d["caught"] = s.caught - {player}
        if player in catchable:
            catchable = ()
    d["catchable"] = catchable
    cache = seat_cache(player)
    if pending:
        d["pending_draw"] = 0
        d["wd4_by"] = None
        d["wd4_bluff"] = False
    elif rules.play_after_draw and playable(rules, got[0], hand, s.discard[-1], s.color):
        d["drawn_card"] = got[0]
        return new, events
    else:
        events.append(cache.passed)
    nxt = (turn + s.direction) % len(s.players)
    d["turn"] = nxt
    d["drawn_card"] = None
    events.append(seat_cache(s.players[nxt]).started)
    return new, events
