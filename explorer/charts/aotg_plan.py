"""Assault of the Giants plan charts: points, win chances and armies over a plan of battles.

Pure functions from a `PlanResult` to Plotly figures; player and army names are the user's text
and are escaped (`common.escape_text`).
"""

from __future__ import annotations

import plotly.graph_objects as go

from explorer.charts.kit import HEIGHT, PERCENT_TICKS, escape_text, figure, percent, style
from explorer.games.assault_of_the_giants import PlanResult

__all__ = ["plan_figures", "PLAYER_COLORS"]

PLAYER_COLORS = ("#c0392b", "#2e6da4", "#27ae60", "#8e44ad", "#d35400", "#16a085")
"""One colour per player, in the plan's order."""


def _points_figure(result: PlanResult) -> go.Figure:
    traces = []
    for n, player in enumerate(result.plan.players):
        dist = result.points(player)
        xs = sorted(dist)
        ps = [dist.probability(x) for x in xs]
        traces.append({"type": "bar", "x": xs, "y": [float(p) for p in ps], "name": escape_text(player),
                       "marker": {"color": PLAYER_COLORS[n % len(PLAYER_COLORS)]},
                       "customdata": [f"{escape_text(player)}: P(points = {x}) = {percent(p)} ({p})" for x, p in zip(xs, ps)],
                       "hovertemplate": "%{customdata}<extra></extra>"})
    return figure(traces, style("Ordning Points at the end of the plan", "Ordning Points", barmode="group",
                                  xaxis={"dtick": None}))


def _wins_figure(result: PlanResult) -> go.Figure:
    chances = result.win_chances()
    players = list(result.plan.players)
    labels = [escape_text(p) for p in players]
    traces = []
    for key, name, color in (("wins", "wins alone", "#1e8449"), ("shares", "shares the victory", "#a9dfbf")):
        ps = [chances[p][key] for p in players]
        traces.append({"type": "bar", "orientation": "h", "y": labels, "x": [float(p) for p in ps], "name": name,
                       "marker": {"color": color},
                       "customdata": [f"{label}: {name} {percent(p)} ({p})" for label, p in zip(labels, ps)],
                       "hovertemplate": "%{customdata}<extra></extra>"})
    layout = style("Who wins? (points, then Resource Cards, then regions, p.20)", "chance", "", percent_y=False,
                    barmode="stack", height=max(HEIGHT, 110 + 30 * len(players)),
                    margin={"t": 84},  # the legend under the long title, not over it (half-width chart)
                    legend={"traceorder": "normal"},  # "wins alone" first, as the bars stack
                    xaxis={"tickformat": PERCENT_TICKS, "range": [0, 1], "dtick": 0.25},
                    yaxis={"autorange": "reversed", "type": "category", "automargin": True})
    return figure(traces, layout)


def _armies_figure(result: PlanResult) -> go.Figure:
    steps = ["start"] + [f"after {i + 1}" for i in range(len(result.plan.battles))]
    traces = []
    for n, army in enumerate(result.plan.armies):
        ps = [1 - result.wiped_out(army.name, after) for after in range(-1, len(result.plan.battles))]
        traces.append({"type": "scatter", "mode": "lines+markers", "x": steps, "y": [float(p) for p in ps],
                       "name": escape_text(army.name), "line": {"color": PLAYER_COLORS[n % len(PLAYER_COLORS)]},
                       "customdata": [f"{escape_text(army.name)} {s}: still fighting {percent(p)}" for s, p in zip(steps, ps)],
                       "hovertemplate": "%{customdata}<extra></extra>"})
    return figure(traces, style("Armies still on the board, battle by battle", "", "chance some unit is left",
                                  xaxis={"dtick": None, "type": "category"}, yaxis={"range": [0, 1.05]}))


def plan_figures(result: PlanResult) -> dict[str, go.Figure]:
    """The three charts of a plan: ``points``, ``wins`` and ``armies``.

    >>> import json
    >>> from explorer.games.assault_of_the_giants.plan.scenario import parse_plan
    >>> from explorer.games.assault_of_the_giants.plan.result import resolve_plan
    >>> figs = plan_figures(resolve_plan(parse_plan(json.load(open("examples/aotg-plan.json")))))
    >>> sorted(figs), len(figs["wins"].data)
    (['armies', 'points', 'wins'], 2)
    """
    return {"points": _points_figure(result), "wins": _wins_figure(result), "armies": _armies_figure(result)}
