"""Groups that Telegram upgraded to supergroups. The supergroup is a new chat with a new id,
and the old group takes no more messages: the bot learns it from the service message in
either chat, or from a send refused with the new id (``ChatMigrated``). Either way the
coordinator moves the group's game and everything stored to the new id (it posts the table
there); meanwhile what was still queued for the old id is dropped, not retried for half an
hour."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from cachetools import FIFOCache

log = logging.getLogger(__name__)

KEPT = 4096  # upgrades remembered (an old id never takes messages again)

OnMoved = Callable[[int, int], Coroutine[Any, Any, object]]


class ChatMoves:
    def __init__(self) -> None:
        self._new_ids: FIFOCache[int, int] = FIFOCache(KEPT)  # old chat id -> new chat id
        self._moving: set[asyncio.Task[object]] = set()
        self.on_moved: OnMoved | None = None  # the coordinator's move (set by the context)

    def moved(self, chat_id: int) -> bool:
        """Whether ``chat_id`` is a group upgraded since: nothing more is sent there."""
        return chat_id in self._new_ids

    def learn(self, old: int, new: int) -> bool:
        """Note the upgrade; whether it was news."""
        if self._new_ids.get(old) == new:
            return False
        self._new_ids[old] = new
        log.info("chat %s was upgraded to %s", old, new)
        return True

    def refused(self, old: int, new: int) -> None:
        """A send to ``old`` was refused with its new id: move its game there, in the
        background (the refused send is in the middle of a delivery of that chat)."""
        if self.learn(old, new) and self.on_moved is not None:
            task: asyncio.Task[object] = asyncio.get_running_loop().create_task(self.on_moved(old, new))
            self._moving.add(task)
            task.add_done_callback(self._moving.discard)
