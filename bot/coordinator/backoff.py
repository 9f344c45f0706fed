"""Exponential backoff: how long to wait before trying again after ``failures`` in a row.
One value type for every retry loop (deliveries, timer work, AI moves, sticker uploads)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    first: float  # seconds after the first failure
    most: float  # never longer than this

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failures in a row (1 for the first)."""
        return min(self.most, self.first * 2 ** max(0, failures - 1))
