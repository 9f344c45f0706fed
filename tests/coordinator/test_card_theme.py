"""The per-user card theme: stored in the profile, carried by the seat into every hand view,
changed at once in every game the player sits in; public views know nothing of it."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey, UserProfile
from bot.coordinator.views import CARD_THEMES
from bot.i18n import translate
from bot.render.images import Theme

from .conftest import Harness, user


def test_the_coordinator_names_the_renderers_themes() -> None:
    assert set(CARD_THEMES) == {theme.value for theme in Theme}


async def test_a_chosen_theme_is_in_the_profile_and_the_next_hands(h: Harness) -> None:
    u1, u2 = await h.start(2, settings={"turn_timer": 0})
    assert h.chat.last_hand("u1").theme == "classic"
    sent = len(h.chat.private["u1"])
    reply = await h.do(cmds.SetCardTheme, u1, theme="High Contrast")
    assert reply.ok
    assert translate(reply.text, "en") == "Your cards are now drawn in high contrast."
    assert translate(reply.text, "zh_CN") != translate(reply.text, "en")
    assert (await h.store.user_profile("telegram", "u1")).card_theme == "high_contrast"
    assert h.chat.last_hand("u1").theme == "high_contrast"  # sent again at once
    assert len(h.chat.private["u1"]) == sent + 1
    assert h.chat.last_hand("u2").theme == "classic"
    assert [s.theme for s in (await h.record()).seats] == ["high_contrast", None]


async def test_a_stored_theme_comes_with_the_player_into_a_new_game(h: Harness) -> None:
    await h.store.save_user_profile("telegram", "u2", UserProfile(card_theme="high_contrast"))
    await h.start(2, settings={"turn_timer": 0})
    assert h.chat.last_hand("u2").theme == "high_contrast"
    assert h.chat.last_hand("u1").theme == "classic"


async def test_the_theme_changes_in_every_game_the_player_sits_in(h: Harness) -> None:
    u1, _ = await h.start(2, settings={"turn_timer": 0})
    other = ChatKey("telegram", "other-chat")
    assert (await h.coordinator.handle(cmds.NewGame(other, u1))).ok
    assert (await h.coordinator.handle(cmds.Join(other, user(3)))).ok
    # Changed from a third chat (a private chat, say): both games' seats follow.
    assert (await h.coordinator.handle(cmds.SetCardTheme(ChatKey("telegram", "dm"), u1, theme="contrast"))).ok
    for chat in (h.key, other):
        record = await h.store.load(chat)
        assert next(s for s in record.seats if s.user_id == "u1").theme == "high_contrast"


@pytest.mark.parametrize("theme", ["neon", "", 5, None, ["classic"]])
async def test_a_bad_theme_is_refused_and_changes_nothing(h: Harness, theme) -> None:
    u1, _ = await h.start(2, settings={"turn_timer": 0})
    before = await h.record()
    reply = await h.do(cmds.SetCardTheme, u1, theme=theme)
    assert (reply.ok, reply.error) == (False, "bad_setting")
    assert "classic, high_contrast" in translate(reply.text, "en")
    assert (await h.store.user_profile("telegram", "u1")).card_theme is None
    assert (await h.record()).seats == before.seats


async def test_a_theme_named_in_chinese_as_its_button_shows_it(h: Harness) -> None:
    u1, _ = await h.start(2, settings={"turn_timer": 0})
    assert (await h.do(cmds.SetCardTheme, u1, theme="高对比度")).ok
    assert (await h.store.user_profile("telegram", "u1")).card_theme == "high_contrast"
    assert (await h.do(cmds.SetCardTheme, u1, theme="经典")).ok
    assert (await h.store.user_profile("telegram", "u1")).card_theme == "classic"
    assert (await h.do(cmds.SetCardTheme, u1, theme="高对比度配色")).ok  # its label, in full
    assert (await h.store.user_profile("telegram", "u1")).card_theme == "high_contrast"


async def test_back_to_classic(h: Harness) -> None:
    u1, _ = await h.start(2, settings={"turn_timer": 0})
    assert (await h.do(cmds.SetCardTheme, u1, theme="hc")).ok
    assert (await h.do(cmds.SetCardTheme, u1, theme="default")).ok
    assert h.chat.last_hand("u1").theme == "classic"
    assert (await h.store.user_profile("telegram", "u1")).card_theme == "classic"
