"""A chart widget that always shows the kernel's current figure, or says in place why not.

`Chart` replaces plotly's `go.FigureWidget` in every panel. Two faults froze FigureWidgets at
an old battle on some page loads, and this widget avoids both by design:

- plotly's widget sends **deltas** (a restyle or relayout message, then the trait reset to
  None); a delta that reaches the browser before the view listens is gone for good. Here the
  kernel sends the **whole figure** as JSON on every change (a few kB) and the browser draws
  whatever the model holds when it draws.
- FigureWidget is an anywidget whose 5 MB of code arrives inside the widget's state; anywidget
  0.11 gives a model 2 s to start and afterwards **drops every message** to a model that took
  longer (likely on a slow or throttled page). `Chart` is a plain ipywidgets model whose small
  front end (``js/``, prebuilt into ``labextension/``, installed by `explorer.panels.common.install`)
  loads with the page over HTTP; plotly.js comes once per page from the same place, cached.

The chart's state is visible: ``note`` (set by `mark_stale`) dims the chart and says why it is
not current, ``pending`` (set by `mark_pending`) shows "updating…" if a redraw takes a while,
and a failed draw (or a missing front end) shows its error in place. The element carries
``data-revision`` and ``data-state`` so a browser test can check what is drawn.

Figures come from `explorer.charts` (pure functions); this module only carries them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go
import plotly.io as pio
import traitlets
from plotly.basedatatypes import BaseFigure
from plotly.utils import PlotlyJSONEncoder

from explorer.charts.kit import HEIGHT

__all__ = ["Chart", "ChartGroup", "figure_json", "show_figures_as_json", "FRONT_END", "FRONT_END_VERSION"]

FRONT_END = "explorer-chart"
"""The front end's module name (``js/package.json``, ``js/src/index.js``)."""
FRONT_END_VERSION = "1.1.0"
"""The front end's module version; a change in ``js/`` bumps it in all three places."""


@lru_cache(maxsize=8)
def _template(name: str) -> dict[str, Any]:
    """A named plotly template expanded to plain JSON (plotly.js knows no template names)."""
    template = pio.templates[name]
    expanded: dict[str, Any] = json.loads(json.dumps(template.to_plotly_json(), cls=PlotlyJSONEncoder))
    return expanded


def show_figures_as_json() -> None:
    """Show plotly figures as their figure JSON, drawn by plotly's lab renderer (the in-browser lab).

    plotly's own display of a figure needs nbformat, or a copy of plotly.js for its HTML, and the
    browser kernel (`explorer.site`) has neither; so a figure is sent as the
    ``application/vnd.plotly.v1+json`` plotly would send (named templates expanded,
    `figure_json`), by a display hook registered for plotly's figure type. `explorer.app` calls
    it on import in the browser, as the lessons that show figures import the app.
    """
    from IPython import get_ipython
    from IPython.display import display

    def show(figure: BaseFigure) -> None:
        display({"application/vnd.plotly.v1+json": json.loads(figure_json(figure)), "text/plain": "(a plotly figure)"},
                raw=True)  # type: ignore[no-untyped-call]

    shell = get_ipython()
    if shell is not None:
        shell.display_formatter.ipython_display_formatter.for_type(BaseFigure, show)


def figure_json(figure: BaseFigure | dict[str, Any], height: int | None = None) -> str:
    """The figure as compact JSON that plotly.js can draw (named templates expanded).

    Args:
        figure: a plotly figure or its dict.
        height: the chart's usual height; the figure keeps its own height only if it asks for
            more than `explorer.charts.kit.HEIGHT` (a casualty chart with many units, say).

    >>> text = figure_json(go.Figure({"data": [{"type": "bar", "y": [1, 2]}],
    ...                               "layout": {"template": "plotly_white"}}, _validate=False))
    >>> data = json.loads(text)
    >>> data["data"][0]["y"], isinstance(data["layout"]["template"], dict)
    ([1, 2], True)
    """
    plain = figure.to_plotly_json() if isinstance(figure, BaseFigure) else dict(figure)
    layout = dict(plain.get("layout") or {})
    if isinstance(layout.get("template"), str):
        layout["template"] = _template(layout["template"])
    if height is not None:
        asked = layout.get("height")
        layout["height"] = asked if isinstance(asked, int) and asked > HEIGHT else height
    return json.dumps({"data": list(plain.get("data") or []), "layout": layout},
                      cls=PlotlyJSONEncoder, separators=(",", ":"))


