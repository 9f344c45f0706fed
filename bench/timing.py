"""Timing shared by the benchmarks that drive the coordinator, and the collector they run."""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from bot import runtime
from bot.coordinator.coordinator import Coordinator

# What a saved action sent, the classes its latency is also told by: the tail of a closed
# loop's latency comes from the actions with the most work (a hand's end), not from all.
TABLE_ONLY, TABLE_AND_HAND, SEVERAL = "table only", "table and a hand", "several public messages"


def action_kind(tx) -> str:
    """``tx``'s class: one public message and no hand, one and a hand or more, or several
    public messages (a hand's end, a notice)."""
    if len(tx.outgoing) > 1:
        return SEVERAL
    return TABLE_AND_HAND if tx.views else TABLE_ONLY


def time_actions(coordinator: Coordinator, latencies: list[float],
                 kinds: dict[str, list[float]] | None = None) -> None:
    """Record the duration of every transaction that saved something (= one action); with
    ``kinds``, each also under its class (``action_kind``)."""
    inner = coordinator.uow.transact

    async def transact(chat, work, *args, **kwargs):
        started = time.perf_counter()
        outcome, tx = await inner(chat, work, *args, **kwargs)
        if tx.dirty:
            took = time.perf_counter() - started
            latencies.append(took)
            if kinds is not None:
                kinds.setdefault(action_kind(tx), []).append(took)
        return outcome, tx

    coordinator.uow.transact = transact  # type: ignore[method-assign]


def percentile(values: list[float], q: float) -> float:
    """The value below which a share ``q`` of ``values`` lies (nan: none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def latency_figures(latencies: list[float]) -> dict[str, float]:
    """p50 and p99 of ``latencies`` (seconds), in milliseconds."""
    return {"p50_ms": 1000 * statistics.median(latencies), "p99_ms": 1000 * percentile(latencies, 0.99)}


def add_collector_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--default-gc", action="store_true",
                        help="keep CPython's collector settings instead of the bot's (bot.runtime)")


def set_up_collector(default_gc: bool) -> None:
    """The collector as ``unobot run`` sets it, unless ``--default-gc`` asked for CPython's."""
    if not default_gc:
        runtime.tune_garbage_collector()


class CollectorPasses:
    """Counts the cycle collector's passes, the time they take and the longest, while
    entered. A pass stops every game at once: with many games in flight, the longest adds to
    the latency of all the actions it lands on."""

    def __init__(self) -> None:
        self.passes = 0
        self.seconds = 0.0
        self.longest = 0.0
        self._started = 0.0

    def _watch(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            took = time.perf_counter() - self._started
            self.passes += 1
            self.seconds += took
            self.longest = max(self.longest, took)

    def __enter__(self) -> CollectorPasses:
        gc.callbacks.append(self._watch)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._watch)


def kind_figures(kinds: dict[str, list[float]]) -> str:
    """Share, p50 and p99 of each class of action, on one line."""
    total = sum(len(v) for v in kinds.values()) or 1
    parts = []
    for kind in (TABLE_ONLY, TABLE_AND_HAND, SEVERAL):
        values = kinds.get(kind)
        if values:
            figures = latency_figures(values)
            parts.append(f"{kind} {100 * len(values) / total:.1f}%: p50 {figures['p50_ms']:.1f} ms, "
                         f"p99 {figures['p99_ms']:.1f} ms")
    return "; ".join(parts)
