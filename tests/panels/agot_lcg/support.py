"""Helpers of the A Game of Thrones panel tests: the expected figures, built apart from the panel.

The panel's scenario goes through JSON and the one resolver (`explorer.resolve`, as
``python -m explorer resolve`` reads a file); the figures come from the pure chart functions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import ipywidgets as widgets

import explorer
from explorer.charts.agot_lcg import power_figure, winner_heatmap
from explorer.games.agot_lcg.challenge.grid import winner_grid
from explorer.panels.agot_lcg.panel import AgotPanel

ROOT = Path(__file__).resolve().parents[3]
"""The repository root."""


def typed(box: widgets.Widget, text: str) -> None:
    """What the browser sends when text is typed into a box and committed."""
    box.set_state({"value": text})


def resolved(panel: AgotPanel) -> Any:
    """The panel's scenario resolved as the command line resolves a file."""
    return explorer.resolve(json.loads(json.dumps(panel.scenario())))


def _plain(fig: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in trace.to_plotly_json().items()} for trace in fig.data]


def check_charts(panel: AgotPanel) -> None:
    """Every round chart holds the figure built here from the resolver's result, is current, and agrees
    with the JSON report's power after the round."""
    assert panel.valid, panel.status.value
    report = resolved(panel)
    out = report.to_dict()
    board = report.result.round.board
    top = max(8, *(sum(c.strength for c in p.characters) for p in board.players))
    expected = {"power_through_the_round": power_figure(report.result),
                "who_wins_by_strength": winner_heatmap(winner_grid(top, top))}
    for name, fig in expected.items():
        chart = panel.results.figures[name]
        assert chart.note == "", (name, chart.note)
        assert _plain(chart.to_figure()) == _plain(fig), name
    power = panel.results.figures["power_through_the_round"].data
    assert {t.name: t.y[-1] for t in power} == out["power_after"]
    assert panel.result.to_dict() == out
