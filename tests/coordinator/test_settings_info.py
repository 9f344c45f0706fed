"""Settings (validated as a whole), languages, rules, stats and leaderboard through the store."""

from __future__ import annotations

import logging

import pytest

from bot.coordinator import MemoryStore
from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatSettings, User

from .conftest import CHAT, Harness, user

ADMIN = User("u50", "Admin", is_admin=True)


@pytest.mark.parametrize("changes", [
    {"stacking": "sideways"}, {"hand_size": 0}, {"hand_size": "many"}, {"jump_in": "maybe"},
    {"preset": "chaos"}, {"turn_timer": 2}, {"turn_timer": -5}, {"afk_policy": "sleep"},
    {"language": "klingon"}, {"colour_of_sky": "blue"}, {}, {"target_score": 0},
    {"jump_in": True, "uno_penalty": 99},  # one bad value refuses the lot
])
async def test_bad_settings_change_nothing(h: Harness, changes) -> None:
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes=changes)
    assert (reply.ok, reply.error) == (False, "bad_setting")
    assert await h.store.chat_settings(h.key) == ChatSettings()


async def test_good_settings_are_stored_and_coerced(h: Harness) -> None:
    reply = await h.do(cmds.ChangeSettings, ADMIN, changes={
        "preset": "house", "jump_in": "off", "hand_size": "5", "turn_timer": 30,
        "afk_policy": "leave", "language": "zh"})
    assert reply.ok and reply.lines
    settings = await h.store.chat_settings(h.key)
    assert settings.preset == "house" and settings.overrides == {"jump_in": False, "hand_size": 5}
    assert (settings.turn_timer, settings.afk_policy, settings.language) == (30, "leave", "zh_CN")


async def test_a_change_is_answered_with_what_it_changed(h: Harness) -> None:
    from bot.i18n import translate

    def said(reply) -> list[str]:
        return [translate(reply.text, "en"), *(translate(line, "en") for line in reply.lines)]

    one = await h.do(cmds.ChangeSettings, ADMIN, changes={"stacking": "same"})
    assert said(one) == ["Settings saved.", "Stacking +2/+4: same kind (+2 on +2, +4 on +4)"]
    again = await h.do(cmds.ChangeSettings, ADMIN, changes={"stacking": "same"})
    assert said(again) == ["Nothing changed: the settings were already so.",
                           "Stacking +2/+4: same kind (+2 on +2, +4 on +4)"]
    house = await h.do(cmds.ChangeSettings, ADMIN, changes={"preset": "house", "turn_timer": 30})
    lines = said(house)[1:]
    assert lines[:2] == ["Rules: house rules", "Turn timer (seconds, 0 = off): 30"]
    assert "Stacking +2/+4: progressive (+2 or +4 on +2, +4 on +4)" in lines
    assert "Cards dealt: 7" not in lines  # the same under both presets


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
async def test_every_line_of_the_list_names_a_setting_that_can_be_typed_back(h: Harness, locale) -> None:
    from bot.coordinator.setting_schema import setting
    from bot.i18n import translate

    shown = await h.do(cmds.ShowSettings, ADMIN)
    names = []
    for line in shown.lines:
        name = translate(line, locale).replace("：", ": ").split(": ")[0]
        names.append(setting(name).name)  # refused (raises) for a name that is no setting
    assert len(set(names)) == len(names) == len(shown.lines)


async def test_only_admins_change_settings_without_a_game(h: Harness) -> None:
    reply = await h.do(cmds.ChangeSettings, user(3), changes={"jump_in": True})
    assert reply.error == "admins_only"  # no game open: there is no creator to name
    assert "creator" not in reply.text.msgid and "admin" in reply.text.msgid
    assert await h.store.chat_settings(h.key) == ChatSettings()


async def test_the_creator_changes_lobby_rules_but_not_running_ones(h: Harness) -> None:
    u1, u2 = await h.lobby(2)
    u1 = User("u1", "P1")  # not an admin: the creator
    assert (await h.do(cmds.ChangeSettings, u2, changes={"jump_in": True})).error == "not_allowed"
    assert (await h.do(cmds.ChangeSettings, u1, changes={"jump_in": True})).ok
    assert (await h.record()).rules["jump_in"] is True
    assert h.chat.lobbies()[-1].rule_changes == {"jump_in": True}
    assert (await h.do(cmds.StartGame, u1)).ok
    reply = await h.do(cmds.ChangeSettings, u1, changes={"stacking": "same"})
    assert reply.error == "game_running"
    assert "turn" in (await h.record()).deadlines
    assert (await h.do(cmds.ChangeSettings, u1, changes={"turn_timer": 0})).ok
    record = await h.record()
    assert record.options.turn_timer == 0 and "turn" not in record.deadlines
    await h.clock.advance(1000)
    assert (await h.record()).match == record.match  # no timeout any more


