"""What a game offers the one sweep (`explorer.sweep`): its inputs, its outcomes, and how a cell is made.

Each game builds a `SweepSpec` in its own package and names it in the registry
(`explorer.games.GameDef.sweep`); `explorer.sweep.sweep` runs every game's sweep the same way.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from explorer.core.errors import ScenarioError
from explorer.scenario.report import Report

__all__ = ["SweepInput", "SweepSpec", "path_steps", "read_result", "with_value"]


@dataclass(frozen=True, slots=True)
class SweepInput:
    """One input a sweep can vary: where it is in the scenario."""

    path: str
    """Dotted path into the scenario (`path_steps`; an item of a list: ``players.first.characters[0].str``)."""
    missing: str = ""
    """The refusal when the scenario has nothing at that path to set (field: the path's holder);
    empty: the missing keys are made."""


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """What a game offers the sweep (see the module)."""

    inputs: Mapping[str, SweepInput]
    """The inputs, by the label the panel shows."""
    outcomes: Mapping[str, Callable[[Report], Fraction]]
    """The numbers a cell can be read as, by label: a function of the cell's report."""
    prepare: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    """The scenario written out in full before any cell is set (None: a copy as it is)."""
    adjust: Callable[[dict[str, Any], str, Any], None] | None = None
    """What setting the input at a path to a value also changes in the cell (None: nothing)."""
    read: Callable[[Mapping[str, Any]], Any] | None = None
    """The game's reader of a cell (checks it, a refusal naming the cell), whose results `weigh`
    is given; None: the cells are given as they are."""
    weigh: Callable[[Sequence[Any], str, str], float] | None = None
    """The whole grid's work in seconds from the cells read, refusing a grid too big (the x and y
    labels given for the message); None: the sum of each cell's `explorer.resolver.estimate`."""


_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def path_steps(path: str) -> list[str | int]:
    """The keys and indices of a dotted path (``[n]`` is an index; a key of digits stays a key).

    >>> path_steps("players.first.characters[1].str"), path_steps("attacker.ordning_points.2")
    (['players', 'first', 'characters', 1, 'str'], ['attacker', 'ordning_points', '2'])

    Raises:
        ScenarioError: ``path``: the path names no value.
    """
    steps: list[str | int] = [int(index) if index else name for name, index in _STEP.findall(path)]
    if not steps:
        raise ScenarioError("path", f"{path!r} names no value")
    return steps


def with_value(scenario: Mapping[str, Any], path: str, value: Any, *, missing: str = "") -> dict[str, Any]:
    """A copy of `scenario` with the input at `path` set to `value` (the original is untouched).

    Raises:
        ScenarioError: `missing` is given and the scenario has nothing at `path` to set.

    >>> with_value({"attacker": {"pool": {"basic": 3}}}, "attacker.pool.basic", 5)
    {'attacker': {'pool': {'basic': 5}}}
    >>> with_value({"players": {"first": {"characters": []}}}, "players.first.characters[0].str", 2,
    ...            missing="has no character whose STR the sweep could set")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: players.first.characters: has no character whose STR the sweep could set
    """
    out = copy.deepcopy(dict(scenario))
    steps = path_steps(path)
    target: Any = out
    for i, step in enumerate(steps[:-1]):
        if isinstance(target, list):
            if not (isinstance(step, int) or step.isdigit()) or int(step) >= len(target):
                raise ScenarioError(".".join(str(s) for s in steps[:i]), missing or f"has no item {step} to set")
            target = target[int(step)]
        elif not isinstance(target, dict):
            raise ScenarioError(".".join(str(s) for s in steps[:i]), missing or "is not a table of keys to set")
        elif missing and not isinstance(target.get(step), (dict, list)):
            raise ScenarioError(".".join(str(s) for s in steps[:i + 1]), missing)
        else:
            target = target.setdefault(step, {})
    last = steps[-1]
    if isinstance(target, list):
        if not (isinstance(last, int) or last.isdigit()) or int(last) >= len(target):
            raise ScenarioError(".".join(str(s) for s in steps[:-1]), missing or f"has no item {last} to set")
        target[int(last)] = copy.deepcopy(value)
    else:
        target[last] = copy.deepcopy(value)
    return out


R = TypeVar("R")


def read_result(kind: type[Any], noun: str, outcome: Callable[[R], Fraction]) -> Callable[[Report], Fraction]:
    """An outcome of a sweep read from each cell's report of `kind` (from its ``result``).

    Raises (when read):
        ScenarioError: ``sweep``: a cell answered another question than the sweep reads.
    """
    def read(report: Report) -> Fraction:
        if not isinstance(report, kind):
            raise ScenarioError("sweep", f"each cell must be {noun}")
        result: R = getattr(report, "result")
        return outcome(result)
    return read
