"""What every game's report offers, and helpers to write distributions and long tables.

A report's long table is `Rows`: its columns in order and one mapping per row, plain Python
values only, so it needs no pandas (the in-browser build has none). `Rows.to_csv` writes it with
the `csv` module exactly as pandas' ``to_frame().to_csv(index=False)`` would, and
`Rows.to_frame` makes the pandas table from the same rows where pandas is installed (the
``frames`` extra).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Protocol

from explorer.core.dist import Dist

if TYPE_CHECKING:  # pandas is imported lazily, and only by `Rows.to_frame`: nothing else needs it
    import pandas as pd

__all__ = ["Report", "Rows", "Cell", "PANDAS_EXTRA", "csv_text", "missing_pandas", "dist_json", "dist_exact",
           "dist_weights", "read_weights", "fmt_percent"]

Cell = str | int | float | bool | None
"""One value of a long table (None, or a missing key, is an empty cell)."""

PANDAS_EXTRA = "frames"
"""The optional extra that installs pandas (``pip install 'explorer[frames]'``)."""

_Kind = Literal["bool", "int", "float", "object"]


class Report(Protocol):
    """The result of `explorer.resolve`: one per scenario, whatever the game."""

    def to_dict(self) -> dict[str, Any]:
        """The spec's JSON report (floats correct to 1e-9)."""

    def to_rows(self) -> Rows:
        """The long table as plain rows (no pandas needed)."""

    def to_frame(self) -> pd.DataFrame:
        """The same long table as a pandas table (``to_rows().to_frame()``; needs pandas, the ``frames`` extra)."""

    def to_text(self) -> str:
        """A readable table for the command line."""


def missing_pandas(needed_for: str) -> ModuleNotFoundError:
    """The error for a call that needs pandas where it is not installed (one line, naming the extra).

    >>> print(missing_pandas("Report.to_frame"))
    Report.to_frame needs pandas, which is not installed here: pip install 'explorer[frames]'
    """
    return ModuleNotFoundError(f"{needed_for} needs pandas, which is not installed here: "
                               f"pip install 'explorer[{PANDAS_EXTRA}]'", name="pandas")


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _kind(values: Sequence[Any]) -> _Kind:
    """The dtype pandas infers for a column of these values (a missing cell passed as None).

    >>> _kind([1, 2]), _kind([1, None]), _kind([1, 0.5]), _kind([True, False]), _kind([True, None]), _kind(["a", 1])
    ('int', 'float', 'float', 'bool', 'object', 'object')
    """
    present = [v for v in values if not _missing(v)]
    complete = len(present) == len(values)
    if present and complete and all(isinstance(v, bool) for v in present):
        return "bool"
    if present and all(isinstance(v, int | float) and not isinstance(v, bool) for v in present):
        return "int" if complete and all(isinstance(v, int) for v in present) else "float"
    return "object"


def _csv_cell(value: Any, kind: _Kind) -> str:
    """How pandas writes one cell: empty when missing, floats as their repr (ints too, in a float column)."""
    if _missing(value):
        return ""
    return repr(float(value)) if kind == "float" else str(value)