async def test_a_turn_timer_changed_mid_game_shows_on_the_table_at_once(h: Harness) -> None:
    u1, _ = await h.lobby(2)
    u1 = User("u1", "P1")
    await h.do(cmds.ChangeSettings, u1, changes={"turn_timer": 60})
    assert (await h.do(cmds.StartGame, u1)).ok
    assert h.chat.last_table().deadline == h.clock.now() + 60
    assert (await h.do(cmds.ChangeSettings, u1, changes={"turn_timer": 0})).ok
    assert h.chat.last_table().deadline is None  # no countdown left on the table
    # Named as the Chinese list shows it: the new timer runs, and the table says so.
    assert (await h.do(cmds.ChangeSettings, u1, changes={"回合计时": "90"})).ok
    record = await h.record()
    assert record.deadlines["turn"] == h.clock.now() + 90 == h.chat.last_table().deadline


async def test_languages_chat_user_and_hint(h: Harness) -> None:
    zh_user = User("u7", "Li", locale="zh-hans")
    assert (await h.do(cmds.ShowSettings, zh_user)).locale == "zh_CN"
    assert (await h.do(cmds.ShowSettings, user(8))).locale == "en"
    reply = await h.do(cmds.SetLanguage, user(8), language="zh", scope="user")
    assert reply.ok and reply.locale == "zh_CN"
    assert (await h.do(cmds.ShowSettings, user(8))).locale == "zh_CN"
    assert (await h.do(cmds.SetLanguage, user(8), language="xx")).error == "bad_setting"
    for named, language in (("中文", "zh_CN"), ("Chinese", "zh_CN"), ("英文", "en"), ("English", "en")):
        # the language as the settings show it ("语言：中文") or as people call it
        assert (await h.do(cmds.SetLanguage, user(8), language=named, scope="user")).ok, named
        assert (await h.coordinator.store.user_profile(CHAT.platform, "u8")).language == language
    assert (await h.do(cmds.SetLanguage, user(8), language="zh", scope="chat")).error == "admins_only"
    assert (await h.do(cmds.SetLanguage, ADMIN, language="zh", scope="chat")).ok
    assert (await h.store.chat_settings(h.key)).language == "zh_CN"
    # What one person is told follows their client, not the chat; the chat's language is for
    # a person whose client gives no hint.
    assert (await h.do(cmds.ShowSettings, User("u9", "En", locale="en"))).locale == "en"
    assert (await h.do(cmds.ShowSettings, User("u10", "Hintless"))).locale == "zh_CN"


async def test_hands_follow_each_players_language(h: Harness) -> None:
    await h.store.save_user_profile("telegram", "u2", __import__(
        "bot.coordinator.ports", fromlist=["UserProfile"]).UserProfile(language="zh_CN"))
    u1, u2 = await h.start(2)
    assert h.chat.last_hand("u2").locale == "zh_CN" and h.chat.last_hand("u1").locale == "en"
    assert h.chat.last_table().locale == "en"
    assert (await h.do(cmds.SetLanguage, u1, language="zh_CN")).ok
    assert h.chat.last_hand("u1").locale == "zh_CN"


async def test_rules_are_bilingual_and_list_house_changes(h: Harness) -> None:
    await h.do(cmds.ChangeSettings, ADMIN, changes={"stacking": "same"})
    reply = await h.do(cmds.ShowRules, user(3))
    assert reply.ok and reply.bilingual
    headings = [t.msgid for t in reply.lines if t.msgid.endswith(":")]
    assert headings[:10] == ["The deck:", "Choosing the dealer:", "The deal and the first card:",
                             "A turn:", "Action cards:", "Wilds:", "The challenge:", "UNO!:",
                             "Scoring and the match:", "Tip:"]
    house = [t.msgid for t in reply.lines][[t.msgid for t in reply.lines].index(
        "House rules in this chat ({preset}):") + 1:]
    assert house == ["Stacking: a Draw Two may answer a Draw Two, a Wild Draw Four a Wild Draw Four."]


