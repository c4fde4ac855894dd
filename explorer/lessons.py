"""What the lesson notebooks call: examples, small changes, and tables that read well.

The notebooks under ``notebooks/`` stay thin (prose and a few calls); the little logic they need
lives here, tested like the rest. Every number comes from the one resolver (`explorer.resolve`);
a *path* names a value in a scenario or in a report's JSON (``report.to_dict()``) with dots and
list indices: ``attacker.pool.basic``, ``defender.means.damage_taken``, ``challenges[0].attackers``.

A lesson starts where the app does: `start` gives the scenario a game's app panel opens with, so
the numbers in a lesson are the numbers a teacher sees in the app.

Tables are built for people: outcomes in numeric order, only the rows that carry some chance,
chances as percentages with their % sign (`percent`), what a report leaves out said in words. They
are pandas DataFrames where pandas is installed (the
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
from explorer.lesson_table import Table, percent, short_percent
from explorer.panels.common.field_names import numbered
from explorer.panels.common.table import MISSING, left_out_text
from explorer.resolver import load_scenario, resolve
from explorer.scenario.report import Report
from explorer.scenario.sweep import path_steps, with_value
from explorer.sweep import sweep

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "ROOT", "start", "example", "changed", "value", "values", "answer", "compare", "vary", "grid", "distributions",
    "fates", "chances", "percent", "records", "at_least", "output_file", "Table",
]

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the package runs from (holding ``examples/`` and ``pyproject.toml``)."""


def _shown(table: Table) -> pd.DataFrame | Table:
    """`table` as a pandas DataFrame where pandas is installed, else as it is."""
    try:
        return table.to_frame()
    except ModuleNotFoundError:
        return table


def _by_label(rows: Mapping[Any, Mapping[str, Any]], index_name: str | None) -> pd.DataFrame | Table:
    """One row per label (label -> column -> value), the columns in the first row's order."""
    columns = tuple(dict.fromkeys(k for row in rows.values() for k in row))
    cells = tuple(tuple(row.get(c) for c in columns) for row in rows.values())
    return _shown(Table(cells, columns, tuple(rows), index_name=index_name))


def start(game: str) -> dict[str, Any]:
    """The scenario `game`'s app panel opens with: where a lesson starts, so its numbers are the app's.

    The panel builds it (`explorer.app.build_panel`, then its ``scenario()``), so the lesson and the
    app cannot start from two different battles. Each call gives a new copy.

    Raises:
        ScenarioError: ``game``: no such game, or one without a panel.

    >>> battle = start("assault-of-the-giants")
    >>> battle["attacker"]["race"], battle["attacker"]["pool"], battle["defender"]["pool"]
    ('fire', {'basic': 4, 'fire': 1}, {'basic': 3, 'hill': 1})
    """
    from explorer.app import build_panel

    scenario: dict[str, Any] = build_panel(game).scenario()
    return scenario


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
    """An exact fraction as a float; anything else (a whole number, a winner's name, None) as it is.

    A float too close to 0 to be anything but rounding noise is 0, never -0.0 (shown as "-0.000").

    >>> _cell(Fraction(1, 4)), _cell(-1e-17), _cell(-0.0), _cell("attacker")
    (0.25, 0.0, 0.0, 'attacker')
    """
    found = float(found) if isinstance(found, Fraction) else found
    if isinstance(found, float) and abs(found) < 1e-12:
        return 0.0
    return found


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
         outcome: str, *, as_percent: bool = False) -> pd.DataFrame | Table:
    """The report value at `outcome` for every pair of two inputs: rows follow `ys`, columns `xs`.

    The one sweep (`explorer.sweep`) with the inputs as dotted paths: the whole grid is weighed
    before its first cell (`explorer.resolver.estimate`) and refused past about 2 s
    (`explorer.core.backstop.check_grid`, field ``sweep``). With `as_percent` (an outcome that is
    a chance) every cell is shown as a percentage (`percent`), for reading rather than computing.

    >>> table = grid(example("arcadia-troll.json"), "attack.dice", [2, 3], "attack.rerolls", [0, 1], "kill")
    >>> print(table.round(2).to_csv(), end="")
    attack.rerolls,2,3
    0,0.12,0.28
    1,0.2,0.41
    >>> list(table.columns), list(table.index)
    ([2, 3], [0, 1])
    >>> grid(example("arcadia-troll.json"), "attack.dice", [3], "attack.rerolls", [1], "kill", as_percent=True).to_dict()
    {3: {1: '41.26%'}}
    """
    xs, ys = list(xs), list(ys)
    cells = sweep(scenario, x, xs, y, ys, lambda report: _cell(value(report, outcome)), by_path=True, word="grid")
    shown = tuple(tuple(percent(c) if as_percent else c for c in row) for row in cells)
    return _shown(Table(shown, tuple(xs), tuple(ys), index_name=y, columns_name=x))


