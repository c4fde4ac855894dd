"""What the lesson notebooks call: examples, small changes, and tables that read well.

The notebooks under ``notebooks/`` stay thin (prose and a few calls); the little logic they need
lives here, tested like the rest. Every number comes from the one resolver (`explorer.resolve`);
a *path* names a value in a scenario or in a report's JSON (``report.to_dict()``) with dots and
list indices: ``attacker.pool.basic``, ``defender.means.damage_taken``, ``challenges[0].attackers``.

Tables are built for people: outcomes in numeric order, only the rows that carry some chance,
probabilities as percentages. They are pandas DataFrames where pandas is installed (the
``frames`` extra), and `explorer.lesson_table.Table` otherwise (JupyterLite's in-browser lab has
no pandas): a small table that shows itself in a notebook and offers what the lessons use
(``columns``, ``index``, ``values``, ``table[column]`` with ``idxmax``, ``table.loc[row]``,
``round``, ``to_dict``, ``to_csv``), so a lesson reads the same either way. (In the in-browser lab, `explorer.app` sees to it that figures are
shown: `explorer.panels.common.chart.show_figures_as_json`.)

>>> battle = example("fire-vs-hill.json")
>>> round(answer(battle, "defender.wiped_out"), 4)
0.5904
>>> value({"a": [{"b": 2}]}, "a[0].b")
2
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.core.errors import ScenarioError
from explorer.lesson_table import Table
from explorer.resolver import load_scenario, resolve
from explorer.scenario.report import Report
from explorer.scenario.sweep import path_steps, with_value
from explorer.sweep import sweep

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ROOT", "example", "changed", "value", "values", "answer", "compare", "vary", "grid", "distributions", "fates",
    "records", "at_least", "output_file", "Table",
]

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the package runs from (holding ``examples/`` and ``pyproject.toml``)."""


def _shown(table: Table) -> pd.DataFrame | Table:
    """`table` as a pandas DataFrame where pandas is installed, else as it is."""
    try:
        return table.to_frame()
    except ModuleNotFoundError:
        return table


def _by_label(rows: Mapping[Any, Mapping[str, Any]], index_name: str) -> pd.DataFrame | Table:
    """One row per label (label -> column -> value), the columns in the first row's order."""
    columns = tuple(dict.fromkeys(k for row in rows.values() for k in row))
    cells = tuple(tuple(row.get(c) for c in columns) for row in rows.values())
    return _shown(Table(cells, columns, tuple(rows), index_name=index_name))


def example(name: str) -> dict[str, Any]:
    """A scenario from the repository's ``examples/`` folder (JSON or TOML).

    Raises:
        ScenarioError: no such example, or a file the loader refuses.
    """
    for folder in (ROOT / "examples", Path.cwd() / "examples", Path.cwd().parent / "examples"):
        if (folder / name).is_file():
            return load_scenario(folder / name)
    raise ScenarioError("example", f"no example {name!r} in {ROOT / 'examples'}")


