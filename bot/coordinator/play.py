"""Moves during a hand: human commands turned into engine actions, turn timeouts, and AI
seats taking their turn or reacting off-turn. Synchronous functions on a ``Tx``."""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable

from bot.engine import events as ev
from bot.engine import legal_actions
from bot.engine.actions import (
    Action,
    CatchUno,
    Challenge,
    ChooseColor,
    DeclareUno,
    Draw,
    Pass,
    Play,
)
from bot.engine.cards import Card, Color
from bot.engine.errors import BadAction, NothingToCatch, UnoError
from bot.engine.predicates import awaiting_color
from bot.i18n import SENTENCE_PAIR

from . import commands as cmds
from . import endings, fairness, presenter, presses, race, uno_calls
from .lobby import remove
from .names import display_name
from .refusals import Refusal, from_engine
from .transaction import Tx
from .views import N_, Nn_, Text

log = logging.getLogger(__name__)

AFK_LIMIT = 3  # timeouts in a row before the seat is taken over or removed
TAKEOVER_STRATEGY = "normal"


def _engine(tx: Tx, action: Action) -> list[ev.Event]:
    try:
        return tx.apply(action)
    except UnoError as error:
        refusal = from_engine(error)
        if refusal.code == "not_your_turn" and isinstance(action, Play | Draw | Pass | Challenge):
            refusal = _whose_turn(tx, refusal)
        raise refusal from None


def _whose_turn(tx: Tx, refusal: Refusal) -> Refusal:
    """A move out of turn, answered with whose turn it is."""
    record, match = tx.running()
    current = match.game.current
    if current is None:
        return refusal
    return Refusal("not_your_turn", {"player": presenter.names_of(record).get(current, current)},
                   reason="whose_turn")


def _acted(tx: Tx, user_id: str) -> None:
    """A player acting by themselves resets their run of timeouts."""
    timeouts = tx.book.timeouts
    if timeouts.get(user_id):
        timeouts[user_id] = 0


def _in_hand(tx: Tx, user_id: str, press: str | None = None) -> None:
    _, match = tx.running()
    seat = tx.seated(user_id)
    if match.game.winner is not None:
        raise Refusal("hand_over")
    presses.check(match, user_id, press)  # a button of an earlier hand: a double tap
    if seat.ai is not None:
        reclaim(tx, user_id)


def reclaim(tx: Tx, user_id: str) -> None:
    """A player whose seat a bot took over (away too long) is back: the seat is theirs again."""
    seat = tx.seated(user_id)
    if not tx.game().stood_in(user_id):
        raise Refusal("not_in_game")  # a bot's own seat: nobody can play it
    tx.book.taken_over.remove(user_id)
    tx.change_seat(user_id, ai=None)
    tx.dirty = True
    tx.want_hand(user_id)
    tx.last.append(Text(N_("{player} is back and plays again."), {"player": display_name(seat.name)}))
    tx.table_due = True


def reclaim_if_taken(tx: Tx, user_id: str) -> None:
    """``reclaim`` where a bot stands in for ``user_id`` in a running hand; else nothing."""
    record = tx.record
    if record is not None and record.stood_in(user_id) and record.status == "running" \
            and tx.match is not None:
        reclaim(tx, user_id)


def play_cards(tx: Tx, cmd: cmds.PlayCards) -> Text:
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    named = (cmd.cards,) if isinstance(cmd.cards, str) else cmd.cards
    if not isinstance(named, tuple | list) or not named:
        raise Refusal("bad_card", {"card": _shown(named)})
    cards: list[Card] = []
    for text in named:
        if not isinstance(text, str):  # the compiled engine takes text only: say so, not "internal"
            raise Refusal("bad_card", {"card": _shown(text)})
        try:
            cards.append(Card.parse(text))
        except BadAction:
            raise Refusal("bad_card", {"card": _shown(text)}) from None
    color = None
    if cmd.color:
        if not isinstance(cmd.color, str):
            raise Refusal("bad_color", {"color": _shown(cmd.color)})
        try:
            color = Color.parse(cmd.color)
        except BadAction:
            raise Refusal("bad_color", {"color": _shown(cmd.color)}) from None
    swap = tx.find_player(cmd.swap_with).user_id if cmd.swap_with else None
    _engine(tx, Play(user, tuple(cards), color, cmd.declare_uno, swap))
    _acted(tx, user)
    return Text(N_("You played {cards}."), {"cards": tuple(cards)})


