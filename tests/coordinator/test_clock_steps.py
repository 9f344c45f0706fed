"""RealClock: a deadline is waited for on the monotonic clock and never fires before its wall
time, even when the wall clock steps back after it was set.

The tests watch the clock's own reads of the wall clock instead of sleeping a fixed time:
what each timer wake-up saw and decided is recorded, so a loaded machine cannot make them
pass or fail by chance."""

from __future__ import annotations

import time

from bot.coordinator.clock import RealClock
from tests.waiting import wait_until


class SteppedWall:
    """A wall clock that can be stepped back, remembering every read (value, fired so far)."""

    def __init__(self, fired: list[float]) -> None:
        self.offset = 0.0
        self.fired = fired
        self.reads: list[tuple[float, int]] = []

    def __call__(self) -> float:
        value = time.time() - self.offset
        self.reads.append((value, len(self.fired)))
        return value


async def test_a_backward_wall_clock_step_delays_the_timer_instead_of_firing_early() -> None:
    fired: list[float] = []
    wall = SteppedWall(fired)
    clock = RealClock(wall=wall)

    async def callback() -> None:
        fired.append(clock.now())

    when = clock.now() + 0.05
    clock.call_at(when, callback)
    armed = len(wall.reads)  # the reads so far: setting the timer
    wall.offset = 0.3  # NTP steps the wall clock back before the timer is due
    await wait_until(lambda: bool(fired))
    await clock.drain()
    assert fired[0] >= when  # it fired, and not before its wall-clock time
    # The loop woke it on time by the monotonic clock, the wall clock said "not yet", and it
    # waited for the rest instead of firing.
    early = [value for value, done in wall.reads[armed:] if value < when and done == 0]
    assert early, wall.reads


async def test_a_cancelled_timer_never_fires_even_after_a_step() -> None:
    fired: list[float] = []
    wall = SteppedWall(fired)
    clock = RealClock(wall=wall)

    async def callback() -> None:
        fired.append(clock.now())

    timer = clock.call_at(clock.now() + 0.02, callback)
    armed = len(wall.reads)
    wall.offset = 0.3
    await wait_until(lambda: len(wall.reads) > armed)  # woke early and re-armed itself
    timer.cancel()
    assert timer.handle is not None and timer.handle.cancelled()  # the re-armed wake-up is gone
    await clock.drain()
    assert fired == []
