"""Async engines for SQLite (aiosqlite) and PostgreSQL (asyncpg): async drivers only, so a
query never blocks the event loop."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

SQLITE_BUSY_TIMEOUT_MS = 5000
# Connections for the games hot path on PostgreSQL: many games committing at once share WAL
# flushes (group commit), which is what makes 50 concurrent games fast.
PG_GAME_POOL_SIZE = 20


def normalise_url(url: str) -> str:
    """Accept the sync spellings people paste (``sqlite:///x.db``, ``postgresql://...``) and
    map them onto the async drivers we ship."""
    parsed = make_url(url)
    if parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        parsed = parsed.set(drivername="sqlite+aiosqlite")
    elif parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg2", "postgresql+psycopg"):
        parsed = parsed.set(drivername="postgresql+asyncpg")
    return parsed.render_as_string(hide_password=False)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never block the writer and a commit is one append, not a journal rewrite.
    # synchronous=NORMAL is durable against a process crash (the WAL is fsynced at
    # checkpoints); only a power loss can drop the last commits.
    cursor = dbapi_connection.cursor()
    # busy_timeout first: switching a new file to WAL needs a lock another process may hold.
    for pragma in (f"busy_timeout={SQLITE_BUSY_TIMEOUT_MS}", "journal_mode=WAL",
                   "synchronous=NORMAL", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def make_engine(url: str, **options: Any) -> AsyncEngine:
    url = normalise_url(url)
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:" and "poolclass" not in options:
            # One connection: SQLite has one writer anyway, and queueing on the async pool
            # beats waiting in SQLite's sleeping busy handler.
            options.setdefault("pool_size", 1)
            options.setdefault("max_overflow", 0)
        engine = create_async_engine(url, **options)
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    if "poolclass" not in options:
        # This pool serves settings, profiles and stats only (games have their own asyncpg
        # pool, see game_rows.py), so it stays small: two bot processes must fit in
        # PostgreSQL's default 100 connections. No pre-ping (a round trip per checkout): a
        # dropped connection fails one command and the pool is invalidated and refilled.
        options.setdefault("pool_size", 5)
        options.setdefault("max_overflow", 5)
        options.setdefault("pool_recycle", 1800)
    return create_async_engine(url, **options)
