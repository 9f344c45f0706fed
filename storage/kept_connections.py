"""PostgreSQL connections taken from an asyncpg pool once and kept between statements.

asyncpg's ``Pool.acquire``/``release`` around one statement cost about as much of the bot's
CPU as a short statement itself (a proxy object, an inactivity timer, a shielded task and a
reset check per use), and the hot path's statements are short. So it keeps its connections:
one that ran its statement cleanly goes straight to the next caller, or waits idle here. One
that failed, or whose caller was cancelled, goes back to the pool, which resets it (a ROLLBACK,
a cancelled query waited out) or closes it; the next statement then takes a fresh one. The
pool still opens connections, and its ``max_size`` bounds how many are taken here.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any


class KeptConnections:
    def __init__(self, pool: Any, size: int) -> None:
        self._pool = pool
        self._size = size  # at most this many taken from the pool at once (its max_size)
        self._taken = 0  # taken from the pool: idle here or in use
        self._idle: list[Any] = []
        # Callers waiting for a connection while all ``size`` are in use: each gets one put
        # back, or None: "take one from the pool yourself" (one went back to the pool).
        self._waiters: deque[asyncio.Future[Any]] = deque()
        self._closed = False
        self._returning: set[asyncio.Task[None]] = set()

    async def take(self) -> Any:
        """A connection for one statement or transaction: give it back with ``put`` once it
        ran cleanly, else with ``discard``."""
        if self._closed:
            raise RuntimeError("the connections are closed")
        while self._idle:
            conn = self._idle.pop()
            if is_open(conn):
                return conn
            await self._give_back(conn)  # the server closed it while idle (a restart)
        if self._taken >= self._size:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                conn = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # handed over as we were cancelled
                    if waiter.result() is None:
                        self._taken -= 1
                    self._pass_on(waiter.result())
                raise
            if conn is not None:
                return conn
        else:
            self._taken += 1
        try:
            return await self._pool.acquire()
        except BaseException:
            self._taken -= 1
            self._pass_on(None)
            raise

    def put(self, conn: Any) -> None:
        """Back after a clean statement (not inside a transaction)."""
        if self._closed or not is_open(conn) or conn.is_in_transaction():
            task = asyncio.get_running_loop().create_task(self._give_back(conn))
            self._returning.add(task)
            task.add_done_callback(self._returning.discard)
            return
        self._pass_on(conn)

    async def discard(self, conn: Any) -> None:
        """Back after a failure or a cancellation: the pool resets or closes it."""
        await self._give_back(conn)

    async def _give_back(self, conn: Any) -> None:
        """To the pool (a no-op for one the pool took back itself)."""
        self._taken -= 1
        try:
            await self._pool.release(conn)
        finally:
            self._pass_on(None)

    def _pass_on(self, conn: Any) -> None:
        """A connection (or, with None, room to take one from the pool) to the first caller
        still waiting; else ``conn`` waits idle."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                if conn is None:
                    self._taken += 1  # the slot is the waiter's: no newcomer takes it first
                waiter.set_result(conn)
                return
        if conn is not None:
            self._idle.append(conn)

    async def close(self) -> None:
        """Give every idle connection back to the pool (call before closing the pool; those
        in use go back as their statements end)."""
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            await self._give_back(conn)
        if self._returning:
            await asyncio.gather(*self._returning, return_exceptions=True)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self._run("fetch", sql, args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._run("fetchval", sql, args)

    async def _run(self, method: str, sql: str, args: tuple[Any, ...]) -> Any:
        conn = await self.take()
        try:
            result = await getattr(conn, method)(sql, *args)
        except BaseException:
            await self.discard(conn)
            raise
        self.put(conn)
        return result

    def connection(self) -> Lease:
        """``async with kept.connection() as conn``: for a transaction of several statements."""
        return Lease(self)


def is_open(conn: Any) -> bool:
    """Whether a connection handed out by the pool is still open and still ours."""
    try:
        return not conn.is_closed()
    except Exception as error:
        import asyncpg

        if isinstance(error, asyncpg.InterfaceError):
            return False  # the pool took it back itself when the server closed it
        raise


class Lease:
    def __init__(self, kept: KeptConnections) -> None:
        self._kept = kept
        self._conn: Any = None

    async def __aenter__(self) -> Any:
        self._conn = await self._kept.take()
        return self._conn

    async def __aexit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is None:
            self._kept.put(self._conn)
        else:
            await self._kept.discard(self._conn)
