"""Work started aside: a failure is logged under its name, a wait covers work started while
waiting, and a close waits a bounded time and gives up the rest."""

from __future__ import annotations

import asyncio
import logging

from bot.aside import Aside

log = logging.getLogger("tests.aside")


async def test_a_failure_is_logged_with_what_failed(caplog):
    aside = Aside(log)

    async def broken() -> None:
        raise RuntimeError("boom")

    aside.start(broken(), "deleting an old table in channel 7")
    await aside.wait()
    [record] = [r for r in caplog.records if r.name == "tests.aside"]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == "deleting an old table in channel 7 failed"
    assert len(aside) == 0


async def test_a_wait_covers_work_started_while_waiting():
    aside = Aside(log)
    done: list[str] = []

    async def second() -> None:
        done.append("second")

    async def first() -> None:
        aside.start(second(), "second")
        done.append("first")

    aside.start(first(), "first")
    await aside.wait()
    assert done == ["first", "second"]


async def test_a_close_gives_up_what_outlasts_its_bound():
    aside = Aside(log)
    never = asyncio.Event()
    aside.start(never.wait(), "waiting for ever")
    await aside.close(timeout=0.01)
    assert len(aside) == 0
