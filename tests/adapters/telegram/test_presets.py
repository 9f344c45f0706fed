"""/preset on Telegram, through the real Application and the fake Bot API: saved house rules
per group, a share code pasted into another group, refusals in both languages."""

from __future__ import annotations

import re

from bot.coordinator import ChatKey

from .conftest import ANA, BO, GROUP, Harness
from .fake_bot_api import TgUser

OTHER_GROUP = -100888
CODE = re.compile(r"\bUNO[A-Z2-7]+\b")
CHEN = TgUser(1005, "陈", language_code="zh-hans")  # a Chinese client


async def test_save_list_share_and_use_in_another_group(harness: Harness):
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id}
    harness.api.admins[OTHER_GROUP] = {ANA.id}
    assert "Settings saved" in await harness.ask(ANA, "/settings stacking=same")
    saved = await harness.ask(ANA, "/preset save Party")
    assert "Preset \u2068Party\u2069 saved" in saved and CODE.search(saved)
    listed = await harness.ask(BO, "/preset list")  # anyone may look
    assert "Presets of this chat" in listed and "Party" in listed and "1 change" in listed
    shared = await harness.ask(BO, "/preset share party")
    code = CODE.search(shared).group(0)
    used = await harness.ask(ANA, f"/preset use {code}", chat=OTHER_GROUP)
    assert "shared preset" in used
    there = await harness.store.chat_settings(ChatKey("telegram", str(OTHER_GROUP)))
    assert there.overrides == {"stacking": "same"}
    # /settings preset=CODE does the same; /preset use NAME works on the saved name.
    await harness.ask(ANA, "/settings preset=official", chat=OTHER_GROUP)
    assert "Settings saved" in await harness.ask(ANA, f"/settings preset={code.lower()}", chat=OTHER_GROUP)
    assert (await harness.store.chat_settings(ChatKey("telegram", str(OTHER_GROUP)))).overrides == {"stacking": "same"}
    assert "Now playing by preset" in await harness.ask(ANA, "/preset use PARTY")
    assert "deleted" in await harness.ask(ANA, "/preset delete party")


async def test_refusals_are_private_localised_and_change_nothing(harness: Harness):
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id, CHEN.id}
    assert "已保存" in await harness.ask(CHEN, "/preset save 家规")
    before = (await harness.store.chat_settings(ChatKey("telegram", str(GROUP))),
              await harness.store.chat_presets(ChatKey("telegram", str(GROUP))))
    not_allowed = await harness.ask(BO, "/preset save mine", privately=True)
    assert "Only a chat admin" in not_allowed and "no game is open" in not_allowed
    code = CODE.search(await harness.ask(CHEN, "/preset share 家规")).group(0)
    english = await harness.ask(ANA, f"/preset use {code[:-3]}", privately=True)
    assert "damaged or incomplete" in english
    damaged = await harness.ask(CHEN, f"/preset use {code[:-3]}", privately=True)
    assert "损坏" in damaged
    refused = await harness.ask(CHEN, f"/settings preset={code[:-2]}A", privately=True)
    assert "损坏" in refused
    bad_name = await harness.ask(CHEN, "/preset save uno-night", privately=True)
    assert "预设名称" in bad_name
    usage = await harness.ask(CHEN, "/preset frobnicate", privately=True)
    assert "save" in usage and "预设" in usage
    after = (await harness.store.chat_settings(ChatKey("telegram", str(GROUP))),
             await harness.store.chat_presets(ChatKey("telegram", str(GROUP))))
    assert after == before
    private = await harness.ask(CHEN, "/preset list", chat=CHEN.id)
    assert "群" in private
