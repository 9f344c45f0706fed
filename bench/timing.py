"""Timing shared by the benchmarks that drive the coordinator."""

from __future__ import annotations

import time

from bot.coordinator.coordinator import Coordinator


def time_actions(coordinator: Coordinator, latencies: list[float]) -> None:
    """Record the duration of every transaction that saved something (= one action)."""
    inner = coordinator.uow.transact

    async def transact(chat, work, *args, **kwargs):
        started = time.perf_counter()
        outcome, tx = await inner(chat, work, *args, **kwargs)
        if tx.dirty:
            latencies.append(time.perf_counter() - started)
        return outcome, tx

    coordinator.uow.transact = transact  # type: ignore[method-assign]
