"""SqlStore: the coordinator's GameStore port on SQLAlchemy's async engine.

Every write is one transaction. ``save`` is an optimistic-concurrency write: a game row is
only updated where its stored version equals the caller's, so two processes sharing a
database can never both apply an action to the same game; the loser gets VersionConflict.
The hot path (load + save per action) uses Core statements on the sqlmodel tables through
an AsyncConnection: no ORM identity map to copy records in and out of.
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.coordinator.ports import (
    ChatKey,
    ChatSettings,
    GameRecord,
    GameResult,
    PlayerStats,
    Seat,
    UserProfile,
    VersionConflict,
)

from . import stats_queries
from .db import make_engine
from .models import (
    ACTIVE_STATUSES,
    chat_settings,
    game_seats,
    games,
    result_players,
    user_profiles,
)
from .models import results as results_table

# Columns the version-checked UPDATE rewrites: the record is the truth (as in MemoryStore);
# only the chat and the game id are fixed at insert.
_MUTABLE_COLUMNS = ("status", "creator", "seats", "rules", "match", "table_message_id",
                    "hand_message_ids", "deadlines", "meta", "created_at")


def _seats_digest(seats: Sequence[Seat]) -> str:
    payload = json.dumps([asdict(seat) for seat in seats], sort_keys=True)
    return hashlib.blake2b(payload.encode(), digest_size=12).hexdigest()


class SqlStore:
    """GameStore on SQLite or PostgreSQL. Build it with ``storage.open_store(url)``, which
    upgrades the schema first; ``close()`` disposes of the connection pool."""

    def __init__(self, engine: AsyncEngine, *, clock: Any = time.time) -> None:
        self.engine = engine
        # Single statements need no BEGIN/COMMIT round trips on PostgreSQL: reads, and a save
        # that is one UPDATE (no seat change, no results), run in autocommit; one statement is
        # atomic. On SQLite the driver already runs a SELECT outside any transaction, and
        # switching its isolation level costs extra thread hops, so it keeps the defaults.
        sqlite_engine = engine.dialect.name == "sqlite"
        self._single = engine if sqlite_engine else engine.execution_options(
            isolation_level="AUTOCOMMIT")
        self._single_write = engine.begin if sqlite_engine else self._single.connect
        self._now = clock
        # game_id -> (version, digest of its seats). One version of a game has exactly one
        # seat list, so when we saved/read version v with digest d and the UPDATE of
        # version v succeeds, the seat rows already match d and need no rewrite.
        self._seat_digests: dict[str, tuple[int, str]] = {}
        dialect = engine.dialect.name
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert

    @classmethod
    def from_url(cls, url: str, **engine_options: Any) -> SqlStore:
        """A store on ``url`` WITHOUT touching the schema (use ``open_store`` in production)."""
        return cls(make_engine(url, **engine_options))

    async def close(self) -> None:
        await self.engine.dispose()

    # ---- games ----------------------------------------------------------------------------

    async def load(self, chat: ChatKey) -> GameRecord | None:
        query = sa.select(games).where(
            games.c.platform == chat.platform, games.c.chat_id == chat.chat_id,
            games.c.status.in_(ACTIVE_STATUSES))
        async with self._single.connect() as conn:
            row = (await conn.execute(query)).mappings().first()
        return self._record(row) if row else None

    async def get(self, game_id: str) -> GameRecord | None:
        async with self._single.connect() as conn:
            row = (await conn.execute(
                sa.select(games).where(games.c.game_id == game_id))).mappings().first()
        return self._record(row) if row else None

    async def active_games(self) -> list[GameRecord]:
        query = (sa.select(games).where(games.c.status.in_(ACTIVE_STATUSES))
                 .order_by(games.c.created_at, games.c.game_id))
        async with self._single.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [self._record(row) for row in rows]

    async def save(self, record: GameRecord,
                   results: Iterable[GameResult] = ()) -> GameRecord:
        now = self._now()
        saved = replace(copy.deepcopy(record), version=record.version + 1, updated_at=now)
        if record.version == 0 and not saved.created_at:
            saved.created_at = now
        digest = _seats_digest(saved.seats)
        values = self._row_values(saved)
        results = list(results)
        seats_changed = self._seat_digests.get(record.game_id) != (record.version, digest)
        try:
            if record.version == 0:
                async with self.engine.begin() as conn:
                    await conn.execute(games.insert().values(**values))
                    await self._write_seats(conn, saved)
                    await self._write_results(conn, results)
            elif seats_changed or results:
                async with self.engine.begin() as conn:
                    await self._update(conn, record, values)
                    if seats_changed:
                        await conn.execute(game_seats.delete().where(
                            game_seats.c.game_id == record.game_id))
                        await self._write_seats(conn, saved)
                    await self._write_results(conn, results)
            else:  # the hot path: one version-checked UPDATE, atomic on its own
                async with self._single_write() as conn:
                    await self._update(conn, record, values)
        except IntegrityError as error:
            # Duplicate game id, a second active game in the chat, or a result recorded twice.
            raise VersionConflict(
                f"game {record.game_id}: rejected by a uniqueness rule "
                f"({type(error.orig).__name__ if error.orig else 'integrity'})") from None
        self._seat_digests[saved.game_id] = (saved.version, digest)
        return saved

    @staticmethod
    async def _update(conn: AsyncConnection, record: GameRecord, values: dict[str, Any]) -> None:
        update = (games.update()
                  .where(games.c.game_id == record.game_id, games.c.version == record.version)
                  .values({name: values[name] for name in _MUTABLE_COLUMNS}
                          | {"version": values["version"], "updated_at": values["updated_at"]}))
        outcome = await conn.execute(update)
        if outcome.rowcount != 1:
            raise VersionConflict(
                f"game {record.game_id}: version {record.version} is stale or unknown")

    async def _write_results(self, conn: AsyncConnection, results: list[GameResult]) -> None:
        for result in results:
            await self._write_result(conn, result)

    def _row_values(self, record: GameRecord) -> dict[str, Any]:
        return {
            "game_id": record.game_id,
            "platform": record.chat.platform,
            "chat_id": record.chat.chat_id,
            "status": record.status,
            "creator": record.creator,
            "seats": [asdict(seat) for seat in record.seats],
            "rules": record.rules,
            "match": record.match,
            "version": record.version,
            "table_message_id": record.table_message_id,
            "hand_message_ids": record.hand_message_ids,
            "deadlines": record.deadlines,
            "meta": record.meta,
            "created_at": record.created_at,
            "updated_at": record.updated_at,
        }

    async def _write_seats(self, conn: AsyncConnection, record: GameRecord) -> None:
        if record.seats:
            await conn.execute(game_seats.insert(), [
                {"game_id": record.game_id, "position": position,
                 "platform": record.chat.platform, "user_id": seat.user_id, "name": seat.name,
                 "language": seat.language, "ai": seat.ai}
                for position, seat in enumerate(record.seats)])

    async def _write_result(self, conn: AsyncConnection, result: GameResult) -> None:
        finished_at = result.finished_at or self._now()
        result_id = (await conn.execute(results_table.insert().values(
            game_id=result.game_id, platform=result.chat.platform, chat_id=result.chat.chat_id,
            kind=result.kind, hand_number=result.hand_number, finished_at=finished_at,
        ).returning(results_table.c.id))).scalar_one()
        if result.players:
            await conn.execute(result_players.insert(), [
                {"result_id": result_id, "platform": result.chat.platform,
                 "chat_id": result.chat.chat_id, "kind": result.kind,
                 "finished_at": finished_at, "user_id": player.user_id, "name": player.name,
                 "is_ai": player.is_ai, "won": player.won, "points": player.points,
                 "uno_calls": player.uno_calls, "caught": player.caught,
                 "challenges_won": player.challenges_won}
                for player in result.players])

    def _record(self, row: Any) -> GameRecord:
        record = GameRecord(
            game_id=row["game_id"],
            chat=ChatKey(row["platform"], row["chat_id"]),
            status=row["status"],
            creator=row["creator"],
            seats=[Seat(**seat) for seat in row["seats"]],
            rules=row["rules"],
            match=row["match"],
            version=row["version"],
            table_message_id=row["table_message_id"],
            hand_message_ids=row["hand_message_ids"],
            deadlines=row["deadlines"],
            meta=row["meta"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
        )
        self._seat_digests[record.game_id] = (record.version, _seats_digest(record.seats))
        return record

    # ---- chat settings and user profiles ---------------------------------------------------

    async def chat_settings(self, chat: ChatKey) -> ChatSettings:
        query = sa.select(chat_settings).where(chat_settings.c.platform == chat.platform,
                                               chat_settings.c.chat_id == chat.chat_id)
        async with self._single.connect() as conn:
            row = (await conn.execute(query)).mappings().first()
        if row is None:
            return ChatSettings()
        return ChatSettings(preset=row["preset"], overrides=row["overrides"],
                            language=row["language"], turn_timer=row["turn_timer"],
                            afk_policy=row["afk_policy"])

    async def save_chat_settings(self, chat: ChatKey, settings: ChatSettings) -> None:
        values = {"preset": settings.preset, "overrides": copy.deepcopy(settings.overrides),
                  "language": settings.language, "turn_timer": settings.turn_timer,
                  "afk_policy": settings.afk_policy, "updated_at": self._now()}
        await self._upsert(chat_settings, {"platform": chat.platform, "chat_id": chat.chat_id},
                           values)

    async def user_profile(self, platform: str, user_id: str) -> UserProfile:
        query = sa.select(user_profiles).where(user_profiles.c.platform == platform,
                                               user_profiles.c.user_id == user_id)
        async with self._single.connect() as conn:
            row = (await conn.execute(query)).mappings().first()
        if row is None:
            return UserProfile()
        return UserProfile(language=row["language"], stats_opt_out=row["stats_opt_out"])

    async def save_user_profile(self, platform: str, user_id: str, profile: UserProfile) -> None:
        await self._upsert(user_profiles, {"platform": platform, "user_id": user_id},
                           {"language": profile.language, "stats_opt_out": profile.stats_opt_out,
                            "updated_at": self._now()})

    async def _upsert(self, table: sa.Table, key: dict[str, Any], values: dict[str, Any]) -> None:
        statement = self._insert(table).values(**key, **values)
        statement = statement.on_conflict_do_update(index_elements=list(key), set_=values)
        async with self._single_write() as conn:
            await conn.execute(statement)

    # ---- stats ----------------------------------------------------------------------------

    async def stats(self, platform: str, user_id: str, chat: ChatKey | None = None) -> PlayerStats:
        async with self._single.connect() as conn:
            return await stats_queries.player_stats(conn, platform, user_id, chat)

    async def leaderboard(self, platform: str, chat: ChatKey | None = None,
                          limit: int = 10) -> list[PlayerStats]:
        async with self._single.connect() as conn:
            return await stats_queries.leaderboard(conn, platform, chat, limit)
