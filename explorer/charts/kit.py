"""The chart kit: the figures every game uses, and the pieces each game's charts are built from.

Pure functions from distributions to plotly figures. A game's charts (``explorer.charts.<game>``)
build on the public pieces here (`figure`, `style`, `percent`, `exact_values`, `hover_lines`,
`escape_text`, `HEIGHT`, `PERCENT_TICKS`) and on nothing private.

Charts only read the distributions they are given (`Dist.probability`, `at_least`,
`at_most`, `mean`); exact `Fraction`s become floats here and nowhere earlier, and every
hover label also carries the exact fraction where it is short enough to read.

Game-specific figures live beside this module (``explorer.charts.<game>``). Panels show
figures with `explorer.panels.common.chart.Chart`, which sends the whole figure on every change.
No ipywidgets import: the panels own the widgets.

Two promises every chart module keeps:

* *User text is text.* Plotly reads a subset of HTML in titles, axis and tick labels, legends,
  annotations and hover boxes (``<a href=...>`` makes a link), and ``%{...}`` in a hover
  template; every name or title that may come from the user goes through `escape_text` first.
* *Cost follows the outcomes, never a value.* Bars stand on the outcomes themselves (gaps filled
  only while the axis stays within a few times their number), cumulative views are one running
  sum, and whole-number ticks are asked for only on a short axis: an Ordning Value of a million
  costs what an Ordning Value of 3 does.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, get_args

import plotly.graph_objects as go

from explorer.core.dist import Dist

__all__ = [
    "VIEWS", "View", "SIDE_COLORS", "HEIGHT", "PERCENT_TICKS", "view_values", "distribution_figure", "sides_figure",
    "compare_figure", "sweep_heatmap", "symbols_figure", "escape_text", "exact_values", "figure",
    "hover_lines", "percent", "style", "waiting_figure",
]

View = Literal["exactly", "at least", "at most"]
"""How a distribution is shown: P(X = k), P(X >= k) or P(X <= k)."""
VIEWS: tuple[View, ...] = get_args(View)
"""The values of `View`; `exact_values`, which every view goes through, refuses any other."""

SIDE_COLORS: Mapping[str, str] = {"attacker": "#c0392b", "defender": "#2e6da4"}
"""One colour per side, the same in every chart."""

_SYMBOL: dict[View, str] = {"exactly": "=", "at least": "≥", "at most": "≤"}
_NEUTRAL = "#555555"
_PINNED = "rgba(120, 120, 120, 0.30)"
HEIGHT = 320
"""A chart's usual height in pixels; a figure taller than this (many units) asks for more room."""
_MARGIN = {"l": 60, "r": 20, "t": 48, "b": 45}
PERCENT_TICKS = ".1~%"
"""The tick format of a probability axis (percent, at most one decimal)."""
BLUES = [[0.0, "#f7fbff"], [0.25, "#c6dbef"], [0.5, "#6baed6"], [0.75, "#2171b5"], [1.0, "#08306b"]]
"""Light for low values, dark for high ones, spelled out (plotly.js reads the name "Blues" the other way round)."""

VALIDATE = False
"""Whether figures are validated by plotly when built (tests turn it on to check every property)."""

GAP_FILL = 4
"""Missing outcomes between the least and the greatest are drawn (as zero bars) only while the axis
holds at most `GAP_FILL` times as many positions as there are outcomes (plus `WHOLE_TICKS`)."""

WHOLE_TICKS = 60
"""Longest axis (in whole numbers) that gets one tick per whole number; a longer one gets Plotly's own."""


def escape_text(value: object) -> str:
    """User text made safe for any Plotly label: markup escaped, template braces broken.

    Plotly draws ``&lt;`` as ``<``, so the text reads as typed; ``%{`` gets a zero-width space
    so that a hover template never reads a name as a placeholder.

    >>> escape_text('<a href="http://x">click</a> %{y}')
    '&lt;a href=&quot;http://x&quot;&gt;click&lt;/a&gt; %\u200b{y}'
    """
    return html.escape(str(value)).replace("%{", "%\u200b{")


