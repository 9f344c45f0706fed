"""A match at two tables at once: 8 players, 7 rounds of new partners.

One match is three game records that each keep their own lock, table message and timers:
- the *hub*, in the chat where the lobby was opened (``record.two_tables``): it holds the
  lobby's seats, the tables' chats and game ids; it routes commands sent to that chat to the
  sender's table and announces the champion when both tables are done;
- two *tables* (``record.series``), each in its own chat (a Discord thread, a Telegram forum
  topic, or a virtual chat ``<chat>#t<k>`` whose messages the adapter posts into the group).
  A table's ``Match`` (``Match.start(..., table=k)``) scores all 8 players; the standings are
  the sum of both tables' scores.

A table that finishes a round waits until the other table has finished it too; then each
table deals its next round with the players the schedule seats there (a player keeps their
seat's state, e.g. a bot standing in, when moving between tables). Only ever one record is
written per transaction: a table reads the other (``Tx.linked``) but never writes it.

Functions here are synchronous work on a ``Tx`` (like lobby.py and play.py).
"""

from __future__ import annotations

from dataclasses import replace

from bot.engine import Match
from bot.engine.errors import UnoError
from bot.engine.match import champion
from bot.i18n import Lines

from . import presenter
from .hand_book import HandBook
from .names import display_names
from .ports import ChatKey, GameRecord, GameResult, PlayerResult, Seat
from .record import TableOfMatch, TwoTables
from .refusals import Refusal, from_engine
from .results import COUNTERS, add_up
from .settings import game_rules
from .transaction import Tx
from .views import N_, Text

TABLES = 2
PLAYERS = 8


def virtual_table_chat(chat: ChatKey, number: int, topic: str | None = None) -> ChatKey:
    """The chat of table ``number`` where the platform gives it no chat of its own: the
    adapter posts its messages into ``chat`` (into forum topic ``topic`` where given); commands
    sent in ``chat`` reach the sender's table through the hub."""
    suffix = f"#t{number}" + (f":{topic}" if topic else "")
    return ChatKey(chat.platform, chat.chat_id + suffix)


def split_table_chat(chat_id: str) -> tuple[str, int | None, str | None]:
    """``"-100#t2:55"`` -> (``"-100"``, 2, ``"55"``); a plain chat id -> (chat id, None, None)."""
    base, sep, rest = chat_id.rpartition("#t")
    number, _, topic = rest.partition(":")
    if sep and base and number.isdigit():
        return base, int(number), topic or None
    return chat_id, None, None


def is_hub(record: GameRecord | None) -> bool:
    return record is not None and record.two_tables is not None


def is_table(record: GameRecord | None) -> bool:
    return record is not None and record.series is not None


def linked_game_ids(record: GameRecord) -> list[str]:
    """The other records of the same match: a hub's tables, or a table's partner and hub."""
    if record.two_tables is not None:
        return list(record.two_tables.games)
    if record.series is not None:
        series = record.series
        return [g for g in series.games if g != record.game_id] + [series.hub_game]
    return []


def wants_tables(record: GameRecord | None) -> bool:
    return record is not None and record.status == "lobby" and int(record.rules.get("tables", 1)) > 1


# ---- starting ------------------------------------------------------------------------------

def check_start(tx: Tx, may_manage: bool) -> GameRecord:
    """The hub's lobby may start as two tables: 8 players and the manager asking."""
    record = tx.game()
    if record.status != "lobby":
        raise Refusal("game_running")
    if not may_manage:
        raise Refusal("not_allowed")
    if len(record.seats) != PLAYERS:
        raise Refusal("two_tables_players", {"count": len(record.seats)})
    return record


def open_table(tx: Tx, hub: GameRecord, number: int, game_id: str, games: list[str]) -> None:
    """Create table ``number``'s record in ``tx.chat`` and deal its first hand."""
    if tx.record is not None:
        raise Refusal("game_exists")
    rules = game_rules(hub.rules)
    players = [seat.user_id for seat in hub.seats]
    try:
        match, events = Match.start(players, rules, hub.options.seed, table=number)
    except UnoError as error:
        raise from_engine(error) from None
    by_id = {seat.user_id: seat for seat in hub.seats}
    # The lobby's settings (language, timers, seed...) but none of its game bookkeeping.
    names = {seat.user_id: seat.name for seat in hub.seats}
    tx.record = GameRecord(
        game_id=game_id, chat=tx.chat, status="running", creator=hub.creator,
        seats=[_copy_seat(by_id[p]) for p in match.game.players], rules=hub.rules,
        options=replace(hub.options), book=HandBook(names=names, penalties_kept=True),
        series=TableOfMatch(number, hub.chat, hub.game_id, list(games),
                            [_copy_seat(seat) for seat in hub.seats]),
        created_at=tx.now, owner=hub.owner)
    tx.match = match
    tx.dirty = True
    tx.table_due = True
    tx.last = [Text(N_("Table {table}, round {round} of {rounds}: the game starts!"),
                    {"table": number, "round": 1, "rounds": len(match.seatings)}),
               presenter.new_round(match, display_names(names)),
               *presenter.describe_all(events, display_names(names), match.game.rules)]
    timer = hub.options.turn_timer
    if timer > 0:
        tx.record.deadlines["turn"] = tx.now + timer
    for seat in tx.record.seats:
        tx.want_hand(seat.user_id)


