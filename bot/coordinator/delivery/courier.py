"""The courier: per chat, deliveries go out in the order their transactions committed, and
outside the chat's lock.

A transaction saves under the chat's lock and hands its messages to the courier; the lock is
released at once. So a slow or failing platform call (discord.py retries a 5xx for ~25 s, a
Telegram group waits out its rate limit) never holds the chat: other players' commands run
and are answered meanwhile, and their messages queue behind, in order.

A public message the platform refused (``DeliveryFailed``) is tried again with backoff. A
table that failed is repainted as soon as delivery works again, or replaced by a newer table
of the same game queued behind it (only the latest table matters); a notice is given up after
a few attempts (it stays in the game's stored outbox until then, see ``owed.py``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from ..backoff import Backoff
from ..ports import ChatKey

log = logging.getLogger(__name__)


class Retry(Exception):
    """A job stopped at a public message the platform refused; its cursor stays on it."""

    def __init__(self, table_only: bool) -> None:
        super().__init__("delivery failed")
        self.table_only = table_only  # only a table failed: a newer table may replace it


@dataclass(eq=False)
class Job:
    """One transaction's messages. ``cursor`` is the next public item to send (a retry
    resumes there); ``skip_table`` tells the deliverer a newer table of the same game is
    queued behind, so this job's table edit is moot."""

    chat: ChatKey
    game_id: str
    version: int
    payload: Any
    has_table: bool
    delivered: bool = False
    # Futures of those waiting for the job (cheaper than an Event and wait_for's task: every
    # move waits for its own job).
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    cursor: int = 0
    hands_done: bool = False
    skip_table: bool = False
    failures: int = 0
    first_failure: float = 0.0


Deliver = Callable[[Job], Awaitable[None]]


