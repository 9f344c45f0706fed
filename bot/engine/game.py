"""The rules: dealing, legal actions and applying an action to a GameState.

``apply(state, action) -> (new_state, events)`` never changes ``state``. An illegal action
raises the precise ``UnoError`` subclass (``.code`` is the spec's error code).

The one refusal that changes the game: a wrong UNO call where ``false_uno_penalty > 0``.
``apply`` then raises ``NothingToCatch`` whose ``.state`` is the state with the caller's
penalty drawn and ``.events`` says so (``FalseUnoCall`` + ``CardsDrawn``); with no penalty
``.state`` is None. Callers that want the penalty use ``exc.state`` (the replay does).

Decisions where the printed rules leave room (all documented in the README's rules section):
- W+4 with ``wd4_challenge`` off: playing it while holding a card of the colour in force is
  ``illegal_play``. With the challenge on it is always legal (a bluff), punished only by a
  challenge. Stacking a W+4 on a pending penalty is never a bluff (no colour could be played).
- A successful challenge makes the bluffer draw the whole pending stack (4 for a lone W+4);
  a failed one makes the challenger draw it plus 2 (6) and lose the turn.
- Draw with a card already drawn is ``bad_action``; ``force_play`` refuses a draw with
  ``illegal_play`` while the player holds a playable card (a pending penalty may always be taken).
- Jump-ins never use wilds; a jump-in +2 on a waiting +2 stacks onto it.
- ``uno: true`` on a play that does not leave one card is ignored. A wild always needs a colour.
- The stock is refilled from the discard pile (all but the top card, shuffled with the seed)
  only when a card must be drawn from an empty stock.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence

from . import events as ev
from .actions import Action, CatchUno, Challenge, DeclareUno, Draw, Pass, Play
from .cards import Card, Color, Rank, full_deck
from .errors import (
    BadAction,
    CannotChallenge,
    CannotPass,
    ColorRequired,
    GameOver,
    IllegalPlay,
    NothingToCatch,
    NotInHand,
    NotYourTurn,
    UnoError,
)
from .rules import OFFICIAL, RuleSet
from .scoring import hand_winner_points, score_changes, team_ids_for
from .state import GameState, card_from_name, cards_from_names

_W4 = Rank.WILD_DRAW_FOUR
_D2 = Rank.DRAW_TWO
_COLORS = tuple(Color)
MIN_PLAYERS, MAX_PLAYERS = 2, 10
_new = object.__new__


def _rng(seed: int | str, counter: int) -> random.Random:
    # A fresh generator per shuffle, keyed by seed and counter: replay needs no hidden state.
    return random.Random(f"{seed}:{counter}")


# --- card predicates ------------------------------------------------------------------------

def matches(card: Card, top: Card, color: Color | None) -> bool:
    """Colour, number/symbol or wild match. ``color`` None (first card Wild): anything goes."""
    return card.color is None or color is None or card.color is color or card.rank is top.rank


def can_stack(rules: RuleSet, top: Card, card: Card) -> bool:
    """May ``card`` be put on a waiting +2/+4 penalty whose top card is ``top``?"""
    if rules.stacking == "off":
        return False
    if top.rank is _D2:
        return card.rank is _D2 or (rules.stacking == "progressive" and card.rank is _W4)
    return top.rank is _W4 and card.rank is _W4


def _holds_color(hand: Iterable[Card], color: Color | None) -> bool:
    return color is not None and any(c.color is color for c in hand)


def _playable(rules: RuleSet, card: Card, hand: Sequence[Card], top: Card, color: Color | None) -> bool:
    """Playable as a normal turn's (first) card, W+4 restriction included when unchallengeable."""
    if not matches(card, top, color):
        return False
    return not (card.rank is _W4 and not rules.wd4_challenge and _holds_color(hand, color))


# --- the working copy -----------------------------------------------------------------------

