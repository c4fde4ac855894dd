"""A chart widget that always shows the kernel's current figure, or says in place why not.

`Chart` replaces plotly's `go.FigureWidget` in every panel. The two differ where it matters for
a chart that must never look right while being wrong:

- the kernel sends the **whole figure** as JSON on every change (a few kB), and the browser
  draws whatever the model holds when it draws; plotly's widget sends deltas, and a delta that
  arrives before its view is ready is lost for good, which froze charts at the previous battle;
- **plotly.js reaches the page once**: the first chart to render asks the kernel, which answers
  with the library gzipped (about 1.5 MB instead of a 4.8 MB copy inside every chart widget);
- the chart's state is visible: ``note`` (set by `mark_stale`) dims the chart and says why it is
  not current, ``pending`` (set by `mark_pending`) shows "updating…" if a redraw takes a while,
  and a failed draw shows its error. The element carries ``data-revision`` and ``data-state``
  so a browser test can check what is drawn.

Figures come from `explorer.charts` (pure functions); this module only carries them.
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import anywidget
import plotly
import plotly.graph_objects as go
import plotly.io as pio
import traitlets
from plotly.basedatatypes import BaseFigure
from plotly.utils import PlotlyJSONEncoder

from explorer import charts

__all__ = ["Chart", "figure_json", "plotly_bundle"]

_HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=8)
def _template(name: str) -> dict[str, Any]:
    """A named plotly template expanded to plain JSON (plotly.js knows no template names)."""
    template = pio.templates[name]
    return json.loads(json.dumps(template.to_plotly_json(), cls=PlotlyJSONEncoder))


def figure_json(figure: BaseFigure | dict[str, Any], height: int | None = None) -> str:
    """The figure as compact JSON that plotly.js can draw (named templates expanded).

    Args:
        figure: a plotly figure or its dict.
        height: the chart's usual height; the figure keeps its own height only if it asks for
            more than `explorer.charts.HEIGHT` (a casualty chart with many units, say).

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
        layout["height"] = asked if isinstance(asked, int) and asked > charts.HEIGHT else height
    return json.dumps({"data": list(plain.get("data") or []), "layout": layout},
                      cls=PlotlyJSONEncoder, separators=(",", ":"))


@lru_cache(maxsize=1)
def plotly_bundle() -> bytes:
    """plotly.js from the installed plotly package, gzipped once per process.

    >>> gzip.decompress(plotly_bundle())[:40].decode().startswith("/**")
    True
    """
    from plotly.offline import get_plotlyjs

    return gzip.compress(get_plotlyjs().encode(), compresslevel=6)


class Chart(anywidget.AnyWidget):
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

    _esm = (_HERE / "chart.js").read_text(encoding="utf-8")
    _css = (_HERE / "chart.css").read_text(encoding="utf-8")

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
    plotly_version = traitlets.Unicode(plotly.__version__).tag(sync=True)
    """The plotly package whose plotly.js the browser should use."""

    def __init__(self, figure: BaseFigure | dict[str, Any] | None = None, *, height: int = 300,
                 **kwargs: Any) -> None:
        super().__init__(height=height, **kwargs)
        self.on_msg(self._on_message)
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
        return self.to_figure().data

    def to_figure(self) -> go.Figure:
        """The figure currently held, as a (new) `go.Figure`."""
        return go.Figure(json.loads(self.figure), _validate=False)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "plotly-please":
            self.send({"type": "plotly", "version": plotly.__version__}, buffers=[plotly_bundle()])