def _outcome_key(text: str) -> tuple[int, float, str]:
    """Sort key: numbers in numeric order first, then anything else by its text."""
    try:
        return (0, float(text), "")
    except ValueError:
        return (1, 0.0, text)


def _left_out(data: Report | Mapping[str, Any], path: str) -> float:
    """The chance a report left out of the distribution at `path` (0 if it says none).

    Reports that cut a chain of rolls (Arcadia Quest's CRITs) give ``cuts`` per distribution, or
    one ``cut`` for all of them.
    """
    report: Any = data.to_dict() if hasattr(data, "to_dict") else data
    cuts = report.get("cuts")
    if isinstance(cuts, Mapping) and path in cuts:
        return float(cuts[path])
    return float(report.get("cut", 0.0)) if isinstance(report.get("cut"), int | float) else 0.0


def distributions(data: Report | Mapping[str, Any], columns: Mapping[str, str], *,
                  cut: float = 0.001, rows: str = "outcome") -> pd.DataFrame | Table:
    """Distributions side by side, as percentages: one row per outcome, in numeric order.

    Rows where every column is below `cut` (a chance) are gathered in one row, "rarer outcomes",
    so a table shows what can happen, not a long tail of zeros, and each column still adds up.
    What the report itself left out (the end of a chain of rolls too unlikely to follow) is a
    last row, "left out", in words (`explorer.panels.common.table.left_out_text`).

    Args:
        data: a report (or its JSON).
        columns: column label -> path of a distribution (outcome -> chance) in the report.
        cut: the smallest chance worth a row of its own.
        rows: what the row labels are (``"outcome"``; ``"round"`` for chances by round).

    >>> r = resolve(example("fire-vs-hill.json"))
    >>> print(distributions(r, {"Ordning Points": "attacker.ordning_points"}).to_csv(), end="")
    outcome,Ordning Points
    0,2.98%
    1,22.77%
    3,15.21%
    5,59.04%
    >>> table = distributions(resolve(example("arcadia-troll.json")), {"hits": "hits"}, cut=0.005)
    >>> list(table.index[-2:]), table.loc["left out"].to_dict()
    (['rarer outcomes (each under 0.5%)', 'left out'], {'hits': 'under one in a trillion'})
    """
    found = {name: {str(k): float(p) for k, p in value(data, path).items()} for name, path in columns.items()}
    outcomes = sorted({k for dist in found.values() for k in dist}, key=_outcome_key)
    kept = [k for k in outcomes if any(dist.get(k, 0.0) >= cut for dist in found.values())]
    cells = [tuple(percent(found[name].get(k, 0.0)) for name in columns) for k in kept]
    index: list[Any] = [int(k) if _outcome_key(k)[0] == 0 and float(k).is_integer() else k for k in kept]
    if len(kept) < len(outcomes):
        cells.append(tuple(percent(sum(p for k, p in found[name].items() if k not in kept)) for name in columns))
        index.append(f"rarer outcomes (each under {short_percent(cut)})")
    left_out = [_left_out(data, path) for path in columns.values()]
    if any(left_out):
        cells.append(tuple(left_out_text(c) if c else "none" for c in left_out))
        index.append("left out")
    return _shown(Table(tuple(cells), tuple(columns), tuple(index), index_name=rows))


