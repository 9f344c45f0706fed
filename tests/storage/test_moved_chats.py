"""A chat's new id (a Telegram group upgraded to a supergroup), the GameStore contract on
SQLite, PostgreSQL and the MemoryStore: its games, settings, presets, "notify me" requests,
results, stats and ratings move at once; another chat's stay; the old chat's rows win."""

from __future__ import annotations

import random

from bot.coordinator.ports import ChatKey, ChatPreset, ChatSettings, GameRecord, Seat
from tests.rating_history import random_hands, store_hands

OLD = ChatKey("telegram", "-4001")
NEW = ChatKey("telegram", "-1004001")
OTHER = ChatKey("telegram", "-4002")
PEOPLE = [("ana", "Ana"), ("bo", "Bo")]
T0 = 1_800_000_000.0


def lobby(game_id: str, chat: ChatKey) -> GameRecord:
    return GameRecord(game_id=game_id, chat=chat, status="lobby", creator="ana",
                      seats=[Seat("ana", "Ana", "en")], rules={"preset": "official"})


async def test_everything_of_the_chat_moves_to_its_new_id(store):
    last = await store_hands(store, OLD, "g1", random_hands(random.Random(5), PEOPLE, 10), start=T0)
    await store_hands(store, OTHER, "g9", random_hands(random.Random(6), PEOPLE, 10), start=T0)
    shown = lobby("g2", OLD)
    shown.table_message_id = "m77"
    await store.save(shown)
    await store.save_chat_settings(OLD, ChatSettings(language="zh", turn_timer=45))
    await store.save_chat_preset(OLD, ChatPreset("Party", {"preset": "house"}, "ana"))
    await store.add_notify_request(OLD, "bo", "Bo", "en")
    ana_before = await store.player_rating("telegram", "ana", OLD, last)
    stats_before = await store.stats("telegram", "ana", OLD)

    assert await store.move_chat(OLD, NEW) is True

    open_game = await store.load(NEW)
    assert open_game is not None and open_game.game_id == "g2" and open_game.chat == NEW
    assert open_game.table_message_id is None  # a message of the old chat: posted anew
    assert await store.load(OLD) is None
    assert (await store.get("g1")).chat == NEW
    assert (await store.last_game(NEW)).game_id == "g2"
    settings = await store.chat_settings(NEW)
    assert (settings.language, settings.turn_timer) == ("zh", 45)
    assert [p.name for p in await store.chat_presets(NEW)] == ["Party"]
    assert await store.chat_presets(OLD) == []
    assert await store.take_notify_requests(NEW) == [("bo", "Bo", "en")]
    assert await store.stats("telegram", "ana", NEW) == stats_before
    assert (await store.stats("telegram", "ana", OLD)).games == 0
    ana = await store.player_rating("telegram", "ana", NEW, last)
    assert ana.rated is not None and ana.rated.mu == ana_before.rated.mu
    assert ana.season == ana_before.season and ana.trend == ana_before.trend
    assert (await store.player_rating("telegram", "ana", OLD, last)).rated is None
    table = await store.rating_table("telegram", NEW, last)
    assert {row.user_id for row in table.rows} == {"ana", "bo"} and table.season == 1
    assert (await store.rating_table("telegram", OLD, last)).season is None
    assert (await store.rating_table("telegram", OTHER, last)).season == 1
    assert [r.game_id for r in await store.game_results("g1")] and \
        all(r.chat == NEW for r in await store.game_results("g1"))
    assert (await store.get("g9")).chat == OTHER
    # A save of the moved game goes on from the version it had.
    open_game.seats.append(Seat("bo", "Bo", "en"))
    saved = await store.save(open_game)
    assert (await store.load(NEW)).version == saved.version
    # Nothing left under the old id: moving again moves nothing.
    assert await store.move_chat(OLD, NEW) is False


async def test_the_old_chats_rows_win_and_an_open_game_is_not_doubled(store):
    await store.save_chat_settings(OLD, ChatSettings(language="zh"))
    await store.save_chat_settings(NEW, ChatSettings(language="en", turn_timer=30))
    await store.save_chat_preset(OLD, ChatPreset("Party", {"preset": "house"}, "ana"))
    await store.save_chat_preset(NEW, ChatPreset("party", {"preset": "official"}, "bo"))
    await store.save_chat_preset(NEW, ChatPreset("calm", {"preset": "official"}, "bo"))
    await store.add_notify_request(OLD, "bo", "Bo", "zh")
    await store.add_notify_request(NEW, "bo", "Bo", "en")
    await store.add_notify_request(NEW, "cy", "Cy", "en")
    await store.save(lobby("g1", OLD))
    await store.save(lobby("g2", NEW))

    assert await store.move_chat(OLD, NEW) is True

    assert (await store.chat_settings(NEW)).language == "zh"
    assert [(p.name, p.created_by) for p in await store.chat_presets(NEW)] == \
        [("calm", "bo"), ("Party", "ana")]
    assert sorted(await store.take_notify_requests(NEW)) == [("bo", "Bo", "zh"), ("cy", "Cy", "en")]
    assert (await store.load(NEW)).game_id == "g2"  # the one open there already
    assert (await store.load(OLD)).game_id == "g1"  # left where it was
