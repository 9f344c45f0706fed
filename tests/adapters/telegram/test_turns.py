"""Your turn reaches you, and tables tell the truth (Telegram, real PTB against the fake Bot
API): the notifying private message per turn and its call budget, one live hand keyboard per
player, the group ping for a player the bot cannot write to, ``/hand`` that always shows, the
turn's deadline shown as a moment, and finished tables without buttons."""

from __future__ import annotations

import re

from adapters.telegram import callbacks

from .conftest import ANA, BO, CY, GROUP, Harness, data_of
from .fake_bot_api import TgUser
from .helpers import (
    CHAT,
    actor,
    hand_results,
    match_of,
    next_actor,
    play_until_hand_ends,
    refresh_hands,
    rig,
    take_turn,
)

PLAYERS = [ANA, BO, CY]
BY_ID = {str(u.id): u for u in PLAYERS}


def actor_now(harness: Harness) -> TgUser | None:
    return actor(harness, [ANA, BO])


def hand_messages(harness: Harness, user: TgUser) -> list:
    """Messages in the player's private chat that carry live hand buttons."""
    return [m for m in harness.api.chat_messages(user.id) if any(d.startswith("h:") for d in data_of(m))]


async def plain_turn_position(harness: Harness) -> tuple[TgUser, TgUser]:
    """A 3-player game where the player to act holds R5 on R9: a plain move, no special card.
    Returns (mover, the player after them)."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    state = (await match_of(harness)).game
    mover = BY_ID[state.players[0]]
    await rig(harness, hands={str(mover.id): ["R5", "G7", "B3", "Y4"]}, current=str(mover.id),
              top="R9", color="R")
    await refresh_hands(harness, PLAYERS)
    await harness.settle()
    state = (await match_of(harness)).game
    after = state.players[(state.players.index(str(mover.id)) + state.direction) % len(state.players)]
    return mover, BY_ID[after]


async def test_the_next_player_gets_one_notifying_message_within_the_call_budget(harness: Harness):
    mover, nxt = await plain_turn_position(harness)
    old_hand = hand_messages(harness, nxt)[-1]
    mover_hand = hand_messages(harness, mover)[-1]
    mark = len(harness.api.calls)
    data = next(d for d in data_of(harness.hand_message(mover))
                if callbacks.parse(d).verb == "p" and callbacks.parse(d).card == "R5")
    answer = await harness.press(mover, harness.hand_message(mover), data)
    assert answer.get("show_alert") is not True, answer
    await harness.settle()
    calls = [c for c in harness.api.calls[mark:] if c.method not in ("answerCallbackQuery", "getChatMember")]
    group = [c for c in calls if c.chat_id == GROUP]
    private = [c for c in calls if c.chat_id in {u.id for u in PLAYERS}]
    # 1 group call: the table, a new top card on its photo (R5 played)
    assert [c.method for c in group] == ["editMessageMedia"]
    assert len(private) <= 3, [(c.method, c.chat_id) for c in private]
    # The player whose turn it is now gets a new (notifying) message: their hand, headed by
    # the group's name; the previous hand message is deleted. Only they get a new message.
    sends = [c for c in private if c.method == "sendMessage"]
    assert [c.chat_id for c in sends] == [nxt.id]
    assert sends[0].params["text"].startswith(f"🔔 Your turn in group {GROUP}!")
    assert "your turn!" in sends[0].params["text"]
    # The mover's own hand is deleted, not edited: nothing on it can be pressed before their
    # next turn, which posts it anew. (Here the next player still had the hand every player
    # was sent, so it is deleted too: that first round costs one call more, see test_calls.)
    assert sorted((c.chat_id, c.params["message_id"]) for c in private if c.method == "deleteMessage") \
        == sorted([(nxt.id, old_hand.message_id), (mover.id, mover_hand.message_id)])
    assert not [c for c in private if c.method == "editMessageText"]
    # At most one live hand keyboard per player; the mover has none until their turn.
    for user in PLAYERS:
        assert len(hand_messages(harness, user)) == (0 if user is mover else 1), user.first_name
    new = hand_messages(harness, nxt)[0]
    assert callbacks.parse(data_of(new)[0]).owner == str(nxt.id)


async def test_every_turn_reaches_its_player_over_a_whole_hand(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    turns = 0
    while not hand_results(harness):
        user = await next_actor(harness, PLAYERS)
        if user is None:
            break
        # Whoever is to act was sent their keyboard as a new message, headed "your turn" (it
        # may have been edited since: they drew and still decide).
        posted = harness.api.calls_to("sendMessage", user.id)[-1].params["text"]
        assert posted.startswith("🔔 Your turn in"), posted
        await take_turn(harness, user)
        turns += 1
    await harness.settle()
    assert turns > 3
    for user in PLAYERS:  # still one hand message each, for the next hand
        assert len(hand_messages(harness, user)) == 1, user.first_name


async def test_hand_shows_an_unchanged_hand_again(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    before = hand_messages(harness, BO)[-1]
    mark = len(harness.api.calls)
    harness.say(BO, "/hand", chat=BO.id)
    # The new message, then the old one deleted beside it: waited for, not slept on.
    await harness.api.wait_for(lambda: len(hand_messages(harness, BO)) == 1
                               and hand_messages(harness, BO)[-1].message_id != before.message_id,
                               what="the hand posted anew and the old one gone")
    await harness.settle()
    again = hand_messages(harness, BO)
    assert len(again) == 1 and again[0].text == before.text and again[0].reply_markup == before.reply_markup
    methods = [c.method for c in harness.api.calls[mark:] if c.chat_id == BO.id]
    assert methods == ["sendMessage", "deleteMessage"]  # never an edit "not modified"
    # /hand in the group does the same, and says nothing in the group.
    harness.say(BO, "/hand")
    await harness.api.wait_for(lambda: len(hand_messages(harness, BO)) == 1
                               and hand_messages(harness, BO)[-1].message_id != again[0].message_id,
                               what="the hand posted anew from the group and the old one gone")
    await harness.settle()
    assert len(hand_messages(harness, BO)) == 1
    assert not [c for c in harness.api.calls[mark:] if c.chat_id == GROUP and c.method == "sendMessage"]


async def test_a_hand_message_telegram_will_not_delete_loses_its_keyboard(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    old = hand_messages(harness, ANA)[-1]
    harness.api.undeletable.add(old.message_id)  # older than 48 hours
    harness.say(ANA, "/hand", chat=ANA.id)
    await harness.api.wait_for(lambda: hand_messages(harness, ANA)[-1].message_id != old.message_id,
                               what="the hand posted anew")
    await harness.settle()
    stub = harness.api.message(ANA.id, old.message_id)
    assert stub.reply_markup is None and stub.text == old.text  # no live buttons left on it
    assert len(hand_messages(harness, ANA)) == 1


async def test_a_player_the_bot_cannot_write_to_is_pinged_in_the_group_on_their_turn(harness: Harness):
    harness.api.forbid_chat(CY.id)
    await harness.start()
    await harness.open_game(ANA, BO)
    harness.say(CY, "/join")
    await harness.api.wait_for(lambda: "Cy" in harness.lobby().text, what="Cy in the lobby")
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    tries = len(harness.api.calls_to(None, CY.id))
    assert tries == 1  # one 403; then the bot stops knocking

    def pings() -> list:
        return [c for c in harness.api.calls_to("sendMessage", GROUP)
                if "tg://user?id=1003" in c.params["text"] and "your turn" in c.params["text"]]

    moved = False
    for _ in range(12):
        if moved and (await match_of(harness)).game.current == str(CY.id):
            break
        if (await match_of(harness)).game.current == str(CY.id):  # Cy opens: told already
            harness.say(CY, "/draw")
            await harness.api.wait_for(lambda: actor_now(harness), what="Cy's draw")
            continue
        await take_turn(harness, await next_actor(harness, [ANA, BO]))
        moved = True
    else:
        raise AssertionError("Cy never got a turn")
    await harness.settle()
    assert len(pings()) == 1
    assert pings()[0].params["text"] == '🔔 <a href="tg://user?id=1003">\u2068Cy\u2069</a>, it is your turn!'
    assert len(harness.api.calls_to(None, CY.id)) == tries  # no private call wasted on Cy
    # Cy plays from the group (inline mode / commands); once Cy starts the bot, the hand comes.
    harness.api.allow_chat(CY.id)
    harness.say(CY, "/start", chat=CY.id)
    await harness.api.wait_for(lambda: hand_messages(harness, CY), what="Cy's hand")


async def test_pings_waiting_under_the_group_limit_are_merged(harness: Harness):
    """A slow group (flood control): a turn ping still waiting is replaced by the newer one."""
    bot = await harness.start()
    outbox = bot.port.outbox(GROUP)
    harness.api.slow_chat(GROUP, 0.3)
    outbox.remind("first")
    outbox.remind("second")
    outbox.remind("third")
    await outbox.drain()
    texts = [c.params["text"] for c in harness.api.calls_to("sendMessage", GROUP)]
    assert texts[-1] == "third" and "second" not in texts
    assert outbox.dropped >= 1


async def test_the_turn_deadline_is_a_moment_not_a_frozen_count(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    record = await harness.store.load(CHAT)
    deadline = int(record.deadlines["turn"])
    text = harness.table().text
    assert f'<tg-time unix="{deadline}" format="T">' in text
    assert " s left" not in text and "⏱ until" in text


async def test_a_finished_hand_and_a_stopped_game_leave_tables_without_buttons(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    first = harness.table()
    await play_until_hand_ends(harness, [ANA, BO])
    await harness.settle()
    closed = harness.api.message(GROUP, first.message_id)
    assert closed.reply_markup is None
    assert "won hand 1" in closed.text and "Standings" in closed.text
    assert "Your move" not in closed.text and "⏱" not in closed.text and "tg-time" not in closed.text
    # Hand 2 has a table of its own; stopping the game closes it too.
    second = harness.table()
    assert second.message_id != first.message_id
    harness.say(ANA, "/stop")
    await harness.api.wait_for(lambda: harness.api.message(GROUP, second.message_id).reply_markup is None,
                               what="the table closed")
    stopped = harness.api.message(GROUP, second.message_id).text
    assert "stopped the game" in stopped and "Your move" not in stopped and "⏱" not in stopped


async def test_chinese_players_see_the_turn_and_the_closed_table_in_chinese(harness: Harness):
    li = TgUser(1009, "Li", language_code="zh-hans")
    harness.api.admins[GROUP] = {li.id}
    await harness.start()
    await harness.ask(li, "/lang zh")  # the group plays in Chinese
    await harness.open_game(li, ANA)
    await harness.start_game(li, [li, ANA])
    await harness.settle()
    table = harness.table()
    assert "⏱ 截止" in table.text
    for _ in range(12):
        user = await next_actor(harness, [li, ANA])
        if user is li and hand_messages(harness, li)[-1].text.startswith("🔔"):
            break
        await take_turn(harness, user)
    header = hand_messages(harness, li)[-1].text.splitlines()[0]
    assert header == f"🔔 group {GROUP}：轮到你了！"
    harness.say(li, "/stop")
    await harness.api.wait_for(lambda: harness.api.message(GROUP, table.message_id).reply_markup is None,
                               what="the table closed")
    closed = harness.api.message(GROUP, table.message_id).text
    assert re.search(r"Li.*结束|停止", closed), closed


async def test_a_stopped_lobby_keeps_no_join_or_start_button(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    lobby = harness.lobby()
    harness.say(ANA, "/stop")
    await harness.api.wait_for(lambda: harness.api.message(GROUP, lobby.message_id).reply_markup is None,
                               what="the lobby closed")
    text = harness.api.message(GROUP, lobby.message_id).text
    assert "stopped the game" in text and "can start" not in text and "Closes at" not in text


async def test_the_lobby_shows_when_it_closes_as_a_moment(harness: Harness):
    await harness.start()
    await harness.open_game(ANA)
    record = await harness.store.load(CHAT)
    assert f'<tg-time unix="{int(record.deadlines["lobby"])}" format="t">' in harness.lobby().text


async def test_a_bot_api_without_date_time_entities_gets_the_utc_time(harness: Harness):
    """A self-hosted Bot API older than 9.5 refuses <tg-time>: the table still goes out, with
    the deadline in UTC, and later tables are sent that way at once."""
    harness.api.date_time_entities = False
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await harness.settle()
    record = await harness.store.load(CHAT)
    text = harness.table().text
    assert "tg-time" not in text and "⏱ until" in text and text.rstrip().endswith(" UTC")
    refused = [c for c in harness.api.calls if c.status == 400 and c.chat_id == GROUP]
    assert record.deadlines["turn"] and len(refused) == 1  # learnt once
    await take_turn(harness, await next_actor(harness, [ANA, BO]))
    await harness.settle()
    assert len([c for c in harness.api.calls if c.status == 400 and c.chat_id == GROUP]) == 1
