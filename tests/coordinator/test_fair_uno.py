"""A fair UNO!: AI seats leave people the reaction window before closing it, call nobody out
sooner than 2 s after the forgetful play, and free wrong calls start a quiet cool-down.
Everything runs on the fake clock."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.fairness import CATCH_DELAY, FALSE_CALL_COOLDOWN

from .conftest import Harness

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4"]


async def two_people_and_a_bot(h: Harness, **settings):
    """Seats u1, u2, ai1: u2 is about to play down to one card; the bot plays next."""
    people = await h.start(2, ais=1, settings={"turn_timer": 0, **settings})
    await h.rig({"u1": ["B3", "B4", "Y9"], "u2": ["R1", "R2"], "ai1": ["R5", "G6", "Y7"]},
                PILE, ["R9"], current="u2", color="R")
    return people


async def one_person_and_two_bots(h: Harness):
    """Seats u1, ai1, ai2: u1 is about to play down to one card; ai2 can call them out."""
    people = await h.start(1, ais=2, settings={"turn_timer": 0})
    await h.rig({"u1": ["R1", "R2"], "ai1": ["B5", "G6", "Y7"], "ai2": ["B3", "B4", "Y9"]},
                PILE, ["R9"], current="u1", color="R")
    return people


async def test_the_next_bot_waits_the_reaction_window_while_someone_is_catchable(h: Harness) -> None:
    _, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok  # forgot UNO!
    state = await h.state()
    assert (state.current, state.catchable, state.card_count("ai1")) == ("ai1", ("u2",), 3)
    await h.clock.advance(2.9)
    state = await h.state()
    assert (state.current, state.catchable, state.card_count("ai1")) == ("ai1", ("u2",), 3)
    await h.clock.advance(0.1)  # the window is over: the bot plays, which closes it
    state = await h.state()
    assert state.current != "ai1" and state.catchable == ()
    assert state.card_count("u2") == 1


async def test_a_person_can_win_the_race_inside_the_window(h: Harness) -> None:
    u1, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok
    await h.clock.advance(2.5)
    reply = await h.do(cmds.CallUno, u1, target="u2")
    assert reply.ok, reply
    state = await h.state()
    assert state.card_count("u2") == 3
    assert state.current != "ai1"  # nobody catchable any more: the bot moved on at once


async def test_a_late_declaration_lets_the_bot_move_at_once(h: Harness) -> None:
    _, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok
    await h.clock.advance(1.0)
    assert (await h.do(cmds.CallUno, u2)).ok  # "UNO!" late, before anyone called
    state = await h.state()
    assert "u2" in state.declared and state.card_count("u2") == 1
    assert state.current != "ai1"


async def test_a_declared_play_does_not_hold_the_bot(h: Harness) -> None:
    _, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",), declare_uno=True)).ok
    assert (await h.state()).current != "ai1"


async def test_the_window_is_a_chat_setting(h: Harness) -> None:
    _, u2 = await two_people_and_a_bot(h, reaction_window=0)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok
    assert (await h.state()).current != "ai1"


async def test_a_bot_calls_a_person_out_no_sooner_than_two_seconds(h: Harness) -> None:
    (u1,) = await one_person_and_two_bots(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(CATCH_DELAY - 0.1)
    state = await h.state()
    assert state.catchable == ("u1",) and state.card_count("u1") == 1
    await h.clock.advance(0.1)
    state = await h.state()
    assert state.card_count("u1") == 3  # ai2 called u1 out
    assert (await h.record()).book.counters["ai2"]["uno_calls"] == 1


async def test_a_person_may_still_declare_late_before_the_bot_calls(h: Harness) -> None:
    (u1,) = await one_person_and_two_bots(h)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    await h.clock.advance(CATCH_DELAY - 0.5)
    assert (await h.do(cmds.CallUno, u1)).ok
    await h.clock.advance(10)
    assert (await h.state()).card_count("u1") in (1, 0)  # safe; never made to draw 2


async def test_a_restarted_coordinator_keeps_the_window(h: Harness) -> None:
    _, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok
    await h.clock.advance(1.0)
    await h.coordinator.close()
    h2 = h.restart()
    await h2.coordinator.resume()
    assert (await h2.state()).current == "ai1"  # 1 s in: still holding
    await h2.clock.advance(1.9)
    assert (await h2.state()).current == "ai1"
    await h2.clock.advance(0.2)
    assert (await h2.state()).current != "ai1"


async def test_repeated_free_wrong_calls_hit_a_quiet_cool_down(h: Harness) -> None:
    u1, u2 = await two_people_and_a_bot(h)
    before = await h.record()
    first = await h.do(cmds.CallUno, u1)
    assert (first.ok, first.error) == (False, "nothing_to_catch")
    second = await h.do(cmds.CallUno, u1)
    assert (second.ok, second.error) == (False, "uno_cooldown")
    assert second.text.params == {"seconds": int(FALSE_CALL_COOLDOWN)}
    after = await h.record()
    assert (after.version, after.match) == (before.version, before.match)
    other = await h.do(cmds.CallUno, u2)  # the cool-down is one user's, not the chat's
    assert other.error == "nothing_to_catch"
    await h.clock.advance(FALSE_CALL_COOLDOWN)
    assert (await h.do(cmds.CallUno, u1)).error == "nothing_to_catch"


async def test_the_cool_down_refuses_call_outs_but_never_a_declaration(h: Harness) -> None:
    u1, u2 = await two_people_and_a_bot(h)
    assert (await h.do(cmds.CallUno, u1)).error == "nothing_to_catch"
    assert (await h.do(cmds.CallUno, u2)).error == "nothing_to_catch"
    assert (await h.do(cmds.PlayCards, u2, cards=("R1",))).ok  # forgot, while cooling down
    refused = await h.do(cmds.CallUno, u1, target="u2")
    assert refused.error == "uno_cooldown"
    assert (await h.state()).card_count("u2") == 1
    assert (await h.do(cmds.CallUno, u2)).ok  # declaring is never cooled down
    assert "u2" in (await h.state()).declared


async def test_reaction_window_setting_is_validated(h: Harness) -> None:
    people = await h.lobby(1)
    ok = await h.do(cmds.ChangeSettings, people[0], changes={"reaction_window": "5"})
    assert ok.ok, ok
    assert (await h.store.chat_settings(h.key)).reaction_window == 5
    assert (await h.record()).options.reaction_window == 5
    bad = await h.do(cmds.ChangeSettings, people[0], changes={"reaction_window": "11"})
    assert bad.error == "bad_setting"
    assert (await h.store.chat_settings(h.key)).reaction_window == 5
