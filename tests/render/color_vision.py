"""Colour-vision deficiency simulation (Machado, Oliveira & Fernandes 2009, severity 1.0) and
CIE76 colour difference, to check that a palette's colours stay apart for every viewer."""

from __future__ import annotations

import itertools

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(rgb, deficiency: str | None) -> tuple[float, float, float]:
    """Linear RGB (0..1) of ``rgb`` as seen with ``deficiency`` (None: normal vision)."""
    linear = tuple(_linear(c) for c in rgb)
    if deficiency is None:
        return linear  # type: ignore[return-value]
    return tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, linear, strict=True))))
                 for row in MACHADO[deficiency])  # type: ignore[return-value]


def lab(linear) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def min_difference(colors, deficiency: str | None) -> float:
    """The smallest CIE76 difference between any two of ``colors`` for that viewer."""
    seen = [lab(simulate(c, deficiency)) for c in colors]
    return min(sum((p - q) ** 2 for p, q in zip(a, b, strict=True)) ** 0.5
               for a, b in itertools.combinations(seen, 2))
