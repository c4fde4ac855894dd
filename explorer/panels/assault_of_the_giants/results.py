"""Battle results: four persistent charts, the headline numbers (the damage the defender takes), the
summary table and the what-if table of differences."""

from __future__ import annotations

import html
from fractions import Fraction

import ipywidgets as widgets

from explorer import charts
from explorer.games.assault_of_the_giants import (
    BATTLE_RULINGS,
    HEADLINE_SIDE,
    BattleResult,
    battle_headline,
    provenance,
    summary_rows,
)
from explorer.panels.assault_of_the_giants.words import explain
from explorer.panels.common.chart import Chart, ChartGroup
from explorer.panels.common.stats_view import HeadlineView
from explorer.panels.common.table import decimal_text, html_table, percent_text

__all__ = ["BattleResults", "summary_html", "compare_html", "format_number", "rulings_html", "source_name"]

FIGURES = ("hits", "damage", "casualties", "ordning_points")

CHART_HEIGHT = 270
"""Pixels per battle chart: two rows of them fit beside the inputs at 1400 x 900."""

TABLE_STYLE = ("<style>.aotg-summary-table, .aotg-compare-table {border-collapse:collapse}"
               ".aotg-summary-table th, .aotg-summary-table td, .aotg-compare-table th, .aotg-compare-table td"
               " {padding:3px 12px; text-align:right}</style>")
"""Spacing for the summary tables (`explorer.panels.common.table.html_table` writes bare HTML)."""


def summary_html(rows: dict[str, dict[str, Fraction]]) -> str:
    """The summary (`summary_rows`) as a table: one row per side, chances as percentages.

    >>> print(summary_html({"attacker": {"chance wiped out": Fraction(1, 2), "expected hits": Fraction(2)}}))
    <table class="aotg-summary-table"><thead><tr style="text-align: right;"><th></th><th>chance wiped out</th><th>expected hits</th></tr></thead><tbody><tr><th>attacker</th><td>50.00%</td><td>2.000</td></tr></tbody></table>
    """
    quantities = list(next(iter(rows.values()), {}))
    cells = [[side, *(format_number(q, float(values[q])) for q in quantities)] for side, values in rows.items()]
    return html_table(["", *quantities], cells, "aotg-summary-table", headers=1)


def compare_html(pinned: BattleResult, current: BattleResult, k: int = 3) -> str:
    """A (pinned), B (current) and B - A for every summary number, one row per side and quantity."""
    a, b = summary_rows(pinned, k), summary_rows(current, k)
    cells = [[side, q, *(format_number(q, float(v)) for v in (a[side][q], b[side][q], b[side][q] - a[side][q]))]
             for side in a for q in a[side]]
    return TABLE_STYLE + html_table(["side", "quantity", "A (pinned)", "B (current)", "B - A"], cells,
                                    "aotg-compare-table", headers=2, merge=True)


def format_number(quantity: str, value: float) -> str:
    """A chance (``P(...)``, ``chance ...``) as a percentage, anything else with three decimals.

    >>> format_number("chance wiped out", 0.25), format_number("expected hits", 2)
    ('25.00%', '2.000')
    """
    return percent_text(value) if quantity.startswith(("P(", "chance")) else decimal_text(value)


class BattleResults(ChartGroup):
    """The charts and table of one battle, created once and updated in place."""

    stale_class = "aotg-stale"

    def __init__(self, result: BattleResult) -> None:
        self.result = result
        self.view = widgets.ToggleButtons(options=list(charts.VIEWS), value="exactly", description="view",
                                          tooltips=[f"the charts show the chance of {view} each value"
                                                    for view in charts.VIEWS],
                                          style={"button_width": "80px"})
        self.k = widgets.IntSlider(value=3, min=1, max=15, description="damage threshold",
                                   continuous_update=False, style={"description_width": "initial"},
                                   tooltip="the damage the summary's column 'chance of … or more damage taken' counts")
        self.figures = {name: Chart(fig, height=CHART_HEIGHT) for name, fig in charts.battle_figures(result).items()}
        self.table = widgets.HTML()
        self.table.add_class("aotg-summary")
        self.summary = summary_rows(result, self.k.value)
        """The numbers the table shows (`summary_rows`), exact."""
        self.view.observe(lambda _c: self.redraw(), "value")
        self.k.observe(lambda _c: self._table(), "value")
        grid = widgets.Box([self.figures[n] for n in FIGURES])
        grid.add_class("explorer-charts")
        self.notes = widgets.HTML()
        self.notes.add_class("aotg-rulings")
        self.headline = HeadlineView()
        """The headline numbers of the damage the defender takes (`battle_headline`), above the summary."""
        self.widget = widgets.VBox([widgets.HBox([self.view, self.k]), grid, self.headline.widget, self.table,
                                    self.notes])
        self.tables = (self.table, self.headline.widget)
        self._table()

    def update(self, result: BattleResult) -> None:
        """Show a new result: every figure and the table, in place."""
        self.result = result
        self._mark_fresh()
        self.redraw()

    def redraw(self) -> None:
        """Rebuild the figures for the current view and copy them into the widgets."""
        for name, fig in charts.battle_figures(self.result, self.view.value).items():
            self.figures[name].show(fig)
        self._table()

    def _table(self) -> None:
        self.summary = summary_rows(self.result, self.k.value)
        self.table.value = TABLE_STYLE + summary_html(self.summary)
        self.headline.show(battle_headline(self.result, HEADLINE_SIDE))
        self.notes.value = rulings_html(self.result)


def source_name(key: str) -> str:
    """What a key of `provenance` is about, in words.

    >>> source_name("dice.fire"), source_name("units"), source_name("card_rerolls")
    ('faces of the fire die', "the units' values", 'when the cards reroll')
    """
    if key.startswith("dice."):
        return f"faces of the {key.removeprefix('dice.')} die"
    return {"units": "the units' values", "cards": "the cards' effects",
            "card_rerolls": "when the cards reroll"}.get(key, key.replace("_", " "))


def rulings_html(result: BattleResult) -> str:
    """Where this battle's values come from and the rulings in effect, as a collapsed list."""
    sources = "".join(f"<li><b>{html.escape(source_name(key))}</b>: {html.escape(source)}</li>"
                      for key, source in provenance(result.battle).items())
    rulings = "".join(f"<li>{explain(html.escape(r))}</li>" for r in BATTLE_RULINGS)
    return ("<details style='font-size:90%;margin-top:4px'><summary>Where the values come from, and the "
            "rulings in effect</summary>"
            f"<ul style='margin:2px 0'>{sources}</ul><b>Rulings</b><ul style='margin:2px 0'>{rulings}</ul></details>")
