"""Lobby and table management: open, join, leave, start, add bots, kick, stop.

Handlers are synchronous functions on a ``Tx``; they raise ``Refusal`` to turn a command
down (nothing is saved then) and return the text of the reply on success."""

from __future__ import annotations

from bot.engine import Match
from bot.engine.errors import UnoError
from bot.i18n import key_named

from . import endings
from .commands import Command
from .names import display_name
from .ports import ChatSettings, GameRecord, Seat
from .presenter import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    can_join_late,
    describe_all,
    level_label,
    names_of,
)
from .record import GameOptions
from .refusals import Refusal, from_engine
from .setting_schema import AI_LEVELS
from .settings import game_rules, rules_dict, rules_of
from .table_size import refuse_deal, refuse_seat, seats_for
from .transaction import Tx
from .views import N_, Text

STRATEGIES = tuple(AI_LEVELS)
TWO_TABLE_PLAYERS = 8
TAKEOVER_STRATEGY = "normal"
AI_NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
AI_SEAT_NAMES = tuple(f"Bot {name}" for name in AI_NAMES)  # one string each, shared by every game


def seat_limit(record: GameRecord) -> int:
    """Two tables seat exactly 8 (the lobby then waits for a start); else MAX_PLAYERS."""
    return TWO_TABLE_PLAYERS if int(record.rules.get("tables", 1)) > 1 else MAX_PLAYERS


def may_manage(tx: Tx, cmd: Command) -> bool:
    return cmd.user.is_admin or cmd.user.id == tx.game().creator


def require_manager(tx: Tx, cmd: Command) -> None:
    if not may_manage(tx, cmd):
        raise Refusal("not_allowed")


def open_lobby(tx: Tx, cmd: Command, *, game_id: str, seed: int | str, settings: ChatSettings,
               language: str, lobby_timeout: float, theme: str | None = None,
               owner: str | None = None) -> Text:
    if tx.record is not None:
        raise endings.blocked(tx)
    tx.record = GameRecord(
        game_id=game_id, chat=cmd.chat, status="lobby", creator=cmd.user.id,
        seats=[Seat(cmd.user.id, cmd.user.name, language=language, theme=theme)],
        rules=rules_dict(rules_of(settings)),
        deadlines={"lobby": tx.now + lobby_timeout} if lobby_timeout > 0 else {},
        options=GameOptions(language=settings.language, preset=settings.preset, seed=seed,
                            turn_timer=settings.turn_timer, afk_policy=settings.afk_policy,
                            reaction_window=settings.reaction_window),
        created_at=tx.now, owner=owner)
    tx.lobby_update(Text(N_("{player} opened a game of UNO. Join in!"), {"player": display_name(cmd.user.name)}))
    return Text(N_("Game created. Others can join now."))


def join(tx: Tx, cmd: Command, *, language: str, theme: str | None = None) -> Text:
    record = tx.game()
    if tx.seat(cmd.user.id) is not None:
        raise Refusal("already_joined")
    if record.status == "running":
        return join_late(tx, cmd, language=language, theme=theme)
    if record.status != "lobby":
        raise Refusal("game_running")
    if len(record.seats) >= seat_limit(record):
        raise Refusal("game_full")
    rules = game_rules(record.rules)
    refuse_seat(rules, len(record.seats))
    record.seats.append(Seat(cmd.user.id, cmd.user.name, language=language, theme=theme))
    if len(record.seats) == seats_for(rules) and rules.tables == 1:
        start_match(tx)
        return Text(N_("You joined. The table is full: the game starts."))
    tx.lobby_update(Text(N_("{player} joined."), {"player": display_name(cmd.user.name)}))
    return Text(N_("You joined the game."))


def join_late(tx: Tx, cmd: Command, *, language: str, theme: str | None = None) -> Text:
    """Late join (a rule): a seat in the running game, dealt ``hand_size`` cards and seated
    after the current player. Between hands it is refused (the next deal is seconds away)."""
    record = tx.game()
    if not can_join_late(record):
        rules = game_rules(record.rules)
        if not rules.late_join or rules.teams:
            raise Refusal("game_running", reason="too_late_to_join")
        refuse_seat(rules, len(record.seats))
    _, match = tx.running()
    if match.hand_over:  # a seat without a hand would have nothing to show: join at the deal
        raise Refusal("hand_over")
    record.seats.append(Seat(cmd.user.id, cmd.user.name, language=language, theme=theme))
    try:
        tx.add_player(cmd.user.id)
    except UnoError as error:
        record.seats.pop()
        raise from_engine(error) from None
    return Text(N_("You joined the game: your cards are on their way."))


def level_named(typed: str) -> str:
    """A bot level as a player types it: easy, normal, hard, or its name as the bot shows it
    in any of its languages (简单, 普通, 困难); anything else unchanged (refused later)."""
    return key_named(str(typed), AI_LEVELS) or typed


def add_ai(tx: Tx, cmd: Command, strategy: str) -> Text:
    record = tx.game()
    require_manager(tx, cmd)
    if record.status != "lobby":
        raise Refusal("game_running")
    strategy = level_named(strategy)
    if strategy not in STRATEGIES:
        raise Refusal("bad_strategy", {"name": str(strategy)[:20]})
    if len(record.seats) >= seat_limit(record):
        raise Refusal("game_full")
    rules = game_rules(record.rules)
    refuse_seat(rules, len(record.seats))
    taken = {seat.user_id for seat in record.seats}
    number = next(n for n in range(1, 2 * MAX_PLAYERS + 2) if f"ai{n}" not in taken)
    name = AI_SEAT_NAMES[(number - 1) % len(AI_SEAT_NAMES)]
    record.seats.append(Seat(f"ai{number}", name, ai=strategy))
    if len(record.seats) == seats_for(rules) and rules.tables == 1:
        start_match(tx)
    else:
        tx.lobby_update(Text(N_("{player} ({level}) takes a seat."), {"player": name, "level": level_label(strategy)}))
    return Text(N_("{player} joined the game."), {"player": name})


