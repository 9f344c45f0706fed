"""Async engines for SQLite (aiosqlite) and PostgreSQL (asyncpg), for everything but the
games' hot path (``game_rows``): a query here never blocks the event loop.

``normalise_url`` is the one place that reads a database URL (``DATABASE_URL`` or
``--database``): the SQLAlchemy engine and the games' asyncpg pool both connect through
``asyncpg_dsn`` of what it returns, so TLS options (libpq's ``sslmode``, ``sslrootcert``,
``sslcert``, ``sslkey``, ... and SQLAlchemy's ``ssl=``) mean the same on both paths.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from . import json_text

SQLITE_BUSY_TIMEOUT_MS = 5000
# Connections for the games hot path on PostgreSQL: many games committing at once share WAL
# flushes (group commit), which is what makes 50 concurrent games fast.
PG_GAME_POOL_SIZE = 20
# libpq's modes, which asyncpg implements from the DSN (certificates included).
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
_SSL_FLAGS = {"true": "require", "1": "require", "yes": "require", "on": "require",
              "false": "disable", "0": "disable", "no": "disable", "off": "disable"}
# Query options naming a file the TLS handshake reads: checked up front for a clear error.
_SSL_FILES = ("sslrootcert", "sslcert", "sslkey", "sslcrl")
PG_CONNECT_TIMEOUT = 10  # seconds: an unreachable host fails the start, it does not hang it
# Seconds a games statement may take on PostgreSQL (loads, saves, their grouped UPDATEs). Only
# a few may be on their way at once, so one stuck behind a lock or on a dead connection would
# otherwise hold every game's saves back: past this it fails its command (and asyncpg cancels
# it on the server), and the saves behind it go on. The compaction of finished games, which
# may touch many rows, has its own bound.
PG_STATEMENT_TIMEOUT = 30.0
PG_COMPACTION_TIMEOUT = 600.0


class DatabaseUrlError(ValueError):
    """A database URL we cannot use; the text never holds the password. (The composition
    root turns it into its configuration error: storage knows nothing of the config.)"""


# A SQLite file given as a plain path (``uno.db``, ``~/unobot/games.sqlite``) instead of a URL.
SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db3")


def _parse(url: str | URL) -> URL:
    if isinstance(url, URL):
        return url
    if "://" not in url and "@" not in url and url.lower().endswith(SQLITE_SUFFIXES):
        return URL.create("sqlite+aiosqlite", database=os.path.expanduser(url))
    try:
        return make_url(url)
    except Exception:  # ArgumentError/ValueError: the text may hold a password, never echo it
        # The example has no password: the log scrubber would print one as "[redacted]".
        raise DatabaseUrlError("is not a database URL (expected a SQLite file such as uno.db, "
                               "sqlite+aiosqlite:///FILE or "
                               "postgresql://USER@HOST:PORT/DATABASE)") from None


def _single(parsed: URL, key: str) -> str | None:
    value = parsed.query.get(key)
    if isinstance(value, tuple):
        raise DatabaseUrlError(f"gives {key} more than once")
    return value


def _tls_query(parsed: URL) -> URL:
    """SQLAlchemy's ``ssl=`` spelling folded into libpq's ``sslmode``, values checked."""
    ssl = _single(parsed, "ssl")
    mode = _single(parsed, "sslmode")
    if ssl is not None:
        ssl_mode = _SSL_FLAGS.get(ssl.lower(), ssl.lower())
        if mode is not None and mode != ssl_mode:
            raise DatabaseUrlError(f"gives both ssl={ssl} and sslmode={mode}; keep one")
        mode = ssl_mode
        parsed = parsed.difference_update_query(["ssl"])
    if mode is not None:
        if mode not in SSL_MODES:
            raise DatabaseUrlError(f"has an unknown sslmode {mode!r} (use one of {', '.join(SSL_MODES)})")
        parsed = parsed.update_query_dict({"sslmode": mode})
    for key in _SSL_FILES:
        path = _single(parsed, key)
        if path is not None and not (key == "sslrootcert" and path == "system") \
                and not os.path.isfile(os.path.expanduser(path)):
            raise DatabaseUrlError(f"names a {key} file that does not exist: {path}")
    return parsed


def normalise_url(url: str | URL) -> str:
    """The URL in the form every part of storage uses: the sync spellings people paste
    (``sqlite:///x.db``, ``postgresql://...``, ``postgres://...``) and a SQLite file's plain
    path (``uno.db``) mapped onto the async drivers we ship, TLS options checked and in
    libpq's spelling. Raises DatabaseUrlError."""
    parsed = _parse(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.drivername not in ("sqlite", "sqlite+pysqlite", "sqlite+aiosqlite"):
            raise DatabaseUrlError(f"uses the driver {parsed.drivername!r}; use sqlite+aiosqlite:///FILE")
        parsed = parsed.set(drivername="sqlite+aiosqlite")
        database = parsed.database
        if database and database != ":memory:" and not database.startswith("file:") and \
                not os.path.isdir(os.path.dirname(os.path.abspath(database))):
            raise DatabaseUrlError(f"names a SQLite file in a folder that does not exist: {database}")
    elif backend in ("postgresql", "postgres"):
        if parsed.drivername not in ("postgresql", "postgres", "postgresql+psycopg2",
                                     "postgresql+psycopg", "postgresql+asyncpg"):
            raise DatabaseUrlError(f"uses the driver {parsed.drivername!r}; use postgresql://...")
        parsed = _tls_query(parsed.set(drivername="postgresql+asyncpg"))
    else:
        raise DatabaseUrlError(f"uses {backend!r}; unobot stores games in SQLite "
                               "(sqlite+aiosqlite:///FILE) or PostgreSQL (postgresql://...)")
    return parsed.render_as_string(hide_password=False)


def asyncpg_dsn(url: str | URL) -> str:
    """The libpq-style DSN asyncpg parses itself (``sslmode``, ``sslrootcert`` and the other
    libpq options honoured), for a URL that went through ``normalise_url``."""
    return _parse(url).set(drivername="postgresql").render_as_string(hide_password=False)


def safe_url(url: str | URL) -> str:
    """The URL for a message or a log line: the password masked."""
    try:
        return _parse(url).render_as_string(hide_password=True)
    except DatabaseUrlError:
        return "(unparsable URL)"


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def connection_problem(error: BaseException) -> str | None:
    """One line saying why the database could not be opened, when ``error`` means it cannot
    be reached, refused us or is not a database; None for anything else (a bug: let it raise)."""
    if isinstance(error, DatabaseUrlError):
        return str(error)
    # SQLAlchemy wraps the driver's error (DBAPIError.orig), its asyncpg adapter once more.
    while isinstance(error, sa.exc.DBAPIError) and error.orig is not None:
        error = error.orig
    cause = error.__cause__ if error.__cause__ is not None and type(error).__module__.startswith(
        "sqlalchemy") else error
    text = " ".join(str(cause).split()) or type(cause).__name__
    if isinstance(cause, OSError | TimeoutError):  # refused, unknown host, TLS refused, timeout
        return text
    if isinstance(cause, sqlite3.DatabaseError):  # aiosqlite raises sqlite3's own errors
        lowered = text.lower()
        return text if ("unable to open" in lowered or "not a database" in lowered
                        or "readonly" in lowered) else None
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - a dependency
        return None
    if isinstance(cause, asyncpg.ClientConfigurationError | asyncpg.ConnectionDoesNotExistError):
        return text
    if isinstance(cause, asyncpg.PostgresError):
        state = getattr(cause, "sqlstate", "") or ""
        # connection exception, invalid authorisation, unknown database, too many
        # connections, server starting or shutting down
        if state[:2] in ("08", "28", "3D", "53") or state in ("57P01", "57P02", "57P03"):
            return text
    return None


def _sqlite_pragmas(busy_timeout_ms: int) -> Callable[[Any, Any], None]:
    """The pragmas of every SQLite connection the engine opens, waiting ``busy_timeout_ms``
    for a lock another connection holds (switching a new file to WAL needs one too)."""

    def set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        # WAL: readers never block the writer and a commit is one append, not a journal
        # rewrite. synchronous=NORMAL is durable against a process crash (the WAL is fsynced
        # at checkpoints); only a power loss can drop the last commits.
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        _switch_to_wal(cursor, busy_timeout_ms)
        for pragma in ("synchronous=NORMAL", "foreign_keys=ON"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return set_pragmas


def _switch_to_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """PRAGMA journal_mode=WAL, tried again for up to ``busy_timeout_ms`` while the file is
    locked. Switching a file not yet in WAL while another process writes to it (two processes
    upgrading a new file) fails at once: SQLite skips its busy handler where waiting could
    deadlock. Only a new file can be in that state (the mode is stored in the file), and
    its migrations run on a thread of their own, so the sleep holds no event loop."""
    deadline = time.monotonic() + busy_timeout_ms / 1000
    delay = 0.005
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as error:  # the driver's own OperationalError class, adapted
            if "locked" not in str(error) or time.monotonic() + delay > deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.2)


def make_engine(url: str, *, sqlite_busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
                **options: Any) -> AsyncEngine:
    url = normalise_url(url)
    # JSON columns as the hot path writes and reads them (one codec for both paths).
    options.setdefault("json_serializer", json_text.dumps)
    options.setdefault("json_deserializer", json_text.loads)
    if is_sqlite(url):
        database = make_url(url).database
        if database and database != ":memory:" and "poolclass" not in options:
            # One connection: SQLite has one writer anyway, and queueing on the async pool
            # beats waiting in SQLite's sleeping busy handler.
            options.setdefault("pool_size", 1)
            options.setdefault("max_overflow", 0)
        engine = create_async_engine(url, **options)
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas(sqlite_busy_timeout_ms))
        return engine
    if "poolclass" not in options:
        # This pool serves settings, profiles and stats only (games have their own asyncpg
        # pool, see game_rows.py), so it stays small: two bot processes must fit in
        # PostgreSQL's default 100 connections. No pre-ping (a round trip per checkout): a
        # dropped connection fails one command and the pool is invalidated and refilled.
        options.setdefault("pool_size", 5)
        options.setdefault("max_overflow", 5)
        options.setdefault("pool_recycle", 1800)
    if "async_creator" not in options:
        # asyncpg reads the DSN itself, as the games pool does: SQLAlchemy would pass each
        # query option as a keyword (asyncpg.connect(sslmode=...) is a TypeError).
        dsn = asyncpg_dsn(url)

        async def connect() -> Any:
            import asyncpg

            return await asyncpg.connect(dsn, timeout=PG_CONNECT_TIMEOUT)

        options["async_creator"] = connect
    return create_async_engine(url, **options)
