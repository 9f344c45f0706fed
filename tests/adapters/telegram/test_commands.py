"""Group and private commands: each becomes one coordinator command; its reply reaches the sender."""

from __future__ import annotations

from dataclasses import replace

from .conftest import ANA, BO, CY, DEE, GROUP, Harness
from .helpers import CHAT, match_of, next_actor, take_turn


async def ask(harness: Harness, user, text: str, chat: int = GROUP, **kw) -> str:
    return await harness.ask(user, text, chat=chat, **kw)


async def test_information_commands_answer_in_the_chat(harness: Harness):
    await harness.start()
    rules = await ask(harness, ANA, "/rules")
    assert "UNO" in rules and any("\u4e00" <= ch <= "\u9fff" for ch in rules) and len(rules) <= 4096
    help_text = await ask(harness, DEE, "/help")
    assert "/new" in help_text and "/uno" in help_text
    # Told where it is read: the group plays here, the cards go to the private chat.
    assert help_text.startswith("UNO in this group: /new opens a game") and "your private chat with me" in help_text
    # A new user's first /start, in the private chat: no game opens there, a group is needed.
    first = await ask(harness, DEE, "/start", chat=DEE.id)
    assert first.startswith("Play UNO in a group: add me to one, then /new opens a game there")
    assert "UNO in this group" not in first and "/new" in first.split("\n\n", 1)[1]
    assert (await ask(harness, DEE, "/help", chat=DEE.id)).startswith("Play UNO in a group")
    await harness.open_game(ANA, BO)
    settings = await ask(harness, BO, "/settings")
    assert "Rules: official" in settings
    refused = await ask(harness, BO, "/settings stacking=same", privately=True)  # not the creator/an admin
    assert "creator or a chat admin" in refused
    # Bo is promoted: the cached "not an admin" is checked again on the next refusal.
    harness.api.admins[GROUP] = {BO.id}
    await ask(harness, BO, "/settings stacking=same")  # now allowed: answered in the group
    assert [c.params["user_id"] for c in harness.api.calls_to("getChatMember", GROUP)] == [BO.id, BO.id, BO.id]
    changed = await ask(harness, BO, "/settings")
    assert "Stacking +2/+4: off" in settings and "Stacking +2/+4: off" not in changed
    stats = await ask(harness, ANA, "/stats")
    assert "Stats of \u2068Ana\u2069" in stats  # the name isolated for right-to-left text
    top = await ask(harness, ANA, "/top")
    assert "Ratings of this chat" in top and "No season is running" in top


async def test_kick_by_reply_stop_and_language(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, [ANA, BO, CY])
    mover = await next_actor(harness, [ANA, BO, CY])
    await take_turn(harness, mover)
    # Only the creator (or an admin) may kick; a reply names the player.
    refused = await ask(harness, BO, "/kick", reply_to=harness.api.user_message(CY, GROUP), privately=True)
    assert "creator or a chat admin" in refused
    assert str(CY.id) in (await match_of(harness)).players
    harness.say(ANA, "/kick", reply_to=harness.api.user_message(CY, GROUP))

    async def cy_gone() -> bool:
        return str(CY.id) not in (await match_of(harness)).players

    await harness.until(cy_gone, "Cy to be kicked")
    # The chat's language, set by the creator: the table speaks Chinese at once.
    await ask(harness, ANA, "/lang zh")
    await harness.api.wait_for(lambda: any("\u4e00" <= ch <= "\u9fff" for ch in harness.table().text),
                               what="the table in Chinese")
    mover = await next_actor(harness, [ANA, BO])
    await take_turn(harness, mover)
    harness.say(ANA, "/stop")

    async def stopped() -> bool:
        return (await harness.store.get(game_id)).status == "stopped"

    await harness.until(stopped, "the game to stop")


