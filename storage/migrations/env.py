"""Alembic environment: async drivers (aiosqlite/asyncpg), the URL from the config attributes
(``storage.migrate``) or ``sqlalchemy.url`` / $DATABASE_URL when run by the alembic CLI (storage reads no other
configuration: the composition root hands it its URL)."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa
from alembic import context

from storage.db import make_engine, normalise_url
from storage.models import metadata

config = context.config

# Any big constant: serialises concurrent upgrades of one PostgreSQL database (two bot
# processes starting together) so the second sees the first one's tables.
_PG_MIGRATION_LOCK = 7_204_511_093


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    if not url:  # the alembic CLI: the URL from the environment, as alembic users expect
        import os

        url = os.environ.get("DATABASE_URL", "")
        if not url:
            raise SystemExit("set sqlalchemy.url or DATABASE_URL")
    return normalise_url(url)


def _run(connection: sa.Connection) -> None:
    # SQLite has transactional DDL, but Alembic assumes not and would commit after each
    # migration, letting a second process slip in between two of them (and run one again):
    # one transaction for the whole upgrade keeps the BEGIN IMMEDIATE lock to the end.
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite", compare_type=True,
                      transactional_ddl=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": _PG_MIGRATION_LOCK})
        context.run_migrations()


MIGRATION_BUSY_TIMEOUT_MS = 60_000


def _serialise_sqlite_migrations(engine: sa.Engine) -> None:
    """Make every migration transaction on SQLite ``BEGIN IMMEDIATE``: it takes the write
    lock before Alembic reads the current revision, so a second process waits (busy
    timeout) and then finds the schema at head. The driver's own implicit transactions are
    turned off so DDL runs inside ours (SQLite has transactional DDL)."""

    @sa.event.listens_for(engine, "connect")
    def _driver_autocommit(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None

    @sa.event.listens_for(engine, "begin")
    def _begin_immediate(connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


async def _run_async() -> None:
    # A whole upgrade from an empty file holds the lock for seconds on a busy machine: a
    # second process starting meanwhile waits longer than a move would, from its first
    # statement on (switching the file to WAL).
    engine = make_engine(_url(), poolclass=sa.pool.NullPool,
                         sqlite_busy_timeout_ms=MIGRATION_BUSY_TIMEOUT_MS)
    if engine.dialect.name == "sqlite":
        _serialise_sqlite_migrations(engine.sync_engine)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run)
            await connection.commit()
    finally:
        await engine.dispose()


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
elif config.attributes.get("connection") is not None:
    _run(config.attributes["connection"])  # a caller-provided (sync) connection
else:
    asyncio.run(_run_async())
