"""Telegram: the inline settings keyboard, the dealer's colour buttons and the complete rules."""

from __future__ import annotations

from adapters.telegram import callbacks
from bot.engine.cards import Color

from .conftest import ANA, BO, GROUP, Harness, data_of
from .helpers import CHAT, match_of, refresh_hands, rig


def settings_message(h: Harness):
    return next(m for m in reversed(h.api.chat_messages(GROUP))
                if any(d.startswith("cfg:") for d in data_of(m)))


async def test_the_settings_keyboard_changes_a_setting(harness: Harness):
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id}
    harness.say(ANA, "/settings")
    await harness.api.wait_for(lambda: any(any(d.startswith("cfg:") for d in data_of(m))
                                           for m in harness.api.chat_messages(GROUP)), what="the menu")
    menu = settings_message(harness)
    names = {d.split(":")[2] for d in data_of(menu)}
    assert {"team_size", "first_wild", "wd4_rule", "uno_identical", "teams", "play_after_draw",
            "turn_timer", "language"} <= names
    answer = await harness.press(ANA, menu, "cfg:o:team_size")
    assert "2 to 5" in answer.get("text", "")
    await harness.api.wait_for(lambda: "cfg:v:team_size:3" in data_of(settings_message(harness)),
                               what="the values of team_size")
    refused = await harness.press(BO, settings_message(harness), "cfg:v:team_size:3")
    assert "Only a chat admin" in refused.get("text", "") and refused.get("show_alert")
    answer = await harness.press(ANA, settings_message(harness), "cfg:v:team_size:3")
    assert "Settings saved" in answer.get("text", "")
    assert (await harness.store.chat_settings(CHAT)).overrides == {"team_size": 3}
    await harness.api.wait_for(lambda: "Players per team: 3" in settings_message(harness).text,
                               what="the menu showing the new value")


async def test_settings_by_command_name_the_allowed_range(harness: Harness):
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id}
    refused = await harness.ask(ANA, "/settings wd4_rule sometimes", privately=True)
    assert ("wd4_rule cannot be sometimes: it must be one of no_color (no card of the colour in force), "
            "no_match (no card that could be played).") in refused
    await harness.ask(ANA, "/settings wd4_rule no_match")
    assert (await harness.store.chat_settings(CHAT)).overrides == {"wd4_rule": "no_match"}


async def test_the_dealer_names_the_colour_with_buttons(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    state = (await match_of(harness)).game
    dealer = state.dealer
    await rig(harness, top="W", color="", current=dealer)
    user = ANA if str(ANA.id) == dealer else BO
    await refresh_hands(harness, [user])
    message = harness.hand_message(user)
    named = [d for d in data_of(message) if callbacks.parse(d).verb == "o"]
    assert sorted(callbacks.parse(d).color for d in named) == ["B", "G", "R", "Y"]
    assert all(callbacks.parse(d).verb == "o" for d in data_of(message))  # nothing else to do
    await harness.press(user, message, next(d for d in named if callbacks.parse(d).color == "G"))

    async def named_green() -> bool:
        return (await match_of(harness)).game.color is Color.GREEN

    await harness.until(named_green, "the colour named")


async def test_the_rules_are_complete_and_paged(harness: Harness):
    await harness.start()
    mark = len(harness.api.calls)
    harness.say(ANA, "/rules")

    def pages() -> list[str]:
        return [c.params["text"] for c in harness.api.calls[mark:]
                if c.method == "sendMessage" and c.chat_id == GROUP]

    await harness.api.wait_for(lambda: any("本群" in p for p in pages()), what="the last page")
    text = "\n".join(pages())
    assert all(len(p) <= 4096 for p in pages())
    for heading in ("The deck:", "牌组：", "Choosing the dealer:", "The challenge:", "质疑：",
                    "Tip:", "小技巧："):
        assert heading in text