async def test_stats_and_leaderboard_from_results(h: Harness) -> None:
    people = await h.start(1, 1, settings={"target_score": 30, "turn_timer": 0})
    from .test_full_games import play_match

    h.game_id = (await h.record()).game_id
    await play_match(h, people)
    reply = await h.do(cmds.ShowStats, people[0])
    assert reply.ok
    matches_line = reply.lines[1]
    assert matches_line.params["games"] == 1
    stats = await h.store.stats("telegram", "u1", h.key)
    assert stats.hands == len([r for r in h.store.results if r.kind == "hand"])
    board = await h.do(cmds.ShowLeaderboard, people[0])
    # hands with a bot are not rated: no season opened, nobody ranked
    assert board.lines[0].msgid == "No season is running: the next hand without bots starts one."
    assert not [t for t in board.lines if "player" in t.params]
    assert (await h.do(cmds.ShowLeaderboard, people[0], scope="galaxy")).error == "bad_setting"


class ExplodingStore:
    """A store that fails unexpectedly on load once armed, to check the error boundary."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.armed = False

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def load(self, chat):
        record = await self.inner.load(chat)
        if self.armed and record is not None and record.status == "running":
            raise RuntimeError(f"disk on fire; hand {record.match['game']['hands'][0]}")
        return record

    async def load_held(self, chat):
        return await self.load(chat), False


@pytest.mark.allow_errors
async def test_unexpected_errors_become_a_generic_reply(caplog) -> None:
    exploding = ExplodingStore(MemoryStore())
    h = Harness(store=exploding)
    await h.start(2)
    game_id = (await h.record()).game_id
    exploding.armed = True
    with caplog.at_level(logging.ERROR):
        reply = await h.do(cmds.Draw, user(1))
    assert (reply.ok, reply.error) == (False, "internal")
    assert "went wrong" in reply.text.msgid
    assert any(game_id in r.getMessage() for r in caplog.records)
    exploding.armed = False
    secret = str((await h.record()).match["game"]["hands"][0])
    assert not any(secret in r.getMessage() for r in caplog.records)
    assert all(r.exc_info is None for r in caplog.records)


async def test_unknown_command_is_refused(h: Harness) -> None:
    reply = await h.coordinator.handle(cmds.Command(h.key, user(1)))
    assert (reply.ok, reply.error) == (False, "bad_action")


async def test_languages_are_named_never_shown_as_codes(h: Harness) -> None:
    from bot.i18n import translate

    reply = await h.do(cmds.SetLanguage, user(8), language="zh", scope="user")
    said = translate(reply.text, reply.locale)
    assert "中文" in said and "zh" not in said
    english = await h.do(cmds.SetLanguage, user(8), language="en", scope="user")
    assert translate(english.text, "en") == "Your language is now English."
    settings = await h.do(cmds.ShowSettings, user(8))
    lines = [translate(line, "en") for line in settings.lines]
    assert "Language: English" in lines and not any("zh_CN" in line for line in lines)


async def test_people_named_in_a_command_are_named_in_the_answer_not_by_id(h: Harness) -> None:
    await h.start(2)
    stranger = ("555000111222", "Zed")
    kick = await h.do(cmds.Kick, user(1, is_admin=True), target=stranger[0], names=(stranger,))
    assert kick.error == "unknown_player" and kick.text.params["name"] == "Zed"
    stats = await h.do(cmds.ShowStats, user(2), target=stranger[0], names=(stranger,))
    assert stats.text.params["player"] == "Zed"
    # without a name from the platform the answer still works (the id is all there is)
    bare = await h.do(cmds.Kick, user(1, is_admin=True), target=stranger[0])
    assert bare.text.params["name"] == stranger[0]


async def test_no_game_names_the_command_to_start_one(h: Harness) -> None:
    from bot.i18n import CommandRef, translate

    reply = await h.do(cmds.Draw, user(1))
    assert reply.error == "no_game" and reply.text.params["command"] == CommandRef("new")
    assert translate(reply.text, "en").endswith("Start one with /new.")


async def test_games_played_by_the_same_rules_share_them_and_a_change_touches_one(h: Harness) -> None:
    from bot.coordinator.ports import ChatKey

    other = ChatKey(h.key.platform, "another chat")
    await h.lobby(2)
    assert (await h.coordinator.handle(cmds.NewGame(other, user(7)))).ok
    mine, theirs = await h.record(), await h.store.load(other)
    assert mine.rules is theirs.rules  # one dict, not a copy per open game
    assert (await h.do(cmds.ChangeSettings, ADMIN, changes={"stacking": "same"})).ok
    mine, theirs = await h.record(), await h.store.load(other)
    assert (mine.rules["stacking"], theirs.rules["stacking"]) == ("same", "off")
