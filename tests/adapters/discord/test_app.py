"""Configuration, login, command registration (with Chinese localisations), sharding, the
information commands and hands too big for one message."""

from __future__ import annotations

import dataclasses

import pytest

from adapters.discord.app import DiscordApp, DiscordConfig, config_from_env
from adapters.discord.components import CARDS_PER_PAGE, hand_components, page_count
from adapters.discord.custom_ids import HandId, decode
from adapters.discord.slash import NAME_RE, ZH_NAMES
from bot.config import ConfigError
from bot.coordinator import Coordinator, FakeClock, MemoryStore
from bot.coordinator.views import CardOption, HandView
from bot.engine.cards import Card, Color, full_deck
from bot.i18n import gettext

from .fake_discord import EPHEMERAL, FakeUser
from .harness import BotHarness
from .players import CHAT
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import set_position


def test_config_requires_a_token():
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        config_from_env({})
    assert config_from_env({"DISCORD_TOKEN": " abc "}).token == "abc"


def test_config_shards():
    config = config_from_env({"DISCORD_TOKEN": "t", "DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_IDS": "0, 2"})
    assert config.sharded and config.shard_count == 4 and config.shard_ids == (0, 2)
    assert not config_from_env({"DISCORD_TOKEN": "t"}).sharded
    for bad in ({"DISCORD_SHARD_COUNT": "x"}, {"DISCORD_SHARD_IDS": "1"},
                {"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "2"}, {"DISCORD_SHARD_COUNT": "0"}):
        with pytest.raises(ConfigError):
            config_from_env({"DISCORD_TOKEN": "t", **bad})


async def test_rejected_token_is_a_config_error(fake):
    store = MemoryStore()
    app = DiscordApp(DiscordConfig(token="wrong", guild_ready_timeout=0.01),
                     lambda port: Coordinator(port, store, FakeClock(), ai_delay=0), store)
    with pytest.raises(ConfigError, match="rejected"):
        await app.start()


async def test_commands_are_registered_with_chinese_localisations(bot, fake):
    (group,) = fake.commands
    assert group["name"] == "uno"
    subs = {o["name"]: o for o in group["options"]}
    assert set(subs) == {"new", "join", "leave", "start", "hand", "play", "draw", "pass", "call",
                         "challenge", "stop", "kick", "settings", "rules", "stats", "top",
                         "language", "help", "notify", "cards", "preset", "log", "recap", "vote", "watch"}
    assert [o["name"] for o in subs["vote"]["options"]] == ["end"]  # /uno vote end
    for name, sub in subs.items():
        assert sub["name_localizations"]["zh-CN"] == ZH_NAMES[name]
        assert sub["description"].isascii()
    assert subs["new"]["description_localizations"]["zh-CN"] == gettext(subs["new"]["description"], "zh_CN")
    assert any("\u4e00" <= ch <= "\u9fff" for ch in subs["new"]["description_localizations"]["zh-CN"])
    assert all(NAME_RE.match(n) and n == n.lower() for n in ZH_NAMES.values())
    play_card = next(o for o in subs["play"]["options"] if o["name"] == "card")
    assert play_card["autocomplete"] is True and play_card["name_localizations"]["zh-CN"] == "牌"
    settings = {o["name"]: o for o in subs["settings"]["options"]}
    assert set(settings) == {"key", "value"}  # any number of settings, within 25 options
    assert settings["key"]["autocomplete"] is True and settings["value"]["autocomplete"] is True
    assert settings["key"]["name_localizations"]["zh-CN"] == "设置项"
    (theme,) = subs["cards"]["options"]
    assert theme["required"] and [c["value"] for c in theme["choices"]] == ["classic", "high_contrast"]
    assert all(any("\u4e00" <= ch <= "\u9fff" for ch in c["name_localizations"]["zh-CN"])
               for c in theme["choices"])


async def test_information_commands_answer_ephemerally(bot, fake):
    await open_game(bot)
    for sub, options in [("rules", {}), ("settings", {}), ("stats", {}), ("top", {}),
                         ("help", {}), ("language", {"language": "zh_CN"}), ("hand", {})]:
        record = await bot.slash(BO, sub, **options)
        message = fake.response_message(record)
        assert message["flags"] & EPHEMERAL, sub
        assert message["content"] or message["embeds"], sub
    rules = fake.response_message(await bot.slash(BO, "rules"))
    text = rules["embeds"][0]["description"]
    assert "UNO" in text and any("\u4e00" <= ch <= "\u9fff" for ch in text)  # English and Chinese
    # Bo chose Chinese for himself: his hand now speaks Chinese
    hand = fake.response_message(await bot.slash(BO, "hand"))
    assert any("\u4e00" <= ch <= "\u9fff" for ch in hand["embeds"][-1]["title"])


async def test_kick_and_stop_need_the_creator_or_an_admin(bot, fake):
    await open_game(bot)
    record = await bot.slash(BO, "kick", player=CY)
    assert record.callback["data"]["content"].startswith("⚠️")
    admin = FakeUser(150, "Mod", admin=True)
    record = await bot.slash(admin, "kick", player=CY)
    assert not record.callback["data"]["content"].startswith("⚠️")


async def test_kick_an_ai_seat_by_its_number_or_name(bot, fake):
    """AI seats are no members: /uno kick seat:3 or seat:<name> finds the seat as the table lists it."""
    await bot.slash(ANA, "new")
    for _ in range(2):
        await bot.press_table(ANA, "ai")
    second, third = (await bot.store.load(CHAT)).seats[1:3]
    listed = await fake.wait(await fake.autocomplete(ANA, "kick", "seat", ""))
    choices = listed.callback["data"]["choices"]
    assert [c["value"] for c in choices] == ["1", "2", "3"]
    assert choices[1]["name"] == f"2. {second.name} 🤖" and choices[0]["name"] == "1. Ana"
    typed = await fake.wait(await fake.autocomplete(ANA, "kick", "seat", third.name.lower()))
    assert [c["value"] for c in typed.callback["data"]["choices"]] == ["3"]
    record = await bot.slash(ANA, "kick")
    assert "Say whom to remove" in record.callback["data"]["content"]
    await bot.slash(ANA, "kick", seat="2")
    assert [s.user_id for s in (await bot.store.load(CHAT)).seats] == [str(ANA.id), third.user_id]
    await bot.slash(ANA, "kick", seat=third.name.upper())
    assert [s.user_id for s in (await bot.store.load(CHAT)).seats] == [str(ANA.id)]
    assert second.ai and third.ai


async def test_a_huge_hand_is_paged(bot, fake):
    await open_game(bot)
    a, b, c = (str(u.id) for u in USERS.values())
    deck = [str(card) for card in full_deck()]
    big = list(dict.fromkeys(deck))[:30]  # 30 distinct cards
    await set_position(bot, {a: big, b: ["G7"], c: ["B2"]}, ["R3"], a)
    record = await bot.slash(ANA, "hand")
    message = fake.response_message(record)
    buttons = list(fake.iter_components(message))
    assert len(message["components"]) <= 5 and all(len(r["components"]) <= 5 for r in message["components"])
    assert len([b for b in buttons if decode(b["custom_id"]).action in ("p", "w", "s", "m")]) == CARDS_PER_PAGE
    more = next(b for b in buttons if decode(b["custom_id"]).action == "pg")
    await bot.click(ANA, int(message["id"]), more["custom_id"])
    page2 = fake.messages[int(message["id"])]
    cards2 = [decode(b["custom_id"]) for b in fake.iter_components(page2)
              if decode(b["custom_id"]).action in ("p", "w", "s", "m")]
    assert len(cards2) == 10 and all(h.page == 1 for h in cards2)
    assert "Page 2 of 2" in page2["embeds"][0]["footer"]["text"]


def test_hand_layout_limits_for_any_size():
    cards = tuple(CardOption(card, i % 2 == 0) for i, card in enumerate(full_deck()))
    view = HandView("abc123", "en", "1", cards, Card(Color.RED, full_deck()[1].rank), Color.RED, True, 0,
                    True, False, False, False, ())
    assert page_count(view) == 3  # 54 distinct cards, 20 a page
    for page in range(page_count(view)):
        rows = hand_components(view, "1", page).to_components()
        assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
        ids = [c["custom_id"] for row in rows for c in row["components"]]
        assert all(len(i) <= 100 for i in ids)
        assert len(ids) == len(set(ids))  # Discord refuses duplicate custom_ids
    over = hand_components(dataclasses.replace(view, hand_over=True), "1").to_components()
    assert all(c["disabled"] for row in over for c in row["components"])


async def test_sharded_bot_connects_and_plays(fake):
    store = MemoryStore()
    harness = BotHarness(fake, store)
    harness_config = DiscordConfig(token=fake.token, shard_count=2, shard_ids=(0,), guild_ready_timeout=0.01)
    app = DiscordApp(harness_config, harness.make_coordinator, store, on_error=harness.errors.append)
    await app.start()
    try:
        await app.wait_ready()
        # this process runs shard 0 of 2 (the one owning the guild); a second process runs 1
        assert [i["shard"] for i in fake.identifies] == [[0, 2]]
        harness.app = app
        record = await harness.slash(ANA, "new")
        assert record.callback["data"]["flags"] & EPHEMERAL
        assert harness.table_message()
    finally:
        await app.stop()
    assert not harness.errors


def test_hand_id_round_trip():
    hand_id = HandId("ab12", "123", 1, "c", "W+4.R")
    assert decode(hand_id.encode()) == hand_id
    assert decode("uno:h:ab12:123:1:zz") is None and decode("other:thing") is None
    assert BO.id != CY.id


async def test_serve_runs_until_cancelled_and_rejects_a_bad_token(fake):
    import asyncio

    from adapters.discord.app import serve

    store = MemoryStore()

    def make(port):
        return Coordinator(port, store, FakeClock(), ai_delay=0)

    with pytest.raises(ConfigError):
        await serve(DiscordConfig(token="nope", guild_ready_timeout=0.01), make, store)
    task = asyncio.create_task(serve(DiscordConfig(token=fake.token, guild_ready_timeout=0.01), make, store))
    try:
        await fake.wait_for(lambda: bool(fake.identifies) and bool(fake.commands), timeout=10)
        record = await fake.slash(ANA, "new")
        await fake.wait(record, timeout=10)
        assert "Game created" in record.callback["data"]["content"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled() or task.done()
