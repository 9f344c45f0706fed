"""Lean paths for the commonest moves, used by ``apply`` before its general path.

Each returns exactly what the general path returns (an equal state and equal events; the
tests compare the two over many random games), or None when the move is not one it covers,
including every illegal one: the general path then checks it and raises the precise error.
Cards are single instances (see ``Card``), so ``is`` and ``tuple.index`` are exact tests here.
"""

from __future__ import annotations

from typing import Final

from . import events as ev
from .actions import Draw, Play
from .cards import Card, Color, Rank
from .core import SEAT_CACHES, SeatCache, seat_cache
from .legal import MATCH_TOP
from .predicates import W4, wd4_dishonest
from .scoring import hand_winner_points, score_changes
from .state import GameState, build_state

# What a card does when played, as a small int (cheaper to test than enum members).
# Module constants are Final: compiled, they are read from C statics, not the module's dict.
NUMBER: Final = 0
WILD: Final = 1
SEVEN_ZERO: Final = 2
SKIP: Final = 3
REVERSE: Final = 4
DRAW_TWO: Final = 5
WILD_DRAW_FOUR: Final = 6
_KIND: Final[dict[Card, int]] = {}
for _color in Color:
    for _rank in Rank:
        if not _rank.is_wild:
            _KIND[Card.of(_color, _rank)] = {
                Rank.SEVEN: SEVEN_ZERO, Rank.ZERO: SEVEN_ZERO, Rank.SKIP: SKIP,
                Rank.REVERSE: REVERSE, Rank.DRAW_TWO: DRAW_TWO}.get(_rank, NUMBER)
_KIND[Card.of(None, Rank.WILD)] = WILD
_KIND[Card.of(None, Rank.WILD_DRAW_FOUR)] = WILD_DRAW_FOUR
_REVERSED: Final = {d: ev.DirectionReversed(d) for d in (1, -1)}


def _cache(player: str) -> SeatCache:
    return SEAT_CACHES.get(player) or seat_cache(player)


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
    except ValueError:  # not in the hand: the general path says so
        return None
    color_before = s.color
    if color_before is None:  # the first card was a Wild: rare, the general path decides
        return None
    color = card.color
    events: list[ev.Event]
    if color is None:  # a wild: any time, with a colour named (W+4 may be restricted)
        color = a.color
        if type(color) is not Color or (kind == WILD_DRAW_FOUR and not rules.wd4_challenge
                             and wd4_dishonest(rules, hand, s.discard[-1], color_before)):
            return None
        events = [ev.CardPlayed(player, cards, color, False), ev.ColorChosen(player, color)]
    else:
        if not (color is color_before or card.rank is s.discard[-1].rank):
            return None
        events = [_cache(player).card_played(card)]

    rest = hand[:i] + hand[i + 1:]
    if left > 1 and rules.uno_identical and rules.multi_play:
        first = rest[0]
        for c in rest:
            if c is not first:
                break
        else:  # identical cards left: a UNO hand (uno_identical), the general path says how
            return None
    if not left:
        return _win(s, events, player, turn, rest, cards, color), events
    hands = list(s.hands)
    hands[turn] = rest
    declared = s.declared
    caught = s.caught
    catchable = s.catchable
    if catchable:  # others' catch windows close
        catchable = tuple([p for p in catchable if p == player])
    if left == 1:
        if a.uno:
            caught = caught - {player}
            catchable = tuple([p for p in catchable if p != player])
            declared = declared | {player}
            events.append(ev.UnoDeclared(player))
        elif player not in declared and player not in catchable:
            catchable = (*catchable, player)
    else:
        if player in declared:
            declared = declared - {player}
        if player in caught:
            caught = caught - {player}
        if player in catchable:
            catchable = tuple([p for p in catchable if p != player])

    n = len(players)
    direction = s.direction
    pile = s.draw_pile
    pending = 0
    wd4_by: str | None = None
    wd4_bluff = False
    if kind <= SEVEN_ZERO:  # numbers (7 and 0 without 7-0) and the plain Wild: the turn moves on
        nxt = (turn + direction) % n
        events.append(_cache(players[nxt]).started)
    elif kind == SKIP or (kind == REVERSE and n == 2):  # Reverse for two: a Skip
        skipped = (turn + direction) % n
        events.append(_cache(players[skipped]).skipped)
        nxt = (skipped + direction) % n
        events.append(_cache(players[nxt]).started)
    elif kind == REVERSE:
        direction = -direction
        events.append(_REVERSED[direction])
        nxt = (turn + direction) % n
        events.append(_cache(players[nxt]).started)
    else:  # +2 or W+4, nothing pending before
        amount = 2 if kind == DRAW_TWO else 4
        victim = (turn + direction) % n
        victim_id = players[victim]
        challengeable = kind == WILD_DRAW_FOUR and rules.wd4_challenge
        if rules.stacking != "off" or challengeable:  # it waits: stack, take it or challenge
            pending = amount
            if challengeable:
                wd4_by = player
                wd4_bluff = wd4_dishonest(rules, hand, s.discard[-1], color_before)
            nxt = victim
            events.append(_cache(victim_id).started)
            events.append(ev.PenaltyPending(victim_id, amount))
        else:
            if len(pile) < amount:
                return None  # the general path refills the stock
            got = pile[:amount]
            pile = pile[amount:]
            hands[victim] = hands[victim] + got
            if len(hands[victim]) != 1:  # their UNO marks go with the count
                if victim_id in declared:
                    declared = declared - {victim_id}
                if victim_id in caught:
                    caught = caught - {victim_id}
                if victim_id in catchable:
                    catchable = tuple([p for p in catchable if p != victim_id])
            events.append(ev.CardsDrawn(victim_id, amount, got, "penalty"))
            events.append(_cache(victim_id).skipped)
            nxt = (victim + direction) % n
            events.append(_cache(players[nxt]).started)
    return build_state(
        rules=rules, players=players, hands=tuple(hands), draw_pile=pile,
        discard=s.discard + cards, color=color, direction=direction, turn=nxt, dealer=s.dealer,
        pending_draw=pending, drawn_card=None, declared=declared, catchable=catchable,
        caught=caught, wd4_by=wd4_by, wd4_bluff=wd4_bluff, winner=None, hand_points=(),
        team_ids=s.team_ids, seed=s.seed, rng_counter=s.rng_counter, penalty_play=pending), events


