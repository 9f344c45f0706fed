"""A new chat speaks the language of whoever opens its first game or first changes its
settings; later openers change nothing, and a chat whose language was chosen keeps it."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey, User

from .conftest import Harness

ZH = User("z1", "小明", locale="zh-hans")
EN = User("e1", "Ann", locale="en")


async def test_the_first_opener_sets_a_new_chats_language(h: Harness) -> None:
    assert (await h.store.chat_settings(h.key)).new
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).options.language == "zh_CN"
    assert h.chat.public[-1][1].locale == "zh_CN"  # the lobby speaks Chinese
    settings = await h.store.chat_settings(h.key)
    assert settings.language == "zh_CN" and not settings.new
    assert (await h.do(cmds.StopGame, ZH)).ok
    assert (await h.do(cmds.NewGame, EN)).ok  # a later opener does not switch the chat
    assert (await h.record()).options.language == "zh_CN"


async def test_an_english_first_opener_fixes_english(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, EN)).ok
    assert (await h.do(cmds.StopGame, EN)).ok
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).options.language == "en"


async def test_a_chosen_language_is_kept(h: Harness) -> None:
    admin = User("a1", "Admin", is_admin=True)
    assert (await h.do(cmds.SetLanguage, admin, language="en", scope="chat")).ok
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.record()).options.language == "en"


async def test_each_chat_decides_for_itself(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, ZH)).ok
    other = ChatKey("telegram", "-200")
    assert (await h.coordinator.handle(cmds.NewGame(other, EN))).ok
    assert (await h.store.chat_settings(other)).language == "en"
    assert (await h.store.chat_settings(h.key)).language == "zh_CN"


# What only one person sees follows their chosen language, else their client's; the chat's
# language is for what everyone sees, in either direction.

async def test_a_chinese_chat_answers_an_english_client_in_english(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, ZH)).ok
    joined = await h.do(cmds.Join, EN)
    assert joined.ok and joined.locale == "en"
    assert (await h.do(cmds.Join, EN)).locale == "en"  # a refusal (already seated) too
    assert (await h.do(cmds.StartGame, ZH)).ok
    assert h.chat.last_hand("e1").locale == "en"
    assert h.chat.last_hand("z1").locale == "zh_CN"
    assert h.chat.last_table().locale == "zh_CN"  # the table is the chat's


async def test_an_english_chat_answers_a_chinese_client_in_chinese(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, EN)).ok
    joined = await h.do(cmds.Join, ZH)
    assert joined.ok and joined.locale == "zh_CN"
    assert (await h.do(cmds.StartGame, EN)).ok
    assert h.chat.last_hand("z1").locale == "zh_CN"
    assert h.chat.last_hand("e1").locale == "en"
    assert h.chat.last_table().locale == "en"


async def test_a_chosen_language_wins_over_the_client(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, ZH)).ok
    assert (await h.do(cmds.SetLanguage, EN, language="zh_CN")).ok
    joined = await h.do(cmds.Join, EN)
    assert joined.ok and joined.locale == "zh_CN"
    zh_picks_english = await h.do(cmds.SetLanguage, ZH, language="en")
    assert zh_picks_english.ok and zh_picks_english.locale == "en"
    assert (await h.do(cmds.StartGame, ZH)).ok
    assert h.chat.last_hand("e1").locale == "zh_CN"
    assert h.chat.last_hand("z1").locale == "en"
    assert h.chat.last_table().locale == "zh_CN"


async def test_without_a_client_hint_the_chat_language_is_used(h: Harness) -> None:
    assert (await h.do(cmds.NewGame, ZH)).ok
    hintless = User("n1", "Nobody")
    assert (await h.do(cmds.Join, hintless)).locale == "zh_CN"


async def test_settings_changed_before_the_first_game_take_the_changers_language(h: Harness) -> None:
    admin = User("z2", "小红", locale="zh-hans", is_admin=True)
    changed = await h.do(cmds.ChangeSettings, admin, changes={"preset": "house"})
    assert changed.ok and changed.locale == "zh_CN"
    # the language came with the chat, not with the change: the answer names the rules only
    assert all(line.params["rule"].msgid != "Language" for line in changed.lines), changed.lines
    settings = await h.store.chat_settings(h.key)
    assert settings.language == "zh_CN" and settings.preset == "house" and not settings.new
    assert (await h.do(cmds.NewGame, EN)).ok  # an English opener after that changes nothing
    assert (await h.record()).options.language == "zh_CN"


async def test_a_language_set_with_the_first_settings_is_the_one_kept(h: Harness) -> None:
    admin = User("z2", "小红", locale="zh-hans", is_admin=True)
    assert (await h.do(cmds.ChangeSettings, admin, changes={"language": "en", "preset": "house"})).ok
    assert (await h.store.chat_settings(h.key)).language == "en"


async def test_a_language_changed_mid_game_repaints_the_table_at_once(h: Harness) -> None:
    u1, _u2 = await h.start(2)
    shown = len(h.chat.public)
    assert h.chat.last_table().locale == "en"
    assert (await h.do(cmds.SetLanguage, u1, language="zh", scope="chat")).ok
    assert len(h.chat.public) > shown  # no move needed
    assert h.chat.last_table().locale == "zh_CN"
