"""Saved presets through the coordinator: who may save, use and delete them, names and limits,
codes pasted in from anywhere, and refusals that change nothing."""

from __future__ import annotations

import pytest

from bot.coordinator import PRESETS_PER_CHAT, ChatKey, preset_command
from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.i18n import format_text

from .conftest import Harness, user

ADMIN = User("u50", "Admin", is_admin=True)
ANYONE = User("u60", "Anyone")


def said(reply, locale: str = "en") -> str:
    return "\n".join(format_text(t, locale, isolate_names=False) for t in (reply.text, *reply.lines) if t is not None)


async def house_night(h: Harness) -> None:
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={
        "preset": "house", "stacking": "same", "turn_timer": 90})
    assert reply.ok


async def test_save_list_use_delete(h: Harness) -> None:
    await house_night(h)
    saved = await h.do(cmds.SavePreset, ADMIN, name="Party")
    assert saved.ok and "Preset Party saved: house rules, 2 changes." in said(saved)
    assert "Its share code: UNO" in said(saved)
    await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "official"})
    listed = await h.do(cmds.ListPresets, ANYONE)
    assert "Party:" in said(listed) and "2 changes" in said(listed)
    used = await h.do(cmds.UsePreset, ADMIN, name="party")  # any case
    assert used.ok and "Now playing by preset Party." in said(used)
    settings = await h.store.chat_settings(h.key)
    assert (settings.preset, settings.overrides, settings.turn_timer) == ("house", {"stacking": "same"}, 90)
    deleted = await h.do(cmds.DeletePreset, ADMIN, name="PARTY")
    assert deleted.ok and await h.store.chat_presets(h.key) == []
    assert "No preset is saved here yet" in said(await h.do(cmds.ListPresets, ANYONE))


async def test_a_share_code_moves_the_rules_to_another_chat_on_another_platform(h: Harness) -> None:
    await house_night(h)
    await h.do(cmds.SavePreset, ADMIN, name="night")
    shared = await h.do(cmds.SharePreset, ANYONE, name="NIGHT")
    code = format_text(shared.lines[0], "en")
    assert shared.ok and code.startswith("UNO") and "preset use CODE" in said(shared)
    assert format_text((await h.do(cmds.SharePreset, ANYONE)).lines[0], "en") == code  # current settings
    h.key = ChatKey("discord", "42")
    used = await h.do(cmds.UsePreset, ADMIN, name=code.lower())
    assert used.ok and "shared preset" in said(used)
    there = await h.store.chat_settings(h.key)
    assert (there.preset, there.overrides, there.turn_timer) == ("house", {"stacking": "same"}, 90)
    h.key = ChatKey("console", "local")
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": code, "hand_size": 5})).ok
    console = await h.store.chat_settings(h.key)
    assert console.overrides == {"stacking": "same", "hand_size": 5}  # the rest of the request after the code


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
async def test_bad_input_is_refused_and_changes_nothing(h: Harness, locale) -> None:
    who = User("u50", "Admin", is_admin=True, locale=locale)
    await house_night(h)
    await h.do(cmds.SavePreset, who, name="keep")
    before = (await h.store.chat_settings(h.key), await h.store.chat_presets(h.key))
    code = format_text((await h.do(cmds.SharePreset, who, name="keep")).lines[0], "en")
    attempts = [
        (cmds.SavePreset, {"name": "has space"}, "bad_preset_name"),
        (cmds.SavePreset, {"name": "x" * 25}, "bad_preset_name"),
        (cmds.SavePreset, {"name": "unofficial"}, "bad_preset_name"),
        (cmds.SavePreset, {"name": ""}, "bad_preset_name"),
        (cmds.UsePreset, {"name": "missing"}, "unknown_preset"),
        (cmds.DeletePreset, {"name": "missing"}, "unknown_preset"),
        (cmds.SharePreset, {"name": "missing"}, "unknown_preset"),
        (cmds.UsePreset, {"name": code[:-4]}, "bad_code"),
        (cmds.UsePreset, {"name": code[:-1] + ("A" if code[-1] != "A" else "B")}, "bad_code"),
        (cmds.ChangeSettings, {"changes": {"preset": code[:12]}}, "bad_code"),
        (cmds.SavePreset, {"name": "other"}, "admins_only"),  # no game open: no creator
    ]
    for command, kw, error in attempts:
        person = ANYONE if error == "admins_only" else who
        reply = await h.do(command, person, **kw)
        assert (reply.ok, reply.error) == (False, error), (command, kw)
        text = said(reply, locale)
        assert text and (locale == "en" or any("\u4e00" <= ch <= "\u9fff" for ch in text)), text
    assert "keep" in said(await h.do(cmds.UsePreset, who, name="missing"))  # names what there is
    for command in (cmds.UsePreset, cmds.DeletePreset):
        assert (await h.do(command, ANYONE, name="keep")).error == "admins_only"
    assert (await h.store.chat_settings(h.key), await h.store.chat_presets(h.key)) == before


