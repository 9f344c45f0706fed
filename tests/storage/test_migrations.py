"""Alembic: empty -> head works, head matches the models, upgrades are idempotent and safe to
run from two processes at once."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from storage import migrate, open_store
from storage.db import make_engine
from storage.models import metadata

ROOT = Path(__file__).resolve().parents[2]


def head_revision() -> str:
    return ScriptDirectory.from_config(migrate.alembic_config("sqlite://")).get_current_head()


async def schema_differences(url: str) -> list:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return await conn.run_sync(lambda sync_conn: compare_metadata(
                MigrationContext.configure(sync_conn, opts={"compare_type": True}), metadata))
    finally:
        await engine.dispose()


async def table_names(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))
    finally:
        await engine.dispose()


async def test_upgrade_from_empty_to_head_matches_the_models(database_url):
    assert await table_names(database_url) == set()
    assert len(await schema_differences(database_url)) >= 6  # the comparison does see tables
    await asyncio.to_thread(migrate.upgrade, database_url)
    assert await asyncio.to_thread(migrate.current, database_url) == head_revision()
    assert await table_names(database_url) >= {
        "games", "game_seats", "chat_settings", "user_profiles", "results", "result_players",
        "alembic_version"}
    assert await schema_differences(database_url) == []


async def test_open_store_upgrades_and_a_second_start_is_a_no_op(database_url):
    first = await open_store(database_url)
    await first.close()
    second = await open_store(database_url)  # already at head: nothing to do, nothing fails
    try:
        assert await second.active_games() == []
    finally:
        await second.close()
    assert await asyncio.to_thread(migrate.current, database_url) == head_revision()


@pytest.mark.slow
def test_concurrent_upgrades_from_two_processes_both_succeed(database_url):
    # Two bot processes starting together on one empty database.
    command = [sys.executable, "-m", "storage.migrate", database_url]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for process in processes:
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert f"schema at {head_revision()}" in out


@pytest.mark.slow
def test_an_upgrade_waits_for_a_write_lock_held_longer_than_a_move_would_wait(sqlite_database):
    # A process still upgrading a busy machine's database holds the lock for seconds; the
    # one starting beside it waits for it (a move would give up after 5 s).
    import sqlite3

    asyncio.run(asyncio.to_thread(migrate.upgrade, sqlite_database))
    path = sqlite_database.split("///", 1)[1]
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    # The lock stays held past a move's busy timeout (5 s) after the process opened the file.
    upgrade_while_locked(sqlite_database, path, holder, hold=5.5, end="COMMIT")


def holds_open(pid: int, path: str) -> bool:
    """Whether process ``pid`` has ``path`` open. Its descriptors come and go while they are
    looked at: one closed meanwhile (or the process gone) is not the file."""
    target = os.path.realpath(path)
    try:
        descriptors = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False
    for descriptor in descriptors:
        try:
            if os.readlink(descriptor) == target:
                return True
        except OSError:
            continue
    return False


def upgrade_while_locked(url: str, path: str, holder, *, hold: float, end: str) -> None:
    """Upgrade ``url`` in another process while ``holder`` keeps its transaction open, for
    ``hold`` seconds after the process has the file open; then ``end`` that transaction.
    The upgrade must succeed."""
    import time

    process = subprocess.Popen([sys.executable, "-m", "storage.migrate", url], cwd=ROOT,
                               env={**os.environ, "PYTHONPATH": str(ROOT)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # until the process has the database open (at most 60 s)
            if holds_open(process.pid, path) or process.poll() is not None:
                break
            time.sleep(0.1)
        time.sleep(hold)
    finally:
        holder.execute(end)
        holder.close()
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert f"schema at {head_revision()}" in out


@pytest.mark.slow
def test_an_upgrade_waits_while_another_process_writes_to_a_file_not_yet_in_wal(tmp_path):
    # Two processes upgrading a new file: the first still in its first transaction, before
    # the file is in WAL. SQLite refuses the second one's switch to WAL at once (no busy
    # wait there), so the switch itself waits, as the rest of an upgrade does.
    import sqlite3

    path = str(tmp_path / "new.db")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("CREATE TABLE first_upgrade_in_progress (x)")
    # The lock stays held a while after the other process met it.
    upgrade_while_locked(f"sqlite+aiosqlite:///{path}", path, holder, hold=1.0, end="ROLLBACK")


def test_sqlite_runs_in_wal_mode(sqlite_database):
    async def journal_mode() -> str:
        engine = make_engine(sqlite_database)
        try:
            async with engine.connect() as conn:
                return (await conn.execute(sa.text("PRAGMA journal_mode"))).scalar_one()
        finally:
            await engine.dispose()

    assert asyncio.run(journal_mode()) == "wal"
