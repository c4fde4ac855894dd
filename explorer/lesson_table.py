"""The lessons' tables where pandas is not installed (JupyterLite's in-browser lab has none).

`explorer.lessons` returns a pandas DataFrame where pandas is installed (the ``frames`` extra) and a
`Table` otherwise. A `Table` offers what the lesson notebooks do with theirs: it shows itself in a
notebook (``_repr_html_``, and as text), has ``columns``, ``index``, ``values`` and ``shape``,
gives a column with ``table["P(kill)"]`` (with ``idxmax``, ``idxmin``, ``to_dict``, ``tolist``)
and a row with ``table.loc[label]``, rounds with ``round(3)``, and saves with ``to_csv``,
writing what pandas would. A chance in a lesson table is written by `percent`, with its % sign.

>>> t = Table(((0.4126, 1), (0.5941, 2)), ("P(kill)", "n"), ("as is", "one more die"), index_name="option")
>>> t.round(2)
              P(kill)  n
option
as is            0.41  1
one more die     0.59  2
>>> t["P(kill)"].idxmax(), t.loc["as is"].to_dict(), t.shape
('one more die', {'P(kill)': 0.4126, 'n': 1}, (2, 2))
>>> print(t.to_csv(), end="")
option,P(kill),n
as is,0.4126,1
one more die,0.5941,2
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.panels.common.table import percent_text
from explorer.scenario.report import csv_text, missing_pandas

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Table", "Column", "percent", "short_percent"]


def percent(chance: float) -> str:
    """A chance (a fraction of 1) as a lesson table shows it: a percentage with its % sign.

    Never "-0.00%", and never a rounded 0% or 100% for what is possible but rare, or almost sure.

    >>> percent(0.2977), percent(0), percent(1), percent(3e-7), percent(0.9999996)
    ('29.77%', '0%', '100%', 'under 0.01%', 'over 99.99%')
    """
    chance = float(chance)
    if chance <= 0 or chance >= 1:
        return "0%" if chance <= 0 else "100%"
    if chance < 0.00005:
        return "under 0.01%"
    if chance >= 0.99995:
        return "over 99.99%"
    return percent_text(chance)


def short_percent(chance: float) -> str:
    """A share of 1 as a short percentage for a label: 0.001 is "0.1%".

    >>> short_percent(0.001), short_percent(0.005)
    ('0.1%', '0.5%')
    """
    return f"{100 * chance:g}%"


def _text(value: Any) -> str:
    """A cell for people: floats with up to six significant digits (as pandas shows them)."""
    if isinstance(value, float):
        return "NaN" if value != value else f"{value:.6g}"
    return str(value)


def _rounded(value: Any, digits: int) -> Any:
    return round(value, digits) if isinstance(value, float) else value


@dataclass(frozen=True, slots=True)
class Column:
    """One column (or one row, read across) of a `Table`: values by label."""

    name: Any
    index: tuple[Any, ...]
    values: tuple[Any, ...]

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.values)

    def __getitem__(self, label: Any) -> Any:
        return self.values[self.index.index(label)]

    def to_dict(self) -> dict[Any, Any]:
        """Label -> value."""
        return dict(zip(self.index, self.values))

    def tolist(self) -> list[Any]:
        """The values, in order."""
        return list(self.values)

    def idxmax(self) -> Any:
        """The label of the largest value (the first, if several)."""
        return self.index[max(range(len(self.values)), key=lambda i: (self.values[i], -i))]

    def idxmin(self) -> Any:
        """The label of the smallest value (the first, if several)."""
        return self.index[min(range(len(self.values)), key=lambda i: (self.values[i], i))]

    def __repr__(self) -> str:
        width = max((len(str(label)) for label in self.index), default=0)
        lines = [f"{str(label):<{width}}  {_text(v)}" for label, v in zip(self.index, self.values)]
        return "\n".join(lines + [f"Name: {self.name}"])


class _Rows:
    """``table.loc[label]``: one row, as a `Column` named by its label."""

    def __init__(self, table: Table) -> None:
        self._table = table

    def __getitem__(self, label: Any) -> Column:
        t = self._table
        return Column(label, t.columns, t.rows[t.index.index(label)])


@dataclass(frozen=True, slots=True)
class Table:
    """A small table: rows of cells, column labels, row labels (see the module).

    Attributes:
        rows: the cells, one tuple per row, in the order of `columns`.
        columns: the column labels.
        index: the row labels.
        index_name: what the row labels are (a path, ``"outcome"``...), or None.
        columns_name: what the column labels are (`explorer.lessons.grid`'s x input), or None.
    """

    rows: tuple[tuple[Any, ...], ...]
    columns: tuple[Any, ...]
    index: tuple[Any, ...]
    index_name: str | None = None
    columns_name: str | None = None

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return len(self.rows), len(self.columns)

    @property
    def values(self) -> list[list[Any]]:
        """The cells, one list per row."""
        return [list(row) for row in self.rows]

    @property
    def loc(self) -> _Rows:
        """Rows by label: ``table.loc["as is"]``."""
        return _Rows(self)

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, key: Any) -> Any:
        """A column by its label (a `Column`), or a table of the columns listed."""
        if isinstance(key, list):
            at = [self.columns.index(k) for k in key]
            return replace(self, rows=tuple(tuple(row[i] for i in at) for row in self.rows), columns=tuple(key))
        i = self.columns.index(key)
        return Column(key, self.index, tuple(row[i] for row in self.rows))

    def round(self, digits: int = 0) -> Table:
        """Every float rounded to `digits` decimals."""
        return replace(self, rows=tuple(tuple(_rounded(v, digits) for v in row) for row in self.rows))

    def to_dict(self) -> dict[Any, dict[Any, Any]]:
        """Column label -> row label -> value (as pandas' ``to_dict``)."""
        return {c: dict(zip(self.index, (row[i] for row in self.rows))) for i, c in enumerate(self.columns)}

    def to_csv(self, path: str | Path | None = None) -> str | None:
        """The table as CSV, row labels first, as pandas writes it; written to `path` if given (then None)."""
        text = csv_text([self.index_name or "", *self.columns],
                        [[label, *row] for label, row in zip(self.index, self.rows)])
        if path is None:
            return text
        Path(path).write_text(text, encoding="utf-8")
        return None

    def to_frame(self) -> pd.DataFrame:
        """The same table as a pandas DataFrame.

        Raises:
            ModuleNotFoundError: pandas is not installed (`explorer.scenario.report.missing_pandas`).
        """
        try:
            import pandas as pd
        except ImportError:
            raise missing_pandas("Table.to_frame") from None
        return pd.DataFrame([list(row) for row in self.rows], index=pd.Index(list(self.index), name=self.index_name),
                            columns=pd.Index(list(self.columns), name=self.columns_name))

    def _cells(self) -> list[list[str]]:
        head = [self.columns_name or "", *map(str, self.columns)]
        lines = [head] + ([[self.index_name] + [""] * len(self.columns)] if self.index_name else [])
        return lines + [[str(label), *map(_text, row)] for label, row in zip(self.index, self.rows)]

    def __repr__(self) -> str:
        cells = self._cells()
        widths = [max(len(line[i]) for line in cells) for i in range(len(cells[0]))]
        out = []
        for line in cells:
            text = f"{line[0]:<{widths[0]}}" + "".join(f"  {c:>{w}}" for c, w in zip(line[1:], widths[1:]))
            out.append(text.rstrip())
        return "\n".join(out)

    def to_html(self, path: str | Path | None = None) -> str | None:
        """The table as HTML (for a handout): written to `path`, or returned when `path` is None.

        >>> Table(rows=((1,),), columns=("n",), index=("a",)).to_html().startswith('<table class="dataframe')
        True
        """
        text = self._repr_html_()
        if path is None:
            return text
        Path(path).write_text(text, encoding="utf-8")
        return None

    def _repr_html_(self) -> str:
        """The table for a notebook (escaped), laid out as pandas lays out its own."""
        def cells(tag: str, values: Sequence[str]) -> str:
            return "".join(f"<{tag}>{html.escape(v)}</{tag}>" for v in values)

        head = f"<tr><th>{html.escape(self.columns_name or '')}</th>{cells('th', [str(c) for c in self.columns])}</tr>"
        if self.index_name:
            head += f"<tr><th>{html.escape(self.index_name)}</th>{cells('th', [''] * len(self.columns))}</tr>"
        body = "".join(f"<tr><th>{html.escape(str(label))}</th>{cells('td', [_text(v) for v in row])}</tr>"
                       for label, row in zip(self.index, self.rows))
        return (f'<table class="dataframe explorer-table"><thead>{head}</thead><tbody>{body}</tbody></table>')