class _Tx:
    """A mutable working copy for one ``apply``; ``freeze`` makes the new frozen state."""

    __slots__ = ("s", "hands", "pile", "discard", "color", "direction", "turn", "pending", "drawn",
                 "declared", "catchable", "caught", "wd4_by", "wd4_bluff", "winner", "points",
                 "counter", "events", "n")

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
        self.events: list[ev.Event] = []
        self.n = len(s.players)

    def freeze(self) -> GameState:
        new = _new(GameState)
        d = new.__dict__
        d.update(self.s.__dict__)  # rules, players, dealer, team_ids, seed stay
        d["hands"] = tuple(self.hands)
        d["draw_pile"] = self.pile
        d["discard"] = self.discard
        d["color"] = self.color
        d["direction"] = self.direction
        d["turn"] = self.turn
        d["pending_draw"] = self.pending
        d["drawn_card"] = self.drawn
        d["declared"] = self.declared
        d["catchable"] = self.catchable
        d["caught"] = self.caught
        d["wd4_by"] = self.wd4_by
        d["wd4_bluff"] = self.wd4_bluff
        d["winner"] = self.winner
        d["hand_points"] = self.points
        d["rng_counter"] = self.counter
        return new

    def next_seat(self, seat: int, steps: int = 1) -> int:
        return (seat + self.direction * steps) % self.n

    def start_turn(self, seat: int) -> None:
        self.turn = seat
        self.drawn = None
        started = _new(ev.TurnStarted)  # hot: skip the frozen dataclass __init__
        started.__dict__["player"] = self.s.players[seat]
        self.events.append(started)

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
            _rng(self.s.seed, self.counter).shuffle(rest)
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
        """UNO bookkeeping only applies to a one-card hand: forget it when the count moves."""
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


# --- apply ----------------------------------------------------------------------------------

def apply(state: GameState, action: Action) -> tuple[GameState, list[ev.Event]]:
    """Apply ``action``; returns the new state and what happened. Raises ``UnoError``."""
    if state.winner is not None:
        raise GameOver("the hand is over", action)
    player = getattr(action, "player", None)
    if player not in state.players:
        raise BadAction(f"{player!r} is not playing in this hand", action)
    seat = state.players.index(player)
    handler = _HANDLERS.get(type(action))
    if handler is not None:
        return handler(state, action, seat)
    raise BadAction(f"not an action: {action!r}", action)


def is_legal(state: GameState, action: Action) -> bool:
    try:
        apply(state, action)
    except UnoError:
        return False
    return True


def _remove_cards(hand: tuple[Card, ...], cards: tuple[Card, ...], action: Action) -> tuple[Card, ...]:
    if len(cards) == 1:
        card = cards[0]
        for i, c in enumerate(hand):  # hands hold canonical cards: identity is the fast test
            if c is card:
                return hand[:i] + hand[i + 1:]
        for i, c in enumerate(hand):
            if c == card:
                return hand[:i] + hand[i + 1:]
        raise NotInHand(f"{card} is not in the hand", action)
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            raise NotInHand(f"{card} is not in the hand", action) from None
    return tuple(rest)


def _check_play(s: GameState, a: Play, seat: int) -> tuple[tuple[Card, ...], bool, Color]:
    """Validate a play; returns (remaining hand, is_jump_in, colour in force after it)."""
    cards = a.cards
    if not cards or (type(cards[0]) is not Card if len(cards) == 1
                     else not all(isinstance(c, Card) for c in cards)):
        raise BadAction("a play needs cards", a)
    rules = s.rules
    top = s.discard[-1]
    jump = seat != s.turn
    if jump and not (rules.jump_in and not top.is_wild and all(c == top for c in cards)):
        raise NotYourTurn(f"it is {s.current}'s turn", a)
    hand = s.hands[seat]
    remaining = _remove_cards(hand, cards, a)
    first, last = cards[0], cards[-1]
    if len(cards) > 1:
        if not rules.multi_play:
            raise IllegalPlay("one card at a time", a)
        if any(c.rank is not first.rank for c in cards):
            raise IllegalPlay("cards played together must share a rank", a)
    if not jump:
        if s.drawn_card is not None and (len(cards) != 1 or first != s.drawn_card):
            raise IllegalPlay("only the card just drawn may be played", a)
        if s.pending_draw:
            if not can_stack(rules, top, first):
                raise IllegalPlay("a penalty is waiting: stack it or draw", a)
        elif not _playable(rules, first, hand, top, s.color):
            raise IllegalPlay(f"{first} does not match", a)
    new_color = last.color
    if new_color is None:
        if not isinstance(a.color, Color):
            raise ColorRequired("name a colour for the wild", a)
        new_color = a.color
    if rules.seven_zero and last.rank is Rank.SEVEN and remaining:
        if a.swap is None or a.swap == a.player or a.swap not in s.players:
            raise BadAction("a 7 needs another player to swap with", a)
    return remaining, jump, new_color


