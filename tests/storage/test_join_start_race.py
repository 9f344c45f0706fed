"""A Join racing a Start is decided under the chat's lock, in the order they arrived: the
joiner's own reads (language, profile) no longer let a later Start overtake."""

from __future__ import annotations

import asyncio

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, User
from tests.fakes import FakeChat

CHAT = ChatKey("telegram", "-77")
ANA, BO, CY = User("1", "Ana", is_admin=True), User("2", "Bo"), User("3", "Cy")


async def test_a_join_sent_before_a_start_takes_its_seat(store) -> None:
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=3)
    assert (await coordinator.handle(cmds.NewGame(CHAT, ANA))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, BO))).ok
    join = asyncio.ensure_future(coordinator.handle(cmds.Join(CHAT, CY)))
    start = asyncio.ensure_future(coordinator.handle(cmds.StartGame(CHAT, ANA)))
    joined, started = await asyncio.gather(join, start)
    assert joined.ok and started.ok, (joined, started)
    record = await store.load(CHAT)
    assert record.status == "running"
    assert [s.user_id for s in record.seats] == ["1", "2", "3"]
    await coordinator.close()


async def test_a_start_sent_before_a_join_leaves_the_joiner_out(store) -> None:
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0, seed=3)
    assert (await coordinator.handle(cmds.NewGame(CHAT, ANA))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, BO))).ok
    start = asyncio.ensure_future(coordinator.handle(cmds.StartGame(CHAT, ANA)))
    join = asyncio.ensure_future(coordinator.handle(cmds.Join(CHAT, CY)))
    started, joined = await asyncio.gather(start, join)
    assert started.ok and joined.error == "game_running"
    record = await store.load(CHAT)
    assert [s.user_id for s in record.seats] == ["1", "2"]
    await coordinator.close()
