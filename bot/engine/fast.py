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
from .core import new_object, playable, seat_cache
from .state import GameState

SKIP, REVERSE = Rank.SKIP, Rank.REVERSE
# Cards whose play only moves the turn on: coloured numbers, Skip, Reverse and the plain Wild.
# +2 and W+4 (penalties), and 7 and 0 when 7-0 is on (hand swaps), take the general path.
_PLAIN = frozenset([Card.of(None, Rank.WILD)] + [
    Card.of(color, rank) for color in Color for rank in Rank
    if rank not in (Rank.DRAW_TWO, Rank.WILD, Rank.WILD_DRAW_FOUR)])
_SEVEN_ZERO = frozenset(Card.of(color, rank) for color in Color for rank in (Rank.SEVEN, Rank.ZERO))


def fast_play(s: GameState, a: Play) -> tuple[GameState, list[ev.Event]] | None:
    """One plain card (see ``_PLAIN``) on one's own turn, nothing pending, not the last card."""
    turn = s.turn
    cards = a.cards
    if (turn is None or s.winner is not None or s.pending_draw or type(cards) is not tuple
            or len(cards) != 1):
        return None
    card = cards[0]
    player = a.player
    players = s.players
    if type(card) is not Card or card not in _PLAIN or players[turn] != player:
        return None
    rules = s.rules
    if rules.seven_zero and card in _SEVEN_ZERO:
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
    cache = seat_cache(player)
    color = card.color
    if color is None:  # the Wild: any time, with a colour named
        color = a.color
        if type(color) is not Color:
            return None
        played = new_object(ev.CardPlayed)
        played.__dict__.update(player=player, cards=cards, color=color, jump_in=False)
        chosen = new_object(ev.ColorChosen)
        chosen.__dict__.update(player=player, color=color)
        events: list[ev.Event] = [played, chosen]
    else:
        in_force = s.color
        if not (color is in_force or in_force is None or card.rank is s.discard[-1].rank):
            return None
        events = [cache.card_played(card)]

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
    rank = card.rank
    if rank is SKIP or (rank is REVERSE and n == 2):  # Reverse with two players acts as Skip
        skipped = (turn + direction) % n
        events.append(ev.PlayerSkipped(players[skipped]))
        nxt = (skipped + direction) % n
    else:
        if rank is REVERSE:
            direction = -direction
            events.append(ev.DirectionReversed(direction))
        nxt = (turn + direction) % n
    events.append(seat_cache(players[nxt]).started)

    hands = list(s.hands)
    hands[turn] = hand[:i] + hand[i + 1:]
    new = new_object(GameState)
    d = new.__dict__
    d.update(s.__dict__)
    d["hands"] = tuple(hands)
    d["discard"] = s.discard + cards
    d["color"] = color
    d["direction"] = direction
    d["turn"] = nxt
    d["drawn_card"] = None
    d["declared"] = declared
    d["caught"] = caught
    d["catchable"] = catchable
    d["wd4_by"] = None
    d["wd4_bluff"] = False
    return new, events


def fast_draw(s: GameState, a: Draw) -> tuple[GameState, list[ev.Event]] | None:
    """One card from a non-empty stock on one's own turn: nothing pending or drawn, neither
    force play nor draw-until-playable."""
    turn = s.turn
    player = a.player
    if (turn is None or s.winner is not None or s.pending_draw or s.drawn_card is not None
            or not s.draw_pile or s.players[turn] != player):
        return None
    rules = s.rules
    if rules.force_play or rules.draw_until_playable:
        return None
    pile = s.draw_pile
    card = pile[0]
    hand = s.hands[turn] + (card,)
    hands = list(s.hands)
    hands[turn] = hand
    drawn = new_object(ev.CardsDrawn)
    drawn.__dict__.update(player=player, count=1, cards=(card,), reason="draw")
    events: list[ev.Event] = [drawn]
    new = new_object(GameState)
    d = new.__dict__
    d.update(s.__dict__)
    d["hands"] = tuple(hands)
    d["draw_pile"] = pile[1:]
    if s.catchable:  # others' windows close; the drawer's own closes with a second card
        d["catchable"] = ()
    if player in s.declared or player in s.caught:
        d["declared"] = s.declared - {player}
        d["caught"] = s.caught - {player}
    if rules.play_after_draw and playable(rules, card, hand, s.discard[-1], s.color):
        d["drawn_card"] = card
    else:
        events.append(seat_cache(player).passed)
        nxt = (turn + s.direction) % len(s.players)
        d["turn"] = nxt
        events.append(seat_cache(s.players[nxt]).started)
    return new, events