_SIMPLE_RANKS = frozenset({Rank.ONE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX,
                           Rank.EIGHT, Rank.NINE, Rank.SKIP, Rank.REVERSE})
_SEVEN_ZERO_RANKS = frozenset({Rank.SEVEN, Rank.ZERO})


def _apply_plain_play(s: GameState, a: Play, seat: int, card: Card, hand: tuple[Card, ...],
                      i: int) -> tuple[GameState, list[ev.Event]]:
    """The most common move, kept lean for speed: one coloured number/Skip/Reverse card (7 and
    0 only without 7-0), on one's own turn, nothing pending or drawn, no catch window open, at least two
    cards left. ``_apply_play`` has checked all that; the result equals the general path's."""
    n = len(s.players)
    direction = s.direction
    rank = card.rank
    events: list[ev.Event] = []
    played = _new(ev.CardPlayed)
    played.__dict__.update(player=a.player, cards=a.cards, color=card.color, jump_in=False)
    events.append(played)
    if rank is Rank.SKIP or (rank is Rank.REVERSE and n == 2):
        skipped = (seat + direction) % n
        events.append(ev.PlayerSkipped(s.players[skipped]))
        nxt = (skipped + direction) % n
    else:
        if rank is Rank.REVERSE:
            direction = -direction
            events.append(ev.DirectionReversed(direction))
        nxt = (seat + direction) % n
    started = _new(ev.TurnStarted)
    started.__dict__["player"] = s.players[nxt]
    events.append(started)
    hands = list(s.hands)
    hands[seat] = hand[:i] + hand[i + 1:]
    new = _new(GameState)
    d = new.__dict__
    d.update(s.__dict__)
    d["hands"] = tuple(hands)
    d["discard"] = s.discard + (card,)
    d["color"] = card.color
    d["direction"] = direction
    d["turn"] = nxt
    if a.player in s.declared or a.player in s.caught:  # they held one card? not with 2+ left
        d["declared"] = s.declared - {a.player}
        d["caught"] = s.caught - {a.player}
    return new, events


