"""Discord: /uno preset save|list|use|delete|share through the real discord.py against the
fake Discord; a code made on Telegram's side (any chat) is pasted here; refusals localised."""

from __future__ import annotations

import re

from bot.coordinator import ChatSettings, apply_changes, encode_preset_code
from bot.coordinator.preset_codes import carried

from .fake_discord import FakeUser
from .players import CHAT

CODE = re.compile(r"\bUNO[A-Z2-7]+\b")
BOSS = FakeUser(150, "Boss", admin=True)
LI = FakeUser(151, "Li", locale="zh-CN", admin=True)
GUEST = FakeUser(152, "Guest")


def said(record) -> str:
    data = record.callback["data"]
    return "\n".join([data.get("content") or ""] + [e.get("description") or "" for e in data.get("embeds") or []])


async def test_the_preset_group_is_registered_in_both_languages(bot, fake):
    (group,) = fake.commands
    preset = next(o for o in group["options"] if o["name"] == "preset")
    assert preset["type"] == 2 and preset["name_localizations"]["zh-CN"] == "预设"
    subs = {o["name"]: o for o in preset["options"]}
    assert set(subs) == {"save", "list", "use", "delete", "share"}
    for sub in subs.values():
        assert sub["type"] == 1 and sub["name_localizations"]["zh-CN"] != sub["name"]
        assert any("\u4e00" <= ch <= "\u9fff" for ch in sub["description_localizations"]["zh-CN"])
        assert len(sub["description"]) <= 100
    assert [o["name"] for o in subs["use"]["options"]] == ["name_or_code"]


async def test_presets_on_discord(bot, fake):
    assert "Settings saved" in said(await bot.slash(BOSS, "settings", key="jump_in", value="on"))
    saved = await bot.slash(BOSS, "preset save", name="Party")
    assert "Party" in said(saved) and "saved" in said(saved) and CODE.search(said(saved))
    assert "Party" in said(await bot.slash(GUEST, "preset list"))
    code = CODE.search(said(await bot.slash(GUEST, "preset share", name="party"))).group(0)
    await bot.slash(BOSS, "settings", key="preset", value="house")
    assert "Now playing by preset" in said(await bot.slash(BOSS, "preset use", name_or_code="PARTY"))
    assert (await bot.store.chat_settings(CHAT)).overrides == {"jump_in": True}
    # A code from a Telegram group works here too, and by /uno settings key:preset value:CODE.
    elsewhere = apply_changes(ChatSettings(), {"preset": "house", "hand_size": 5})
    telegram_code = encode_preset_code(carried(elsewhere))
    assert "shared preset" in said(await bot.slash(BOSS, "preset use", name_or_code=telegram_code))
    assert (await bot.store.chat_settings(CHAT)).overrides == {"hand_size": 5}
    await bot.slash(BOSS, "settings", key="preset", value=code)
    assert (await bot.store.chat_settings(CHAT)).overrides == {"jump_in": True}
    assert "deleted" in said(await bot.slash(BOSS, "preset delete", name="party"))
    assert await bot.store.chat_presets(CHAT) == []


async def test_refusals_on_discord_in_both_languages(bot, fake):
    await bot.slash(LI, "preset save", name="家规")
    before = (await bot.store.chat_settings(CHAT), await bot.store.chat_presets(CHAT))
    code = CODE.search(said(await bot.slash(LI, "preset share"))).group(0)
    assert "Only a chat admin" in said(await bot.slash(GUEST, "preset save", name="mine"))
    assert "damaged" in said(await bot.slash(BOSS, "preset use", name_or_code=code[:-2]))
    assert "损坏" in said(await bot.slash(LI, "preset use", name_or_code=code[:-2]))
    assert "损坏" in said(await bot.slash(LI, "settings", key="preset", value=code + "A"))
    assert "预设名称" in said(await bot.slash(LI, "preset save", name="two words"))
    assert "家规" in said(await bot.slash(LI, "preset delete", name="别的"))
    assert (await bot.store.chat_settings(CHAT), await bot.store.chat_presets(CHAT)) == before