def _shown(value: object) -> str:
    """What the player sent, short enough to quote back."""
    return str(value)[:20] if value not in (None, "", (), []) else ""


def draw(tx: Tx, cmd: cmds.Command) -> Text:
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    events = _engine(tx, Draw(user))
    _acted(tx, user)
    drawn = [c for e in events if isinstance(e, ev.CardsDrawn) and e.player == user for c in e.cards]
    return Text(N_("You drew {cards}."), {"cards": tuple(drawn)}) if drawn else Text(N_("Done."))


def pass_turn(tx: Tx, cmd: cmds.Command) -> Text:
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    _engine(tx, Pass(user))
    _acted(tx, user)
    return Text(N_("You passed."))


def challenge(tx: Tx, cmd: cmds.Command) -> Text:
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    events = _engine(tx, Challenge(user))
    _acted(tx, user)
    if any(isinstance(e, ev.ChallengeWon) for e in events):
        return Text(N_("Challenge won: the Wild Draw Four was a bluff."))
    return Text(N_("Challenge lost: you draw 6."))


def name_color(tx: Tx, cmd: cmds.NameColor) -> Text:
    """The dealer names the colour of the first card, a Wild (first_wild: dealer_names)."""
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    try:
        color = Color.parse(cmd.color)
    except BadAction:
        raise Refusal("bad_color", {"color": str(cmd.color)[:20]}) from None
    if not awaiting_color(tx.running()[1].game):  # e.g. "color red" meant for a wild
        raise Refusal("no_color_to_name")
    _engine(tx, ChooseColor(user, color))
    _acted(tx, user)
    return Text(N_("You named {color}."), {"color": color})


def declare(tx: Tx, cmd: cmds.Command) -> Text | uno_calls.TooLate:
    user = cmd.user.id
    _in_hand(tx, user, cmd.press)
    if not _may_declare(tx, user):
        if uno_calls.already_called(tx.book, user, user) is not None:
            return _too_late(tx, cmd, user)  # caught first, or a double press of UNO!
        raise Refusal("cannot_declare")
    _engine(tx, DeclareUno(user))
    return Text(N_("UNO! You are safe."))


def _may_declare(tx: Tx, user: str) -> bool:
    assert tx.match is not None
    return any(isinstance(a, DeclareUno) for a in legal_actions(tx.match.game, user))


def call_uno(tx: Tx, cmd: cmds.CallUno, *,
             cooling: float = 0.0) -> tuple[Text | uno_calls.TooLate, bool]:
    """ "UNO!" from anyone in the chat. Returns (reply text, ok). A seated caller exposed with
    one card declares; otherwise the target (or the first catchable player) is called out.
    A wrong call is refused; a seated caller pays the false-call penalty, a bystander nothing.
    ``cooling``: seconds left of the caller's cool-down after a wrong call (call-outs are
    refused meanwhile; declaring is not)."""
    record, match = tx.running()
    if match.game.winner is not None:
        raise Refusal("hand_over")
    user = cmd.user.id
    seated = tx.seat(user) is not None
    state = match.game
    if seated and _may_declare(tx, user) and (
            cmd.target is None or tx.find_player(cmd.target).user_id == user):
        _engine(tx, DeclareUno(user))
        return Text(N_("UNO! You are safe.")), True
    if cooling > 0:
        raise Refusal("uno_cooldown", {"seconds": max(1, math.ceil(cooling))})
    target = tx.find_player(cmd.target).user_id if cmd.target else None
    if target is None:
        target = next((p for p in state.catchable if p != user), None)
    if target is not None and target in state.catchable and target != user:
        caller = user if seated else _stand_in(state, target)
        if not seated:
            tx.stand_ins[caller] = display_name(cmd.user.name)
        _engine(tx, CatchUno(caller, target))
        if not seated:  # the engine needed a seated caller; the credit is the bystander's
            _rename_caller(tx, caller, user, display_name(cmd.user.name))
        return Text(N_("Caught! {target} draws the penalty."), {"target": _name(tx, target)}), True
    settled = uno_calls.already_called(tx.book, user, target)
    if settled is not None:  # a second press for a call already made: never a wrong call
        return _too_late(tx, cmd, settled), False
    if not seated or record.status != "running":
        raise Refusal("nothing_to_catch")
    return _wrong_call(tx, user, target), False


