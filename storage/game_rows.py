"""The per-action hot path (games, their seat rows and results) straight on the drivers.

Why not through SQLAlchemy like the rest of the store: every coordinator action is one read
and one write of a game row, and SQLAlchemy's async layer (greenlet hand-offs, cursor set-up
and teardown, pool reset) costs 0.5-1 ms per statement here against 0.05 ms for the same
statement on the bare driver. That difference is most of the time of an action. So these
few statements are written out once per dialect, on the table definitions of ``models.py``
(column lists come from there, so they cannot drift), and run on:

- SQLite: one sqlite3 connection on the event loop's thread in autocommit mode (a statement
  takes less time than a hand-off to a driver thread; it never waits on the loop for a
  lock, see ``SqliteGameRows``); a multi-statement save is ``BEGIN IMMEDIATE`` ... ``COMMIT``
  run without yielding;
- PostgreSQL: an asyncpg pool (many games commit at once and share WAL flushes).

JSON columns hold ``json.dumps`` text exactly as SQLAlchemy's JSON type writes it, so both
paths read each other's rows.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.parse
from collections.abc import Callable, Coroutine, Sequence
from contextlib import closing
from typing import Any, TypeVar, cast

from sqlalchemy.engine import URL

from .db import asyncpg_dsn
from .models import game_seats, games, result_players, results
from .rating_rows import PostgresDb, RatingRows, SqliteDb

GAME_COLUMNS = tuple(column.name for column in games.columns)
# What a load reads: the save's own steps are in game_log once written.
LOADED_COLUMNS = tuple(c for c in GAME_COLUMNS if c not in ("last_steps", "last_digest"))
JSON_COLUMNS = frozenset(c.name for c in games.columns if c.type.__class__.__name__ == "JSON")
# A save that plays on writes the small columns and its steps (the log trigger appends them);
# one that takes a snapshot (a hand ended, a new match) writes the match and the rules too.
# A save writes the columns that changed among these, and always its version, time, owed
# flag and steps (the log trigger appends them); with a snapshot (a hand ended, a new
# match) the match and the rules too.
SMALL_COLUMNS = ("status", "creator", "seats", "table_message_id", "hand_message_ids",
                 "deadlines", "meta", "created_at")
SEAT_COLUMNS = tuple(c.name for c in game_seats.columns)
RESULT_COLUMNS = tuple(c.name for c in results.columns if c.name != "id")
RESULT_PLAYER_COLUMNS = tuple(c.name for c in result_players.columns if c.name != "id")
ACTIVE = "status IN ('lobby', 'running')"
# SQLite, while another connection holds the write lock: the first wait, the longest.
BUSY_FIRST_WAIT = 0.001
BUSY_LONGEST_WAIT = 0.05
# SQLite: writes between two checkpoints. A hot-path save puts a few pages into the WAL, so
# this is about SQLite's own default of a checkpoint per 1000 WAL pages.
CHECKPOINT_EVERY = 250
T = TypeVar("T")
HEAD = "game_id, version, owed"
Head = tuple[str, int, bool]


Update = tuple[dict[str, Any], str, int, bool | None]  # row, game, version, owed
# A result to store: its row, its players' rows, and the finishing ranks when it is rated.
Result = tuple[dict[str, Any], list[dict[str, Any]], list[tuple[str, int]] | None]


class UniqueViolation(Exception):
    """A uniqueness rule refused the write (game id, one active game per chat, a result)."""


def encode(row: dict[str, Any]) -> dict[str, Any]:
    """JSON columns as text; an absent match or log entry as SQL NULL (the log trigger and
    the compaction look for NULL)."""
    return {k: json.dumps(v) if k in JSON_COLUMNS and v is not None else v for k, v in row.items()}


def decode(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    """A row with its JSON columns decoded, except the match snapshot: left as text, decoded
    only when no newer match is at hand (``SqlStore``)."""
    return {name: json.loads(value) if name in JSON_COLUMNS and name != "match" and value is not None
            else value for name, value in zip(names, values, strict=True)}


class GameRows:
    """Statements shared by both dialects; ``_p(n)`` is the dialect's n-th placeholder."""

    rating_rows: RatingRows

    def _p(self, n: int) -> str:
        raise NotImplementedError

    def _sql(self) -> None:
        cols = ", ".join(LOADED_COLUMNS)
        self.select_active = (f"SELECT {cols} FROM games WHERE platform = {self._p(1)} "
                              f"AND chat_id = {self._p(2)} AND {ACTIVE}")
        self.select_one = f"SELECT {cols} FROM games WHERE game_id = {self._p(1)}"
        # What says whether a record this process holds is still the stored one: a game's
        # version changes with every save, and ``owed`` is the one column written without it.
        self.select_active_head = (f"SELECT {HEAD} FROM games WHERE platform = {self._p(1)} "
                                   f"AND chat_id = {self._p(2)} AND {ACTIVE}")
        self.select_head = f"SELECT {HEAD} FROM games WHERE game_id = {self._p(1)}"
        self.select_last = (f"SELECT {cols} FROM games WHERE platform = {self._p(1)} "
                            f"AND chat_id = {self._p(2)} "
                            "ORDER BY updated_at DESC, created_at DESC, game_id DESC LIMIT 1")
        self.select_all_active = (f"SELECT {cols} FROM games WHERE {ACTIVE} "
                                  "ORDER BY created_at, game_id")
        self.select_owing = f"SELECT {cols} FROM games WHERE owed ORDER BY updated_at, game_id"
        self.mark_delivered = (f"UPDATE games SET owed = FALSE WHERE game_id = {self._p(1)} "
                               f"AND version = {self._p(2)} AND owed RETURNING version")
        self.count_active = f"SELECT platform, COUNT(*) FROM games WHERE {ACTIVE} GROUP BY platform"
        self.compact = (f"UPDATE games SET match = NULL, hand_message_ids = '{{}}' WHERE NOT ({ACTIVE}) "
                        f"AND NOT owed AND updated_at < {self._p(1)} AND match IS NOT NULL")
        # The user's games through the seat index (ix_game_seats_user), never a scan of games.
        self.select_user_active = (
            f"SELECT {cols} FROM games WHERE game_id IN (SELECT game_id FROM game_seats WHERE "
            f"platform = {self._p(1)} AND user_id = {self._p(2)}) AND {ACTIVE} "
            "ORDER BY created_at, game_id")
        self.insert_game = self._insert("games", GAME_COLUMNS)
        self._updates: dict[tuple[tuple[str, ...], bool], str] = {}  # by columns, owed checked
        self.select_log = ("SELECT version, steps, digest FROM game_log WHERE game_id = "
                           f"{self._p(1)} AND version > {self._p(2)} AND version <= {self._p(3)} "
                           "ORDER BY version")
        self.insert_base = self._insert("game_bases", ("game_id", "version", "match"))
        self.select_bases = (f"SELECT version, match FROM game_bases WHERE game_id = {self._p(1)} "
                             "ORDER BY version")
        finished = (f"SELECT game_id FROM games WHERE NOT ({ACTIVE}) AND NOT owed "
                    f"AND updated_at < {self._p(1)}")
        self.compact_log = f"DELETE FROM game_log WHERE game_id IN ({finished})"
        self.compact_bases = f"DELETE FROM game_bases WHERE game_id IN ({finished})"
        self.delete_seats = f"DELETE FROM game_seats WHERE game_id = {self._p(1)}"
        self.insert_seat = self._insert("game_seats", SEAT_COLUMNS)
        self.insert_result = self._insert("results", RESULT_COLUMNS) + " RETURNING id"
        self.insert_result_player = self._insert("result_players", RESULT_PLAYER_COLUMNS)

    def _insert(self, table: str, columns: Sequence[str]) -> str:
        marks = ", ".join(self._p(i + 1) for i in range(len(columns)))
        return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"

    def _update(self, columns: tuple[str, ...], owed_checked: bool) -> str:
        sets = ", ".join(f"{c} = {self._p(i + 1)}" for i, c in enumerate(columns))
        n = len(columns)
        owed = f" AND owed = {self._p(n + 3)}" if owed_checked else ""
        return (f"UPDATE games SET {sets} WHERE game_id = {self._p(n + 1)} "
                f"AND version = {self._p(n + 2)}{owed} RETURNING version")

    def update_of(self, update: Update) -> tuple[str, list[Any]]:
        """The version-checked UPDATE of the row's given columns (a few shapes, each built
        once: the drivers prepare a statement once per text)."""
        row, game_id, old_version, owed = update
        columns = tuple(row)
        key = (columns, owed is not None)
        sql = self._updates.get(key)
        if sql is None:
            sql = self._updates[key] = self._update(columns, owed is not None)
        return sql, [*row.values(), game_id, old_version, *(() if owed is None else (owed,))]

    # The interface SqlStore uses --------------------------------------------------------------
    async def fetch_active(self, platform: str, chat_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_active, (platform, chat_id))
        return rows[0] if rows else None

    async def fetch_active_head(self, platform: str, chat_id: str) -> Head | None:
        """(game id, version, owed) of the chat's active game."""
        return self._head(await self._rows(self.select_active_head, (platform, chat_id)))

    async def fetch_head(self, game_id: str) -> Head | None:
        return self._head(await self._rows(self.select_head, (game_id,)))

    @staticmethod
    def _head(rows: Sequence[Sequence[Any]]) -> Head | None:
        if not rows:
            return None
        game_id, version, owed = rows[0]
        return str(game_id), int(version), bool(owed)

    async def fetch_one(self, game_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_one, (game_id,))
        return rows[0] if rows else None

    async def fetch_last(self, platform: str, chat_id: str) -> dict[str, Any] | None:
        rows = await self._fetch(self.select_last, (platform, chat_id))
        return rows[0] if rows else None

    async def fetch_all_active(self) -> list[dict[str, Any]]:
        return await self._fetch(self.select_all_active, ())

    async def fetch_user_active(self, platform: str, user_id: str) -> list[dict[str, Any]]:
        return await self._fetch(self.select_user_active, (platform, user_id))

    async def compact_finished(self, before: float) -> int:
        """The hot path's connection runs it: one UPDATE, atomic on its own."""
        raise NotImplementedError

    async def fetch_owing(self) -> list[dict[str, Any]]:
        return await self._fetch(self.select_owing, ())

    async def delivered(self, game_id: str, version: int) -> bool:
        """Clear the owed flag of ``version`` (one autocommitted UPDATE)."""
        return bool(await self._rows(self.mark_delivered, (game_id, version)))

    async def fetch_log(self, game_id: str, after: int, upto: int) -> list[tuple[int, Any, str]]:
        """The logged saves of a game with ``after < version <= upto``, in order."""
        return [(int(v), json.loads(steps), str(digest)) for v, steps, digest
                in await self._rows(self.select_log, (game_id, after, upto))]

    async def fetch_bases(self, game_id: str) -> list[tuple[int, Any]]:
        """Where each match of a game began, in order."""
        return [(int(v), json.loads(match))
                for v, match in await self._rows(self.select_bases, (game_id,))]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        """Raw rows of a SELECT (the driver-specific part)."""
        raise NotImplementedError

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        """Game rows for a SELECT of GAME_COLUMNS, decoded (the driver-specific part)."""
        raise NotImplementedError

    async def open_games_by_platform(self) -> dict[str, int]:
        """Active games per platform, read afresh from the database (the health check)."""
        raise NotImplementedError

    async def write(self, *, insert: dict[str, Any] | None = None, update: Update | None = None,
                    seats: tuple[str, list[dict[str, Any]]] | None = None,
                    results: Sequence[Result] = (),
                    base: tuple[str, int, str] | None = None) -> bool:
        """Insert or version-checked update of a game row (``update``: the row, game id, the
        version it must still have, whether it writes a snapshot), optionally with its seat
        rows, results (rated ones updating the ratings) and the match it begins (``base``),
        atomically. False when the update matched no row (stale version)."""
        raise NotImplementedError

    async def _store_result(self, db: Any, result: Result, insert_result: Any) -> None:
        """One result and its players, the ratings locked before it takes its id."""
        head, players, ranks = result
        before = None
        if ranks is not None:
            before = await self.rating_rows.lock(db, head["platform"], head["chat_id"],
                                                 head["finished_at"], ranks)
        result_id = await insert_result([head[c] for c in RESULT_COLUMNS])
        await db.many(self.insert_result_player, [
            [result_id if c == "result_id" else p[c] for c in RESULT_PLAYER_COLUMNS]
            for p in players])
        if ranks is not None and before is not None:
            await self.rating_rows.apply(db, head["platform"], result_id, ranks, before)

    async def close(self) -> None: ...


