"""Child process for the two-process race test: fires moves at shared games on one
PostgreSQL database through its own Coordinator, and prints a JSON tally at the end.

    python -m tests.storage.race_child URL CHAT_ID[,CHAT_ID...] MOVES_PER_GAME

It prints READY, waits for a line on stdin (so both processes start together), then for
each game loops: load, pick the move for the player to act, send it."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

from bot.coordinator.clock import FakeClock
from bot.coordinator.coordinator import Coordinator
from bot.coordinator.ports import ChatKey
from storage import SqlStore

from .games import NullChat, humans, next_command


class CountingStore(SqlStore):
    """Counts successful saves per game: the ground truth of what this process applied.
    ``settles`` counts the saves that left the game state as it was (message ids and the
    delivered outbox stored after a delivery), which answer no move."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.saves: Counter[str] = Counter()
        self.settles: Counter[str] = Counter()

    async def save(self, record, results=()):  # type: ignore[override]
        stored = await self.get(record.game_id) if record.version else None
        saved = await super().save(record, results)
        self.saves[saved.game_id] += 1
        if stored is not None and stored.match == record.match:  # unchanged since read: same version
            self.settles[saved.game_id] += 1
        return saved


async def fire(coordinator: Coordinator, store: SqlStore, chat: ChatKey, moves: int,
               tally: Counter) -> None:
    users = humans(3)
    for _ in range(moves):
        record = await store.load(chat)
        command = next_command(record, users) if record else None
        if command is None:
            return
        reply = await coordinator.handle(command)
        tally["sent"] += 1
        tally["accepted" if reply.ok else f"refused:{reply.error}"] += 1


async def main(url: str, chat_ids: list[str], moves: int) -> None:
    store = CountingStore.from_url(url)
    coordinator = Coordinator(NullChat(), store, FakeClock(), ai_delay=0)
    tally: Counter[str] = Counter()
    print("READY", flush=True)
    sys.stdin.readline()
    await asyncio.gather(*(fire(coordinator, store, ChatKey("discord", chat_id), moves, tally)
                           for chat_id in chat_ids))
    await coordinator.close()
    await store.close()
    print(json.dumps({"tally": tally, "saves": store.saves, "settles": store.settles}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])))
