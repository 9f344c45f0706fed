"""Work started beside what started it, which does not wait for it: a timer's callback, an
old message taken down while the move goes on. Each piece is kept until it ends, so that a
stop can wait for it (for a while) and then give it up; nobody awaits it, so an unexpected
failure is logged here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable


class Aside:
    def __init__(self, log: logging.Logger) -> None:
        self._log = log  # the starter's logger: its failures read as the starter's
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, work: Awaitable[None], what: str) -> None:
        """Run ``work`` beside the caller; ``what`` names it in the log if it fails."""
        task = asyncio.get_running_loop().create_task(self._run(work, what))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, work: Awaitable[None], what: str) -> None:
        try:
            await work
        except Exception:
            self._log.exception("%s failed", what)

    def __len__(self) -> int:
        return len(self._tasks)

    async def wait(self, timeout: float | None = None) -> None:
        """Until every piece has ended, those started meanwhile too; ``timeout`` seconds at
        most (None: no bound)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self._tasks:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                return
            await asyncio.wait(set(self._tasks), timeout=left)

    def cancel(self) -> None:
        """Give up every piece still running."""
        for task in self._tasks:
            task.cancel()

    async def close(self, timeout: float) -> None:
        """Let the pieces running end, for ``timeout`` seconds at most, then give up the rest."""
        await self.wait(timeout)
        late = set(self._tasks)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
