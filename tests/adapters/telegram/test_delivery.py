"""Private delivery: a player who never started the bot (403), flood control (429), inline
mode, languages and the command menu."""

from __future__ import annotations

from adapters.telegram import buttons, callbacks
from adapters.telegram.inline import PAGE
from bot.engine.cards import Color, full_deck
from bot.i18n import card_label

from .conftest import ANA, BO, CY, DEE, GROUP, Harness, data_of, shown_text, table_calls
from .fake_bot_api import TgUser
from .helpers import actor, match_of, next_actor, play_until_hand_ends, rig, take_turn
from .test_privacy import PrivacyWatch

PLAYERS = [ANA, BO, CY]


async def test_unreachable_player_is_told_in_the_group_and_gets_the_hand_after_start(harness: Harness):
    watch = PrivacyWatch(harness)
    harness.api.observer = watch  # no card revealed in the group meanwhile
    harness.api.forbid_chat(CY.id)
    await harness.start()
    await harness.open_game(ANA, BO)
    harness.say(CY, "/join")
    await harness.api.wait_for(lambda: "Cy" in harness.lobby().text, what="Cy in the lobby")
    await harness.start_game(ANA, [ANA, BO])
    notice = await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("sendMessage", GROUP)
                 if "tg://user?id=1003" in c.params["text"] and "Start" in c.params["text"]],
        what="the unreachable notice")
    assert len(notice) == 1
    assert harness.api.calls_to("sendMessage", CY.id)[0].status == 403
    state = (await match_of(harness)).game
    cy_cards = {str(c) for c in state.hand(str(CY.id))}
    assert cy_cards  # Cy keeps the seat and the cards
    # Without a private chat, inline mode shows Cy the hand right in the group.
    query = harness.api.inline_query(CY)
    results = (await _inline_answer(harness, query))["results"]
    assert {r["id"].split(":")[3] for r in results if r["id"].split(":")[2] in ("p", "x")} == cy_cards
    # Cy opens the private chat: the hand arrives at once.
    harness.api.allow_chat(CY.id)
    harness.say(CY, "/start", chat=CY.id)
    hand = await harness.api.wait_for(lambda: harness.hand_message(CY), what="Cy's hand")
    shown = {callbacks.parse(d).card for d in data_of(hand) if callbacks.parse(d).verb in ("p", "w", "s", "x")}
    assert shown == cy_cards
    # And Cy plays on with it, like everyone else.
    for _ in range(12):
        mover = await next_actor(harness, PLAYERS)
        await take_turn(harness, mover)
        if mover is CY:
            break
    else:
        raise AssertionError("Cy never got a turn")
    await harness.settle()  # the last table edit is queued, not awaited by the move
    assert watch.checked >= 3 and not watch.leaks, watch.leaks


