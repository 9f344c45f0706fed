"""The games' hot path on PostgreSQL (see ``game_rows`` for the statements and why bare
drivers): an asyncpg pool whose connections the hot path keeps between statements
(``kept_connections``), so that many games committing at once share WAL flushes, and the
version-checked UPDATEs of the games that save in one turn of the loop (with the snapshot
rows of those that take one) sent as one statement."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import URL

from . import json_text
from .db import PG_COMPACTION_TIMEOUT, asyncpg_dsn
from .game_rows import (
    GAME_COLUMNS,
    LOADED_COLUMNS,
    SEAT_COLUMNS,
    GameRows,
    Snapshot,
    UniqueViolation,
    Update,
    decode,
)
from .kept_connections import KeptConnections
from .rating_rows import PostgresDb, RatingRows

Write = tuple[Update, Snapshot | None]  # a grouped write: the UPDATE and its snapshot row


async def _reset(conn: Any) -> None:
    """Before a connection goes back to the pool. Our statements leave no session state (no
    SET, LISTEN, cursors or advisory locks), so asyncpg's default reset query would only add
    a round trip to every load and save; an open transaction (a cancelled task) still ends."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class PostgresGameRows(GameRows):
    def __init__(self, url: URL, max_size: int, statement_timeout: float) -> None:
        # The same DSN as the engine's connections (storage.db): asyncpg parses it itself,
        # query options (sslmode, sslrootcert, host=/socket) included.
        self._dsn = asyncpg_dsn(url)
        self._max_size = max_size
        self._statement_timeout = statement_timeout  # every statement's bound (storage.db)
        self._pool: Any = None
        self._kept: KeptConnections | None = None
        self._pool_lock = asyncio.Lock()
        # Group commit: the hot-path UPDATEs of every game that reached its save in this turn
        # of the loop, sent as one statement on the next turn (see _send_group); while
        # GROUPS_IN_FLIGHT statements are on their way, the ones after wait and grow.
        self._group: list[tuple[Write, asyncio.Future[bool]]] = []
        self._groups: set[asyncio.Task[None]] = set()
        self._send_due = False
        self._sql()
        self.rating_rows = RatingRows(self._p, lock="FOR UPDATE")

    def _p(self, n: int) -> str:
        return f"${n}"

    async def _connections(self) -> KeptConnections:
        kept = self._kept
        if kept is None:
            async with self._pool_lock:
                if self._kept is None:
                    import asyncpg

                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=1, max_size=self._max_size, reset=_reset,
                        command_timeout=self._statement_timeout)
                    self._kept = KeptConnections(self._pool, self._max_size)
                kept = self._kept
        return kept

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        rows = await (await self._connections()).fetch(sql, *args)
        return [decode(LOADED_COLUMNS, tuple(row)) for row in rows]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        return [tuple(row) for row in await (await self._connections()).fetch(sql, *args)]

    async def _transaction(self, insert, update, seats, results, base, snapshot) -> bool:
        import asyncpg

        try:
            kept = await self._connections()
            async with kept.connection() as conn, conn.transaction():
                if insert is not None:
                    await conn.execute(self.insert_game, *[insert[c] for c in GAME_COLUMNS])
                elif await conn.fetchval(*self._args(self.update_of(update))) is None:
                    return False  # stale: nothing was written, the empty transaction ends
                if snapshot is not None:
                    await conn.execute(self.upsert_snapshot, *snapshot)
                if base is not None:
                    await conn.execute(self.insert_base, *base)
                if seats is not None:
                    await conn.execute(self.delete_seats, seats[0])
                    await conn.executemany(self.insert_seat,
                                           [[s[c] for c in SEAT_COLUMNS] for s in seats[1]])
                db = PostgresDb(conn)

                async def insert_result(values: list[Any]) -> int:
                    return int(await conn.fetchval(self.insert_result, *values))

                for result in results:
                    await self._store_result(db, result, insert_result)
            return True
        except asyncpg.IntegrityConstraintViolationError as error:
            raise UniqueViolation(str(error)) from None

    def update_grouped(self, update: Update, snapshot: Snapshot | None = None) -> asyncio.Future[bool]:
        """A version-checked UPDATE (a save, a delivery marked done), with the snapshot row
        it writes if any, sent with the others of this turn of the loop as one statement over
        many rows (``group_update``): one round trip and one commit, where each would take
        its own. Its log row goes with it (the trigger). A uniqueness rule refusing it fails
        its future with UniqueViolation (``_write_one``)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._group.append(((update, snapshot), future))
        self._send_soon()
        return future

    def _send_soon(self) -> None:
        """Send the waiting writes on the next turn of the loop, unless as many statements
        as may be are on their way: the first of them to come back sends them then."""
        if self._group and not self._send_due and len(self._groups) < GROUPS_IN_FLIGHT:
            self._send_due = True
            asyncio.get_running_loop().call_soon(self._send_group)

    def _send_group(self) -> None:
        self._send_due = False
        if not self._group or len(self._groups) >= GROUPS_IN_FLIGHT:
            return
        group, self._group = self._group, []
        task = asyncio.get_running_loop().create_task(self._write_group(group))
        self._groups.add(task)
        task.add_done_callback(self._group_sent)

    def _group_sent(self, task: asyncio.Task[None]) -> None:
        self._groups.discard(task)
        self._send_soon()

    async def _write_group(self, group: list[tuple[Write, asyncio.Future[bool]]]) -> None:
        import asyncpg

        kept = await self._connections()
        statement = group_update([write for write, _ in group]) if len(group) > 1 else None
        try:
            if statement is not None:
                try:
                    written = {str(row[0]) for row in await kept.fetch(*statement)}
                except (asyncpg.IntegrityConstraintViolationError,
                        asyncpg.DeadlockDetectedError):
                    statement = None  # nothing was written: each on its own says which
                else:
                    for (update, _), future in group:
                        if not future.done():
                            future.set_result(update[1] in written)
            if statement is None:
                await asyncio.gather(*(self._write_one(kept, write, future)
                                       for write, future in group))
        except BaseException as error:
            for _, future in group:
                if not future.done():
                    future.set_exception(error)
            if not isinstance(error, Exception):
                raise

    async def _write_one(self, kept: KeptConnections, write: Write, future: asyncio.Future[bool]) -> None:
        import asyncpg

        update, snapshot = write
        try:
            sql, args = self.update_of(update)
            if snapshot is None:
                outcome: bool | BaseException = await kept.fetchval(sql, *args) is not None
            else:
                async with kept.connection() as conn, conn.transaction():
                    outcome = await conn.fetchval(sql, *args) is not None
                    if outcome:
                        await conn.execute(self.upsert_snapshot, *snapshot)
        except asyncpg.IntegrityConstraintViolationError as error:
            outcome = UniqueViolation(str(error))
        except Exception as error:
            outcome = error
        if future.done():
            return
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)

    async def open_games_by_platform(self) -> dict[str, int]:
        kept = await self._connections()
        return {row[0]: row[1] for row in await kept.fetch(self.count_active)}

    async def compact_finished(self, before: float) -> int:
        kept = await self._connections()
        async with kept.connection() as conn, conn.transaction():
            for sql in (self.compact_log, self.compact_bases, self.compact_hands):
                await conn.execute(sql, before, timeout=PG_COMPACTION_TIMEOUT)
            status = await conn.execute(self.compact, before, timeout=PG_COMPACTION_TIMEOUT)
        return int(status.split()[-1])

    @staticmethod
    def _args(update: tuple[str, list[Any]]) -> list[Any]:
        return [update[0], *update[1]]

    async def close(self) -> None:
        while self._group:  # saves waiting for their turn (it is the next one)
            await asyncio.sleep(0)
        if self._groups:
            await asyncio.gather(*self._groups, return_exceptions=True)
        if self._kept is not None:
            await self._kept.close()
            await self._pool.close()
            self._pool, self._kept = None, None


# Grouped statements on their way at once. The writes that come meanwhile go together in the
# next one: many moves' saves in one round trip and one commit, rather than a statement each
# (each costs the bot's process and the server more than a row in a bigger one). More than
# one, so that a slow commit does not hold every other game's save back.
GROUPS_IN_FLIGHT = 2

# What a grouped UPDATE may set, with the type each column's value is read as: a save
# that writes anything else (or a game twice) is sent on its own.
GROUPED_COLUMNS = {
    "version": "int", "updated_at": "float8", "owed": "bool", "last_steps": "json",
    "last_digest": "text", "status": "text", "creator": "text", "seats": "json",
    "table_message_id": "text", "hand_message_ids": "json", "deadlines": "json", "meta": "json",
    "book": "json", "outbox": "json",
    "created_at": "float8", "rules": "json", "snapshot_version": "int"}


def group_update(writes: list[Write]) -> tuple[str, str] | None:
    """One UPDATE for several games' version-checked UPDATEs, their rows sent as one JSON
    array (one parameter: asyncpg's arrays check every element's type in Python): each game
    row is written with the columns its element carries (a key absent leaves a column as it
    is) where its version, and its owed flag if checked, are as expected; RETURNING names the
    rows written. The snapshots of the writes that take one are upserted by the same
    statement, for the rows it wrote only. None when the updates do not fit one statement."""
    columns = sorted({c for (row, *_), _ in writes for c in row})
    ids = {game_id for (_, game_id, _, _), _ in writes}
    if any(c not in GROUPED_COLUMNS for c in columns) or len(ids) != len(writes):
        return None
    elements = []
    for (row, game_id, version, owed), snapshot in writes:
        element = {**row, "$game": game_id, "$version": version}
        if owed is not None:
            element["$owed"] = owed
        if snapshot is not None:
            element["$snapshot"] = snapshot[1]
        elements.append(element)
    sets = ", ".join(f"{column} = CASE WHEN v.j ? '{column}' THEN (v.j->>'{column}')::"
                     f"{GROUPED_COLUMNS[column]} ELSE g.{column} END" for column in columns)
    sql = (f"WITH v AS (SELECT jsonb_array_elements($1::jsonb) AS j), "
           f"written AS (UPDATE games AS g SET {sets} FROM v "
           "WHERE g.game_id = v.j->>'$game' AND g.version = (v.j->>'$version')::int "
           "AND (NOT v.j ? '$owed' OR g.owed = (v.j->>'$owed')::bool) RETURNING g.game_id, v.j)")
    if any(snapshot is not None for _, snapshot in writes):
        # A data-modifying WITH: the snapshot rows of the games rows written, in the same
        # statement (one snapshot of all, atomic with them).
        sql += (", snapshots AS (INSERT INTO game_snapshots (game_id, match) "
                "SELECT game_id, (j->>'$snapshot')::json FROM written WHERE j ? '$snapshot' "
                "ON CONFLICT (game_id) DO UPDATE SET match = excluded.match)")
    return f"{sql} SELECT game_id FROM written", json_text.dumps(elements)