class SqliteGameRows(GameRows):
    """One sqlite3 connection used on the event loop's own thread, in autocommit mode.

    Why not aiosqlite's worker thread: every statement there is two hand-offs of the GIL
    between the loop (busy with the other games) and the worker, and the worker waits for
    each; a game-row statement itself takes tens of microseconds here (WAL, no fsync per
    commit), less than one hand-off. So statements run on the loop, and never wait on it:
    the connection's busy timeout is 0, and when another connection holds the write lock (a
    settings write of this process, another process) the statement is retried after an
    asyncio sleep, for at most ``busy_timeout_ms``. A transaction runs from BEGIN IMMEDIATE
    to COMMIT without yielding to the loop, so nothing of this connection comes between.
    Checkpoints (they fsync) and the compaction of finished games run on worker threads
    with connections of their own."""

    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        self._path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._writes_since_checkpoint = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._sql()
        # BEGIN IMMEDIATE holds the only writer's lock: no row lock is needed.
        self.rating_rows = RatingRows(self._p, lock="")

    def _p(self, n: int) -> str:
        return "?"

    def _open(self, busy_timeout_ms: int, *, autocheckpoint: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        pragmas = [f"busy_timeout={busy_timeout_ms}", "journal_mode=WAL", "synchronous=NORMAL",
                   "foreign_keys=ON"]
        if not autocheckpoint:
            pragmas.append("wal_autocheckpoint=0")  # see _count_write
        for pragma in pragmas:
            conn.execute(f"PRAGMA {pragma}")
        return conn

    async def _retrying(self, statement: Callable[[sqlite3.Connection], T]) -> T:
        """``statement`` on the loop's connection, retried while the database is busy."""
        waited, delay = 0.0, BUSY_FIRST_WAIT
        while True:
            try:
                if self._conn is None:
                    self._conn = self._open(0, autocheckpoint=False)
                return statement(self._conn)
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY \
                        or waited * 1000 >= self._busy_timeout_ms:
                    raise
            await asyncio.sleep(delay)
            waited += delay
            delay = min(2 * delay, BUSY_LONGEST_WAIT)

    async def _single(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return await self._retrying(lambda conn: conn.execute(sql, args).fetchall())

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        return [decode(LOADED_COLUMNS, row) for row in await self._single(sql, args)]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        return list(await self._single(sql, args))

    async def delivered(self, game_id: str, version: int) -> bool:
        marked = await super().delivered(game_id, version)
        self._count_write()
        return marked

    async def write(self, *, insert=None, update=None, seats=None, results=(), base=None):
        try:
            if insert is None and seats is None and not results and base is None:
                # One UPDATE commits on its own (autocommit), its log row with it: the hot path.
                written = bool(await self._single(*self.update_of(update)))
            else:
                await self._retrying(lambda conn: conn.execute("BEGIN IMMEDIATE"))
                written = self._transaction(insert, update, seats, results, base)
        except sqlite3.IntegrityError as error:
            raise UniqueViolation(str(error)) from None
        self._count_write()
        return written

    def _transaction(self, insert, update, seats, results, base) -> bool:
        """The statements of one save after BEGIN IMMEDIATE, then COMMIT (ROLLBACK when one
        fails or the version is stale). Plain calls: nothing may yield in between."""
        conn = self._conn
        assert conn is not None
        try:
            if insert is not None:
                conn.execute(self.insert_game, [insert[c] for c in GAME_COLUMNS])
            elif not conn.execute(*self.update_of(update)).fetchall():
                conn.execute("ROLLBACK")
                return False
            if base is not None:
                conn.execute(self.insert_base, base)
            if seats is not None:
                conn.execute(self.delete_seats, (seats[0],))
                conn.executemany(self.insert_seat, [[s[c] for c in SEAT_COLUMNS] for s in seats[1]])
            db = SqliteDb(conn)

            async def insert_result(values: list[Any]) -> int:
                [(result_id,)] = conn.execute(self.insert_result, values).fetchall()
                return int(result_id)

            for result in results:
                run_now(self._store_result(db, result, insert_result))
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return True

    def _count_write(self) -> None:
        """Every CHECKPOINT_EVERY writes, copy the WAL back into the database on a worker
        thread (a checkpoint fsyncs: never on the loop), so the WAL stays small."""
        self._writes_since_checkpoint += 1
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or (
                self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._writes_since_checkpoint = 0
        self._checkpoint = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self._checkpoint_in_thread))

    def _checkpoint_in_thread(self) -> None:
        with closing(self._open(self._busy_timeout_ms, autocheckpoint=True)) as conn:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def open_games_by_platform(self) -> dict[str, int]:
        def count() -> dict[str, int]:
            # A connection of its own that may not create the file: the long-lived one would
            # still read a database file deleted or replaced under it, and the check must see it.
            uri = f"file:{urllib.parse.quote(self._path)}?mode=rw"
            with closing(sqlite3.connect(uri, uri=True,
                                         timeout=self._busy_timeout_ms / 1000)) as conn:
                return dict(conn.execute(self.count_active).fetchall())

        return await asyncio.to_thread(count)

    async def compact_finished(self, before: float) -> int:
        def compact() -> int:
            # Many finished games at once: a worker thread, its own connection, one transaction.
            with closing(self._open(self._busy_timeout_ms, autocheckpoint=True)) as conn:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for sql in (self.compact_log, self.compact_bases):
                        conn.execute(sql, (before,))
                    compacted = conn.execute(self.compact, (before,)).rowcount
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return compacted

        return await asyncio.to_thread(compact)

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
            self._checkpoint = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (its awaits are plain calls in disguise) to its
    end, here and now; fails loudly if it would wait for the loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise RuntimeError("a statement inside a SQLite transaction tried to wait for the loop")


async def _reset(conn: Any) -> None:
    """Before a connection goes back to the pool. Our statements leave no session state (no
    SET, LISTEN, cursors or advisory locks), so asyncpg's default reset query would only add
    a round trip to every load and save; an open transaction (a cancelled task) still ends."""
    if conn.is_in_transaction():
        await conn.execute("ROLLBACK")


class PostgresGameRows(GameRows):
    def __init__(self, url: URL, max_size: int) -> None:
        # The same DSN as the engine's connections (storage.db): asyncpg parses it itself,
        # query options (sslmode, sslrootcert, host=/socket) included.
        self._dsn = asyncpg_dsn(url)
        self._max_size = max_size
        self._pool: Any = None
        self._pool_lock = asyncio.Lock()
        self._sql()
        self.rating_rows = RatingRows(self._p, lock="FOR UPDATE")

    def _p(self, n: int) -> str:
        return f"${n}"

    async def _get_pool(self):
        if self._pool is None:
            async with self._pool_lock:
                if self._pool is None:
                    import asyncpg

                    self._pool = await asyncpg.create_pool(
                        self._dsn, min_size=1, max_size=self._max_size, reset=_reset)
        return self._pool

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        pool = await self._get_pool()
        rows = await pool.fetch(sql, *args)
        return [decode(LOADED_COLUMNS, tuple(row)) for row in rows]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        pool = await self._get_pool()
        return [tuple(row) for row in await pool.fetch(sql, *args)]

    async def write(self, *, insert=None, update=None, seats=None, results=(), base=None):
        import asyncpg

        pool = await self._get_pool()
        try:
            if insert is None and seats is None and not results and base is None:
                # One UPDATE is atomic on its own, its log row with it: no BEGIN/COMMIT trips.
                sql, args = self.update_of(update)
                return await pool.fetchval(sql, *args) is not None
            async with pool.acquire() as conn, conn.transaction():
                if insert is not None:
                    await conn.execute(self.insert_game, *[insert[c] for c in GAME_COLUMNS])
                elif await conn.fetchval(*self._args(self.update_of(update))) is None:
                    return False  # stale: nothing was written, the empty transaction ends
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

    async def open_games_by_platform(self) -> dict[str, int]:
        pool = await self._get_pool()
        return {row[0]: row[1] for row in await pool.fetch(self.count_active)}

    async def compact_finished(self, before: float) -> int:
        pool = await self._get_pool()
        async with pool.acquire() as conn, conn.transaction():
            for sql in (self.compact_log, self.compact_bases):
                await conn.execute(sql, before)
            status = await conn.execute(self.compact, before)
        return int(status.split()[-1])

    @staticmethod
    def _args(update: tuple[str, list[Any]]) -> list[Any]:
        return [update[0], *update[1]]

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None
