"""One group's public messages, sent in order; table edits that pile up are merged.

Telegram allows a bot about 20 messages a minute in a group (AIORateLimiter paces them). If
every table edit were awaited by the game, a lively game would wait ~3 s per move once the
burst is spent. Instead an edit is queued and the game goes on: while an edit of the same
message is still waiting, a newer one replaces its content (only the latest table matters),
so the group gets at most one edit per turn and often fewer. New messages (lobby, notices)
keep their place in the queue and are awaited, because the coordinator needs their id.
Nothing is reordered: the queue is first in, first out, and only the last queued item is
ever merged with.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from telegram import InlineKeyboardMarkup
from telegram.error import TelegramError

log = logging.getLogger(__name__)

# (chat id, text, markup, message id to edit or None) -> the id of the message shown
Deliver = Callable[[int, str, InlineKeyboardMarkup | None, str | None], Awaitable[str]]


@dataclass
class _Item:
    text: str
    markup: InlineKeyboardMarkup | None
    edit: str | None  # message id to edit, None to send a new message
    done: asyncio.Future[str | None] | None = field(default=None)  # sends are awaited
    merged: int = 0  # how many newer edits replaced this one's content
    transient: bool = False  # a reminder (a turn ping): a newer one replaces it while it waits


class GroupOutbox:
    def __init__(self, chat_id: int, deliver: Deliver) -> None:
        self.chat_id = chat_id
        self._deliver = deliver
        self._queue: deque[_Item] = deque()
        self._worker: asyncio.Task[None] | None = None
        self._moved: dict[str, str] = {}  # edited message id -> the id that replaced it
        self.merged = 0  # edits saved by merging (for logs and benchmarks)
        self.dropped = 0  # reminders replaced by newer ones before they went out

    def current_id(self, message_id: str) -> str:
        """A message that had to be sent anew (the old one was gone) keeps being edited."""
        while message_id in self._moved:
            message_id = self._moved[message_id]
        return message_id

    def edit(self, message_id: str, text: str, markup: InlineKeyboardMarkup | None) -> str:
        """Queue an edit and return at once (the id the message has, as far as known)."""
        message_id = self.current_id(message_id)
        last = self._queue[-1] if self._queue else None
        if last is not None and last.edit == message_id and last.done is None:
            last.text, last.markup = text, markup  # still waiting: send only the newest
            last.merged += 1
            self.merged += 1
        else:
            self._queue.append(_Item(text, markup, message_id))
            self._wake()
        return message_id

    async def send(self, text: str, markup: InlineKeyboardMarkup | None) -> str | None:
        """Queue a new message after everything before it; its id, or None if it failed."""
        done: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Item(text, markup, None, done))
        self._wake()
        return await done

    def remind(self, text: str) -> None:
        """Queue a reminder (a turn ping) and return at once. One still waiting is dropped for
        the newer one: under the group limit only the latest reminder is worth a message."""
        self.dropped += sum(1 for item in self._queue if item.transient)
        self._queue = deque(item for item in self._queue if not item.transient)
        self._queue.append(_Item(text, None, None, transient=True))
        self._wake()

    async def drain(self) -> None:
        """Wait until everything queued went out (before shutting down)."""
        while self._worker is not None and not self._worker.done():
            await asyncio.shield(self._worker)

    def _wake(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._queue:
            item = self._queue.popleft()  # out of the queue while in flight: never merged into
            try:
                shown = await self._deliver(self.chat_id, item.text, item.markup, item.edit)
                if item.edit is not None and shown != item.edit:
                    self._moved[item.edit] = shown
                result: str | None = shown
            except TelegramError as error:
                log.error("posting in chat %s failed: %s", self.chat_id, error.message)
                result = None
            except Exception:  # never let one message stop the queue
                log.exception("posting in chat %s failed", self.chat_id)
                result = None
            if item.done is not None and not item.done.done():
                item.done.set_result(result)
