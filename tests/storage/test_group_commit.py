"""The hot-path saves of several games reaching the store in one turn of the loop are written
together (SQLite: one transaction; PostgreSQL: one UPDATE over many rows), each with its own
columns, and each gets its own outcome: one that is stale, or that a uniqueness rule
refuses, fails alone."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.coordinator.ports import ChatKey, VersionConflict
from bot.coordinator.record import Outbox
from storage import SqlStore, open_store, postgres_game_rows

from ..waiting import wait_until
from .test_contract import make_record


@pytest.fixture
async def sql_store(database_url):
    store = await open_store(database_url)
    yield store
    await store.close()


def count_group_writes(store: SqlStore, monkeypatch) -> list[int]:
    """How many rows each grouped write carried, as the store sends them."""
    sizes: list[int] = []
    if store.engine.dialect.name == "sqlite":
        rows = store._rows
        commit_group = rows._commit_group

        def counted() -> None:
            sizes.append(len(rows._group))
            commit_group()

        monkeypatch.setattr(rows, "_commit_group", counted)
    else:
        group_update = postgres_game_rows.group_update

        def counted_statement(updates):
            statement = group_update(updates)
            if statement is not None:
                sizes.append(len(updates))
            return statement

        monkeypatch.setattr(postgres_game_rows, "group_update", counted_statement)
    return sizes


async def test_saves_reaching_the_store_in_one_turn_are_written_together(sql_store, monkeypatch):
    records = [await sql_store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running")) for i in range(5)]
    sizes = count_group_writes(sql_store, monkeypatch)
    changes = [{"creator": "u2"}, {"table_message_id": "m9"}, {"deadlines": {"turn": 12.5}},
               {"hand_message_ids": {"u1": "h1"}}, {"status": "finished"}]
    saved = await asyncio.gather(*(sql_store.save(replace(r, **change))
                                   for r, change in zip(records, changes, strict=True)))
    assert [s.version for s in saved] == [r.version + 1 for r in records]
    assert sizes == [5]
    stored = [await sql_store.get(r.game_id) for r in records]
    assert [s.version for s in stored] == [r.version + 1 for r in records]
    assert (stored[0].creator, stored[1].table_message_id, stored[2].deadlines,
            stored[3].hand_message_ids, stored[4].status) == (
        "u2", "m9", {"turn": 12.5}, {"u1": "h1"}, "finished")
    # Each wrote only its own change.
    assert (stored[1].creator, stored[0].table_message_id, stored[4].deadlines) == (
        "u1", None, {})


async def test_a_refused_save_in_a_group_fails_alone(sql_store):
    here, there = ChatKey("telegram", "c1"), ChatKey("telegram", "c2")
    # c1 holds a finished game besides its running one: making it active again is refused.
    running = await sql_store.save(make_record("g1", here, status="running"))
    finished = await sql_store.save(make_record("g2", here, status="finished"))
    stale = await sql_store.save(make_record("g3", there, status="running"))
    fine = await sql_store.save(make_record("g4", ChatKey("telegram", "c4"), status="running"))
    await sql_store.save(replace(stale, creator="u5"))  # g3 moves on: ``stale`` is stale now
    outcomes = await asyncio.gather(
        sql_store.save(replace(finished, status="running")),  # a second active game in c1
        sql_store.save(replace(stale, creator="u6")),
        sql_store.save(replace(fine, creator="u7")),
        return_exceptions=True)
    assert [type(o) for o in outcomes[:2]] == [VersionConflict, VersionConflict]
    assert outcomes[2].creator == "u7"
    assert (await sql_store.get("g1")).version == running.version
    assert (await sql_store.get("g2")).status == "finished"
    assert (await sql_store.get("g3")).creator == "u5"
    assert (await sql_store.get("g4")).creator == "u7"


async def test_a_grouped_save_checks_the_owed_flag(sql_store):
    """A record this process holds as owing messages is stale once another process marked
    them delivered: its save fails, grouped with one that goes through."""
    owing = make_record("g1", ChatKey("telegram", "c1"), status="running")
    owing.delivery.outbox = Outbox(1, [], True, [])
    owing = await sql_store.save(owing)
    other = await sql_store.save(make_record("g2", ChatKey("telegram", "c2"), status="running"))
    theirs = SqlStore.from_url(sql_store.engine.url.render_as_string(hide_password=False))
    try:
        assert await theirs.mark_delivered("g1", owing.version)
    finally:
        await theirs.close()
    outcomes = await asyncio.gather(sql_store.save(replace(owing, creator="u8")),
                                    sql_store.save(replace(other, creator="u9")),
                                    return_exceptions=True)
    assert type(outcomes[0]) is VersionConflict and outcomes[1].creator == "u9"
    assert (await sql_store.get("g1")).creator == "u1"


async def test_closing_the_store_writes_the_saves_still_waiting(database_url):
    store = await open_store(database_url)
    record = await store.save(make_record("g1", ChatKey("telegram", "c1"), status="running"))
    pending = asyncio.ensure_future(store.save(replace(record, creator="u2")))
    await asyncio.sleep(0)  # the save is queued for the next turn of the loop
    await store.close()
    assert (await pending).creator == "u2"
    # Written before the connections closed, not on one opened again behind the close.
    assert getattr(store._rows, "_conn", None) is None and getattr(store._rows, "_pool", None) is None
    reopened = await open_store(database_url)
    try:
        assert (await reopened.get("g1")).creator == "u2"
    finally:
        await reopened.close()


async def test_deliveries_marked_done_join_the_group(sql_store, monkeypatch):
    owing = []
    for i in range(3):
        record = make_record(f"g{i}", ChatKey("telegram", f"c{i}"), status="running")
        record.delivery.outbox = Outbox(1, [], True, [])
        owing.append(await sql_store.save(record))
    sizes = count_group_writes(sql_store, monkeypatch)
    outcomes = await asyncio.gather(
        sql_store.mark_delivered("g0", owing[0].version),
        sql_store.mark_delivered("g1", owing[1].version - 1),  # an older version: not marked
        sql_store.save(replace(owing[2], creator="u3")))
    assert outcomes[:2] == [True, False] and outcomes[2].creator == "u3"
    assert sizes == [3]
    assert [(await sql_store.get(f"g{i}")).delivery.outbox is None for i in range(3)] == [
        True, False, False]


async def test_postgresql_saves_that_come_while_a_statement_is_on_its_way_go_together(
        pg_database, monkeypatch):
    import asyncpg

    from storage.db import asyncpg_dsn

    monkeypatch.setattr(postgres_game_rows, "GROUPS_IN_FLIGHT", 1)
    store = await open_store(pg_database)
    try:
        records = [await store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running")) for i in range(4)]
        sizes = count_group_writes(store, monkeypatch)
        blocker = await asyncpg.connect(asyncpg_dsn(store.engine.url))
        try:
            held = blocker.transaction()
            await held.start()
            await blocker.execute("SELECT 1 FROM games WHERE game_id = 'g0' FOR UPDATE")
            first = asyncio.ensure_future(store.save(replace(records[0], creator="u9")))
            for _ in range(20):  # until the first save's statement waits on the row lock
                await asyncio.sleep(0.05)
                if await blocker.fetchval("SELECT count(*) FROM pg_stat_activity WHERE "
                                          "wait_event_type = 'Lock' AND query LIKE 'UPDATE games%'"):
                    break
            later = []
            for record in records[1:]:  # one a turn of the loop: each would go alone
                later.append(asyncio.ensure_future(store.save(replace(record, creator="u8"))))
                await asyncio.sleep(0)
            await held.rollback()
        finally:
            await blocker.close()
        saved = [await first, *await asyncio.gather(*later)]
        assert [s.creator for s in saved] == ["u9", "u8", "u8", "u8"]
        assert sizes == [3]  # the three that came meanwhile: one statement
        assert [(await store.get(r.game_id)).version for r in records] == \
            [r.version + 1 for r in records]
    finally:
        await store.close()


async def test_postgresql_saves_stuck_behind_locks_fail_in_time_and_the_saves_after_them_go_on(
        pg_database, monkeypatch):
    import asyncpg

    from storage import store as store_module
    from storage.db import asyncpg_dsn

    monkeypatch.setattr(store_module, "PG_STATEMENT_TIMEOUT", 0.5)
    sql_store = await open_store(pg_database)
    locker = None
    try:
        a, b, c = [await sql_store.save(make_record(f"g{n}", ChatKey("telegram", f"c{n}"),
                                                    status="running")) for n in "abc"]
        # Someone else holds the rows of games a and b: a transaction left open.
        locker = await asyncpg.connect(asyncpg_dsn(sql_store.engine.url))
        await locker.execute("BEGIN")
        await locker.execute("SELECT 1 FROM games WHERE game_id IN ('ga', 'gb') FOR UPDATE")
        in_flight = sql_store._rows._groups  # the grouped statements on their way
        stuck_a = asyncio.create_task(sql_store.save(replace(a, creator="u2")))
        await wait_until(lambda: len(in_flight) == 1, what="a's statement sent")
        stuck_b = asyncio.create_task(sql_store.save(replace(b, creator="u2")))
        await wait_until(lambda: len(in_flight) == 2, what="b's statement sent")
        # Both statements that may be on their way at once wait for the locks; c's save waits
        # for one of them, and goes once they have given up.
        saved_c = await asyncio.wait_for(sql_store.save(replace(c, creator="u2")), 10)
        assert saved_c.version == c.version + 1
        for stuck in (stuck_a, stuck_b):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(stuck, 10)
        await locker.execute("ROLLBACK")
        # Nothing of theirs was written: both save again from the same version.
        for record in (a, b):
            assert (await sql_store.get(record.game_id)).version == record.version
            assert (await sql_store.save(replace(record, creator="u3"))).version == record.version + 1
    finally:
        if locker is not None:
            await locker.close()
        await sql_store.close()


async def test_a_group_stores_what_another_process_reads_back(sql_store):
    """Each save of a group as the database has it, read by a store that holds none of them:
    JSON parts, an emptied column, a time to the last digit, and the snapshot a finished game
    takes."""
    records = [await sql_store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running", match={"turn": i},
                                                table_message_id="t")) for i in range(3)]
    outbox = Outbox(3, [{"text": "said \"so\" — 说"}], True, ["u1"])
    ending = replace(records[2], status="finished")
    ending.snapshot = {"turn": 99}  # where the match stands now (a move's, not a new match)
    saved = await asyncio.gather(
        sql_store.save(replace(records[0], deadlines={"turn": 1_800_000_000.123456},
                               delivery=replace(records[0].delivery, outbox=outbox))),
        sql_store.save(replace(records[1], table_message_id=None)),
        sql_store.save(ending))  # a finished game takes a snapshot
    theirs = SqlStore.from_url(sql_store.engine.url.render_as_string(hide_password=False))
    try:
        stored = [await theirs.get(record.game_id) for record in records]
    finally:
        await theirs.close()
    assert [s.version for s in stored] == [s.version for s in saved]
    assert stored[0].deadlines == {"turn": 1_800_000_000.123456}
    assert stored[0].delivery.outbox == outbox and stored[0].table_message_id == "t"
    assert stored[1].table_message_id is None and stored[1].delivery.outbox is None
    assert stored[2].status == "finished" and stored[2].match == {"turn": 99}


async def test_a_sqlite_group_takes_in_the_saves_of_the_next_turn_of_the_loop(sqlite_database,
                                                                           monkeypatch):
    """The games a commit answers reach their next saves a turn later: the group waits for
    them (GROUP_TURNS), so two saves a turn apart are one commit."""
    store = await open_store(sqlite_database)
    try:
        records = [await store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running")) for i in range(2)]
        sizes = count_group_writes(store, monkeypatch)

        async def a_turn_later(record):
            await asyncio.sleep(0)
            return await store.save(replace(record, creator="u9"))

        saved = await asyncio.gather(store.save(replace(records[0], creator="u8")),
                                     a_turn_later(records[1]))
        assert [s.creator for s in saved] == ["u8", "u9"] and sizes == [2]
    finally:
        await store.close()
