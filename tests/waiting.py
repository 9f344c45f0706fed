"""Waiting on a condition instead of sleeping a fixed time.

A fixed sleep before an assertion either wastes time or, on a loaded machine, lets the
assertion run before the thing it checks happened (a "nothing happened" check then passes
falsely). ``wait_until`` polls a condition with a short step and fails loudly after a
generous timeout, so a slow machine only makes the test slower.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

STEP = 0.005  # seconds between two looks at the condition


async def wait_until(predicate: Callable[[], T | Awaitable[T]], timeout: float = 5.0,
                     what: str = "the condition") -> T:
    """Poll ``predicate()`` (plain or async, e.g. a store read) until it is truthy and return
    its value; fail after ``timeout`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = predicate()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(STEP)
