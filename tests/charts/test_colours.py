"""Outcome colours stay apart for readers with red-green colour blindness.

The colours are passed through the Machado, Oliveira and Fernandes (2009) simulation of
deuteranopia and protanopia (`tests.charts.colours`), the model Chrome's vision-deficiency
emulation follows, and compared in CIELAB (CIE76): every two outcomes of one chart must stay at
least `MIN_DELTA` apart. (What Chrome itself draws under its emulation is checked in
`tests/browser/test_keyboard_and_vision.py`.) The former green / red casualty pair was 21 apart under deuteranopia.
"""

from __future__ import annotations

import itertools
import math

import pytest

from explorer.charts.arcadia_quest import OUTCOME_COLORS
from explorer.charts.assault_of_the_giants import STATUS_COLORS, STATUS_PATTERNS
from tests.charts.colours import SIMULATIONS, seen

MIN_DELTA = 40.0
"""Smallest CIE76 difference two outcomes of one chart may have under either simulation."""


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
