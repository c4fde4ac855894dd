"""Outcome colours stay apart for readers with red-green colour blindness.

The colours are passed through the Machado, Oliveira and Fernandes (2009) simulation of
deuteranopia and protanopia (severity 1, in linear RGB), the model Chrome's vision-deficiency
emulation follows, and compared in CIELAB (CIE76): every two outcomes of one chart must stay at
least `MIN_DELTA` apart. The former green / red casualty pair was 21 apart under deuteranopia.
"""

from __future__ import annotations

import itertools
import math

import pytest

from explorer.charts.arcadia_quest import OUTCOME_COLORS
from explorer.charts.assault_of_the_giants import STATUS_COLORS, STATUS_PATTERNS

MIN_DELTA = 40.0

SIMULATIONS = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
}


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


def seen(colour: str, simulation: str) -> tuple[float, float, float]:
    """The CIELAB colour a reader with `simulation` sees for ``#rrggbb``."""
    rgb = [_linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5)]
    matrix = SIMULATIONS[simulation]
    return _lab(tuple(sum(row[j] * rgb[j] for j in range(3)) for row in matrix))  # type: ignore[arg-type]


PALETTES = {
    "casualties": list(STATUS_COLORS.values()),
    "arcadia kill": [OUTCOME_COLORS[k] for k in ("survives", "killed", "overkilled")],
    "arcadia hero": [OUTCOME_COLORS[k] for k in ("hero safe", "hero killed")],
}


@pytest.mark.parametrize("simulation", sorted(SIMULATIONS))
@pytest.mark.parametrize("palette", sorted(PALETTES))
def test_outcomes_stay_apart(palette: str, simulation: str) -> None:
    for a, b in itertools.combinations(PALETTES[palette], 2):
        delta = math.dist(seen(a, simulation), seen(b, simulation))
        assert delta >= MIN_DELTA, f"{palette}: {a} and {b} are {delta:.0f} apart under {simulation}"


def test_the_old_green_and_red_fail_this_check() -> None:
    assert math.dist(seen("#2e8b57", "deuteranopia"), seen("#b03a2e", "deuteranopia")) < MIN_DELTA


def test_casualties_never_differ_by_colour_alone() -> None:
    assert len(set(STATUS_PATTERNS.values())) == len(STATUS_PATTERNS)
