"""Turn timers publishing outside any interaction, Chinese clients, and a restart on SQLite."""

from __future__ import annotations

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness
from .players import CHAT, Table
from .test_game import USERS, open_game


async def test_a_turn_timeout_edits_the_table_without_any_interaction(bot, fake):
    await open_game(bot)
    table_id = bot.table_message()["id"]
    idle = bot.current_player_id()
    posts_before = fake.count_requests("POST", r"/channels/\d+/messages")
    await bot.clock.advance(61)  # the default 60 s turn timer runs out: draw and pass for them
    # the turn passed: the table went out anew, mentioning the next player, the old one deleted
    assert fake.count_requests("POST", r"/channels/\d+/messages") > posts_before
    assert bot.current_player_id() != idle
    await bot.app.chat_port.settled()  # the old table is deleted beside the delivery
    assert int(table_id) not in fake.messages


async def test_a_chinese_client_gets_chinese_answers_and_hand(bot, fake):
    await open_game(bot)
    zh = FakeUser(120, "Li", locale="zh-CN")
    record = await bot.slash(zh, "hand")  # not seated: a refusal, in Chinese
    assert any("\u4e00" <= ch <= "\u9fff" for ch in record.callback["data"]["content"])
    record = await bot.slash(zh, "help")
    assert record.callback["data"]["flags"] & EPHEMERAL


async def test_restart_on_sqlite_keeps_the_game_and_its_buttons(fake, tmp_path):
    from storage import open_store

    url = f"sqlite+aiosqlite:///{tmp_path / 'uno.db'}"
    store = await open_store(url)
    first = BotHarness(fake, store)
    await first.start()
    try:
        await open_game(first)
        table = Table(first, USERS)
        await table.take_turn(USERS[first.current_player_id()], use_slash=False)
        current = USERS[first.current_player_id()]
        hand = await table.hand_message(current, fresh=False)
        before = await store.load(CHAT)
    finally:
        await first.stop()
        await store.close()
    first.assert_no_errors()

    store = await open_store(url)  # a new process: new store, bot and coordinator
    second = BotHarness(fake, store)
    await second.start()
    try:
        button = next(c for h, c in second.hand_buttons(fake.messages[int(hand["id"])])
                      if h.action in ("p", "d") and not c.get("disabled"))
        record = await second.click(current, int(hand["id"]), button["custom_id"])
        assert record.callback_type == 7
        after = await store.load(CHAT)
        assert after.version > before.version
        assert after.table_message_id in (before.table_message_id, second.table_message()["id"])
    finally:
        await second.stop()
        await store.close()
    second.assert_no_errors()
