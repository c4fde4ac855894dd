"""Copy a freshly built figure into a persistent `go.FigureWidget`, in place and cheaply.

Panels keep one FigureWidget per chart for their whole life and, on every change, hand it the
figure `explorer.charts` just built. Setting a property on a widget is validated by plotly and
sent to the browser, so only the properties that differ are set.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import plotly.graph_objects as go
from plotly.basedatatypes import BaseFigure

__all__ = ["sync_figure"]


def _plain(value: Any) -> Any:
    """Tuples as lists, recursively, so stored and fresh properties compare equal."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@lru_cache(maxsize=8)
def _template(name: str) -> Any:
    """A named template as the widget stores it (expanded), to compare without re-setting it."""
    return _plain(go.Figure(layout={"template": name}).layout.template.to_plotly_json())


def _same(key: str, stored: Any, fresh: Any) -> bool:
    if key == "template" and isinstance(fresh, str):
        fresh = _template(fresh)
    stored, fresh = _plain(stored), _plain(fresh)
    return stored == fresh or (not stored and not fresh and stored in (None, []) and fresh in (None, []))


def _replace_props(obj: Any, props: dict[str, Any]) -> None:
    """Overwrite `obj` (a trace or a layout) with `props`, clearing what `props` leaves out.

    Only the top-level properties that differ are sent: every property set on a widget is
    validated by plotly, which is what makes redraws slow.
    """
    current = obj.to_plotly_json()
    skip = ("type", "uid")
    changes = {k: v for k, v in props.items() if k not in skip and not _same(k, current.get(k), v)}
    changes.update({k: None for k in current if k not in props and k not in skip})
    if changes:
        obj.update(changes, overwrite=True)


def sync_figure(target: BaseFigure, source: BaseFigure) -> None:
    """Make `target` (a persistent `go.FigureWidget`) show `source`, updating it in place.

    Traces are updated one by one when their number and types match, so the widget keeps its
    trace objects (and uids); otherwise the traces are replaced. Properties, shapes and
    annotations missing from `source` are cleared rather than merged.

    Args:
        target: the figure (usually a `go.FigureWidget`) to update.
        source: a freshly built figure.

    >>> from explorer.charts import distribution_figure
    >>> from explorer.dist import Dist
    >>> widget = go.FigureWidget(distribution_figure(Dist.single(1), title="t", x_title="hits"))
    >>> trace = widget.data[0]
    >>> sync_figure(widget, distribution_figure(Dist.uniform([1, 2]), title="t", x_title="hits"))
    >>> widget.data[0] is trace, trace.y
    (True, (0.5, 0.5))
    """
    with target.batch_update():
        if [t.type for t in target.data] == [t.type for t in source.data]:
            for old, new in zip(target.data, source.data):
                _replace_props(old, new.to_plotly_json())
        else:
            target.data = ()
            target.add_traces(list(source.data))
        layout = source.layout.to_plotly_json()
        layout.setdefault("shapes", [])
        layout.setdefault("annotations", [])
        _replace_props(target.layout, layout)
