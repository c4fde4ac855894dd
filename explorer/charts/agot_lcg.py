"""Figures of A Game of Thrones: the power through a round, and who wins a challenge by STR.

Pure functions from the core's results (`explorer.games.agot_lcg`) to plotly figures; no widgets.
Text that may come from the user (the steps' labels) is escaped (`explorer.charts.kit.escape_text`).
The card-odds charts use `explorer.charts.kit.distribution_figure` on the odds helpers' `Dist`s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go

from explorer.charts.kit import escape_text, figure, style
from explorer.games.agot_lcg import RoundResult, WinnerGrid, round_trace

__all__ = ["PLAYER_COLORS", "ROUND_CHARTS", "WINNER_COLORS", "power_figure", "round_figures", "step_label",
           "winner_heatmap"]

PLAYER_COLORS = {"first": "#c0392b", "second": "#2e6da4"}
"""One colour per player, the same in every chart."""

WINNER_COLORS = [[0.0, "#2e6da4"], [0.5, "#e5e7e9"], [1.0, "#c0392b"]]
"""Heatmap colours: defender wins (-1) blue, no winner (0) grey, attacker wins (1) red."""

ROUND_CHARTS = ("power_through_the_round", "who_wins_by_strength")
"""The round charts, in the order the panel lays them out (their keys, read as words where a chart is picked)."""


def step_label(row: Mapping[str, Any]) -> str:
    """A step of the round on the power chart's axis: the challenge's name, what happened, the rule's step.

    >>> step_label({"title": "Power challenge 2", "step": "4.2.3", "event": "unopposed bonus: +1 power"})
    'Power challenge 2: unopposed bonus (4.2.3)'
    >>> step_label({"title": "Dominance", "step": "5.2", "event": "first 3, second 4: second gains 1 power"})
    'Dominance (5.2)'
    """
    if row["title"] == "Dominance":
        return escape_text(f"Dominance ({row['step']})")
    what = str(row["event"]).split(":", 1)[0]
    return escape_text(f"{row['title']}: {what} ({row['step']})")


def _unique(label: str, labels: list[str]) -> str:
    """`label`, numbered if the axis has it already (a category axis would merge the two points)."""
    if label not in labels:
        return label
    return next(f"{label} #{n}" for n in range(2, len(labels) + 2) if f"{label} #{n}" not in labels)


def power_figure(result: RoundResult) -> go.Figure:
    """Each player's power after every step of the round that changed it, from the start to dominance.

    >>> from explorer.games.agot_lcg.round.scenario import parse_round
    >>> from explorer.games.agot_lcg.round.phase import play_round
    >>> q = parse_round({"players": {"first": {"faction": 2, "claim": 1, "characters": [
    ...     {"name": "Ned", "str": 4, "icons": ["power"]}]}, "second": {"faction": 3, "characters": []}},
    ...     "challenges": [{"attacker": "first", "type": "power", "attackers": ["Ned"]}]})
    >>> fig = power_figure(play_round(q.round))
    >>> [t.name for t in fig.data], fig.data[0].y[0], fig.data[0].y[-1]
    (['first', 'second'], 2, 4)
    >>> fig.data[0].x[1]
    'Power challenge 1: unopposed bonus (4.2.3)'

    """
    before = result.round.board.totals()
    labels, points = ["start"], [dict(before)]
    for row in round_trace(result):
        if row["power"] and row["power"] != points[-1]:
            labels.append(_unique(step_label(row), labels))
            points.append(dict(row["power"]))
    if result.after.totals() != points[-1]:
        labels.append(_unique("end of the round", labels))
        points.append(result.after.totals())
    traces: list[dict[str, Any]] = []
    for key in result.round.board.keys:
        ys = [p[key] for p in points]
        name = escape_text(key)
        traces.append({"type": "scatter", "mode": "lines+markers", "name": name, "x": labels, "y": ys,
                       "line": {"color": PLAYER_COLORS.get(key, "#555555"), "shape": "hv"},
                       "hovertemplate": f"{name}: %{{y}} power<br>after %{{x}}<extra></extra>"})
    layout = style("Power through the round (15 wins)", "after step", "power", percent_y=False,
                    xaxis={"type": "category", "dtick": None, "tickangle": -30, "title": {"text": ""}},
                    yaxis={"rangemode": "tozero"})
    layout["shapes"].append({"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": 15, "y1": 15,
                             "line": {"color": "#7d6608", "dash": "dot", "width": 1}})
    return figure(traces, layout)


def winner_heatmap(grid: WinnerGrid) -> go.Figure:
    """Who wins a challenge over attacker STR (rows) x defender STR (columns), the rule in every hover.

    >>> from explorer.games.agot_lcg.challenge.grid import winner_grid
    >>> fig = winner_heatmap(winner_grid(2, 2))
    >>> fig.data[0].z[1][1], fig.data[0].customdata[1][1]
    (1, 'attacker (tie: attacker)')
    """
    custom = [[f"{w} ({r})" if w != "none" else f"no winner ({r.split(': ')[0]})" for w, r in zip(wr, rr)]
              for wr, rr in zip(grid.winners, grid.reasons)]
    text = [[{"attacker": "A", "defender": "D", "none": "-"}[w] for w in row] for row in grid.winners]
    trace = {"type": "heatmap", "x": list(grid.defender_str), "y": list(grid.attacker_str),
             "z": [list(row) for row in grid.codes], "zmin": -1, "zmax": 1, "colorscale": WINNER_COLORS,
             "showscale": False, "text": text, "texttemplate": "%{text}", "customdata": custom,
             "hovertemplate": "attacker STR %{y}, defender STR %{x}<br>winner: %{customdata}<extra></extra>"}
    layout = style("Who wins the challenge, by strength (STR)",
                    "defender STR", "attacker STR", percent_y=False, yaxis={"dtick": 1})
    layout["annotations"].append({"text": "A attacker, D defender, - no one<br>a tie goes to the attacker<br>0 STR wins nothing (p.23)",
                                  "showarrow": False, "align": "left", "xanchor": "left",
                                  "xref": "paper", "yref": "paper", "x": 0, "y": 1.0, "yanchor": "bottom",
                                  "font": {"size": 11, "color": "#5d6d7e"}})
    return figure([trace], layout)


def round_figures(result: RoundResult, grid: WinnerGrid) -> dict[str, go.Figure]:
    """The round's charts by name (`ROUND_CHARTS`)."""
    return dict(zip(ROUND_CHARTS, (power_figure(result), winner_heatmap(grid))))