def _apply_play(s: GameState, a: Play, seat: int) -> tuple[GameState, list[ev.Event]]:
    cards = a.cards
    if (len(cards) == 1 and seat == s.turn and not s.pending_draw and s.drawn_card is None
            and not s.catchable):
        card = cards[0]
        hand = s.hands[seat]
        color = card.color
        rank = card.rank
        if ((rank in _SIMPLE_RANKS or (rank in _SEVEN_ZERO_RANKS and not s.rules.seven_zero))
                and len(hand) > 2 and color is not None
                and (color is s.color or s.color is None or rank is s.discard[-1].rank)):
            for i, c in enumerate(hand):
                if c is card:
                    return _apply_plain_play(s, a, seat, card, hand, i)
    remaining, jump, new_color = _check_play(s, a, seat)
    rules = s.rules
    cards = a.cards
    last = cards[-1]
    player = a.player
    pending_before, color_before = s.pending_draw, s.color
    tx = _Tx(s)
    tx.close_windows(player)
    tx.hands[seat] = remaining
    tx.discard = s.discard + cards
    tx.color = new_color
    tx.drawn = None
    tx.wd4_by = None
    tx.wd4_bluff = False
    events = tx.events
    played = _new(ev.CardPlayed)  # hot: skip the frozen dataclass __init__
    played.__dict__.update(player=player, cards=cards, color=new_color, jump_in=jump)
    events.append(played)
    if last.color is None:
        events.append(ev.ColorChosen(player, new_color))
    rank = last.rank
    count = len(cards)
    amount = (2 if rank is _D2 else 4 if rank is _W4 else 0) * count
    if not remaining:
        _uno_after_play(tx, a, seat)
        if amount:  # a closing +2/+4 is still drawn before the cards are counted
            tx.draw(tx.next_seat(seat), tx.pending + amount, "penalty")
        tx.pending = 0
        _finish(tx, player)
        return tx.freeze(), events

    seven_zero = rules.seven_zero
    if rank is Rank.SEVEN and seven_zero:
        other = s.players.index(a.swap)  # type: ignore[arg-type]
        tx.hands[seat], tx.hands[other] = tx.hands[other], tx.hands[seat]
        events.append(ev.HandsSwapped(player, a.swap))  # type: ignore[arg-type]
        tx.forget_uno(a.swap)  # type: ignore[arg-type]
        tx.forget_uno(player)
    elif rank is Rank.ZERO and seven_zero:
        for _ in range(count):  # each 0 passes every hand on once, in play direction
            old = tx.hands
            tx.hands = [old[(i - tx.direction) % tx.n] for i in range(tx.n)]
            events.append(ev.HandsRotated(tx.direction))
        for p in s.players:
            tx.forget_uno(p)
    _uno_after_play(tx, a, seat)

    if rank is Rank.SKIP:
        for i in range(1, count + 1):
            events.append(ev.PlayerSkipped(s.players[tx.next_seat(seat, i)]))
        tx.start_turn(tx.next_seat(seat, count + 1))
    elif rank is Rank.REVERSE:
        if tx.n == 2:  # reverse acts as skip with two players (the direction stays)
            for _ in range(count):
                events.append(ev.PlayerSkipped(s.players[tx.next_seat(seat)]))
            tx.start_turn(tx.next_seat(seat, count + 1))
        else:
            if count % 2:
                tx.direction = -tx.direction
                events.append(ev.DirectionReversed(tx.direction))
            tx.start_turn(tx.next_seat(seat))
    elif amount:
        total = pending_before + amount
        victim = tx.next_seat(seat)
        challengeable = rank is _W4 and rules.wd4_challenge
        if rules.stacking != "off" or challengeable:
            tx.pending = total
            if challengeable:
                tx.wd4_by = player
                tx.wd4_bluff = pending_before == 0 and _holds_color(s.hands[seat], color_before)
            tx.start_turn(victim)
            events.append(ev.PenaltyPending(s.players[victim], total))
        else:  # paid at once: draw and lose the turn
            tx.pending = 0
            tx.draw(victim, total, "penalty")
            events.append(ev.PlayerSkipped(s.players[victim]))
            tx.start_turn(tx.next_seat(victim))
    else:
        tx.start_turn(tx.next_seat(seat))
    return tx.freeze(), events


def _uno_after_play(tx: _Tx, a: Play, seat: int) -> None:
    player = a.player
    if len(tx.hands[seat]) == 1:
        if a.uno:
            tx.forget_uno(player)
            tx.declared = tx.declared | {player}
            tx.events.append(ev.UnoDeclared(player))
        elif player not in tx.declared and player not in tx.catchable:
            tx.catchable = tx.catchable + (player,)
    else:
        tx.forget_uno(player)


def _finish(tx: _Tx, winner: str) -> None:
    s = tx.s
    points = hand_winner_points(s.players, tx.hands, s.team_ids, winner)
    changes = score_changes(s.players, tx.hands, s.team_ids, winner, s.rules.scoring)
    tx.winner = winner
    tx.points = ((winner, points),)
    tx.turn = None
    tx.drawn = None
    tx.pending = 0
    tx.wd4_by = None
    tx.wd4_bluff = False
    tx.catchable = ()
    tx.events.append(ev.HandWon(winner, points, tuple(changes.items())))