def changed(scenario: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of `scenario` with each path in `changes` set to its value (the original is untouched).

    >>> s = {"attacker": {"pool": {"basic": 3}}}
    >>> changed(s, {"attacker.pool.basic": 5, "attacker.rerolls": 1}), s
    ({'attacker': {'pool': {'basic': 5}, 'rerolls': 1}}, {'attacker': {'pool': {'basic': 3}}})
    """
    out = dict(scenario)
    for path, new in changes.items():
        out = with_value(out, path, new)
    return out


def value(data: Report | Mapping[str, Any], path: str) -> Any:
    """The value at `path` in a report's JSON (or in any mapping).

    Raises:
        ScenarioError: the path does not lead to a value (naming the first missing step).
    """
    current: Any = data.to_dict() if hasattr(data, "to_dict") else data
    for step in path_steps(path):
        try:
            current = current[step]
        except (KeyError, IndexError, TypeError):
            raise ScenarioError("path", f"{path!r}: no {step!r} here") from None
    return current


def values(data: Report | Mapping[str, Any], *paths: str, digits: int = 4) -> dict[str, Any]:
    """Several values of a report by path, numbers rounded to `digits`.

    >>> values(resolve(example("arcadia-troll.json")), "kill", "overkill")
    {'kill': 0.4126, 'overkill': 0.0018}
    """
    found = {}
    for path in paths:
        item = _cell(value(data, path))
        found[path] = round(item, digits) if isinstance(item, float) else item
    return found


def answer(scenario: Mapping[str, Any], path: str) -> Any:
    """Resolve `scenario` and read `path` in its report (a number, usually).

    >>> answer(example("agot-card-odds.json"), "intrigue.survives")
    0.96
    """
    return value(resolve(scenario), path)


def _labelled(values: Iterable[Any] | Mapping[str, Any]) -> list[tuple[Any, Any]]:
    if isinstance(values, Mapping):
        return list(values.items())
    pairs = []
    for item in values:
        label = ", ".join(map(str, item)) if isinstance(item, list | tuple) else item
        pairs.append((label, item))
    return pairs


def _cell(found: Any) -> Any:
    """An exact fraction as a float; anything else (a whole number, a winner's name, None) as it is."""
    return float(found) if isinstance(found, Fraction) else found


def compare(scenarios: Mapping[str, Mapping[str, Any]], outcomes: Mapping[str, str]) -> pd.DataFrame | Table:
    """One row per named scenario: the `outcomes` (label -> report path) each gives.

    >>> base = example("arcadia-troll.json")
    >>> table = compare({"as is": base, "one more die": changed(base, {"attack.dice": 4})}, {"P(kill)": "kill"})
    >>> print(table.round(3).to_csv(), end="")
    option,P(kill)
    as is,0.413
    one more die,0.594
    >>> table["P(kill)"].idxmax()
    'one more die'
    """
    rows = {label: {name: _cell(value(resolve(scenario), out)) for name, out in outcomes.items()}
            for label, scenario in scenarios.items()}
    return _by_label(rows, "option")


def vary(scenario: Mapping[str, Any], path: str, values: Iterable[Any] | Mapping[str, Any],
         outcomes: Mapping[str, str]) -> pd.DataFrame | Table:
    """One row per value of the input at `path`: the `outcomes` (label -> report path) it gives.

    Args:
        scenario: the starting scenario.
        path: the input to change, such as ``attacker.pool.basic``.
        values: its values, or label -> value (a list shown as its items joined).
        outcomes: column label -> path in the report.

    >>> print(vary(example("arcadia-troll.json"), "attack.dice", [2, 3], {"P(kill)": "kill"}).round(3).to_csv(),
    ...       end="")
    attack.dice,P(kill)
    2,0.201
    3,0.413
    """
    rows = {}
    for label, item in _labelled(values):
        report = resolve(changed(scenario, {path: item}))
        rows[label] = {name: _cell(value(report, out)) for name, out in outcomes.items()}
    return _by_label(rows, path)


def grid(scenario: Mapping[str, Any], x: str, xs: Iterable[Any], y: str, ys: Iterable[Any],
         outcome: str) -> pd.DataFrame | Table:
    """The report value at `outcome` for every pair of two inputs: rows follow `ys`, columns `xs`.

    The one sweep (`explorer.sweep`) with the inputs as dotted paths: the whole grid is weighed
    before its first cell (`explorer.resolver.estimate`) and refused past about 2 s
    (`explorer.core.backstop.check_grid`, field ``sweep``).

    >>> table = grid(example("arcadia-troll.json"), "attack.dice", [2, 3], "attack.rerolls", [0, 1], "kill")
    >>> print(table.round(2).to_csv(), end="")
    attack.rerolls,2,3
    0,0.12,0.28
    1,0.2,0.41
    >>> list(table.columns), list(table.index)
    ([2, 3], [0, 1])
    """
    xs, ys = list(xs), list(ys)
    cells = sweep(scenario, x, xs, y, ys, lambda report: _cell(value(report, outcome)), by_path=True, word="grid")
    return _shown(Table(tuple(tuple(row) for row in cells), tuple(xs), tuple(ys), index_name=y, columns_name=x))


def _outcome_key(text: str) -> tuple[int, float, str]:
    """Sort key: numbers in numeric order first, then anything else by its text."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def distributions(data: Report | Mapping[str, Any], columns: Mapping[str, str], *,
                  cut: float = 0.001) -> pd.DataFrame | Table:
    """Distributions side by side, as percentages: one row per outcome, in numeric order.

    Rows where every column is below `cut` (a probability) are left out, so a table shows
    what can happen, not a long tail of zeros.

    Args:
        data: a report (or its JSON).
        columns: column label -> path of a distribution (outcome -> probability) in the report.
        cut: the smallest probability worth a row.

    >>> r = resolve(example("fire-vs-hill.json"))
    >>> print(distributions(r, {"Ordning Points": "attacker.ordning_points"}).to_csv(), end="")
    outcome,Ordning Points
    0,2.98
    1,22.77
    3,15.21
    5,59.04
    """
    found = {name: {str(k): float(p) for k, p in value(data, path).items()} for name, path in columns.items()}
    outcomes = sorted({k for dist in found.values() for k in dist}, key=_outcome_key)
    kept = [k for k in outcomes if any(dist.get(k, 0.0) >= cut for dist in found.values())]
    rows = tuple(tuple(round(100 * found[name].get(k, 0.0), 2) for name in columns) for k in kept)
    index = tuple(int(k) if _outcome_key(k)[0] == 0 and float(k).is_integer() else k for k in kept)
    return _shown(Table(rows, tuple(columns), index, index_name="outcome"))


def fates(data: Report | Mapping[str, Any], side: str) -> pd.DataFrame | Table:
    """Assault of the Giants: what becomes of each unit of `side`, as percentages.

    >>> fates(resolve(example("fire-vs-hill.json")), "defender").loc["Hill giant 1"].to_dict()
    {'healthy': 1.07, 'wounded': 1.91, 'defeated': 97.02}
    """
    units, names = value(data, f"{side}.units"), value(data, f"{side}.unit_names")
    rows = {name: {state: round(100 * float(p), 2) for state, p in unit.items()} for name, unit in zip(names, units)}
    return _by_label(rows, f"{side} unit")


def at_least(data: Report | Mapping[str, Any], path: str, k: float) -> float:
    """The chance that the distribution at `path` (outcome -> probability) is `k` or more.

    >>> round(at_least(resolve(example("fire-vs-hill.json")), "attacker.ordning_points", 3), 4)
    0.7425
    """
    return float(sum(float(p) for outcome, p in value(data, path).items() if float(outcome) >= k))


def records(data: Report | Mapping[str, Any], path: str,
            columns: Iterable[str] | None = None) -> pd.DataFrame | Table:
    """A list of objects in a report (steps, challenges) as a table, one row each.

    Rows are numbered from 0; an object without one of the columns has None there.

    Raises:
        KeyError: a column none of the objects has.

    >>> steps = records({"steps": [{"step": "4.2.2", "event": "attacker wins", "rule": "p.23"}]}, "steps",
    ...                 ["step", "event"])
    >>> print(steps.to_csv(), end="")
    ,step,event
    0,4.2.2,attacker wins
    """
    found = list(value(data, path))
    every = tuple(dict.fromkeys(k for item in found for k in item))
    chosen = every if columns is None else tuple(columns)
    missing = [c for c in chosen if c not in every]
    if missing:
        raise KeyError(f"{path}: no {missing[0]!r} in any of its {len(found)} objects")
    rows = tuple(tuple(item.get(c) for c in chosen) for item in found)
    return _shown(Table(rows, chosen, tuple(range(len(found)))))


def output_file(name: str) -> Path:
    """Where a lesson writes a file it exports: ``build/exports/<name>`` in the checkout.

    Outside a checkout (no ``pyproject.toml`` beside the package) it is ``exports/<name>`` in
    the current folder. The folder is created.
    """
    folder = ROOT / "build" / "exports" if (ROOT / "pyproject.toml").is_file() else Path.cwd() / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / Path(name).name
