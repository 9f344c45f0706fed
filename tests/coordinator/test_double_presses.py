"""Pressing UNO! twice (a double click, or two people at once) costs nothing: the second press
is "already called", never a wrong call."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.engine import HOUSE
from bot.i18n import translate

from .conftest import Harness

HANDS = {"u1": ["R1", "R2"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}
PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4"]
BYSTANDER = User("u9", "Watcher")


async def exposed(h: Harness):
    """House rules (2 cards for a wrong call); u1 has just played down to one card, silent."""
    people = await h.start(3, settings={"turn_timer": 0, "preset": "house"})
    await h.rig(HANDS, PILE, ["R9"], current="u1", color="R", rules=HOUSE)
    assert (await h.do(cmds.PlayCards, people[0], cards=("R1",))).ok
    return people


async def test_a_double_click_on_uno_costs_the_caller_nothing(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    assert (await h.do(cmds.CallUno, u3)).ok  # caught: u1 draws 2
    before = await h.record()
    again = await h.do(cmds.CallUno, u3)
    assert (again.ok, again.error) == (False, "already_called")
    assert translate(again.text, "en") == "UNO! was already called for P1. Nothing changes."
    assert translate(again.text, "zh_CN") != translate(again.text, "en")
    after = await h.record()
    assert after.version == before.version and after.match == before.match
    state = await h.state()
    assert (state.card_count("u1"), state.card_count("u3")) == (3, 3)


async def test_two_players_pressing_the_table_button_together_pay_nothing(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    replies = await asyncio.gather(h.do(cmds.CallUno, u2), h.do(cmds.CallUno, u3),
                                   h.do(cmds.CallUno, BYSTANDER))
    assert sorted(r.ok for r in replies) == [False, False, True]
    assert {r.error for r in replies if not r.ok} == {"already_called"}
    state = await h.state()
    assert [state.card_count(p) for p in ("u1", "u2", "u3")] == [3, 3, 3]


async def test_a_declaration_pressed_twice_is_not_a_wrong_call(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    assert (await h.do(cmds.CallUno, u1)).ok  # u1 says UNO (the table button)
    for command in (cmds.CallUno, cmds.DeclareUno):
        reply = await h.do(command, u1)
        assert reply.error == "already_called", (command, reply)
    # u2 pressed to catch u1 at the same moment: too late, and free.
    assert (await h.do(cmds.CallUno, u2)).error == "already_called"
    assert (await h.do(cmds.CallUno, u3, target="u1")).error == "already_called"
    state = await h.state()
    assert [state.card_count(p) for p in ("u1", "u2", "u3")] == [1, 3, 3]


async def test_the_memory_ends_with_the_next_move(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    assert (await h.do(cmds.CallUno, u3)).ok
    assert (await h.do(cmds.Draw, u2)).ok  # a move: the call is history
    reply = await h.do(cmds.CallUno, u3)
    assert reply.error == "nothing_to_catch" and reply.text.params == {"count": 2}
    assert (await h.state()).card_count("u3") == 5


async def test_a_call_on_someone_else_is_still_judged(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    assert (await h.do(cmds.CallUno, u3)).ok
    reply = await h.do(cmds.CallUno, u3, target="u2")  # u2 was never exposed
    assert reply.error == "nothing_to_catch" and reply.text.params == {"count": 2}


async def test_a_call_on_one_who_declared_with_the_play_is_a_wrong_call(h: Harness) -> None:
    people = await h.start(3, settings={"turn_timer": 0, "preset": "house"})
    await h.rig(HANDS, PILE, ["R9"], current="u1", color="R", rules=HOUSE)
    u1, u2, _ = people
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",), declare_uno=True)).ok
    reply = await h.do(cmds.CallUno, u2, target="u1")
    assert reply.error == "nothing_to_catch" and reply.text.params == {"count": 2}


async def test_the_memory_survives_a_restart(h: Harness) -> None:
    u1, u2, u3 = await exposed(h)
    assert (await h.do(cmds.CallUno, u3)).ok
    again = await h.restart().do(cmds.CallUno, u3)
    assert again.error == "already_called"
    assert (await h.state()).card_count("u3") == 3
