"""SqlStore: the coordinator's GameStore port on SQLite or PostgreSQL.

``save`` is an optimistic-concurrency write: a game row is only updated where its stored
version (and owed flag) equal what the caller read, so two processes sharing a database can
never both apply an action to the same game; the loser gets VersionConflict. A save writes
the columns that changed and the engine steps it played (appended to ``game_log`` by the same
UPDATE), not the whole match. The record's typed parts are three columns, each written only
when its part changed: a plain move writes its outbox (a few bytes), not the hand book or the
options. The match is written in full only as a snapshot (a new match, a hand's end, or
every ``match_log.SNAPSHOT_EVERY`` saves), into a row of its own, in the same group commit and
all-or-nothing with its games row: a move's UPDATE never carries it. The store holds each game as this
process last saved or read it: a load at that version reads three small columns, else the
row with the snapshot plus the log after it, replayed. Games and results go through
``game_rows`` (the per-action hot path, on the bare async drivers); settings, profiles and
the like through ``chat_rows``, stats as SQL aggregates on the async engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import fields, replace
from operator import attrgetter
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from sqlmodel.ext.asyncio.session import AsyncSession

from bot.coordinator import ratings
from bot.coordinator.match_log import digest, logged_steps, replay, takes_snapshot
from bot.coordinator.ports import (
    ChatKey,
    GameRecord,
    GameResult,
    MatchHistory,
    PlayerRating,
    PlayerStats,
    RatingTable,
    Seat,
    VersionConflict,
)
from bot.coordinator.record import DeliveryState, parts_from_json
from bot.engine import Match

from . import json_text, rating_queries, result_queries, stats_queries
from .chat_rows import ChatRows
from .db import PG_GAME_POOL_SIZE, PG_STATEMENT_TIMEOUT, SQLITE_BUSY_TIMEOUT_MS, make_engine
from .game_rows import SMALL_COLUMNS, GameRows, Result, UniqueViolation, encode
from .held_records import HeldRecords
from .loop_reads import LoopReads
from .moved_chat_rows import move_chat_rows
from .postgres_game_rows import PostgresGameRows
from .sqlite_game_rows import SqliteGameRows

NAME_LIMIT = 128  # the name columns' width; longer display names are cut, never refused
RECORDS_KEPT = 4096  # active games this process remembers as it last saw them


# What ``meta`` holds of the delivery state: all of it but the outbox (a column of its own).
_DELIVERY_IN_META = tuple(f.name for f in fields(DeliveryState) if f.name != "outbox")


_delivery_in_meta = attrgetter(*_DELIVERY_IN_META)  # a tuple of them (there are several)


def _meta_parts(record: GameRecord) -> tuple[Any, ...]:
    """What the ``meta`` column holds, to compare: the typed parts but the book and the outbox."""
    return (record.options, _delivery_in_meta(record.delivery), record.two_tables,
            record.series, record.owner)


def meta_json(record: GameRecord) -> dict[str, Any]:
    """The ``meta`` column: the record's typed parts (``parts_json``) without the book and
    the outbox, which have columns of their own."""
    data = record.parts_json(book=False)
    data.pop("outbox", None)
    return data


def outbox_json(record: GameRecord) -> dict[str, Any] | None:
    outbox = record.delivery.outbox
    return None if outbox is None else outbox.to_json()


def parts_of_row(row: dict[str, Any]) -> dict[str, Any]:
    """The typed parts of a loaded row (``meta``, ``book`` and ``outbox`` as one object, the
    form ``parts_from_json`` reads), as keyword arguments of ``GameRecord``."""
    data = {**(row["meta"] or {}), **(row["book"] or {})}
    if row["outbox"] is not None:
        data["outbox"] = row["outbox"]
    return parts_from_json(data)


def game_rows_for(engine: AsyncEngine) -> GameRows:
    url = engine.url
    if engine.dialect.name == "sqlite":
        if not url.database or url.database == ":memory:":
            raise ValueError("SqlStore needs a SQLite file (an in-memory database is not shared "
                             "between connections); use MemoryStore for memory")
        return SqliteGameRows(url.database, SQLITE_BUSY_TIMEOUT_MS)
    return PostgresGameRows(url, max_size=PG_GAME_POOL_SIZE, statement_timeout=PG_STATEMENT_TIMEOUT)


class SqlStore(ChatRows):
    """GameStore on SQLite or PostgreSQL. Build it with ``storage.open_store(url)``, which
    upgrades the schema first; ``close()`` releases every connection."""

    def __init__(self, engine: AsyncEngine, *, now: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self._rows = game_rows_for(engine)
        sqlite_engine = engine.dialect.name == "sqlite"
        self._now = now  # timestamps (updated_at, results): a test clock may stand in
        self._insert = sqlite.insert if sqlite_engine else postgresql.insert
        # Each game as this process last saved or read it (a private copy; see held_records): valid
        # only while the stored version is the same; another process's save makes it stale,
        # never wrong. A load that finds it current reads three small columns instead of the
        # whole row, and a save writes only the columns that differ from it. One version of
        # a game has one seat list, so seat rows are rewritten only when the seats differ.
        self._held = HeldRecords(RECORDS_KEPT)
        self._session = async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
        self._loop_reads = (LoopReads(self._rows.path, SQLITE_BUSY_TIMEOUT_MS)
                            if isinstance(self._rows, SqliteGameRows) else None)

    @classmethod
    def from_url(cls, url: str, *, now: Callable[[], float] = time.time,
                 **engine_options: Any) -> SqlStore:
        """A store on ``url`` WITHOUT touching the schema (use ``open_store`` in production)."""
        return cls(make_engine(url, **engine_options), now=now)

    async def close(self) -> None:
        await self._rows.close()
        if self._loop_reads is not None:
            self._loop_reads.close()
        await self.engine.dispose()

    # ---- games ----------------------------------------------------------------------------

    async def load(self, chat: ChatKey) -> GameRecord | None:
        head = await self._rows.fetch_active_head(chat.platform, chat.chat_id)
        if head is None:
            self._held.forget_chat(chat)
            return None
        return await self._current(*head)

    async def load_held(self, chat: ChatKey) -> tuple[GameRecord | None, bool]:
        held = self._held.active_in(chat)
        if held is None:
            return await self.load(chat), False
        # Unread: the save checks version and owed flag in its UPDATE (see ``save``).
        return held.detached(), True

    async def still_current(self, record: GameRecord) -> bool:
        head = await self._rows.fetch_active_head(record.chat.platform, record.chat.chat_id)
        return head == (record.game_id, record.version, record.delivery.outbox is not None)

    async def get(self, game_id: str) -> GameRecord | None:
        head = await self._rows.fetch_head(game_id)
        return await self._current(*head) if head else None

    async def _current(self, game_id: str, version: int, owed: bool) -> GameRecord | None:
        """The stored record at ``version``: this process's own copy when it holds that
        version, else the row read in full (it may have moved on since: any row read whole
        is consistent)."""
        held = self._held.get(game_id)
        if held is not None and held.version == version:
            record = held.detached()
            if not owed:  # its outbox was delivered (mark_delivered): owed no more
                record.delivery.outbox = None
            return record
        row = await self._rows.fetch_one(game_id)
        return await self._record(row) if row else None

    async def last_game(self, chat: ChatKey) -> GameRecord | None:
        row = await self._rows.fetch_last(chat.platform, chat.chat_id)
        return await self._record(row) if row else None

    async def active_games(self) -> list[GameRecord]:
        return [await self._record(row) for row in await self._rows.fetch_all_active()]

    async def active_games_of(self, platform: str, user_id: str) -> list[GameRecord]:
        return [await self._record(row)
                for row in await self._rows.fetch_user_active(platform, user_id)]

    async def move_chat(self, old: ChatKey, new: ChatKey) -> bool:
        async with self.engine.begin() as conn:
            moved = await move_chat_rows(conn, old, new)
        # What this process holds of the old chat names it: read it anew from the rows.
        self._held.forget_chat(old)
        for game_id, record in self._held.games():
            if record.chat == old:
                self._held.forget(game_id)
        return moved > 0

    async def compact_finished(self, before: float) -> int:
        # It drops finished games' cards without a new version: what we hold of them goes too.
        for game_id, record in self._held.games():
            if not record.active:
                self._held.forget(game_id)
        return await self._rows.compact_finished(float(before))

    async def open_games_by_platform(self) -> dict[str, int]:
        """Games in a lobby or running, per platform: the operator port's gauge and its check
        that the database answers (raises what the driver raises when it does not)."""
        return await self._rows.open_games_by_platform()

    async def owing_delivery(self) -> list[GameRecord]:
        return [await self._record(row) for row in await self._rows.fetch_owing()]

    async def save(self, record: GameRecord,
                   results: Iterable[GameResult] = ()) -> GameRecord:
        now = float(self._now())
        created_at = record.created_at if record.version or record.created_at else now
        version = record.version + 1
        snapshot = takes_snapshot(record)
        steps = logged_steps(record)
        held = self._held.find(record.game_id, record.chat)
        if held is not None and held.version != record.version:
            held = None  # what is stored at that version is not known here
        changes: dict[str, Any] = {
            "version": version, "updated_at": now, "owed": record.delivery.outbox is not None,
            "last_steps": steps, "last_digest": digest(record.state) if steps else None}
        match_text = None  # the snapshot, when one is taken: its own row, not the games row
        if snapshot:
            match = record.match
            match_text = None if match is None else json_text.dumps(match)
            changes |= {"rules": record.rules, "snapshot_version": version}
        if record.version == 0:
            changes = self._row_values(record, created_at=created_at, rules=None,
                                       snapshot_version=record.snapshot_version) | changes
        elif held is None:
            values = self._row_values(record, created_at=created_at)
            changes = {column: values[column] for column in SMALL_COLUMNS} | changes
        else:  # only what differs from the stored version is written
            self._add_changed_columns(changes, record, held)
        row = encode(changes)  # JSON columns as text: written as is
        seats_changed = "seats" in changes  # every column is there when nothing is held
        begins = record.has_match and (record.replaced or record.version == 0)
        # The owed flag is the one column written without a new version (mark_delivered): a
        # save of what this process holds expects it as held, so a record handed out unread
        # (load_held) is exactly as current as one just read.
        owed = held.delivery.outbox is not None if held is not None else None
        try:
            written = await self._rows.write(
                insert=row if record.version == 0 else None,
                update=(row, record.game_id, record.version, owed) if record.version else None,
                seats=(record.game_id, self._seat_rows(record)) if seats_changed else None,
                results=[self._result_rows(result, now) for result in results],
                base=(record.game_id, version, match_text) if begins else None,
                snapshot=(record.game_id, match_text) if snapshot else None)
        except UniqueViolation as error:
            # Duplicate game id, a second active game in the chat, or a result recorded twice.
            raise VersionConflict(f"game {record.game_id}: rejected by a uniqueness rule "
                                  f"({str(error).splitlines()[0][:120]})") from None
        if not written:
            self._held.forget(record.game_id)  # stale: read it whole next time
            raise VersionConflict(
                f"game {record.game_id}: version {record.version} is stale or unknown")
        # What is stored is the database's own copy; the returned record is a new object that
        # shares its nested JSON values with the argument (which callers replace by it).
        saved = record.saved_as(version, created_at=created_at, updated_at=now,
                                snapshot_version=version if snapshot else record.snapshot_version)
        self._hold(saved)
        return saved

    @staticmethod
    def _add_changed_columns(changes: dict[str, Any], record: GameRecord, held: GameRecord) -> None:
        """Into ``changes``: the row's columns besides the match whose value differs from
        ``held``'s (filled in place: this is every move's save)."""
        if record.status != held.status:
            changes["status"] = record.status
        if record.creator != held.creator:
            changes["creator"] = record.creator
        if record.seats != held.seats:
            changes["seats"] = [seat.to_json() for seat in record.seats]
        if record.table_message_id != held.table_message_id:
            changes["table_message_id"] = record.table_message_id
        if record.hand_message_ids != held.hand_message_ids:
            changes["hand_message_ids"] = record.hand_message_ids
        if record.deadlines != held.deadlines:
            changes["deadlines"] = record.deadlines
        # The typed parts: each of the three columns only when its part changed (a move
        # changes the outbox; the book changes with a few moves, the rest rarely).
        if record.delivery.outbox != held.delivery.outbox:
            changes["outbox"] = outbox_json(record)
        if record.book != held.book:
            changes["book"] = record.book.to_json()
        if _meta_parts(record) != _meta_parts(held):
            changes["meta"] = meta_json(record)
        if record.created_at != held.created_at:
            changes["created_at"] = float(record.created_at)

    def _hold(self, record: GameRecord) -> None:
        """Remember the record as stored (a copy: the caller goes on changing its own)."""
        self._held.hold(record.detached())

    @staticmethod
    def _row_values(record: GameRecord, **changes: Any) -> dict[str, Any]:
        return {
            "game_id": record.game_id,
            "platform": record.chat.platform,
            "chat_id": record.chat.chat_id,
            "status": record.status,
            "creator": record.creator,
            "seats": [seat.to_json() for seat in record.seats],
            "version": record.version,
            "table_message_id": record.table_message_id,
            "hand_message_ids": record.hand_message_ids,
            "deadlines": record.deadlines,
            "meta": meta_json(record),
            "book": record.book.to_json(),
            "outbox": outbox_json(record),
            "created_at": float(record.created_at),
            "updated_at": float(record.updated_at),
            "owed": record.delivery.outbox is not None,
        } | changes

    @staticmethod
    def _seat_rows(record: GameRecord) -> list[dict[str, Any]]:
        return [{"game_id": record.game_id, "position": position,
                 "platform": record.chat.platform, "user_id": seat.user_id,
                 "name": seat.name[:NAME_LIMIT], "language": seat.language, "ai": seat.ai}
                for position, seat in enumerate(record.seats)]

    def _result_rows(self, result: GameResult, now: float) -> Result:
        finished_at = float(result.finished_at or now)
        head = {"game_id": result.game_id, "platform": result.chat.platform,
                "chat_id": result.chat.chat_id, "kind": result.kind,
                "hand_number": result.hand_number, "finished_at": finished_at}
        players = [{"result_id": None, "platform": result.chat.platform,
                    "chat_id": result.chat.chat_id, "kind": result.kind,
                    "finished_at": finished_at, "user_id": player.user_id,
                    "name": player.name[:NAME_LIMIT], "is_ai": player.is_ai, "won": player.won,
                    "points": player.points, "uno_calls": player.uno_calls,
                    "caught": player.caught, "challenges_won": player.challenges_won,
                    "cards_left": player.cards_left}
                   for player in result.players]
        return head, players, ratings.finishing_ranks(replace(result, finished_at=finished_at))

    async def _record(self, row: dict[str, Any]) -> GameRecord:
        record = GameRecord(
            game_id=row["game_id"],
            chat=ChatKey(row["platform"], row["chat_id"]),
            status=row["status"],
            creator=row["creator"],
            seats=[Seat.from_json(seat) for seat in row["seats"]],
            rules=row["rules"],
            version=row["version"],
            table_message_id=row["table_message_id"],
            hand_message_ids=row["hand_message_ids"],
            deadlines=row["deadlines"],
            **parts_of_row(row),
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            snapshot_version=row["snapshot_version"],
        )
        record.snapshot, record.state = await self._match_of(row)
        if not row["owed"]:  # its outbox was delivered (mark_delivered): owed no more
            record.delivery.outbox = None
        held = self._held.get(record.game_id)
        if held is None or held.version <= record.version:  # a read that raced a save of the
            # game must not set what is held back a version
            self._hold(record)
        return record

    # ---- stats ----------------------------------------------------------------------------

    async def stats(self, platform: str, user_id: str, chat: ChatKey | None = None) -> PlayerStats:
        return await self._read(stats_queries.player_stats, platform, user_id, chat)

    async def leaderboard(self, platform: str, chat: ChatKey | None = None,
                          limit: int = 10) -> list[PlayerStats]:
        return await self._read(stats_queries.leaderboard, platform, chat, limit)

    async def rating_table(self, platform: str, chat: ChatKey | None, now: float, *,
                           previous: bool = False, limit: int = 10) -> RatingTable:
        return await self._read(rating_queries.table, platform, chat, now, previous, limit)

    async def player_rating(self, platform: str, user_id: str, chat: ChatKey | None,
                            now: float) -> PlayerRating:
        return await self._read(rating_queries.player, platform, user_id, chat, now)

    async def rebuild_ratings(self) -> int:
        async with self.engine.begin() as conn:
            return await rating_queries.rebuild(conn)


    async def mark_delivered(self, game_id: str, version: int) -> bool:
        marked = await self._rows.delivered(game_id, version)
        held = self._held.get(game_id)
        if marked and held is not None and held.version == version:
            held.delivery.outbox = None  # as stored now: a save of it expects owed false
        return marked

    async def game_results(self, game_id: str) -> list[GameResult]:
        return await self._rows.fetch_results(game_id)

    async def last_match_game(self, chat: ChatKey) -> str | None:
        return await self._read(result_queries.last_match_game, chat)

    async def match_history(self, game_id: str) -> MatchHistory | None:
        bases = await self._rows.fetch_bases(game_id)
        if not bases:
            return None
        return MatchHistory(bases, await self._rows.fetch_log(game_id, 0, 2**31 - 1))

    async def _match_of(self, row: dict[str, Any]) -> tuple[dict[str, Any] | None, Any]:
        """(snapshot, Match) of a loaded row: the match this process last saw at the row's
        version, else the snapshot, and the log after it replayed (the snapshot is decoded
        lazily by the record when no log follows it)."""
        game_id, version = row["game_id"], row["version"]
        held = self._held.get(game_id)
        if held is not None and held.version == version and held.state is not None:
            return None, held.state
        snapshot = json_text.loads(row["match"]) if row["match"] is not None else None
        if snapshot is None or row["snapshot_version"] >= version:
            return snapshot, None
        log = await self._rows.fetch_log(game_id, row["snapshot_version"], version)
        if not log:
            return snapshot, None
        return None, replay(Match.from_json(snapshot), log)