def hub_started(tx: Tx, chats: list[ChatKey], games: list[str], seats_at: list[list[str]]) -> None:
    """The lobby becomes the hub: running, no hand of its own, the tables announced."""
    record = tx.game()
    if record.status != "lobby":
        raise Refusal("game_running")
    record.status = "running"
    record.deadlines.clear()
    record.two_tables = TwoTables(list(chats), list(games))
    names = presenter.names_of(record)
    tx.dirty = True
    # One line per table: two lists of names joined by the same separator would run together.
    tx.notice(Text(N_("The match is played at two tables at once: 7 rounds, new partners every "
                      "round.\n{tables}"),
                   {"tables": Lines(tuple(Text(N_("Table {table}: {players}"),
                                               {"table": i + 1, "players": tuple(names.get(p, p) for p in seats)})
                                          for i, seats in enumerate(seats_at)))}))


def _copy_seat(seat: Seat) -> Seat:
    return Seat(seat.user_id, seat.name, seat.language, seat.ai, seat.theme)


# ---- playing on ----------------------------------------------------------------------------

def _finished_round(record: GameRecord, round_number: int) -> bool:
    if record.status != "running" or not record.has_match:
        return record.status == "finished"
    match = record.current()
    last = round_number * match.rules.rotation_hands
    return match.hand_number > last or (match.hand_number == last and match.hand_over)


def advance(tx: Tx) -> bool:
    """A table that finished a round deals the next one once the other table has finished it
    too. Returns whether it did."""
    record = tx.record
    match = tx.match
    if record is None or match is None or record.status != "running" or not is_table(record):
        return False
    if not match.round_over or match.winner is not None:
        return False
    done = match.round_number
    others = [r for r in tx.linked if is_table(r)]
    if not all(_finished_round(other, done) for other in others):
        return False
    seating = match.seatings[done]  # 0-based: the next round's seating
    current = {seat.user_id: seat for seat in record.seats}
    for other in others:  # players arriving from the other table keep their seat's state
        for seat in other.seats:
            current.setdefault(seat.user_id, seat)
    series = record.series
    assert series is not None
    for seat in series.seats:
        current.setdefault(seat.user_id, _copy_seat(seat))
    bots = dict(series.bots)
    for other in others:  # players who left play on as bots, at whichever table
        bots.update(other.series.bots if other.series is not None else {})
    series.bots = bots
    for user_id, strategy in bots.items():
        if user_id in current:
            current[user_id] = Seat(user_id, current[user_id].name, current[user_id].language, strategy)
    leaving = [s.user_id for s in record.seats if s.user_id not in seating]
    record.seats = [_copy_seat(current[p]) for p in seating]
    for user_id in leaving:
        record.hand_message_ids.pop(user_id, None)
    taken = set(record.book.taken_over) | {u for r in others for u in r.book.taken_over}
    record.book.taken_over = [p for p in seating if p in taken]
    tx.next_hand()
    return True


def conclude(tx: Tx) -> bool:
    """On the hub: once every table has played its last hand, name the champion."""
    record = tx.record
    if record is None or not is_hub(record) or record.status != "running":
        return False
    tables = [r for r in tx.linked if is_table(r)]
    if len(tables) < TABLES or any(r.status != "finished" or not r.has_match for r in tables):
        return False
    matches = [r.current() for r in tables if r.has_match]
    players = [seat.user_id for seat in record.seats]
    summed = presenter.summed_scores(matches)
    totals = {p: summed.get(p, 0) for p in players}
    rules = game_rules(record.rules)
    winner = champion(rules.scoring, totals, players)
    names = presenter.names_of(record)
    counters = add_up({}, [r.book.match_counters for r in tables])
    rows = [PlayerResult(p, names.get(p, p), points=totals[p], won=p == winner,
                         is_ai=any(s.ai for s in record.seats if s.user_id == p),
                         **{key: counters.get(p, {}).get(key, 0) for key in COUNTERS})
            for p in players]
    tx.results.append(GameResult(record.game_id, record.chat, "match", max(m.hand_number for m in matches),
                                 rows, finished_at=tx.now))
    tx.notice(Text(N_("{winner} is the champion of both tables! Final standings: {standings}"),
                   {"winner": names.get(winner, winner),
                    "standings": presenter.standings(matches[0], names, scores=totals)}),
              mentions=(winner,))
    tx.finish("finished")
    tx.recap_due = True  # the whole match's, after the champion, where the match began
    return True


def stop_all(tx: Tx, by: str) -> None:
    """Stop this record as part of stopping the whole match (hub or table)."""
    record = tx.record
    if record is None or not record.active:
        return
    tx.notice(Text(N_("{player} stopped the match at both tables."), {"player": by}))
    tx.finish("stopped")


def seat_chat(records: list[GameRecord], user_id: str) -> ChatKey | None:
    """The chat of the table where ``user_id`` sits now."""
    for record in records:
        if is_table(record) and record.active and any(s.user_id == user_id for s in record.seats):
            return record.chat
    return None
