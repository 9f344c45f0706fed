"""Several processes share the chats (Discord shards): each game records its owner when it
opens, and a process resumes the timers, AI seats and deliveries only of the games it runs;
a game whose shard moved to another process no longer fires timers here."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.memory_store import MemoryStore
from bot.coordinator.ports import ChatKey, ChatSettings
from tests.fakes import FakeChat

from .conftest import user

EVEN, ODD = ChatKey("discord", "-2"), ChatKey("discord", "-3")


class Shards:
    """Chats with an even id belong to shard 0, the others to shard 1."""

    def __init__(self, *live: str) -> None:
        self.live = set(live)

    def owner_of(self, chat: ChatKey) -> str:
        return f"discord:{int(chat.chat_id) % 2}"

    def owns(self, owner: str) -> bool:
        return owner in self.live


def process(store, clock, *live: str) -> tuple[Coordinator, FakeChat, Shards]:
    chat, shards = FakeChat(), Shards(*live)
    return Coordinator(chat, store, clock, ai_delay=0, seed=3, ownership=shards), chat, shards


async def open_game(coordinator: Coordinator, store, chat: ChatKey) -> None:
    await store.save_chat_settings(chat, ChatSettings(turn_timer=30))
    ana, bo = user(1, is_admin=True), user(2)
    assert (await coordinator.handle(cmds.NewGame(chat, ana))).ok
    assert (await coordinator.handle(cmds.Join(chat, bo))).ok
    assert (await coordinator.handle(cmds.StartGame(chat, ana))).ok


async def test_games_record_their_owner_and_a_restart_resumes_only_its_own():
    store, clock = MemoryStore(), FakeClock()
    zero, _, _ = process(store, clock, "discord:0")
    one, _, _ = process(store, clock, "discord:1")
    await open_game(zero, store, EVEN)
    await open_game(one, store, ODD)
    assert ((await store.load(EVEN)).owner, (await store.load(ODD)).owner) == ("discord:0", "discord:1")
    await zero.close()
    await one.close()

    restarted, writes, _ = process(store, clock, "discord:0")  # shard 1's process stays down
    await restarted.resume()
    before = (await store.load(ODD)).version
    await clock.advance(31)  # both turn timers are due
    assert (await store.load(EVEN)).book.timeouts  # its own game's timer fired
    assert (await store.load(ODD)).version == before  # the other shard's did not, here
    assert all(chat == EVEN for chat, _, _ in writes.public)  # nothing written to its chat
    await restarted.close()


async def test_a_shard_that_moved_away_takes_its_timers_along():
    store, clock = MemoryStore(), FakeClock()
    coordinator, _, shards = process(store, clock, "discord:0")
    await open_game(coordinator, store, EVEN)
    before = (await store.load(EVEN)).version
    shards.live.clear()  # the shard now runs in another process
    await clock.advance(31)
    assert (await store.load(EVEN)).version == before
    await coordinator.close()