def start(tx: Tx, cmd: Command) -> Text:
    record = tx.game()
    if record.status != "lobby":
        raise Refusal("game_running")
    if not may_manage(tx, cmd):
        raise Refusal("not_allowed")
    start_match(tx)
    return Text(N_("The game starts!"))


def start_match(tx: Tx) -> None:
    record = tx.game()
    players = [seat.user_id for seat in record.seats]
    rules = game_rules(record.rules)
    if len(players) < MIN_PLAYERS:
        raise Refusal("not_enough_players")
    if rules.tables > 1 and len(players) != 8:
        raise Refusal("two_tables_players", {"count": len(players)})
    if rules.rotation and rules.tables == 1 and (len(players) % 2 or len(players) < 4):
        raise Refusal("rotation_players", {"count": len(players)})
    size = rules.team_size
    if rules.teams and not rules.rotation and (len(players) % size or len(players) < 2 * size):
        raise Refusal("bad_team_size", {"size": size, "least": 2 * size})
    refuse_deal(rules, len(players))
    try:
        match, events = Match.start(players, rules, record.options.seed)
    except UnoError as error:
        raise from_engine(error) from None
    record.status = "running"
    record.deadlines.pop("lobby", None)
    record.book.penalty, record.book.penalties_kept = None, True  # for the recap, from the deal on
    tx.match = match
    tx.dirty = True
    tx.table_due = True
    tx.last = [Text(N_("The game starts!")), *describe_all(events, names_of(record), match.game.rules)]
    timer = record.options.turn_timer
    if timer > 0:
        record.deadlines["turn"] = tx.now + timer
    for seat in record.seats:
        tx.want_hand(seat.user_id)
    tx.turn_started = match.game.current  # the first player is told it is their turn


def leave(tx: Tx, cmd: Command) -> Text:
    tx.seated(cmd.user.id)
    left = Text(N_("You left the game."))
    remove(tx, cmd.user.id, Text(N_("{player} left the game."), {"player": display_name(cmd.user.name)}),
           left)
    return left


def kick(tx: Tx, cmd: Command, target: str) -> Text:
    require_manager(tx, cmd)
    if not str(target or "").strip():
        raise Refusal("unknown_player", {"name": ""}, text=Text(N_(
            "Say whom to remove: a player, or a seat's number or name.")))
    seat = tx.find_player(target)
    by = display_name(cmd.user.name)
    remove(tx, seat.user_id, Text(N_("{player} was removed from the game by {by}."),
                                  {"player": display_name(seat.name), "by": by}),
           Text(N_("You were removed from the game by {by}."), {"by": by}), notify=True)
    return Text(N_("{player} was removed from the game."), {"player": display_name(seat.name)})


def remove(tx: Tx, user_id: str, told: Text, parting: Text, *, notify: bool = False) -> None:
    """Take a seat away: in the lobby simply; mid-game through the engine (cards go back under
    the stock), closing the player's hand with ``parting``. ``notify`` (removed by someone
    else): it reaches them as news, a notice that pings them in the lobby, their hand posted
    anew mid-game (see ``Tx.close_hand``). Ends the game when fewer than two players or no
    humans would be left."""
    record = tx.game()
    others = [s for s in record.seats if s.user_id != user_id]
    if record.status == "lobby":
        human = any(s.user_id == user_id and s.ai is None for s in record.seats)
        record.seats = others
        if not any(s.ai is None for s in others):
            tx.notice(Text(N_("The lobby is closed: no players are left.")))
            tx.finish("stopped")
            return
        if record.creator == user_id:
            record.creator = next(s.user_id for s in others if s.ai is None)
        tx.lobby_update(told)
        if notify and human:  # removed by someone else: also a message of its own, which pings them
            tx.notice(told, mentions=(user_id,))
        return
    tx.running()
    tx.close_hand(user_id, parting, set_aside=True, notify=notify)
    if record.series is not None:  # two tables: the schedule needs every seat to the end
        strategy = tx.seated(user_id).ai or TAKEOVER_STRATEGY
        tx.change_seat(user_id, ai=strategy)
        record.series.bots[user_id] = strategy
        taken = record.book.taken_over
        if user_id in taken:
            taken.remove(user_id)
        tx.dirty = True
        tx.table_due = True
        tx.last.insert(0, Text(N_("{told} A bot plays the seat to the end of the match."), {"told": told}))
        return
    if len(others) < MIN_PLAYERS or not any(s.ai is None for s in others):
        record.book.names[user_id] = tx.seated(user_id).name
        record.seats = others
        tx.notice(Text(N_("{told} Not enough players are left: the game is over."), {"told": told}))
        tx.finish("stopped")
        return
    try:
        tx.remove_player(user_id)
    except UnoError as error:
        raise from_engine(error) from None
    if record.creator == user_id:
        record.creator = next(s.user_id for s in record.seats if s.ai is None)
    tx.last.insert(0, told)


def stop(tx: Tx, cmd: Command) -> Text:
    require_manager(tx, cmd)
    tx.notice(Text(N_("{player} stopped the game."), {"player": display_name(cmd.user.name)}))
    tx.finish("stopped")
    return Text(N_("The game was stopped."))


def expire_lobby(tx: Tx) -> None:
    tx.notice(Text(N_("Nobody started the game in time: the lobby has closed.")))
    tx.finish("stopped")
