"""Where the console's lines come from: stdin, read by a thread; and moves piped in, paced to
the player's turn."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Awaitable, Callable

from bot.coordinator import commands as cmd

from .parse import Refusal
from .port import ConsoleChat

LineReader = Callable[[], Awaitable[str | None]]  # the next line, or None at end of input

# Input piped in (no terminal): a move waits for the person's turn, as someone typing reads the
# table first, or for this many seconds with nothing new shown (then it is taken anyway).
PACED_QUIET_SECONDS = 5.0
# What such a line waits for the turn for: a move, or what may turn out to be one then (a
# card's number the hand shown does not hold yet).
TURN_LINES = (cmd.PlayCards, cmd.Draw, cmd.Pass, cmd.Challenge, cmd.NameColor, Refusal)


async def until_turn(port: ConsoleChat, over: asyncio.Event, *, asked: bool) -> None:
    """Until the person may act (their turn, a colour to name, a question ``asked``), the
    match is ``over``, or ``PACED_QUIET_SECONDS`` pass with nothing new shown."""
    shown = port.shown
    while not over.is_set():
        shown.clear()
        hand = port.last_hand
        if asked or (hand is not None and (hand.is_turn or hand.name_color)):
            return
        news = {asyncio.ensure_future(shown.wait()), asyncio.ensure_future(over.wait())}
        done, waiting = await asyncio.wait(news, timeout=PACED_QUIET_SECONDS,
                                           return_when=asyncio.FIRST_COMPLETED)
        for task in waiting:
            task.cancel()
        if not done:
            return


def stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (OSError, ValueError):  # closed: no terminal either
        return False


class StdinReader:
    """Lines from stdin, read by a daemon thread so a pending read never blocks exit."""

    def __init__(self) -> None:
        self._queue: asyncio.Queue[str | None] | None = None

    async def read(self) -> str | None:
        if self._queue is None:
            self._queue = asyncio.Queue()
            loop = asyncio.get_running_loop()
            queue = self._queue

            if hasattr(sys.stdin, "reconfigure"):
                sys.stdin.reconfigure(errors="replace")  # a stray byte is bad input, not a crash

            def pump() -> None:
                try:
                    for line in sys.stdin:
                        loop.call_soon_threadsafe(queue.put_nowait, line)
                except (OSError, ValueError):  # stdin closed under us: treat as end of input
                    pass
                try:
                    loop.call_soon_threadsafe(queue.put_nowait, None)
                except RuntimeError:  # the loop closed first: we are exiting anyway
                    pass

            threading.Thread(target=pump, name="console-stdin", daemon=True).start()
        return await self._queue.get()
