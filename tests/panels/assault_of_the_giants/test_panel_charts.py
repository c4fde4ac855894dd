"""The panel's charts: each side's bars are the numbers computed apart from the panel for its current scenario.

What the charts show is read from the chart widgets (bar by bar, side by side) and compared with
an independent computation: the exact fractions of the resolver's JSON report for the panel's own
scenario (``explorer.resolve(...).to_dict()``, as ``python -m explorer resolve`` writes it), turned
into each view here; and, for a tiny battle, every roll of the dice counted one by one. Every
panel input checked changes the numbers and gives the two sides different ones, so a chart that
kept the last result or showed the other side would fail.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

import explorer
from explorer import charts
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from tests.panels.assault_of_the_giants.support import load, typed

SIDES = ("attacker", "defender")
BARS = {"hits": "hits", "damage": "damage_taken", "ordning_points": "ordning_points"}
"""Each side-by-side chart and the report's quantity it shows."""
STATUSES = ("healthy", "wounded", "defeated")


def report(panel: AssaultPanel) -> dict[str, Any]:
    """The JSON report of the panel's scenario, resolved as the command line resolves a file."""
    return explorer.resolve(json.loads(json.dumps(panel.scenario()))).to_dict()


def in_view(exact: dict[Any, Any], view: str, x: int) -> Fraction:
    """P(quantity = x), P(>= x) or P(<= x), from exact probabilities by outcome."""
    probs = {int(k): Fraction(v) for k, v in exact.items()}
    keep = {"exactly": lambda k: k == x, "at least": lambda k: k >= x, "at most": lambda k: k <= x}[view]
    return sum((p for k, p in probs.items() if keep(k)), Fraction(0))


def bars(chart: Any, name: str) -> dict[Any, float]:
    """The bars of the trace called `name`: x -> height (y -> length for horizontal bars)."""
    [trace] = [t for t in chart.data if t.name == name]
    return dict(zip(trace.y, trace.x)) if trace.orientation == "h" else dict(zip(trace.x, trace.y))


def check_charts(panel: AssaultPanel, wanted: dict[str, Any], view: str) -> None:
    """Every chart is current and shows `wanted` (a JSON report with exact fractions) in `view`."""
    figures = panel.results.figures
    assert panel.valid and not any(chart.note or chart.pending for chart in figures.values())
    for chart, quantity in BARS.items():
        assert [t.name for t in figures[chart].data] == list(SIDES), chart
        for side in SIDES:
            shown, exact = bars(figures[chart], side), wanted[side]["exact"][quantity]
            assert {int(k) for k in exact} <= set(shown), (chart, side)
            for x, height in shown.items():
                assert height == pytest.approx(float(in_view(exact, view, x)), abs=1e-12), (chart, side, x)
    units = [(side, i, name) for side in SIDES for i, name in enumerate(wanted[side]["unit_names"])]
    for status in STATUSES:
        shown = bars(figures["casualties"], status)
        assert len(shown) == len(units), status
        for (label, p), (side, i, name) in zip(shown.items(), units):
            assert label.startswith(f"{side}: {name}"), (label, side, name)
            assert p == pytest.approx(wanted[side]["units"][i][status], abs=1e-12), (status, label)


def _pools(panel: AssaultPanel) -> None:
    typed(panel.pools["attacker"].basic, "2")
    typed(panel.pools["defender"].basic, "7")


def _unit(panel: AssaultPanel) -> None:
    panel.armies["defender"].add.click()


def _tiny(panel: AssaultPanel) -> None:
    assert load(panel, json.dumps(tiny_battle(panel))) == ""


def tiny_battle(panel: AssaultPanel) -> dict[str, Any]:
    """The panel's battle with 2 basic dice against 1, no command cards, one unit a side."""
    scenario = panel.scenario()
    for side, dice in zip(SIDES, (2, 1)):
        scenario[side].update(pool={"basic": dice}, commands=[], units=scenario[side]["units"][:1])
    return scenario


ALL = (*BARS, "casualties")
ACTIONS = {"as it opens": (None, ()), "pools typed": (_pools, ALL),
           "a unit added": (_unit, ("ordning_points", "casualties")), "a tiny battle loaded": (_tiny, ALL)}
"""Each panel input checked: what it does, and the charts whose numbers it changes."""


