"""Every setting can be seen and changed through ChangeSettings, and a bad one is refused in
the player's language, naming what is allowed."""

from __future__ import annotations

from dataclasses import fields

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.setting_schema import all_settings, current_values, setting
from bot.engine.rules import RuleSet
from bot.i18n import format_text

from .conftest import Harness, user

ADMIN = user(1, is_admin=True)


def shown(value) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def test_the_schema_covers_every_rule_field():
    names = [s.name for s in all_settings()]
    assert {f.name for f in fields(RuleSet)} <= set(names)
    assert {"preset", "language", "turn_timer", "afk_policy", "reaction_window"} <= set(names)
    for item in all_settings():
        assert item.suggestions(), item.name  # every setting has values a picker can offer


@pytest.mark.parametrize("item", [s for s in all_settings() if s.name != "preset"], ids=lambda s: s.name)
async def test_every_setting_can_be_changed(h: Harness, item) -> None:
    current = current_values(await h.store.chat_settings(h.key))[item.name]
    value = next(v for v in item.suggestions() if v != shown(current))
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={item.name: value})
    assert reply.ok, reply
    got = current_values(await h.store.chat_settings(h.key))[item.name]
    assert shown(got) == value
    assert any(t.params.get("rule") is not None for t in reply.lines)


@pytest.mark.parametrize(("changes", "english", "chinese"), [
    ({"team_size": "9"}, "team_size cannot be 9: it must be a whole number from 2 to 5.",
     "team_size不能设为9：只能是2到5之间的整数。"),
    ({"first_wild": "later"}, "first_wild cannot be later: it must be one of dealer_names (the dealer "
     "names the colour), first_player_names (the first player names the colour, then plays), "
     "any_card (the first player plays any card).",
     "first_wild不能设为later：只能是以下之一：dealer_names（由发牌人指定颜色）、first_player_names"
     "（首位玩家指定颜色后出牌）、any_card（第一位玩家可出任意牌）。"),
    # Each choice as typed, named in the reader's language where the name says more.
    ({"stacking": "all"}, "stacking cannot be all: it must be one of off, same (same kind), "
     "progressive, by_value.",
     "stacking不能设为all：只能是以下之一：off（关）、same（同类叠加）、progressive（累进叠加）、by_value（按值叠加）。"),
    ({"uno_identical": "maybe"}, "uno_identical cannot be maybe: it must be on or off.",
     "uno_identical不能设为maybe：只能是开或关（on/off）。"),
    ({"turn_timer": "2"}, "turn_timer cannot be 2: it must be 0 (off) or 5 to 3600.",
     "turn_timer不能设为2：只能是0（关闭）或5到3600。"),
])
async def test_a_bad_value_names_what_is_allowed(h: Harness, changes, english, chinese) -> None:
    before = await h.store.chat_settings(h.key)
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes=changes)
    assert (reply.ok, reply.error) == (False, "bad_setting")
    assert format_text(reply.text, "en") == english
    assert format_text(reply.text, "zh_CN") == chinese
    assert await h.store.chat_settings(h.key) == before


async def test_an_unknown_setting_lists_the_settings(h: Harness) -> None:
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={"colour_blind": "on"})
    assert reply.error == "bad_setting"
    text = format_text(reply.text, "zh_CN")
    assert "没有名为“colour_blind”的设置" in text and "wd4_rule" in text and "team_size" in text


def test_names_are_forgiving():
    assert setting("Team-Size").name == "team_size"
    assert setting(" first wild ").name == "first_wild"


def test_ranges_and_choices_come_from_the_engines_field_specs():
    """Each rule field declares what it accepts once, beside RuleSet: the schema reads it."""
    assert (setting("hand_size").low, setting("hand_size").high) == (1, 20)
    assert (setting("team_size").low, setting("team_size").high) == (2, 5)
    assert setting("stacking").choices == ("off", "same", "progressive", "by_value")
    assert setting("first_wild").choices == ("dealer_names", "first_player_names", "any_card")


async def test_a_choice_may_be_named_as_the_settings_show_it(h: Harness) -> None:
    """"规则：房规" on the settings list: 房规 (or "house rules") is the house preset when typed."""
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "房规"})
    assert reply.ok, reply
    assert (await h.store.chat_settings(h.key)).preset == "house"
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"stacking": "关"})).ok
    assert current_values(await h.store.chat_settings(h.key))["stacking"] == "off"
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "Official"})).ok
    assert (await h.store.chat_settings(h.key)).preset == "official"
    refused = await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "房"})
    assert refused.error == "bad_setting"


@pytest.mark.parametrize(("typed", "key"), [
    ("发牌数", "hand_size"), ("Cards dealt", "hand_size"), ("cards DEALT", "hand_size"),
    ("回合计时", "turn_timer"), ("Turn timer", "turn_timer"),  # the words before the parenthesis
    ("回合计时（秒，0为关闭）", "turn_timer"), ("叠加+2/+4", "stacking"), ("语言", "language"),
])
def test_a_setting_may_be_named_by_its_label_in_either_language(typed: str, key: str) -> None:
    assert setting(typed).name == key


async def test_settings_named_as_the_list_shows_them_change_as_their_keys_do(h: Harness) -> None:
    """"发牌数：7" and "叠加+2/+4：关" on the Chinese list: typed back, they change those settings;
    a game setting named in Chinese may change while a game runs, as by its key."""
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={"发牌数": "5", "叠加+2/+4": "同类叠加"})
    assert reply.ok, reply
    values = current_values(await h.store.chat_settings(h.key))
    assert (values["hand_size"], values["stacking"]) == (5, "same")
    refused = await h.do(cmds.ChangeSettings, ADMIN, changes={"抢": "关"})
    assert refused.error == "bad_setting" and "There is no setting" in refused.text.msgid
    await h.start(3)
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"语言": "中文"})).ok
    assert (await h.store.chat_settings(h.key)).language == "zh_CN"
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"发牌数": "6"})).error is not None
