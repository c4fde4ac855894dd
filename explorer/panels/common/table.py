"""HTML tables for the panels, written without pandas (the in-browser build has none).

`html_table` writes the markup pandas' ``DataFrame.to_html`` gave the panels (a ``thead`` whose
row is right-aligned, a ``tbody``, the row labels as ``th``), so the page's styles and the
browser tests' selectors (``thead th``, ``tbody tr``, a row's ``th``) find what they found. Every
cell is escaped; a missing value (None or NaN) is shown as a dash.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["html_table", "cell_text", "MISSING", "decimal_text", "percent_text", "left_out_text", "explained",
           "explained_html"]

MISSING = "—"
"""What an empty cell shows."""


def decimal_text(value: float, digits: int = 3) -> str:
    """A number with `digits` decimals, never "-0.000" (a difference too small to show is 0).

    >>> decimal_text(-0.0001), decimal_text(2), decimal_text(-1.25, 1)
    ('0.000', '2.000', '-1.2')
    """
    text = f"{float(value):.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def percent_text(value: float, digits: int = 2) -> str:
    """A chance (a fraction of 1) as a percentage with its % sign, never "-0.00%".

    >>> percent_text(0.25), percent_text(-0.00001)
    ('25.00%', '0.00%')
    """
    return decimal_text(float(value) * 100, digits) + "%"


def left_out_text(cut: float) -> str:
    """A probability left out on purpose, in words people read.

    >>> left_out_text(3.6e-15), left_out_text(2e-9)
    ('under one in a trillion', 'about 2 in a billion')
    """
    if cut < 1e-12:
        return "under one in a trillion"
    for scale, word in ((1e9, "billion"), (1e6, "million"), (1e3, "thousand")):
        if cut * scale >= 1:
            return f"about {cut * scale:.0f} in a {word}"
    return percent_text(cut)


def explained(text: str, terms: Mapping[str, str]) -> str:
    """Escaped `text` with each of `terms` (a word the rules abbreviate) wrapped to show its meaning on hover.

    >>> explained("2 CRITs & a blank", {"CRIT": "the critical symbol"})
    '2 <abbr title="CRIT: the critical symbol">CRIT</abbr>s &amp; a blank'
    """
    return explained_html(html.escape(text), terms)


def explained_html(markup: str, terms: Mapping[str, str]) -> str:
    """`markup` with each of `terms` in its text (not in its tags) wrapped to show its meaning on hover.

    >>> explained_html('<b title="NPC">NPC giants</b>', {"NPC": "giants no player controls"})
    '<b title="NPC"><abbr title="NPC: giants no player controls">NPC</abbr> giants</b>'
    """
    parts = re.split(r"(<[^>]*>)", markup)
    inside = 0
    for i, part in enumerate(parts):
        if part.startswith("<"):
            inside += 1 if part.startswith("<abbr") else -1 if part.startswith("</abbr") else 0
            continue
        if inside:
            continue
        for term, meaning in terms.items():
            mark = f'<abbr title="{html.escape(f"{term}: {meaning}")}">{html.escape(term)}</abbr>'
            part = re.sub(rf"(?<![\w-]){re.escape(html.escape(term))}(?=s?(?![\w-]))", lambda _m, mark=mark: mark, part)
        parts[i] = part
    return "".join(parts)


def cell_text(value: Any, number: Callable[[float], str] | None = None) -> str:
    """One cell as text: a float through `number` (if given), a missing value as `MISSING`.

    >>> cell_text(0.25, lambda v: f"{v:.1%}"), cell_text(3), cell_text(None), cell_text(float("nan"))
    ('25.0%', '3', '—', '—')
    """
    if value is None or (isinstance(value, float) and value != value):
        return MISSING
    if isinstance(value, float) and number is not None:
        return number(value)
    return str(value)


def _row(cells: Sequence[Any], columns: Sequence[str], headers: int, formats: Mapping[str, Callable[[Any], str]],
         number: Callable[[float], str] | None, span: int | None) -> str:
    parts = []
    for i, (column, value) in enumerate(zip(columns, cells)):
        if i == 0 and span == 0:
            continue  # covered by the row label above (rowspan)
        text = html.escape(formats[column](value) if column in formats else cell_text(value, number))
        if i < headers:
            attributes = f' rowspan="{span}" valign="top"' if i == 0 and span and span > 1 else ""
            parts.append(f"<th{attributes}>{text}</th>")
        else:
            parts.append(f"<td>{text}</td>")
    return "<tr>" + "".join(parts) + "</tr>"


def _spans(rows: Sequence[Sequence[Any]]) -> list[int]:
    """Per row, how many rows its first label covers (0: covered by the one above)."""
    spans = []
    for i, row in enumerate(rows):
        if i and row[0] == rows[i - 1][0]:
            spans.append(0)
            continue
        n = 1
        while i + n < len(rows) and rows[i + n][0] == row[0]:
            n += 1
        spans.append(n)
    return spans


def html_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], css: str, *, headers: int = 0,
               formats: Mapping[str, Callable[[Any], str]] | None = None,
               number: Callable[[float], str] | None = None, merge: bool = False) -> str:
    """A table: one header row of `columns`, then `rows`, every text escaped.

    Args:
        columns: the column titles (the first `headers` are the titles of the row labels, often "").
        rows: the cells, one sequence per row, in the order of `columns`.
        css: the table's class attribute (``"aotg-summary-table"``).
        headers: how many leading columns are row labels (written as ``th``).
        formats: column title -> how to write that column's values.
        number: how to write any other float (else ``str``).
        merge: the first row label spans the rows below that repeat it (as pandas writes a
            two-level index).

    >>> print(html_table(["", "chance"], [["attacker", 0.5], ["defender", None]], "t", headers=1,
    ...                  number=lambda v: f"{v:.0%}"))
    <table class="t"><thead><tr style="text-align: right;"><th></th><th>chance</th></tr></thead><tbody><tr><th>attacker</th><td>50%</td></tr><tr><th>defender</th><td>—</td></tr></tbody></table>
    >>> "&lt;b&gt;" in html_table(["<b>"], [], "t")
    True
    """
    formats = formats or {}
    spans: list[int | None] = list(_spans(rows)) if merge and headers else [None] * len(rows)
    head = "".join(f"<th>{html.escape(c)}</th>" for c in columns)
    body = "".join(_row(row, columns, headers, formats, number, span) for row, span in zip(rows, spans))
    return (f'<table class="{html.escape(css)}"><thead><tr style="text-align: right;">{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")
