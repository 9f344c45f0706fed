"""What a save writes of a game: the record's typed parts are three columns (``meta``,
``book``, ``outbox``), each written only when its part changed, and the match snapshot is a
row of its own (``game_snapshots``), written only when a snapshot is taken, in the same
group and all-or-nothing with its games row. A cold load puts them back together;
migrations 0010 and 0011 move stored rows (their downgrades move them back). Real
databases; what an UPDATE wrote is seen by triggers ``AFTER UPDATE OF`` each column."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from bot.coordinator.hand_book import EndVote, HandBook, RaceEvent
from bot.coordinator.ports import ChatKey, VersionConflict
from bot.coordinator.record import DeliveryState, Outbox
from storage import SqlStore, migrate, open_store
from storage.db import make_engine

from .test_contract import CHAT, MATCH_JSON, make_record
from .test_group_commit import count_group_writes

SAVED = Path(__file__).parent / "data" / "games_2026-12-01.json"
PARTS = ("meta", "book", "outbox")

# Snapshot rows are noted with version -1 (their row has none).
SQLITE_WATCH = [
    "CREATE TABLE written (game_id TEXT, version INTEGER, part TEXT)",
    *(f"CREATE TRIGGER watch_{part} AFTER UPDATE OF {part} ON games BEGIN "
      f"INSERT INTO written VALUES (NEW.game_id, NEW.version, '{part}'); END" for part in PARTS),
    "CREATE TRIGGER watch_snapshot AFTER UPDATE ON game_snapshots BEGIN "
    "INSERT INTO written VALUES (NEW.game_id, -1, 'snapshot'); END"]
POSTGRES_WATCH = [
    "CREATE TABLE written (game_id text, version int, part text)",
    "CREATE FUNCTION note_written() RETURNS trigger AS $$ BEGIN "
    "IF TG_TABLE_NAME = 'games' THEN INSERT INTO written VALUES (NEW.game_id, NEW.version, "
    "TG_ARGV[0]); ELSE INSERT INTO written VALUES (NEW.game_id, -1, TG_ARGV[0]); END IF; "
    "RETURN NULL; END $$ LANGUAGE plpgsql",
    *(f"CREATE TRIGGER watch_{part} AFTER UPDATE OF {part} ON games FOR EACH ROW "
      f"EXECUTE FUNCTION note_written('{part}')" for part in PARTS),
    "CREATE TRIGGER watch_snapshot AFTER UPDATE ON game_snapshots FOR EACH ROW "
    "EXECUTE FUNCTION note_written('snapshot')"]


async def watch_writes(store: SqlStore) -> None:
    watch = SQLITE_WATCH if store.engine.dialect.name == "sqlite" else POSTGRES_WATCH
    async with store.engine.begin() as conn:
        for statement in watch:
            await conn.execute(sa.text(statement))


async def written(store: SqlStore, version: int) -> set[str]:
    async with store.engine.connect() as conn:
        return {row[0] for row in await conn.execute(
            sa.text("SELECT part FROM written WHERE version = :v"), {"v": version})}


async def test_a_save_writes_only_the_parts_that_changed(database_url):
    store = await open_store(database_url)
    try:
        await watch_writes(store)
        saved = await store.save(make_record(status="running",
                                             delivery=DeliveryState(outbox=Outbox(1, table=True))))
        saved.delivery.outbox = Outbox(2, hands=["u1"])  # a move: something new to deliver
        saved = await store.save(saved)
        assert await written(store, saved.version) == {"outbox"}
        saved.book.timeouts["u1"] = 1  # the book changes, the outbox stays as it was
        saved = await store.save(saved)
        assert await written(store, saved.version) == {"book"}
        saved.options = replace(saved.options, turn_timer=30)
        saved.delivery.unreachable.append("u1")
        saved = await store.save(saved)
        assert await written(store, saved.version) == {"meta"}
        saved = await store.save(saved)  # nothing of the parts changed
        assert await written(store, saved.version) == set()
    finally:
        await store.close()
    cold = await open_store(database_url)
    try:
        loaded = await cold.load(CHAT)
        assert loaded.parts_json() == saved.parts_json()
        assert (loaded.delivery.outbox, loaded.book.timeouts, loaded.options.turn_timer,
                loaded.delivery.unreachable) == (Outbox(2, hands=["u1"]), {"u1": 1}, 30, ["u1"])
    finally:
        await cold.close()


async def test_a_part_emptied_stays_empty_after_a_cold_load(database_url):
    store = await open_store(database_url)
    try:
        book = HandBook(end_vote=EndVote(["u1"], 1, 5.0), taken_over=["ai1"],
                        race=[RaceEvent("caught", "Ana", "Bo", 120, 3, 1, 4.5)], penalty=(6, "Bo", 2),
                        penalties_kept=True)
        saved = await store.save(make_record(status="running", book=book,
                                             delivery=DeliveryState(outbox=Outbox(3))))
        saved.book.end_vote, saved.book.taken_over = None, []
        saved.delivery.outbox = None
        saved = await store.save(saved)
    finally:
        await store.close()
    cold = await open_store(database_url)
    try:
        loaded = await cold.get("g1")
        assert loaded.book.end_vote is None and loaded.book.taken_over == []
        assert loaded.book.race == [RaceEvent("caught", "Ana", "Bo", 120, 3, 1, 4.5)]
        assert loaded.book.biggest_penalty == (6, "Bo", 2)  # the recap's, kept from the deal on
        assert loaded.delivery.outbox is None and loaded.parts_json() == saved.parts_json()
    finally:
        await cold.close()


async def snapshots_written(store: SqlStore, game_id: str) -> int:
    async with store.engine.connect() as conn:
        return (await conn.execute(sa.text(
            "SELECT count(*) FROM written WHERE part = 'snapshot' AND game_id = :g"),
            {"g": game_id})).scalar_one()


async def stored_snapshot(store: SqlStore, game_id: str) -> tuple[object, int]:
    """(the snapshot row's match, decoded; the games row's snapshot version)."""
    async with store.engine.connect() as conn:
        match, version = (await conn.execute(sa.text(
            "SELECT s.match, g.snapshot_version FROM games AS g JOIN game_snapshots AS s "
            "ON s.game_id = g.game_id WHERE g.game_id = :g"), {"g": game_id})).one()
    return (json.loads(match) if isinstance(match, str) else match), version


async def test_a_move_leaves_the_snapshot_row_and_a_snapshot_rewrites_it(database_url):
    store = await open_store(database_url)
    try:
        await watch_writes(store)
        saved = await store.save(make_record(status="running", match=MATCH_JSON))
        assert await stored_snapshot(store, "g1") == (MATCH_JSON, 1)
        saved.deadlines = {"turn": 5.0}
        saved = await store.save(saved)  # no snapshot taken
        assert await snapshots_written(store, "g1") == 0
        assert await stored_snapshot(store, "g1") == (MATCH_JSON, 1)
        later = {**MATCH_JSON, "zeta": 2}
        saved = await store.save(replace(saved, snapshot=later, snapshot_due=True))  # a hand ended
        assert await snapshots_written(store, "g1") == 1
        assert await stored_snapshot(store, "g1") == (later, saved.version)
    finally:
        await store.close()
    cold = await open_store(database_url)
    try:
        assert (await cold.load(CHAT)).match == later
    finally:
        await cold.close()


async def test_a_stale_snapshot_writes_nothing_and_fails_alone_in_its_group(database_url,
                                                                           monkeypatch):
    store = await open_store(database_url)
    try:
        records = [await store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running", match=MATCH_JSON))
                   for i in range(3)]
        stale = records[0]
        other = await open_store(database_url)  # another process moves g0 on
        try:
            await other.save(replace(await other.get("g0"), deadlines={"turn": 1.0}))
        finally:
            await other.close()
        sizes = count_group_writes(store, monkeypatch)
        outcomes = await asyncio.gather(
            store.save(replace(stale, snapshot={"stale": True}, snapshot_due=True)),
            store.save(replace(records[1], snapshot={"hand": 2}, snapshot_due=True)),
            store.save(replace(records[2], creator="u2")), return_exceptions=True)
        assert sizes == [3]
        assert isinstance(outcomes[0], VersionConflict)
        assert [o.version for o in outcomes[1:]] == [2, 2]
        assert await stored_snapshot(store, "g0") == (MATCH_JSON, 1)
        assert await stored_snapshot(store, "g1") == ({"hand": 2}, 2)
        assert await stored_snapshot(store, "g2") == (MATCH_JSON, 1)
    finally:
        await store.close()


REFUSE_SQLITE = ("CREATE TRIGGER refuse_snapshot BEFORE UPDATE ON game_snapshots "
                 "WHEN NEW.match = '\"refused\"' BEGIN SELECT RAISE(ABORT, 'refused'); END")
REFUSE_POSTGRES = [
    "CREATE FUNCTION refuse_snapshot() RETURNS trigger AS $$ BEGIN IF NEW.match::text = "
    "'\"refused\"' THEN RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation'; END IF; "
    "RETURN NEW; END $$ LANGUAGE plpgsql",
    "CREATE TRIGGER refuse_snapshot BEFORE UPDATE ON game_snapshots FOR EACH ROW "
    "EXECUTE FUNCTION refuse_snapshot()"]


async def test_a_refused_snapshot_undoes_its_whole_save_and_nothing_else(database_url,
                                                                        monkeypatch):
    store = await open_store(database_url)
    try:
        async with store.engine.begin() as conn:
            for statement in ([REFUSE_SQLITE] if store.engine.dialect.name == "sqlite"
                              else REFUSE_POSTGRES):
                await conn.execute(sa.text(statement))
        records = [await store.save(make_record(f"g{i}", ChatKey("telegram", f"c{i}"),
                                                status="running", match=MATCH_JSON))
                   for i in range(2)]
        sizes = count_group_writes(store, monkeypatch)
        outcomes = await asyncio.gather(
            store.save(replace(records[0], snapshot="refused", snapshot_due=True,
                               deadlines={"turn": 9.0})),
            store.save(replace(records[1], snapshot={"hand": 2}, snapshot_due=True)),
            return_exceptions=True)
        assert sizes == [2]  # one group (PostgreSQL: its statement failed, then each alone)
        assert isinstance(outcomes[0], VersionConflict) and outcomes[1].version == 2
        assert await stored_snapshot(store, "g0") == (MATCH_JSON, 1)
        assert await stored_snapshot(store, "g1") == ({"hand": 2}, 2)
    finally:
        await store.close()
    cold = await open_store(database_url)
    try:
        refused = await cold.get("g0")
        assert refused.version == 1 and refused.deadlines == {} and refused.match == MATCH_JSON
    finally:
        await cold.close()


@pytest.mark.parametrize("owed", [True, False])
async def test_a_snapshot_saved_alone_is_written_with_its_row(database_url, owed):
    """A group of one write goes as its own statements (PostgreSQL: one transaction)."""
    store = await open_store(database_url)
    try:
        saved = await store.save(make_record(status="running", match=MATCH_JSON,
                                             delivery=DeliveryState(outbox=Outbox(1))))
        if not owed:
            assert await store.mark_delivered("g1", saved.version)
        saved = await store.save(replace(saved, snapshot={"hand": 2}, snapshot_due=True))
        assert await stored_snapshot(store, "g1") == ({"hand": 2}, saved.version)
        with pytest.raises(VersionConflict):  # the version it read is gone
            await store.save(replace(saved, version=1, snapshot={"old": 1}, snapshot_due=True))
        assert await stored_snapshot(store, "g1") == ({"hand": 2}, saved.version)
    finally:
        await store.close()


async def _execute(url: str, statements: list[tuple[str, dict]]) -> None:
    engine = make_engine(url)
    try:
        async with engine.begin() as conn:
            for sql, values in statements:
                await conn.execute(sa.text(sql), values)
    finally:
        await engine.dispose()


async def _games(url: str) -> dict[str, dict]:
    """game id -> its raw row as stored (JSON columns decoded)."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT * FROM games"))).mappings().all()
    finally:
        await engine.dispose()
    return {row["game_id"]: {key: json.loads(value) if key in ("meta", "book", "outbox", "match")
                             and isinstance(value, str) else value for key, value in row.items()}
            for row in rows}


