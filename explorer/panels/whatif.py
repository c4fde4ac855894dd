"""What if? Pin the current battle as A, change anything, see B against A; sweep two inputs."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from explorer import charts
from explorer.dist import Dist
from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle import BattleResult
from explorer.games.assault_of_the_giants.summary import compare_frame
from explorer.games.assault_of_the_giants.sweep import OUTCOMES, PARAMETERS, sweep
from explorer.panels.chart import Chart
from explorer.panels.common import ErrorMessage, note
from explorer.panels.results import TABLE_STYLE, format_number

if TYPE_CHECKING:
    from explorer.panels.assault import AssaultPanel

__all__ = ["WhatIf", "QUANTITIES"]

QUANTITIES: dict[str, Callable[[BattleResult], Dist[int]]] = {
    "damage to the defender": lambda r: r.defender.damage_taken,
    "damage to the attacker": lambda r: r.attacker.damage_taken,
    "Ordning Points earned by the attacker": lambda r: r.attacker.ordning_points,
    "Ordning Points earned by the defender": lambda r: r.defender.ordning_points,
    "attacker hits": lambda r: r.attacker.hits,
    "defender hits": lambda r: r.defender.hits,
}
"""Distributions the A/B overlay can show."""

_NO_PIN = ("<b>No pinned battle (A).</b> The chart shows the current battle only: press <b>Pin as A</b>, "
           "then change anything to see B (current) over A.")
_NO_TABLE = "<i>No pinned battle (A): no differences to show.</i>"
_PINNED = "A: the pinned battle · B: the current battle."

class WhatIf:
    """A/B comparison and two-input sweeps for an `AssaultPanel`."""

    def __init__(self, panel: AssaultPanel) -> None:
        self.panel = panel
        self.pinned: BattleResult | None = None
        self.pin = widgets.Button(description="Pin as A", icon="thumb-tack", button_style="warning")
        self.pin.add_class("aotg-pin")
        self.unpin = widgets.Button(description="Clear A", icon="times")
        self.quantity = widgets.Dropdown(options=list(QUANTITIES), description="compare",
                                         layout=widgets.Layout(width="420px"))
        self.compare = Chart(self._compare_figure(panel.result, panel.result), height=320)
        self._reason = "Not updated: an input has an error. Showing the last valid battle."
        self.caption = widgets.HTML(_NO_PIN)
        self.caption.add_class("aotg-compare-caption")
        self.differences = widgets.HTML(_NO_TABLE)
        self.differences.add_class("aotg-compare")
        self.pin.on_click(lambda _b: self.set_pin())
        self.unpin.on_click(lambda _b: self.set_pin(clear=True))
        self.quantity.observe(lambda _c: self.update(self.panel.result), "value")
        self.compare_widget = widgets.VBox([widgets.HBox([self.pin, self.unpin, self.quantity]), self.caption,
                                            self.compare, self.differences])
        self._build_sweep()

    def _build_sweep(self) -> None:
        names = list(PARAMETERS)
        self.x = widgets.Dropdown(options=names, value=names[0], description="x", layout=widgets.Layout(width="420px"))
        self.y = widgets.Dropdown(options=names, value=names[1], description="y", layout=widgets.Layout(width="420px"))
        self.x_range = widgets.IntRangeSlider(value=(1, 7), min=0, max=10, description="x from")
        self.y_range = widgets.IntRangeSlider(value=(0, 4), min=0, max=6, description="y from")
        self.outcome = widgets.Dropdown(options=list(OUTCOMES), description="map", layout=widgets.Layout(width="420px"))
        self.run = widgets.Button(description="Run sweep", icon="th", button_style="info")
        self.run.add_class("aotg-sweep")
        self.sweep_error = ErrorMessage("aotg-error", "aotg-error-sweep")
        self.heatmap = Chart(charts.sweep_heatmap([0], [0], [[0.0]], x_title="x", y_title="y",
                                                   outcome_title="run a sweep"), height=420)
        self.run.on_click(lambda _b: self.run_sweep())
        self._swept: tuple[Any, ...] | None = None
        for control in (self.x, self.y, self.x_range, self.y_range, self.outcome):
            control.observe(lambda _c: self._check_sweep(), "value")
        self.sweep_widget = widgets.VBox([
            note("Each cell resolves the current battle exactly with two inputs set; an explicit number "
                 "replaces what the command row gives."),
            widgets.HBox([self.x, self.x_range]), widgets.HBox([self.y, self.y_range]),
            widgets.HBox([self.outcome, self.run]), self.sweep_error.widget, self.heatmap])

    def _compare_figure(self, a: BattleResult, b: BattleResult) -> Any:
        pick = QUANTITIES[self.quantity.value]
        return charts.compare_figure(pick(a), pick(b), title=self.quantity.value.capitalize(),
                                     x_title=self.quantity.value.split(" ")[0])

    def set_pin(self, clear: bool = False) -> None:
        """Pin the current result as A (or forget A)."""
        self.pinned = None if clear else self.panel.result
        self.update(self.panel.result)

    def update(self, current: BattleResult) -> None:
        """Redraw B (the current result) against A, and the table of differences."""
        pinned = self.pinned or current
        self.compare.show(self._compare_figure(pinned, current))
        self._check_sweep()
        self.differences.remove_class("aotg-stale")
        if self.pinned is None:
            self.caption.value = _NO_PIN
            self.differences.value = _NO_TABLE
            if not self.panel.valid:
                self.inputs_invalid()
            return
        self.caption.value = _PINNED
        if not self.panel.valid:
            self.inputs_invalid()
        table = compare_frame(self.pinned, current)
        shown = table.copy().astype(object)
        for (side, quantity), row in table.iterrows():
            shown.loc[(side, quantity)] = [format_number(quantity, v) for v in row]
        self.differences.value = TABLE_STYLE + shown.to_html(classes="aotg-compare-table", border=0)

    def run_sweep(self) -> None:
        """Resolve every cell of the chosen grid and draw the heatmap."""
        self.sweep_error.clear()
        if self.x.value == self.y.value:
            self.sweep_error.show("sweep: choose two different inputs for x and y")
            return
        xs = range(self.x_range.value[0], self.x_range.value[1] + 1)
        ys = range(self.y_range.value[0], self.y_range.value[1] + 1)
        try:
            z = sweep(self.panel.scenario(), self.x.value, xs, self.y.value, ys, self.outcome.value)
        except ScenarioError as error:
            self.sweep_error.show(str(error))
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.sweep_error.show(f"sweep: unexpected problem: {type(error).__name__}: {error}")
            return
        self._swept = self._sweep_key()
        figure = charts.sweep_heatmap(list(xs), list(ys), z, x_title=self.x.value, y_title=self.y.value,
                                      outcome_title=self.outcome.value)
        self.heatmap.show(figure)

    def inputs_invalid(self, reason: str | None = None) -> None:
        """The inputs have an error: say that B and the table are the last valid battle.

        Args:
            reason: the panel's message (kept, and shown again if B is redrawn before a fix).
        """
        if reason is not None:
            self._reason = reason
        self.compare.mark_stale(self._reason)
        if self.pinned is None:
            self.caption.value = (f"{_NO_PIN}<br><b style='color:#b03a2e'>An input has an error: the chart shows "
                                  "the last valid battle.</b>")
        else:
            self.caption.value = ("A: the pinned battle · B: <b style='color:#b03a2e'>the last valid battle "
                                  "(an input has an error; the chart and the table are not the current inputs)</b>.")
            self.differences.add_class("aotg-stale")
        self._check_sweep()

    def _sweep_key(self) -> tuple[Any, ...]:
        """What a sweep depends on: the battle and the sweep's own settings."""
        battle = json.dumps(self.panel.scenario(), sort_keys=True, default=str)
        return (battle, self.x.value, self.y.value, self.x_range.value, self.y_range.value, self.outcome.value)

    def _check_sweep(self) -> None:
        """Dim the heatmap while it is not the sweep of the current battle and settings."""
        if self._swept is None:
            return
        current = self._sweep_key() == self._swept
        text = "" if current else "The battle or the sweep settings changed since this sweep: press Run sweep."
        if self.heatmap.note != text:
            self.heatmap.note = text