async def test_a_429_is_retried_without_losing_or_reordering_messages(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    mover = await next_actor(harness, [ANA, BO])
    await harness.settle()
    harness.api.rate_limit_once(chat_id=GROUP, retry_after=1)  # the turn's one group call: the table
    # the mover's one private call: their hand edited (a draw), or taken down (the turn left them)
    harness.api.rate_limit_once(chat_id=mover.id, retry_after=1)
    await take_turn(harness, mover)
    await harness.settle()
    edits = table_calls(harness.api)
    limited = [i for i, c in enumerate(edits) if c.status == 429]
    assert len(limited) == 1
    retried = edits[limited[0] + 1]
    assert retried.status == 200 and retried.method == edits[limited[0]].method
    assert shown_text(retried) == shown_text(edits[limited[0]])
    # The table shows the latest state: what the store holds after the move.
    match = await match_of(harness)
    table = harness.table()
    assert table.text == shown_text(edits[-1])
    assert str(len(match.game.hand(str(mover.id)))) in table.text
    private = [c for c in harness.api.calls_to(None, mover.id) if c.method != "getChatMember"]
    assert [c.status for c in private].count(429) == 1 and private[-1].status == 200
    if private[-1].method == "editMessageText":
        assert harness.hand_message(mover).text == private[-1].params["text"]
    else:
        assert private[-1].method == "deleteMessage" and harness.hand_message(mover) is None


async def test_inline_mode_shows_the_hand_personally_and_plays_the_chosen_card(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    mover = await next_actor(harness, [ANA, BO])
    query_id = harness.api.inline_query(mover)
    answer = (await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == query_id], what="inline answer"))[0].params
    assert answer["is_personal"] is True and answer["cache_time"] == 0
    results = answer["results"]
    hand = (await match_of(harness)).game.hand(str(mover.id))
    assert len([r for r in results if ":p:" in r["id"] or ":x:" in r["id"]]) >= len(hand)
    for result in results:
        text = result["input_message_content"]["message_text"]
        # the posted line names no card, by code or by name
        assert not any(str(card) in text or card_label(card, "en") in text for card in hand)
        if result["id"].endswith(":d"):  # a move that is no card says itself
            assert text == "Draw"
    playable = [r for r in results if ":p:" in r["id"] and r.get("description") == "Playable"]
    choice = playable[0] if playable else next(r for r in results if r["id"].endswith(":d"))
    before = len(hand)
    harness.api.choose_inline_result(mover, choice["id"])
    await harness.api.wait_for(lambda: next_actor_now(harness, [ANA, BO]) not in (mover, None),
                               what="the turn to move on")
    after = (await match_of(harness)).game.hand(str(mover.id))
    assert len(after) == before - 1 if playable else len(after) >= before
    # Typing after the bot's name filters the choices.
    now_moving = next_actor_now(harness, [ANA, BO])
    typed = harness.api.inline_query(now_moving, query="draw")
    only = (await _inline_answer(harness, typed))["results"]
    assert only and all("draw" in r["title"].lower() or r["id"].endswith(":d") for r in only)
    # Someone without a game gets no results, only a button to the bot.
    other = harness.api.inline_query(DEE)
    empty = (await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == other], what="inline answer"))[0].params
    assert empty["results"] == [] and empty["button"]["start_parameter"] == "help"
    assert game_id


def next_actor_now(harness: Harness, players: list[TgUser]) -> TgUser | None:
    return actor(harness, players)


async def test_inline_results_are_paged_past_fifty(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    # A 65-card hand (red, green and blue cards) on a yellow 1: three of them playable.
    deck = [c for c in full_deck() if c.color in (Color.RED, Color.GREEN, Color.BLUE)]
    for card in (await match_of(harness)).game.discard:  # not in anyone's hand to give
        if card in deck:
            deck.remove(card)
    cards = [str(c) for c in deck[:65]]
    await rig(harness, hands={str(ANA.id): cards})  # Bo's cards among them are replaced
    await rig(harness, hands={str(BO.id): ["Y5"]}, top="Y1", current=str(ANA.id))
    first = harness.api.inline_query(ANA)
    page1 = await _inline_answer(harness, first)
    assert len(page1["results"]) == PAGE and page1["next_offset"] == str(PAGE)
    second = harness.api.inline_query(ANA, offset=page1["next_offset"])
    page2 = await _inline_answer(harness, second)
    assert len(page2["results"]) == 65 + 1 - PAGE and page2.get("next_offset", "") == ""  # + Draw
    ids = [r["id"] for r in page1["results"] + page2["results"]]
    assert len(ids) == len(set(ids)) and all(len(i.encode()) <= 64 for i in ids)


async def _inline_answer(harness: Harness, query_id: str) -> dict:
    calls = await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == query_id], what="inline answer")
    return calls[0].params


async def test_chinese_speakers_get_chinese_hands_and_popups(harness: Harness):
    zh = TgUser(1009, "Li", language_code="zh-hans")
    await harness.start()
    await harness.open_game(ANA, zh)
    await harness.start_game(ANA, [ANA, zh])
    hand = harness.hand_message(zh)
    assert any("\u4e00" <= ch <= "\u9fff" for ch in hand.text), hand.text
    answer = await harness.press(zh, harness.hand_message(ANA), data_of(harness.hand_message(ANA))[0])
    assert any("\u4e00" <= ch <= "\u9fff" for ch in answer["text"]), answer
    # Ana's client is English; /lang zh in her private chat switches her own messages.
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in harness.hand_message(ANA).text)
    await harness.ask(ANA, "/lang zh", chat=ANA.id)
    harness.say(ANA, "/hand", chat=ANA.id)
    await harness.api.wait_for(lambda: any("\u4e00" <= ch <= "\u9fff" for ch in harness.hand_message(ANA).text),
                               what="Ana's hand in Chinese")


