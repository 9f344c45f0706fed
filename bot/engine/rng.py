"""Seeded shuffles: a fresh generator per shuffle, keyed by the hand's seed and a counter, so a
game replays exactly from its seed."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final


def seeded_rng(seed: int | str, counter: int) -> random.Random:
    # A fresh generator per shuffle, keyed by seed and counter: replay needs no hidden state.
    return random.Random(f"{seed}:{counter}")


# random.Random.shuffle and .randrange(n), drawing exactly the same numbers (so a seed deals the
# same cards as ever) without a method call per card: ~2x faster, and every hand starts with one.
def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for ``n > 0``, given ``rng.getrandbits``."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


_SHUFFLE_STEPS: Final = [(i, (i + 1).bit_length()) for i in range(200, 0, -1)]


def shuffle(rng: random.Random, items: list) -> None:
    """``rng.shuffle(items)``, the same permutation."""
    getrandbits = rng.getrandbits
    size = len(items)
    steps = _SHUFFLE_STEPS[len(_SHUFFLE_STEPS) - size + 1:] if size <= len(_SHUFFLE_STEPS) + 1 \
        else [(i, (i + 1).bit_length()) for i in range(size - 1, 0, -1)]
    for i, k in steps:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
