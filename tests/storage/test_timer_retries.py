"""On the real stores: timer work whose transaction fails is retried
with backoff until it succeeds or the game moves on, and a deadline survives the wall clock
stepping back (judged "early", it fires again at its time)."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings
from bot.engine import Match
from storage import open_store
from tests.fakes import FakeChat

from .games import humans, next_command

CHAT = ChatKey("telegram", "-55")


class FlakyStore:
    """The real store, except that the next ``fail_saves`` saves fail as a transient database
    error would (SQLite "database is locked", a dropped PostgreSQL connection)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.fail_saves = 0
        self.failed = 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def save(self, record, results=()):
        if self.fail_saves:
            self.fail_saves -= 1
            self.failed += 1
            raise OSError("database is locked")
        return await self.inner.save(record, results)


class SteppingClock(FakeClock):
    """A fake clock whose wall time can step back (NTP). Timers wait on the underlying
    steady time: one armed before a step wakes when the wall clock still says "not yet"."""

    offset = 0.0

    def now(self) -> float:
        return super().now() - self.offset

    def call_at(self, when, callback):
        return super().call_at(when + self.offset, callback)

    def step_back(self, seconds: float) -> None:
        self.offset += seconds


async def open_game(url: str, clock: FakeClock, *, bots: int = 0, ai_delay: float = 0.0):
    store = FlakyStore(await open_store(url, now=clock.now))
    await store.save_chat_settings(CHAT, ChatSettings(turn_timer=30))
    coordinator = Coordinator(FakeChat(), store, clock, ai_delay=ai_delay, seed=2)
    users = humans(2 - bots)
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    if bots:
        assert (await coordinator.handle(cmds.AddAiSeat(CHAT, users["u1"], strategy="easy"))).ok
    else:
        assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    return store, coordinator, users


async def state_of(store):
    return Match.from_json((await store.load(CHAT)).match).game


async def test_a_turn_timeout_whose_save_fails_is_tried_again(database_url):
    clock = FakeClock()
    store, coordinator, _ = await open_game(database_url, clock)
    try:
        player = (await state_of(store)).current
        store.fail_saves = 2  # the deadline fires into a failing database, twice
        await clock.advance(30.1)
        assert store.failed == 1 and (await state_of(store)).current == player
        await clock.advance(0.5)  # the first retry (after 0.5 s) fails too
        assert store.failed == 2 and (await state_of(store)).current == player
        await clock.advance(1.0)  # the next one (after 1 s) goes through
        record = await store.load(CHAT)
        assert Match.from_json(record.match).game.current != player
        assert record.book.timeouts == {player: 1}
        await clock.advance(0.5)
        assert clock.pending == 1  # only the new turn's deadline: no retry left over
    finally:
        await coordinator.close()
        await store.close()


async def test_an_ai_move_whose_save_fails_is_tried_again(database_url):
    clock = FakeClock()
    store, coordinator, users = await open_game(database_url, clock, bots=1, ai_delay=1.0)
    try:
        for _ in range(10):  # the human moves until it is the bot's turn (a skip: again)
            if (await state_of(store)).current != "u1":
                break
            assert (await coordinator.handle(next_command(await store.load(CHAT), users))).ok
        state = await state_of(store)
        assert state.current == "ai1"
        version = (await store.load(CHAT)).version
        store.fail_saves = 1
        await clock.advance(1.0)  # the scheduled AI move fails
        assert store.failed == 1 and (await store.load(CHAT)).version == version
        await clock.advance(1.0)  # and is tried again
        assert (await store.load(CHAT)).version > version
        assert (await state_of(store)).current != "ai1" or (await state_of(store)) != state
    finally:
        await coordinator.close()
        await store.close()


async def test_a_wall_clock_step_back_does_not_drop_the_turn_timer(database_url):
    clock = SteppingClock()
    store, coordinator, _ = await open_game(database_url, clock)
    try:
        player = (await state_of(store)).current
        clock.step_back(0.05)
        await clock.advance(30)  # the timer wakes; the wall clock says 50 ms to go
        assert (await state_of(store)).current == player
        await clock.advance(0.1)
        assert (await state_of(store)).current != player  # it fired at its time after all
        assert (await store.load(CHAT)).book.timeouts == {player: 1}
    finally:
        await coordinator.close()
        await store.close()