async def test_command_menu_is_registered_in_english_and_chinese(harness: Harness):
    await harness.start()
    menus = harness.api.calls_to("setMyCommands")
    assert [m.params.get("language_code") for m in menus] == [None, "zh"]
    english = {c["command"] for c in menus[0].params["commands"]}
    assert {"new", "join", "start", "uno", "challenge", "draw", "pass", "stop", "kick", "settings",
            "rules", "stats", "top", "lang", "help"} <= english
    assert any("\u4e00" <= ch <= "\u9fff" for c in menus[1].params["commands"] for ch in c["description"])


async def test_a_slow_delivery_does_not_leave_the_button_spinning(harness: Harness, monkeypatch):
    monkeypatch.setattr(buttons, "ANSWER_WITHIN", 0.2)
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    mover = await next_actor(harness, [ANA, BO])
    other = BO if mover is ANA else ANA
    harness.api.slow_chat(other.id, 1.0)  # the next player's hand takes a second to arrive
    before = len(harness.api.calls_to("sendMessage", other.id))
    await take_turn(harness, mover)  # returns when the press is answered
    answered = harness.api.calls_to("answerCallbackQuery")[-1]
    await harness.api.wait_for(lambda: next_actor_now(harness, [ANA, BO]) is other, what="the move to complete")
    edit = harness.api.calls_to("sendMessage", other.id)[before]  # the "your turn" message
    await harness.api.wait_for(lambda: edit.done_at, what="the slow edit")
    assert answered.at < edit.done_at  # the spinner stopped before the slow hand edit was done
    assert answered.params.get("text") is None  # an empty answer: the move itself shows the result


async def test_table_edits_that_pile_up_are_merged_in_order(harness: Harness):
    """Under Telegram's group limit (here: a slow group), the game does not wait for its
    table: edits still waiting are merged into the newest, and nothing is reordered."""
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    harness.api.slow_chat(GROUP, 0.4)
    start = len(harness.api.calls_to(None, GROUP))
    moves = 0
    for _ in range(6):
        await take_turn(harness, await next_actor(harness, [ANA, BO]))
        moves += 1
    await harness.bot.port.drain()
    edits = table_calls(harness.api)
    table = harness.table()
    assert len(harness.api.calls_to(None, GROUP)) - start < moves  # fewer edits than moves
    assert harness.bot.port.outbox(GROUP).merged > 0
    # The table ends showing the latest state: the last edit sent is what the store holds.
    assert table.text == shown_text(edits[-1])
    match = await match_of(harness)
    for user in (ANA, BO):
        seat_line = next(line for line in table.text.splitlines()
                         if f". \u2068{user.first_name}\u2069 ·" in line)  # names isolated (RTL)
        assert f"· {len(match.game.hand(str(user.id)))} card" in seat_line, seat_line
async def test_names_are_escaped_in_html(harness: Harness):
    eve = TgUser(1010, "<b>Eve & co</b>")
    await harness.start()
    await harness.open_game(ANA, eve)
    lobby = harness.lobby().text
    assert "&lt;b&gt;Eve &amp; co&lt;/b&gt;" in lobby and "<b>Eve" not in lobby
    await harness.start_game(ANA, [ANA, eve])
    await harness.api.wait_for(lambda: harness.table(), what="the table")
    assert "<b>Eve" not in harness.table().text


async def test_an_inline_choice_made_for_an_earlier_hand_is_not_played(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    query = harness.api.inline_query(ANA)
    results = (await _inline_answer(harness, query))["results"]
    old = next(r["id"] for r in results if ":p:" in r["id"])
    assert old.split(":")[0].split(".")[1] == "1"  # made for hand 1 (then the hand's token)
    await play_until_hand_ends(harness, [ANA, BO])

    async def next_hand() -> bool:
        return (await harness.store.get(game_id)).match["hand_number"] == 2

    await harness.until(next_hand, "hand 2")
    await harness.settle()
    version = (await harness.store.get(game_id)).version
    mark = len(harness.api.calls)
    harness.api.choose_inline_result(ANA, old)
    told = await harness.api.wait_for(lambda: [c for c in harness.api.calls[mark:]
                                               if c.method == "sendMessage" and c.chat_id == ANA.id],
                                      what="a private note")
    assert "hand is over" in told[0].params["text"]
    assert (await harness.store.get(game_id)).version == version
