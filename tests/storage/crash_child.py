"""Child process for the crash tests: plays a game through the Coordinator on a SQLite file
and prints every durable save (``SAVED {...}``) until it is killed.

    python -m tests.storage.crash_child URL step    wait for a line on stdin before each move
    python -m tests.storage.crash_child URL free    move as fast as it can, game after game
"""

from __future__ import annotations

import asyncio
import sys

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings
from storage.migrate import upgrade
from tests.fakes import FakeChat

from .games import ReportingStore, humans, next_command

CHAT = ChatKey("console", "crash")


async def new_game(coordinator: Coordinator, users) -> None:
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    assert (await coordinator.handle(cmds.AddAiSeat(CHAT, users["u1"], strategy="normal"))).ok
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok


async def main(url: str, mode: str) -> None:
    await asyncio.to_thread(upgrade, url)
    store = ReportingStore.from_url(url)
    await store.save_chat_settings(CHAT, ChatSettings(turn_timer=0, overrides={"target_score": 100}))
    # Seeded in step mode: the same game every run, so "the game is still on after N moves"
    # holds; free mode plays whatever comes.
    coordinator = Coordinator(FakeChat(), store, FakeClock(), ai_delay=0,
                              seed=4 if mode == "step" else None)
    users = humans(2)
    await new_game(coordinator, users)
    while True:
        if mode == "step":
            print("READY", flush=True)
            if not sys.stdin.readline():
                return
        record = await store.load(CHAT)
        if record is None:
            if mode == "step":
                print("OVER", flush=True)
                return
            await new_game(coordinator, users)
            continue
        reply = await coordinator.handle(next_command(record, users))
        print(f"ACTED {reply.ok} {reply.error}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