def fates(data: Report | Mapping[str, Any], side: str) -> pd.DataFrame | Table:
    """Assault of the Giants: what becomes of each unit of `side`, as percentages.

    >>> fates(resolve(example("fire-vs-hill.json")), "defender").loc["Hill giant 1"].to_dict()
    {'healthy': '1.07%', 'wounded': '1.91%', 'defeated': '97.02%'}
    """
    units, names = value(data, f"{side}.units"), value(data, f"{side}.unit_names")
    rows = {name: {state: percent(p) for state, p in unit.items()} for name, unit in zip(numbered(names), units)}
    return _by_label(rows, f"{side} unit")


def chances(data: Report | Mapping[str, Any], rows: Mapping[str, str]) -> pd.DataFrame | Table:
    """Chances read from a report, one row each (label -> path), as percentages.

    >>> print(chances(resolve(example("arcadia-troll.json")), {"the troll dies": "kill"}).to_csv(), end="")
    ,chance
    the troll dies,41.26%
    """
    return _by_label({label: {"chance": percent(value(data, path))} for label, path in rows.items()}, None)


def at_least(data: Report | Mapping[str, Any], path: str, k: float) -> float:
    """The chance that the distribution at `path` (outcome -> probability) is `k` or more.

    >>> round(at_least(resolve(example("fire-vs-hill.json")), "attacker.ordning_points", 3), 4)
    0.7425
    """
    return float(sum(float(p) for outcome, p in value(data, path).items() if float(outcome) >= k))


def records(data: Report | Mapping[str, Any], path: str,
            columns: Iterable[str] | Mapping[str, str] | None = None) -> pd.DataFrame | Table:
    """A list of objects in a report (steps, challenges) as a table, one row each.

    Rows are numbered from 0; an object without one of the columns shows a dash there
    (`explorer.panels.common.table.MISSING`), and a list of names is one text ("none" if empty). `columns` names the keys to show, or maps the
    headers people read to the keys (``{"winner": "winner_player"}``).

    Raises:
        KeyError: a column none of the objects has.

    >>> steps = records({"steps": [{"step": "4.2.2", "event": "attacker wins", "rule": "p.23"}, {"step": "4.2.3"}]},
    ...                 "steps", {"step": "step", "what happens": "event"})
    >>> print(steps.to_csv(), end="")
    ,step,what happens
    0,4.2.2,attacker wins
    1,4.2.3,—
    """
    found = list(value(data, path))
    every = tuple(dict.fromkeys(k for item in found for k in item))
    chosen = dict(zip(every, every)) if columns is None else \
        dict(columns) if isinstance(columns, Mapping) else {c: c for c in columns}
    missing = [key for key in chosen.values() if key not in every]
    if missing:
        raise KeyError(f"{path}: no {missing[0]!r} in any of its {len(found)} objects")
    rows = tuple(tuple(_record_cell(item.get(key)) for key in chosen.values()) for item in found)
    return _shown(Table(rows, tuple(chosen), tuple(range(len(found)))))


def _record_cell(found: Any) -> Any:
    """One cell of `records`: a list of names as one text ("none" if empty), nothing as a dash.

    >>> _record_cell(["Reaver", "Knight of the Vale"]), _record_cell([]), _record_cell(None), _record_cell(3)
    ('Reaver, Knight of the Vale', 'none', '—', 3)
    """
    if found is None:
        return MISSING
    if isinstance(found, list | tuple) and all(isinstance(item, str | int | float) for item in found):
        return ", ".join(map(str, found)) or "none"
    return found


def output_file(name: str) -> Path:
    """Where a lesson writes a file it exports: ``build/exports/<name>`` in the checkout.

    Outside a checkout (no ``pyproject.toml`` beside the package) it is ``exports/<name>`` in
    the current folder. The folder is created.
    """
    folder = ROOT / "build" / "exports" if (ROOT / "pyproject.toml").is_file() else Path.cwd() / "exports"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / Path(name).name