def _win(s: GameState, events: list[ev.Event], player: str, turn: int, hand: tuple[Card, ...],
         cards: tuple[Card, ...], color: Color) -> GameState:
    """The player's last card went down (not a +2/+4): the hand is won and scored."""
    hands = list(s.hands)
    hands[turn] = hand
    points = hand_winner_points(s.players, hands, s.team_ids, player)
    changes = score_changes(s.players, hands, s.team_ids, player, s.rules.scoring)
    events.append(ev.HandWon(player, points, tuple(changes.items())))
    return build_state(
        rules=s.rules, players=s.players, hands=tuple(hands), draw_pile=s.draw_pile,
        discard=s.discard + cards, color=color, direction=s.direction, turn=None, dealer=s.dealer,
        pending_draw=0, drawn_card=None, declared=s.declared - {player}, catchable=(),
        caught=s.caught - {player}, wd4_by=None, wd4_bluff=False, winner=player,
        hand_points=((player, points),), team_ids=s.team_ids, seed=s.seed,
        rng_counter=s.rng_counter, penalty_play=0)


def fast_draw(s: GameState, a: Draw) -> tuple[GameState, list[ev.Event]] | None:
    """On one's own turn, from a stock holding enough: the waiting penalty, or one card
    (nothing drawn yet, no draw-until-playable; with force play, no card matching)."""
    turn = s.turn
    player = a.player
    if turn is None or s.winner is not None or s.players[turn] != player or s.color is None:
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
            if top.color is None or s.color is not top.color or not MATCH_TOP[top].isdisjoint(
                    s.hands[turn]):
                return None
        got = pile[:1]
    hand = s.hands[turn] + got
    hands = list(s.hands)
    hands[turn] = hand
    events: list[ev.Event] = [ev.CardsDrawn(player, len(got), got, "penalty" if pending else "draw")]
    declared = s.declared
    caught = s.caught
    catchable = s.catchable
    if catchable:  # others' windows close (and the drawer's own, below, with a second card)
        catchable = tuple([p for p in catchable if p == player])
    if len(hand) != 1:
        if player in declared:
            declared = declared - {player}
        if player in caught:
            caught = caught - {player}
        if player in catchable:
            catchable = ()
    nxt = turn
    drawn_card: Card | None = None
    wd4_by = s.wd4_by
    wd4_bluff = s.wd4_bluff
    if pending:
        wd4_by = None
        wd4_bluff = False
    else:
        card = got[0]
        if rules.play_after_draw:  # may they play it? (``playable``, inlined)
            color = s.color
            if card.color is None:
                if card.rank is not W4 or rules.wd4_challenge or not wd4_dishonest(
                        rules, hand, s.discard[-1], color):
                    drawn_card = card
            elif card.color is color or card.rank is s.discard[-1].rank:
                drawn_card = card
        if drawn_card is None:
            events.append(_cache(player).passed)
    if drawn_card is None:
        players = s.players
        nxt = (turn + s.direction) % len(players)
        events.append(_cache(players[nxt]).started)
    return build_state(
        rules=rules, players=s.players, hands=tuple(hands), draw_pile=pile[len(got):],
        discard=s.discard, color=s.color, direction=s.direction, turn=nxt, dealer=s.dealer,
        pending_draw=0, drawn_card=drawn_card, declared=declared, catchable=catchable,
        caught=caught, wd4_by=wd4_by, wd4_bluff=wd4_bluff, winner=None, hand_points=(),
        team_ids=s.team_ids, seed=s.seed, rng_counter=s.rng_counter, penalty_play=0), events