def _too_late(tx: Tx, cmd: cmds.Command, settled: str) -> uno_calls.TooLate:
    """A press that lost the race: the race log and the table get it once per person, so
    everyone sees how late it was; a repeat changes nothing."""
    record, match = tx.running()
    names = presenter.names_of(record)
    refusal = uno_calls.refusal(_name(tx, settled))
    line = race.late_press(record, names.get(cmd.user.id, display_name(cmd.user.name)),
                           names.get(settled, settled), match.hand_number, tx.now)
    if line is None:
        raise refusal
    tx.last.append(line)
    tx.table_due = tx.dirty = True
    return uno_calls.TooLate(refusal)


def _name(tx: Tx, user_id: str) -> str:
    seat = tx.seat(user_id)
    return display_name(seat.name) if seat is not None else user_id


def _stand_in(state, target: str) -> str:
    # A bystander is not a seat in the engine: the call is made in the name of another seat.
    return next(p for p in state.players if p != target)


def _rename_caller(tx: Tx, seat_caller: str, user: str, name: str) -> None:
    counters = tx.book.counters
    row = counters.get(seat_caller)
    if row and row.get("uno_calls"):
        row["uno_calls"] -= 1  # bystanders are not seats: no stats for the stand-in
    seat_name = _name(tx, seat_caller)
    for i, text in enumerate(tx.last):
        if text.params.get("caller") == seat_name:
            tx.last[i] = Text(text.msgid, {**text.params, "caller": name})


def _wrong_call(tx: Tx, user: str, target: str | None) -> Text:
    """A seated player's wrong call: the engine decides the false-call penalty. Returns the
    refusal text when the penalty changed the state (to be saved); raises when nothing did."""
    _, match = tx.running()
    state = match.game
    victim = target or next(p for p in state.players if p != user)
    try:
        new_match, events = match.apply(CatchUno(user, victim))
    except NothingToCatch as error:
        penalised = getattr(error, "match", None)
        if penalised is None:
            raise _false_call_refusal(0) from None
        tx.absorb_penalised(CatchUno(user, victim), match, penalised,
                            list(getattr(error, "events", ())), user)
        return _false_call_refusal(state.rules.false_uno_penalty).text
    except UnoError as error:
        raise from_engine(error) from None
    # An engine that reports the wrong call as an event rather than an error.
    tx.absorb_penalised(CatchUno(user, victim), match, new_match, events, user)
    return _false_call_refusal(state.rules.false_uno_penalty).text


def _false_call_refusal(penalty: int) -> Refusal:
    if penalty > 0:
        return Refusal("nothing_to_catch", text=Text(
            N_("Nobody can be called out for UNO right now. Wrong call: you draw {count}."),
            {"count": penalty}))
    return Refusal("nothing_to_catch")


# ---- timeouts -------------------------------------------------------------------------------

def turn_timeout(tx: Tx, deadline: float) -> bool:
    """The player to act ran out of time: draw and pass (or take the penalty). After
    ``AFK_LIMIT`` in a row the seat becomes an AI seat or leaves, as the chat chose."""
    record = tx.record
    if record is None or record.status != "running" or tx.match is None:
        return False
    stored = record.deadlines.get("turn")
    if stored is None or abs(stored - deadline) > 1e-3 or tx.now + 1e-3 < stored:
        return False  # stale timer: the turn moved on, or another process re-armed it
    state = tx.match.game
    player = state.current
    seat = tx.seat(player) if player else None
    if player is None or seat is None or seat.ai is not None:
        record.deadlines.pop("turn", None)
        tx.dirty = True
        return True
    timeouts = tx.book.timeouts
    timeouts[player] = timeouts.get(player, 0) + 1
    tx.last.append(Text(N_("{player} ran out of time."), {"player": display_name(seat.name)}))
    if timeouts[player] >= AFK_LIMIT and tx.game().options.afk_policy == "leave":
        timeouts.pop(player, None)
        remove(tx, player, Text(N_("{player} was away too long and left the game."),
                                {"player": display_name(seat.name)}),
               Text(N_("You were away too long and left the game.")), notify=True)
        if tx.game().status == "stopped":  # nobody left playing: abandoned
            tx.book.end_reason = "away"
        return True
    auto_move(tx, player)
    if timeouts[player] == AFK_LIMIT - 1:
        warn_away(tx, player, timeouts[player], tx.game().options.afk_policy)
    if timeouts[player] >= AFK_LIMIT:
        timeouts.pop(player, None)
        tx.change_seat(player, ai=TAKEOVER_STRATEGY)
        tx.book.taken_over.append(player)
        tx.close_hand(player, Text(N_("You were away too long: a bot plays for you until you "
                                      "open your hand again.")), set_aside=True)
        if endings.everyone_away(tx, AFK_LIMIT):
            return True
        tx.notice(Text(N_("{player} was away too long: a bot plays for them until they open their hand again."),
                       {"player": display_name(seat.name)}), mentions=(player,))
    return True


