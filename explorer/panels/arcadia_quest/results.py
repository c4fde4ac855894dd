"""Encounter results: four persistent charts, the headline numbers and the summary table, updated in place."""

from __future__ import annotations

import html
from collections.abc import Mapping
from fractions import Fraction

import ipywidgets as widgets

from explorer.charts.arcadia_quest import ENCOUNTER_CHARTS, encounter_figures
from explorer.charts.kit import VIEWS
from explorer.games.arcadia_quest import PAYBACK_WORST, EncounterReport, EncounterResult, is_chance, summary_rows
from explorer.panels.arcadia_quest.values import TERMS
from explorer.panels.common.chart import Chart, ChartGroup
from explorer.panels.common.stats_view import HeadlineView
from explorer.panels.common.table import decimal_text, explained, left_out_text, percent_text

__all__ = ["CHART_HEIGHT", "EncounterResults", "format_number", "table_html"]

CHART_HEIGHT = 270
"""Pixels per chart: two rows of them fit beside the inputs at 1400 x 900."""

TABLE_STYLE = ("<style>.aq-summary-table, .aq-compare-table {border-collapse:collapse}"
               ".aq-summary-table th, .aq-summary-table td, .aq-compare-table th, .aq-compare-table td"
               " {padding:2px 12px; text-align:right} .aq-summary-table th:first-child,"
               " .aq-compare-table th:first-child {text-align:left; font-weight:normal}</style>")
"""Spacing for the summary and comparison tables."""


def format_number(quantity: str, value: Fraction | float) -> str:
    """A chance as a percentage, anything else with three decimals.

    >>> format_number("P(kill)", Fraction(1, 4)), format_number("expected coins (active Guild)", 2)
    ('25.00%', '2.000')
    """
    return percent_text(float(value)) if is_chance(quantity) else decimal_text(float(value))


def table_html(rows: Mapping[str, tuple[Fraction, ...]], headers: tuple[str, ...], css: str) -> str:
    """A table of numbers by quantity (one row each), formatted with `format_number`.

    >>> "25.00%" in table_html({"P(kill)": (Fraction(1, 4),)}, ("value",), "aq-summary-table")
    True
    """
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join(f"<tr><th>{html.escape(name)}</th>" + "".join(f"<td>{format_number(name, v)}</td>" for v in values)
                   + "</tr>" for name, values in rows.items())
    return f"{TABLE_STYLE}<table class='{css}'><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>"


class EncounterResults(ChartGroup):
    """The charts and the table of one encounter, created once and updated in place."""

    stale_class = "aq-stale"

    def __init__(self, result: EncounterResult) -> None:
        self.result = result
        self.view = widgets.ToggleButtons(options=list(VIEWS), value="exactly", description="wounds",
                                          tooltips=[f"the charts show the chance of {view} each number of wounds"
                                                    for view in VIEWS],
                                          style={"button_width": "80px"})
        self.view.add_class("aq-view")
        self.figures = {name: Chart(fig, height=CHART_HEIGHT) for name, fig in encounter_figures(result).items()}
        self.table = widgets.HTML()
        self.table.add_class("aq-summary")
        self.headline = HeadlineView()
        """The headline outcome (wounds dealt to the target): mean, standard deviation, median, at least / at most k."""
        self.payback = widgets.HTML()
        self.payback.add_class("aq-payback-by-result")
        self.view.observe(lambda _c: self.redraw(), "value")
        grid = widgets.Box([self.figures[name] for name in ENCOUNTER_CHARTS])
        grid.add_class("explorer-charts")
        self.widget = widgets.VBox([self.payback, self.view, grid, self.headline.widget, self.table])
        self.tables = (self.table, self.headline.widget, self.payback)
        self._table()

    def update(self, result: EncounterResult) -> None:
        """Show a new result: every figure and the table, in place."""
        self.result = result
        self._mark_fresh()
        self.redraw()

    def redraw(self) -> None:
        """Rebuild the figures for the current view and copy them into the charts."""
        for name, fig in encounter_figures(self.result, self.view.value).items():
            self.figures[name].show(fig)
        self._table()

    def _table(self) -> None:
        report = EncounterReport(self.result)
        self.headline.show(report.headline())
        enc = self.result.encounter
        if enc.also_targets:
            who = ", ".join(f"{html.escape(k)} {p * 100:.1f}%" for k, p in report.payback_by()["who"].items())
            rule = PAYBACK_WORST if enc.payback_by == PAYBACK_WORST else f"{enc.payback_by} if it can"
            self.payback.value = (f"<div><b>Payback by</b> (only one targeted Monster, the opponent's choice, "
                                  f"printed p.21: {html.escape(rule)}): {who}</div>")
        else:
            self.payback.value = ""
        rows = {name: (value,) for name, value in summary_rows(self.result).items()}
        cut = self.result.cut
        self.table.value = table_html(rows, ("this encounter",), "aq-summary-table") + (
            f"<div style='color:#5d6d7e;font-size:80%'>Left out: {left_out_text(float(cut))} of the chance "
            + explained("(the endless CRIT chains are cut there, not spread over the outcomes)", TERMS) + "</div>"
            if cut else "")