# ----------------------------------------------------------------------------- helpers
def exact_values(dist: Dist[int], view: View) -> tuple[list[int], list[Fraction]]:
    """The outcomes (gaps filled in while the axis stays short, `GAP_FILL`) with their exact
    probabilities in `view`; one pass over the sorted outcomes, whatever their size.

    >>> exact_values(Dist({0: 1, 2: 3}), "at most")
    ([0, 1, 2], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 1)])
    >>> exact_values(Dist({0: 1, 10**6: 1}), "at least")
    ([0, 1000000], [Fraction(1, 1), Fraction(1, 2)])
    """
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}; got {view!r}")
    weights = sorted(dist.items())
    low, high = weights[0][0], weights[-1][0]
    dense = high - low < WHOLE_TICKS + GAP_FILL * len(weights)
    xs = list(range(low, high + 1)) if dense else [o for o, _ in weights]
    total, kept = dist.total, sum(w for _, w in weights)
    ps, below, i = [], 0, 0  # below: weight of the outcomes left of x
    for x in xs:
        while weights[i][0] < x:
            below += weights[i][1]
            i += 1
        here = weights[i][1] if weights[i][0] == x else 0
        ps.append(Fraction(here if view == "exactly" else below + here if view == "at most" else kept - below, total))
    return xs, ps


def percent(p: Fraction | float) -> str:
    return f"{float(p):.2%}"


def _cell_text(p: Fraction) -> str:
    """A short percentage for a heatmap cell; empty for an impossible cell."""
    return "" if not p else "<0.1%" if p < Fraction(1, 1000) else f"{float(p):.1%}"


def hover_lines(label: str, view: View, xs: Sequence[int], ps: Sequence[Fraction]) -> list[list[str]]:
    """customdata rows: [hover line, exact fraction]; the fraction is shown for "exactly" only."""
    rows = []
    for x, p in zip(xs, ps):
        line = f"P({label} {_SYMBOL[view]} {x}) = {percent(p)}"
        rows.append([line + (f" ({p})" if view == "exactly" else ""), str(p)])
    return rows


def _bar(dist: Dist[int], view: View, label: str, name: str, color: str, **extra: Any) -> dict[str, Any]:
    """A bar trace of `dist`; `label` and `name` are escaped here (the caller passes them as typed)."""
    xs, ps = exact_values(dist, view)
    name = escape_text(name)
    return {"type": "bar", "x": xs, "y": [float(p) for p in ps], "name": name, "marker": {"color": color},
            "customdata": hover_lines(escape_text(label), view, xs, ps),
            "hovertemplate": f"%{{customdata[0]}}<extra>{name}</extra>", **extra}