async def _snapshots(url: str) -> dict[str, object]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(sa.text("SELECT game_id, match FROM game_snapshots"))).all()
    finally:
        await engine.dispose()
    return {game_id: json.loads(match) if isinstance(match, str) else match
            for game_id, match in rows}


def _insert(table: str, row: dict) -> tuple[str, dict]:
    return (f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join(':' + c for c in row)})",
            row)


# A row as code before 0010 wrote it, with every part in ``meta`` and its outbox owed.
EVERY_PART = {
    "preset": "house", "language": "zh_CN", "seed": "sealed", "turn_timer": 45,
    "afk_policy": "leave", "reaction_window": 5,
    "outbox": {"v": 9, "notices": [{"locale": "en", "text": "x", "mentions": []}], "table": True,
               "hands": ["u1"]},
    "unreachable": ["u2"], "color_pickers": {"u1": {"card": "W", "uno": True, "press": "p1"}},
    "counters": {"u1": {"uno_calls": 1, "caught": 0, "challenges_won": 0}},
    "match_counters": {"u1": {"uno_calls": 2, "caught": 1, "challenges_won": 0}},
    "exposed_at": {"u2": 12.5}, "timeouts": {"u3": 2}, "names": {"u4": "Dee"},
    "taken_over": ["u3"], "uno_settled": {"targets": ["u2"], "callers": ["u1"]},
    "race": [["caught", "Ana", "Bo", 120, 3, 1, 4.5]],
    "end_vote": {"voters": ["u1"], "hand": 1, "since": 5.0}, "end_reason": "vote",
    "owner": "discord:3"}


