"""Games through the real Application: users only press buttons found in messages they got."""

from __future__ import annotations

from adapters.telegram import callbacks

from .conftest import ANA, BO, CY, DEE, GROUP, Harness, data_of, hand_button
from .fake_bot_api import StoredMessage
from .helpers import (
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
IDS = {u: str(u.id) for u in PLAYERS}


async def test_three_users_play_a_whole_hand_with_buttons(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO, CY)
    assert all(n in harness.lobby().text for n in ("Ana", "Bo", "Cy"))
    await harness.start_game(ANA, PLAYERS)
    turns = await play_until_hand_ends(harness, PLAYERS)
    assert turns > 3
    result = hand_results(harness)[0]
    assert result.game_id == game_id
    assert sum(p.won for p in result.players) == 1
    await harness.settle()
    # One table message, edited in place: never a new post per turn. Every turn edited it,
    # or was merged into the next edit while that one waited (a new picture's upload).
    group_sends = harness.api.calls_to("sendMessage", GROUP)
    tables = [m for m in harness.api.chat_messages(GROUP) if m.edits]
    assert len(tables) == 1 and tables[0].photo is not None
    assert tables[0].edits + harness.bot.port.outbox(GROUP).merged >= turns
    # Flood budget: at most one group message or edit per turn (plus the lobby's few and the
    # hand's result notice).
    group_calls = [c for c in harness.api.calls if c.chat_id == GROUP and c.method != "getChatMember"]
    assert len(group_calls) <= turns + 6, len(group_calls)
    assert len(group_sends) <= 3  # the lobby (later the table) and the hand's result notice(s)
    # Each player keeps one hand message in the private chat: posted anew (notifying) when
    # their turn comes, the previous one deleted; edited in between when it changes while it
    # stays up (a card drawn on one's turn: whose, the deal decides).
    for user in PLAYERS:
        hands = [m for m in harness.api.chat_messages(user.id) if data_of(m)]
        assert len(hands) == 1, user.first_name
        sent = [c for c in harness.api.calls_to("sendMessage", user.id) if "reply_markup" in c.params]
        assert len(harness.api.calls_to("deleteMessage", user.id)) == len(sent) - 1
    assert any(harness.api.calls_to("editMessageText", user.id) for user in PLAYERS)
    # Every callback query got exactly one answer.
    ids = [c.params["callback_query_id"] for c in harness.api.calls_to("answerCallbackQuery")]
    assert len(ids) == len(set(ids))


async def test_pressing_another_players_hand_changes_nothing(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    intruder = next(u for u in PLAYERS if u is not mover)
    victim_hand = harness.hand_message(mover)
    before = await harness.store.get(game_id)
    for data in data_of(victim_hand)[:3]:
        answer = await harness.press(intruder, victim_hand, data)
        assert answer["show_alert"] is True and "another player" in answer["text"]
    # Forged data naming the intruder as owner, pressed on the victim's message: the
    # coordinator judges it as the intruder's own move (not their turn).
    forged = callbacks.hand(game_id, str(intruder.id), "d")
    answer = await harness.press(intruder, victim_hand, forged)
    assert answer.get("text")
    garbage = await harness.press(intruder, victim_hand, "h:zz:1:p:Q9")
    assert garbage["show_alert"] is True and garbage["text"] == "This button is not valid any more."
    # A table button naming this game, pressed under a message of another chat, does nothing.
    elsewhere = harness.api.user_message(intruder, -100999)
    foreign = StoredMessage(-100999, elsewhere["message_id"], "", None)
    answer = await harness.press(intruder, foreign, callbacks.table(game_id, "uno"))
    assert answer["show_alert"] is True and answer["text"] == "This button is not valid any more."
    after = await harness.store.get(game_id)
    assert after.match == before.match


async def test_stale_keyboard_after_the_game_ended_gets_a_popup(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    mover = await next_actor(harness, [ANA, BO])
    old = harness.hand_message(mover)
    old_buttons = data_of(old)
    harness.say(ANA, "/stop")
    await _wait_stopped(harness, game_id)
    stopped = await harness.store.get(game_id)
    for data in old_buttons[:2]:
        answer = await harness.press(mover, old, data)
        assert answer["show_alert"] is True and "over" in answer["text"]
    table_answer = await harness.press(DEE, old, callbacks.table(game_id, "uno"))
    assert table_answer["show_alert"] is True
    assert (await harness.store.get(game_id)).version == stopped.version


async def _wait_stopped(harness: Harness, game_id: str) -> None:
    async def stopped() -> bool:
        record = await harness.store.get(game_id)
        # ... and its last messages delivered (the stored outbox is dropped after them)
        return record is not None and not record.active and record.delivery.outbox is None

    await harness.until(stopped, "the game to stop")


async def test_a_call_out_chosen_from_inline_results_catches_the_player(harness: Harness):
    """Bo plays his second-last card without saying UNO!; Ana, typing @bot in the group, finds
    "Call out Bo" among her results, and choosing it gives Bo his two cards."""
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    await rig(harness, hands={IDS[BO]: ["R7", "Y+2"]}, top="R3", current=IDS[BO])
    await refresh_hands(harness, PLAYERS)
    message = harness.hand_message(BO)
    plain = next(d for d in data_of(message) if callbacks.parse(d).card == "R7"
                 and callbacks.parse(d).verb == "p" and not callbacks.parse(d).uno)
    await harness.press(BO, message, plain)

    async def forgot() -> bool:
        return IDS[BO] in (await match_of(harness)).game.catchable
    await harness.until(forgot, "Bo open to a call-out")
    # No hand message was edited for that (a plain turn touches only the mover's and the next
    # player's): the results come from the game as it is now.
    query = harness.api.inline_query(ANA)
    answer = (await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == query], what="inline answer"))[0].params
    catch = next((r for r in answer["results"] if r.get("title") == "Call out Bo"), None)
    assert catch is not None, [r.get("title") for r in answer["results"]]
    assert catch["id"].endswith(f":k:::{IDS[BO]}")
    assert catch["input_message_content"]["message_text"] == "Call out Bo"  # what Ana says in the group
    # Typing a digit filters cards: a call-out is not found by a digit of the player's id.
    digit = IDS[BO][-1]
    typed = harness.api.inline_query(ANA, digit)
    filtered = (await harness.api.wait_for(
        lambda: [c for c in harness.api.calls_to("answerInlineQuery")
                 if c.params["inline_query_id"] == typed], what="filtered answer"))[0].params
    assert not [r for r in filtered["results"] if r.get("title") == "Call out Bo"]
    harness.api.choose_inline_result(ANA, catch["id"])

    async def caught() -> bool:
        return len((await match_of(harness)).game.hand(IDS[BO])) == 3
    await harness.until(caught, "Bo's two penalty cards")


async def test_uno_call_out_race_gives_exactly_one_penalty(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    match = await match_of(harness)
    top = match.game.top
    # The mover holds two cards, one of them playable, and plays it without saying UNO.
    playable = f"{top.color.value}{'7' if top.rank.value != '7' else '8'}" if top.color else "W"
    await rig(harness, hands={IDS[mover]: [playable, "Y+2" if playable != "Y+2" else "G+2"]},
              current=IDS[mover])
    await refresh_hands(harness, PLAYERS)
    message = harness.hand_message(mover)
    plain = next(d for d in data_of(message)
                 if callbacks.parse(d).card == playable and not callbacks.parse(d).uno
                 and callbacks.parse(d).verb in ("p", "w"))
    answer = await harness.press(mover, message, plain)
    if callbacks.parse(plain).verb == "w":
        message = harness.api.message(message.chat_id, message.message_id)
        answer = await harness.press(mover, message, next(d for d in data_of(message) if ":p:" in d))
    assert answer.get("show_alert") is not True
    assert len((await match_of(harness)).game.hand(IDS[mover])) == 1
    # Two others press the table's UNO! button in the same instant.
    others = [u for u in PLAYERS if u is not mover]
    table = harness.table()
    uno = next(d for d in data_of(table) if d.startswith("t:"))
    held_before = [len((await match_of(harness)).game.hand(IDS[u])) for u in others]
    first = harness.api.press(others[0], table, uno)
    second = harness.api.press(others[1], table, uno)
    answers = [(await harness.api.wait_answer(first)).params, (await harness.api.wait_answer(second)).params]
    held = len((await match_of(harness)).game.hand(IDS[mover]))
    assert held == 3, answers  # one card + one penalty of two, not two penalties
    after = (await match_of(harness)).game
    assert [len(after.hand(IDS[u])) for u in others] == held_before  # no wrong-call cards
    texts = sorted(a.get("text", "").lower() for a in answers)
    assert sum("caught" in t for t in texts) == 1, texts  # the winner of the race is told
    assert "already called" in texts[1], texts  # the loser learns it was too late, for free
    # A bystander's late call changes nothing.
    late = await harness.press(DEE, table, uno)
    assert late.get("text")
    assert len((await match_of(harness)).game.hand(IDS[mover])) == 3


async def test_challenge_a_bluffed_wild_draw_four(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await rig(harness, hands={IDS[ANA]: ["W+4", "R5", "B7"], IDS[BO]: ["G1", "G2", "Y3"]},
              top="R3", current=IDS[ANA])
    await refresh_hands(harness, [ANA, BO])
    message = harness.hand_message(ANA)
    wild = next(d for d in data_of(message) if callbacks.parse(d).card == "W+4")
    await harness.press(ANA, message, wild)
    colours = harness.api.message(message.chat_id, message.message_id)
    green = next(d for d in data_of(colours) if callbacks.parse(d).color == "G")
    answer = await harness.press(ANA, colours, green)
    assert answer.get("show_alert") is not True
    bo_hand = await harness.api.wait_for(
        lambda: hand_button(harness.hand_message(BO), "c") and harness.hand_message(BO),
        what="Bo's Challenge button")
    answer = await harness.press(BO, bo_hand, hand_button(bo_hand, "c"))
    assert answer.get("show_alert") is not True
    game = (await match_of(harness)).game
    assert len(game.hand(IDS[ANA])) == 2 + 4  # she held red: the bluff costs her four cards
    assert len(game.hand(IDS[BO])) == 3


async def test_restart_in_the_middle_the_old_keyboard_still_works(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    for _ in range(3):
        await take_turn(harness, await next_actor(harness, PLAYERS))
    mover = await next_actor(harness, PLAYERS)
    old_message = harness.hand_message(mover)
    table_id = harness.table().message_id
    record = await harness.store.get(game_id)
    await harness.restart()
    await take_turn(harness, mover)  # presses a button of the keyboard sent before the restart
    after = await harness.store.get(game_id)
    assert after.version > record.version
    shown = harness.hand_message(mover)  # edited in place, or taken down as the turn left them
    assert shown is None or shown.message_id == old_message.message_id
    await harness.settle()
    assert harness.table().message_id == table_id  # the stored table message is edited on
    assert actor(harness, PLAYERS) is not mover


async def test_a_wild_turned_first_renders_and_can_be_played_on(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    await rig(harness, hands={IDS[ANA]: ["R1", "G2"], IDS[BO]: ["G7", "R9"]}, top="W", color="",
              current=IDS[ANA], first_wild="any_card")  # no colour named: any card goes
    await refresh_hands(harness, [ANA, BO])
    hand = harness.hand_message(ANA)
    assert "free choice" in hand.text
    assert {callbacks.parse(d).card for d in data_of(hand) if ":p:" in d and not d.endswith(":u")} >= {"R1", "G2"}
    await take_turn(harness, ANA)  # any card may be played on it
    assert (await match_of(harness)).game.color is not None
    assert len((await match_of(harness)).game.hand(IDS[ANA])) == 1


async def test_a_big_hand_is_paged_and_a_seven_swaps_with_the_chosen_player(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.ask(ANA, "/settings seven_zero=on")
    await harness.start_game(ANA, PLAYERS)
    big = ["R7"] + [f"{c}{n}" for c in "GB" for n in range(1, 10)] + [f"Y{n}" for n in range(1, 10)] + ["GS", "BS"]
    await rig(harness, hands={IDS[ANA]: big, IDS[BO]: ["Y1", "Y2"]}, top="R3", current=IDS[ANA])
    await refresh_hands(harness, PLAYERS)
    hand = harness.hand_message(ANA)
    cards_shown = [d for d in data_of(hand) if callbacks.parse(d).verb in ("p", "w", "s", "x")]
    assert len(cards_shown) == 24  # one page; the rest behind ▶
    forward = [d for d in data_of(hand) if callbacks.parse(d).verb == "g"][-1]
    await harness.press(ANA, hand, forward)
    page2 = harness.api.message(hand.chat_id, hand.message_id)
    assert len([d for d in data_of(page2) if callbacks.parse(d).verb in ("p", "w", "s", "x")]) == len(big) - 24
    # The 7 (playable, so on page 1) asks whom to swap with, then swaps.
    back = [d for d in data_of(page2) if callbacks.parse(d).verb == "g"][0]
    await harness.press(ANA, page2, back)
    hand = harness.api.message(hand.chat_id, hand.message_id)
    seven = next(d for d in data_of(hand) if callbacks.parse(d).card == "R7")
    assert callbacks.parse(seven).verb == "s"
    await harness.press(ANA, hand, seven)
    targets = harness.api.message(hand.chat_id, hand.message_id)
    to_bo = next(d for d in data_of(targets) if callbacks.parse(d).target == IDS[BO])
    answer = await harness.press(ANA, targets, to_bo)
    assert answer.get("show_alert") is not True, answer
    game = (await match_of(harness)).game
    assert sorted(map(str, game.hand(IDS[ANA]))) == ["Y1", "Y2"]
    assert len(game.hand(IDS[BO])) == len(big) - 1


async def test_multi_play_picks_the_top_card_of_several_of_one_rank(harness: Harness):
    await harness.start()
    await harness.open_game(ANA, BO)
    await harness.ask(ANA, "/settings multi_play=on")
    await harness.start_game(ANA, [ANA, BO])
    await rig(harness, hands={IDS[ANA]: ["R5", "B5", "G5", "Y9"]}, top="R3", current=IDS[ANA])
    await refresh_hands(harness, [ANA])
    hand = harness.hand_message(ANA)
    multi = next(d for d in data_of(hand) if callbacks.parse(d).verb == "m")
    await harness.press(ANA, hand, multi)
    menu = harness.api.message(hand.chat_id, hand.message_id)
    plays = [callbacks.parse(d) for d in data_of(menu) if callbacks.parse(d).verb == "p"]
    # Only the red 5 may start (on a red 3), so it never ends on top; UNO! is offered where
    # one card is left; two of the three may be played too, as the rules allow.
    assert {(a.card, a.uno) for a in plays} == {("R5.G5.B5", False), ("R5.G5.B5", True),
                                                ("R5.B5.G5", False), ("R5.B5.G5", True),
                                                ("R5.B5", False), ("R5.G5", False)}
    green_on_top = next(d for d in data_of(menu)
                        if callbacks.parse(d).card == "R5.B5.G5" and callbacks.parse(d).uno)
    answer = await harness.press(ANA, menu, green_on_top)
    assert answer.get("show_alert") is not True, answer
    game = (await match_of(harness)).game
    assert [str(c) for c in game.hand(IDS[ANA])] == ["Y9"]
    assert str(game.top) == "G5"


async def test_a_keyboard_of_an_earlier_hand_gets_a_popup(harness: Harness):
    await harness.start()
    game_id = await harness.open_game(ANA, BO)
    await harness.start_game(ANA, [ANA, BO])
    first = await next_actor(harness, [ANA, BO])
    old_message = harness.hand_message(first)
    old_buttons = data_of(old_message)
    assert all(callbacks.parse(d).hand == 1 for d in old_buttons)
    await play_until_hand_ends(harness, [ANA, BO])

    async def next_hand_dealt() -> bool:
        return (await harness.store.get(game_id)).match["hand_number"] == 2

    await harness.until(next_hand_dealt, "the next hand")
    await harness.settle()
    record = await harness.store.get(game_id)
    for data in old_buttons[:3]:
        answer = await harness.press(first, old_message, data)
        assert answer["show_alert"] is True and "hand is over" in answer["text"]
    assert (await harness.store.get(game_id)).version == record.version
    # The new hand's keyboard carries the new number and works.
    await harness.api.wait_for(lambda: data_of(harness.hand_message(first)) and all(
        callbacks.parse(d).hand == 2 for d in data_of(harness.hand_message(first))), what="hand 2's keyboard")
    await take_turn(harness, await next_actor(harness, [ANA, BO]))
