"""The bot's membership of a server: joining, it says hello where the server greets newcomers,
in its language (where it may write nowhere, it says nothing); removed from the server, or its
channel deleted, the games there stop."""

from __future__ import annotations

import asyncio

import pytest

from adapters.discord.membership import greeting_channel

from .fake_discord import ALL_PERMISSIONS, FakeDiscord, FakeUser
from .players import CHAT
from .test_game import ANA, open_game
from .test_two_tables import start_two_tables

NEW_GUILD = 950
GUEST = FakeUser(152, "Guest")
LI = FakeUser(151, "Li", locale="zh-CN")
SYSTEM, OTHER = 2000, 2001


def joined_guild(fake: FakeDiscord, *, locale: str, system: int | None, send: bool = True) -> dict:
    payload = fake._guild_payload()
    del payload["unavailable"]  # a server joined, not one that comes back: no such key
    gid = str(NEW_GUILD)
    payload.update(id=gid, name="New Club", preferred_locale=locale, system_channel_id=
                   str(system) if system else None)
    payload["roles"] = [{**payload["roles"][0], "id": gid,
                         "permissions": payload["roles"][0]["permissions"] if send else str(0x400)}]
    payload["channels"] = [{**payload["channels"][0], "id": str(c), "name": f"c{c}", "position": i,
                            "guild_id": gid} for i, c in enumerate((OTHER, SYSTEM))]
    return payload


@pytest.mark.parametrize("locale, hello", [("en-US", "Hello! I host UNO games: "),
                                           ("zh-CN", "大家好！我在这里主持UNO游戏：")])
async def test_joining_a_server_it_greets_in_its_system_channel(bot, fake, locale, hello):
    await fake.dispatch("GUILD_CREATE", joined_guild(fake, locale=locale, system=SYSTEM))
    await fake.wait_for(lambda: fake.channel_messages(SYSTEM), timeout=5)
    (greeting,) = fake.channel_messages(SYSTEM)
    assert greeting["content"].startswith(hello)
    (group,) = fake.commands
    assert f"</uno new:{group['id']}>" in greeting["content"] and f"</uno help:{group['id']}>" in greeting["content"]
    assert not fake.channel_messages(OTHER)


async def test_without_a_system_channel_it_greets_in_the_first_channel(bot, fake):
    await fake.dispatch("GUILD_CREATE", joined_guild(fake, locale="en-US", system=None))
    await fake.wait_for(lambda: fake.channel_messages(OTHER), timeout=5)
    assert len(fake.channel_messages(OTHER)) == 1 and not fake.channel_messages(SYSTEM)


async def test_where_it_may_not_write_it_finds_nowhere_to_greet(bot, fake):
    await fake.dispatch("GUILD_CREATE", joined_guild(fake, locale="en-US", system=SYSTEM, send=False))
    client = bot.app.client
    await fake.wait_for(lambda: client.get_guild(NEW_GUILD) is not None, timeout=5)
    assert greeting_channel(client.get_guild(NEW_GUILD)) is None


async def wait_stopped(bot, fake, game_id: str) -> None:
    async def stopped() -> bool:
        record = await bot.store.get(game_id)
        return record is not None and record.status == "stopped"

    for _ in range(500):  # a condition polled, five seconds at most
        if await stopped():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the game did not stop")


async def test_removed_from_the_server_its_games_stop(bot, fake):
    await open_game(bot)
    game_id = (await bot.store.load(CHAT)).game_id
    await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild_id)})  # no "unavailable": removed
    await wait_stopped(bot, fake, game_id)
    assert await bot.store.load(CHAT) is None


async def test_a_deleted_channel_stops_its_game(bot, fake):
    await open_game(bot)
    game_id = (await bot.store.load(CHAT)).game_id
    channel = fake._guild_payload()["channels"][0]
    await fake.dispatch("CHANNEL_DELETE", {**channel, "guild_id": str(fake.guild_id)})
    await wait_stopped(bot, fake, game_id)


async def test_a_game_is_not_opened_where_the_bot_may_not_post(bot, fake):
    fake.app_permissions = str(0x400 | 0x4000)  # View Channel, Embed Links: no Send Messages
    record = await bot.slash(GUEST, "new")
    assert record.callback["data"]["content"] == (
        "I cannot show a game here: a server admin must allow me Send Messages in this channel.")
    assert await bot.store.load(CHAT) is None
    fake.app_permissions = str(0x400)
    record = await bot.slash(LI, "new")
    assert record.callback["data"]["content"] == "我无法在这里显示游戏：需要服务器管理员在本频道允许我发送消息、嵌入链接。"
    # Permissions Discord did not give (0): no refusal on a guess; the game opens.
    fake.app_permissions = "0"
    assert (await bot.slash(GUEST, "new")).callback["data"]["content"] != record.callback["data"]["content"]
    assert await bot.store.load(CHAT) is not None


async def test_a_game_whose_channel_took_the_bots_rights_answers_with_why(bot, fake):
    await open_game(bot)
    fake.app_permissions = str(0x400 | 0x4000)  # Send Messages taken away mid-game
    record = await bot.slash(ANA, "hand")
    assert record.callback["data"]["content"].startswith(
        "I cannot show a game here: a server admin must allow me Send Messages in this channel.")
    fake.app_permissions = ALL_PERMISSIONS
    record = await bot.slash(ANA, "hand")
    assert "cannot show a game" not in (record.callback["data"]["content"] or "")


async def test_a_deleted_table_thread_stops_the_whole_match(bot, fake):
    await start_two_tables(bot)
    hub = await bot.store.load(CHAT)
    thread_id, thread = next(iter(fake.threads.items()))
    await fake.dispatch("THREAD_DELETE", {"id": str(thread_id), "guild_id": str(fake.guild_id),
                                          "parent_id": thread["parent_id"], "type": 11})
    await wait_stopped(bot, fake, hub.game_id)
    for game_id in hub.two_tables.games:
        assert not (await bot.store.get(game_id)).active


async def test_a_deleted_channel_reads_only_its_own_game(bot, fake, monkeypatch):
    """Its game is found by its chat: the games of every other channel are not read."""
    await open_game(bot)
    game_id = (await bot.store.load(CHAT)).game_id

    async def every_game():
        raise AssertionError("every active game read for one channel")
    monkeypatch.setattr(bot.store, "active_games", every_game)
    channel = fake._guild_payload()["channels"][0]
    await fake.dispatch("CHANNEL_DELETE", {**channel, "guild_id": str(fake.guild_id)})
    await wait_stopped(bot, fake, game_id)