def test_migration_splits_stored_rows_and_its_downgrade_merges_them(database_url):
    saved = json.loads(SAVED.read_text(encoding="utf-8"))
    saved["games"].append({**saved["games"][0], "game_id": "every-part", "chat_id": "-888",
                           "version": 7, "meta": json.dumps(EVERY_PART), "owed": 1,
                           "match": json.dumps(MATCH_JSON)})
    migrate.upgrade(database_url, "0009")  # the schema these rows were written under
    asyncio.run(_execute(database_url, [
        *(_insert("games", {**row, "owed": bool(row["owed"])}) for row in saved["games"]),
        *(_insert("game_seats", row) for row in saved["game_seats"])]))
    before = {row["game_id"]: json.loads(row["meta"]) for row in saved["games"]}
    assert any("outbox" in meta for meta in before.values())
    assert any("race" in meta or "counters" in meta for meta in before.values())

    migrate.upgrade(database_url)
    split = asyncio.run(_games(database_url))
    assert "match" not in split["every-part"]
    assert asyncio.run(_snapshots(database_url)) == {
        row["game_id"]: json.loads(row["match"]) for row in saved["games"]}
    for game_id, meta in before.items():
        row = split[game_id]
        assert not {"outbox", "counters", "race", "names", "end_reason"} & set(row["meta"])
        assert {**row["meta"], **row["book"],
                **({"outbox": row["outbox"]} if row["outbox"] is not None else {})} == meta

    async def load_all() -> dict[str, dict]:
        store = await open_store(database_url)
        try:
            return {game_id: (await store.get(game_id)).parts_json() for game_id in before}
        finally:
            await store.close()

    for game_id, parts in asyncio.run(load_all()).items():
        meta = before[game_id]
        owed = bool(next(r for r in saved["games"] if r["game_id"] == game_id)["owed"])
        expected = {k: v for k, v in meta.items() if v not in ({}, [], None)
                    and (owed or k != "outbox")}  # a delivered outbox is owed no more
        assert parts == expected

    command.downgrade(migrate.alembic_config(database_url), "0009")
    merged = asyncio.run(_games(database_url))
    assert {game_id: json.loads(row["meta"]) if isinstance(row["meta"], str) else row["meta"]
            for game_id, row in merged.items()} == before
    assert "book" not in next(iter(merged.values()))
    assert {game_id: row["match"] for game_id, row in merged.items()} == {
        row["game_id"]: json.loads(row["match"]) for row in saved["games"]}
    migrate.upgrade(database_url)  # and up again, as a later start would
    assert asyncio.run(_games(database_url)) == split
