"""Late join through the coordinator: on in the house preset, off in the official one; the
joiner gets a hand privately and plays after the current player; the table says so."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.ports import User
from bot.engine import HOUSE, OFFICIAL
from bot.i18n import format_text

from .conftest import Harness

NEWCOMER = User("u9", "Nia")
PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7", "B8", "B9"]


async def running(h: Harness, rules=HOUSE):
    people = await h.start(2, settings={"turn_timer": 30, "preset": "house" if rules is HOUSE else "official"})
    await h.rig({"u1": ["R1", "R2", "G7"], "u2": ["G5", "G6", "Y7"]}, PILE, ["R9"],
                current="u1", color="R", rules=rules)
    return people


async def test_a_person_joins_a_running_house_game(h: Harness) -> None:
    u1, u2 = await running(h)
    deadline = (await h.record()).deadlines["turn"]
    reply = await h.do(cmds.Join, NEWCOMER)
    assert reply.ok, reply
    state = await h.state()
    assert state.players == ("u1", "u9", "u2") and state.current == "u1"
    assert len(state.hand("u9")) == HOUSE.hand_size
    record = await h.record()
    assert [s.user_id for s in record.seats] == ["u1", "u2", "u9"]
    assert record.deadlines["turn"] == deadline  # the current player's clock is untouched
    hand = h.chat.last_hand("u9")
    assert hand is not None and len(hand.cards) == HOUSE.hand_size and not hand.is_turn
    table = h.chat.last_table()
    assert [s.user_id for s in table.seats] == ["u1", "u9", "u2"]
    said = [t for t in table.last if t.params.get("player") == "Nia"]
    assert said and said[0].params["other"] == "P1" and said[0].params["count"] == HOUSE.hand_size
    assert reply.hand is not None and len(reply.hand.cards) == HOUSE.hand_size
    # u1 plays: the newcomer is next
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok
    assert (await h.state()).current == "u9"
    assert (await h.do(cmds.Join, NEWCOMER)).error == "already_joined"


async def test_late_join_is_off_under_the_official_rules(h: Harness) -> None:
    await running(h, rules=OFFICIAL)
    before = await h.record()
    table = h.chat.last_table()
    assert not table.can_join
    reply = await h.do(cmds.Join, NEWCOMER)
    assert (reply.ok, reply.error) == (False, "game_running")
    # Turned away with the way into the next game.
    assert format_text(reply.text, "en") == ("The game has already started. Use /notify and I "
                                             "will tell you privately when the next one opens.")
    assert format_text(reply.text, "zh_CN") == "游戏已经开始了。发送/notify，下一局开始时我会私信告诉你。"
    after = await h.record()
    assert (after.version, after.seats) == (before.version, before.seats)


async def test_the_table_offers_a_seat_until_it_is_full(h: Harness) -> None:
    await running(h)
    await h.do(cmds.Join, NEWCOMER)
    assert h.chat.last_table().can_join
    for n in range(10, 17):
        assert (await h.do(cmds.Join, User(f"u{n}", f"Q{n}"))).ok
    assert len((await h.record()).seats) == 10
    assert not h.chat.last_table().can_join
    reply = await h.do(cmds.Join, User("u30", "Late"))
    assert reply.error == "game_full"


async def test_between_hands_a_joiner_is_asked_to_wait_for_the_deal() -> None:
    h = Harness(hand_pause=5)
    u1, u2 = await running(h)
    await h.rig({"u1": ["R1"], "u2": ["G5", "G6", "Y7"]}, PILE, ["R9"], current="u1", color="R",
                rules=HOUSE)
    assert (await h.do(cmds.PlayCards, u1, cards=("R1",))).ok  # hand over, next in 5 s
    before = await h.record()
    reply = await h.do(cmds.Join, NEWCOMER)
    assert (reply.ok, reply.error) == (False, "hand_over")
    assert (await h.record()).version == before.version
    await h.clock.advance(5)
    assert (await h.do(cmds.Join, NEWCOMER)).ok
    state = await h.state()
    assert "u9" in state.players and len(state.hand("u9")) == HOUSE.hand_size
