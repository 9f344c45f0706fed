"""The reads a match's end and /recap make (a game's results with their players, its move
log, where its matches began) find their rows by index: their cost does not grow with every
game the bot has ever stored. Checked on SQLite's query plans; the migrations give
PostgreSQL the same indexes."""

from __future__ import annotations

import sqlite3

import pytest

from storage import open_store


@pytest.fixture
async def plans(sqlite_database):
    store = await open_store(sqlite_database)
    conn = sqlite3.connect(store.engine.url.database)

    def plan(sql: str, args: tuple) -> str:
        return " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", args))

    yield store._rows, plan
    conn.close()
    await store.close()


async def test_a_games_results_and_their_players_are_found_by_index(plans):
    rows, plan = plans
    found = plan(rows.select_results, ("g1",))
    assert "SCAN" not in found, found
    assert "ix_result_players_result" in found, found


@pytest.mark.parametrize("statement, args", [("select_log", ("g1", 0, 10)),
                                             ("select_bases", ("g1",))])
async def test_a_games_log_and_bases_are_found_by_index(plans, statement, args):
    rows, plan = plans
    found = plan(getattr(rows, statement), args)
    assert "SCAN" not in found, found
