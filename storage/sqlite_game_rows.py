"""The games' hot path on SQLite (see ``game_rows`` for the statements and why bare drivers)."""

from __future__ import annotations

import asyncio
import sqlite3
import urllib.parse
from collections.abc import Callable, Coroutine, Sequence
from contextlib import closing
from typing import Any, TypeVar, cast

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
from .rating_rows import RatingRows, SqliteDb

# Turns of the loop a group of writes stays open before it commits. The games a commit
# answers move on in the turn after it and reach their next saves there: a group open for two
# turns takes those in too (12 to 14 writes a commit rather than 8 with 50 games moving), and a
# commit costs SQLite more than a write in it. A lone game's save waits for nothing more.
GROUP_TURNS = 2
# While another connection holds the write lock: the first wait, the longest.
BUSY_FIRST_WAIT = 0.001
BUSY_LONGEST_WAIT = 0.05
# Writes between two checkpoints. A hot-path save puts a few pages into the WAL, so this is
# about SQLite's own default of a checkpoint per 1000 WAL pages.
CHECKPOINT_EVERY = 250
# The WAL starts again from its beginning only once a checkpoint has copied all of it. Under
# a steady stream of saves a passive checkpoint never catches up (saves add to the WAL while
# it copies), so each checkpoint ends with a short one that holds new writes back, for at
# most RESTART_WAIT_MS while readers finish; and a WAL file grown past WAL_BYTES_KEPT in a
# burst is cut back to that when it starts again.
RESTART_WAIT_MS = 20
WAL_BYTES_KEPT = 16 * 1024 * 1024
# The hot path's connection reads the database file through a memory map (up to this much of
# it): a page its cache does not hold (after a checkpoint it reads the file afresh) is then
# read in place from the OS's cache instead of copied into a newly zeroed buffer.
MAPPED_BYTES = 256 * 1024 * 1024
T = TypeVar("T")


