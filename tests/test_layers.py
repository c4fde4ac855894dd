"""The package's layers hold: no import circles, no import up a layer, games reached through their faces.

The graph is read from the source by `explorer.layers` (every import, at the top of a module,
inside a function or under ``TYPE_CHECKING``), so a circle hidden in a function fails here too.
``python -m explorer.layers`` (``make layers``) prints the same graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from explorer.layers import LAYERS, circles, import_graph, layer_of, private_reaches, upward

PACKAGE = Path(__file__).resolve().parent.parent / "explorer"
GRAPH = import_graph(PACKAGE)


def test_the_graph_sees_the_whole_package() -> None:
    sources = {source for source, _, _ in GRAPH}
    assert len(sources) > 120
    assert {layer_of(s) for s in sources} == set(LAYERS)
    # an import inside a function counts: the registry imports each game package lazily
    assert ("explorer.games", "explorer.games.agot_lcg", ()) in GRAPH


def test_no_import_circles() -> None:
    assert circles(GRAPH) == []


def test_no_import_points_up_a_layer() -> None:
    assert upward(GRAPH) == []


def test_charts_and_panels_reach_a_game_only_through_its_package() -> None:
    assert private_reaches(GRAPH) == []


def test_the_checks_can_fail() -> None:
    """The three checks on a made-up graph with one of each fault."""
    graph = [
        ("explorer.core.dist", "explorer.core.dice", ()), ("explorer.core.dice", "explorer.core.dist", ()),
        ("explorer.core.dist", "explorer.panels.common.chart", ()),
        ("explorer.panels.common.chart", "explorer.games.agot_lcg.round.phase", ("play_round",)),
        ("explorer.charts.kit", "explorer.core.dist", ("_private",)),
    ]
    assert circles(graph) == [["explorer.core.dice", "explorer.core.dist"]]
    assert upward(graph) == [("explorer.core.dist", "explorer.panels.common.chart", ())]
    assert len(private_reaches(graph)) == 2


FORBIDDEN = {
    "core": ("ipywidgets", "plotly", "numpy", "pandas", "IPython", "anywidget"),
    "scenario": ("ipywidgets", "plotly", "IPython", "anywidget"),
    "games": ("ipywidgets", "plotly", "IPython", "anywidget"),
    "resolver": ("ipywidgets", "plotly", "IPython", "anywidget"),
}
"""Libraries a layer must not import, anywhere in its modules (numpy and pandas: see issue 20)."""


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_the_lower_layers_import_no_ui_library(layer: str) -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        if layer_of(module) != layer:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            offenders += [f"{module}: {n}" for n in names if n.split(".")[0] in FORBIDDEN[layer]]
    assert offenders == []
