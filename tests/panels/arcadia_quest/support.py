"""Helpers of the Arcadia Quest panel tests: acting on the panel as a user would, and the expected figures.

The expected figures are computed here, apart from the panel: the panel's scenario goes through
the one resolver (`explorer.resolve`, as ``python -m explorer resolve`` reads a file) and the
pure chart functions; the numbers are also checked against the resolver's JSON report.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import ipywidgets as widgets

import explorer
from explorer.charts.arcadia_quest import encounter_figures
from explorer.panels.arcadia_quest.panel import ArcadiaPanel

ROOT = Path(__file__).resolve().parents[3]
"""The repository root."""


def typed(box: widgets.Widget, text: str) -> None:
    """What the browser sends when text is typed into a box and committed."""
    box.set_state({"value": text})


def report_of(panel: ArcadiaPanel) -> dict[str, Any]:
    """The JSON report of the panel's scenario, resolved as the command line resolves a file."""
    text = json.dumps(panel.scenario())
    return explorer.resolve(json.loads(text)).to_dict()


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-12)


def _bars(chart: Any) -> dict[Any, float]:
    trace = chart.data[0]
    return dict(zip(trace.y, trace.x)) if trace.orientation == "h" else dict(zip(trace.x, trace.y))


def check_numbers(panel: ArcadiaPanel) -> None:
    """Each chart's bars are the resolver's numbers (the JSON report), in the ``exactly`` view."""
    out = report_of(panel)
    figures = panel.results.figures
    for chart, key in (("monster_wounds", "monster_wounds"), ("hero_wounds", "hero_wounds")):
        bars = _bars(figures[chart])
        wanted = {int(k): v for k, v in out[key].items()}
        assert set(wanted) <= set(bars), chart
        assert all(_close(bars[k], wanted.get(k, 0.0)) for k in bars), (chart, bars, wanted)
    kill, overkill, cut = out["kill"], out["overkill"], out["cut"]
    assert all(_close(a, b) for a, b in zip(_bars(figures["kill"]).values(), (1 - kill - cut, kill - overkill, overkill)))
    joint = {(int(w), int(h)): p for w, row in out["joint"].items() for h, p in row.items()}
    life = out["scenario"]["target"]["life"] - out["scenario"]["target"]["wounds"]
    dies = out["scenario"]["hero"]["life"] - out["scenario"]["hero"]["wounds"]
    ends = [sum(p for (w, h), p in joint.items() if (w >= life) == kills and (h >= dies) == killed)
            for kills, killed in ((True, False), (True, True), (False, False), (False, True))]
    assert all(_close(a, b) for a, b in zip(_bars(figures["outcomes"]).values(), ends)), (ends, _bars(figures["outcomes"]))


def check_charts(panel: ArcadiaPanel) -> None:
    """Every chart holds exactly the figure built here from the resolver's result, and is current."""
    assert panel.valid, panel.status.value
    report = explorer.resolve(json.loads(json.dumps(panel.scenario())))
    expected = encounter_figures(report.result, panel.results.view.value)
    for name, chart in panel.results.figures.items():
        assert chart.data == expected[name].data, name
        assert chart.to_figure().layout.title.text == expected[name].layout.title.text, name
        assert not chart.note and not chart.pending, (name, chart.note)
    if panel.results.view.value == "exactly":
        check_numbers(panel)
    out = report.to_dict()
    table = panel.results.table.value
    for key, label in (("kill", "P(kill)"), ("hero_killed", "P(hero killed)")):
        assert f"<th>{label}</th><td>{out[key] * 100:.2f}%</td>" in table, label


def load(panel: ArcadiaPanel, text: str) -> str:
    """Paste `text` into the scenario box, press Load; the box's error message ('' if none)."""
    panel.scenario_box.text.value = text
    panel.scenario_box.load.click()
    return panel.scenario_box.error.text
