"""/uno play with the notation players see: "Red Five", 黄2, "W 红"; the autocomplete finds a
card by its name too; an unknown card is named and changes nothing."""

from __future__ import annotations

from .players import Table
from .test_game import ANA, BO, CY, USERS, open_game
from .test_resilience import set_position


async def _position(bot) -> None:
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R5", "W", "Y2", "G7"], b: ["B5", "R9", "Y1"], c: ["G3", "B9", "R7"]},
                       ["R3"], a)


async def test_play_a_card_by_its_english_name(bot, fake):
    await _position(bot)
    record = await bot.slash(ANA, "play", card="Red Five")
    assert "I do not know" not in (record.callback["data"].get("content") or "")
    game = (await Table(bot, USERS).match()).game
    assert str(game.top) == "R5"


async def test_play_a_wild_with_a_chinese_colour_in_the_card_text(bot, fake):
    await _position(bot)
    await bot.slash(ANA, "play", card="万能牌 红")
    game = (await Table(bot, USERS).match()).game
    assert str(game.top) == "W" and game.color.value == "R"


async def test_an_unknown_card_is_named_and_nothing_changes(bot, fake):
    await _position(bot)
    before = (await Table(bot, USERS).match()).game
    record = await bot.slash(ANA, "play", card="xyz")
    assert 'I do not know the card "xyz".' in record.callback["data"]["content"]
    after = (await Table(bot, USERS).match()).game
    assert after == before


async def test_a_move_typed_as_the_hand_names_it_is_that_move(bot, fake):
    """/uno play card:摸牌 (or "draw") draws: the hand's own word for the move, not a card."""
    await _position(bot)
    record = await bot.slash(ANA, "play", card="摸牌")
    assert "I do not know" not in (record.callback["data"].get("content") or "")
    game = (await Table(bot, USERS).match()).game
    assert len(game.hand(str(ANA.id))) == 5 and str(game.top) == "R3"


async def test_autocomplete_finds_a_card_by_its_name(bot, fake):
    await _position(bot)
    for typed, card in (("red five", "R5"), ("黄 2", "Y2"), ("wild", "W")):
        record = await fake.wait(await fake.autocomplete(ANA, "play", "card", typed))
        values = [c["value"] for c in record.callback["data"]["choices"]]
        assert values and values[0] == card, (typed, values)


async def test_a_colour_sent_next_completes_a_wild_played_without_one(bot, fake):
    await _position(bot)
    record = await bot.slash(ANA, "play", card="W")
    assert "Choose a colour" in record.callback["data"]["content"]
    assert str((await Table(bot, USERS).match()).game.top) == "R3"
    await bot.slash(ANA, "play", card="蓝")
    game = (await Table(bot, USERS).match()).game
    assert str(game.top) == "W" and game.color.value == "B"


async def _seven(bot) -> tuple[str, str, str]:
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R7", "W", "Y2", "G5", "G6"], b: ["B5", "R9", "Y1"], c: ["G3", "B9"]},
                       ["R3"], a, seven_zero=True)
    return a, b, c


async def test_a_seven_and_a_seat_number_in_the_card_text_swap_with_that_seat(bot, fake):
    a, b, c = await _seven(bot)
    record = await bot.slash(ANA, "play", card="R7 3")
    assert "no seat" not in (record.callback["data"].get("content") or "")
    game = (await Table(bot, USERS).match()).game
    assert str(game.top) == "R7" and len(game.hand(a)) == 2 and len(game.hand(c)) == 4


async def test_a_name_sent_next_completes_a_seven_played_without_a_target(bot, fake):
    a, b, c = await _seven(bot)
    record = await bot.slash(ANA, "play", card="red seven")
    assert "A 7 swaps hands" in record.callback["data"]["content"]
    assert str((await Table(bot, USERS).match()).game.top) == "R3"
    await bot.slash(ANA, "play", card=BO.name)
    game = (await Table(bot, USERS).match()).game
    assert str(game.top) == "R7" and len(game.hand(a)) == 3 and len(game.hand(b)) == 4


async def test_a_button_s_words_in_the_card_field_make_that_move(bot, fake):
    """"Call out Ana" in the card field, as the hand's button says it, calls Ana out."""
    await open_game(bot)
    a, b, c = (str(u.id) for u in (ANA, BO, CY))
    await set_position(bot, {a: ["R5", "G7"], b: ["B5", "R9", "Y1"], c: ["G3", "B9", "R7"]}, ["R3"], a)
    await bot.slash(ANA, "play", card="R5")  # one card left, and no UNO! said
    assert a in (await Table(bot, USERS).match()).game.catchable
    await bot.slash(CY, "play", card="Call out Ana")
    assert len((await Table(bot, USERS).match()).game.hand(a)) == 3


async def test_the_card_list_offers_a_move_by_its_button_s_words_once_typed(bot, fake):
    """Typing "dr" in /uno play's card lists Draw beside the cards; chosen, it draws. With
    nothing typed the list is the hand's cards only."""
    await _position(bot)
    typed = await fake.wait(await fake.autocomplete(ANA, "play", "card", "dr"))
    offered = {c["name"]: c["value"] for c in typed.callback["data"]["choices"]}
    assert offered.get("Draw") == "Draw"
    empty = await fake.wait(await fake.autocomplete(ANA, "play", "card", ""))
    assert "Draw" not in {c["value"] for c in empty.callback["data"]["choices"]}
    await bot.slash(ANA, "play", card=offered["Draw"])
    assert len((await Table(bot, USERS).match()).game.hand(str(ANA.id))) == 5