def csv_text(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """A table as CSV, column by column as pandas' ``to_csv`` writes it (None: an empty cell).

    pandas' rules, kept here: a column of whole numbers with an empty cell becomes a float column
    (``3`` is written ``3.0``), floats are written as their ``repr``, booleans as ``True`` and
    ``False``, empty cells as nothing; fields are quoted only where they must be.

    >>> print(csv_text(["n", "ok"], [[3, True], [None, False]]), end="")
    n,ok
    3.0,True
    ,False
    """
    kinds = [_kind([row[i] for row in rows]) for i in range(len(header))]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([str(name) for name in header])
    for row in rows:
        writer.writerow([_csv_cell(value, kind) for value, kind in zip(row, kinds)])
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class Rows:
    """A long table without pandas: column names in order, and one mapping per row.

    A key missing from a row is an empty cell (as a missing key is for ``pandas.DataFrame``).

    >>> rows = Rows(("side", "probability"), ({"side": "attacker", "probability": 0.25}, {"side": "rulings"}))
    >>> rows.column("side"), len(rows)
    (['attacker', 'rulings'], 2)
    >>> print(rows.to_csv(), end="")
    side,probability
    attacker,0.25
    rulings,
    """

    columns: tuple[str, ...]
    records: tuple[Mapping[str, Cell], ...]

    def __len__(self) -> int:
        return len(self.records)

    def column(self, name: str) -> list[Cell]:
        """The values of one column, top to bottom (None where a row has none).

        Raises:
            KeyError: no such column.
        """
        if name not in self.columns:
            raise KeyError(name)
        return [record.get(name) for record in self.records]

    def where(self, **equal: Cell) -> list[Mapping[str, Cell]]:
        """The rows whose columns have the values given.

        >>> Rows(("q", "p"), ({"q": "a", "p": 1.0}, {"q": "b", "p": 0.0})).where(q="b")
        [{'q': 'b', 'p': 0.0}]
        """
        return [r for r in self.records if all(r.get(k) == v for k, v in equal.items())]

    def to_csv(self) -> str:
        """The table as CSV (`csv_text`), byte for byte what ``self.to_frame().to_csv(index=False)`` writes."""
        return csv_text(self.columns, [[record.get(name) for name in self.columns] for record in self.records])

    def to_frame(self) -> pd.DataFrame:
        """The same table as a pandas DataFrame (one row per record, these columns in this order).

        Raises:
            ModuleNotFoundError: pandas is not installed (`missing_pandas`).
        """
        try:
            import pandas as pd
        except ImportError:
            raise missing_pandas("to_frame") from None
        return pd.DataFrame([dict(record) for record in self.records], columns=list(self.columns))


def dist_json(dist: Dist[Any]) -> dict[str, float]:
    """Outcome (as a string) -> probability, zero outcomes left out.

    >>> dist_json(Dist({0: 1, 2: 3}))
    {'0': 0.25, '2': 0.75}
    """
    return {str(o): float(p) for o, p in dist.probabilities().items()}


def dist_exact(dist: Dist[Any]) -> dict[str, str]:
    """Outcome -> exact probability as a fraction string.

    >>> dist_exact(Dist({0: 1, 2: 3}))
    {'0': '1/4', '2': '3/4'}
    """
    return {str(o): str(p) for o, p in dist.probabilities().items()}


def dist_weights(dist: Dist[Any]) -> dict[str, Any]:
    """A distribution's exact values written compactly: its whole-number weights over one total.

    ``{"total": "T", "weights": {outcome: "w", ...}}``, each probability ``w / T`` (the total
    includes any cut weight, so the weights add up to less than T by the cut). A pair outcome
    ``(a, b)`` is nested, ``weights[a][b]``. Where every probability shares a long denominator
    (an encounter's endless CRIT chains give 100-digit ones), this writes it once instead of in
    every fraction; `read_weights` gives the fractions back.

    >>> dist_weights(Dist({0: 1, 2: 3}))
    {'total': '4', 'weights': {'0': '1', '2': '3'}}
    >>> dist_weights(Dist({(0, 1): 1, (0, 2): 1, (1, 1): 2}, cut=1))["weights"]
    {'0': {'1': '1', '2': '1'}, '1': {'1': '2'}}
    >>> read_weights(dist_weights(Dist({(0, 1): 1, (1, 1): 3})))["1"]["1"]
    Fraction(3, 4)
    """
    weights: dict[str, Any] = {}
    for outcome, weight in sorted(dist.items(), key=lambda item: item[0]):
        if isinstance(outcome, tuple) and len(outcome) == 2:
            weights.setdefault(str(outcome[0]), {})[str(outcome[1])] = str(weight)
        else:
            weights[str(outcome)] = str(weight)
    return {"total": str(dist.total), "weights": weights}


def read_weights(block: Mapping[str, Any]) -> dict[str, Any]:
    """The exact probabilities of a `dist_weights` block, outcome -> `Fraction` (nested for pairs)."""
    total = int(block["total"])

    def fractions(node: Any) -> Any:
        if isinstance(node, Mapping):
            return {key: fractions(child) for key, child in node.items()}
        return Fraction(int(node), total)

    result: dict[str, Any] = fractions(block["weights"])
    return result


def fmt_percent(p: Fraction | float) -> str:
    """A probability as a percentage for people.

    >>> fmt_percent(Fraction(1, 3))
    '33.33%'
    """
    return f"{float(p) * 100:.2f}%"
