"""The SQLite game rows run on the event loop's thread: a save that finds the write lock held
by another connection waits without holding up the loop and goes through once the lock is
free (or fails, stored state untouched, after the busy timeout); checkpoints run on a
worker thread; a transaction never yields to the loop; starting a game with nobody
waiting to be told writes nothing; the chat-side reads run on the loop's thread too, on a
connection that may not write."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import threading
from dataclasses import replace

import pytest
import sqlalchemy as sa

from bot.coordinator.ports import ChatKey
from storage import SqlStore, open_store, sqlite_game_rows

from .test_contract import CHAT, make_record


@pytest.fixture
async def sqlite_store(sqlite_database):
    store = await open_store(sqlite_database)
    yield store
    await store.close()


def database_file(store: SqlStore) -> str:
    return store.engine.url.database


def hold_write_lock(path: str) -> sqlite3.Connection:
    """Another connection (another process, say) in the middle of a write transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    return conn


async def wait_until(condition, *, turns: int = 2000) -> None:
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("the condition never came true")


async def test_a_save_waits_for_the_write_lock_without_holding_up_the_loop(sqlite_store):
    saved = await sqlite_store.save(make_record(status="running"))
    other = hold_write_lock(database_file(sqlite_store))
    save = asyncio.ensure_future(sqlite_store.save(replace(saved, creator="u2")))
    ticks = 0
    for _ in range(20):  # the loop goes on turning while the save waits for the lock
        await asyncio.sleep(0.001)
        ticks += 1
    assert not save.done() and ticks == 20
    other.execute("COMMIT")
    other.close()
    written = await asyncio.wait_for(save, 10)
    assert written.version == saved.version + 1
    assert (await sqlite_store.get(saved.game_id)).creator == "u2"


async def test_a_save_gives_up_after_the_busy_timeout_and_stores_nothing(sqlite_store):
    saved = await sqlite_store.save(make_record(status="running"))
    sqlite_store._rows._busy_timeout_ms = 20
    other = hold_write_lock(database_file(sqlite_store))
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            await sqlite_store.save(replace(saved, creator="u2"))
    finally:
        other.execute("ROLLBACK")
        other.close()
    stored = await sqlite_store.get(saved.game_id)
    assert (stored.version, stored.creator) == (saved.version, saved.creator)
    # And the next save goes through as usual.
    assert (await sqlite_store.save(replace(saved, creator="u3"))).creator == "u3"


async def test_checkpoints_run_on_a_worker_thread(sqlite_store, monkeypatch):
    monkeypatch.setattr(sqlite_game_rows, "CHECKPOINT_EVERY", 3)
    threads: list[int] = []
    rows = sqlite_store._rows
    checkpoint = rows._checkpoint_in_thread

    def recorded_checkpoint() -> None:
        threads.append(threading.get_ident())
        checkpoint()

    monkeypatch.setattr(rows, "_checkpoint_in_thread", recorded_checkpoint)
    opened: list[int] = []  # connections opened for checkpoints (the loop's has none)
    open_connection = rows._open

    def counted_open(busy_timeout_ms: int, *, autocheckpoint: bool):
        if autocheckpoint:
            opened.append(busy_timeout_ms)
        return open_connection(busy_timeout_ms, autocheckpoint=autocheckpoint)

    monkeypatch.setattr(rows, "_open", counted_open)
    record = await sqlite_store.save(make_record(status="running"))
    for checkpoints in (1, 2):
        for _ in range(3):
            record = await sqlite_store.save(replace(record, creator=f"u{record.version}"))
        await wait_until(lambda n=checkpoints: len(threads) == n and rows._checkpoint.done())
    assert threading.get_ident() not in threads
    assert len(opened) == 1  # one connection for both checkpoints, kept between them


async def test_a_checkpoint_that_failed_leaves_the_next_one_a_fresh_connection(sqlite_store, monkeypatch):
    rows = sqlite_store._rows
    rows._checkpoint_in_thread()
    kept = rows._checkpointer
    assert kept is not None

    class Failing:
        def execute(self, sql: str):
            raise sqlite3.OperationalError("disk I/O error")

        def close(self) -> None:
            kept.close()

    rows._checkpointer = Failing()
    with pytest.raises(sqlite3.OperationalError):
        rows._checkpoint_in_thread()
    assert rows._checkpointer is None
    rows._checkpoint_in_thread()  # opens a fresh one
    assert rows._checkpointer is not None and rows._checkpointer is not kept


def wal_bytes(store: SqlStore) -> int:  # the file, whatever part of it is in use
    path = f"{database_file(store)}-wal"
    return os.path.getsize(path) if os.path.exists(path) else 0


async def test_a_checkpoint_that_could_not_copy_everything_still_lets_the_wal_start_again(
        sqlite_store, monkeypatch):
    """Under a steady stream of saves the checkpoint's copy never reaches the end of the WAL
    (here: a reader holds back the newest frames while it copies); the WAL must still start
    again from its beginning after the checkpoint, not grow for as long as the stream lasts."""
    rows = sqlite_store._rows
    record = await sqlite_store.save(make_record(status="running"))
    for _ in range(50):
        record = await sqlite_store.save(replace(record, creator=f"u{record.version}"))
    reader = sqlite3.connect(database_file(sqlite_store), isolation_level=None,
                             check_same_thread=False)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM games").fetchall()  # reads the database as it is now
    for _ in range(10):
        record = await sqlite_store.save(replace(record, creator=f"u{record.version}"))
    opened = rows._open

    def open_checkpointing(busy_timeout_ms: int, *, autocheckpoint: bool):
        conn = opened(busy_timeout_ms, autocheckpoint=autocheckpoint)

        class Checkpointing:  # the reader is done once the copy has gone as far as it could
            def execute(self, sql: str):
                result = conn.execute(sql)
                if "PASSIVE" in sql:
                    reader.execute("COMMIT")
                return result

            def close(self) -> None:
                conn.close()

        return Checkpointing()

    monkeypatch.setattr(rows, "_open", open_checkpointing)
    await asyncio.to_thread(rows._checkpoint_in_thread)
    reader.close()
    size = wal_bytes(sqlite_store)
    for _ in range(50):  # fewer frames than the WAL file holds: written over its beginning
        record = await sqlite_store.save(replace(record, creator=f"u{record.version}"))
    assert wal_bytes(sqlite_store) == size
    assert (await sqlite_store.get(record.game_id)).creator == record.creator


