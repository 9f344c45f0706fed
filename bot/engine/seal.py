"""Sealed seeds: each hand's shuffle is committed at the deal and can be checked at its end.

A sealed match seed is a secret of at least 128 random bits (``"sealed:"`` and 32 hex
digits). Each hand's seed is derived from it one way (HMAC-SHA256 of the table and hand
number, keyed by the secret), so revealing a finished hand's seed tells nothing about the
secret or any other hand. The fingerprint shown at the deal is SHA-256 of the hand's seed
(its UTF-8 text); anyone can check a revealed seed against it, and rebuild the deal from it.

Older seeds (an integer, or any other string) keep deriving the hand seed as they always
did, so stored games and their replays deal exactly the same cards; they are not sealed:
their hand seeds contain the match seed, and nothing of them is shown.
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Final

SEALED_PREFIX: Final = "sealed:"
SECRET_BITS: Final = 128


def sealed_seed(bits: int) -> str:
    """A sealed match seed from ``bits``, a random number below 2**128 (the caller's
    generator decides how random: a system one in production, a seeded one in tests)."""
    if not 0 <= bits < 1 << SECRET_BITS:
        raise ValueError("a sealed seed takes 128 random bits")
    return f"{SEALED_PREFIX}{bits:032x}"


def is_sealed(seed: int | str) -> bool:
    """Whether ``seed`` is a sealed match seed (its hands' seeds may be shown once over)."""
    return isinstance(seed, str) and seed.startswith(SEALED_PREFIX) and len(seed) > len(SEALED_PREFIX)


def hand_seed(seed: int | str, number: int, table: int = 0) -> str:
    """The seed of hand ``number`` (of table ``table`` of a match played at several tables;
    0 for a whole match): one-way from a sealed seed, as it always was from an older one."""
    if is_sealed(seed):
        assert isinstance(seed, str)
        message = f"table{table}/hand{number}".encode()
        return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()
    return f"{seed}/hand{number}" if table == 0 else f"{seed}/t{table}/hand{number}"


@lru_cache(maxsize=4096)  # every table drawn shows it: the hands being played, hashed once
def fingerprint(seed: int | str) -> str:
    """SHA-256 of a hand's seed as 64 lowercase hex digits: what ``sha256sum`` prints for the
    seed's text (``printf %s SEED | sha256sum``)."""
    return hashlib.sha256(str(seed).encode()).hexdigest()
