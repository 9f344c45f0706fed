"""A button pressed twice acts once: hand buttons carry a token of the hand they were made for
and a press on an earlier hand is refused."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.coordinator import presses
from bot.engine import HOUSE
from bot.i18n import translate

from .conftest import Harness

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G3", "G4", "B5", "B6", "B7"]
HANDS = {"u1": ["G6", "G6", "B3"], "u2": ["Y5", "Y6", "R8"], "u3": ["B8", "R2", "Y9"]}


async def setup(h: Harness):
    people = await h.start(3, settings={"turn_timer": 0, "preset": "house"})
    await h.rig(HANDS, PILE, ["G2"], current="u1", color="G", rules=HOUSE)
    return people


async def hand_token(h: Harness, who) -> str:
    reply = await h.do(cmds.ShowHand, who)
    assert reply.hand is not None and reply.hand.press
    return reply.hand.press


async def test_a_double_tap_under_jump_in_plays_one_copy(h: Harness) -> None:
    u1, _, _ = await setup(h)
    token = await hand_token(h, u1)
    press = cmds.PlayCards(h.key, u1, cards=("G6",), press=token)
    first, second = await asyncio.gather(h.coordinator.handle(press), h.coordinator.handle(press))
    assert first.ok, first
    assert (second.ok, second.error) == (False, "stale_press")
    assert translate(second.text, "en").startswith("That button was for an earlier moment")
    assert translate(second.text, "zh_CN") != translate(second.text, "en")
    state = await h.state()
    assert state.card_count("u1") == 2 and state.current == "u2"
    assert h.chat.last_hand("u1").press != token  # the fresh hand carries a fresh token


async def test_without_a_token_the_second_copy_jumps_in_as_typed(h: Harness) -> None:
    u1, _, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("G6",))).ok
    assert (await h.do(cmds.PlayCards, u1, cards=("G6",))).ok  # typed twice: two moves meant
    assert (await h.state()).card_count("u1") == 1


async def test_a_token_stays_good_while_the_hand_is_unchanged(h: Harness) -> None:
    u1, u2, u3 = await setup(h)
    token = await hand_token(h, u3)
    assert (await h.do(cmds.PlayCards, u1, cards=("G6",))).ok  # others move on; u3's stay
    assert (await h.state()).card_count("u3") == 3
    restarted = h.restart()  # nothing kept in memory: the token is the stored hand's
    reply = await restarted.coordinator.handle(cmds.PlayCards(h.key, u3, cards=("X9",), press=token))
    assert reply.error == "bad_card"  # judged as a move, not as stale
    assert presses.token(await h.match(), "u3") == token


async def test_every_hand_button_is_checked(h: Harness) -> None:
    u1, _, _ = await setup(h)
    old = await hand_token(h, u1)
    assert (await h.do(cmds.PlayCards, u1, cards=("G6",))).ok  # u1's hand changed
    for command in (cmds.Draw, cmds.Pass, cmds.Challenge, cmds.DeclareUno):
        reply = await h.coordinator.handle(command(h.key, u1, press=old))
        assert reply.error == "stale_press", (command, reply)
    before = await h.record()
    assert (await h.do(cmds.PlayCards, u1, cards=("B3",), press=old)).error == "stale_press"
    assert (await h.record()).match == before.match
