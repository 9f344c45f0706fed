"""What an operator runs beside the bot: the database checks of ``unobot doctor``, an online
backup of a SQLite file (``unobot db backup``) and pruning finished games
(``unobot db prune``). None of them upgrades the schema or holds a lock the bot would wait on.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url

from .db import connection_problem, is_sqlite, make_engine, normalise_url, safe_url
from .migrate import alembic_config
from .models import media_files

DAY = 86400.0


class Check(NamedTuple):
    """One line of ``unobot doctor``: what was checked, whether it passed, and what was seen
    (never a secret). A tuple, as the platform checks' lines are."""

    name: str
    ok: bool
    detail: str


class MaintenanceError(Exception):
    """A maintenance command that cannot run as asked; the text says what to do instead."""


def head_revision(url: str) -> str:
    return ScriptDirectory.from_config(alembic_config(url)).get_current_head() or ""


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL)."""
    url = normalise_url(url)
    return Path(make_url(url).database or "") if is_sqlite(url) else None


async def database_checks(url: str) -> list[Check]:
    """Reachable, schema at Alembic head, and a write that is rolled back (so nothing stays)."""
    shown = safe_url(url)
    try:
        path = sqlite_path(url)
    except ValueError as error:  # DatabaseUrlError: its text never holds the password
        return [Check("database", False, f"DATABASE_URL {error}")]
    if path is not None and not path.is_file():
        # Opening it would create an empty file: the doctor changes nothing.
        return [Check("database", False, f"{path} does not exist yet (the bot creates it at "
                                         "its first start, or run: unobot db upgrade)")]
    engine = make_engine(url)
    checks: list[Check] = []
    try:
        async with engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))
            checks.append(Check("database", True, f"{shown} answers"))
            current = await conn.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision())
            head = head_revision(url)
            if current != head:
                checks.append(Check("schema", False, f"at {current or 'nothing'}, head is {head} "
                                                     "(run: unobot db upgrade)"))
                return checks
            checks.append(Check("schema", True, f"at head ({head})"))
            # The connection's transaction began with the first statement: the row goes
            # into it and the rollback takes it away again.
            try:
                await conn.execute(media_files.insert().values(
                    platform="doctor", key=f"doctor-{os.getpid()}", file_id="-",
                    created_at=time.time()))
            finally:
                await conn.rollback()
            checks.append(Check("database write", True, "a test row written and rolled back"))
    except Exception as error:
        problem = connection_problem(error)
        if problem is None and not isinstance(error, sa.exc.DBAPIError):
            raise
        name = "database write" if len(checks) >= 2 else "database"
        checks.append(Check(name, False, f"{shown}: {problem or type(error).__name__}"))
    finally:
        await engine.dispose()
    return checks


def backup(url: str, target: str | os.PathLike[str]) -> Path:
    """Copy the SQLite database to ``target`` with SQLite's online backup API, safe while the
    bot writes. The copy is made beside the target and renamed into place, so a backup cut
    short never looks complete. PostgreSQL is refused: pg_dump does that job."""
    source = sqlite_path(url)
    if source is None:
        raise MaintenanceError("backup copies SQLite files only; for PostgreSQL use pg_dump, e.g. "
                               "pg_dump --format=custom --file=unobot.dump DATABASE")
    if not source.is_file():
        raise MaintenanceError(f"there is no database at {source}")
    target = Path(target).resolve()
    if target.exists() and target.samefile(source):
        raise MaintenanceError("the backup file is the database itself; choose another name")
    if not target.parent.is_dir():
        raise MaintenanceError(f"the folder {target.parent} does not exist")
    handle, partial = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(handle)
    try:
        with sqlite3.connect(source, timeout=30) as src, sqlite3.connect(partial) as dst:
            # One step (pages=-1): in WAL mode that reads one snapshot without blocking the
            # bot's writer, whereas a copy in steps restarts whenever the bot commits.
            src.backup(dst, pages=-1)
            (verdict,) = dst.execute("PRAGMA quick_check").fetchone()
            if verdict != "ok":
                raise MaintenanceError(f"the copy failed its integrity check: {verdict}")
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        src.close()
        dst.close()
        os.replace(partial, target)
    except BaseException:
        Path(partial).unlink(missing_ok=True)
        raise
    return target


async def prune(url: str, older_than_days: float, *, now: float | None = None) -> int:
    """Finished games last touched more than ``older_than_days`` ago drop their final cards
    and message ids (the bulk of a game row); results, stats and leaderboards live in their
    own tables and stay as they are. Live games and games still owing a message are kept.
    Returns how many games were pruned."""
    from .store import SqlStore

    if older_than_days < 0:
        raise MaintenanceError("--older-than must be 0 or more days")
    path = sqlite_path(url)
    if path is not None and not path.is_file():
        raise MaintenanceError(f"there is no database at {path}")
    schema = [c for c in await database_checks(url) if not c.ok]
    if schema:
        raise MaintenanceError(f"{schema[0].name}: {schema[0].detail}")
    store = SqlStore.from_url(url)
    try:
        before = (time.time() if now is None else now) - older_than_days * DAY
        return await store.compact_finished(before)
    finally:
        await store.close()
