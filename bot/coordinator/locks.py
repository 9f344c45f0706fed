"""Per-chat locks: every game command of a chat runs under its lock, one after the other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager

from .ports import ChatKey


class ChatLocks:
    """One asyncio lock per chat, created on first use, counting who holds or waits for it:
    an idle chat's lock may be forgotten, one somebody waits for must not be.
    ``after_release`` runs each time a lock is let go (the coordinator's housekeeping)."""

    def __init__(self, after_release: Callable[[], None] | None = None) -> None:
        self._locks: dict[ChatKey, asyncio.Lock] = {}
        self._users: dict[ChatKey, int] = {}
        self.after_release = after_release

    @asynccontextmanager
    async def hold(self, chat: ChatKey) -> AsyncIterator[None]:
        self._users[chat] = self._users.get(chat, 0) + 1
        try:
            lock = self._locks.get(chat)
            if lock is None:
                lock = self._locks[chat] = asyncio.Lock()
            async with lock:
                yield
        finally:
            left = self._users[chat] - 1
            if left:
                self._users[chat] = left
            else:
                del self._users[chat]
        if self.after_release is not None:
            self.after_release()

    def __len__(self) -> int:
        return len(self._locks)

    def chats(self) -> set[ChatKey]:
        return set(self._locks)

    def busy(self) -> set[ChatKey]:
        """Chats whose lock somebody holds or waits for."""
        return set(self._users)

    def forget(self, chats: Iterable[ChatKey]) -> None:
        for chat in chats:
            if chat not in self._users:
                self._locks.pop(chat, None)
