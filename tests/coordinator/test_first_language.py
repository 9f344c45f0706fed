"""A new chat speaks the language of whoever opens its first game; later openers change
nothing, and a chat whose language was chosen keeps it."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey, User

from .conftest import Harness

ZH = User("z1", "小明", locale="zh-hans")
EN = User("e1", "Ann", locale="en")


async def test_the_first_opener_sets_a_new_chats_language(h: Harness) -> None:
    assert (await h.store.chat_settings(h.key)).new
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).meta["language"] == "zh_CN"
    assert h.chat.public[-1][1].locale == "zh_CN"  # the lobby speaks Chinese
    settings = await h.store.chat_settings(h.key)
    assert settings.language == "zh_CN" and not settings.new
    assert (await h.do(cmds.StopGame, ZH)).ok
    assert (await h.do(cmds.NewGame, EN)).ok  # a later opener does not switch the chat
    assert (await h.record()).meta["language"] == "zh_CN"


async def test_an_english_first_opener_fixes_english(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, EN)).ok
    assert (await h.do(cmds.StopGame, EN)).ok
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).meta["language"] == "en"


async def test_a_chosen_language_is_kept(h: Harness) -> None:
    admin = User("a1", "Admin", is_admin=True)
    assert (await h.do(cmds.SetLanguage, admin, language="en", scope="chat")).ok
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).meta["language"] == "en"


async def test_each_chat_decides_for_itself(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, ZH)).ok
    other = ChatKey("telegram", "-200")
    assert (await h.coordinator.handle(cmds.NewGame(other, EN))).ok
    assert (await h.store.chat_settings(other)).language == "en"
    assert (await h.store.chat_settings(h.key)).language == "zh_CN"