def _span(traces: list[dict[str, Any]], layout: dict[str, Any], letter: str) -> float:
    """How many whole numbers an axis covers: its explicit range, else the traces' numbers on it."""
    given = layout.get(f"{letter}axis", {}).get("range")
    values = list(given) if given else [v for t in traces for v in t.get(letter) or ()
                                        if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return max(values) - min(values) if values else 0


def figure(traces: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """Build the figure from plain dicts in one step, skipping plotly's per-property validation.

    Validation costs tens of milliseconds per figure, too slow for a panel that redraws on every
    change; the tests build each kind of figure once with validation to check these dicts.
    A whole-number tick step (``dtick`` 1) is dropped on an axis longer than `WHOLE_TICKS`, so a
    huge value never asks the browser for a million ticks.
    """
    for letter in "xy":
        axis = layout.get(f"{letter}axis")
        if isinstance(axis, dict) and axis.get("dtick") == 1 and _span(traces, layout, letter) > WHOLE_TICKS:
            layout[f"{letter}axis"] = {k: v for k, v in axis.items() if k != "dtick"}
    return go.Figure({"data": traces, "layout": layout}, _validate=VALIDATE)


def style(title: str, x_title: str, y_title: str = "probability", percent_y: bool = True,
           **extra: Any) -> dict[str, Any]:
    """The common layout: white template, compact margins, whole-number x ticks, percent y axis.

    Numeric axes keep to the fixed margins (``automargin`` off: their ticks are short numbers and
    percentages): plotly's template turns automargin on, which lays a chart out twice and made
    drawing the battle charts a third slower in a fresh page (`benchmarks/bench_room.py`). A
    category axis (unit, player or step names, of any length) keeps it unless `extra` says.

    >>> [style("t", "x")[a]["automargin"] for a in ("xaxis", "yaxis")]
    [False, False]
    >>> style("t", "", yaxis={"type": "category"})["yaxis"]["automargin"]
    True
    """
    y_axis = {"tickformat": PERCENT_TICKS, "rangemode": "tozero"} if percent_y else {}
    layout: dict[str, Any] = {
        "template": "plotly_white", "height": HEIGHT, "margin": dict(_MARGIN),
        "title": {"text": escape_text(title), "x": 0.01},
        "xaxis": {"title": {"text": escape_text(x_title)}, "dtick": 1, "automargin": False},
        "yaxis": {"title": {"text": escape_text(y_title)}, "automargin": False, **y_axis},
        "legend": {"orientation": "h", "x": 1, "xanchor": "right", "y": 1.02, "yanchor": "bottom"},
        "bargap": 0.15, "shapes": [], "annotations": [],
    }
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(layout.get(key), dict):
            layout[key] = {**layout[key], **value}
        else:
            layout[key] = value
    for key in ("xaxis", "yaxis"):
        if layout[key].get("type") == "category" and "automargin" not in (extra.get(key) or {}):
            layout[key]["automargin"] = True
    return layout


def _mark_mean(layout: dict[str, Any], mean: Fraction, color: str, label: str = "", row: int = 0) -> None:
    """A dashed vertical line at `mean` with a "mean 3.42" note (stacked by `row`)."""
    x = float(mean)
    layout["shapes"].append({"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "paper",
                             "line": {"color": color, "dash": "dash", "width": 2}})
    layout["annotations"].append({"x": x, "xref": "x", "y": 1 - 0.09 * row, "yref": "paper", "xanchor": "left",
                                  "yanchor": "top", "text": f"{escape_text(label) + ' ' if label else ''}mean {x:.2f}",
                                  "showarrow": False, "font": {"color": color, "size": 11},
                                  "bgcolor": "rgba(255,255,255,0.7)"})


# ----------------------------------------------------------------------------- public
def view_values(dist: Dist[int], view: View) -> tuple[list[int], list[float]]:
    """Outcomes from min to max (missing ones filled in) with P(X = k), P(X >= k) or P(X <= k).

    Args:
        dist: a distribution of whole numbers.
        view: one of `VIEWS`.

    Returns:
        The outcomes and their probabilities as floats.

    Raises:
        ValueError: `view` is not one of `VIEWS`.

    >>> view_values(Dist({0: 1, 2: 3}), "exactly")
    ([0, 1, 2], [0.25, 0.0, 0.75])
    >>> view_values(Dist({0: 1, 2: 3}), "at least")[1]
    [1.0, 0.75, 0.75]
    """
    xs, ps = exact_values(dist, view)
    return xs, [float(p) for p in ps]


def distribution_figure(dist: Dist[int], *, title: str, x_title: str, view: View = "exactly",
                        name: str = "", color: str | None = None) -> go.Figure:
    """Bars of one distribution with its mean marked.

    Args:
        dist: a distribution of whole numbers.
        title: the chart title.
        x_title: what the outcome counts, in the rulebook's words; also used in hover labels.
        view: one of `VIEWS`.
        name: the trace name (shown in the hover box).
        color: bar colour; a neutral grey by default.

    Returns:
        A figure with one bar trace; customdata rows hold [hover line, exact fraction].

    >>> fig = distribution_figure(Dist.uniform(range(1, 7)), title="One die", x_title="pips")
    >>> fig.data[0].customdata[2][0]
    'P(pips = 3) = 16.67% (1/6)'
    >>> fig.layout.annotations[0].text
    'mean 3.50'
    """
    color = color or _NEUTRAL
    layout = style(title, x_title)
    _mark_mean(layout, dist.mean(), color)
    return figure([_bar(dist, view, x_title, name, color)], layout)


def sides_figure(attacker_dist: Dist[int], defender_dist: Dist[int], *, title: str, x_title: str,
                 view: View = "exactly") -> go.Figure:
    """Grouped bars of the same quantity for both sides, each side's mean marked.

    Args:
        attacker_dist: the attacker's distribution.
        defender_dist: the defender's distribution.
        title: the chart title.
        x_title: what the outcome counts.
        view: one of `VIEWS`.

    Returns:
        A figure with traces named "attacker" and "defender".

    >>> fig = sides_figure(Dist.single(1), Dist.uniform([0, 2]), title="Damage taken", x_title="damage")
    >>> [t.name for t in fig.data], fig.data[1].y
    (['attacker', 'defender'], (0.5, 0.0, 0.5))
    """
    layout = style(title, x_title, barmode="group")
    traces = []
    for row, (side, dist) in enumerate((("attacker", attacker_dist), ("defender", defender_dist))):
        traces.append(_bar(dist, view, x_title, side, SIDE_COLORS[side]))
        _mark_mean(layout, dist.mean(), SIDE_COLORS[side], side, row)
    return figure(traces, layout)


def compare_figure(dist_a: Dist[int] | None, dist_b: Dist[int], *,
                   labels: tuple[str, str] = ("A (pinned)", "B (current)"), title: str, x_title: str,
                   view: View = "exactly") -> go.Figure:
    """Two scenarios overlaid: A as wide outlined bars, B as narrower solid bars; both means marked.

    With nothing pinned (`dist_a` None) only the current scenario is drawn, named as such: no grey
    bars that look like a comparison.

    Args:
        dist_a: the pinned scenario's distribution, or None when nothing is pinned.
        dist_b: the current scenario's distribution.
        labels: trace names of A and B.
        title: the chart title.
        x_title: what the outcome counts.
        view: one of `VIEWS`.

    Returns:
        A figure with two bar traces, A first (one, the current, with nothing pinned).

    >>> fig = compare_figure(Dist.single(2), Dist.uniform([1, 3]), title="Hits", x_title="hits")
    >>> [t.name for t in fig.data], [s.x0 for s in fig.layout.shapes]
    (['A (pinned)', 'B (current)'], [2.0, 2.0])
    >>> [t.name for t in compare_figure(None, Dist.single(2), title="Hits", x_title="hits").data]
    ['current (nothing pinned)']
    """
    layout = style(title, x_title, barmode="overlay")
    if dist_a is None:
        _mark_mean(layout, dist_b.mean(), SIDE_COLORS["defender"], "current", 0)
        return figure([_bar(dist_b, view, x_title, "current (nothing pinned)", SIDE_COLORS["defender"],
                            width=0.6)], layout)
    pinned = _bar(dist_a, view, x_title, labels[0], _PINNED, width=0.85)
    pinned["marker"]["line"] = {"color": _NEUTRAL, "width": 2}
    _mark_mean(layout, dist_a.mean(), _NEUTRAL, labels[0], 0)
    _mark_mean(layout, dist_b.mean(), SIDE_COLORS["defender"], labels[1], 1)
    return figure([pinned, _bar(dist_b, view, x_title, labels[1], SIDE_COLORS["defender"], width=0.45)], layout)


def waiting_figure(title: str, message: str) -> go.Figure:
    """A chart with nothing to show yet: no axes, no data, only what to do (an honest empty state).

    >>> fig = waiting_figure("Sweep", "Press Run sweep")
    >>> len(fig.data), fig.layout.annotations[0].text, fig.layout.xaxis.visible
    (0, 'Press Run sweep', False)
    """
    layout = style(title, "")
    layout["xaxis"] = {"visible": False}
    layout["yaxis"] = {"visible": False}
    text = "<br>".join(escape_text(line) for line in message.split("\n"))  # one line per line of `message`
    layout["annotations"] = [{"text": text, "showarrow": False, "xref": "paper", "yref": "paper",
                              "x": 0.5, "y": 0.5, "font": {"size": 15, "color": _NEUTRAL}}]
    return figure([], layout)


def _is_chance(outcome_title: str) -> bool:
    return outcome_title.startswith("P(") or outcome_title.lower().startswith("chance")


def sweep_heatmap(x_values: Sequence[Any], y_values: Sequence[Any], z: Sequence[Sequence[float | Fraction]], *,
                  x_title: str, y_title: str, outcome_title: str) -> go.Figure:
    """A heatmap of one outcome over a grid of two settings, the value written in each cell.

    Args:
        x_values: settings along the x axis.
        y_values: settings along the y axis.
        z: one row per y value, each with one value per x value (floats or Fractions).
        x_title: name of the x setting.
        y_title: name of the y setting.
        outcome_title: what the cells hold; a chance ("P(...)" or "chance ...") is shown as a percent.

    Raises:
        ValueError: `z` does not have len(y_values) rows of len(x_values).

    >>> fig = sweep_heatmap([1, 2], [0], [[Fraction(1, 4), 0.5]], x_title="dice", y_title="rerolls",
    ...                     outcome_title="P(win)")
    >>> [list(row) for row in fig.data[0].z], fig.data[0].texttemplate
    ([[0.25, 0.5]], '%{z:.0%}')
    """
    if len(z) != len(y_values) or any(len(row) != len(x_values) for row in z):
        raise ValueError(f"z must have {len(y_values)} rows of {len(x_values)} values")
    fmt = ".1%" if _is_chance(outcome_title) else ".3f"
    x_label, y_label, z_label = escape_text(x_title), escape_text(y_title), escape_text(outcome_title)
    trace = {
        "type": "heatmap", "x": [escape_text(v) if isinstance(v, str) else v for v in x_values],
        "y": [escape_text(v) if isinstance(v, str) else v for v in y_values], "z": [[float(v) for v in row] for row in z],
        "colorscale": BLUES, "texttemplate": "%{z:.0%}" if fmt == ".1%" else "%{z:.2f}",
        "colorbar": {"title": {"text": z_label, "side": "right"},
                     "tickformat": PERCENT_TICKS if fmt == ".1%" else ""},
        "hovertemplate": f"{x_label} = %{{x}}<br>{y_label} = %{{y}}<br>{z_label} = %{{z:{fmt}}}<extra></extra>",
    }
    layout = style(f"{outcome_title} by {x_title} and {y_title}", x_title, y_title, percent_y=False,
                    xaxis={"type": "category"}, yaxis={"type": "category"})
    return figure([trace], layout)


def symbols_figure(totals: Dist[tuple[int, int]], *, title: str = "Hits and blocks") -> go.Figure:
    """Joint heatmap of (hits, blocks): one cell per combination, exact fractions in the hover.

    Args:
        totals: the joint distribution of (hits, blocks).
        title: the chart title.

    Returns:
        A heatmap with z[blocks][hits], rows from the fewest blocks to the most.

    >>> coin = Dist.uniform([(1, 0), (0, 1)])
    >>> fig = symbols_figure(coin)
    >>> [list(row) for row in fig.data[0].z], fig.data[0].customdata[0][1]
    ([[0.0, 0.5], [0.5, 0.0]], 'P(hits = 1, blocks = 0) = 50.00% (1/2)')
    """
    hits = range(min(h for h, _ in totals), max(h for h, _ in totals) + 1)
    blocks = range(min(b for _, b in totals), max(b for _, b in totals) + 1)
    exact = [[totals.probability((h, b)) for h in hits] for b in blocks]
    trace = {
        "type": "heatmap", "x": list(hits), "y": list(blocks), "z": [[float(p) for p in row] for row in exact],
        "text": [[_cell_text(p) for p in row] for row in exact], "texttemplate": "%{text}",
        "customdata": [[f"P(hits = {h}, blocks = {b}) = {percent(p)} ({p})" for h, p in zip(hits, row)]
                       for b, row in zip(blocks, exact)],
        "hovertemplate": "%{customdata}<extra></extra>", "colorscale": BLUES,
        "colorbar": {"title": {"text": "probability"}, "tickformat": PERCENT_TICKS},
    }
    return figure([trace], style(title, "hits", "blocks", percent_y=False, yaxis={"dtick": 1}))
