"""What the one sweep (`explorer.sweep`) can do with a battle: its inputs, its outcomes, its grid's work.

The whole grid is weighed before its first cell is computed (`check_grid`: every cell's battle
and report by `costs.report_costs`, a roll or search shared by several cells counted once, plus
its casualties and reading, `cell_seconds`) and refused past about 2 s
(`explorer.core.backstop.check_grid`), naming the inputs to change.

>>> from explorer.sweep import sweep
>>> s = {"game": "assault-of-the-giants", "attacker": {"pool": {"basic": 1}, "units": []},
...      "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}}
>>> sweep(s, "attacker basic dice", range(0, 2), "attacker rerolls (cards right of Leader)", range(0, 1),
...       "chance the defender is wiped out")
[[Fraction(0, 1), Fraction(1, 2)]]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from explorer.core import backstop
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.battle import BattleResult
from explorer.games.assault_of_the_giants.battle.report import BattleReport
from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
from explorer.games.assault_of_the_giants.best.costs import Cost, final_bounds, report_costs, total
from explorer.games.assault_of_the_giants.rules.model import Battle
from explorer.scenario.sweep import SweepInput, SweepSpec, read_result

__all__ = ["PARAMETERS", "OUTCOMES", "CELL_SECONDS", "CASUALTY_SECONDS", "SWEEP", "cell_seconds", "check_grid"]

PARAMETERS: dict[str, SweepInput] = {
    "attacker basic dice": SweepInput("attacker.pool.basic"),
    "attacker rerolls (cards right of Leader)": SweepInput("attacker.rerolls"),
    "attacker arcane → 2 hits (cards left of Attack)": SweepInput("attacker.arcane_to_hits"),
    "attacker arcane → block (cards right of Magic)": SweepInput("attacker.arcane_to_blocks"),
    "defender basic dice": SweepInput("defender.pool.basic"),
    "defender rerolls (cards right of Leader)": SweepInput("defender.rerolls"),
    "defender arcane → block (cards right of Magic)": SweepInput("defender.arcane_to_blocks"),
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

CELL_SECONDS = 0.0005
"""Work of one cell beyond its rolls, searches and casualties (reading it, the damage, the number
mapped): measured at 0.3 ms."""

CASUALTY_SECONDS = {"listed": 1e-6, "fewest-op": 8e-6}
"""Work of the casualty table per unit and per damage, by casualty order: measured at 0.7 and 5.5
microseconds (100 listed units, or 12 by fewest Ordning Points, and damage up to 120)."""


def cell_seconds(battle: Battle) -> float:
    """Work of one battle beyond its rolls and searches: `CELL_SECONDS`, and each side's casualty table
    for every damage the other side can deal (`CASUALTY_SECONDS`).

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Side, Unit
    >>> side = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> cell_seconds(Battle(side, side)) < 0.001
    True
    """
    seconds = CELL_SECONDS
    for victim, victor in ((battle.attacker, battle.defender), (battle.defender, battle.attacker)):
        per = CASUALTY_SECONDS.get(victim.casualty_order, CASUALTY_SECONDS["fewest-op"])
        seconds += per * len(victim.units) * final_bounds(victor)[0]
    return seconds


def check_grid(battles: Sequence[Battle], x: str, y: str) -> float:
    """Refuse a grid of battles estimated above `explorer.core.backstop.GRID_SECONDS` in all; else its seconds.

    The costliest cells are weighed first, so a grid far too big is refused after a few of them; a
    cell too big on its own makes the grid too big, naming that cell's costly input.

    Raises:
        ScenarioError: ``sweep``, naming the two inputs and the battle's costliest input.
    """
    parts: list[Cost] = []
    seconds = 0.0
    for i, battle in enumerate(reversed(battles)):
        try:
            parts += report_costs(battle, many=True)
        except ScenarioError as error:  # one cell alone is over the limit: so is the grid
            backstop.check_grid(len(battles), max(seconds, backstop.GRID_SECONDS), f"lower {error.field}", x, y)
        parts.append(Cost(cell_seconds(battle), "sweep", "reading each cell", ("cell", i)))
        seconds, ordered = total(parts)
        backstop.check_grid(len(battles), seconds, f"lower {ordered[0].field}", x, y)
    return seconds


SWEEP = SweepSpec(
    inputs=PARAMETERS,
    outcomes={label: read_result(BattleReport, "a battle", outcome) for label, outcome in OUTCOMES.items()},
    read=parse_battle,
    weigh=check_grid,
)
"""The battle's sweep: its inputs and outcomes; every cell read as a battle and the grid weighed whole."""
