"""A private /start (a user who can now be reached) finds that user's games
through the seat index, on every store, instead of reading every active game."""

from __future__ import annotations

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings, Seat
from tests.fakes import FakeChat

from .games import humans
from .test_contract import make_record


def seats(*users: str) -> list[Seat]:
    return [Seat(u, u.upper()) for u in users]


async def test_active_games_of_a_user(store):
    a = await store.save(make_record("ga", ChatKey("telegram", "1"), seats=seats("u1", "u2")))
    await store.save(make_record("gb", ChatKey("telegram", "2"), "running", seats=seats("u2", "u3")))
    await store.save(make_record("gc", ChatKey("telegram", "3"), "finished", seats=seats("u2")))
    await store.save(make_record("gd", ChatKey("discord", "4"), seats=seats("u2")))

    async def games_of(platform, user):
        return sorted(r.game_id for r in await store.active_games_of(platform, user))

    assert await games_of("telegram", "u2") == ["ga", "gb"]  # not the finished one
    assert await games_of("telegram", "u1") == ["ga"]
    assert await games_of("discord", "u2") == ["gd"]
    assert await games_of("telegram", "u9") == []
    a.seats = seats("u1")  # u2 left the lobby
    await store.save(a)
    assert await games_of("telegram", "u2") == ["gb"]
    [b] = await store.active_games_of("telegram", "u3")
    b.status = "stopped"
    await store.save(b)
    assert await games_of("telegram", "u2") == []


class CountingStore:
    """The real store, counting which reads the coordinator makes."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def __getattr__(self, name):
        self.calls.append(name)
        return getattr(self.inner, name)


async def test_a_reachable_user_gets_only_their_hands_without_a_scan(store):
    counting = CountingStore(store)
    chat = FakeChat()
    coordinator = Coordinator(chat, counting, FakeClock(), ai_delay=0, seed=1)
    users = humans(4)
    for n in range(6):  # six running games; u4 sits in two of them
        key = ChatKey("telegram", f"-{n}")
        await store.save_chat_settings(key, ChatSettings(turn_timer=0))
        players = ("u1", "u4") if n in (2, 5) else ("u1", "u2")
        assert (await coordinator.handle(cmds.NewGame(key, users[players[0]]))).ok
        assert (await coordinator.handle(cmds.Join(key, users[players[1]]))).ok
        assert (await coordinator.handle(cmds.StartGame(key, users["u1"]))).ok
    sent_before = len(chat.private["u4"])
    counting.calls.clear()
    assert await coordinator.user_reachable("telegram", "u4") == 2
    assert "active_games" not in counting.calls  # no scan of every game
    assert len(chat.private["u4"]) == sent_before + 2
    await coordinator.close()