class Courier:
    def __init__(self, deliver: Deliver, *, first_retry: float = 1.0, max_retry: float = 60.0,
                 give_up_table: float = 1800.0, notice_attempts: int = 6) -> None:
        self._deliver = deliver
        self.first_retry = first_retry
        self.max_retry = max_retry
        self.give_up_table = give_up_table  # seconds a failing table is retried for
        self.notice_attempts = notice_attempts
        self._queues: dict[ChatKey, deque[Job]] = {}
        self._workers: dict[ChatKey, asyncio.Task[None]] = {}
        self._wake: dict[ChatKey, asyncio.Event] = {}
        # Those waiting for a job, by deadline (in the order they began: every wait is as
        # long), and the one loop timer for the first of them: a timer per wait would cost a
        # heap entry and its cancelling on every move.
        self._deadlines: deque[tuple[float, asyncio.Future[None]]] = deque()
        self._expiry: asyncio.TimerHandle | None = None
        self._expiry_loop: asyncio.AbstractEventLoop | None = None

    def submit(self, job: Job) -> None:
        """Queue a job behind the chat's earlier ones (call in commit order)."""
        queue = self._queues.setdefault(job.chat, deque())
        queue.append(job)
        wake = self._wake.get(job.chat)
        if wake is not None and job.has_table:
            wake.set()  # a worker backing off may now skip its failed table
        worker = self._workers.get(job.chat)
        if worker is None or worker.done():
            self._workers[job.chat] = asyncio.get_running_loop().create_task(self._run(job.chat))

    async def wait(self, job: Job, timeout: float) -> bool:
        """Wait until ``job`` went out, at most ``timeout`` seconds; whether it did."""
        if job.delivered:
            return True
        loop = asyncio.get_running_loop()
        if self._expiry_loop is not loop:  # a courier used again in a new event loop
            self._deadlines.clear()
            self._expiry, self._expiry_loop = None, loop
        waiter: asyncio.Future[None] = loop.create_future()
        job.waiters.append(waiter)
        deadline = loop.time() + timeout
        if self._deadlines and deadline < self._deadlines[-1][0]:
            timer = loop.call_at(deadline, _wake, waiter)  # shorter than those before it
            try:
                await waiter
            finally:
                timer.cancel()
            return job.delivered
        while self._deadlines and self._deadlines[0][1].done():
            self._deadlines.popleft()  # answered already: forgotten now, not at the timer
        self._deadlines.append((deadline, waiter))
        if self._expiry is None:
            self._expiry = loop.call_at(deadline, self._expire)
        await waiter
        return job.delivered

    def _expire(self) -> None:
        """Wake those whose wait is over; the timer then moves to the next one still waiting."""
        self._expiry = None
        deadlines = self._deadlines
        loop = asyncio.get_running_loop()
        now = loop.time()
        while deadlines and (deadlines[0][0] <= now or deadlines[0][1].done()):
            _wake(deadlines.popleft()[1])
        if deadlines:
            self._expiry = loop.call_at(deadlines[0][0], self._expire)

    def busy(self, chat: ChatKey) -> bool:
        return bool(self._queues.get(chat))

    def later_queued(self, job: Job) -> bool:
        """Whether a later job of the same game waits behind ``job`` (being delivered)."""
        queue = self._queues.get(job.chat, ())
        return any(later is not job and later.game_id == job.game_id for later in queue)

    def waiting(self) -> int:
        """Jobs queued in every chat, the one being delivered included."""
        return sum(len(queue) for queue in self._queues.values())

    @property
    def chats(self) -> int:
        """Chats with a queue (the courier forgets a chat once its queue is empty)."""
        return len(self._queues)

    async def close(self, timeout: float) -> None:
        """Let queued deliveries finish for up to ``timeout`` seconds, then stop. What did not go
        out stays owed in the store and is delivered by the next ``resume()``."""
        workers = [w for w in self._workers.values() if not w.done()]
        if workers:
            await asyncio.wait(workers, timeout=timeout)
        for worker in workers:
            worker.cancel()
        for worker in workers:
            try:
                await worker
            except (asyncio.CancelledError, Exception):
                pass

    async def _run(self, chat: ChatKey) -> None:
        queue = self._queues[chat]
        try:
            while queue:
                job = queue[0]
                job.skip_table = any(later.has_table and later.game_id == job.game_id
                                     for later in islice(queue, 1, None))
                try:
                    await self._deliver(job)
                except Retry as retry:
                    if await self._back_off(chat, job, retry):
                        continue  # try the same job again
                except Exception:  # a bug in delivery must not stop the chat's queue
                    log.exception("delivering to chat %s failed", chat)
                queue.popleft()
                job.delivered = True
                for waiter in job.waiters:
                    _wake(waiter)
        finally:
            if self._workers.get(chat) is asyncio.current_task():
                del self._workers[chat]
            self._wake.pop(chat, None)
            if not queue and self._queues.get(chat) is queue:
                del self._queues[chat]  # an idle chat costs no memory

    async def _back_off(self, chat: ChatKey, job: Job, retry: Retry) -> bool:
        """Sleep before the next attempt; False when the job is given up."""
        now = time.monotonic()
        if job.failures == 0:
            job.first_failure = now
        job.failures += 1
        if retry.table_only:
            if now - job.first_failure > self.give_up_table:
                log.warning("chat %s: the table could not be delivered for %.0f s; giving up "
                            "until the next move", chat, now - job.first_failure)
                return False
        elif job.failures >= self.notice_attempts:
            log.warning("chat %s: a message could not be delivered after %d attempts",
                        chat, job.failures)
            job.cursor += 1  # give up this one message, not the rest of the job
            job.failures = 0
            return True
        delay = Backoff(self.first_retry, self.max_retry).delay(job.failures)
        wake = self._wake[chat] = asyncio.Event()
        try:
            await asyncio.wait_for(wake.wait(), delay)  # a newer table cuts the wait short
        except TimeoutError:
            pass
        return True


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)
