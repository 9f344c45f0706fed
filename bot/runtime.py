"""How a long-running bot process sets up the interpreter once it has started.

Nearly everything a move allocates is freed at once by reference counting, yet at CPython's
default gen-0 threshold (700) the cycle collector still runs every few dozen moves, and its
older passes walk everything the process holds: the imported modules, the adapters, the held
games. With many games open that is a large share of the time, and each pass lands on
whichever move triggered it (docs/development/benchmarks.md has the figures). So, after
start-up:

- ``gc.freeze()`` moves what start-up built (modules, clients, caches) out of every later
  pass: it lives as long as the process anyway;
- a larger gen-0 threshold makes the passes far rarer; the older generations keep their
  default ratios, so cyclic garbage is still found, only in bigger batches.

The benchmarks in ``bench/`` call the same function, so they measure what the bot runs.
"""

from __future__ import annotations

import gc

# Allocations (minus frees) of container objects between two young collections; CPython's
# default is 700.
YOUNG_GENERATION_THRESHOLD = 50_000


def tune_garbage_collector() -> None:
    """Call once, when start-up is done and before the first game is served."""
    gc.collect()  # what is garbage already is not frozen with the rest
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, old)
