"""Games stored by an earlier version load into the typed record as they are (a game, and a
match at two tables: its hub and both tables) and play on."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey
from bot.coordinator.record import GameRecord, parts_from_json
from bot.engine import Match
from storage import migrate, open_store
from tests.coordinator.conftest import CHAT, Harness, User

SAVED = Path(__file__).parent / "data" / "games_2026-12-01.json"
HUB_CHAT = ChatKey("telegram", "-777")


def stored() -> dict:
    return json.loads(SAVED.read_text(encoding="utf-8"))


def without_empty(data: dict) -> dict:
    return {key: value for key, value in data.items() if value not in ({}, [], None)}


async def store_with_saved_rows(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'unobot.db'}"
    # The last schema these rows fit as they are (the match and every typed part in the games
    # row); open_store then upgrades them to head, as it would a stored database.
    await asyncio.to_thread(migrate.upgrade, url, "0009")
    rows = stored()
    with sqlite3.connect(tmp_path / "unobot.db") as db:
        for table in ("games", "game_seats"):
            for row in rows[table]:
                columns = ", ".join(row)
                marks = ", ".join("?" for _ in row)
                db.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values()))
    return await open_store(url)


def test_every_stored_part_reads_back_as_it_was_written():
    for row in stored()["games"]:
        meta = json.loads(row["meta"])
        parts = parts_from_json(meta)

        record = GameRecord(row["game_id"], ChatKey(row["platform"], row["chat_id"]), row["status"],
                            row["creator"], [], {}, **parts)
        assert record.parts_json() == without_empty(meta)


def test_a_record_with_every_part_round_trips():
    meta = {"preset": "house", "language": "zh_CN", "seed": 7, "turn_timer": 45, "afk_policy": "leave",
            "reaction_window": 5, "outbox": {"v": 9, "notices": [{"locale": "en", "text": "x",
                                                                   "mentions": []}],
                                             "table": True, "hands": ["u1"]},
            "unreachable": ["u2"], "color_pickers": {"u1": {"card": "W", "uno": True, "press": "p1"}},
            "counters": {"u1": {"uno_calls": 1, "caught": 0, "challenges_won": 0}},
            "match_counters": {"u1": {"uno_calls": 2, "caught": 1, "challenges_won": 0}},
            "exposed_at": {"u2": 12.5}, "timeouts": {"u3": 2}, "taken_over": ["u3"],
            "names": {"u4": "Dee"}, "uno_settled": {"targets": ["u2"], "callers": ["u1"]},
            "series": {"table": 2, "hub": ["discord", "55"], "hub_game": "h1", "games": ["a", "b"],
                       "seats": [{"user_id": "u1", "name": "Ana", "language": "en", "ai": None}],
                       "bots": {"u4": "normal"}}}

    record = GameRecord("g", CHAT, "running", "u1", [], {}, **parts_from_json(meta))
    assert record.parts_json() == meta
    assert (record.options.turn_timer, record.delivery.outbox.hands, record.book.uno_calls.targets,
            record.series.hub) == (45, ["u1"], ["u2"], ChatKey("discord", "55"))


async def test_saved_games_load_typed_and_play_on(tmp_path):
    store = await store_with_saved_rows(tmp_path)
    try:
        hub = await store.load(HUB_CHAT)
        assert hub.two_tables is not None and hub.series is None
        tables = [await store.get(game_id) for game_id in hub.two_tables.games]
        assert sorted(t.series.table for t in tables) == [1, 2]
        for table in tables:
            assert table.series.hub == HUB_CHAT and table.series.hub_game == hub.game_id
            assert len(table.series.seats) == 8 and len(table.book.names) == 8
        game = await store.load(CHAT)
        assert (game.options.preset, game.options.turn_timer) == ("house", 30)
        assert game.two_tables is None and game.series is None

        h = Harness(store=store)
        await h.coordinator.resume()
        state = Match.from_json(game.match).game
        seat = next(s for s in game.seats if s.user_id == state.current)
        mover = User(seat.user_id, seat.name)
        reply = await h.coordinator.handle(await h.move_for(mover))
        assert reply.ok, reply
        assert (await store.load(CHAT)).version > game.version
        await h.coordinator.handle(cmds.ShowRules(CHAT, mover))
        await h.coordinator.close()
    finally:
        await store.close()
