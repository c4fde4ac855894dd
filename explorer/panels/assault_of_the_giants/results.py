"""Battle results: four persistent charts and a pandas summary table."""

from __future__ import annotations

import html

import ipywidgets as widgets
import pandas as pd

from explorer import charts
from explorer.games.assault_of_the_giants import BATTLE_RULINGS, BattleResult, provenance, summary_frame
from explorer.panels.common.chart import Chart, ChartGroup

__all__ = ["BattleResults", "format_summary", "format_number", "rulings_html"]

FIGURES = ("hits", "damage", "casualties", "ordning_points")

CHART_HEIGHT = 270
"""Pixels per battle chart: two rows of them fit beside the inputs at 1400 x 900."""

TABLE_STYLE = ("<style>.aotg-summary-table, .aotg-compare-table {border-collapse:collapse}"
               ".aotg-summary-table th, .aotg-summary-table td, .aotg-compare-table th, .aotg-compare-table td"
               " {padding:3px 12px; text-align:right}</style>")
"""Spacing for the summary tables (pandas writes bare HTML)."""


def format_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Chances as percentages, expectations with three decimals (for display).

    >>> format_summary(pd.DataFrame({"chance wiped out": [0.5], "expected hits": [2.0]}))
      chance wiped out expected hits
    0           50.00%         2.000
    """
    return pd.DataFrame({c: [format_number(c, v) for v in frame[c]] for c in frame.columns}, index=frame.index)


def format_number(quantity: str, value: float) -> str:
    """A chance (``P(...)``, ``chance ...``) as a percentage, anything else with three decimals.

    >>> format_number("chance wiped out", 0.25), format_number("expected hits", 2)
    ('25.00%', '2.000')
    """
    return f"{value * 100:.2f}%" if quantity.startswith(("P(", "chance")) else f"{value:.3f}"


class BattleResults(ChartGroup):
    """The charts and table of one battle, created once and updated in place."""

    stale_class = "aotg-stale"

    def __init__(self, result: BattleResult) -> None:
        self.result = result
        self.view = widgets.ToggleButtons(options=list(charts.VIEWS), value="exactly", description="view",
                                          style={"button_width": "80px"})
        self.k = widgets.IntSlider(value=3, min=1, max=15, description="k damage", continuous_update=False)
        self.figures = {name: Chart(fig, height=CHART_HEIGHT) for name, fig in charts.battle_figures(result).items()}
        self.table = widgets.HTML()
        self.table.add_class("aotg-summary")
        self.frame = summary_frame(result, self.k.value)
        self.view.observe(lambda _c: self.redraw(), "value")
        self.k.observe(lambda _c: self._table(), "value")
        grid = widgets.Box([self.figures[n] for n in FIGURES])
        grid.add_class("explorer-charts")
        self.notes = widgets.HTML()
        self.notes.add_class("aotg-rulings")
        self.widget = widgets.VBox([widgets.HBox([self.view, self.k]), grid, self.table, self.notes])
        self.tables = (self.table,)
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
        self.frame = summary_frame(self.result, self.k.value)
        shown = format_summary(self.frame)
        self.table.value = TABLE_STYLE + shown.to_html(classes="aotg-summary-table", border=0)
        self.notes.value = rulings_html(self.result)


def rulings_html(result: BattleResult) -> str:
    """Where this battle's values come from and the rulings in effect, as a collapsed list."""
    sources = "".join(f"<li><b>{html.escape(key)}</b>: {html.escape(source)}</li>"
                      for key, source in provenance(result.battle).items())
    rulings = "".join(f"<li>{html.escape(r)}</li>" for r in BATTLE_RULINGS)
    return ("<details style='font-size:90%;margin-top:4px'><summary>Where the values come from, and the "
            "rulings in effect</summary>"
            f"<ul style='margin:2px 0'>{sources}</ul><b>Rulings</b><ul style='margin:2px 0'>{rulings}</ul></details>")