async def test_a_wal_grown_in_a_burst_is_cut_back_when_it_starts_again(sqlite_database, monkeypatch):
    monkeypatch.setattr(sqlite_game_rows, "WAL_BYTES_KEPT", 64 * 1024)
    monkeypatch.setattr(sqlite_game_rows, "CHECKPOINT_EVERY", 10**9)  # no checkpoint by itself
    store = await open_store(sqlite_database)
    try:
        record = await store.save(make_record(status="running"))
        for _ in range(200):
            record = await store.save(replace(record, creator=f"u{record.version}"))
        assert wal_bytes(store) > 64 * 1024
        store._rows._checkpoint_in_thread()
        record = await store.save(replace(record, creator="after"))
        assert wal_bytes(store) <= 64 * 1024
        assert (await store.get(record.game_id)).creator == "after"
    finally:
        await store.close()


def test_a_statement_that_would_wait_inside_a_transaction_is_refused():
    async def suspends() -> None:
        await asyncio.sleep(0)

    async def returns() -> int:
        return 7

    assert sqlite_game_rows.run_now(returns()) == 7
    with pytest.raises(RuntimeError, match="wait for the loop"):
        sqlite_game_rows.run_now(suspends())


async def test_starting_with_nobody_waiting_writes_nothing(sqlite_store):
    statements: list[str] = []
    sa.event.listen(sqlite_store.engine.sync_engine, "before_cursor_execute",
                    lambda conn, cursor, statement, *args: statements.append(statement))
    assert await sqlite_store.take_notify_requests(CHAT) == []
    assert not [s for s in statements if s.lstrip().upper().startswith("DELETE")]
    await sqlite_store.add_notify_request(CHAT, "u7", "Uma", "en")
    other_chat = ChatKey(CHAT.platform, "elsewhere")
    await sqlite_store.add_notify_request(other_chat, "u8", "Oz", "zh_CN")
    assert await sqlite_store.take_notify_requests(CHAT) == [("u7", "Uma", "en")]
    assert await sqlite_store.take_notify_requests(CHAT) == []  # told once
    assert await sqlite_store.take_notify_requests(other_chat) == [("u8", "Oz", "zh_CN")]



async def test_reads_run_on_the_loops_thread_and_never_on_aiosqlites(sqlite_store):
    from bot.coordinator.ports import ChatSettings, UserProfile

    await sqlite_store.save_chat_settings(CHAT, ChatSettings(language="zh_CN", turn_timer=45))
    await sqlite_store.save_user_profile("telegram", "u1", UserProfile(language="en", card_theme="bold"))
    through_engine: list[str] = []
    sa.event.listen(sqlite_store.engine.sync_engine, "before_cursor_execute",
                    lambda conn, cursor, statement, *args: through_engine.append(statement))
    threads: set[int] = set()
    engine = sqlite_store._loop_reads._engine
    sa.event.listen(engine, "before_cursor_execute",
                    lambda *args: threads.add(threading.get_ident()))
    settings = await sqlite_store.chat_settings(CHAT)
    assert (settings.language, settings.turn_timer, settings.version) == ("zh_CN", 45, 1)
    profile = await sqlite_store.user_profile("telegram", "u1")
    assert (profile.language, profile.card_theme) == ("en", "bold")
    assert await sqlite_store.take_notify_requests(CHAT) == []
    assert await sqlite_store.chat_presets(CHAT) == []
    assert await sqlite_store.game_results("nothing") == []
    assert (await sqlite_store.stats("telegram", "u1")).hands == 0
    assert through_engine == []
    assert threads == {threading.get_ident()}  # the loop's own


async def test_a_read_that_would_write_is_refused(sqlite_store):
    async def sneaky(conn):
        await conn.execute(sa.text("DELETE FROM chat_settings"))

    with pytest.raises(sa.exc.OperationalError, match="readonly"):
        await sqlite_store._read(sneaky)


async def test_a_read_that_finds_the_database_busy_tries_again(sqlite_store, monkeypatch):
    # SQLite answers a reader "busy" only while it recovers a WAL left by a crash: the read
    # sleeps on the loop and tries again, as a hot-path statement does.
    engine = sqlite_store._loop_reads._engine
    connect = engine.connect
    refusals = []

    def busy_once():
        if not refusals:
            busy = sqlite3.OperationalError("database is locked")
            busy.sqlite_errorcode = sqlite3.SQLITE_BUSY
            refusals.append(busy)
            raise sa.exc.OperationalError("SELECT", {}, busy)
        return connect()

    monkeypatch.setattr(engine, "connect", busy_once)
    assert await sqlite_store.chat_presets(CHAT) == []
    assert len(refusals) == 1
