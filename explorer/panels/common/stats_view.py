"""The headline outcome's numbers in a panel: mean, standard deviation, median, at least / at most k.

`headline_html` writes one `explorer.scenario.stats.Headline` as a line and a small table (k in
columns, so a long range scrolls sideways instead of pushing the tools down the page);
`HeadlineView` is the widget a game's panel keeps and refreshes with `HeadlineView.show`.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from explorer.panels.common.table import decimal_text, percent_text
from explorer.scenario.stats import Headline

__all__ = ["HeadlineView", "headline_html"]


def _percent(p: object) -> str:
    return percent_text(float(p), 1)  # type: ignore[arg-type]


def headline_html(h: Headline) -> str:
    """One headline as markup, every text escaped.

    >>> from explorer.core.dist import Dist
    >>> from explorer.scenario.stats import headline
    >>> page = headline_html(headline(Dist.uniform([0, 1]), "hits <b>"))
    >>> "hits &lt;b&gt;" in page, "chance of at least" in page, "50.0%" in page
    (True, True, True)
    >>> "always" in headline_html(headline(Dist.single(4), "power")), "<table" in headline_html(headline(Dist.single(4), "power"))
    (True, False)
    """
    if h.certain is not None:
        return (f'<div class="explorer-headline"><p><b>{html.escape(h.of)}</b>: {h.certain}, always '
                "(no chance in it)</p></div>")
    median = "—" if h.median is None else str(h.median)
    rows = h.rows()
    head = "".join(f"<th>{k}</th>" for k, _, _ in rows)
    least = "".join(f"<td>{_percent(p)}</td>" for _, p, _ in rows)
    most = "".join(f"<td>{_percent(p)}</td>" for _, _, p in rows)
    return (f'<div class="explorer-headline"><p><b>{html.escape(h.of)}</b>: mean {decimal_text(float(h.mean), 2)}, '
            f"standard deviation {decimal_text(h.sd, 2)}, median {median}</p>"
            f'<div><table class="explorer-headline-table">'
            f"<thead><tr><th>value</th>{head}</tr></thead><tbody>"
            f"<tr><th>chance of at least this</th>{least}</tr><tr><th>chance of at most this</th>{most}</tr>"
            "</tbody></table></div></div>")


class HeadlineView:
    """A panel's headline numbers, redrawn by `show` (an empty box until the first result)."""

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="")
        self.widget.add_class("explorer-headline-view")

    def show(self, h: Headline | None) -> None:
        """Show `h`, or nothing (a refused input: the message beside it says why)."""
        self.widget.value = "" if h is None else headline_html(h)
