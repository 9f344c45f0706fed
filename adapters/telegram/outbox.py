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
from telegram.error import BadRequest, ChatMigrated, TelegramError

from .muted_groups import lacks_rights
from .photos import RecapPhoto, TablePhoto

log = logging.getLogger(__name__)

# What a message shows: HTML text, or a photo table (picture and caption). The outbox only
# passes it on.
Body = str | TablePhoto | RecapPhoto
# (chat id, body, markup, message id to edit or None) -> the id of the message shown
Deliver = Callable[[int, Body, InlineKeyboardMarkup | None, str | None], Awaitable[str]]


@dataclass
class _Item:
    text: Body
    markup: InlineKeyboardMarkup | None
    edit: str | None  # message id to edit, None to send a new message
    done: asyncio.Future[str | None] | None = field(default=None)  # sends are awaited
    merged: int = 0  # how many newer edits replaced this one's content
    transient: bool = False  # a reminder (a turn ping): a newer one replaces it while it waits
    failures: int = 0  # failed attempts of a table edit being retried


# A table edit refused by Telegram for a passing reason (5xx, a network error, 403 while the
# bot is out of the group) is tried again after these pauses, then every minute, for half an
# hour: the group sees the table as soon as delivery works again, not only at the next move.
RETRY_DELAYS = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 60.0)
RETRY_FOR = 30 * 60.0


class GroupOutbox:
    def __init__(self, chat_id: int, deliver: Deliver, *,
                 retry_delays: tuple[float, ...] = RETRY_DELAYS, retry_for: float = RETRY_FOR) -> None:
        self.chat_id = chat_id
        self._deliver = deliver
        self._retry_delays = retry_delays
        self._retry_for = retry_for
        self.repainted = 0  # table edits that went out after failing (for tests and logs)
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

    def edit(self, message_id: str, text: Body, markup: InlineKeyboardMarkup | None) -> str:
        """Queue an edit and return at once (the id the message has, as far as known). The
        id is looked up again when the edit goes out: an edit in flight may still replace the
        message (sent anew), and this one must follow it there."""
        message_id = self.current_id(message_id)
        last = self._queue[-1] if self._queue else None
        if last is not None and last.edit is not None and self.current_id(last.edit) == message_id \
                and last.done is None:
            last.text, last.markup = text, markup  # still waiting: send only the newest
            last.merged += 1
            self.merged += 1
        else:
            self._queue.append(_Item(text, markup, message_id))
            self._wake()
        return message_id

    async def send(self, text: Body, markup: InlineKeyboardMarkup | None) -> str | None:
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

    def abandon(self) -> None:
        """Stop sending: the queue is dropped (logged) and the message in flight cancelled."""
        if self._queue:
            log.warning("chat %s: %d queued message(s) not sent at shutdown", self.chat_id, len(self._queue))
        for item in self._queue:
            if item.done is not None and not item.done.done():
                item.done.set_result(None)
        self._queue.clear()
        if self._worker is not None and not self._worker.done():
            self._worker.cancel()

    @property
    def idle(self) -> bool:
        """Nothing queued or in flight: the outbox may be dropped and made again later."""
        return not self._queue and (self._worker is None or self._worker.done())

    def _newer_edit_queued(self, item: _Item) -> bool:
        assert item.edit is not None
        target = self.current_id(item.edit)
        return any(other.edit is not None and self.current_id(other.edit) == target
                   for other in self._queue)

    async def _retry(self, item: _Item) -> bool:
        """Put a failed table edit back at the head of the queue after a pause; False when it
        has failed for too long. A newer edit of the same message queued meanwhile makes it
        pointless: that one carries the latest table."""
        item.failures += 1
        if self._newer_edit_queued(item):
            return True
        delays = self._retry_delays
        waited = sum(delays[min(i, len(delays) - 1)] for i in range(item.failures - 1))
        if waited >= self._retry_for:
            return False
        await asyncio.sleep(delays[min(item.failures - 1, len(delays) - 1)])
        if not self._newer_edit_queued(item):
            self._queue.appendleft(item)
        return True

    def _give_up_all(self, item: _Item) -> None:
        """Drop ``item`` and everything queued behind it; those waiting get no message id."""
        for dropped in (item, *self._queue):
            if dropped.done is not None and not dropped.done.done():
                dropped.done.set_result(None)
        self._queue.clear()

    def _wake(self) -> None:
        if self._worker is None or self._worker.done():
            self._worker = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while self._queue:
            item = self._queue.popleft()  # out of the queue while in flight: never merged into
            if item.edit is not None:  # where the message is now, not where it was when queued
                item.edit = self.current_id(item.edit)
            try:
                shown = await self._deliver(self.chat_id, item.text, item.markup, item.edit)
                if item.edit is not None and shown != item.edit:
                    self._moved[item.edit] = shown
                if item.failures:
                    self.repainted += 1
                result: str | None = shown
            except ChatMigrated:  # the group became a supergroup: nothing more goes out here
                self._give_up_all(item)
                return
            except BadRequest as error:  # the request itself is wrong: trying again won't help
                if not lacks_rights(error):  # that is logged by the port (muted_groups)
                    log.error("posting in chat %s failed: %s", self.chat_id, error.message)
                result = None
            except TelegramError as error:
                if item.edit is not None and item.done is None and await self._retry(item):
                    log.warning("a table edit in chat %s failed (%s); trying again",
                                self.chat_id, error.message)
                    continue
                log.error("posting in chat %s failed: %s", self.chat_id, error.message)
                result = None
            except Exception:  # never let one message stop the queue
                log.exception("posting in chat %s failed", self.chat_id)
                result = None
            if item.done is not None and not item.done.done():
                item.done.set_result(result)