class SqliteGameRows(GameRows):
    """One sqlite3 connection used on the event loop's own thread, in autocommit mode.

    Why not aiosqlite's worker thread: every statement there is two hand-offs of the GIL
    between the loop (busy with the other games) and the worker, and the worker waits for
    each; a game-row statement itself takes tens of microseconds here (WAL, no fsync per
    commit), less than one hand-off. So statements run on the loop, and never wait on it:
    the connection's busy timeout is 0, and when another connection holds the write lock (a
    settings write of this process, another process) the statement is retried after an
    asyncio sleep, for at most ``busy_timeout_ms``. The hot-path writes (a move's save, with
    its snapshot row when it takes one; a delivery marked done) of all the games that reach
    them within ``GROUP_TURNS`` turns of the loop are committed together (``_grouped``). A
    transaction runs from BEGIN IMMEDIATE to COMMIT without yielding to the loop, so nothing
    of this connection comes between.
    Checkpoints (they fsync) and the compaction of finished games run on worker threads
    with connections of their own (the checkpoints' kept from one to the next)."""

    update_returns = False  # the cursor's rowcount says whether the UPDATE wrote its row

    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        self._path = path
        self._busy_timeout_ms = busy_timeout_ms
        self._conn: sqlite3.Connection | None = None
        self._writes_since_checkpoint = 0
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointer: sqlite3.Connection | None = None  # kept between checkpoints
        # Group commit: the writes of every game that reached its save within GROUP_TURNS
        # turns of the loop, committed together (see _commit_group).
        self._group: list[tuple[list[tuple[str, Sequence[Any]]], asyncio.Future[bool]]] = []
        self._group_due = False
        self._group_waited = 0.0
        self._sql()
        # BEGIN IMMEDIATE holds the only writer's lock: no row lock is needed.
        self.rating_rows = RatingRows(self._p, lock="")

    def _p(self, n: int) -> str:
        return "?"

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    def _open(self, busy_timeout_ms: int, *, autocheckpoint: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(self._path, isolation_level=None, check_same_thread=False)
        pragmas = [f"busy_timeout={busy_timeout_ms}", "journal_mode=WAL", "synchronous=NORMAL",
                   "foreign_keys=ON", f"journal_size_limit={WAL_BYTES_KEPT}"]
        if not autocheckpoint:
            pragmas.append("wal_autocheckpoint=0")  # see _count_writes
        for pragma in pragmas:
            conn.execute(f"PRAGMA {pragma}")
        return conn

    def _loop_connection(self) -> sqlite3.Connection:
        """The connection used on the loop: it never waits for a lock (see the class)."""
        if self._conn is None:
            self._conn = self._open(0, autocheckpoint=False)
            self._conn.execute(f"PRAGMA mmap_size={MAPPED_BYTES}")
        return self._conn

    async def _retrying(self, statement: Callable[[sqlite3.Connection], T]) -> T:
        """``statement`` on the loop's connection, retried while the database is busy."""
        waited = 0.0
        while True:
            try:
                return statement(self._loop_connection())
            except sqlite3.OperationalError as error:
                delay = busy_wait(error, waited, self._busy_timeout_ms)
                if delay is None:
                    raise
            await asyncio.sleep(delay)
            waited += delay

    async def _single(self, sql: str, args: Sequence[Any]) -> list[Any]:
        return await self._retrying(lambda conn: conn.execute(sql, args).fetchall())

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[dict[str, Any]]:
        return [decode(LOADED_COLUMNS, row) for row in await self._single(sql, args)]

    async def _rows(self, sql: str, args: Sequence[Any]) -> list[Sequence[Any]]:
        return list(await self._single(sql, args))

    def update_grouped(self, update: Update, snapshot: Snapshot | None = None) -> asyncio.Future[bool]:
        # One UPDATE (its log row appended by the trigger), and the snapshot row when one is
        # taken: group-committed.
        statements: list[tuple[str, Sequence[Any]]] = [self.update_of(update)]
        if snapshot is not None:
            statements.append((self.upsert_snapshot, snapshot))
        return self._grouped(statements)

    async def _transaction(self, insert, update, seats, results, base, snapshot) -> bool:
        try:
            await self._retrying(lambda conn: conn.execute("BEGIN IMMEDIATE"))
            written = self._statements(insert, update, seats, results, base, snapshot)
        except sqlite3.IntegrityError as error:
            raise UniqueViolation(str(error)) from None
        self._count_writes(1)
        return written

    def _statements(self, insert, update, seats, results, base, snapshot) -> bool:
        """The statements of one save after BEGIN IMMEDIATE, then COMMIT (ROLLBACK when one
        fails or the version is stale). Plain calls: nothing may yield in between."""
        conn = self._conn
        assert conn is not None
        try:
            if insert is not None:
                conn.execute(self.insert_game, [insert[c] for c in GAME_COLUMNS])
            elif not conn.execute(*self.update_of(update)).rowcount:
                conn.execute("ROLLBACK")
                return False
            if snapshot is not None:
                conn.execute(self.upsert_snapshot, snapshot)
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

    def _grouped(self, statements: list[tuple[str, Sequence[Any]]]) -> asyncio.Future[bool]:
        """One write, committed with the others of these turns of the loop: a commit costs
        SQLite more than the statements in it (WAL frames, the index pages shared by every
        game). The write is its first statement (a version-checked UPDATE) and the ones after
        it, run only when the first wrote its row, all or none (a savepoint). Whether it wrote
        its row, once that commit is durable; a uniqueness rule refusing it fails it alone."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bool] = loop.create_future()
        self._group.append((statements, future))
        if not self._group_due:
            self._group_due = True
            loop.call_soon(self._commit_in, GROUP_TURNS - 1)
        return future  # awaited by the caller: no coroutine of its own to resume

    def _commit_in(self, turns: int) -> None:
        """Commit the group after ``turns`` more turns of the loop."""
        if turns > 0:
            asyncio.get_running_loop().call_soon(self._commit_in, turns - 1)
        else:
            self._commit_group()

    def _commit_group(self) -> None:
        """BEGIN IMMEDIATE, every statement of the group, COMMIT; then each waiting save gets
        its outcome. While another connection holds the write lock, the group waits (and
        grows) on a timer; past the busy timeout every statement in it fails, unwritten."""
        try:
            conn = self._loop_connection()
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            delay = busy_wait(error, self._group_waited, self._busy_timeout_ms)
            if delay is None:
                self._end_group(error)
            else:
                self._group_waited += delay
                asyncio.get_running_loop().call_later(delay, self._commit_group)
            return
        group = self._group
        self._end_group(None)
        outcomes: list[tuple[asyncio.Future[bool], bool | BaseException]] = []
        try:
            for statements, future in group:
                try:
                    outcomes.append((future, self._write_in_group(conn, statements)))
                except sqlite3.IntegrityError as error:  # that write alone was undone
                    outcomes.append((future, UniqueViolation(str(error))))
            conn.execute("COMMIT")
        except Exception as error:  # nothing of the group was written
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            outcomes = [(future, error) for _, future in group]
        for future, outcome in outcomes:
            if future.done():  # its save was cancelled: what was written stays, version-checked
                continue
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
        self._count_writes(len(group))

    @staticmethod
    def _write_in_group(conn: sqlite3.Connection,
                        statements: list[tuple[str, Sequence[Any]]]) -> bool:
        """One write of a group, inside the group's transaction: whether its first statement
        changed a row; the others run only when it did. A write of several statements runs
        in a savepoint, so that a failure undoes all of it and nothing else."""
        (sql, args), *after = statements
        if not after:  # one statement is atomic on its own
            return conn.execute(sql, args).rowcount > 0
        conn.execute("SAVEPOINT one_write")
        try:
            written = conn.execute(sql, args).rowcount > 0
            if written:
                for later_sql, later_args in after:
                    conn.execute(later_sql, later_args)
        except BaseException:
            conn.execute("ROLLBACK TO one_write")
            conn.execute("RELEASE one_write")
            raise
        conn.execute("RELEASE one_write")
        return written

    def _end_group(self, error: BaseException | None) -> None:
        """Start a new group; fail the statements of the old one with ``error``, if given."""
        group, self._group = self._group, []
        self._group_due, self._group_waited = False, 0.0
        if error is not None:
            for _, future in group:
                if not future.done():
                    future.set_exception(error)

    def _count_writes(self, writes: int) -> None:
        """Every CHECKPOINT_EVERY writes, copy the WAL back into the database on a worker
        thread (a checkpoint fsyncs: never on the loop), so the WAL stays small."""
        self._writes_since_checkpoint += writes
        if self._writes_since_checkpoint < CHECKPOINT_EVERY or (
                self._checkpoint is not None and not self._checkpoint.done()):
            return
        self._writes_since_checkpoint = 0
        self._checkpoint = asyncio.get_running_loop().create_task(
            asyncio.to_thread(self._checkpoint_in_thread))

    def _checkpoint_in_thread(self) -> None:
        # The checkpoints' connection is kept from one to the next (they never overlap, see
        # _count_writes): opening one was half a checkpoint's work, each step of it another
        # wait for the loop to hand over the GIL.
        conn = self._checkpointer
        if conn is None:
            conn = self._checkpointer = self._open(self._busy_timeout_ms, autocheckpoint=True)
        try:
            conn.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")  # the bulk, writers going on
            conn.execute(f"PRAGMA busy_timeout={RESTART_WAIT_MS}")
            conn.execute("PRAGMA wal_checkpoint(RESTART)")  # what came in meanwhile (see above)
        except BaseException:
            self._checkpointer = None  # the next checkpoint starts on a fresh connection
            conn.close()
            raise

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
                    for sql in (self.compact_log, self.compact_bases, self.compact_hands):
                        conn.execute(sql, (before,))
                    compacted = conn.execute(self.compact, (before,)).rowcount
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
                return compacted

        return await asyncio.to_thread(compact)

    async def close(self) -> None:
        while self._group:  # saves waiting for their commit (due next turn, or the lock)
            await asyncio.sleep(BUSY_FIRST_WAIT)
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
            self._checkpoint = None
        if self._checkpointer is not None:
            self._checkpointer.close()
            self._checkpointer = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def busy_wait(error: BaseException | None, waited: float, busy_timeout_ms: int) -> float | None:
    """How long to wait before trying again after ``error``, having waited ``waited`` seconds
    so far: None when it is not SQLite's "busy" or ``busy_timeout_ms`` is spent."""
    if not isinstance(error, sqlite3.OperationalError) \
            or error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY \
            or waited * 1000 >= busy_timeout_ms:
        return None
    return min(max(BUSY_FIRST_WAIT, waited), BUSY_LONGEST_WAIT)  # about doubling


def run_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends (its awaits are plain calls in disguise) to its
    end, here and now; fails loudly if it would wait for the loop."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    coroutine.close()
    raise RuntimeError("a statement inside a SQLite transaction tried to wait for the loop")
