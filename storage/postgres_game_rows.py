"""The games' hot path on PostgreSQL (see ``game_rows`` for the statements and why bare
drivers): an asyncpg pool, so that many games committing at once share WAL flushes."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import URL

from .db import asyncpg_dsn
from .game_rows import GAME_COLUMNS, LOADED_COLUMNS, SEAT_COLUMNS, GameRows, UniqueViolation, decode
from .rating_rows import PostgresDb, RatingRows


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
