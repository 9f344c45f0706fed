"""The hot path's kept PostgreSQL connections, on the real server: reused without asking the
pool again, bounded by its size, and handed back to the pool (which resets or replaces them)
after an error, a cancellation or the server closing one."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage.kept_connections import KeptConnections, is_open

from .conftest import PG_ADMIN_DB, PG_HOST, PG_PORT, PG_USER, require_postgresql


class CountingPool:
    """The asyncpg pool, counting how often a connection is taken from it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.acquired = 0

    async def acquire(self):
        self.acquired += 1
        return await self.pool.acquire()

    async def release(self, conn) -> None:
        await self.pool.release(conn)


@pytest.fixture
async def pool():
    require_postgresql()
    made = await asyncpg.create_pool(host=PG_HOST, port=PG_PORT, user=PG_USER, database=PG_ADMIN_DB,
                                     min_size=0, max_size=2)
    yield CountingPool(made)
    await asyncio.wait_for(made.close(), 10)  # hangs if a connection was never given back


async def backend(kept: KeptConnections) -> int:
    return await kept.fetchval("SELECT pg_backend_pid()")


async def test_statements_one_after_another_keep_one_connection(pool):
    kept = KeptConnections(pool, 2)
    pids = {await backend(kept) for _ in range(5)}
    assert len(pids) == 1
    assert pool.acquired == 1
    await kept.close()


async def test_no_more_than_the_pool_size_are_taken_and_every_caller_is_served(pool):
    kept = KeptConnections(pool, 2)
    rows = await asyncio.gather(*(kept.fetch("SELECT pg_backend_pid(), pg_sleep(0.02)")
                                  for _ in range(6)))
    assert len({row[0][0] for row in rows}) == 2
    assert pool.acquired == 2
    await kept.close()


async def test_a_failed_statement_gives_its_connection_back_and_the_next_one_runs(pool):
    kept = KeptConnections(pool, 1)
    first = await backend(kept)
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await kept.fetch("SELEC 1")
    assert await kept.fetchval("SELECT 41 + 1") == 42
    assert pool.acquired == 2  # the failed one went back to the pool, which reset it
    assert await backend(kept) == first  # ...and handed the same, healthy connection out
    await kept.close()


async def test_a_transaction_that_fails_is_rolled_back_before_reuse(pool):
    kept = KeptConnections(pool, 1)
    with pytest.raises(ZeroDivisionError):
        async with kept.connection() as conn, conn.transaction():
            await conn.execute("SELECT 1")
            raise ZeroDivisionError
    async with kept.connection() as conn:
        assert not conn.is_in_transaction()
        assert await conn.fetchval("SELECT 1") == 1
    await kept.close()


async def test_a_cancelled_statement_leaves_a_usable_connection(pool):
    kept = KeptConnections(pool, 1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(kept.fetch("SELECT pg_sleep(5)"), 0.05)
    assert await kept.fetchval("SELECT 7") == 7
    await kept.close()


async def test_a_caller_cancelled_while_waiting_takes_no_connection_with_it(pool):
    kept = KeptConnections(pool, 1)
    busy = asyncio.ensure_future(kept.fetch("SELECT pg_sleep(0.05)"))
    waiting = asyncio.ensure_future(kept.fetch("SELECT 1"))
    for _ in range(100):  # until the second caller waits for the one connection
        if kept._waiters:
            break
        await asyncio.sleep(0.001)
    assert kept._waiters
    waiting.cancel()
    await busy
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert await kept.fetchval("SELECT 3") == 3
    await kept.close()  # the pool's close (in the fixture) then finds nothing taken


async def test_a_connection_the_server_closed_while_idle_is_replaced(pool):
    kept = KeptConnections(pool, 1)
    victim = await backend(kept)
    admin = await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=PG_USER, database=PG_ADMIN_DB)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", victim)
    finally:
        await admin.close()
    idle = kept._idle[0]
    for _ in range(500):  # until the loop has read the server's goodbye
        if not is_open(idle):
            break
        await asyncio.sleep(0.01)
    assert not is_open(idle)
    assert await backend(kept) != victim
    await kept.close()


async def test_closed_connections_refuse_new_statements(pool):
    kept = KeptConnections(pool, 1)
    await backend(kept)
    await kept.close()
    with pytest.raises(RuntimeError):
        await kept.fetch("SELECT 1")
