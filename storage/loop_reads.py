"""SQLite reads on the event loop's own thread: a chat's settings, a profile, presets, the
"notify me" check, results, stats and ratings.

Through the async engine every statement is a dozen hand-offs to aiosqlite's worker thread,
and while the loop is busy with games each hand-off waits for it to let go of the GIL: with 50
games moving, reading one small row took about a quarter of a second. On the loop's thread
the same read takes microseconds, and in WAL mode a reader never waits for a writer, so it
cannot hold the loop. A query is the same coroutine either way (``await conn.execute(...)``):
here it runs to its end at once, on a connection of its own that may not write. Writes keep
going through the async engine, which may wait for the write lock off the loop.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Result
from sqlalchemy.pool import StaticPool

from . import json_text
from .sqlite_game_rows import busy_wait, run_now

T = TypeVar("T")


class ReadConnection:
    """What a query sees of a connection: ``await execute(statement)`` and its dialect, as on
    an ``AsyncConnection``; the statement runs here and now, its rows already fetched."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.dialect = conn.dialect

    async def execute(self, statement: Any, parameters: Any = None) -> Result[Any]:
        return self._conn.execute(statement, parameters).freeze()()


class LoopReads:
    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        self._busy_timeout_ms = busy_timeout_ms
        # The file by name, not in a URL: a path may hold characters a URL would read as
        # its query (as the hot path's connection, sqlite_game_rows, opens it too).
        self._engine = sa.create_engine(
            "sqlite+pysqlite://", poolclass=StaticPool,
            creator=lambda: sqlite3.connect(path, check_same_thread=False),
            json_serializer=json_text.dumps, json_deserializer=json_text.loads)
        sa.event.listen(self._engine, "connect", _reads_only)

    async def run(self, query: Callable[..., Coroutine[Any, Any, T]], *args: Any) -> T:
        """``query(conn, *args)`` to its end on the loop's thread. A reader waits only while
        SQLite recovers a WAL left by a crash: then it tries again after a sleep."""
        waited = 0.0
        while True:
            try:
                with self._engine.connect() as conn:
                    return run_now(query(ReadConnection(conn), *args))
            except sa.exc.OperationalError as error:  # the driver's own error inside
                delay = busy_wait(error.orig, waited, self._busy_timeout_ms)
                if delay is None:
                    raise
            await asyncio.sleep(delay)
            waited += delay

    def close(self) -> None:
        self._engine.dispose()


def _reads_only(dbapi_connection: Any, _record: Any) -> None:
    # query_only: a write slipped in here fails loudly instead of taking the write lock on
    # the loop; busy_timeout 0: a reader that must wait sleeps on the loop instead (run).
    cursor = dbapi_connection.cursor()
    for pragma in ("query_only=ON", "busy_timeout=0", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()
