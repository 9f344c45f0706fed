"""Updates handled fairly between chats: one busy group cannot hold every update slot.

python-telegram-bot runs each update in its own task, limited only by one global number of
slots. A handler that waits (a group reply behind Telegram's 20-a-minute limit) keeps its
slot, so one chat sending commands faster than it may be answered used to fill every slot
and every other chat waited. Here each chat (a user, for updates without a chat) runs at most
``per_chat`` updates at once (the coordinator's per-game lock orders them anyway) and keeps at
most ``backlog`` more waiting; past that its updates are dropped with a log line, so a chat's
share of the global slots is bounded and other chats are served at once. The processor also
knows its running tasks, so a shutdown can cancel what would outlive its grace period.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)


@dataclass
class _ChatLane:
    gate: asyncio.Semaphore
    pending: int = 0  # running + waiting
    dropped: int = field(default=0)


def lane_key(update: object) -> tuple[str, int] | None:
    """The chat an update belongs to; the user for inline queries and inline-message buttons."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return ("chat", update.effective_chat.id)
    if update.effective_user is not None:
        return ("user", update.effective_user.id)
    return None


class FairUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, max_concurrent_updates: int, *, per_chat: int = 4, backlog: int = 16) -> None:
        super().__init__(max_concurrent_updates)
        self.per_chat = per_chat
        self.backlog = backlog
        self._lanes: dict[tuple[str, int], _ChatLane] = {}
        self._running: set[asyncio.Task[Any]] = set()
        self.dropped = 0  # updates refused because their chat's backlog was full

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = lane_key(update)
        if key is None:
            await coroutine
            return
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _ChatLane(asyncio.Semaphore(self.per_chat))
        if lane.pending >= self.per_chat + self.backlog:
            self.dropped += 1
            lane.dropped += 1
            if lane.dropped == 1 or lane.dropped % 100 == 0:  # a flood logs a line, not a flood
                log.warning("%s %s sends faster than it can be answered: %d update(s) dropped",
                            key[0], key[1], lane.dropped)
            _discard(coroutine)
            return
        lane.pending += 1
        task = asyncio.current_task()
        if task is not None:
            self._running.add(task)
        started = False
        try:
            async with lane.gate:
                started = True
                await coroutine
        finally:
            if not started:  # cancelled while waiting its turn (a shutdown)
                _discard(coroutine)
            lane.pending -= 1
            if task is not None:
                self._running.discard(task)
            if lane.pending == 0:
                self._lanes.pop(key, None)  # idle chats cost no memory

    def cancel_running(self) -> int:
        """Cancel every update still being handled (a shutdown past its grace period)."""
        tasks = [t for t in self._running if not t.done()]
        for task in tasks:
            task.cancel()
        return len(tasks)


def _discard(coroutine: Awaitable[Any]) -> None:
    """An update's handler that will never run: closed, so Python does not warn that it was
    never awaited."""
    close = getattr(coroutine, "close", None)
    if close is not None:
        close()
