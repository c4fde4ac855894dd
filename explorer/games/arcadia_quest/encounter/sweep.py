"""Sweeps of an encounter: two numeric inputs varied over a grid, one summary number per cell, exactly.

The scenario is read once and written out in full (`encounter_to_dict`, every preset value
explicit); each cell sets the two inputs and resolves that encounter. Where a cell's Life falls
below the Overkill rating's floor, the Overkill is raised to the Life (an Overkill below Life is
refused: an overkill is a kill); any other refused cell names itself in the message. The grid is weighed before its first cell
(`CELL_SECONDS` a cell) and refused past about 2 s (`explorer.core.backstop.check_grid`).

>>> z = sweep({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"}, "target": {"preset": "Orc Marauder"}},
...           "attack dice", range(1, 3), "monster Life", range(1, 4), "P(kill)")
>>> len(z), len(z[0]), z[0][1] >= z[2][1]
(3, 2, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from explorer.core import backstop
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.encounter.action import resolve_encounter
from explorer.games.arcadia_quest.encounter.scenario import encounter_to_dict, parse_encounter
from explorer.games.arcadia_quest.encounter.summary import OUTCOMES

__all__ = ["PARAMETERS", "CELL_SECONDS", "sweep", "with_value"]

CELL_SECONDS = 0.01
"""Work of one cell, at most: an encounter within every limit of the scenario (30 dice, 20 rerolls,
9 monsters Close) takes about 35 ms cold, and 1 to 5 ms a cell in a sweep, where the cells share
their rolls; counted as 10 ms, so the panel's largest grid (13 x 12) fits the limit of about 2 s."""

PARAMETERS: dict[str, tuple[str, ...]] = {
    "attack dice": ("attack", "dice"),
    "monster Life": ("target", "life"),
    "monster Overkill": ("target", "overkill"),
    "monster Defense": ("target", "defence"),
    "monster reroll pool": ("target", "rerolls"),
    "monster attack dice": ("target", "attack", "dice"),
    "Wounds already on the monster": ("target", "wounds"),
    "hero Defense": ("hero", "defence"),
    "hero Life": ("hero", "life"),
    "hero reroll pool": ("hero", "rerolls"),
    "Wounds already on the hero": ("hero", "wounds"),
}
"""The inputs a sweep can vary, by label: the key path in the scenario."""


def with_value(scenario: Mapping[str, Any], name: str, value: int) -> dict[str, Any]:
    """A copy of a full scenario (`encounter_to_dict`) with input `name` set to `value`.

    Setting the monster's Life raises its Overkill to that Life when the Overkill is lower.

    >>> full = {"target": {"life": 2, "overkill": 3, "attack": {"dice": 3}}}
    >>> with_value(full, "monster Life", 5)["target"]["overkill"], full["target"]["overkill"]
    (5, 3)
    """
    out = {key: (dict(value) if isinstance(value, dict) else value) for key, value in scenario.items()}
    path = PARAMETERS[name]
    holder = out
    for key in path[:-1]:
        holder[key] = dict(holder.get(key) or {})
        holder = holder[key]
    holder[path[-1]] = value
    target = out.get("target") or {}
    if path == ("target", "life") and isinstance(target.get("overkill"), int) and target["overkill"] < value:
        target["overkill"] = value
    return out


def sweep(scenario: Mapping[str, Any], x: str, xs: range, y: str, ys: range, outcome: str) -> list[list[Fraction]]:
    """`outcome` (a name in `summary.OUTCOMES`) for every (x, y) pair of input values; rows follow `ys`.

    Raises:
        ScenarioError: the scenario is refused, an unknown input or outcome, or a cell is refused
            (the message names the cell).
    """
    for name, field in ((x, "sweep x"), (y, "sweep y")):
        if name not in PARAMETERS:
            raise ScenarioError(field, f"must be one of {', '.join(PARAMETERS)}, got {name!r}")
    if outcome not in OUTCOMES:
        raise ScenarioError("sweep outcome", f"must be one of {', '.join(OUTCOMES)}, got {outcome!r}")
    full = encounter_to_dict(parse_encounter(scenario))
    read = OUTCOMES[outcome]
    cells = len(xs) * len(ys)
    backstop.check_grid(cells, cells * CELL_SECONDS, "use a smaller encounter", x, y)
    rows = []
    with backstop.request():
        for y_value in ys:
            row = []
            for x_value in xs:
                cell = with_value(with_value(full, x, x_value), y, y_value)
                try:
                    backstop.check("sweep", "the sweep")
                    row.append(read(resolve_encounter(parse_encounter(cell))))
                except ScenarioError as error:
                    raise ScenarioError(error.field, f"{error.problem} (sweep cell {x} = {x_value}, "
                                                     f"{y} = {y_value})") from None
            rows.append(row)
    return rows
