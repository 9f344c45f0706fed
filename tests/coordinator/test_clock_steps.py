"""RealClock: a deadline is waited for on the monotonic clock and never fires before its wall
time, even when the wall clock steps back after it was set (issue 10 item 6)."""

from __future__ import annotations

import asyncio
import time

from bot.coordinator.clock import RealClock


async def test_a_backward_wall_clock_step_delays_the_timer_instead_of_firing_early() -> None:
    offset = 0.0
    clock = RealClock(wall=lambda: time.time() - offset)
    fired: list[float] = []

    async def callback() -> None:
        fired.append(clock.now())

    when = clock.now() + 0.05
    clock.call_at(when, callback)
    offset = 0.05  # NTP steps the wall clock back by 50 ms before the timer is due
    await asyncio.sleep(0.07)  # the loop's timer has woken by now: the wall clock says "not yet"
    assert fired == []
    async with asyncio.timeout(1.0):
        while not fired:
            await asyncio.sleep(0.005)
    await clock.drain()
    assert fired[0] >= when  # it fired, and not before its wall-clock time


async def test_a_cancelled_timer_never_fires_even_after_a_step() -> None:
    offset = 0.0
    clock = RealClock(wall=lambda: time.time() - offset)
    fired: list[float] = []

    async def callback() -> None:
        fired.append(clock.now())

    timer = clock.call_at(clock.now() + 0.02, callback)
    offset = 0.03
    await asyncio.sleep(0.03)  # woke early and re-armed itself
    timer.cancel()
    await asyncio.sleep(0.06)
    assert fired == []
