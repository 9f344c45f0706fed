"""House rules through commands: jump-in out of turn, several cards at once, 7-0 swaps,
stacking; and AI seats that wait for the clock when ai_delay > 0."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.engine import HOUSE
from tests.fakes import FakeChat
from tests.waiting import wait_until

from .conftest import CHAT, Harness, user

PILE = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "G3", "G4", "B5", "B6", "B7"]


async def setup(h: Harness, hands: dict, top: str, color: str = "R"):
    people = await h.start(3, settings={"turn_timer": 0, "preset": "house"})
    await h.rig(hands, PILE, [top], current="u1", color=color, rules=HOUSE)
    return people


async def test_jump_in_out_of_turn(h: Harness) -> None:
    u1, u2, u3 = await setup(h, {"u1": ["R5", "G2"], "u2": ["G5", "G6", "Y7"],
                                 "u3": ["B3", "R5", "Y9"]}, "R9")
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    assert (await h.do(cmds.PlayCards, u3, cards=("R5",))).ok  # identical card: jumps in
    state = await h.state()
    assert state.current == "u1" and state.card_count("u3") == 2
    assert any("jumped in" in t.msgid for t in h.chat.last_table().last)
    assert (await h.do(cmds.PlayCards, u2, cards=("G5",))).error == "not_your_turn"


async def test_the_player_whose_turn_a_jump_in_took_sees_it_gone_from_their_hand(h: Harness) -> None:
    u1, u2, u3 = await setup(h, {"u1": ["R5", "G2"], "u2": ["G5", "G6", "Y7"],
                                 "u3": ["B3", "R5", "Y9"]}, "R9")
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok
    assert h.chat.last_hand("u2").is_turn  # their turn: G5 would do
    assert (await h.do(cmds.PlayCards, u3, cards=("R5",))).ok  # u3 jumps in: u1 plays next
    shown = h.chat.last_hand("u2")
    assert not shown.is_turn and not shown.moves and not any(o.playable for o in shown.cards)


async def test_several_cards_of_one_rank(h: Harness) -> None:
    u1, *_ = await setup(h, {"u1": ["R5", "G5", "B5", "Y1"], "u2": ["G6", "G7", "Y7"],
                             "u3": ["B3", "B4", "Y9"]}, "R9")
    reply = await h.do(cmds.PlayCards, u1, cards=("R5", "G5", "B5"))
    assert reply.ok, reply
    state = await h.state()
    assert str(state.top) == "B5" and state.card_count("u1") == 1
    assert h.chat.last_table().catchable == ("u1",)  # did not declare


async def test_seven_swaps_hands_with_a_named_player(h: Harness) -> None:
    u1, *_ = await setup(h, {"u1": ["R7", "G2", "G3"], "u2": ["G6", "G7", "Y7", "B1"],
                             "u3": ["B3", "B4", "Y9"]}, "R9")
    assert (await h.do(cmds.PlayCards, u1, cards=("R7",), swap_with="P2")).ok
    state = await h.state()
    assert state.card_count("u1") == 4 and state.card_count("u2") == 2
    # Both swapped players get their new hands privately.
    assert len(h.chat.last_hand("u2").cards) == 2 and len(h.chat.last_hand("u1").cards) == 4


async def test_a_swap_target_typed_as_a_seat_number_or_a_name_is_found_by_the_coordinator(h: Harness) -> None:
    """What Telegram /play and Discord /uno play pass on as typed ("R7 3", "R7 p3"): seat
    numbers and names as the table lists them; a name nobody has is refused, nothing played."""
    u1, u2, _ = await setup(h, {"u1": ["R7", "G7", "G3"], "u2": ["G6", "Y7", "B1"],
                             "u3": ["B3", "B4", "Y9", "Y8"]}, "R9")
    refused = await h.do(cmds.PlayCards, u1, cards=("R7",), swap_with="nobody")
    assert refused.error == "unknown_player" and (await h.state()).card_count("u1") == 3
    no_seat = await h.do(cmds.PlayCards, u1, cards=("R7",), swap_with="9")  # /play R7 9
    assert no_seat.error == "unknown_player" and no_seat.text.msgid == "There is no seat {number} at the table."
    several = await h.do(cmds.PlayCards, u1, cards=("R7",), swap_with="p")  # P1, P2 and P3
    assert several.error == "unknown_player" and "fits more than one player" in several.text.msgid
    asked = await h.do(cmds.PlayCards, u1, cards=("R7",))  # the next input may name the seat
    assert asked.asks == "target" and asked.text.msgid.startswith("A 7 swaps hands")
    assert refused.asks is None and (await h.state()).card_count("u1") == 3
    assert (await h.do(cmds.PlayCards, u1, cards=("R7",), swap_with="3")).ok
    state = await h.state()
    assert state.card_count("u1") == 4 and state.card_count("u3") == 2  # swapped with seat 3
    assert (await h.do(cmds.PlayCards, u2, cards=("Y7",), swap_with="p1")).ok
    assert (await h.state()).card_count("u2") == 4  # with P1, by name in another case


async def test_stacking_passes_the_penalty_on(h: Harness) -> None:
    u1, u2, u3 = await setup(h, {"u1": ["R+2", "G2"], "u2": ["G+2", "G7", "Y7"],
                                 "u3": ["B3", "B4", "Y9"]}, "R9")
    assert (await h.do(cmds.PlayCards, u1, cards=("R+2",))).ok
    assert h.chat.last_table().pending_draw == 2
    assert (await h.do(cmds.PlayCards, u2, cards=("G+2",))).ok
    assert h.chat.last_table().pending_draw == 4
    assert (await h.do(cmds.Draw, u3)).ok
    assert (await h.state()).card_count("u3") == 7


async def test_bots_wait_for_the_clock_when_delayed() -> None:
    clock = FakeClock()
    store = MemoryStore(now=clock.now)
    chat = FakeChat()
    coordinator = Coordinator(chat, store, clock, ai_delay=1.5, seed=3)
    u1 = user(1)
    await coordinator.handle(cmds.NewGame(CHAT, u1))
    for _ in range(3):
        await coordinator.handle(cmds.AddAiSeat(CHAT, u1))
    await coordinator.handle(cmds.StartGame(CHAT, u1))
    from bot.engine import Match

    def current():
        return Match.from_json(record.match).game.current

    record = await store.load(CHAT)
    moved = 0
    for _ in range(40):
        record = await store.load(CHAT)
        if current() == "u1":
            break
        version = record.version
        await clock.advance(1.0)
        assert (await store.load(CHAT)).version == version  # not yet
        await clock.advance(0.6)
        assert (await store.load(CHAT)).version > version
        moved += 1
    assert current() == "u1"
    assert clock.pending == 1  # the human's turn timer; no AI step is scheduled
    await coordinator.close()
    assert clock.pending == 0


async def test_bots_move_on_the_real_clock() -> None:
    from bot.coordinator.clock import RealClock
    from bot.engine import Match

    store = MemoryStore()
    coordinator = Coordinator(FakeChat(), store, RealClock(), ai_delay=0.001, seed=8)
    u1 = user(1)
    await coordinator.handle(cmds.NewGame(CHAT, u1))
    for _ in range(3):
        await coordinator.handle(cmds.AddAiSeat(CHAT, u1, "easy"))
    await coordinator.handle(cmds.StartGame(CHAT, u1))
    h = Harness(store=store)

    async def state():
        return Match.from_json((await store.load(CHAT)).match).game

    async def humans_turn() -> bool:
        return (await state()).current == "u1"

    await wait_until(humans_turn, timeout=10, what="the bots to play until the human's turn")
    assert (await state()).current == "u1"
    h.coordinator = coordinator
    assert (await h.human_move(u1)).ok
    await coordinator.close()


async def test_a_player_who_may_jump_in_gets_a_live_button_at_once(h: Harness) -> None:
    u1, u2, u3 = await setup(h, {"u1": ["R5", "G2"], "u2": ["G5", "G6", "Y7"],
                                 "u3": ["B3", "R5", "Y9"]}, "R9")
    before = len(h.chat.private["u3"])
    assert (await h.do(cmds.PlayCards, u1, cards=("R5",))).ok  # u3 is not next, and holds R5
    assert len(h.chat.private["u3"]) > before  # told at once, not at their next turn
    shown = h.chat.private["u3"][-1]
    assert [str(o.card) for o in shown.cards if o.jump_in] == ["R5"]
    # u2 plays on: the R5 is no longer on top, and u3's button goes with it
    assert (await h.do(cmds.PlayCards, u2, cards=("G5",))).ok
    assert not any(o.jump_in for o in h.chat.private["u3"][-1].cards)
