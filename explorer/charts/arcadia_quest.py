"""Arcadia Quest figures: the four charts of one encounter (one hero action and the reactions to it).

* ``monster_wounds``: the wounds the hero's attack deals, each bar coloured by what it does to the
  target (survives, killed but still paying back, overkilled), with its Life left and Overkill marked;
* ``kill``: the chances that the target survives, is killed but not overkilled, or is overkilled;
* ``hero_wounds``: the wounds the hero takes from the Payback and the Guard attacks (capped at his
  Life left: he is killed then), his Life left marked;
* ``outcomes``: the four ends of the action (kill or not, hero killed or not), P(hero survives) in
  the title.

Pure: results in, figures out; exact `Fraction`s become floats here only. Hero and monster names
are the user's text: escaped (`explorer.charts.kit.escape_text`) wherever they reach a figure.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import plotly.graph_objects as go

from explorer.charts.kit import View, escape_text, exact_values, figure, hover_lines, percent, style
from explorer.games.arcadia_quest import EncounterResult

__all__ = [
    "ENCOUNTER_CHARTS", "OUTCOME_COLORS", "encounter_figures", "hero_wounds_figure", "kill_figure",
    "monster_wounds_figure", "outcomes_figure", "shown_range",
]

ENCOUNTER_CHARTS = ("monster_wounds", "kill", "hero_wounds", "outcomes")
"""The charts of one encounter, in page order (keys of `encounter_figures`)."""

OUTCOME_COLORS = {"survives": "#bbbbbb", "killed": "#ee7733", "overkilled": "#882255",
                  "hero safe": "#88ccee", "hero killed": "#882255"}
"""Light grey: the target survives; orange: killed, still pays back; dark purple: overkilled or the
hero killed. Colour-blind-safe (Paul Tol's schemes), and light to dark in that order, so the
outcomes differ in lightness too, whatever colours a reader sees."""

_KILL_BARS = (("survives", "survives"), ("killed, not overkilled", "killed"), ("overkilled", "overkilled"))
_ENDS = (("kills it, survives", "#4477aa"), ("kills it, is killed", "#ee7733"),
         ("no kill, survives", "#bbbbbb"), ("no kill, is killed", "#882255"))
_END_HOVER = ("kills the {} and survives", "kills the {} but is killed", "does not kill the {} and survives",
              "does not kill the {} and is killed")
TAIL = Fraction(1, 1000)
"""The wounds axis stops where less than this chance lies further right (the bars there still exist)."""


def shown_range(result: EncounterResult) -> int:
    """The largest wound count the wounds chart shows at first: past Life left and Overkill, and past
    all but `TAIL` of the chance (CRIT chains make the tail endless, and the bars there invisible).

    >>> from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
    >>> result = resolve_encounter(parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                                             "target": {"preset": "Orc Marauder"}}))
    >>> shown_range(result) >= 3
    True
    """
    target, dist = result.encounter.target, result.monster_wounds
    top = max(target.life_left, target.overkill or 0)
    while dist.at_least(top + 1) > TAIL:
        top += 1
    return top


def _marker(layout: dict[str, Any], x: float, text: str, color: str, row: int, *, right: bool,
            dash: str = "dot") -> None:
    """A vertical line labelled at the top (rows stacked by `row`; the label left of it if `right`)."""
    layout["shapes"].append({"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "paper",
                             "line": {"color": color, "dash": dash, "width": 2}})
    layout["annotations"].append({"x": x, "xref": "x", "y": 1 - 0.11 * row, "yref": "paper",
                                  "xanchor": "right" if right else "left", "yanchor": "top", "text": text,
                                  "showarrow": False, "font": {"color": color, "size": 11},
                                  "bgcolor": "rgba(255,255,255,0.8)"})


def _marks(layout: dict[str, Any], top: int, mean: Fraction, lines: list[tuple[float, str, str]]) -> None:
    """The mean (dashed) and each (x, label, colour) line (dotted), labels kept inside the plot."""
    _marker(layout, float(mean), f"mean {float(mean):.2f}", "#555555", 0, right=float(mean) > top / 2, dash="dash")
    for row, (x, text, color) in enumerate(lines, 1):
        _marker(layout, x, text, color, row, right=x > top / 2)


def monster_wounds_figure(result: EncounterResult, view: View = "exactly") -> go.Figure:
    """Wounds the hero's attack deals to the target, coloured by what they do, Life left and Overkill marked.

    Args:
        result: a resolved encounter.
        view: one of `explorer.charts.kit.VIEWS`.

    Returns:
        One bar trace named "wounds dealt" (every outcome, the endless tail included; the x axis
        starts out at `shown_range`).

    >>> from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
    >>> result = resolve_encounter(parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                                             "target": {"preset": "Orc Marauder"}}))
    >>> fig = monster_wounds_figure(result)
    >>> fig.data[0].x[:4], [a.text for a in fig.layout.annotations][1:]
    ((0, 1, 2, 3), ['Life left 2: killed', 'Overkill 3: no Payback'])
    """
    enc = result.encounter
    target = enc.target
    name = escape_text(target.name)
    dist = result.monster_wounds
    xs, ps = exact_values(dist, view)
    kinds = ["overkilled" if target.overkilled_by(x) else "killed" if x >= target.life_left else "survives" for x in xs]
    pays = "may still be the one that pays back (p.21)" if enc.also_targets else "still pays back"
    what = {"overkilled": "overkilled, no Payback", "killed": f"killed, {pays}" if enc.pays_back(target.life_left)
            else "killed", "survives": "survives"}
    by_view: dict[View, dict[int | None, str]] = {
        "exactly": {x: f"{name} {what[k]}" for x, k in zip(xs, kinds)},
        "at least": {target.life_left: "= P(killed)", target.overkill: "= P(overkilled)"},
        "at most": {target.life_left - 1: "= P(it survives)"}}
    notes = by_view[view]
    hover = [[f"{line}<br>{notes[x]}" if x in notes else line, exact]
             for x, (line, exact) in zip(xs, hover_lines("wounds", view, xs, ps))]
    trace = {"type": "bar", "x": xs, "y": [float(p) for p in ps], "name": "wounds dealt",
             "marker": {"color": [OUTCOME_COLORS[k] for k in kinds]}, "customdata": hover,
             "hovertemplate": "%{customdata[0]}<extra></extra>"}
    top = shown_range(result)
    layout = style(f"Wounds dealt to the {target.name}", "wounds the attack deals", xaxis={"range": [-0.5, top + 0.5]})
    lines = [(target.life_left - 0.5, f"Life left {target.life_left}: killed", OUTCOME_COLORS["killed"])]
    if target.overkill is not None:
        lines.append((target.overkill - 0.5, f"Overkill {target.overkill}: no Payback", OUTCOME_COLORS["overkilled"]))
    _marks(layout, top, dist.mean(), lines)
    return figure([trace], layout)


def kill_figure(result: EncounterResult) -> go.Figure:
    """Survives / killed but not overkilled / overkilled: three bars that add up to 1 (less the cut).

    >>> from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
    >>> result = resolve_encounter(parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                                             "target": {"preset": "Lord Fang"}}))
    >>> fig = kill_figure(result)
    >>> fig.data[0].x, fig.data[0].y[2]
    (('survives', 'killed, not overkilled', 'overkilled'), 0.0)
    """
    enc = result.encounter
    target = enc.target
    kill, overkill = result.kill, result.overkill
    ps = [1 - kill - result.cut, kill - overkill, overkill]
    name = escape_text(target.name)
    one = " (or another targeted Monster does: only one pays back, the opponent's choice, p.21)" if enc.also_targets else ""
    notes = [f"{name} survives: it may pay back{one}" if enc.pays_back(0) and one else
             f"{name} survives: it pays back" if enc.pays_back(0) else f"{name} survives",
             f"killed but not overkilled: it may still pay back, then leaves{one}" if enc.pays_back(target.life_left)
             and one else "killed but not overkilled: it still pays back, then leaves (p.21)"
             if enc.pays_back(target.life_left) else "killed but not overkilled",
             "overkilled: removed at once, no Payback (p.21)" if target.overkill is not None
             else f"{name} has no Overkill rating: never overkilled"]
    labels = [label for label, _ in _KILL_BARS]
    trace = {"type": "bar", "x": labels, "y": [float(p) for p in ps], "name": "chance",
             "marker": {"color": [OUTCOME_COLORS[k] for _, k in _KILL_BARS]},
             "text": [percent(p) for p in ps], "textposition": "auto",
             "customdata": [f"{note}<br>{percent(p)} ({p})" if p.denominator < 10**6 else f"{note}<br>{percent(p)}"
                            for note, p in zip(notes, ps)],
             "hovertemplate": "%{customdata}<extra></extra>"}
    title = f"Killed {percent(kill)} · overkilled {percent(overkill)}"
    layout = style(title, "", xaxis={"type": "category"}, yaxis={"range": [0, 1]})
    del layout["xaxis"]["dtick"]
    return figure([trace], layout)


def hero_wounds_figure(result: EncounterResult, view: View = "exactly") -> go.Figure:
    """Wounds the hero takes from the Payback and the Guard attacks, his Life left marked (killed there)."""
    enc = result.encounter
    hero = enc.hero
    name = escape_text(hero.name)
    dist = result.hero_wounds
    xs, ps = exact_values(dist, view)
    killed = [x >= hero.life_left for x in xs]
    notes = {"exactly": {x: f"{name} {'is killed' if dead else 'survives'}" for x, dead in zip(xs, killed)},
             "at least": {hero.life_left: f"= P({name} is killed)"},
             "at most": {hero.life_left - 1: f"= P({name} survives)"}}[view]
    hover = [[f"{line}<br>{notes[x]}" if x in notes else line, exact]
             for x, (line, exact) in zip(xs, hover_lines("wounds", view, xs, ps))]
    trace = {"type": "bar", "x": xs, "y": [float(p) for p in ps], "name": "wounds taken",
             "marker": {"color": [OUTCOME_COLORS["hero killed" if dead else "hero safe"] for dead in killed]},
             "customdata": hover, "hovertemplate": "%{customdata[0]}<extra></extra>"}
    top = max(hero.life_left, max(xs))
    layout = style(f"Wounds {hero.name} takes", "wounds from the Payback and Guard attacks",
                    xaxis={"range": [-0.5, top + 0.5]})
    _marks(layout, top, dist.mean(),
           [(hero.life_left - 0.5, f"Life left {hero.life_left}: killed", OUTCOME_COLORS["hero killed"])])
    return figure([trace], layout)


def outcomes_figure(result: EncounterResult) -> go.Figure:
    """The four ends of the action: the target killed or not, the hero killed or not (P(hero survives) in the title)."""
    enc = result.encounter
    kill_and_dead = result.hero_killed - result.hero_killed_and_monster_survives
    survives = 1 - result.hero_killed - result.cut
    ps = [result.kill_and_survive, kill_and_dead, survives - result.kill_and_survive,
          result.hero_killed_and_monster_survives]
    labels = [label for label, _ in _ENDS]
    hero, monster = escape_text(enc.hero.name), escape_text(enc.target.name)
    trace = {"type": "bar", "y": labels, "x": [float(p) for p in ps], "orientation": "h", "name": "chance",
             "marker": {"color": [color for _, color in _ENDS]}, "text": [percent(p) for p in ps],
             "textposition": "auto",
             "customdata": [f"{hero} {end.format(monster)}: {percent(p)} ({p})"
                            if p.denominator < 10**6 else f"{hero} {end.format(monster)}: {percent(p)}"
                            for end, p in zip(_END_HOVER, ps)],
             "hovertemplate": "%{customdata}<extra></extra>"}
    title = f"{enc.hero.name} survives {percent(survives)}"
    layout = style(title, "probability", "", percent_y=False,
                    xaxis={"tickformat": ".0%", "range": [0, 1], "dtick": 0.25},
                    yaxis={"autorange": "reversed", "type": "category"})
    return figure([trace], layout)


def encounter_figures(result: EncounterResult, view: View = "exactly") -> dict[str, go.Figure]:
    """The four charts of one encounter (`ENCOUNTER_CHARTS`); `view` applies to the two wound charts.

    >>> from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
    >>> result = resolve_encounter(parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                                             "target": {"preset": "Orc Marauder"}}))
    >>> list(encounter_figures(result)) == list(ENCOUNTER_CHARTS)
    True
    """
    return {"monster_wounds": monster_wounds_figure(result, view), "kill": kill_figure(result),
            "hero_wounds": hero_wounds_figure(result, view), "outcomes": outcomes_figure(result)}
