"""The panel's charts: every chart holds the resolver's numbers, and a bad input dims them all until fixed."""

from __future__ import annotations

import json

import pytest

from explorer import charts
from explorer.panels.assault_of_the_giants.panel import AssaultPanel


@pytest.mark.parametrize("view", charts.VIEWS)
def test_panel_charts_hold_the_resolver_numbers(view):
    panel = AssaultPanel()
    panel.results.view.value = view
    expected = charts.battle_figures(panel.result, view)
    for name, chart in panel.results.figures.items():
        assert chart.data == expected[name].data, name
        assert not chart.note and not chart.pending


def test_bad_input_marks_every_chart_stale_and_a_fix_clears_it(monkeypatch):
    panel = AssaultPanel()
    good = panel.scenario()
    bad = json.loads(json.dumps(good))
    bad["attacker"]["pool"]["basic"] = -1
    shown = {name: chart.figure for name, chart in panel.results.figures.items()}
    monkeypatch.setattr(panel, "scenario", lambda: bad)
    assert panel.refresh() is False
    for name, chart in panel.results.figures.items():
        assert "attacker.pool.basic" in chart.note and "last valid" in chart.note, name
        assert chart.figure == shown[name]  # the last valid battle, dimmed and labelled
    assert "attacker.pool.basic" in panel.whatif.compare.note
    monkeypatch.setattr(panel, "scenario", lambda: good)
    assert panel.refresh() is True
    assert not any(chart.note for chart in panel.results.figures.values())
    assert not panel.whatif.compare.note
