"""Applying an action to a GameState, and a player leaving mid-hand.

Dealing lives in ``deal.py`` and legal action listing in ``legal.py`` (both re-exported here).

``apply(state, action) -> (new_state, events)`` never changes ``state``. An illegal action
raises the precise ``UnoError`` subclass (``.code`` is the spec's error code).

The one refusal that changes the game: a wrong UNO call where ``false_uno_penalty > 0``.
``apply`` then raises ``NothingToCatch`` whose ``.state`` is the state with the caller's
penalty drawn and ``.events`` says so (``FalseUnoCall`` + ``CardsDrawn``); with no penalty
``.state`` is None. Callers that want the penalty use ``exc.state`` (the replay does).

Decisions where the printed rules leave room (all documented in the README's rules section):
- W+4 with ``wd4_challenge`` off: playing it dishonestly is ``illegal_play``; dishonest means
  holding a card of the colour in force (``wd4_rule: no_color``) or any non-wild card that could
  be played (``no_match``). With the challenge on it is always legal (a bluff), punished only by
  a challenge, whose event carries the challenged hand for the challenger's eyes. Stacking a
  W+4 on a pending penalty is never a bluff (no colour could be played).
- ``stacking: by_value``: the cards of a stack must add at least ``penalty_play`` (what the
  play it answers added); jump-ins on a waiting penalty are held to the same.
- A first Wild under ``first_wild: dealer_names``: until the dealer's ``ChooseColor`` every other
  action is refused, the dealer's with ``color_required``, anyone else's with ``not_your_turn``.
- ``uno_identical`` (with ``multi_play``): a hand of identical cards is a UNO hand like one card.
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

from . import events as ev
from .actions import Action, CatchUno, Challenge, ChooseColor, DeclareUno, Draw, Pass, Play
from .cards import Card, Color, Rank
from .core import WorkingCopy, seat_cache
from .deal import choose_dealer, new_hand, position, turn_first_card
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
from .legal import legal_actions, legal_plays, match_set
from .predicates import (
    D2,
    W4,
    awaiting_color,
    can_stack,
    matches,
    playable,
    stack_adds_enough,
    uno_hand,
    wd4_dishonest,
)
from .scoring import hand_winner_points, score_changes
from .state import GameState

# --- apply ----------------------------------------------------------------------------------

def apply(state: GameState, action: Action) -> tuple[GameState, list[ev.Event]]:
    """Apply ``action``; returns the new state and what happened. Raises ``UnoError``."""
    if state.winner is not None:
        raise GameOver("the hand is over", action)
    player = getattr(action, "player", None)
    if player not in state.players:
        raise BadAction(f"{player!r} is not playing in this hand", action)
    seat = state.players.index(player)
    kind = type(action)
    if state.color is None and awaiting_color(state) and kind is not ChooseColor:
        if seat == state.turn:
            raise ColorRequired("name the colour of the first card before play starts", action)
        raise NotYourTurn(f"{state.current} names the colour of the first card", action)
    if kind is Play:
        return _apply_play(state, action, seat)  # type: ignore[arg-type]
    if kind is Draw:
        return _apply_draw(state, action, seat)  # type: ignore[arg-type]
    if kind is Pass:
        return _apply_pass(state, action, seat)  # type: ignore[arg-type]
    if kind is CatchUno:
        return _apply_catch(state, action, seat)  # type: ignore[arg-type]
    if kind is DeclareUno:
        return _apply_declare(state, action, seat)  # type: ignore[arg-type]
    if kind is Challenge:
        return _apply_challenge(state, action, seat)  # type: ignore[arg-type]
    if kind is ChooseColor:
        return _apply_choose_color(state, action, seat)  # type: ignore[arg-type]
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
        try:
            i = hand.index(card)  # one instance per card: an identity test, in C
        except ValueError:
            raise NotInHand(f"{card} is not in the hand", action) from None
        return hand[:i] + hand[i + 1:]
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
    if jump and s.pending_draw and not stack_adds_enough(rules, cards, s.penalty_play):
        raise IllegalPlay(f"a stack must add at least {s.penalty_play} cards", a)
    if not jump:
        if s.drawn_card is not None and (len(cards) != 1 or first != s.drawn_card):
            raise IllegalPlay("only the card just drawn may be played", a)
        if s.pending_draw:
            if not can_stack(rules, top, first):
                raise IllegalPlay("a penalty is waiting: stack it or draw", a)
            if not stack_adds_enough(rules, cards, s.penalty_play, top):
                if rules.by_value_same_color and top.rank is W4 and len(cards) > 1:
                    raise IllegalPlay("Draw Twos on a Wild Draw Four must share a colour", a)
                raise IllegalPlay(f"a stack must add at least {s.penalty_play} cards", a)
        elif not playable(rules, first, hand, top, s.color):
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


def _apply_play(s: GameState, a: Play, seat: int) -> tuple[GameState, list[ev.Event]]:
    remaining, jump, new_color = _check_play(s, a, seat)
    rules = s.rules
    cards = a.cards
    last = cards[-1]
    player = a.player
    pending_before, color_before, top_before = s.pending_draw, s.color, s.discard[-1]
    wc = WorkingCopy(s)
    wc.close_windows(player)
    wc.hands[seat] = remaining
    wc.discard = s.discard + cards
    wc.color = new_color
    wc.drawn = None
    wc.wd4_by = None
    wc.wd4_bluff = False
    events = wc.events
    cache = seat_cache(player)
    if len(cards) == 1 and not jump:
        events.append(cache.card_played(last, new_color))  # the same event, shared
    else:
        events.append(ev.CardPlayed(player, cards, new_color, jump))
    if last.color is None:
        events.append(cache.color_chosen(new_color))
    rank = last.rank
    count = len(cards)
    amount = (2 if rank is D2 else 4 if rank is W4 else 0) * count
    if not remaining:
        _uno_after_play(wc, a, seat)
        if amount:  # a closing +2/+4 is still drawn before the cards are counted
            wc.draw(wc.next_seat(seat), wc.pending + amount, "penalty")
        wc.pending = 0
        _finish(wc, player)
        return wc.freeze(), events

    seven_zero = rules.seven_zero
    if rank is Rank.SEVEN and seven_zero:
        other = s.players.index(a.swap)  # type: ignore[arg-type]
        wc.hands[seat], wc.hands[other] = wc.hands[other], wc.hands[seat]
        events.append(ev.HandsSwapped(player, a.swap))  # type: ignore[arg-type]
        wc.forget_uno(a.swap)  # type: ignore[arg-type]
        wc.forget_uno(player)
    elif rank is Rank.ZERO and seven_zero:
        for _ in range(count):  # each 0 passes every hand on once, in play direction
            old = wc.hands
            wc.hands = [old[(i - wc.direction) % wc.n] for i in range(wc.n)]
            events.append(ev.HandsRotated(wc.direction))
        for p in s.players:
            wc.forget_uno(p)
    _uno_after_play(wc, a, seat)

    if rank is Rank.SKIP:
        for i in range(1, count + 1):
            wc.skip(wc.next_seat(seat, i))
        wc.start_turn(wc.next_seat(seat, count + 1))
    elif rank is Rank.REVERSE:
        if wc.n == 2:  # reverse acts as skip with two players (the direction stays)
            for _ in range(count):
                wc.skip(wc.next_seat(seat))
            wc.start_turn(wc.next_seat(seat, count + 1))
        else:
            if count % 2:
                wc.reverse()
            wc.start_turn(wc.next_seat(seat))
    elif amount:
        total = pending_before + amount
        victim = wc.next_seat(seat)
        challengeable = rank is W4 and rules.wd4_challenge
        if rules.stacking != "off" or challengeable:
            wc.pending = total
            wc.penalty_play = amount
            if challengeable:
                wc.wd4_by = player
                wc.wd4_bluff = pending_before == 0 and wd4_dishonest(rules, s.hands[seat], top_before,
                                                                     color_before)
            wc.start_turn(victim)
            events.append(ev.PenaltyPending(s.players[victim], total))
        else:  # paid at once: draw and lose the turn
            wc.pending = 0
            wc.draw(victim, total, "penalty")
            wc.skip(victim)
            wc.start_turn(wc.next_seat(victim))
    else:
        wc.start_turn(wc.next_seat(seat))
    return wc.freeze(), events


def _uno_after_play(wc: WorkingCopy, a: Play, seat: int) -> None:
    player = a.player
    if uno_hand(wc.s.rules, wc.hands[seat]):
        if a.uno:
            wc.forget_uno(player)
            wc.declared = wc.declared | {player}
            wc.events.append(seat_cache(player).declared)
        elif player not in wc.declared and player not in wc.catchable:
            wc.catchable = wc.catchable + (player,)
    else:
        wc.forget_uno(player)


def _finish(wc: WorkingCopy, winner: str) -> None:
    s = wc.s
    points = hand_winner_points(s.players, wc.hands, s.team_ids, winner)
    changes = score_changes(s.players, wc.hands, s.team_ids, winner, s.rules.scoring)
    wc.winner = winner
    wc.points = ((winner, points),)
    wc.turn = None
    wc.drawn = None
    wc.pending = 0
    wc.wd4_by = None
    wc.wd4_bluff = False
    wc.catchable = ()
    wc.events.append(ev.HandWon(winner, points, tuple(changes.items())))


def _apply_draw(s: GameState, a: Draw, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn:
        raise NotYourTurn(f"it is {s.current}'s turn", a)
    rules = s.rules
    if s.pending_draw:
        wc = WorkingCopy(s)
        wc.close_windows(a.player)
        wc.draw(seat, s.pending_draw, "penalty")
        wc.pending = 0
        wc.wd4_by = None
        wc.wd4_bluff = False
        wc.start_turn(wc.next_seat(seat))
        return wc.freeze(), wc.events
    if s.drawn_card is not None:
        raise BadAction("already drew: play the drawn card or pass", a)
    hand = s.hands[seat]
    top, color = s.discard[-1], s.color
    # Some card is playable exactly when some card matches: a W+4 is refused only for holding
    # a matching card.
    if rules.force_play and _holds_match(hand, top, color):
        raise IllegalPlay("a playable card must be played (force play)", a)
    wc = WorkingCopy(s)
    wc.close_windows(a.player)
    if rules.draw_until_playable:
        drawn: tuple[Card, ...] = ()
        while True:
            got = wc.take(1)
            if not got:
                break
            drawn += got
            if playable(rules, got[0], hand + drawn, top, color):
                break
        if drawn:
            wc.hands[seat] = hand + drawn
            wc.hand_changed(seat)
        wc.events.append(ev.CardsDrawn(a.player, len(drawn), drawn, "draw"))
    else:
        drawn = wc.draw(seat, 1, "draw")
    if drawn and rules.play_after_draw and playable(rules, drawn[-1], wc.hands[seat], top, color):
        wc.drawn = drawn[-1]
    else:
        wc.events.append(seat_cache(a.player).passed)
        wc.start_turn(wc.next_seat(seat))
    return wc.freeze(), wc.events


def _holds_match(hand: tuple[Card, ...], top: Card, color: Color | None) -> bool:
    ok = match_set(top, color)
    return bool(hand) if ok is None else not ok.isdisjoint(hand)


def _apply_pass(s: GameState, a: Pass, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn:
        raise NotYourTurn(f"it is {s.current}'s turn", a)
    if s.drawn_card is None:
        raise CannotPass("pass only after drawing a playable card", a)
    wc = WorkingCopy(s)
    wc.close_windows(a.player)
    wc.events.append(seat_cache(a.player).passed)
    wc.start_turn(wc.next_seat(seat))
    return wc.freeze(), wc.events


def _apply_declare(s: GameState, a: DeclareUno, seat: int) -> tuple[GameState, list[ev.Event]]:
    p = a.player
    if not uno_hand(s.rules, s.hands[seat]) or p in s.declared or p in s.caught:
        raise BadAction("UNO is declared holding one card, once, before being caught", a)
    wc = WorkingCopy(s)
    wc.forget_uno(p)
    wc.declared = wc.declared | {p}
    wc.events.append(seat_cache(p).declared)
    return wc.freeze(), wc.events


def _apply_catch(s: GameState, a: CatchUno, seat: int) -> tuple[GameState, list[ev.Event]]:
    target = a.target
    if target not in s.players or target == a.player:
        raise BadAction("catch another player of this hand", a)
    wc = WorkingCopy(s)
    if target not in s.catchable:
        exc = NothingToCatch(f"{target} cannot be called out now", a)
        penalty = s.rules.false_uno_penalty
        if penalty:
            wc.events.append(ev.FalseUnoCall(a.player, target, penalty))
            wc.draw(seat, penalty, "false_uno")
            exc.state, exc.events = wc.freeze(), wc.events
        raise exc
    target_seat = s.players.index(target)
    penalty = s.rules.uno_penalty
    wc.events.append(ev.UnoCaught(a.player, target, penalty))
    wc.catchable = tuple(p for p in wc.catchable if p != target)
    if penalty:
        wc.draw(target_seat, penalty, "uno_penalty")
    if uno_hand(s.rules, wc.hands[target_seat]):  # a 0-card penalty: still caught, may not declare now
        wc.caught = wc.caught | {target}
    return wc.freeze(), wc.events


def _apply_challenge(s: GameState, a: Challenge, seat: int) -> tuple[GameState, list[ev.Event]]:
    if seat != s.turn or not s.challengeable:
        raise CannotChallenge("there is no W+4 to challenge", a)
    bluffer = s.wd4_by
    assert bluffer is not None
    wc = WorkingCopy(s)
    pending = s.pending_draw
    wc.pending = 0
    wc.wd4_by = None
    wc.wd4_bluff = False
    bluffer_seat = s.players.index(bluffer)
    shown = s.hands[bluffer_seat]  # the rules: the hand is first shown to the challenger
    if s.wd4_bluff:
        wc.events.append(ev.ChallengeWon(a.player, bluffer, shown))
        wc.draw(bluffer_seat, pending, "challenge")
        # the challenger now plays the turn normally
    else:
        wc.events.append(ev.ChallengeLost(a.player, bluffer, shown))
        wc.draw(seat, pending + 2, "challenge")
        wc.start_turn(wc.next_seat(seat))
    return wc.freeze(), wc.events


def _apply_choose_color(s: GameState, a: ChooseColor, seat: int) -> tuple[GameState, list[ev.Event]]:
    if not awaiting_color(s):
        raise BadAction("no colour to name now", a)
    if seat != s.turn:
        raise NotYourTurn(f"{s.current} names the colour of the first card", a)
    if not isinstance(a.color, Color):
        raise ColorRequired("name a colour", a)
    wc = WorkingCopy(s)
    wc.color = a.color
    wc.events.append(ev.ColorChosen(a.player, a.color))
    if s.rules.first_wild == "dealer_names":
        wc.start_turn(wc.next_seat(seat))  # play begins after the dealer, as after any play
    else:
        wc.start_turn(seat)  # first_player_names: the first player named it and now plays
    return wc.freeze(), wc.events


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
            changes.update(pending_draw=0, penalty_play=0, drawn_card=None, wd4_by=None,
                           wd4_bluff=False)
            events.append(ev.TurnStarted(players[turn]))
        elif turn > seat:
            turn -= 1
        changes["turn"] = turn
    new = s.evolve(**changes)
    if new.winner is None and (len(players) == 1 or (team_ids and len(set(team_ids)) == 1)):
        winner = min(players, key=lambda p: len(new.hands[players.index(p)]))
        wc = WorkingCopy(new)
        _finish(wc, winner)
        new = wc.freeze()
        events = wc.events
    return new, events


def add_player(state: GameState, player: str) -> tuple[GameState, list[ev.Event]]:
    """``player`` joins the hand being played (late join): dealt ``hand_size`` cards from the
    stock (refilled from the discard pile if needed) and seated to play right after the
    current player, in the direction of play. Not with teams (the pairs would break)."""
    s = state
    if s.winner is not None or s.turn is None:
        raise GameOver("the hand is over", player)
    if not isinstance(player, str) or not player or player in s.players:
        raise BadAction(f"{player!r} cannot join this hand", player)
    if s.team_ids:
        raise BadAction("nobody can join a game played in teams", player)
    turn = s.turn
    seat = turn + 1 if s.direction == 1 else turn  # the next seat in the direction of play
    players = s.players[:seat] + (player,) + s.players[seat:]
    hands = s.hands[:seat] + ((),) + s.hands[seat:]
    new_turn = turn if s.direction == 1 else turn + 1
    seated = s.evolve(players=players, hands=hands, turn=new_turn)
    wc = WorkingCopy(seated)
    wc.events.append(ev.PlayerJoined(player, s.players[turn], s.rules.hand_size))
    wc.draw(seat, s.rules.hand_size, "deal")
    return wc.freeze(), wc.events


__all__ = ["add_player", "apply", "is_legal", "legal_actions", "legal_plays", "new_hand", "remove_player", "turn_first_card",
           "position", "choose_dealer", "matches", "can_stack"]
