"""What the one sweep (`explorer.sweep`) can do with an encounter: its inputs, its outcomes, its grid's work.

The scenario is read once and written out in full (`encounter_to_dict`, every preset value
explicit); each cell sets the two inputs and resolves that encounter. Where a cell's Life falls
below the Overkill rating's floor, the Overkill is raised to the Life (an Overkill below Life is
refused: an overkill is a kill); any other refused cell names itself in the message. The grid is
weighed before its first cell (`CELL_SECONDS` a cell) and refused past about 2 s
(`explorer.core.backstop.check_grid`).

>>> from explorer.sweep import sweep
>>> z = sweep({"game": "aq", "hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
...            "target": {"preset": "Orc Marauder"}}, "attack dice", range(1, 3), "monster Life", range(1, 4), "P(kill)")
>>> len(z), len(z[0]), z[0][1] >= z[2][1]
(3, 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from explorer.core import backstop
from explorer.games.arcadia_quest.encounter.report import EncounterReport
from explorer.games.arcadia_quest.encounter.scenario import encounter_to_dict, parse_encounter
from explorer.games.arcadia_quest.encounter.summary import OUTCOMES
from explorer.scenario.sweep import SweepInput, SweepSpec, read_result

__all__ = ["PARAMETERS", "CELL_SECONDS", "SWEEP", "full_encounter", "raise_overkill"]

CELL_SECONDS = 0.01
"""Work of one cell, at most: an encounter within every limit of the scenario (30 dice, 20 rerolls,
9 monsters Close) takes about 35 ms cold, and 1 to 5 ms a cell in a sweep, where the cells share
their rolls; counted as 10 ms, so the panel's largest grid (13 x 12) fits the limit of about 2 s."""

PARAMETERS: dict[str, SweepInput] = {
    "attack dice": SweepInput("attack.dice"),
    "monster Life": SweepInput("target.life"),
    "monster Overkill": SweepInput("target.overkill"),
    "monster Defense": SweepInput("target.defence"),
    "monster reroll pool": SweepInput("target.rerolls"),
    "monster attack dice": SweepInput("target.attack.dice"),
    "Wounds already on the monster": SweepInput("target.wounds"),
    "hero Defense": SweepInput("hero.defence"),
    "hero Life": SweepInput("hero.life"),
    "hero reroll pool": SweepInput("hero.rerolls"),
    "Wounds already on the hero": SweepInput("hero.wounds"),
}
"""The inputs a sweep can vary, by label: the key path in the scenario."""


def full_encounter(scenario: Mapping[str, Any]) -> dict[str, Any]:
    """The encounter written out in full (`encounter_to_dict`): every cell starts from explicit values."""
    return encounter_to_dict(parse_encounter(scenario))


def raise_overkill(cell: dict[str, Any], path: str, value: Any) -> None:
    """Setting the monster's Life raises its Overkill to that Life when the Overkill is lower.

    >>> cell = {"target": {"life": 5, "overkill": 3}}
    >>> raise_overkill(cell, "target.life", 5); cell["target"]["overkill"]
    5
    """
    target = cell.get("target") or {}
    if path == "target.life" and isinstance(target.get("overkill"), int) and target["overkill"] < value:
        target["overkill"] = value


def _weigh(cells: Sequence[Any], x: str, y: str) -> float:
    seconds = len(cells) * CELL_SECONDS
    backstop.check_grid(len(cells), seconds, "use a smaller encounter", x, y)
    return seconds


SWEEP = SweepSpec(
    inputs=PARAMETERS,
    outcomes={label: read_result(EncounterReport, "an encounter", outcome) for label, outcome in OUTCOMES.items()},
    prepare=full_encounter,
    adjust=raise_overkill,
    weigh=_weigh,
)
"""The encounter's sweep: its inputs and outcomes, the scenario written out in full first."""
