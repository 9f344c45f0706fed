"""How a long-running bot process sets up the interpreter once it has started.

A move allocates a few thousand short-lived objects (events, views, rows), nearly all freed
at once by reference counting. At CPython's default gen-0 threshold (700 allocations) the
cycle collector still runs every few moves, and each older-generation pass walks everything
the process holds: the imported modules, the adapters, the held games. That work lands on
whichever move happens to trigger it, which is what stretches the slowest moves when many
games play at once. So, after start-up:

- ``gc.freeze()`` moves what start-up built (modules, clients, caches) out of every later
  pass: it lives as long as the process anyway;
- a larger gen-0 threshold makes the young passes rarer; the older generations keep their
  default ratios, so cyclic garbage is still found, only in bigger batches.

The benchmarks in ``bench/`` call the same function, so they measure what the bot runs.
"""

from __future__ import annotations

import gc

# Allocations (minus frees) of container objects between two young collections. 700 is
# CPython's default; at this value a young pass comes every few hundred moves and still
# takes well under a millisecond.
YOUNG_GENERATION_THRESHOLD = 50_000


def tune_garbage_collector() -> None:
    """Call once, when start-up is done and before the first game is served."""
    gc.collect()  # what is garbage already is not frozen with the rest
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, middle, old)