class Chart(widgets.DOMWidget):
    """One chart, created once by a panel and shown again with `show` on every change.

    Args:
        figure: the first figure to show (optional).
        height: the chart's height in pixels.

    >>> chart = Chart(go.Figure({"data": [{"type": "bar", "y": [3]}]}, _validate=False))
    >>> chart.revision, chart.data[0].y
    (1, (3,))
    >>> chart.mark_stale("attacker.pool.basic: must be >= 0"); chart.note != ""
    True
    >>> chart.show({"data": [{"type": "bar", "y": [4]}]}); chart.revision, chart.note, chart.pending
    (2, '', False)
    """

    _model_name = traitlets.Unicode("ChartModel").tag(sync=True)
    _model_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _model_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)
    _view_name = traitlets.Unicode("ChartView").tag(sync=True)
    _view_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _view_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)

    figure = traitlets.Unicode("{}").tag(sync=True)
    """The current figure as JSON (`figure_json`)."""
    revision = traitlets.Int(0).tag(sync=True)
    """Incremented on every `show`; the browser writes the revision it drew on the element."""
    note = traitlets.Unicode("").tag(sync=True)
    """Why the chart is not current (empty when it is); shown over the dimmed chart."""
    pending = traitlets.Bool(False).tag(sync=True)
    """True while the kernel computes a new figure for this chart."""
    height = traitlets.Int(300).tag(sync=True)
    """Height in pixels."""

    def __init__(self, figure: BaseFigure | dict[str, Any] | None = None, *, height: int = 300,
                 **kwargs: Any) -> None:
        super().__init__(height=height, **kwargs)
        if figure is not None:
            self.show(figure)

    def show(self, figure: BaseFigure | dict[str, Any]) -> None:
        """Show `figure` (a plotly figure or its dict); clears any note or pending mark."""
        text = figure_json(figure, self.height)
        with self.hold_sync():
            self.figure = text
            self.revision += 1
            self.note = ""
            self.pending = False

    def mark_pending(self) -> None:
        """Say a new figure is being computed (shown only if it takes more than a moment)."""
        self.pending = True

    def mark_stale(self, reason: str) -> None:
        """Say the chart does not show the current inputs, and why (the chart is dimmed)."""
        with self.hold_sync():
            self.note = reason
            self.pending = False

    @property
    def data(self) -> tuple[Any, ...]:
        """The traces currently held, as plotly trace objects (``chart.data[0].y``)."""
        traces: tuple[Any, ...] = self.to_figure().data
        return traces

    def to_figure(self) -> go.Figure:
        """The figure currently held, as a (new) `go.Figure`."""
        return go.Figure(json.loads(self.figure), _validate=False)


class ChartGroup:
    """The charts and tables of one panel's result, marked pending or stale together.

    A game's results view subclasses it and sets ``figures`` (name -> `Chart`), ``tables`` (the
    HTML widgets that dim with the charts) and ``stale_class`` (the CSS class that dims them).
    """

    figures: dict[str, Chart]
    tables: tuple[widgets.HTML, ...]
    stale_class: str

    def mark_pending(self) -> None:
        """Every chart says "updating…" (after a moment) until its new figure arrives."""
        for chart in self.figures.values():
            chart.mark_pending()

    def mark_stale(self, reason: str) -> None:
        """Every chart is dimmed and says why it does not show the current inputs; so are the tables."""
        for chart in self.figures.values():
            chart.mark_stale(reason)
        for table in self.tables:
            table.add_class(self.stale_class)

    def _mark_fresh(self) -> None:
        """The tables show the current inputs again."""
        for table in self.tables:
            table.remove_class(self.stale_class)
