"""Fixtures: a fresh SQLite file per test, a fresh PostgreSQL database per test, and the
coordinator's MemoryStore, so every GameStore contract test runs on all three.

PostgreSQL tests are skipped only when no server answers AND $CI is unset; under CI a
missing server fails them."""

from __future__ import annotations

import asyncio
import functools
import os
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from storage import SqlStore, open_store

PG_HOST = os.environ.get("UNOBOT_TEST_PG_HOST", "127.0.0.1")
PG_PORT = int(os.environ.get("UNOBOT_TEST_PG_PORT", "5432"))
PG_USER = os.environ.get("UNOBOT_TEST_PG_USER", "postgres")
PG_ADMIN_DB = os.environ.get("UNOBOT_TEST_PG_DB", "test")


def pg_url(database: str) -> str:
    return f"postgresql+asyncpg://{PG_USER}@{PG_HOST}:{PG_PORT}/{database}"


async def _admin_connection():
    import asyncpg

    return await asyncpg.connect(host=PG_HOST, port=PG_PORT, user=PG_USER,
                                 database=PG_ADMIN_DB, timeout=3)


async def _pg_available() -> str | None:
    """None when the server answers, else why not."""
    try:
        conn = await _admin_connection()
    except (OSError, Exception) as error:  # asyncpg raises several unrelated types
        return f"{type(error).__name__}: {error}"
    await conn.close()
    return None


def run_sync(make_coroutine):
    """Run a coroutine to completion on its own loop in a worker thread: usable from sync
    fixtures even while the test's event loop is running in this thread."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make_coroutine())).result()


async def _admin_execute(sql: str) -> None:
    conn = await _admin_connection()
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@functools.cache
def _pg_problem() -> str | None:
    return run_sync(_pg_available)  # probed once per session: a dead host may take seconds


def require_postgresql() -> None:
    problem = _pg_problem()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but PostgreSQL at {PG_HOST}:{PG_PORT} is unreachable: {problem}")
        pytest.skip(f"no PostgreSQL at {PG_HOST}:{PG_PORT} ({problem})")


@pytest.fixture
def pg_database():
    """The URL of a brand-new empty PostgreSQL database, dropped after the test."""
    require_postgresql()
    name = f"unobot_t_{uuid.uuid4().hex[:12]}"
    run_sync(lambda: _admin_execute(f'CREATE DATABASE "{name}"'))
    yield pg_url(name)
    run_sync(lambda: _admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def sqlite_database(tmp_path):
    return f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"


def _memory_store():
    try:
        from bot.coordinator.memory_store import MemoryStore
    except ImportError:
        pytest.skip("bot.coordinator.memory_store is not on main yet")
    return MemoryStore()


@pytest.fixture(params=["sqlite", "postgresql", "memory"])
async def store(request):
    """Any GameStore: the contract tests must pass on each."""
    if request.param == "memory":
        yield _memory_store()
        return
    fixture = "sqlite_database" if request.param == "sqlite" else "pg_database"
    url = request.getfixturevalue(fixture)
    sql_store: SqlStore = await open_store(url)
    try:
        yield sql_store
    finally:
        await sql_store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request):
    """The URL of an empty database of each kind."""
    fixture = "sqlite_database" if request.param == "sqlite" else "pg_database"
    return request.getfixturevalue(fixture)