def numbers(wanted: dict[str, Any], chart: str) -> list[Any]:
    """The numbers of the report a chart shows, both sides."""
    if chart == "casualties":
        return [(wanted[side]["unit_names"], wanted[side]["units"]) for side in SIDES]
    return [wanted[side]["exact"][BARS[chart]] for side in SIDES]


@pytest.mark.parametrize("view", charts.VIEWS)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_the_charts_show_each_side_of_the_panels_scenario(view, action):
    panel = AssaultPanel()
    before = report(panel)
    panel.results.view.value = view
    act, changes = ACTIONS[action]
    if act is not None:
        act(panel)
    wanted = report(panel)
    assert all(numbers(wanted, chart) != numbers(before, chart) for chart in changes)  # a chart left as it was fails
    assert all(wanted["attacker"]["exact"][q] != wanted["defender"]["exact"][q] for q in BARS.values())  # sides differ
    check_charts(panel, wanted, view)


def counted(scenario: dict[str, Any]) -> dict[str, dict[str, Counter[Any]]]:
    """Every roll of both pools counted one by one (no rerolls or conversions: no command cards).

    Damage taken is the other side's hits less one's blocks; a side's one unit is healthy with
    no damage, defeated with damage of at least its Fortitude, wounded in between.
    """
    faces = {side: [scenario["dice"][die] for die, n in scenario[side]["pool"].items() for _ in range(n)]
             for side in SIDES}
    out: dict[str, dict[str, Counter[Any]]] = {side: {"hits": Counter(), "damage_taken": Counter(),
                                                        "status": Counter()} for side in SIDES}
    for rolls in itertools.product(*faces["attacker"], *faces["defender"]):
        split = len(faces["attacker"])
        hits = {s: sum(f.get("hit", 0) for f in r) for s, r in zip(SIDES, (rolls[:split], rolls[split:]))}
        blocks = {s: sum(f.get("block", 0) for f in r) for s, r in zip(SIDES, (rolls[:split], rolls[split:]))}
        for side, other in zip(SIDES, SIDES[::-1]):
            damage = max(0, hits[other] - blocks[side])
            fortitude = scenario[side]["units"][0]["fortitude"]
            out[side]["hits"][hits[side]] += 1
            out[side]["damage_taken"][damage] += 1
            out[side]["status"]["healthy" if not damage else "defeated" if damage >= fortitude else "wounded"] += 1
    return out


@pytest.mark.parametrize("view", charts.VIEWS)
def test_a_tiny_battle_charts_the_rolls_counted_one_by_one(view):
    panel = AssaultPanel()
    _tiny(panel)
    panel.results.view.value = view
    scenario = panel.scenario()
    assert all(not scenario[side]["commands"] for side in SIDES)
    expected = counted(scenario)
    figures = panel.results.figures
    for side in SIDES:
        for chart, quantity in (("hits", "hits"), ("damage", "damage_taken")):
            tally = expected[side][quantity]
            exact = {k: Fraction(n, sum(tally.values())) for k, n in tally.items()}
            shown = bars(figures[chart], side)
            assert set(exact) <= set(shown), (chart, side)
            for x, height in shown.items():
                assert height == pytest.approx(float(in_view(exact, view, x)), abs=1e-12), (chart, side, x, view)
        status = expected[side]["status"]
        for name in STATUSES:
            [(label, p)] = [(label, p) for label, p in bars(figures["casualties"], name).items()
                            if label.startswith(f"{side}: ")]
            assert p == pytest.approx(status[name] / sum(status.values()), abs=1e-12), (side, name)


def test_bad_input_marks_every_chart_stale_and_a_fix_clears_it(monkeypatch):
    panel = AssaultPanel()
    good = panel.scenario()
    bad = json.loads(json.dumps(good))
    bad["attacker"]["pool"]["basic"] = -1
    shown = {name: chart.figure for name, chart in panel.results.figures.items()}
    monkeypatch.setattr(panel, "scenario", lambda: bad)
    assert panel.refresh() is False
    for name, chart in panel.results.figures.items():
        assert "Attacker, basic dice" in chart.note and "last valid" in chart.note, name
        assert chart.figure == shown[name]  # the last valid battle, dimmed and labelled
    assert "Attacker, basic dice" in panel.whatif.compare.note
    monkeypatch.setattr(panel, "scenario", lambda: good)
    assert panel.refresh() is True
    assert not any(chart.note for chart in panel.results.figures.values())
    assert not panel.whatif.compare.note
