"""Clocks: absolute wall time plus timers. ``RealClock`` runs on the asyncio loop; ``FakeClock``
moves only when a test says so, running due callbacks in deadline order."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable

from bot.aside import Aside

log = logging.getLogger(__name__)

Callback = Callable[[], Awaitable[None]]


class _RealTimer:
    def __init__(self) -> None:
        self.handle: asyncio.TimerHandle | None = None
        self.cancelled = False

    def cancel(self) -> None:
        # Only the pending call is cancelled: a callback already running is never interrupted
        # (it may be the very callback re-arming this timer).
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()


class RealClock:
    """Wall-clock time (``time.time``) with timers on the running asyncio loop.

    A deadline is an absolute wall time (it is stored and survives a restart), but it is
    waited for on the loop's monotonic clock. If the wall clock stepped back meanwhile (NTP),
    the timer would wake "early" by the wall clock: it then waits for the rest instead of
    firing, so a deadline is never dropped and never runs before its time."""

    def __init__(self, wall: Callable[[], float] = time.time) -> None:
        self._running = Aside(log)  # callbacks that fired
        self._wall = wall

    def now(self) -> float:
        return self._wall()

    def call_at(self, when: float, callback: Callback) -> _RealTimer:
        loop = asyncio.get_running_loop()
        timer = _RealTimer()

        def fire() -> None:
            if timer.cancelled:
                return
            left = when - self._wall()
            if left > 0:  # the wall clock stepped back: not due yet by the clock deadlines use
                timer.handle = loop.call_later(left, fire)
                return
            self._running.start(callback(), "timer callback")  # nobody to report to but the log

        timer.handle = loop.call_later(max(0.0, when - self._wall()), fire)
        return timer

    async def drain(self) -> None:
        """Wait for callbacks already running (tests and shutdown)."""
        await self._running.wait()


class _FakeTimer:
    def __init__(self, when: float, callback: Callback, clock: FakeClock | None = None) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False
        self._clock = clock

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.callback = _cancelled  # let go of what the callback holds
            if self._clock is not None:
                self._clock._cancelled_one()


async def _cancelled() -> None:
    return None


class FakeClock:
    """Time stands still until ``advance``; then due callbacks run one by one in order of
    their deadline (ties in order of scheduling), each awaited before the next."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._heap: list[tuple[float, int, _FakeTimer]] = []
        self._order = itertools.count()
        self._cancelled = 0

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callback) -> _FakeTimer:
        timer = _FakeTimer(when, callback, self)
        heapq.heappush(self._heap, (when, next(self._order), timer))
        return timer

    def _cancelled_one(self) -> None:
        # Timers re-armed on every move leave cancelled ones behind: drop them once they are
        # half the heap (as asyncio does), so memory follows the timers actually armed.
        self._cancelled += 1
        if self._cancelled > 64 and 2 * self._cancelled > len(self._heap):
            self._heap = [entry for entry in self._heap if not entry[2].cancelled]
            heapq.heapify(self._heap)
            self._cancelled = 0

    @property
    def pending(self) -> int:
        """Timers still armed (not cancelled, not yet run)."""
        return sum(1 for _, _, t in self._heap if not t.cancelled)

    async def advance(self, seconds: float) -> None:
        target = self._now + max(0.0, seconds)
        while self._heap and self._heap[0][0] <= target:
            when, _, timer = heapq.heappop(self._heap)
            if timer.cancelled:
                self._cancelled = max(0, self._cancelled - 1)
                continue
            self._now = max(self._now, when)
            await timer.callback()
        self._now = target
