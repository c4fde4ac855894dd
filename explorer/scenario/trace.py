"""One step of a sampled roll, battle or encounter, as every game's trace tells it (a teaching aid).

Each game's trace (`explorer.games.assault_of_the_giants.battle.trace`,
`explorer.games.arcadia_quest.encounter.trace`) walks one seeded roll in the rulebook's order
and returns these steps; the panels' trace view and the reports show them the same way.

>>> print(trace_text([TraceStep("attacker", "1. Roll", "rolls no dice", "rulebook p.16")]))
1. Roll (attacker): rolls no dice  [rulebook p.16]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TraceStep", "trace_text"]


@dataclass(frozen=True, slots=True)
class TraceStep:
    """One step, as a teacher would read it out."""

    side: str
    """Who acts (``"attacker"``, ``"hero"``, a Monster's name), or ``""`` for a step about both sides."""
    step: str
    """Short title, numbered as the rulebook's steps: "1. Roll", "2. CRITs", "4. Damage", ..."""
    text: str
    """Plain English, with the actual dice."""
    page: str
    """Where the rule is, such as "rulebook p.17"."""
    data: dict[str, Any] = field(default_factory=dict)
    """The same step, machine-readable (faces, totals, damage, statuses...)."""


def trace_text(steps: Iterable[TraceStep]) -> str:
    """A readable rendering, one step per line."""
    return "\n".join(f"{s.step}{f' ({s.side})' if s.side else ''}: {s.text}  [{s.page}]" for s in steps)