async def test_kick_an_ai_seat_by_its_number_or_name(harness: Harness):
    """An AI seat has no message to reply to: /kick takes the seat as the table lists it."""
    await harness.start()
    await harness.open_game(ANA, BO)
    for seats in (3, 4):
        harness.say(ANA, "/ai easy")

        async def seated(n=seats) -> bool:
            return len((await harness.store.load(CHAT)).seats) == n

        await harness.until(seated, f"{seats} seats")
    hint = await ask(harness, ANA, "/kick")
    assert "/kick 2" in hint  # no reply and no seat: how to name one
    third, fourth = (await harness.store.load(CHAT)).seats[2:]
    harness.say(ANA, "/kick 3")

    async def seats_left() -> list[str]:
        return [s.user_id for s in (await harness.store.load(CHAT)).seats]

    await harness.until(lambda: _without(seats_left, third.user_id), "seat 3 removed")
    harness.say(ANA, f"/kick {fourth.name.lower()}")
    await harness.until(lambda: _without(seats_left, fourth.user_id), "the AI seat removed by name")
    assert await seats_left() == [str(ANA.id), str(BO.id)]


async def _without(seats_left, user_id: str) -> bool:
    return user_id not in await seats_left()


async def test_private_commands_find_the_players_game(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    mover = await next_actor(harness, [ANA, BO])
    waiting = BO if mover is ANA else ANA
    refusal = await ask(harness, waiting, "/draw", chat=waiting.id)  # in the private chat
    assert "turn" in refusal.lower()
    for command in ("/draw", "/play R5", "/watch"):  # each answered the same way
        lonely = await ask(harness, DEE, command, chat=DEE.id)
        assert "not in a game" in lonely.lower(), command


async def test_group_commands_in_the_private_chat_point_to_a_group(harness: Harness):
    await harness.start()
    answer = await ask(harness, DEE, "/new", chat=DEE.id)
    assert "group" in answer


async def test_settings_typed_as_the_chinese_list_shows_them(harness: Harness):
    """"发牌数：7" on the list a Chinese client is shown: typed back (full-width sign too), it
    changes the setting; a lone word is answered with how to write a change, nothing changed."""
    chen = replace(ANA, language_code="zh-hans")
    await harness.start()
    await harness.open_game(chen, BO)
    assert "发牌数：7" in await ask(harness, chen, "/settings")
    changed = await ask(harness, chen, "/settings 发牌数＝5 叠加+2/+4：同类叠加")
    assert "发牌数：5" in changed and "叠加+2/+4：同类叠加" in changed, changed
    usage = await ask(harness, chen, "/settings 发牌数", privately=True)  # a refusal: to the sender
    assert "设置的写法" in usage and "/settings stacking=same" in usage, usage
    assert "发牌数：5" in await ask(harness, chen, "/settings")


async def test_a_bot_without_a_level_is_of_the_groups_level(harness: Harness):
    """/ai alone and the lobby's Add AI seat a bot of the level the group chose in its settings
    (/settings ai_level=困难); /ai with a level still says which."""
    await harness.start()
    await harness.open_game(ANA, BO)
    await ask(harness, ANA, "/settings ai_level=困难")
    harness.say(ANA, "/ai")
    harness.say(ANA, "/ai easy")
    lobby = harness.lobby()
    await harness.press(ANA, lobby, next(b["callback_data"] for b in lobby.buttons()
                                         if b.get("callback_data", "").endswith(":ai")))

    async def bots() -> list[str]:
        record = await harness.store.load(CHAT)
        return sorted(seat.ai for seat in record.seats if seat.ai)

    async def three_bots() -> bool:
        return len(await bots()) == 3

    await harness.until(three_bots, "three bots seated")
    assert await bots() == ["easy", "hard", "hard"]


async def test_a_leavers_private_hand_loses_its_buttons(harness: Harness):
    """The hand message of a player who leaves mid-game is edited to say so, with no keyboard:
    its buttons would only be refused from now on."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, [ANA, BO, CY])
    hand = harness.hand_message(CY)
    assert hand is not None and hand.buttons()
    harness.say(CY, "/leave")

    def closed():
        shown = harness.api.message(CY.id, hand.message_id)
        return shown if not shown.buttons() else None

    shown = await harness.api.wait_for(closed, what="Cy's hand to be closed")
    assert shown.text == "You left the game." and shown.reply_markup is None
    assert harness.hand_message(ANA).buttons()  # the others play on


async def test_a_player_a_bot_takes_over_from_is_told_in_their_hand_and_comes_back_with_hand(harness: Harness):
    """Three missed turns: the player's hand message says a bot plays for them, with no
    keyboard (its buttons would be of a position gone by); /hand brings their hand back."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, [ANA, BO, CY])
    ids = {str(u.id): u for u in (ANA, BO, CY)}

    async def taken() -> str | None:
        record = await harness.store.load(CHAT)
        return record.book.taken_over[0] if record.book.taken_over else None

    away = None
    for _ in range(12):
        away = await taken()
        if away is not None:
            break
        await harness.clock.advance(61)
        await harness.settle()
    assert away is not None
    user = ids[away]

    def set_aside():
        message = harness.hand_message(user)
        return message if message and "a bot plays for you" in message.text else None

    message = await harness.api.wait_for(set_aside, what="the hand to say a bot plays")
    assert message.text == "You were away too long: a bot plays for you until you open your hand again."
    assert message.reply_markup is None
    harness.say(user, "/hand")
    await harness.api.wait_for(lambda: harness.hand_message(user).buttons() or None,
                               what="their hand back, with its buttons")


async def test_lang_alone_offers_the_languages_as_buttons(harness: Harness):
    """/lang alone: the languages under their own names, the current one ticked; a press sets
    it (the chat's in a group, for its creator or an admin; one's own in the private chat)."""
    await harness.start()
    harness.api.admins[GROUP] = {ANA.id}
    menu_text = await ask(harness, ANA, "/lang")
    assert "Which language should this chat speak?" in menu_text
    menu = next(m for m in reversed(harness.api.chat_messages(GROUP)) if m.text == menu_text)
    assert [b["text"] for b in menu.buttons()] == ["✅ English", "中文"]
    refused = await harness.press(BO, menu, "lg:zh_CN")  # not an admin
    assert refused.get("show_alert") is True
    assert (await harness.store.chat_settings(CHAT)).language == "en"
    answer = await harness.press(ANA, menu, "lg:zh_CN")
    assert not answer.get("show_alert")
    assert (await harness.store.chat_settings(CHAT)).language == "zh_CN"
    await harness.api.wait_for(lambda: [b["text"] for b in harness.api.message(GROUP, menu.message_id).buttons()]
                               == ["English", "✅ 中文"], what="the new choice ticked")
    # In the private chat: one's own language.
    private_text = await ask(harness, BO, "/lang", chat=BO.id)
    assert private_text == "Which language should I write to you in?"
    private = next(m for m in reversed(harness.api.chat_messages(BO.id)) if m.text == private_text)
    answer = await harness.press(BO, private, "lg:zh_CN")
    assert "中文" in answer["text"] and not answer.get("show_alert")
    assert (await harness.store.user_profile("telegram", str(BO.id))).language == "zh_CN"


async def test_a_removed_player_is_told_in_a_new_private_message(harness: Harness):
    """Removed by someone else, a player hears of it: the closed hand is posted anew (an edit
    notifies nobody) and the old hand message goes."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, [ANA, BO, CY])
    old = harness.hand_message(CY)
    assert old is not None and old.buttons()
    harness.say(ANA, "/kick", reply_to=harness.api.user_message(CY, GROUP))

    def told():
        return [m for m in harness.api.chat_messages(CY.id)
                if m.text == "You were removed from the game by \u2068Ana\u2069."] or None

    [message] = await harness.api.wait_for(told, what="Cy told of the removal")
    assert message.message_id != old.message_id and message.reply_markup is None
    await harness.api.wait_for(lambda: harness.api.calls_to("deleteMessage", CY.id),
                               what="the old hand taken down")


async def test_a_removed_player_whose_hand_was_taken_down_is_told_too(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, [ANA, BO, CY])
    for _ in range(12):  # until Cy's turn has come and gone: their hand message is deleted
        if harness.api.calls_to("deleteMessage", CY.id) and harness.hand_message(CY) is None:
            break
        await take_turn(harness, await next_actor(harness, [ANA, BO, CY]))
        await harness.settle()
    assert harness.hand_message(CY) is None or not harness.hand_message(CY).buttons()
    harness.say(ANA, "/kick", reply_to=harness.api.user_message(CY, GROUP))
    await harness.api.wait_for(
        lambda: any(m.text == "You were removed from the game by \u2068Ana\u2069."
                    for m in harness.api.chat_messages(CY.id)), what="Cy told of the removal")