def _apply_draw(s: GameState, a: Draw, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn:
        raise NotYourTurn(f"it is {s.current}'s turn", a)
    rules = s.rules
    if s.pending_draw:
        tx = _Tx(s)
        tx.close_windows(a.player)
        tx.draw(seat, s.pending_draw, "penalty")
        tx.pending = 0
        tx.wd4_by = None
        tx.wd4_bluff = False
        tx.start_turn(tx.next_seat(seat))
        return tx.freeze(), tx.events
    if s.drawn_card is not None:
        raise BadAction("already drew: play the drawn card or pass", a)
    hand = s.hands[seat]
    top, color = s.discard[-1], s.color
    if rules.force_play and any(_playable(rules, c, hand, top, color) for c in hand):
        raise IllegalPlay("a playable card must be played (force play)", a)
    tx = _Tx(s)
    tx.close_windows(a.player)
    if rules.draw_until_playable:
        drawn: tuple[Card, ...] = ()
        while True:
            got = tx.take(1)
            if not got:
                break
            drawn += got
            if _playable(rules, got[0], hand + drawn, top, color):
                break
        if drawn:
            tx.hands[seat] = hand + drawn
            tx.hand_changed(seat)
        tx.events.append(ev.CardsDrawn(a.player, len(drawn), drawn, "draw"))
    else:
        drawn = tx.draw(seat, 1, "draw")
    new_hand = tx.hands[seat]
    if drawn and rules.play_after_draw and _playable(rules, drawn[-1], new_hand, top, color):
        tx.drawn = drawn[-1]
    else:
        tx.events.append(ev.TurnPassed(a.player))
        tx.start_turn(tx.next_seat(seat))
    return tx.freeze(), tx.events


def _apply_pass(s: GameState, a: Pass, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn:
        raise NotYourTurn(f"it is {s.current}'s turn", a)
    if s.drawn_card is None:
        raise CannotPass("pass only after drawing a playable card", a)
    tx = _Tx(s)
    tx.close_windows(a.player)
    tx.events.append(ev.TurnPassed(a.player))
    tx.start_turn(tx.next_seat(seat))
    return tx.freeze(), tx.events


def _apply_declare(s: GameState, a: DeclareUno, seat: int) -> tuple[GameState, list[ev.Event]]:
    p = a.player
    if len(s.hands[seat]) != 1 or p in s.declared or p in s.caught:
        raise BadAction("UNO is declared holding one card, once, before being caught", a)
    tx = _Tx(s)
    tx.forget_uno(p)
    tx.declared = tx.declared | {p}
    tx.events.append(ev.UnoDeclared(p))
    return tx.freeze(), tx.events


def _apply_catch(s: GameState, a: CatchUno, seat: int) -> tuple[GameState, list[ev.Event]]:
    target = a.target
    if target not in s.players or target == a.player:
        raise BadAction("catch another player of this hand", a)
    tx = _Tx(s)
    if target not in s.catchable:
        exc = NothingToCatch(f"{target} cannot be called out now", a)
        penalty = s.rules.false_uno_penalty
        exc.state, exc.events = None, []  # type: ignore[attr-defined]
        if penalty:
            tx.events.append(ev.FalseUnoCall(a.player, target, penalty))
            tx.draw(seat, penalty, "false_uno")
            exc.state, exc.events = tx.freeze(), tx.events  # type: ignore[attr-defined]
        raise exc
    target_seat = s.players.index(target)
    penalty = s.rules.uno_penalty
    tx.events.append(ev.UnoCaught(a.player, target, penalty))
    tx.catchable = tuple(p for p in tx.catchable if p != target)
    if penalty:
        tx.draw(target_seat, penalty, "uno_penalty")
    if len(tx.hands[target_seat]) == 1:  # a 0-card penalty: still caught, may not declare now
        tx.caught = tx.caught | {target}
    return tx.freeze(), tx.events


def _apply_challenge(s: GameState, a: Challenge, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn or not s.challengeable:
        raise CannotChallenge("there is no W+4 to challenge", a)
    bluffer = s.wd4_by
    assert bluffer is not None
    tx = _Tx(s)
    pending = s.pending_draw
    tx.pending = 0
    tx.wd4_by = None
    tx.wd4_bluff = False
    if s.wd4_bluff:
        tx.events.append(ev.ChallengeWon(a.player, bluffer))
        tx.draw(s.players.index(bluffer), pending, "challenge")
        # the challenger now plays the turn normally
    else:
        tx.events.append(ev.ChallengeLost(a.player, bluffer))
        tx.draw(seat, pending + 2, "challenge")
        tx.start_turn(tx.next_seat(seat))
    return tx.freeze(), tx.events


_HANDLERS: dict[type, Callable[..., tuple[GameState, list[ev.Event]]]] = {
    Play: _apply_play, Draw: _apply_draw, Pass: _apply_pass, CatchUno: _apply_catch,
    DeclareUno: _apply_declare, Challenge: _apply_challenge,
}


# --- legal actions --------------------------------------------------------------------------

def _play(player: str, cards: tuple[Card, ...], color: Color | None, uno: bool, swap: str | None) -> Play:
    # legal_actions builds many Plays: filling __dict__ directly is ~3x faster than the frozen
    # dataclass __init__ and gives an equal, hash-equal object.
    p = _new(Play)
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
    colors: Sequence[Color | None] = _COLORS if last.color is None else (None,)
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


def legal_actions(state: GameState, player: str) -> list[Action]:
    """Every action ``player`` may take now (catches, declarations, plays, jump-ins, ...)."""
    s = state
    if s.winner is not None or player not in s.players:
        return []
    seat = s.players.index(player)
    hand = s.hands[seat]
    rules = s.rules
    out: list[Action] = [CatchUno(player, t) for t in s.catchable if t != player]
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
            _variants(s, player, (s.drawn_card,), n - 1, out)
            out.append(Pass(player))
        else:
            color = s.color
            top_rank = top.rank
            # W+4 is listed only where legal: always with the challenge on (a bluff is legal).
            wd4_ok = rules.wd4_challenge or not _holds_color(hand, color)
            firsts = []
            for c in dict.fromkeys(hand):  # identical cards are one choice
                cc = c.color
                if cc is None:
                    if c.rank is _W4 and not wd4_ok:
                        continue
                elif not (cc is color or color is None or c.rank is top_rank):
                    continue
                firsts.append(c)
                _variants(s, player, (c,), n - 1, out)
            if rules.multi_play:
                _groups(s, player, hand, firsts, out)
            if not (rules.force_play and firsts):
                out.append(Draw(player))
    elif rules.jump_in and not top.is_wild:
        held = hand.count(top)
        for k in range(1, (held if rules.multi_play else min(held, 1)) + 1):
            _variants(s, player, (top,) * k, n - k, out)
    return out


# --- dealing --------------------------------------------------------------------------------

def _check_players(players: Sequence[str], rules: RuleSet) -> tuple[str, ...]:
    players = tuple(players)
    if not (MIN_PLAYERS <= len(players) <= MAX_PLAYERS):
        raise BadAction(f"{MIN_PLAYERS} to {MAX_PLAYERS} players", players)
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise BadAction("players are distinct non-empty ids", players)
    if rules.teams and (len(players) < 4 or len(players) % 2):
        raise BadAction("teams need an even number of players, at least 4", players)
    if len(players) * rules.hand_size > 100:
        raise BadAction("not enough cards to deal that many", players)
    return players


def choose_dealer(players: Sequence[str], rng: random.Random
                  ) -> tuple[str, tuple[tuple[str, Card], ...]]:
    """Each contender turns cards from a shuffled deck until a number card; the highest deals;
    ties turn again. Returns (dealer, the cards turned in order)."""
    deck = full_deck()
    draws: list[tuple[str, Card]] = []
    contenders = list(players)
    while True:
        values: dict[str, int] = {}
        for p in contenders:
            while True:
                if not deck:
                    deck = full_deck()
                card = deck.pop(rng.randrange(len(deck)))  # a random card of those left
                draws.append((p, card))
                if card.rank.is_number:
                    values[p] = card.rank.number  # type: ignore[assignment]
                    break
        best = max(values.values())
        contenders = [p for p in contenders if values[p] == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)


def new_hand(players: Sequence[str], rules: RuleSet = OFFICIAL, seed: int | str = 0,
             dealer: str | None = None) -> tuple[GameState, list[ev.Event]]:
    """Shuffle with ``seed``, choose the dealer by drawing if None, deal, turn the first card."""
    players = _check_players(players, rules)
    events: list[ev.Event] = []
    rng = _rng(seed, 0)  # one generator for choosing the dealer and the deal
    if dealer is None:
        dealer, draws = choose_dealer(players, rng)
        events.append(ev.DealerChosen(dealer, draws))
    elif dealer not in players:
        raise BadAction(f"dealer {dealer!r} is not playing", dealer)
    deck = full_deck()
    rng.shuffle(deck)
    counter = 1
    n = len(players)
    d = players.index(dealer)
    hands: list[list[Card]] = [[] for _ in players]
    pos = 0
    for _ in range(rules.hand_size):  # one card at a time, starting left of the dealer
        for k in range(1, n + 1):
            hands[(d + k) % n].append(deck[pos])
            pos += 1
    events.append(ev.HandDealt(dealer, rules.hand_size))
    state = GameState(
        rules=rules, players=players, hands=tuple(tuple(h) for h in hands),
        draw_pile=tuple(deck[pos:]), discard=(), color=None, direction=1, turn=None,
        dealer=dealer, team_ids=team_ids_for(n) if rules.teams else (), seed=seed,
        rng_counter=counter)
    state, more = turn_first_card(state)
    return state, events + more


def turn_first_card(state: GameState) -> tuple[GameState, list[ev.Event]]:
    """Turn the top of the stock with the official first-card effects, the dealer 'playing' it:
    W+4 goes under the stock and another is turned; Skip skips the first player; Reverse lets
    the dealer start and turns the direction; +2 makes the first player draw 2 and lose the
    turn (waits in ``pending_draw`` when stacking is on); Wild lets the first player play any
    card. The first player is the one after the dealer in seat order."""
    pile = state.draw_pile
    if not pile or all(c.rank is _W4 for c in pile):
        raise BadAction("no card to turn over", [str(c) for c in pile])
    reshuffled = False
    while pile[0].rank is _W4:
        pile = pile[1:] + pile[:1]
        reshuffled = True
    card = pile[0]
    tx = _Tx(state.evolve(draw_pile=pile[1:], discard=(card,), color=card.color, direction=1))
    events = tx.events
    events.append(ev.FirstCardTurned(card, reshuffled))
    d = state.players.index(state.dealer)
    first = tx.next_seat(d)
    rank = card.rank
    if rank is Rank.SKIP:
        events.append(ev.PlayerSkipped(state.players[first]))
        tx.start_turn(tx.next_seat(first))
    elif rank is Rank.REVERSE:
        if tx.n > 2:  # with two players it acts as Skip: the dealer starts all the same
            tx.direction = -1
            events.append(ev.DirectionReversed(-1))
        else:
            events.append(ev.PlayerSkipped(state.players[first]))
        tx.start_turn(d)
    elif rank is _D2:
        if state.rules.stacking != "off":
            tx.pending = 2
            tx.start_turn(first)
            events.append(ev.PenaltyPending(state.players[first], 2))
        else:
            tx.draw(first, 2, "first_card")
            events.append(ev.PlayerSkipped(state.players[first]))
            tx.start_turn(tx.next_seat(first))
    else:
        tx.start_turn(first)
    return tx.freeze(), events


def position(players: Sequence[str], hands: object, draw_pile: object, *, rules: RuleSet | None = None,
             discard: object = None, color: object = None, current: str | None = None,
             direction: int = 1, dealer: str | None = None, pending_draw: int = 0,
             seed: int | str = 0) -> tuple[GameState, list[ev.Event]]:
    """A state from an arbitrary position (the scenario format). Raises BadAction if malformed."""
    rules = rules or OFFICIAL
    players = tuple(players)
    if not (MIN_PLAYERS <= len(players) <= MAX_PLAYERS) or len(set(players)) != len(players) \
            or not all(isinstance(p, str) and p for p in players):
        raise BadAction("2 to 10 distinct players", list(players))
    if rules.teams and (len(players) < 4 or len(players) % 2):
        raise BadAction("teams need an even number of players, at least 4", list(players))
    if not isinstance(hands, dict) or set(hands) != set(players):
        raise BadAction("hands must list every player", hands)
    hand_tuple = tuple(cards_from_names(hands[p]) for p in players)
    pile = cards_from_names(draw_pile if draw_pile is not None else [])
    if direction not in (1, -1):
        raise BadAction("direction is 1 or -1", direction)
    team_ids = team_ids_for(len(players)) if rules.teams else ()
    if discard is None:
        if dealer is None or dealer not in players:
            raise BadAction("start needs a dealer who plays", dealer)
        base = GameState(rules=rules, players=players, hands=hand_tuple, draw_pile=pile, discard=(),
                         color=None, direction=1, turn=None, dealer=dealer, team_ids=team_ids,
                         seed=seed)
        return turn_first_card(base)
    disc = cards_from_names(discard)
    if not disc:
        raise BadAction("the discard pile needs a top card", discard)
    top = disc[-1]
    if color is None:
        col = top.color
    elif isinstance(color, Color):
        col = color
    elif isinstance(color, str):
        col = Color.parse(color)
    else:
        raise BadAction("colour is R, G, B or Y", color)
    if current is None:
        current = players[0]
    if current not in players:
        raise BadAction(f"current player {current!r} is not playing", current)
    if not isinstance(pending_draw, int) or pending_draw < 0:
        raise BadAction("pending_draw is a count", pending_draw)
    if pending_draw and top.rank not in (_D2, _W4):
        raise BadAction("a pending penalty needs a +2 or W+4 on top", pending_draw)
    state = GameState(rules=rules, players=players, hands=hand_tuple, draw_pile=pile, discard=disc,
                      color=col, direction=direction, turn=players.index(current),
                      dealer=dealer if dealer in players else players[0],
                      pending_draw=pending_draw, team_ids=team_ids, seed=seed)
    return state, []


# --- leaving ---------------------------------------------------------------------------------

def remove_player(state: GameState, player: str) -> tuple[GameState, list[ev.Event]]:
    """``player`` leaves mid-hand: their cards go under the stock, the turn passes on if it was
    theirs (a penalty waiting on them lapses), and a last remaining player (or team) wins."""
    s = state
    seat = s.seat(player)
    events: list[ev.Event] = []
    players = s.players[:seat] + s.players[seat + 1:]
    hands = s.hands[:seat] + s.hands[seat + 1:]
    team_ids = s.team_ids[:seat] + s.team_ids[seat + 1:] if s.team_ids else ()
    pile = s.draw_pile + s.hands[seat]
    changes: dict[str, object] = dict(
        players=players, hands=hands, draw_pile=pile, team_ids=team_ids,
        declared=s.declared - {player}, caught=s.caught - {player},
        catchable=tuple(p for p in s.catchable if p != player))
    if s.wd4_by == player:
        changes.update(wd4_by=None, wd4_bluff=False)
    turn = s.turn
    if turn is not None:
        if turn == seat:
            turn = seat % len(players) if s.direction == 1 else (seat - 1) % len(players)
            changes.update(pending_draw=0, drawn_card=None, wd4_by=None, wd4_bluff=False)
            events.append(ev.TurnStarted(players[turn]))
        elif turn > seat:
            turn -= 1
        changes["turn"] = turn
    new = s.evolve(**changes)
    if new.winner is None and (len(players) == 1 or (team_ids and len(set(team_ids)) == 1)):
        winner = min(players, key=lambda p: len(new.hands[players.index(p)]))
        tx = _Tx(new)
        _finish(tx, winner)
        new = tx.freeze()
        events = tx.events
    return new, events


__all__ = ["apply", "is_legal", "legal_actions", "new_hand", "remove_player", "turn_first_card",
           "position", "choose_dealer", "matches", "can_stack", "card_from_name"]
