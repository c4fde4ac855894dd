"""Colour maths for the colour-blindness checks: what a reader with red-green colour blindness sees.

The simulation is Machado, Oliveira and Fernandes (2009), severity 1, applied in linear RGB: the
model Chrome's vision-deficiency emulation follows. Colours are compared in CIELAB (CIE76).
`tests/charts/test_colours.py` checks the palettes' colours with it; `tests/browser/test_keyboard_and_vision.py`
checks what Chrome draws under its emulation.
"""

from __future__ import annotations

import math

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
RGB = tuple[int, int, int]

SIMULATIONS: dict[str, Matrix] = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}
"""Machado 2009's matrices at severity 1, on linear RGB."""


def rgb(colour: str) -> RGB:
    """The 0-255 channels of ``#rrggbb``.

    >>> rgb("#ff8000")
    (255, 128, 0)
    """
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def lab(channels: RGB, simulation: str | None = None) -> tuple[float, float, float]:
    """The CIELAB colour of 0-255 `channels`, as a reader with `simulation` sees it (None: as drawn).

    >>> [round(v) for v in lab((255, 255, 255))]
    [100, 0, 0]
    """
    linear = tuple(_linear(c / 255) for c in channels)
    if simulation is not None:
        matrix = SIMULATIONS[simulation]
        linear = tuple(sum(row[j] * linear[j] for j in range(3)) for row in matrix)
    return _lab(linear)  # type: ignore[arg-type]


def seen(colour: str, simulation: str) -> tuple[float, float, float]:
    """The CIELAB colour a reader with `simulation` sees for ``#rrggbb``."""
    return lab(rgb(colour), simulation)


def delta(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The CIE76 difference of two CIELAB colours."""
    return math.dist(a, b)
