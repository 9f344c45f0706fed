"""The one parser for typed cards (bot/coordinator/notation.py): every card as shown to players
reads back as that card, in both languages; bare numbers are read the documented way."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.coordinator.notation import (
    NotationError,
    Question,
    TypedPlay,
    card_named,
    color_named,
    parse_play,
)
from bot.engine.cards import Card, Color, full_deck
from bot.i18n import LOCALES, card_label, color_label, gettext

CARDS = sorted(set(full_deck()), key=str)
SEATS = (("me", "You"), ("ana", "Bot Ana"), ("bo", "Bot Bo"), ("cy", "Cy"))
FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)} | {" ": "\u3000"}


def cards_of(text, hand=None, seats=SEATS):
    parsed = parse_play(text, hand, seats)
    assert isinstance(parsed, TypedPlay), parsed
    return parsed.cards


def to_full_width(text: str) -> str:
    return "".join(FULL_WIDTH.get(ch, ch) for ch in text)


@pytest.mark.parametrize("card", CARDS, ids=str)
@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_label_reads_back_as_that_card(card, locale):
    label = card_label(card, locale)
    for form in (label, label.upper(), label.lower(), to_full_width(label), f"  {label} "):
        assert card_named(form) == card, form
        assert cards_of(form) == (str(card),), form


@pytest.mark.parametrize("card", CARDS, ids=str)
def test_every_code_reads_back_in_any_case_and_width(card):
    code = str(card)
    for form in (code, code.lower(), to_full_width(code), to_full_width(code.lower())):
        assert cards_of(form) == (code,)


@pytest.mark.parametrize("typed, code", [
    ("R5", "R5"), ("rs", "RS"), ("RR", "RR"), ("r+2", "R+2"), ("W", "W"), ("w+4", "W+4"),
    ("red 5", "R5"), ("red five", "R5"), ("Red Five", "R5"), ("red reverse", "RR"),
    ("red skip", "RS"), ("red draw two", "R+2"), ("red +2", "R+2"), ("wild", "W"),
    ("wild draw four", "W+4"), ("wd4", "W+4"), ("+4", "W+4"), ("w4", "W+4"),
    ("黄2", "Y2"), ("黄 2", "Y2"), ("黄色2", "Y2"), ("红色反转", "RR"), ("红 反转", "RR"), ("黄色反向", "YR"),
    ("蓝色跳过", "BS"), ("黄色+2", "Y+2"), ("万能牌", "W"), ("王牌+4", "W+4"), ("＋４", "W+4"),
    ("绿色 +2", "G+2"), ("blue 0", "B0"), ("green zero", "G0"),
    # As people say them in Chinese: numbers in characters, the short action names.
    ("红五", "R5"), ("红色九", "R9"), ("蓝零", "B0"), ("黄禁", "YS"), ("黄跳", "YS"), ("绿反", "GR"),
])
def test_names_players_type(typed, code):
    assert cards_of(typed) == (code,)


@pytest.mark.parametrize("color", list(Color))
@pytest.mark.parametrize("locale", LOCALES)
def test_colour_names_as_shown_and_short(color, locale):
    shown = color_label(color, locale)
    assert color_named(shown) == color and color_named(shown.upper()) == color
    assert color_named(color.value.lower()) == color
    assert color_named(gettext(shown, locale)[:1]) == color  # 红 for 红色, R for Red


def test_a_trailing_colour_names_the_wild():
    assert parse_play("W 红", None) == TypedPlay(cards=("W",), color="R")
    assert parse_play("W+4 blue", None) == TypedPlay(cards=("W+4",), color="B")
    assert parse_play("万能牌 绿色", None) == TypedPlay(cards=("W",), color="G")
    assert parse_play("wild draw four y", None) == TypedPlay(cards=("W+4",), color="Y")
    hand = [Card.parse(c) for c in ("G3", "W", "R5")]
    assert parse_play("2 blue", hand) == TypedPlay(cards=("W",), color="B")


def test_a_colour_alone_completes_a_play_refused_for_want_of_one():
    answer = parse_play("蓝", None)
    assert answer == TypedPlay(color="B")
    asked = TypedPlay(cards=("W",), declare_uno=True)
    assert asked.with_color(answer) == TypedPlay(cards=("W",), color="B", declare_uno=True)
    assert asked.with_color(parse_play("R5", None)) is None


def test_where_the_seats_are_not_known_a_swap_target_is_passed_on_as_typed():
    """Telegram /play and Discord /uno play know no seats: "R7 2" and "R7 Bot Ana" reach the
    coordinator, which finds the seat; a number alone is still no card there."""
    assert parse_play("R7 2") == TypedPlay(cards=("R7",), swap_with="2")
    assert parse_play("red seven bot ana uno") == TypedPlay(cards=("R7",), swap_with="bot ana",
                                                            declare_uno=True)
    assert parse_play("黄7 Ana") == TypedPlay(cards=("Y7",), swap_with="Ana")
    assert isinstance(parse_play("R5 banana"), NotationError)  # no 7: no target to name
    assert isinstance(parse_play("2"), NotationError)


def test_a_seat_alone_answers_a_seven_refused_for_want_of_a_target():
    seven = TypedPlay(cards=("R7",))
    asked = Question.asked_by("target", seven)
    assert asked == Question(seven, "target")
    assert asked.answered_by(["2"], SEATS) == TypedPlay(cards=("R7",), swap_with="ana")
    assert asked.answered_by(["bo", "uno"], SEATS) == TypedPlay(cards=("R7",), swap_with="bo",
                                                                 declare_uno=True)
    assert asked.answered_by(["Bot", "Ana"]) == TypedPlay(cards=("R7",), swap_with="Bot Ana")
    # Not an answer: another card, a colour, a name nobody has, nothing but "uno".
    for words in (["R5"], ["blue"], ["zed"], ["uno"], []):
        assert asked.answered_by(words, SEATS) is None, words
    assert asked.answered_by(["G3"]) is None


def test_a_name_that_fits_several_seats_says_so_and_names_them():
    from bot.coordinator.notation import SEVERAL_SEATS, find_seat
    several = find_seat("bot", SEATS)
    assert isinstance(several, NotationError) and several.text.msgid == SEVERAL_SEATS
    assert several.text.params == {"name": "bot", "players": ["Bot Ana", "Bot Bo"]}
    assert find_seat("bot a", SEATS) == "ana" and find_seat("b", SEATS) != "bo"
    nobody = find_seat("zed", SEATS)
    assert isinstance(nobody, NotationError) and nobody.text.params == {"name": "zed"}


def test_a_question_is_asked_only_by_the_refusals_that_ask_one():
    wild = TypedPlay(cards=("W",))
    assert Question.asked_by("color", wild) == Question(wild, "color")
    assert Question.asked_by(None, wild) is None
    assert Question(wild, "color").answered_by(["蓝"]) == TypedPlay(cards=("W",), color="B")
    assert Question(wild, "color").answered_by(["2"]) is None


def test_several_cards_and_uno():
    assert cards_of("G3 G3") == ("G3", "G3")
    assert cards_of("green 3, 绿3") == ("G3", "G3")
    assert parse_play("R5 uno", None) == TypedPlay(cards=("R5",), declare_uno=True)


HAND = tuple(Card.parse(c) for c in ("R7", "G5", "B5", "Y2", "B7", "W"))


@pytest.mark.parametrize("typed, cards, swap", [
    ("1", ("R7",), None),
    ("2 3", ("G5", "B5"), None),            # distinct positions: two cards
    ("1 5", ("R7", "B7"), None),            # two 7s by position, not "seat 5"
    ("1 5 2", ("R7", "B7"), "ana"),         # ... and then a seat
    ("1 3", ("R7",), "bo"),                 # a 7 and a position that is no 7: a seat
    ("5 5", ("G5", "B5"), None),            # a position twice: the fives (card numbers)
    ("R7 2", ("R7",), "ana"),               # a number after a named card: a seat
    ("r7 bot ana", ("R7",), "ana"),         # a seat by name, spaces and all
    ("1 cy", ("R7",), "cy"),
    ("６", ("W",), None),                    # full-width
])
def test_bare_numbers_are_read_the_documented_way(typed, cards, swap):
    parsed = parse_play(typed, HAND, SEATS)
    assert isinstance(parsed, TypedPlay), parsed
    assert (parsed.cards, parsed.swap_with) == (cards, swap)


@pytest.mark.parametrize("typed, msgid, param", [
    ("xyz", 'I do not know the card "{card}".', "xyz"),
    ("9", "There is no card {number} in your hand.", "9"),
    ("4 4", "You named card {number} twice: there is no card to spare in your hand.", "4"),
    ("R7 8", "There is no seat {number} at the table.", "8"),
    ("R5 banana", 'I don\'t understand "{word}" in that play.', "banana"),
    ("R7 zed", 'There is no player called "{name}" at the table.', "zed"),
    ("R7 bot", '"{name}" fits more than one player ({players}): type more of the name, or the '
               "seat's number.", "bot"),  # Bot Ana and Bot Bo
])
def test_bad_input_names_what_was_wrong(typed, msgid, param):
    parsed = parse_play(typed, HAND, SEATS)
    assert isinstance(parsed, NotationError)
    assert parsed.text.msgid == msgid and param in parsed.text.params.values()


def test_a_number_without_a_shown_hand_is_not_a_card():
    parsed = parse_play("5", None)
    assert isinstance(parsed, NotationError) and parsed.text.params == {"card": "5"}


def test_there_is_no_card_only_when_true():
    """"5" with a hand of 3 that holds a five plays that five: no false "there is no card 5"."""
    hand = [Card.parse(c) for c in ("G5", "Y2", "R1")]
    assert cards_of("5", hand) == ("G5",)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=1, max_size=4), st.sampled_from(LOCALES),
       st.booleans(), st.sampled_from([None, *Color]))
def test_any_cards_as_rendered_read_back_in_order(cards, locale, full_width, color):
    labels = [card_label(c, locale) for c in cards]
    typed = " ".join(labels)
    if color is not None:
        typed += " " + color_label(color, locale)
    if full_width:
        typed = to_full_width(typed)
    parsed = parse_play(typed, None)
    assert isinstance(parsed, TypedPlay), (typed, parsed)
    assert parsed.cards == tuple(str(c) for c in cards)
    assert parsed.color == (color.value if color else None)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30) | st.lists(st.sampled_from(
    ["1", "5", "９", "r7", "W", "+4", "red", "蓝", "uno", "bot", "ana", "黄2", "red", "five", "x", "7"]),
    max_size=6).map(" ".join))
def test_any_text_reads_as_a_play_or_a_named_refusal(text):
    parsed = parse_play(text, HAND, SEATS)
    assert isinstance(parsed, TypedPlay | NotationError)
    if isinstance(parsed, TypedPlay):
        assert all(Card.parse(c) for c in parsed.cards)
        assert parsed.swap_with in (None, *(uid for uid, _ in SEATS))
    else:
        assert "\n" not in parsed.text.msgid
