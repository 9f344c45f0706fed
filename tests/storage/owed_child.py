"""Child process for the owed-delivery crash test: opens a game on URL, then on "go" sends one
command whose delivery never completes (the chat port hangs, as if the process died right
after the save), prints SENT and waits to be killed.

    python -m tests.storage.owed_child URL move|stop
"""

from __future__ import annotations

import asyncio
import sys

from bot.coordinator import commands as cmds
from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey, ChatSettings
from storage import open_store
from tests.fakes import FakeChat

from .games import humans, next_command

CHAT = ChatKey("telegram", "-7")


class HangingChat(FakeChat):
    """Delivers normally until ``hang`` is set; then every call blocks forever."""

    hang = False

    async def publish(self, chat, message, *, edit=None):
        if self.hang:
            await asyncio.Event().wait()
        return await super().publish(chat, message, edit=edit)

    async def send_hand(self, chat, user_id, view, *, edit=None):
        if self.hang:
            await asyncio.Event().wait()
        return await super().send_hand(chat, user_id, view, edit=edit)


async def main(url: str, what: str) -> None:
    store = await open_store(url)
    await store.save_chat_settings(CHAT, ChatSettings(turn_timer=0))
    chat = HangingChat()
    coordinator = Coordinator(chat, store, FakeClock(), ai_delay=0, seed=5, delivery_wait=0.05)
    users = humans(2)
    assert (await coordinator.handle(cmds.NewGame(CHAT, users["u1"]))).ok
    assert (await coordinator.handle(cmds.Join(CHAT, users["u2"]))).ok
    assert (await coordinator.handle(cmds.StartGame(CHAT, users["u1"]))).ok
    print("READY", flush=True)
    sys.stdin.readline()
    chat.hang = True
    record = await store.load(CHAT)
    command = next_command(record, users) if what == "move" else cmds.StopGame(CHAT, users["u1"])
    reply = await coordinator.handle(command)
    print(f"SENT {reply.ok}", flush=True)
    await asyncio.Event().wait()  # killed here, its delivery still hanging


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
