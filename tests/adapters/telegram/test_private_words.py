"""Words typed in the private chat, where the hand is: a card or a move as the hand names it
plays it, anything else is answered with how to play; nothing typed there goes unanswered."""

from __future__ import annotations

import html
import re

from .conftest import ANA, BO, CY, DEE, GROUP, Harness
from .helpers import CHAT, actor, match_of, next_actor, refresh_hands, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}


async def _my_turn(harness: Harness, cards: list[str], top: str = "R3"):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    await rig(harness, hands={IDS[mover]: cards}, current=IDS[mover], top=top)
    await harness.settle()
    return mover


async def _top(harness: Harness) -> str:
    return str((await match_of(harness)).game.discard[-1])


async def test_a_card_typed_privately_is_played(harness: Harness):
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    harness.say(mover, "红5", chat=mover.id)

    async def played() -> bool:
        return await _top(harness) == "R5"
    await harness.until(played, "the red five on the pile")


async def test_a_wild_typed_without_a_colour_is_asked_for_one_and_the_colour_completes_it(harness: Harness):
    mover = await _my_turn(harness, ["W", "G3", "Y9"])
    answer = await harness.ask(mover, "万能牌", chat=mover.id)
    assert "colour" in answer.lower() and await _top(harness) == "R3"
    harness.say(mover, "蓝", chat=mover.id)

    async def played() -> bool:
        return await _top(harness) == "W"
    await harness.until(played, "the wild on the pile")
    assert (await match_of(harness)).game.color.value == "B"


async def test_a_move_typed_as_the_hand_names_it_is_made(harness: Harness):
    mover = await _my_turn(harness, ["G3", "Y9"])
    before = len((await match_of(harness)).game.hand(IDS[mover]))
    harness.say(mover, "摸牌", chat=mover.id)  # "draw" as the Chinese hand names it

    async def drew() -> bool:
        return len((await match_of(harness)).game.hand(IDS[mover])) == before + 1
    await harness.until(drew, "a card drawn")


async def test_play_with_a_move_as_the_hand_names_it_makes_that_move(harness: Harness):
    mover = await _my_turn(harness, ["G3", "Y9"])
    harness.say(mover, "/play draw")  # in the group, as /uno play card:draw on Discord

    async def drew() -> bool:
        return len((await match_of(harness)).game.hand(IDS[mover])) == 3
    await harness.until(drew, "a card drawn")


async def test_a_one_word_command_typed_privately_is_that_command(harness: Harness):
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    before = len(harness.api.calls_to("sendMessage", mover.id))
    harness.say(mover, "手牌", chat=mover.id)  # the hand, posted anew as /hand does
    await harness.api.wait_for(
        lambda: len(harness.api.calls_to("sendMessage", mover.id)) > before, what="the hand again")
    assert "🟥5" in harness.api.calls_to("sendMessage", mover.id)[-1].params["text"]


async def test_what_is_neither_a_card_nor_a_move_is_answered_with_how_to_play(harness: Harness):
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    before = await harness.store.load(CHAT)
    answer = html.unescape(await harness.ask(mover, "hello there", chat=mover.id))
    assert 'I do not know the card "hello"' in answer and "use the buttons of your hand" in answer
    colour = html.unescape(await harness.ask(mover, "red", chat=mover.id))  # no wild asked for one
    assert colour.startswith("That is not a card or a move.")
    refused = html.unescape(await harness.ask(mover, "过牌", chat=mover.id))  # pass before drawing
    assert refused == "You can only pass right after drawing."
    assert (await harness.store.load(CHAT)).match == before.match


async def test_words_from_someone_in_no_game_say_so(harness: Harness):
    await harness.start()
    answer = await harness.ask(DEE, "R5", chat=DEE.id)
    assert answer == "You are not in a game: add me to a group and open one there with /new."


async def test_an_inline_result_sent_through_the_bot_is_not_read_again(harness: Harness):
    """Inline mode plays the card when it is chosen; the message it leaves in the chat is not
    a second move, nor a question to answer."""
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    await harness.settle()
    mark = len(harness.api.calls)
    harness.api.send_text(mover, mover.id, "R5", via_bot=True)
    await harness.settle()
    assert not [c for c in harness.api.calls[mark:] if c.method == "sendMessage"]
    assert await _top(harness) == "R3"


