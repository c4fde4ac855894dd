"""The chart widget: whole figures on every change, one plotly.js per page, visible state."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import plotly
import pytest

from explorer import charts
from explorer.dist import Dist
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
from explorer.panels.assault import AssaultPanel
from explorer.panels.chart import Chart, figure_json, plotly_bundle

GAPPY = Dist({0: 1, 2: 2, 3: 3})
TWO_DICE = Dist.uniform(range(1, 7)) + Dist.uniform(range(1, 7))


def test_every_show_carries_the_whole_figure():
    chart = Chart(charts.distribution_figure(GAPPY, title="old", x_title="hits"))
    chart.show(charts.distribution_figure(TWO_DICE, title="new", x_title="hits", view="at least"))
    sent = json.loads(chart.figure)
    assert sent["data"][0]["x"] == list(range(2, 13))
    assert sent["data"][0]["y"] == charts.view_values(TWO_DICE, "at least")[1]
    assert sent["layout"]["title"]["text"] == "new"
    assert [a["text"] for a in sent["layout"]["annotations"]] == ["mean 7.00"]
    assert chart.revision == 2


def test_a_smaller_figure_leaves_nothing_of_the_old_one():
    result = resolve_battle(parse_battle(json.loads(Path("examples/fire-vs-hill.json").read_text())))
    chart = Chart(charts.casualties_figure(result))
    chart.show(charts.sweep_heatmap([0], [0], [[0.5]], x_title="a", y_title="b", outcome_title="P(x)"))
    sent = json.loads(chart.figure)
    assert [t["type"] for t in sent["data"]] == ["heatmap"]
    assert sent["layout"].get("shapes", []) == [] and "barmode" not in sent["layout"]


def test_named_templates_are_expanded_for_plotly_js():
    sent = json.loads(figure_json(charts.distribution_figure(GAPPY, title="t", x_title="hits")))
    template = sent["layout"]["template"]
    assert isinstance(template, dict) and template["layout"]["plot_bgcolor"] == "white"


def test_stale_and_pending_marks_are_cleared_by_the_next_figure():
    chart = Chart(charts.distribution_figure(GAPPY, title="t", x_title="hits"))
    chart.mark_pending()
    assert chart.pending
    chart.mark_stale("attacker.pool.basic: must be >= 0")
    assert chart.note and not chart.pending
    chart.show(charts.distribution_figure(TWO_DICE, title="t", x_title="hits"))
    assert chart.note == "" and not chart.pending and chart.revision == 2


def test_plotly_js_is_sent_once_on_request_gzipped():
    chart = Chart()
    sent: list[tuple[object, list[bytes]]] = []
    chart.send = lambda content, buffers=None: sent.append((content, buffers))  # type: ignore[method-assign]
    chart._on_message(chart, {"type": "plotly-please"}, [])
    chart._on_message(chart, {"type": "something else"}, [])
    assert len(sent) == 1
    content, buffers = sent[0]
    assert content == {"type": "plotly", "version": plotly.__version__}
    source = gzip.decompress(buffers[0]).decode()
    assert "window.Plotly" in source and len(buffers[0]) < len(source) / 2
    assert plotly_bundle() is plotly_bundle()  # compressed once per process


def test_a_chart_widget_state_is_small():
    """Plotly's FigureWidget carried ~5 MB of plotly.js per chart; ours carries only its figure."""
    chart = Chart(charts.distribution_figure(TWO_DICE, title="t", x_title="hits"))
    state = json.dumps(chart.get_state())
    assert len(state) < 60_000


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


def test_a_chart_grows_only_when_its_figure_asks_for_more_room():
    result = resolve_battle(parse_battle(json.loads(Path("examples/fire-vs-hill.json").read_text())))
    chart = Chart(charts.battle_figures(result)["hits"], height=270)
    assert json.loads(chart.figure)["layout"]["height"] == 270
    tall = charts.casualties_figure(result)
    tall.layout.height = charts.HEIGHT + 200  # as with many units
    chart.show(tall)
    assert json.loads(chart.figure)["layout"]["height"] == charts.HEIGHT + 200
