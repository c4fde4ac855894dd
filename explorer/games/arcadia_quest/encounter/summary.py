"""The numbers of one encounter that a table shows, a sweep maps and a comparison subtracts.

Each is an exact `Fraction` read from an `EncounterResult` (the endless CRIT chains' cut, below
1e-12, is left out of every chance, as in the report).

>>> from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
>>> result = resolve_encounter(parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
...                                             "target": {"preset": "Orc Marauder"}}))
>>> rows = summary_rows(result)
>>> rows["P(kill)"] >= rows["P(overkill)"], list(rows)[:2]
(True, ['P(kill)', 'P(overkill)'])
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from explorer.games.arcadia_quest.encounter.action import EncounterResult

__all__ = ["CHANCES", "OUTCOMES", "compare_rows", "is_chance", "summary_rows"]

OUTCOMES: dict[str, Callable[[EncounterResult], Fraction]] = {
    "P(kill)": lambda r: r.kill,
    "P(overkill)": lambda r: r.overkill,
    "P(Payback made)": lambda r: r.payback,
    "P(hero killed)": lambda r: r.hero_killed,
    "P(hero killed and monster survives)": lambda r: r.hero_killed_and_monster_survives,
    "P(kill without dying)": lambda r: r.kill_and_survive,
    "expected wounds dealt": lambda r: r.monster_wounds.mean(),
    "expected wounds taken": lambda r: r.hero_wounds.mean(),
    "expected coins (active Guild)": lambda r: r.coins_active.mean(),
    "expected coins (other Guilds together)": lambda r: r.coins_others.mean(),
}
"""Every summary number, by its label, in table order."""

CHANCES = tuple(name for name in OUTCOMES if name.startswith("P("))
"""The labels of the chances (shown as percentages)."""


def is_chance(name: str) -> bool:
    """True for a chance (``P(...)``), False for an expectation.

    >>> is_chance("P(kill)"), is_chance("expected wounds dealt")
    (True, False)
    """
    return name.startswith("P(")


def summary_rows(result: EncounterResult) -> dict[str, Fraction]:
    """Every number of `OUTCOMES` for one encounter, in table order."""
    return {name: read(result) for name, read in OUTCOMES.items()}


def compare_rows(pinned: EncounterResult, current: EncounterResult) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """(A, B, B - A) for every number of `OUTCOMES`, A pinned and B current."""
    a, b = summary_rows(pinned), summary_rows(current)
    return {name: (a[name], b[name], b[name] - a[name]) for name in OUTCOMES}
