"""Assault of the Giants figures: the casualty chart and the four charts of one battle."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import plotly.graph_objects as go

from explorer.charts.kit import HEIGHT, PERCENT_TICKS, View, escape_text, figure, percent, sides_figure, style
from explorer.games.assault_of_the_giants import BattleResult, Status

__all__ = ["STATUS_COLORS", "STATUS_PATTERNS", "casualties_figure", "battle_figures"]

STATUS_COLORS: Mapping[Status, str] = {
    Status.HEALTHY: "#88ccee", Status.WOUNDED: "#ee7733", Status.DEFEATED: "#882255",
}
"""Light blue, orange and wine for a unit's status after the battle, from Paul Tol's colour-blind-safe
schemes and light to dark in that order. The former green and red became one olive under
deuteranopia (colour difference 89 -> 21); these keep 49 or more apart under deuteranopia and
protanopia alike. A pattern (`STATUS_PATTERNS`) tells them apart as well, never colour alone."""

STATUS_PATTERNS: Mapping[Status, str] = {Status.HEALTHY: "", Status.WOUNDED: "/", Status.DEFEATED: "x"}
"""Bar patterns per status: none, stripes, crosses."""


def _unit_labels(result: BattleResult) -> list[tuple[str, int, str, int]]:
    """(side, unit index, label, Fortitude now) per unit; repeated names are numbered 1, 2, ...

    Labels are escaped (`escape_text`): a unit's name is the user's text, shown as typed.
    """
    rows = [(side, i, unit.name, unit.current_fortitude) for side in ("attacker", "defender")
            for i, unit in enumerate(getattr(result.battle, side).units)]
    totals = Counter((side, name) for side, _, name, _ in rows)
    seen: Counter[tuple[str, str]] = Counter()
    labels = []
    for side, i, name, fortitude in rows:
        seen[side, name] += 1
        suffix = f" {seen[side, name]}" if totals[side, name] > 1 else ""
        labels.append((side, i, escape_text(f"{side}: {name}{suffix}"), fortitude))
    return labels


def casualties_figure(result: BattleResult) -> go.Figure:
    """Horizontal stacked bars: each unit's chance to end the battle healthy, wounded or defeated.

    Args:
        result: a resolved battle.

    Returns:
        A figure with traces "healthy", "wounded", "defeated"; one bar per unit, top to bottom
        the attacker's units then the defender's.

    >>> from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
    >>> result = resolve_battle(parse_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"name": "Hill giant", "fortitude": 1, "ordning_value": 1}]}}))
    >>> fig = casualties_figure(result)
    >>> fig.data[2].name, fig.data[2].y, fig.data[2].x
    ('defeated', ('defender: Hill giant',), (0.5,))
    """
    units = _unit_labels(result)
    traces = []
    for status in Status:
        ps = [getattr(result, side).unit_status(i).probability(status) for side, i, _, _ in units]
        traces.append({
            "type": "bar", "y": [label for _, _, label, _ in units], "x": [float(p) for p in ps],
            "orientation": "h", "name": status.value,
            "marker": {"color": STATUS_COLORS[status],
                       "pattern": {"shape": STATUS_PATTERNS[status], "fgcolor": "#ffffff", "solidity": 0.3}},
            "customdata": [f"{label} (Fortitude {f})<br>{status.value}: {percent(p)} ({p})"
                           for (_, _, label, f), p in zip(units, ps)],
            "hovertemplate": "%{customdata}<extra></extra>",
        })
    layout = style("Casualties", "probability", "", percent_y=False, barmode="stack",
                    height=max(HEIGHT, 110 + 26 * len(units)), legend={"traceorder": "normal"},
                    xaxis={"tickformat": PERCENT_TICKS, "range": [0, 1], "dtick": 0.25},
                    yaxis={"autorange": "reversed", "type": "category"})
    if not units:
        layout["annotations"].append({"text": "no units in this battle", "showarrow": False, "x": 0.5, "y": 0.5,
                                      "xref": "paper", "yref": "paper"})
    return figure(traces, layout)


def battle_figures(result: BattleResult, view: View = "exactly") -> dict[str, go.Figure]:
    """The four charts of one battle.

    Args:
        result: a resolved battle.
        view: one of `VIEWS` (the casualty chart has no view).

    Returns:
        Figures under "hits", "damage", "casualties" and "ordning_points".

    >>> from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
    >>> result = resolve_battle(parse_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 2}]}}))
    >>> sorted(battle_figures(result))
    ['casualties', 'damage', 'hits', 'ordning_points']
    """
    atk, dfn = result.attacker, result.defender
    return {
        "hits": sides_figure(atk.hits, dfn.hits, title="Hits after rerolls and conversions",
                             x_title="hits", view=view),
        "damage": sides_figure(atk.damage_taken, dfn.damage_taken, title="Damage taken",
                               x_title="damage", view=view),
        "casualties": casualties_figure(result),
        "ordning_points": sides_figure(atk.ordning_points, dfn.ordning_points, title="Ordning Points earned",
                                       x_title="Ordning Points", view=view),
    }
