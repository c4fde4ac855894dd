"""Sweeps: resolve a battle over a grid of two numeric inputs, for "what if?" questions."""

from __future__ import annotations

import copy
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from explorer.games.assault_of_the_giants.battle.battle import BattleResult, resolve_battle
from explorer.games.assault_of_the_giants.battle.scenario import parse_battle

__all__ = ["PARAMETERS", "OUTCOMES", "sweep"]

PARAMETERS: dict[str, tuple[str, ...]] = {
    "attacker basic dice": ("attacker", "pool", "basic"),
    "attacker rerolls (cards right of Leader)": ("attacker", "rerolls"),
    "attacker arcane → 2 hits (cards left of Attack)": ("attacker", "arcane_to_hits"),
    "attacker arcane → block (cards right of Magic)": ("attacker", "arcane_to_blocks"),
    "defender basic dice": ("defender", "pool", "basic"),
    "defender rerolls (cards right of Leader)": ("defender", "rerolls"),
    "defender arcane → block (cards right of Magic)": ("defender", "arcane_to_blocks"),
}
"""Numeric inputs a sweep can vary: a path into the scenario."""

OUTCOMES: dict[str, Callable[[BattleResult], Fraction]] = {
    "expected Ordning Points (attacker)": lambda r: r.attacker.ordning_points.mean(),
    "chance the defender is wiped out": lambda r: r.defender.wiped_out(),
    "expected damage to the defender": lambda r: r.defender.damage_taken.mean(),
    "chance the attacker loses a unit": lambda r: r.attacker.casualties.where(
        lambda c: any(s.value == "defeated" for s in c)),
    "expected Ordning Points (defender)": lambda r: r.defender.ordning_points.mean(),
}
"""Numbers a sweep can map."""


def _set(scenario: dict[str, Any], path: tuple[str, ...], value: int) -> None:
    target = scenario
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


def sweep(scenario: dict[str, Any], x: str, xs: range, y: str, ys: range, outcome: str) -> list[list[Fraction]]:
    """Resolve the scenario for every (x, y) pair of two inputs; rows follow `ys`.

    >>> s = {"game": "assault-of-the-giants", "attacker": {"pool": {"basic": 1}, "units": []},
    ...      "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}}
    >>> sweep(s, "attacker basic dice", range(0, 2), "attacker rerolls (cards right of Leader)", range(0, 1),
    ...       "chance the defender is wiped out")
    [[Fraction(0, 1), Fraction(1, 2)]]
    """
    rows = []
    for y_value in ys:
        row = []
        for x_value in xs:
            case = copy.deepcopy(scenario)
            _set(case, PARAMETERS[x], x_value)
            _set(case, PARAMETERS[y], y_value)
            row.append(OUTCOMES[outcome](resolve_battle(parse_battle(case))))
        rows.append(row)
    return rows
