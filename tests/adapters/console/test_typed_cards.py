"""The console reads cards as players see them (黄2, red reverse, full-width input, hand
numbers), takes a colour as the next line after a wild, and reads "p 2 6" as two 7s."""

from __future__ import annotations

import asyncio
import dataclasses

from adapters.console.app import CHAT, HUMAN_ID
from bot.coordinator.memory_store import MemoryStore
from bot.engine import Match
from bot.engine.state import GameState

from .test_console import Terminal, console_args, make_session, my_turn

FILLER = ["Y3", "G+2", "B9", "Y8", "G1", "B4", "Y5", "G6"]
FULL_WIDTH = str.maketrans("0123456789 ", "０１２３４５６７８９　")


async def _rig(store: MemoryStore, mine: list[str], **rules) -> None:
    """The human's turn in a known position: ``mine`` against a red 3, two bots of 3 cards."""
    record = await store.load(CHAT)
    match = Match.from_json(record.match)
    bots = [p for p in match.players if p != HUMAN_ID]
    hands = {HUMAN_ID: mine, bots[0]: ["G3", "B9", "Y1"], bots[1]: ["G4", "B8", "Y6"]}
    game, _ = GameState.from_position(match.players, hands, FILLER, rules=match.rules.with_(**rules),
                                      discard=["R3"], current=HUMAN_ID)
    record.match = dataclasses.replace(match, game=game).to_json()
    await store.save(record)


def position(session, code: str) -> int:
    """The number the console shows for a card in the human's hand."""
    return [str(c) for c in session.port.shown_hand].index(code) + 1


async def _played(mine, script, **rules):
    """The human's cards after the script and the discard pile's cards the human added."""
    captured = {}
    store, terminal = MemoryStore(), Terminal()
    state = {"step": 0, "lines": None}

    async def typist(session):
        if state["step"] == 0:
            await my_turn(session, after=0)
            await _rig(store, mine, **rules)
            state["step"] = 1
            return "hand"
        if state["lines"] is None:
            state["lines"] = iter(script(session))
        line = next(state["lines"], None)
        if line is None:
            record = await store.load(CHAT)
            captured["game"] = Match.from_json(record.match).game
        return line

    session = make_session(console_args(ai=2, seed=3), store, typist, terminal)
    await asyncio.wait_for(session.run(), 30)
    return terminal.text, captured["game"]


async def test_a_colour_typed_as_the_next_line_completes_a_wild():
    out, game = await _played(["W", "G5", "Y2", "B7"],
                              lambda s: [f"p {position(s, 'W')}", "蓝"])
    assert "Choose a colour for the wild card." in out
    assert "That move is not possible." not in out
    assert "W" in [str(c) for c in game.discard] and "W" not in [str(c) for c in game.hand(HUMAN_ID)]


async def test_the_console_says_how_to_answer_and_a_blank_line_keeps_the_question():
    out, game = await _played(["W+4", "G5", "Y2", "B7"],
                              lambda s: [f"{position(s, 'W+4')}", "", "  ", "红"])
    assert "Choose a colour for the wild card." in out
    assert "Name a colour: red, green, blue or yellow." in out
    assert "That move is not possible." not in out
    assert "W+4" not in [str(c) for c in game.hand(HUMAN_ID)]


async def test_an_english_colour_letter_also_answers():
    out, game = await _played(["W", "G5", "Y2", "B7"], lambda s: [f"play {position(s, 'W')}", "b"])
    assert "W" not in [str(c) for c in game.hand(HUMAN_ID)]


async def test_chinese_names_as_shown():
    out, game = await _played(["W", "G5", "Y2", "RR"], lambda s: ["出 红色反转"])
    assert "RR" not in [str(c) for c in game.hand(HUMAN_ID)]
    assert "看不懂" not in out and "don't understand" not in out


async def test_english_names_and_full_width_hand_numbers():
    out, game = await _played(["W", "G5", "Y2", "R9"],
                              lambda s: [f"出　{position(s, 'R9')}".translate(FULL_WIDTH)])
    assert "R9" not in [str(c) for c in game.hand(HUMAN_ID)]
    out, game = await _played(["W", "G5", "Y2", "R9"], lambda s: ["p red nine"])
    assert "R9" not in [str(c) for c in game.hand(HUMAN_ID)]


async def test_two_sevens_by_hand_number_and_a_seat_under_seven_zero_and_multi_play():
    out, game = await _played(["R7", "G5", "Y2", "B7"],
                              lambda s: [f"p {position(s, 'R7')} {position(s, 'B7')} 2"],
                              seven_zero=True, multi_play=True)
    assert "There is no seat" not in out
    mine = [str(c) for c in game.hand(HUMAN_ID)]
    assert "R7" not in mine and "B7" not in mine  # both played, then hands were swapped
    assert {"R7", "B7"} <= {str(c) for c in game.discard}


async def test_a_seat_typed_as_the_next_line_completes_a_seven():
    out, game = await _played(["R7", "G5", "Y2", "B9", "G1"],
                              lambda s: [f"{position(s, 'R7')}", "2"], seven_zero=True)
    assert "A 7 swaps hands: say with whom (the player's name or seat number)." in out
    assert "matches neither" not in out  # "2" was not read as the card in place 2
    assert "R7" in [str(c) for c in game.discard]
    assert len(game.hand(HUMAN_ID)) == 3  # the 4 cards left went to seat 2, whose 3 came back


async def test_an_unknown_card_is_named():
    out, game = await _played(["W", "G5", "Y2", "R9"], lambda s: ["p xyz"])
    assert 'I do not know the card "xyz".' in out
    assert sorted(str(c) for c in game.hand(HUMAN_ID)) == sorted(["W", "G5", "Y2", "R9"])


async def _help_text(lang: str) -> str:
    store, terminal = MemoryStore(), Terminal()
    lines = iter(["help"])

    async def typist(session):
        return next(lines, None)

    session = make_session(console_args(lang=lang), store, typist, terminal)
    await asyncio.wait_for(session.run(), 30)
    return terminal.text


async def test_help_shows_the_notation_in_both_languages():
    english = await _help_text("en")
    for example in ("R5", "RS (Red Skip)", "RR (Red Reverse)", "R+2", "W+4", '"red 5"', "黄2",
                    "number in your hand"):
        assert example in english, example
    chinese = await _help_text("zh")
    for example in ("RS（红色跳过）", "RR（红色反转）", "W+4（王牌+4）", "黄2", "序号"):
        assert example in chinese, example
