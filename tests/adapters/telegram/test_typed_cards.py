"""/play with the notation players see: Chinese names, English names, a colour after a wild,
or as the next /play after the bot asked for it."""

from __future__ import annotations

import html

from .conftest import ANA, BO, CY, Harness
from .helpers import CHAT, match_of, next_actor, rig

PLAYERS = [ANA, BO, CY]
IDS = {u: str(u.id) for u in PLAYERS}


async def _my_turn(harness: Harness, cards: list[str], top: str = "R3", settings: str = ""):
    await harness.start()
    await harness.open_game(ANA, BO, CY)
    if settings:
        await harness.ask(ANA, f"/settings {settings}")
    await harness.start_game(ANA, PLAYERS)
    mover = await next_actor(harness, PLAYERS)
    await rig(harness, hands={IDS[mover]: cards}, current=IDS[mover], top=top)
    await harness.settle()
    return mover


async def _top(harness: Harness):
    match = await match_of(harness)
    return str(match.game.discard[-1]), match.game.color


async def test_play_a_wild_with_a_chinese_colour(harness: Harness):
    mover = await _my_turn(harness, ["W", "G3", "Y9"])
    harness.say(mover, "/play W 红")
    await harness.until(lambda: _is_top(harness, "W"), "the wild on the pile")
    assert (await _top(harness))[1].value == "R"


async def test_play_chinese_and_english_names(harness: Harness):
    mover = await _my_turn(harness, ["R7", "RR", "G3", "Y9"])
    harness.say(mover, "/play 红色反转")
    await harness.until(lambda: _is_top(harness, "RR"), "the red reverse on the pile")


async def test_play_an_english_name(harness: Harness):
    mover = await _my_turn(harness, ["R7", "RR", "G3", "Y9"])
    harness.say(mover, "/play red seven")
    await harness.until(lambda: _is_top(harness, "R7"), "the red seven on the pile")


async def test_a_colour_sent_after_a_wild_without_one_completes_the_play(harness: Harness):
    mover = await _my_turn(harness, ["W", "G3", "Y9"])
    answer = await harness.ask(mover, "/play W", privately=True)
    assert "colour" in answer.lower()
    assert (await _top(harness))[0] == "R3"  # nothing played yet
    harness.say(mover, "/play 蓝")
    await harness.until(lambda: _is_top(harness, "W"), "the wild on the pile")
    assert (await _top(harness))[1].value == "B"


async def _swapped_with(harness: Harness, mover, cards_left: int):
    """Whom the mover's 7 swapped hands with: the seat now holding the mover's other cards."""
    async def swapped() -> bool:
        return (await _top(harness))[0] == "R7"
    await harness.until(swapped, "the seven on the pile")
    game = (await match_of(harness)).game
    return next(u for u in PLAYERS if u != mover and len(game.hand(IDS[u])) == cards_left)


async def test_a_seven_and_a_seat_typed_after_it_swap_with_that_seat(harness: Harness):
    """/play R7 3: the seat as the table numbers it, found by the coordinator."""
    mover = await _my_turn(harness, ["R7", "G3", "Y9", "B2"], settings="seven_zero=on")
    match = await match_of(harness)
    third = next(u for u in PLAYERS if IDS[u] == match.game.players[2])
    if third == mover:  # the mover sits third: name the first seat instead
        third = next(u for u in PLAYERS if IDS[u] == match.game.players[0])
        harness.say(mover, "/play R7 1")
    else:
        harness.say(mover, "/play R7 3")
    assert await _swapped_with(harness, mover, cards_left=3) == third


async def test_a_name_sent_after_a_seven_without_one_completes_the_play(harness: Harness):
    mover = await _my_turn(harness, ["R7", "G3", "Y9", "B2"], settings="seven_zero=on")
    other = next(u for u in PLAYERS if u != mover)
    answer = await harness.ask(mover, "/play red seven", privately=True)
    assert "A 7 swaps hands" in html.unescape(answer)
    assert (await _top(harness))[0] == "R3"  # nothing played yet
    harness.say(mover, f"/play {other.first_name.lower()}")
    assert await _swapped_with(harness, mover, cards_left=3) == other


async def test_an_unknown_card_is_named_and_changes_nothing(harness: Harness):
    mover = await _my_turn(harness, ["W", "G3", "Y9"])
    before = await harness.store.load(CHAT)
    answer = await harness.ask(mover, "/play xyz", privately=True)
    assert 'I do not know the card "xyz".' in html.unescape(answer)
    after = await harness.store.load(CHAT)
    assert after.match == before.match


async def _is_top(harness: Harness, card: str) -> bool:
    return (await _top(harness))[0] == card


async def test_help_shows_the_notation(harness: Harness):
    await harness.start()
    text = html.unescape(await harness.ask(ANA, "/help", chat=ANA.id))
    for example in ("R5", "RS (Red Skip)", "RR (Red Reverse)", "R+2", "W+4", '"red 5"', "黄2"):
        assert example in text, example
