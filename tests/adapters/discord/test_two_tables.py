"""Two tables at once on Discord, with the real discord.py against the fake: each table in a
thread of its own (table message, pings and buttons there); without the right to open
threads, both tables in the channel, each with its own table message."""

from __future__ import annotations

from bot.coordinator.ports import ChatSettings

from .fake_discord import FakeUser
from .players import CHAT, Table

ANA, BO = FakeUser(101, "Ana", admin=True), FakeUser(102, "Bo")
USERS = {str(u.id): u for u in (ANA, BO)}


async def start_two_tables(bot) -> None:
    await bot.store.save_chat_settings(CHAT, ChatSettings(overrides={"rotation": True, "tables": 2},
                                                          reaction_window=0))
    await bot.slash(ANA, "new")
    assert "joined" in (await bot.press_table(BO, "join")).callback["data"]["content"]
    for _ in range(6):
        await bot.press_table(ANA, "ai")
    await bot.press_table(ANA, "start")


async def test_each_table_plays_in_its_own_thread(bot, fake):
    await start_two_tables(bot)
    assert [t["name"] for t in fake.threads.values()] == ["UNO table 1", "UNO table 2"]
    assert all(t["parent_id"] == "1000" for t in fake.threads.values())
    threads = list(fake.threads)
    for number, thread in enumerate(threads, 1):
        embed = bot.table_message(thread)["embeds"][0]
        assert f"table {number}" in embed.get("title", "") + embed.get("description", "")
    notices = [m["content"] for m in fake.channel_messages() if m["content"]]
    assert any("two tables at once" in n for n in notices)
    # a person plays their hand from their table's thread, through its buttons
    hub = await bot.store.load(CHAT)
    games = hub.two_tables.games
    records = [await bot.store.get(g) for g in games]
    seated = next(r for r in records if any(s.user_id == str(ANA.id) for s in r.seats))
    table = Table(bot, USERS, channel_id=int(seated.chat.chat_id))
    before = (await bot.store.get(seated.game_id)).version
    turns = 0
    for _ in range(20):
        current = bot.current_player_id(table.channel_id)
        if current not in USERS or turns >= 2:
            break
        await table.take_turn(USERS[current], use_slash=turns == 1)  # a button, then /uno play
        turns += 1
    assert turns >= 1
    assert (await bot.store.get(seated.game_id)).version > before
    bot.assert_no_errors()


async def test_without_threads_both_tables_share_the_channel(bot, fake):
    fake.no_threads = True
    await start_two_tables(bot)
    assert not fake.threads
    tables = [m for m in fake.channel_messages() if m.get("embeds") and "table" in
              (m["embeds"][0].get("title", "") + m["embeds"][0].get("description", ""))]
    titles = " ".join(m["embeds"][0].get("title", "") + m["embeds"][0].get("description", "") for m in tables)
    assert "table 1" in titles and "table 2" in titles
    assert len({m["id"] for m in tables}) >= 2