async def test_a_number_typed_privately_is_the_card_numbered_so_in_the_hand_shown(harness: Harness):
    mover = await _my_turn(harness, ["G3", "R5", "Y9", "B1"])
    await refresh_hands(harness, [mover])  # the hand as rigged, shown with its numbers
    shown = html.unescape(harness.hand_message(mover).text)
    number = re.search(r"(\d+)\. 🟥5 Red 5", shown).group(1)
    harness.say(mover, number, chat=mover.id)

    async def played() -> bool:
        return await _top(harness) == "R5"
    await harness.until(played, "the card numbered so on the pile")


async def test_play_in_the_group_reads_a_number_in_the_hand_shown_privately(harness: Harness):
    mover = await _my_turn(harness, ["G3", "R5", "Y9", "B1"])
    await refresh_hands(harness, [mover])
    shown = html.unescape(harness.hand_message(mover).text)
    number = re.search(r"(\d+)\. 🟥5 Red 5", shown).group(1)
    harness.say(mover, f"/play {number}")

    async def played() -> bool:
        return await _top(harness) == "R5"
    await harness.until(played, "the card numbered so on the pile")


async def test_play_glued_to_its_card_is_read_as_play(harness: Harness):
    """"/play红5": Chinese is typed without spaces; Telegram then sees no command."""
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    harness.say(mover, "/play红5")

    async def played() -> bool:
        return await _top(harness) == "R5"
    await harness.until(played, "the red five on the pile")


async def test_an_edited_message_is_not_read_as_a_move(harness: Harness):
    """Editing what was written is not a second move: only new messages are read, commands
    included."""
    mover = await _my_turn(harness, ["R5", "G3", "Y9"])
    await harness.settle()
    mark = len(harness.api.calls)
    harness.api.edit_text(mover, mover.id, 987_654, "红5")
    harness.api.edit_text(mover, GROUP, 987_655, "/play红5")
    harness.api.edit_text(mover, GROUP, 987_656, "/play R5")  # a command edited: not run again
    await harness.settle()
    assert not [c for c in harness.api.calls[mark:] if c.method == "sendMessage"]
    assert await _top(harness) == "R3"


async def test_a_button_s_words_typed_privately_make_its_move(harness: Harness):
    """Bo faces a Wild Draw Four: his hand's button reads 接受+4, and typing that takes it."""
    mover = await _my_turn(harness, ["W+4", "G3", "Y9"])
    harness.say(mover, "W+4 红", chat=mover.id)

    async def played() -> bool:
        return (await match_of(harness)).game.pending_draw == 4
    await harness.until(played, "the Wild Draw Four on the pile")
    # The victim by the stored game: the mover's own hand may still show its Draw button a
    # moment (its update goes out beside theirs). They type once their hand offers the take.
    match = await match_of(harness)
    victim = next(user for user in PLAYERS if IDS[user] == match.game.current)
    await harness.api.wait_for(lambda: actor(harness, [victim]), what="the victim's hand offering the take")
    held = len(match.game.hand(IDS[victim]))
    harness.say(victim, "接受+4", chat=victim.id)

    async def took() -> bool:
        return len((await match_of(harness)).game.hand(IDS[victim])) == held + 4
    await harness.until(took, "the four cards taken")


async def _a_call_out_catches(harness: Harness, line: str, *, privately: bool) -> None:
    """A player plays down to one card without UNO!; another types ``line`` (its ``{name}``:
    that player's), in their private chat or in the group, and the first draws the penalty."""
    mover = await _my_turn(harness, ["R5", "G3"])
    harness.say(mover, "红5", chat=mover.id)  # one card left, and no UNO! said

    async def exposed() -> bool:
        return IDS[mover] in (await match_of(harness)).game.catchable
    await harness.until(exposed, "a player who forgot UNO!")
    caller = next(u for u in PLAYERS if u is not mover)
    harness.say(caller, line.format(name=mover.first_name), chat=caller.id if privately else GROUP)

    async def caught() -> bool:
        return len((await match_of(harness)).game.hand(IDS[mover])) == 3
    await harness.until(caught, "the penalty drawn")


async def test_a_call_out_typed_privately_catches_the_player_named(harness: Harness):
    await _a_call_out_catches(harness, "抓 {name}", privately=True)


async def test_play_with_a_call_out_calls_that_player_out(harness: Harness):
    await _a_call_out_catches(harness, "/play Call out {name}", privately=False)  # as its button says
