"""The JSON columns' one codec: what it writes reads back as the standard library reads its
own text, on both paths to a real database (the hot path's drivers and SQLAlchemy's JSON)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from storage import SqlStore, json_text, open_store
from storage.db import make_engine
from storage.models import games

from .test_contract import CHAT, MATCH_JSON, make_record

PAST_64_BITS = 2**70 + 3  # an old integer seed may be this long


@pytest.mark.parametrize("value", [
    MATCH_JSON,
    {1: "a", "b": [1, 2.5, None], "陈": {"x": True}},
    [PAST_64_BITS, {"seed": -PAST_64_BITS}],
])
def test_text_reads_back_as_the_standard_librarys_own(value):
    assert json.loads(json_text.dumps(value)) == json.loads(json.dumps(value))
    assert json_text.loads(json_text.dumps(value)) == json.loads(json.dumps(value))


async def test_a_match_with_an_integer_past_64_bits_loads_back_exactly(database_url):
    match = {**MATCH_JSON, "seed": PAST_64_BITS}
    store: SqlStore = await open_store(database_url)
    try:
        await store.save(make_record(match=match))
    finally:
        await store.close()
    store = await open_store(database_url)  # a cold load: read from the database
    try:
        loaded = await store.load(CHAT)
        assert loaded is not None and loaded.match == match
        assert loaded.match["seed"] == PAST_64_BITS and isinstance(loaded.match["seed"], int)
    finally:
        await store.close()


async def test_sqlalchemy_reads_what_the_hot_path_wrote(database_url):
    store: SqlStore = await open_store(database_url)
    try:
        saved = await store.save(make_record(hand_message_ids={"u1": "m1", "陈": "m2"},
                                             deadlines={"turn": 1_800_000_000.125}))
    finally:
        await store.close()
    engine = make_engine(database_url)
    try:
        async with engine.connect() as conn:
            row = (await conn.execute(sa.select(games.c.seats, games.c.hand_message_ids,
                                                games.c.deadlines))).one()
    finally:
        await engine.dispose()
    assert row.hand_message_ids == saved.hand_message_ids
    assert row.deadlines == saved.deadlines
    assert row.seats == [seat.to_json() for seat in saved.seats]


async def test_the_last_hands_result_in_the_book_reads_back_as_the_same_text(database_url):
    from bot.coordinator.hand_book import HandBook
    from bot.coordinator.views import N_, Text
    from bot.engine.cards import Card

    result = Text(N_("🏁 {winner} won hand {hand} (+{points}). Standings: {standings}"),
                  {"winner": "Ana", "hand": 3, "points": Text(N_("{count} point"), {"count": 12},
                                                               "{count} points"),
                   "standings": (Text(N_("{name}: {points} point"), {"name": "Ana", "points": 40},
                                      "{name}: {points} points"),), "card": Card.parse("W+4")})
    store: SqlStore = await open_store(database_url)
    try:
        await store.save(make_record(book=HandBook(last_hand=result)))
    finally:
        await store.close()
    store = await open_store(database_url)  # a cold load: read from the database
    try:
        loaded = await store.load(CHAT)
        assert loaded is not None and loaded.book.last_hand == result
    finally:
        await store.close()


def test_the_move_log_reads_back_as_the_standard_librarys_own():
    from bot.coordinator.match_log import NEXT_HAND, action_step, add_step, remove_step
    from bot.engine.actions import Play
    from bot.engine.cards import Card, Color

    steps = [action_step(Play("陈", (Card.parse("W+4"),), color=Color.RED, uno=True)),
             NEXT_HAND, add_step("u1"), remove_step("u2")]
    text = json_text.dumps(steps)
    assert json_text.loads_steps(text) == json.loads(text) == steps
