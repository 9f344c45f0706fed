"""Moves typed as the hand's "You can" line names them, in either language."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.coordinator import commands as cmds
from bot.coordinator.ports import ChatKey, User
from bot.coordinator.typed_moves import (
    MOVE_NAMES,
    call_out,
    move_named,
    take_penalty,
    typed_command,
    typed_move,
)
from bot.coordinator.views import Text
from bot.i18n import LOCALES, format_text, gettext

CHAT, ME = ChatKey("telegram", "-1"), User("1", "Ana")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("move", sorted(MOVE_NAMES))
def test_each_move_as_shown_in_each_language(locale, move):
    shown = gettext(MOVE_NAMES[move], locale)
    assert move_named(shown) == move_named(f"  {shown.upper()} ") == move_named(shown.rstrip("!！")) == move


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("count", [1, 2, 4, 12])
def test_taking_a_penalty_as_shown_is_a_draw(locale, count):
    assert move_named(format_text(take_penalty(count), locale)) == "draw"


@pytest.mark.parametrize("line", ["", "   ", "R5", "红5", "play", "draw two", "passes", "过牌吧", "uno"])
def test_what_names_no_move(line):
    assert move_named(line) is None and typed_move(line, CHAT, ME) is None


def test_the_command_of_a_typed_move():
    assert typed_move("过牌", CHAT, ME) == cmds.Pass(chat=CHAT, user=ME)
    assert typed_move("say UNO!", CHAT, ME) == cmds.DeclareUno(chat=CHAT, user=ME)
    assert typed_move("抓没喊UNO的玩家", CHAT, ME) == cmds.CallUno(chat=CHAT, user=ME)


@pytest.mark.parametrize("line, kind", [
    ("draw", cmds.Draw), ("draw a card", cmds.Draw), ("摸", cmds.Draw), ("/hand", cmds.ShowHand),
    ("手牌", cmds.ShowHand), ("Rules please", cmds.ShowRules), ("战绩", cmds.ShowStats),
])
def test_a_command_typed_as_its_first_word(line, kind):
    assert type(typed_command(line, CHAT, ME)) is kind


@pytest.mark.parametrize("line", ["draw four", "DRAW FOUR", "R5", "红5", "hello", ""])
def test_a_card_named_after_a_command_word_is_a_card(line):
    """"draw four" is a Wild Draw Four, not a draw: the card is the play's reader's to read."""
    assert typed_command(line, CHAT, ME) is None


def test_what_names_neither_is_answered_with_how_to_play_in_both_languages():
    from bot.coordinator.notation import parse_play
    from bot.coordinator.typed_moves import not_understood

    problem = parse_play("hello").text
    assert format_text(not_understood(problem), "en").startswith('I do not know the card "hello". Write a card')
    assert format_text(not_understood(), "zh_CN").startswith("这不是牌，也不是操作。写出牌名就能出牌")


@given(st.text(max_size=60))
def test_any_line_is_a_command_or_nothing_never_an_error(line):
    """Whatever is typed in a private chat: a command, or None (then read as a card)."""
    command = typed_command(line, CHAT, ME)
    assert command is None or isinstance(command, cmds.Command)
    named = call_out(line, CHAT, ME, [("1", "Ana"), ("2", "Bo")])
    assert named is None or isinstance(named, (cmds.CallUno, Text))
