"""The chart widget: whole figures on every change, a prebuilt front end, visible state."""

from __future__ import annotations

import json
from pathlib import Path

from explorer import charts
from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
from explorer.panels.common.chart import FRONT_END, FRONT_END_VERSION, Chart, figure_json
from explorer.panels.common.install import install

GAPPY = Dist({0: 1, 2: 2, 3: 3})
TWO_DICE = Dist.uniform(range(1, 7)) + Dist.uniform(range(1, 7))
ROOT = Path(__file__).resolve().parents[3]
EXTENSION = ROOT / "explorer" / "panels" / "common" / "labextension"


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


def test_the_front_end_is_built_and_named_like_the_model():
    """The prebuilt extension, its source and the Python model agree on the module and version."""
    built = json.loads((EXTENSION / "package.json").read_text())
    assert built["name"] == FRONT_END and built["version"] == FRONT_END_VERSION
    assert list((EXTENSION / "static").glob("remoteEntry.*.js"))
    source = (ROOT / "js" / "src" / "index.js").read_text()
    assert f"const MODULE = '{FRONT_END}';" in source and f"const VERSION = '{FRONT_END_VERSION}';" in source
    assert json.loads((ROOT / "js" / "package.json").read_text())["version"] == FRONT_END_VERSION
    chart = Chart()
    assert (chart._model_module, chart._view_module, chart._model_module_version) == (
        FRONT_END, FRONT_END, FRONT_END_VERSION)


def test_install_puts_the_extension_and_plotly_js_where_jupyter_looks(tmp_path):
    target = install(tmp_path)
    assert target == tmp_path / "share" / "jupyter" / "labextensions" / FRONT_END
    assert (target / "package.json").read_text() == (EXTENSION / "package.json").read_text()
    plotly_js = (target / "static" / "plotly.min.js").read_text()
    assert "window.Plotly" in plotly_js and len(plotly_js) > 1_000_000
    (target / "static" / "old.js").write_text("stale")
    install(tmp_path)  # a second install replaces the first copy whole
    assert not (target / "static" / "old.js").exists()


def test_a_chart_widget_state_is_small():
    """Plotly's FigureWidget carried ~5 MB of plotly.js per chart; ours carries only its figure."""
    chart = Chart(charts.distribution_figure(TWO_DICE, title="t", x_title="hits"))
    state = json.dumps(chart.get_state())
    assert len(state) < 60_000


def test_a_chart_grows_only_when_its_figure_asks_for_more_room():
    result = resolve_battle(parse_battle(json.loads(Path("examples/fire-vs-hill.json").read_text())))
    chart = Chart(charts.battle_figures(result)["hits"], height=270)
    assert json.loads(chart.figure)["layout"]["height"] == 270
    tall = charts.casualties_figure(result)
    tall.layout.height = charts.HEIGHT + 200  # as with many units
    chart.show(tall)
    assert json.loads(chart.figure)["layout"]["height"] == charts.HEIGHT + 200
