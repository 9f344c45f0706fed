"""Per-chat locks: every game command of a chat runs under its lock, one after the other."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from types import TracebackType

from .ports import ChatKey


class ChatLocks:
    """One asyncio lock per chat, created on first use, counting who holds or waits for it:
    an idle chat's lock may be forgotten, one somebody waits for must not be.
    ``after_release`` runs each time a block held under a lock ends without an error (the
    coordinator's housekeeping)."""

    def __init__(self, after_release: Callable[[], None] | None = None) -> None:
        self._locks: dict[ChatKey, asyncio.Lock] = {}
        self._users: dict[ChatKey, int] = {}
        self.after_release = after_release

    def hold(self, chat: ChatKey) -> _Held:
        """``async with locks.hold(chat):`` runs the block under the chat's lock."""
        return _Held(self, chat)

    def _enter(self, chat: ChatKey) -> asyncio.Lock:
        self._users[chat] = self._users.get(chat, 0) + 1
        lock = self._locks.get(chat)
        if lock is None:
            lock = self._locks[chat] = asyncio.Lock()
        return lock

    def _leave(self, chat: ChatKey) -> None:
        left = self._users[chat] - 1
        if left:
            self._users[chat] = left
        else:
            del self._users[chat]

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


class _Held:
    """One hold of a chat's lock (a plain class: every command takes one, and a generator
    based context manager costs several times as much)."""

    __slots__ = ("_locks", "_chat", "_lock")

    def __init__(self, locks: ChatLocks, chat: ChatKey) -> None:
        self._locks, self._chat = locks, chat

    async def __aenter__(self) -> None:
        self._lock = self._locks._enter(self._chat)
        try:
            await self._lock.acquire()
        except BaseException:  # cancelled while waiting: no longer among the lock's users
            self._locks._leave(self._chat)
            raise

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        traceback: TracebackType | None) -> None:
        self._lock.release()
        self._locks._leave(self._chat)
        if kind is None and self._locks.after_release is not None:
            self._locks.after_release()
