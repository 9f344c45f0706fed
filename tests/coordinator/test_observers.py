"""The coordinator's hooks for the operator's metrics: how late deadline timers fire, the
unexpected errors logged, and the deliveries queued behind the platform."""

from __future__ import annotations

import asyncio

import pytest

from bot.coordinator import ChatKey, Coordinator, FakeClock
from bot.coordinator.delivery import Courier, Job
from bot.coordinator.failures import FailureLog

from .conftest import CHAT, Harness


class LateClock(FakeClock):
    """Fires every timer ``late`` seconds after its time, like a busy event loop."""

    def __init__(self, late: float) -> None:
        super().__init__()
        self.late = late

    def call_at(self, when, callback):
        async def fire_late():
            self._now = max(self._now, when + self.late)
            await callback()

        return super().call_at(when, fire_late)


async def test_the_turn_timer_reports_how_late_it_fired() -> None:
    lags: list[float] = []
    h = Harness(clock=LateClock(2.5))
    h.coordinator = Coordinator(h.chat, h.store, h.clock, ai_delay=0, seed=h.seed,
                                notifier=h.chat, timer_lag=lags.append)
    await h.start(2)
    player = (await h.state()).current
    await h.clock.advance(70)
    assert (await h.state()).current != player  # the timeout did its work
    assert lags and lags[0] == pytest.approx(2.5)


@pytest.mark.allow_errors
def test_the_failure_log_tells_its_observer_after_logging() -> None:
    seen: list[BaseException] = []
    log_failure = FailureLog(seen.append)
    error = KeyError("a hand")
    log_failure(error, "an AI move", CHAT)
    assert seen == [error]


async def test_the_courier_counts_the_jobs_waiting() -> None:
    release = asyncio.Event()

    async def deliver(job: Job) -> None:
        await release.wait()

    courier = Courier(deliver)
    for version in (1, 2):
        courier.submit(Job(CHAT, "g1", version, None, has_table=True))
    courier.submit(Job(ChatKey("telegram", "-200"), "g2", 1, None, has_table=True))
    await asyncio.sleep(0)
    assert courier.waiting() == 3
    release.set()
    for _ in range(10):
        await asyncio.sleep(0)
    assert courier.waiting() == 0
    await courier.close(1)