def warn_away(tx: Tx, player: str, missed: int, policy: str) -> None:
    """Tell the player, in their hand (with the card the timeout drew them), that the next
    missed turn hands their seat to a bot, or takes them out of the game."""
    warning = (Nn_("You ran out of time {count} time in a row: miss the next turn too and you leave the game.",
                   "You ran out of time {count} times in a row: miss the next turn too and you leave the game.",
                   missed, {"count": missed}) if policy == "leave" else
               Nn_("You ran out of time {count} time in a row: miss the next turn too and a bot plays for you.",
                   "You ran out of time {count} times in a row: miss the next turn too and a bot plays for you.",
                   missed, {"count": missed}))
    drawn = tx.hand_updates.get(player)
    tx.want_hand(player, warning if drawn is None else Text(SENTENCE_PAIR, {"first": drawn, "then": warning}))


def auto_move(tx: Tx, player: str) -> None:
    """Draw (or take the pending penalty), then pass if the turn is still there."""
    assert tx.match is not None
    actions = legal_actions(tx.match.game, player)
    if any(isinstance(a, ChooseColor) for a in actions):  # a dealer naming the first Wild's colour
        hand = tx.match.game.hand(player)
        tx.apply(ChooseColor(player, max(Color, key=lambda c: sum(1 for k in hand if k.color is c))))
        return
    if any(isinstance(a, Draw) for a in actions):
        tx.apply(Draw(player))
    else:  # forced play: the first legal card
        play = next((a for a in actions if isinstance(a, Play)), None)
        if play is None:
            return
        tx.apply(play)
    state = tx.match.game
    if state.current == player and state.winner is None:
        if any(isinstance(a, Pass) for a in legal_actions(state, player)):
            tx.apply(Pass(player))


# ---- AI seats -------------------------------------------------------------------------------

StrategyFor = Callable[[str], object]


def ai_step(tx: Tx, strategy_for: StrategyFor, rng: random.Random) -> bool:
    """Let one AI seat act: an off-turn reaction first (catching a forgetful player, a
    jump-in), else the AI whose turn it is. Returns whether anything was applied.

    While someone can be called out, AI seats hold back (see ``fairness``): no call-out before
    ``CATCH_DELAY``, no move that closes the window before the chat's reaction window."""
    record = tx.record
    if record is None or record.status != "running" or tx.match is None:
        return False
    state = tx.match.game
    if state.winner is not None:
        return False
    closes = fairness.window_closes_at(record, state.catchable)
    window_open = closes is not None and tx.now < closes
    for seat in record.seats:
        if seat.ai is None or seat.user_id == state.current:
            continue
        action = strategy_for(seat.ai).react(state, seat.user_id, rng)  # type: ignore[attr-defined]
        if action is None or not _may_react(tx, action, window_open):
            continue
        if _try(tx, action, seat.user_id):
            return True
    current = state.current
    mover = tx.seat(current) if current else None
    if current is None or mover is None or mover.ai is None or window_open:
        return False
    action = strategy_for(mover.ai).choose(state, current, rng)  # type: ignore[attr-defined]
    if _try(tx, action, current):
        return True
    log.error("game %s: AI %s chose an illegal action; drawing instead", record.game_id, current)
    auto_move(tx, current)
    return True


def _may_react(tx: Tx, action: Action, window_open: bool) -> bool:
    if isinstance(action, DeclareUno):
        return True  # declaring late is always allowed
    if isinstance(action, CatchUno):
        assert tx.record is not None
        return tx.now >= fairness.catch_allowed_at(tx.record, action.target)
    return not window_open  # a jump-in would close the window


def ai_wake_at(tx: Tx) -> float | None:
    """When an AI action held back by ``fairness`` becomes allowed, if one is."""
    record, match = tx.record, tx.match
    if record is None or match is None or record.status != "running" or match.game.winner:
        return None
    if not any(seat.ai for seat in record.seats):
        return None
    return fairness.next_wake(record, match.game.catchable, tx.now)


def _try(tx: Tx, action: Action, player: str) -> bool:
    if getattr(action, "player", None) != player:
        return False
    try:
        tx.apply(action)
    except UnoError:
        return False
    return True
