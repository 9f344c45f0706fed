"""Console input parsing: typed lines -> coordinator commands, or a one-line refusal."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.console.parse import Context, Local, Refusal, parse_line
from bot.coordinator import commands as cmd
from bot.coordinator.notation import Question, TypedPlay
from bot.coordinator.ports import ChatKey, User
from bot.engine.cards import Card

CHAT = ChatKey("console", "local")
ME = User("human", "you")
HAND = tuple(Card.parse(c) for c in ("R5", "G3", "G3", "R7", "W"))
SEATS = (("human", "you"), ("ai1", "Bot Ana"), ("ai2", "Bot Bo"))
CTX = Context(CHAT, ME, HAND, SEATS)


def play(**fields):
    return cmd.PlayCards(chat=CHAT, user=ME, **fields)


@pytest.mark.parametrize("line, expected", [
    ("play R5", play(cards=("R5",))),
    ("p r5", play(cards=("R5",))),
    ("r5", play(cards=("R5",))),
    ("1", play(cards=("R5",))),
    ("play 1", play(cards=("R5",))),
    ("play W red", play(cards=("W",), color="R")),
    ("p 5 g", play(cards=("W",), color="G")),
    ("play w 蓝", play(cards=("W",), color="B")),
    ("play W+4 yellow", play(cards=("W+4",), color="Y")),
    ("play r7 2", play(cards=("R7",), swap_with="ai1")),
    ("play 4 bo", play(cards=("R7",), swap_with="ai2")),
    ("play r7 bot ana", play(cards=("R7",), swap_with="ai1")),
    ("play r7 an", play(cards=("R7",), swap_with="ai1")),
    ("play g3 g3", play(cards=("G3", "G3"))),
    ("p 2 3", play(cards=("G3", "G3"))),
    ("play r5 uno", play(cards=("R5",), declare_uno=True)),
    ("出 w 红", play(cards=("W",), color="R")),
    # Chinese is written without spaces, and numbers in Chinese too.
    ("出红5", play(cards=("R5",))),
    ("出牌红五", play(cards=("R5",))),
    ("出万能 红", play(cards=("W",), color="R")),
    ("出1", play(cards=("R5",))),
    ("p1", play(cards=("R5",))),
    ("p2 3", play(cards=("G3", "G3"))),
    ("draw four", play(cards=("W+4",))),  # a card, not the command "draw"
])
def test_plays(line, expected):
    parsed = parse_line(line, CTX)
    if expected is None:
        assert isinstance(parsed, Refusal)
    else:
        assert parsed == expected


@pytest.mark.parametrize("line, kind", [
    ("draw", cmd.Draw), ("d", cmd.Draw), ("pass", cmd.Pass), ("uno", cmd.DeclareUno),
    ("challenge", cmd.Challenge), ("hand", cmd.ShowHand), ("rules", cmd.ShowRules),
    ("stats", cmd.ShowStats), ("DRAW", cmd.Draw), ("摸牌", cmd.Draw), ("take", cmd.Draw), ("接受", cmd.Draw), ("过", cmd.Pass),
    ("质疑", cmd.Challenge), ("手牌", cmd.ShowHand), ("抽牌", cmd.Draw), ("抽", cmd.Draw),
])
def test_simple_commands(line, kind):
    parsed = parse_line(line, CTX)
    assert type(parsed) is kind and parsed.user == ME and parsed.chat == CHAT


@pytest.mark.parametrize("line, kind", [
    ("过牌", cmd.Pass), ("喊UNO！", cmd.DeclareUno), ("say UNO", cmd.DeclareUno),
    ("接受4张罚牌", cmd.Draw), ("take the 2 cards", cmd.Draw), ("抓没喊UNO的玩家", cmd.CallUno),
])
def test_a_move_typed_as_the_hand_names_it(line, kind):
    """The hand's "You can" line is a list of words a player types back (before, "过牌" and
    "say UNO!" were unknown commands); the reader is the coordinator's ``typed_move``."""
    parsed = parse_line(line, CTX)
    assert type(parsed) is kind and parsed.user == ME


def test_catch_with_and_without_a_target():
    assert parse_line("catch", CTX) == cmd.CallUno(chat=CHAT, user=ME)
    assert parse_line("catch bot ana", CTX) == cmd.CallUno(chat=CHAT, user=ME, target="ai1")
    assert parse_line("catch 3", CTX) == cmd.CallUno(chat=CHAT, user=ME, target="ai2")
    assert parse_line("call 3", CTX) == cmd.CallUno(chat=CHAT, user=ME, target="ai2")  # Discord's word
    assert isinstance(parse_line("catch nobody", CTX), Refusal)


def test_local_requests_and_blank_lines():
    assert parse_line("help", CTX) == Local("help")
    assert parse_line("quit", CTX) == Local("quit")
    assert parse_line("   ", CTX) is None
    # What a new player tries: the words of other games and chat bots.
    assert parse_line("menu", CTX) == parse_line("/help", CTX) == Local("help")
    assert parse_line("score", CTX) == parse_line("比分", CTX) == Local("standings")
    assert parse_line("cards", CTX) == cmd.ShowHand(chat=CHAT, user=ME)
    for line in ("show hand", "my cards", "查看 手牌"):
        assert parse_line(line, CTX) == cmd.ShowHand(chat=CHAT, user=ME), line
    for line in ("table", "show table", "status", "桌面"):
        assert parse_line(line, CTX) == Local("table"), line
    assert parse_line("ai hard", CTX) == cmd.AddAiSeat(chat=CHAT, user=ME, strategy="hard")
    assert parse_line("机器人", CTX) == cmd.AddAiSeat(chat=CHAT, user=ME, strategy=None)
    started = parse_line("start", CTX)  # the lobby's step reads "start" before this
    assert isinstance(started, Refusal) and started.text.msgid == "The game has already started."


