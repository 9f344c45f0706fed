"""A fair UNO! on Telegram: UNO! from the colour picker of a wild, and repeated wrong /uno
calls answered privately instead of in the group."""

from __future__ import annotations

from adapters.telegram import callbacks

from .conftest import ANA, BO, CY, GROUP, Harness, data_of
from .helpers import match_of, next_actor, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}


async def test_uno_can_be_declared_from_the_colour_picker(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    await rig(harness, hands={IDS[mover]: ["W", "Y+2"]}, current=IDS[mover])
    await refresh_hands(harness, PLAYERS)
    message = harness.hand_message(mover)
    wild = next(d for d in data_of(message)
                if callbacks.parse(d).verb == "w" and not callbacks.parse(d).uno)
    await harness.press(mover, message, wild)  # the colour picker replaces the keyboard
    picker = harness.api.message(message.chat_id, message.message_id)
    with_uno = [d for d in data_of(picker) if callbacks.parse(d).verb == "p" and callbacks.parse(d).uno]
    assert len(with_uno) == 4  # one per colour
    answer = await harness.press(mover, picker, with_uno[0])
    assert answer.get("show_alert") is not True, answer
    state = (await match_of(harness)).game
    assert state.hand(IDS[mover]) != () and len(state.hand(IDS[mover])) == 1
    assert IDS[mover] in state.declared and state.catchable == ()


async def test_repeated_wrong_uno_calls_go_private_not_to_the_group(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    await harness.settle()
    before_group = len(harness.api.calls_to("sendMessage", GROUP))
    before_private = len(harness.api.calls_to("sendMessage", BO.id))
    harness.say(BO, "/uno")  # nobody can be called out: a refusal, told privately
    await harness.api.wait_for(lambda: len(harness.api.calls_to("sendMessage", BO.id)) > before_private,
                               what="the first refusal")
    first = harness.api.calls_to("sendMessage", BO.id)[-1]
    assert "nobody can be called out" in first.params["text"].lower()
    harness.say(BO, "/uno")
    harness.say(BO, "/uno")
    await harness.api.wait_for(lambda: len(harness.api.calls_to("sendMessage", BO.id)) >= before_private + 3,
                               what="private cool-down answers")
    await harness.settle()
    assert len(harness.api.calls_to("sendMessage", GROUP)) == before_group
    private = harness.api.calls_to("sendMessage", BO.id)[-1].params["text"]
    assert "wrong uno! call" in private.lower()


async def test_a_bare_play_answers_privately_with_the_playable_cards(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    await rig(harness, hands={IDS[mover]: ["W", "Y+2", "G3"]}, current=IDS[mover])
    await harness.settle()
    before_group = len(harness.api.calls_to("sendMessage", GROUP))
    before_private = len(harness.api.calls_to("sendMessage", mover.id))
    harness.say(mover, "/play")  # what Telegram's command menu sends
    await harness.api.wait_for(
        lambda: len(harness.api.calls_to("sendMessage", mover.id)) > before_private, what="the answer")
    await harness.settle()
    text = harness.api.calls_to("sendMessage", mover.id)[-1].params["text"]
    assert "/play R5" in text and "Wild" in text
    assert "I do not know the card" not in text
    assert len(harness.api.calls_to("sendMessage", GROUP)) == before_group  # nothing public


async def test_a_bare_play_from_someone_unreachable_tells_the_group_only_how(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    await harness.settle()
    harness.api.forbid_chat(BO.id)
    before_group = len(harness.api.calls_to("sendMessage", GROUP))
    harness.say(BO, "/play")
    await harness.api.wait_for(lambda: len(harness.api.calls_to("sendMessage", GROUP)) > before_group,
                               what="the public hint")
    text = harness.api.calls_to("sendMessage", GROUP)[-1].params["text"]
    assert "/play R5" in text and "press Start" in text and "You can play" not in text


async def test_late_join_from_the_tables_join_button(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO)
    await harness.ask(ANA, "/settings preset=house")  # house rules: late join on
    await harness.start_game(ANA, [ANA, BO])
    await harness.api.wait_for(lambda: harness.table(), what="the table")
    await harness.settle()
    table = harness.table()
    join = [b["url"] for b in table.buttons() if "url" in b]
    assert join and join[0].endswith(f"start=join_{game_id}")
    harness.say(CY, f"/start join_{game_id}", chat=CY.id)  # what the Join link sends
    await harness.api.wait_for(lambda: harness.hand_message(CY), what="Cy's hand")
    state = (await match_of(harness)).game
    assert str(CY.id) in state.players and len(state.hand(str(CY.id))) == 7
    index = state.players.index(str(CY.id))
    assert state.players[index - 1] == state.current  # seated to play next
    await harness.settle()
    assert "\u2068Cy\u2069 joined the game with 7 cards" in harness.table().text


async def test_notify_me_from_the_lobby_button_then_a_private_message(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    answer = await harness.press(CY, harness.lobby(), callbacks.lobby(harness.game_id(), "notify"))
    assert "tell you privately" in answer.get("text", "")
    await harness.ask(ANA, "/stop")
    before = len(harness.api.calls_to("sendMessage", CY.id))
    harness.say(BO, "/new")
    await harness.api.wait_for(lambda: len(harness.api.calls_to("sendMessage", CY.id)) > before,
                               what="Cy is told")
    told = harness.api.calls_to("sendMessage", CY.id)[-1].params
    assert "opened a new game" in told["text"] and "Bo" in told["text"]
    assert told["reply_markup"]["inline_keyboard"][0][0]["url"].endswith(f"join_{harness.game_id()}")


async def test_notify_me_command_for_someone_unreachable_mentions_them(harness: Harness):
    await harness.start()
    harness.api.forbid_chat(CY.id)
    assert "tell you privately" in await harness.ask(CY, "/notify")
    harness.say(ANA, "/new")
    text = await harness.api.wait_for(
        lambda: [c.params["text"] for c in harness.api.calls_to("sendMessage", GROUP)
                 if "as you asked" in c.params["text"]], what="the mention in the group")
    assert f"tg://user?id={CY.id}" in text[-1]


async def test_a_player_whose_notice_was_refused_is_not_tried_again_until_they_write(harness: Harness):
    """Cy's private chat refused the "new game" notice: his hand is not sent there in vain
    (a 403 more from Telegram's budget) when he joins from the group."""
    await harness.start()
    harness.api.forbid_chat(CY.id)
    assert "tell you privately" in await harness.ask(CY, "/notify")
    harness.say(ANA, "/new")
    await harness.api.wait_for(lambda: harness.api.calls_to("sendMessage", CY.id) or None,
                               what="the notice tried")
    tried = len(harness.api.calls_to(None, CY.id))
    harness.say(CY, "/join")
    await harness.settle()
    await harness.press(ANA, harness.lobby(), callbacks.lobby(harness.game_id(), "start"))
    await harness.api.wait_for(lambda: harness.api.calls_to("sendMessage", ANA.id) or None,
                               what="the hands dealt")
    await harness.settle()
    assert len(harness.api.calls_to(None, CY.id)) == tried
