"""Sweep: resolve the current scenario over a grid of two numeric inputs and draw a heatmap.

Written once for every game: the panel is a `PanelHost`, and the game's `SweepAdapter`
names the inputs that can vary, the numbers that can be mapped, and computes the grid.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets

from explorer.charts.kit import sweep_heatmap, waiting_figure
from explorer.core.errors import ScenarioError
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.host import PanelHost, SweepAdapter, Update

__all__ = ["Sweep"]


class Sweep:
    """Two inputs, their ranges, an outcome, a "Run sweep" button and the heatmap.

    The heatmap is dimmed, with a note, while it is not the sweep of the current scenario and
    settings.

    Args:
        host: the game's panel (its current scenario is swept).
        adapter: the game's sweep parameters, outcomes and sweep function.

    Attributes:
        x, y: the inputs varied; x_range, y_range: their ranges; outcome: what is mapped.
        run: the "Run sweep" button; error: its message; heatmap: the chart; widget: the root.
    """

    def __init__(self, host: PanelHost, adapter: SweepAdapter) -> None:
        self.host = host
        self.adapter = adapter
        css = adapter.labels.css
        self._stale_text = (f"The {adapter.labels.noun} or the sweep settings changed since this sweep: "
                            "press Run sweep.")
        names = list(adapter.sweep_parameters)
        x_axis, y_axis = adapter.sweep_axes
        self.x = widgets.Dropdown(options=names, value=names[0], description="x", layout=widgets.Layout(width="420px"))
        self.y = widgets.Dropdown(options=names, value=names[1], description="y", layout=widgets.Layout(width="420px"))
        self.x_range = widgets.IntRangeSlider(value=x_axis.value, min=x_axis.bounds[0], max=x_axis.bounds[1],
                                              description="x from")
        self.y_range = widgets.IntRangeSlider(value=y_axis.value, min=y_axis.bounds[0], max=y_axis.bounds[1],
                                              description="y from")
        self.outcome = widgets.Dropdown(options=list(adapter.sweep_outcomes), description="map",
                                        layout=widgets.Layout(width="420px"))
        self.run = widgets.Button(description="Run sweep", icon="th", button_style="info")
        self.run.add_class(f"{css}-sweep")
        self.error = ErrorMessage(f"{css}-error", f"{css}-error-sweep")
        self.heatmap = Chart(waiting_figure("Sweep: not run yet", "Choose x, y and what to map,\nthen press "
                                            "Run sweep: each cell will show\nthat number for one pair of values."),
                             height=420)
        self.run.on_click(lambda _b: self.run_sweep())
        self._swept: tuple[Any, ...] | None = None
        for control in (self.x, self.y, self.x_range, self.y_range, self.outcome):
            control.observe(lambda _c: self._check(), "value")
        self.widget = widgets.VBox([
            note(adapter.sweep_note), widgets.HBox([self.x, self.x_range]), widgets.HBox([self.y, self.y_range]),
            widgets.HBox([self.outcome, self.run]), self.error.widget, self.heatmap])
        host.on_update(self._updated)

    def _updated(self, _update: Update) -> None:
        self._check()

    def run_sweep(self) -> None:
        """Resolve every cell of the chosen grid and draw the heatmap."""
        self.error.clear()
        if self.x.value == self.y.value:
            self.error.show("sweep: choose two different inputs for x and y")
            return
        xs = range(self.x_range.value[0], self.x_range.value[1] + 1)
        ys = range(self.y_range.value[0], self.y_range.value[1] + 1)
        try:
            z = self.adapter.sweep(self.host.scenario(), self.x.value, xs, self.y.value, ys, self.outcome.value)
        except ScenarioError as error:
            self.error.show(str(error))
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(f"sweep: unexpected problem: {type(error).__name__}: {error}")
            return
        self._swept = self._key()
        figure = sweep_heatmap(list(xs), list(ys), z, x_title=self.x.value, y_title=self.y.value,
                               outcome_title=self.outcome.value)
        self.heatmap.show(figure)

    def _key(self) -> tuple[Any, ...]:
        """What a sweep depends on: the scenario and the sweep's own settings."""
        scenario = json.dumps(self.host.scenario(), sort_keys=True, default=str)
        return (scenario, self.x.value, self.y.value, self.x_range.value, self.y_range.value, self.outcome.value)

    def _check(self) -> None:
        """Dim the heatmap while it is not the sweep of the current scenario and settings."""
        if self._swept is None:
            return
        text = "" if self._key() == self._swept else self._stale_text
        if self.heatmap.note != text:
            self.heatmap.note = text