@pytest.mark.parametrize("line, msgid_part", [
    ("dance", "Unknown command"),
    ("drwa", "Did you mean"),  # a typo: the command it most likely meant
    ("出牌", "Say which card"),
    ("出力", "do not know the card"),
    ("play", "Say which card"),
    ("play 9", "no card"),
    ("9", "no card"),
    ("p 1 1", "no card"),  # the same card cannot be used twice
    ("play r5 banana", "don't understand"),
    ("play r7 8", "no seat"),
    ("play r7 bot", "more than one player"),  # both bots match: ambiguous, and said so
    ("play r7 zed", "no player"),
])
def test_bad_input_is_a_one_line_refusal(line, msgid_part):
    parsed = parse_line(line, CTX)
    assert isinstance(parsed, Refusal)
    if line == "drwa":
        assert parsed.text.params["suggestion"] == "draw"
    assert isinstance(parsed, Refusal)
    assert msgid_part in parsed.text.msgid
    assert "\n" not in parsed.text.msgid


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.lists(st.sampled_from(
    ["play", "p", "1", "2", "9", "r7", "W", "w+4", "red", "uno", "catch", "bot", "ana", "G3", "7",
     "draw", "出", "红", "x"]), max_size=6).map(" ".join))
def test_any_line_parses_to_something_without_raising(line):
    parsed = parse_line(line, CTX)
    assert parsed is None or isinstance(parsed, cmd.Command | Local | Refusal)
    if isinstance(parsed, cmd.PlayCards):
        assert parsed.cards and all(Card.parse(c) for c in parsed.cards)
        assert parsed.swap_with in (None, "human", "ai1", "ai2")


@pytest.mark.parametrize("line, changes", [
    ("settings stacking=same", {"stacking": "same"}),
    ("settings team_size 3", {"team_size": "3"}),
    ("设置 wd4_rule=no_match uno_identical=on", {"wd4_rule": "no_match", "uno_identical": "on"}),
    ("设置 发牌数＝5", {"发牌数": "5"}),  # as a Chinese keyboard types the sign
])
def test_settings_lines_change_settings(line, changes):
    assert parse_line(line, CTX) == cmd.ChangeSettings(chat=CHAT, user=ME, changes=changes)


def test_settings_alone_shows_them_and_a_bad_form_is_refused():
    assert parse_line("settings", CTX) == cmd.ShowSettings(chat=CHAT, user=ME)
    assert isinstance(parse_line("settings stacking", CTX), Refusal)


@pytest.mark.parametrize("line, color", [
    ("color red", "R"), ("colour G", "G"), ("颜色 蓝", "B"), ("yellow", "Y"), ("红", "R"),
])
def test_the_dealer_names_a_colour(line, color):
    assert parse_line(line, CTX) == cmd.NameColor(chat=CHAT, user=ME, color=color)


def test_a_colour_that_is_none_is_refused():
    assert isinstance(parse_line("color purple", CTX), Refusal)


@pytest.mark.parametrize("line, expected", [
    ("出 黄2", None), ("p red reverse", None), ("出　１", play(cards=("R5",))),
    ("red 5", play(cards=("R5",))), ("p 绿3 绿 3", play(cards=("G3", "G3"))),
    ("p wild draw four 蓝", play(cards=("W+4",), color="B")), ("p +4 red", play(cards=("W+4",), color="R")),
    ("p wd4 g", play(cards=("W+4",), color="G")), ("p 1 4", play(cards=("R5", "R7"))),  # no 7 before the 4: both are cards
])
def test_cards_as_players_see_them(line, expected):
    parsed = parse_line(line, CTX)
    if expected is None:  # a card not in this hand: parsed all the same, the coordinator judges
        assert isinstance(parsed, cmd.PlayCards), parsed
    else:
        assert parsed == expected


def test_a_colour_on_its_own_completes_the_play_that_asked_for_one():
    asked = Context(CHAT, ME, HAND, SEATS, pending=Question(TypedPlay(cards=("W",)), "color"))
    for answer, color in (("blue", "B"), ("蓝", "B"), ("b", "B"), ("红色", "R"), ("ＧＲＥＥＮ", "G")):
        assert parse_line(answer, asked) == play(cards=("W",), color=color)
    assert parse_line("blue", CTX) == cmd.NameColor(chat=CHAT, user=ME, color="B")  # nothing asked
    assert parse_line("draw", asked) == cmd.Draw(chat=CHAT, user=ME)


def test_a_seat_on_its_own_completes_the_seven_that_asked_for_one():
    """After "A 7 swaps hands: say with whom", a number is a seat, not a card of the hand."""
    asked = Context(CHAT, ME, HAND, SEATS, pending=Question(TypedPlay(cards=("R7",)), "target"))
    for answer, seat in (("2", "ai1"), ("bo", "ai2"), ("Bot Ana", "ai1"), ("３", "ai2")):
        assert parse_line(answer, asked) == play(cards=("R7",), swap_with=seat), answer
    assert parse_line("2", CTX) == play(cards=("G3",))  # nothing asked: card 2 of the hand
    assert parse_line("draw", asked) == cmd.Draw(chat=CHAT, user=ME)
    assert parse_line("R5", asked) == play(cards=("R5",))  # another card: another play


def test_lang_is_the_language_setting():
    for line, language in (("lang zh", "zh"), ("language en", "en"), ("语言 中文", "中文"), ("/lang zh_CN", "zh_CN")):
        assert parse_line(line, CTX) == cmd.ChangeSettings(chat=CHAT, user=ME, changes={"language": language})
    alone = parse_line("lang", CTX)
    assert isinstance(alone, Refusal) and alone.text.msgid == "Say which language: lang en or lang zh."
