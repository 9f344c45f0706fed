"""Lobby life: open, join, leave, start, bots, kick, stop, permissions, expiry."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.coordinator.views import LobbyView, TableView
from bot.i18n import format_text

from .conftest import Harness, user

STRANGER = User("u99", "Stranger")


async def test_open_join_and_start(h: Harness) -> None:
    u1, u2 = user(1), user(2)
    assert (await h.do(cmds.NewGame, u1)).ok
    assert (await h.do(cmds.NewGame, u2)).error == "game_exists"
    alone = await h.do(cmds.StartGame, u1)
    assert alone.error == "not_enough_players"
    assert format_text(alone.text, "en") == ("At least 2 players are needed to start: someone can "
                                             "join with /join, or add a bot with the lobby's Add AI "
                                             "button.")
    assert "“添加电脑玩家”" in format_text(alone.text, "zh_CN")  # the button as it reads there
    assert (await h.do(cmds.Join, u2)).ok
    assert (await h.do(cmds.Join, u2)).error == "already_joined"
    assert (await h.do(cmds.StartGame, u2)).error == "not_allowed"
    reply = await h.do(cmds.StartGame, u1)
    assert reply.ok and reply.hand is not None and len(reply.hand.cards) == 7
    assert (await h.do(cmds.Join, user(3))).error == "game_running"
    record = await h.record()
    assert record.status == "running" and len(record.game_id) <= 12
    # One message: the lobby, edited as people joined, then edited into the table.
    ids = {edit for _, _, edit in h.chat.public if edit}
    assert h.chat.public_sends == 1 and ids == {record.table_message_id}
    assert isinstance(h.chat.public[0][1], LobbyView) and isinstance(h.chat.public[-1][1], TableView)
    assert set(h.chat.private) == {"u1", "u2"}


async def test_commands_without_a_game(h: Harness) -> None:
    for command in (cmds.Join, cmds.StartGame, cmds.Draw, cmds.Leave, cmds.StopGame):
        reply = await h.do(command, user(1))
        assert (reply.ok, reply.error) == (False, "no_game"), command
        assert reply.text is not None and reply.text.msgid


async def test_ten_seats_start_by_themselves(h: Harness) -> None:
    await h.lobby(1, 8)
    assert (await h.record()).status == "lobby"
    reply = await h.do(cmds.Join, user(2))
    assert reply.ok
    record = await h.record()
    assert record.status == "running" and len(record.seats) == 10
    assert (await h.do(cmds.Join, user(3))).error in ("game_running", "game_full")


async def test_game_full_for_bots(h: Harness) -> None:
    people = await h.lobby(9)
    assert (await h.do(cmds.AddAiSeat, people[0], strategy="hard")).ok
    assert (await h.record()).status == "running"  # the tenth seat started it


async def test_bots_only_by_the_creator_and_known_levels(h: Harness) -> None:
    u1, u2 = await h.lobby(2)
    assert (await h.do(cmds.AddAiSeat, u2)).error == "not_allowed"
    assert (await h.do(cmds.AddAiSeat, u1, strategy="genius")).error == "bad_strategy"
    assert (await h.do(cmds.AddAiSeat, u1, strategy="easy")).ok
    seats = (await h.record()).seats
    assert seats[-1].ai == "easy" and seats[-1].name.startswith("Bot ")


async def test_a_bot_level_may_be_typed_as_the_bot_shows_it_in_chinese(h: Harness) -> None:
    """The lobby says "Bot Cy（普通）入座。" and the refusal lists "hard（困难）": those words work."""
    u1, _ = await h.lobby(2)
    for typed, level in (("困难", "hard"), ("简单", "easy"), ("ＨＡＲＤ", "hard"), (" Normal ", "normal")):
        assert (await h.do(cmds.AddAiSeat, u1, strategy=typed)).ok, typed
        assert (await h.record()).seats[-1].ai == level
    refused = await h.do(cmds.AddAiSeat, u1, strategy="超难")
    assert refused.error == "bad_strategy" and refused.text.params == {"name": "超难"}


async def test_leaving_the_lobby_hands_over_the_creator(h: Harness) -> None:
    u1, u2, u3 = await h.lobby(3)
    assert (await h.do(cmds.Leave, u1)).ok
    record = await h.record()
    assert record.creator == "u2" and [s.user_id for s in record.seats] == ["u2", "u3"]
    assert (await h.do(cmds.Leave, STRANGER)).error == "not_in_game"


async def test_last_human_leaving_closes_the_lobby(h: Harness) -> None:
    u1, = await h.lobby(1, 2)
    assert (await h.do(cmds.Leave, u1)).ok
    assert await h.store.load(h.key) is None
    assert "no players are left" in h.chat.notices()[-1].text.msgid


async def test_kick_and_stop_need_creator_or_admin(h: Harness) -> None:
    u1, u2, u3 = await h.lobby(3)
    assert (await h.do(cmds.Kick, u3, target="u2")).error == "not_allowed"
    assert (await h.do(cmds.StopGame, u3)).error == "not_allowed"
    admin = User("u50", "Admin", is_admin=True)
    assert (await h.do(cmds.Kick, admin, target="P2")).ok
    assert [s.user_id for s in (await h.record()).seats] == ["u1", "u3"]
    assert (await h.do(cmds.Kick, u1, target="nobody")).error == "unknown_player"
    # A person pointed at by user id (a reply, a member) who has no seat is named as such;
    # a number as small as a seat's is read as one.
    unseated = await h.do(cmds.Kick, u1, target="123456789")
    assert unseated.text.msgid == "There is no player {name} in this game."
    assert (await h.do(cmds.Kick, u1, target="7")).text.msgid == "There is no seat {number} at the table."
    assert (await h.do(cmds.StopGame, u1)).ok
    assert await h.store.load(h.key) is None
    assert (await h.store.active_games()) == []


async def test_a_player_removed_from_the_lobby_is_told_in_a_message_that_pings_them(h: Harness) -> None:
    u1, u2, u3 = await h.lobby(3)
    notices = len(h.chat.notices())
    assert (await h.do(cmds.Kick, u1, target="u3")).ok
    [told] = h.chat.notices()[notices:]
    assert told.text.msgid == "{player} was removed from the game by {by}."
    assert told.mentions == ("u3",)
    assert h.chat.lobbies()[-1].notice == told.text  # the lobby shows it too, as every change
    assert (await h.do(cmds.Leave, u2)).ok  # leaving oneself is news to nobody
    assert (await h.do(cmds.AddAiSeat, u1, strategy="normal")).ok
    bot = (await h.record()).seats[-1]
    assert (await h.do(cmds.Kick, u1, target=bot.user_id)).ok  # nor is a bot's removal
    assert h.chat.notices()[notices:] == [told]
    assert [s.user_id for s in (await h.record()).seats] == ["u1"]


async def test_kick_mid_game_returns_cards_under_the_stock(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    before = await h.state()
    assert (await h.do(cmds.Kick, u1, target="u3")).ok
    after = await h.state()
    assert after.players == ("u1", "u2")
    assert after.draw_pile[-len(before.hand("u3")):] == before.hand("u3")
    assert after.card_total() == 108
    assert any("removed" in t.msgid for t in h.chat.last_table().last)


async def test_leaving_mid_game_down_to_one_player_ends_it(h: Harness) -> None:
    u1, u2 = await h.start(2)
    assert (await h.do(cmds.Leave, u2)).ok
    assert await h.store.active_games() == []
    assert "game is over" in h.chat.notices()[-1].text.msgid
    assert h.chat.last_hand("u1").hand_over
    assert h.chat.last_hand("u2").set_aside  # the leaver's hand is closed too


async def test_a_leavers_hand_message_is_closed_with_nothing_to_press(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    hand_message = (await h.record()).hand_message_ids["u3"]
    edits = h.chat.private_edits
    assert (await h.do(cmds.Leave, u3)).ok
    closed = h.chat.last_hand("u3")
    assert closed.set_aside and closed.hand_over and closed.note is not None
    assert closed.note.msgid == "You left the game."
    assert not closed.repost  # they know: the hand message is edited in place
    assert closed.moves == () and closed.plays == ()
    assert h.chat.private_edits > edits  # their hand message, edited in place
    assert hand_message not in (await h.record()).hand_message_ids.values()
    assert (await h.do(cmds.Draw, u3)).error == "not_in_game"
    assert not h.chat.last_hand("u1").set_aside


async def test_a_removed_players_hand_says_who_removed_them(h: Harness) -> None:
    u1, u2, u3 = await h.start(3)
    assert (await h.do(cmds.Kick, u1, target="u3")).ok
    closed = h.chat.last_hand("u3")
    assert closed.set_aside and closed.note is not None
    assert closed.note.msgid == "You were removed from the game by {by}."
    assert closed.note.params["by"] == u1.name
    assert closed.repost  # news to them: posted anew where an edit would notify nobody


async def test_stop_a_running_game_disables_hands(h: Harness) -> None:
    u1, u2 = await h.start(2)
    assert (await h.do(cmds.StopGame, u1)).ok
    assert h.chat.last_hand("u1").hand_over and h.chat.last_hand("u2").hand_over
    assert (await h.do(cmds.Draw, u1)).error == "no_game"


async def test_lobby_expires(h: Harness) -> None:
    await h.lobby(2)
    await h.clock.advance(599)
    assert await h.store.load(h.key) is not None
    await h.clock.advance(2)
    assert await h.store.load(h.key) is None
    assert "lobby has closed" in h.chat.notices()[-1].text.msgid


async def test_started_lobby_does_not_expire(h: Harness) -> None:
    await h.start(2, settings={"turn_timer": 0})
    await h.clock.advance(700)
    assert (await h.record()).status == "running"


async def test_teams_need_an_even_table_of_four_or_more(h: Harness) -> None:
    u1, *_ = await h.lobby(3, settings={"teams": True})
    assert (await h.do(cmds.StartGame, u1)).error == "bad_team_size"
    assert (await h.do(cmds.Join, user(4))).ok
    assert (await h.do(cmds.StartGame, u1)).ok
    table = h.chat.last_table()
    assert {s.team for s in table.seats} == {0, 1} or len({s.team for s in table.seats}) == 2


async def test_a_bot_added_without_a_level_takes_the_chats_setting(h: Harness) -> None:
    """The lobby's Add AI (and /ai alone) names no level: the chat's ai_level setting, normal
    unless changed, in the lobby's words; a level given still wins. It may change mid-game."""
    admin = user(1, is_admin=True)
    u1, _ = await h.lobby(2)
    assert (await h.do(cmds.AddAiSeat, u1)).ok
    assert (await h.record()).seats[-1].ai == "normal"
    assert (await h.do(cmds.ChangeSettings, admin, changes={"ai_level": "困难"})).ok
    assert (await h.do(cmds.AddAiSeat, u1)).ok
    record = await h.record()
    assert record.seats[-1].ai == "hard"
    said = h.chat.lobbies()[-1].notice
    assert said.msgid == "{player} ({level}) takes a seat." and said.params["level"].msgid == "hard"
    assert (await h.do(cmds.AddAiSeat, u1, strategy="easy")).ok
    assert (await h.record()).seats[-1].ai == "easy"
    assert (await h.do(cmds.StartGame, u1)).ok
    assert (await h.do(cmds.ChangeSettings, admin, changes={"ai_level": "easy"})).ok
    assert (await h.store.chat_settings(h.key)).ai_level == "easy"
    refused = await h.do(cmds.ChangeSettings, admin, changes={"ai_level": "genius"})
    assert refused.error == "bad_setting" and (await h.store.chat_settings(h.key)).ai_level == "easy"
