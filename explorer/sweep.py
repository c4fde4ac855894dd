"""One sweep for every game: a scenario resolved over a grid of two inputs, the whole grid weighed first.

A game says what can be swept in its `explorer.games.GameDef.sweep` (a
`explorer.scenario.sweep.SweepSpec`): the inputs
(a label and a dotted path into the scenario, such as ``attacker.pool.basic``; ``[0]`` indexes a list), the numbers a cell
can be read as (a label and a function of the game's report), how a scenario is written out in
full before any cell is set (Arcadia Quest makes every preset value explicit), what setting an
input also changes (an Arcadia Quest Overkill raised to a higher Life), and how a grid's work is
weighed (Assault of the Giants counts a roll shared by several cells once). `sweep` does the rest
the same way for every game and for `explorer.lessons.grid`:

1. every cell is written out (`with_value`) and read by the game's reader, a refusal naming the cell;
2. the whole grid is weighed before its first cell (the game's `SweepSpec.weigh`, else the sum of
   each cell's `explorer.resolver.estimate`) and refused past about 2 s
   (`explorer.core.backstop.check_grid`, field ``sweep``);
3. the cells are resolved by the one resolver (`explorer.resolver.resolve`), as one request
   under the backstop (`explorer.core.backstop`).

>>> s = {"game": "assault-of-the-giants", "attacker": {"pool": {"basic": 1}, "units": []},
...      "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}}
>>> sweep(s, "attacker basic dice", range(0, 2), "attacker rerolls (cards right of Leader)", range(0, 1),
...       "chance the defender is wiped out")
[[Fraction(0, 1), Fraction(1, 2)]]
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from explorer.core import backstop
from explorer.core.errors import ScenarioError
from explorer.games import find_game
from explorer.resolver import estimate, resolve
from explorer.scenario.fields import Fields
from explorer.scenario.report import Report
from explorer.scenario.sweep import SweepInput, SweepSpec, with_value

__all__ = ["SweepInput", "SweepSpec", "sweep", "with_value"]


@contextmanager
def _cell(x: str, x_value: Any, y: str, y_value: Any, word: str) -> Iterator[None]:
    """A refusal inside names the cell it comes from: after the problem in a sweep (the panels'
    form), before it in a grid (the lessons' form, values as Python writes them)."""
    try:
        yield
    except ScenarioError as error:
        if word == "grid":
            raise ScenarioError(error.field, f"grid cell {x} = {x_value!r}, {y} = {y_value!r}: {error.problem}") from None
        raise ScenarioError(error.field, f"{error.problem} ({word} cell {x} = {x_value}, {y} = {y_value})") from None


def sweep(scenario: Mapping[str, Any], x: str, xs: Sequence[Any], y: str, ys: Sequence[Any],
          outcome: str | Callable[[Report], Any], *, by_path: bool = False, word: str = "sweep") -> list[list[Any]]:
    """Resolve `scenario` for every (x, y) pair of two inputs; rows follow `ys` (see the module).

    Args:
        scenario: a scenario of any game, with its ``game`` key.
        x, y: input labels of the game's `SweepSpec`, or dotted paths into the scenario (`by_path`).
        xs, ys: the values each takes.
        outcome: an outcome label of the game's `SweepSpec`, or a function of a cell's report.
        by_path: `x` and `y` are dotted paths, not labels (`explorer.lessons.grid`): any question
            of the game, the scenario copied as it is and each cell weighed by `explorer.resolver.estimate`.
        word: what a refusal calls a cell ("sweep cell ...", "grid cell ...").

    Raises:
        ScenarioError: an unknown input or outcome (``sweep x``, ``sweep y``, ``sweep outcome``), a
            cell that does not read or resolve (naming the cell), or a grid too big (``sweep``).
    """
    game = find_game(Fields(scenario, "").raw("game"))
    spec = SweepSpec({}, {}) if by_path else game.sweep_spec()  # paths: any question, weighed cell by cell
    paths = {}
    for name, where in ((x, "sweep x"), (y, "sweep y")):
        if by_path:
            paths[name] = SweepInput(name)
        elif name in spec.inputs:
            paths[name] = spec.inputs[name]
        else:
            raise ScenarioError(where, f"must be one of {', '.join(spec.inputs)}, got {name!r}")
    if callable(outcome):
        read = outcome
    elif outcome in spec.outcomes:
        read = spec.outcomes[outcome]
    else:
        raise ScenarioError("sweep outcome", f"must be one of {', '.join(spec.outcomes)}, got {outcome!r}")
    full = spec.prepare(scenario) if spec.prepare is not None else copy.deepcopy(dict(scenario))
    cells = []
    for y_value in ys:
        for x_value in xs:
            with _cell(x, x_value, y, y_value, word):
                cell = full
                for name, value in ((x, x_value), (y, y_value)):
                    cell = with_value(cell, paths[name].path, value, missing=paths[name].missing)
                    if spec.adjust is not None:
                        spec.adjust(cell, paths[name].path, value)
                cells.append(cell)
    read_cells = []
    for i, cell in enumerate(cells):
        with _cell(x, xs[i % len(xs)], y, ys[i // len(xs)], word):
            read_cells.append(cell if spec.read is None else spec.read(cell))
    if spec.weigh is not None:
        spec.weigh(read_cells, x, y)
    else:  # each cell's `explorer.resolver.estimate`, the costliest (usually the last) first
        seconds = 0.0
        for i in reversed(range(len(cells))):
            with _cell(x, xs[i % len(xs)], y, ys[i // len(xs)], word):
                seconds += estimate(cells[i])
            backstop.check_grid(len(cells), seconds, "make the scenario smaller", x, y)
    values = []
    with backstop.request():
        for i, cell in enumerate(cells):
            backstop.check("sweep", f"the {word}")
            with _cell(x, xs[i % len(xs)], y, ys[i // len(xs)], word):
                values.append(read(resolve(cell)))
    return [values[i:i + len(xs)] for i in range(0, len(values), len(xs))]
