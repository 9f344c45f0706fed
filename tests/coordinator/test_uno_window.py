"""The UNO! window: declare, catch, late declare, window closed, racing calls, bystanders."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.engine import HOUSE, OFFICIAL

from .conftest import Harness

HANDS = {"u1": ["R1", "R2"], "u2": ["G5", "G6", "Y7"], "u3": ["B3", "B4", "Y9"]}
PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4"]
BYSTANDER = User("u9", "Watcher")


async def setup(h: Harness, rules=OFFICIAL):
    people = await h.start(3, settings={"turn_timer": 0})
    await h.rig(HANDS, PILE, ["R9"], current="u1", color="R", rules=rules)
    return people


async def test_declare_with_the_play_makes_the_player_safe(h: Harness) -> None:
    u1, u2, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",), declare_uno=True)).ok
    table = h.chat.last_table()
    assert table.catchable == ()
    assert next(s for s in table.seats if s.user_id == "u1").declared_uno
    reply = await h.do(cmds.CallUno, u2, target="u1")
    assert (reply.ok, reply.error) == (False, "nothing_to_catch")
    assert (await h.state()).card_count("u1") == 1


async def test_forgetting_uno_gets_caught(h: Harness) -> None:
    u1, _, u3 = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    assert h.chat.last_table().catchable == ("u1",)
    reply = await h.do(cmds.CallUno, u3)  # no target: whoever can be caught
    assert reply.ok, reply
    state = await h.state()
    assert state.card_count("u1") == 3 and state.catchable == ()
    table = h.chat.last_table()
    assert any(t.params.get("target") == "P1" and t.params.get("caller") == "P3" for t in table.last)
    record = await h.record()
    assert record.book.counters["u3"]["uno_calls"] == 1
    assert record.book.counters["u1"]["caught"] == 1


async def test_late_declaration_before_a_call_is_safe(h: Harness) -> None:
    u1, u2, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    reply = await h.do(cmds.CallUno, u1)  # the exposed player says UNO themselves
    assert reply.ok
    assert "u1" in (await h.state()).declared
    # A call pressed as u1 declared: too late, and not a wrong call either.
    assert (await h.do(cmds.CallUno, u2, target="u1")).error == "already_called"
    assert (await h.state()).card_count("u1") == 1


async def test_window_closes_at_the_next_players_action(h: Harness) -> None:
    u1, u2, u3 = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    assert (await h.do(cmds.Draw, u2)).ok  # u2 cannot follow R1 with G5 G6 Y7: draws Y1
    reply = await h.do(cmds.CallUno, u3, target="u1")
    assert (reply.ok, reply.error) == (False, "nothing_to_catch")
    assert (await h.state()).card_count("u1") == 1


async def test_racing_calls_cost_exactly_one_penalty(h: Harness) -> None:
    u1, u2, u3 = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    replies = await asyncio.gather(h.do(cmds.CallUno, u2, target="u1"),
                                   h.do(cmds.CallUno, u3, target="u1"),
                                   h.do(cmds.CallUno, BYSTANDER, target="u1"))
    assert sorted(r.ok for r in replies) == [False, False, True]
    assert {r.error for r in replies if not r.ok} == {"already_called"}
    assert (await h.state()).card_count("u1") == 3


async def test_a_bystander_can_catch_and_gets_the_credit_in_public(h: Harness) -> None:
    u1, u2, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    reply = await h.do(cmds.CallUno, BYSTANDER, target="P1")  # by name
    assert reply.ok and reply.hand is None
    assert (await h.state()).card_count("u1") == 3
    assert any(t.params.get("caller") == "Watcher" for t in h.chat.last_table().last)
    counters = (await h.record()).book.counters
    assert all(row.get("uno_calls", 0) == 0 for row in counters.values())


async def test_wrong_call_costs_a_seated_caller_under_house_rules(h: Harness) -> None:
    u1, u2, _ = await setup(h, rules=HOUSE)
    version = (await h.record()).version
    reply = await h.do(cmds.CallUno, u2, target="u1")
    assert (reply.ok, reply.error) == (False, "nothing_to_catch")
    assert reply.text.params == {"count": 2}
    assert (await h.state()).card_count("u2") == 5
    assert (await h.record()).version > version
    assert reply.hand is not None and len(reply.hand.cards) == 5


async def test_wrong_call_by_a_bystander_costs_nothing(h: Harness) -> None:
    await setup(h, rules=HOUSE)
    before = await h.record()
    reply = await h.do(cmds.CallUno, BYSTANDER)
    assert (reply.ok, reply.error) == (False, "nothing_to_catch")
    after = await h.record()
    assert after.version == before.version and after.match == before.match


async def test_wrong_call_without_penalty_changes_nothing(h: Harness) -> None:
    _, u2, _ = await setup(h)
    before = await h.record()
    reply = await h.do(cmds.CallUno, u2)
    assert reply.error == "nothing_to_catch"
    assert (await h.record()).match == before.match


async def test_declare_refused_with_more_than_one_card(h: Harness) -> None:
    _, u2, _ = await setup(h)
    reply = await h.do(cmds.DeclareUno, u2)
    assert (reply.ok, reply.error) == (False, "cannot_declare")


async def test_calling_uno_on_oneself_declares(h: Harness) -> None:
    u1, u2, _ = await setup(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    assert (await h.do(cmds.CallUno, u1, target="u1")).ok
    assert "u1" in (await h.state()).declared
