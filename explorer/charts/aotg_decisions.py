"""Assault of the Giants decision charts: which command row to attack with, which dice to reroll.

Pure functions from the advisor's exact values to Plotly figures. Card names are the user's
text: they are escaped, so a name reaches the chart as text, never as markup or a link.
"""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from explorer.charts.kit import HEIGHT, escape_text, figure, style
from explorer.games.assault_of_the_giants import Alternative, Objective, RowOption

__all__ = ["OBJECTIVE_LABELS", "row_label", "row_advice_figure", "reroll_advice_figure"]

OBJECTIVE_LABELS: dict[Objective, str] = {
    "ordning-points": "expected Ordning Points earned",
    "net-ordning-points": "expected Ordning Points, earned minus conceded",
    "damage": "expected damage dealt",
    "wipe-out": "chance to wipe out the enemy army",
}
"""How each objective reads on an axis."""

_TURN_COLORS = ("#c0392b", "#e67e22", "#f1c40f", "#7f8c8d", "#95a5a6")


def row_label(option: RowOption) -> str:
    """The cards played from hand, Attack last ("attack now" when none come first).

    >>> from fractions import Fraction
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> row_label(RowOption(("Leader", "Trade", "Attack"), 1, Modifiers(2, 2, 0), Fraction(1)))
    'Trade → Attack'
    """
    if not option.extra_cards:
        return "attack now"
    return " → ".join(escape_text(c) for c in option.played)


def _fmt(value: float, objective: Objective) -> str:
    return f"{value:.1%}" if objective == "wipe-out" else f"{value:.3f}"


def row_advice_figure(options: Sequence[RowOption], objective: Objective) -> go.Figure:
    """One bar per row the attacker can reach, best first, coloured by cards played before Attack.

    >>> from fractions import Fraction
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> fig = row_advice_figure([RowOption(("Leader", "Attack"), 0, Modifiers(1, 1, 0), Fraction(3, 2))], "damage")
    >>> fig.data[0].y, fig.data[0].x
    (('attack now',), (1.5,))
    """
    labels = [row_label(o) for o in options]
    seen: dict[str, int] = {}
    for i, label in enumerate(labels):   # equal labels (same cards, other order) get the whole row
        seen[label] = seen.get(label, 0) + 1
    labels = [label if seen[label] == 1 else " · ".join(escape_text(c) for c in o.row) for label, o in zip(labels, options)]
    values = [float(o.value) for o in options]
    hover = [f"row: {' · '.join(escape_text(c) for c in o.row)}<br>{o.extra_cards} card(s) before Attack<br>"
             f"{o.modifiers.rerolls} rerolls, {o.modifiers.arcane_to_hits} arcane → 2 hits, "
             f"{o.modifiers.arcane_to_blocks} arcane → block<br>{OBJECTIVE_LABELS.get(objective, objective)}: "
             f"{_fmt(v, objective)} ({o.value})" for o, v in zip(options, values)]
    trace = {"type": "bar", "orientation": "h", "y": labels, "x": values, "customdata": hover,
             "hovertemplate": "%{customdata}<extra></extra>", "name": "row",
             "marker": {"color": [_TURN_COLORS[min(o.extra_cards, len(_TURN_COLORS) - 1)] for o in options]},
             "text": [_fmt(v, objective) for v in values], "textposition": "auto"}
    layout = style("Attack now, or play cards first? (colour: cards before Attack)",
                    OBJECTIVE_LABELS.get(objective, objective), "", percent_y=False,
                    height=max(HEIGHT, 90 + 28 * len(options)),
                    xaxis={"dtick": None, "rangemode": "tozero", **({"tickformat": ".0%"} if objective == "wipe-out" else {})},
                    yaxis={"autorange": "reversed", "type": "category", "automargin": True}, showlegend=False)
    return figure([trace], layout)


def reroll_advice_figure(options: Sequence[Alternative], dice: Sequence[str], objective: Objective) -> go.Figure:
    """One bar per choice of dice to reroll, best first (the best one darker).

    >>> from fractions import Fraction
    >>> a = Alternative((0,), ((0, 0, 0),), Fraction(2), (Fraction(2),), True)
    >>> reroll_advice_figure([a], ["basic"], "damage").data[0].y
    ('die 1 (basic)',)
    """
    labels = [", ".join(f"die {i + 1} ({escape_text(dice[i])})" for i in o.reroll) or "keep all" for o in options]
    values = [float(o.value) for o in options]
    trace = {"type": "bar", "orientation": "h", "y": labels, "x": values, "name": "choice",
             "marker": {"color": ["#1b4f72" if o.best else "#85c1e9" for o in options]},
             "text": [_fmt(v, objective) for v in values], "textposition": "auto",
             "customdata": [f"{label}<br>{OBJECTIVE_LABELS.get(objective, objective)}: {_fmt(v, objective)} ({o.value})"
                            for label, v, o in zip(labels, values, options)],
             "hovertemplate": "%{customdata}<extra></extra>"}
    layout = style("Which dice to reroll? (best first)", OBJECTIVE_LABELS.get(objective, objective), "",
                    percent_y=False, height=max(HEIGHT, 90 + 26 * len(options)), showlegend=False,
                    xaxis={"dtick": None, "rangemode": "tozero"},
                    yaxis={"autorange": "reversed", "type": "category", "automargin": True})
    return figure([trace], layout)
