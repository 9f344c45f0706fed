"""A move's button (and the turn's line) reads the same on every frontend, in both languages: the words of
``move_label``, and typed back in a private chat or at the console they make the same move."""

from __future__ import annotations

import pytest

from adapters.console.parse import Context, parse_line
from adapters.discord.components import hand_components, lobby_components
from adapters.discord.embeds import hand_embed
from adapters.telegram.inline import result_entries
from adapters.telegram.keyboards import hand_keyboard, lobby_keyboard
from adapters.web.views import _move_json
from bot.coordinator import commands as cmds
from bot.coordinator import move_label, typed_command
from bot.coordinator.choose import command_for
from bot.coordinator.ports import ChatKey, User
from bot.coordinator.views import LobbyView
from bot.engine import GameState, apply
from bot.engine.actions import Play
from bot.engine.cards import Card, Color
from bot.engine.rules import OFFICIAL
from bot.i18n import translate
from bot.render.hand_text import render_hand
from tests.adapters.telegram.move_views import view_of
from tests.render.test_text import seats

ME, BO = "1" * 13, "2" * 13  # numeric ids, as both chat platforms have
NAMES = {ME: "Ana", BO: "Bo"}
CHAT = ChatKey("telegram", "-1")


def victim_view(locale: str):
    """Bo played a Wild Draw Four on me without saying UNO!: I may take +4, challenge, call him out."""
    state, _ = GameState.from_position([BO, ME], {BO: ["W+4", "G2"], ME: ["G1", "B3"]},
                                       ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"], rules=OFFICIAL,
                                       discard=["R3"], color="R", current=BO)
    state, _ = apply(state, Play(BO, (Card.parse("W+4"),), Color.BLUE))
    return view_of(state, ME, locale=locale, names=NAMES)


@pytest.mark.parametrize("locale, yours", [("en", "▶ your turn!"), ("zh_CN", "▶ 轮到你了！")])
def test_the_text_hand_and_discords_hand_word_the_turn_alike(locale, yours):
    view = victim_view(locale)
    assert yours in render_hand(view)
    assert yours in hand_embed(view).description


@pytest.mark.parametrize("locale, take, challenge, catch", [
    ("en", "Take +4", "Challenge", "Call out Bo"),
    ("zh_CN", "接受+4", "质疑", "抓Bo没喊UNO"),
])
def test_every_frontend_names_the_moves_alike(locale, take, challenge, catch):
    view = victim_view(locale)
    moves = {move.kind: move for move in view.moves}
    assert {"take", "challenge", "catch"} <= set(moves)
    words = {kind: translate(move_label(move, NAMES), locale) for kind, move in moves.items()}
    assert (words["take"], words["challenge"], words["catch"]) == (take, challenge, catch)

    telegram = {b.text for row in hand_keyboard(view, names=NAMES).inline_keyboard for b in row}
    assert {take, challenge, catch} <= telegram
    inline = {entry.title for entry in result_entries(view, NAMES)}
    assert {take, challenge, catch} <= inline
    discord = {button["label"] for row in hand_components(view, ME).to_components()
               for button in row["components"]}
    assert {take, challenge} <= discord
    web = {_move_json(move, NAMES, locale)["label"] for move in view.moves}
    assert {take, challenge, catch} <= web


@pytest.mark.parametrize("locale", ["en", "zh_CN"])
def test_a_button_typed_back_is_its_move(locale):
    """What the buttons say, typed in the private chat or at the console, is the move pressed."""
    view = victim_view(locale)
    user = User(ME, "Ana")
    ctx = Context(CHAT, user, hand=tuple(o.card for o in view.cards), seats=tuple(NAMES.items()))
    for move in view.moves:
        if move.kind == "play":
            continue
        shown = translate(move_label(move, NAMES), locale)
        pressed = command_for(move.ref, chat=CHAT, user=user)
        assert parse_line(shown, ctx) == pressed, shown
        typed = typed_command(shown, CHAT, user)
        if move.kind == "catch":  # the coordinator finds the player named
            assert typed == cmds.CallUno(chat=CHAT, user=user, target="Bo"), shown
        else:
            assert typed == pressed, shown


@pytest.mark.parametrize("line, target", [
    ("catch", None), ("call", None), ("抓", None), ("catch Bo", "Bo"), ("抓 2", "2"),
    ("Call out Bo", "Bo"), ("call out bo!", "bo"), ("抓Bo没喊UNO", "Bo"), ("抓 Bo 没喊UNO！", "Bo"),
])
def test_a_call_out_typed(line, target):
    user = User(ME, "Ana")
    assert typed_command(line, CHAT, user) == cmds.CallUno(chat=CHAT, user=user, target=target)


def test_a_call_out_of_nobody_at_the_table_is_refused_where_the_seats_are_known():
    ctx = Context(CHAT, User(ME, "Ana"), seats=tuple(NAMES.items()))
    refusal = parse_line("抓 Cy", ctx)
    assert not isinstance(refusal, cmds.Command)
    assert translate(refusal.text, "zh_CN") != refusal.text.msgid  # said in the reader's language


@pytest.mark.parametrize("locale, words", [
    ("en", {"Join", "Start", "Add AI", "Notify me"}),
    ("zh_CN", {"加入", "开始", "添加电脑玩家", "通知我"}),
])
def test_both_chat_clients_name_the_lobby_s_buttons_alike(locale, words):
    lobby = LobbyView("g", locale, ME, "Ana", seats(2), "official", {}, 2, 10, True, 60.0)
    telegram = {b.text.removeprefix("🔔 ") for row in lobby_keyboard(lobby, "unobot").inline_keyboard
                for b in row}
    discord = {button["label"] for row in lobby_components(lobby).to_components()
               for button in row["components"]}
    assert words <= telegram and words <= discord
