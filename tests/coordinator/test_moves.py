"""Moves through commands: refusals leave the game unchanged; W+4 challenge; penalties."""

from __future__ import annotations

import pytest

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.engine import OFFICIAL
from bot.i18n import format_text, translate

from .conftest import Harness, user

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7"]


async def setup(h: Harness, u1_hand, rules=OFFICIAL):
    people = await h.start(3, settings={"turn_timer": 0})
    await h.rig({"u1": u1_hand, "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}, PILE, ["R9"],
                current="u1", color="R", rules=rules)
    return people


@pytest.mark.parametrize("who, command, kw, code", [
    (2, cmds.PlayCards, {"cards": ("G5",)}, "not_your_turn"),
    (1, cmds.PlayCards, {"cards": ("Y9",)}, "not_in_hand"),
    (1, cmds.PlayCards, {"cards": ("G1",)}, "illegal_play"),
    (1, cmds.PlayCards, {"cards": ("W+4",)}, "color_required"),
    (1, cmds.PlayCards, {"cards": ("Q7",)}, "bad_card"),
    (1, cmds.PlayCards, {"cards": ("W+4",), "color": "purple"}, "bad_color"),
    (1, cmds.PlayCards, {"cards": ()}, "which_card"),
    (9, cmds.PlayCards, {"cards": ()}, "not_in_game"),
    (1, cmds.Pass, {}, "cannot_pass"),
    (1, cmds.Challenge, {}, "cannot_challenge"),
    (1, cmds.NameColor, {"color": "G"}, "no_color_to_name"),  # no Wild turned first
    (2, cmds.NameColor, {"color": "G"}, "no_color_to_name"),
    (9, cmds.PlayCards, {"cards": ("R3",)}, "not_in_game"),
    (9, cmds.Draw, {}, "not_in_game"),
    (1, cmds.PlayCards, {"cards": ("R3",), "swap_with": "ghost"}, "unknown_player"),
])
async def test_refusals_change_nothing(h: Harness, who, command, kw, code) -> None:
    await setup(h, ["W+4", "R3", "G1"])
    before = await h.record()
    published = len(h.chat.public)
    reply = await h.do(command, user(who), **kw)
    assert (reply.ok, reply.error) == (False, code)
    assert reply.text is not None and reply.text.msgid
    after = await h.record()
    assert after.version == before.version and after.match == before.match
    assert len(h.chat.public) == published


async def test_a_move_out_of_turn_says_whose_turn_it_is(h: Harness) -> None:
    await setup(h, ["W+4", "R3", "G1"])
    for command, kw in ((cmds.PlayCards, {"cards": ("G5",)}), (cmds.Draw, {}), (cmds.Pass, {})):
        reply = await h.do(command, user(2), **kw)
        assert reply.error == "not_your_turn"
        assert format_text(reply.text, "en", isolate_names=False) == "It is not your turn: it is P1's turn."
        assert format_text(reply.text, "zh_CN", isolate_names=False) == "还没轮到你：现在轮到P1。"


async def test_a_bare_play_says_how_and_lists_the_playable_cards(h: Harness) -> None:
    await setup(h, ["W+4", "R3", "G1"])
    reply = await h.do(cmds.PlayCards, user(1), cards=())
    assert (reply.ok, reply.error) == (False, "which_card")
    assert "/play R5" in translate(reply.text, "en")  # Telegram's and the console's way
    assert {str(c) for c in reply.text.params["cards"]} == {"W+4", "R3"}
    assert reply.hand is not None and len(reply.hand.cards) == 3
    other = await h.do(cmds.PlayCards, user(2), cards=())  # not their turn: nothing playable
    assert other.error == "which_card" and "no card to play" in other.text.msgid


async def test_play_before_the_start_is_refused(h: Harness) -> None:
    u1, _ = await h.lobby(2)
    early = await h.do(cmds.PlayCards, u1, cards=("R1",))
    assert early.error == "not_started"
    assert format_text(early.text, "en") == ("The game has not started yet: its creator deals the "
                                             "cards with /start.")


async def test_challenge_won_against_a_bluff(h: Harness) -> None:
    u1, u2, u3 = await setup(h, ["W+4", "R3", "G1"])  # holds red: a bluff
    assert (await h.do(cmds.PlayCards, u1, cards=("W+4",), color="green")).ok
    table = h.chat.last_table()
    assert table.challenge_possible and table.pending_draw == 4 and table.current == "u2"
    assert h.chat.last_hand("u2").can_challenge
    assert not any(v.can_challenge for v in h.chat.private["u1"])
    assert (await h.do(cmds.Challenge, u3)).error in ("not_your_turn", "cannot_challenge")
    reply = await h.do(cmds.Challenge, u2)
    assert reply.ok and "won" in reply.text.msgid
    state = await h.state()
    assert state.card_count("u1") == 6 and state.current == "u2" and state.pending_draw == 0
    assert (await h.record()).book.counters["u2"]["challenges_won"] == 1
    assert (await h.do(cmds.PlayCards, u2, cards=("G5",))).ok  # the named colour stands


async def test_challenge_lost_costs_six_and_the_turn(h: Harness) -> None:
    u1, u2, _ = await setup(h, ["W+4", "G1", "B2"])  # no red: a fair W+4
    assert (await h.do(cmds.PlayCards, u1, cards=("W+4",), color="B")).ok
    reply = await h.do(cmds.Challenge, u2)
    assert reply.ok and "lost" in reply.text.msgid
    state = await h.state()
    assert state.card_count("u2") == 9 and state.current == "u3"


async def test_draw_takes_a_pending_penalty(h: Harness) -> None:
    u1, u2, _ = await setup(h, ["W+4", "G1", "B2"])
    assert (await h.do(cmds.PlayCards, u1, cards=("W+4",), color="B")).ok
    reply = await h.do(cmds.Draw, u2)
    assert reply.ok
    assert (await h.state()).card_count("u2") == 7
    assert h.chat.last_hand("u2").note.params["cards"] == reply.text.params["cards"]
    # The public table names no drawn card: only counts.
    texts = h.chat.last_table().last
    assert all("cards" not in t.params for t in texts if "penalty" in t.msgid)


async def test_draw_then_pass(h: Harness) -> None:
    u1, u2, u3 = await setup(h, ["W+4", "R3", "G1"])
    assert (await h.do(cmds.PlayCards, u1, cards=("R3",))).ok
    assert (await h.do(cmds.Draw, u2)).ok  # draws Y1, cannot play it on R3: turn ends
    state = await h.state()
    assert state.current == "u3" and state.card_count("u2") == 4
    assert (await h.do(cmds.Pass, u3)).error == "cannot_pass"


async def test_reply_carries_the_senders_hand_only(h: Harness) -> None:
    u1, u2, _ = await setup(h, ["W+4", "R3", "G1"])
    reply = await h.do(cmds.PlayCards, u1, cards=("R3",))
    assert reply.hand.user_id == "u1" and [str(o.card) for o in reply.hand.cards] == ["G1", "W+4"]
    reply = await h.do(cmds.ShowHand, User("u9", "Nobody"))
    assert reply.error == "not_in_game"


async def test_hand_views_mark_playable_cards(h: Harness) -> None:
    await setup(h, ["W+4", "R3", "G1"])
    view = (await h.do(cmds.ShowHand, user(1))).hand
    playable = {str(o.card): o.playable for o in view.cards}
    assert playable == {"R3": True, "G1": False, "W+4": True}
    assert view.is_turn and view.can_draw and not view.can_pass
