"""The AI seats' randomness: seeded from the game's seed and version, only when drawn from."""

from __future__ import annotations

import random

import pytest

from bot.coordinator.scheduler import _SeededOnUse


@pytest.mark.parametrize("seed", ["7:12", "sealed:00ff:3", None])
def test_the_numbers_are_those_of_random_seeded_alike(seed) -> None:
    lazy, plain = _SeededOnUse(seed), random.Random(seed)
    if seed is None:  # from the system: both are random, so only the kinds of draw are checked
        assert 0 <= lazy.random() < 1 and lazy.random() != lazy.random()
        return
    draws = [lambda r: r.random(), lambda r: r.choice(range(100)), lambda r: r.randrange(7),
             lambda r: r.sample(range(50), 3), lambda r: r.getrandbits(40), lambda r: r.uniform(1, 2),
             lambda r: r.shuffle(items := list(range(20))) or items]
    assert [draw(lazy) for draw in draws] == [draw(plain) for draw in draws]
    assert _SeededOnUse(seed).getstate() == random.Random(seed).getstate()