async def test_a_chat_keeps_a_limited_number_of_presets(h: Harness) -> None:
    for n in range(PRESETS_PER_CHAT):
        assert (await h.do(cmds.SavePreset, ADMIN, name=f"p{n}")).ok
    refused = await h.do(cmds.SavePreset, ADMIN, name="one-more")
    assert refused.error == "too_many_presets" and str(PRESETS_PER_CHAT) in said(refused)
    assert (await h.do(cmds.SavePreset, ADMIN, name="P3")).ok  # replacing one is fine
    assert len(await h.store.chat_presets(h.key)) == PRESETS_PER_CHAT


async def test_presets_follow_the_settings_permission_and_the_running_game(h: Harness) -> None:
    people = await h.lobby(2)
    creator = people[0]
    assert (await h.do(cmds.SavePreset, creator, name="ours")).ok  # the open game's creator
    assert (await h.do(cmds.SavePreset, user(2), name="mine")).error == "not_allowed"
    assert (await h.do(cmds.SharePreset, user(2))).ok  # reading is for everyone
    await h.do(cmds.StartGame, creator)
    before = await h.store.chat_settings(h.key)
    refused = await h.do(cmds.UsePreset, creator, name="ours")
    assert refused.error == "game_running"
    # Why, and what to do instead: the rules hold to the game's end, or it is ended first.
    assert said(refused) == ("The game has already started: its rules cannot change until it is "
                             "over. Change them then, or end it first with /stop.")
    assert said(refused, "zh_CN") == "游戏已经开始了：规则要等这局结束后才能修改。届时再改，或先用/stop结束游戏。"
    assert await h.store.chat_settings(h.key) == before


async def test_a_lobby_takes_the_preset_at_once(h: Harness) -> None:
    await house_night(h)
    await h.do(cmds.SavePreset, ADMIN, name="night")
    await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "official"})
    people = await h.lobby(2)
    assert (await h.do(cmds.UsePreset, people[0], name="night")).ok
    record = await h.record()
    assert record.rules["stacking"] == "same" and record.options.preset == "house"


def test_typed_words_become_commands() -> None:
    chat, who = ChatKey("console", "local"), ANYONE
    assert isinstance(preset_command(chat, who, []), cmds.ListPresets)
    assert preset_command(chat, who, ["SAVE", "Party"]) == cmds.SavePreset(chat, who, name="Party")
    assert preset_command(chat, who, ["使用", "家规"]) == cmds.UsePreset(chat, who, name="家规")
    assert preset_command(chat, who, ["delete", "x"]) == cmds.DeletePreset(chat, who, name="x")
    assert preset_command(chat, who, ["share"]) == cmds.SharePreset(chat, who, name=None)
    for words in (["save"], ["use"], ["frobnicate", "x"], ["list", "x"]):
        usage = preset_command(chat, who, words)
        assert not isinstance(usage, cmds.Command) and "save NAME" in format_text(usage, "en")
