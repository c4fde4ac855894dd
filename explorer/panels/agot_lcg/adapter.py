"""What the shared panel parts need from A Game of Thrones (a `explorer.panels.common.host.GameAdapter`).

A round is deterministic, so the distributions the what-if compares are single values, the sweep
resolves the round once per cell, and the "roll once" trace is the round's steps whatever the seed.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games import find_game
from explorer.games.agot_lcg import RoundReport, question_of, round_trace, summary
from explorer.panels.common.host import Labels, SweepAxis
from explorer.panels.common.resolving import resolve_as
from explorer.panels.common.scenario_io import check_scenario
from explorer.sweep import sweep

__all__ = ["GAME", "QUANTITIES", "AgotAdapter", "RoundStep"]

GAME = "agot-lcg"
"""The game this panel's scenarios are for."""


QUANTITIES: dict[str, Callable[[RoundReport], Dist[int]]] = {
    "power of the first player after the round": lambda r: Dist.single(r.result.after.totals()["first"]),
    "power of the second player after the round": lambda r: Dist.single(r.result.after.totals()["second"]),
    "power lead of the first player after the round": lambda r: Dist.single(
        r.result.after.totals()["first"] - r.result.after.totals()["second"]),
}
"""What the A/B overlay can show (a round is exact and certain: one bar each)."""


@dataclass(frozen=True, slots=True)
class RoundStep:
    """One step of the round, as the trace view shows it (`explorer.panels.common.host.TraceStepLike`)."""

    step: str
    side: str
    text: str
    page: str


class AgotAdapter:
    """A Game of Thrones for the shared panel parts (what-if, sweep, the round's steps, scenario box).

    >>> adapter = AgotAdapter()
    >>> adapter.labels.file_name, adapter.game
    ('round.json', 'agot-lcg')
    """

    labels = Labels(noun="round", css="agot")
    game = GAME
    quantities: Mapping[str, Callable[[Any], Dist[int]]] = QUANTITIES
    sweep_parameters: Sequence[str] = tuple(find_game(GAME).sweep_spec().inputs)
    sweep_outcomes: Sequence[str] = tuple(find_game(GAME).sweep_spec().outcomes)
    sweep_axes = (SweepAxis(value=(0, 6), bounds=(0, 15)), SweepAxis(value=(0, 6), bounds=(0, 15)))
    sweep_note = ("Each cell plays the current round with two inputs set (STR sweeps set the first character "
                  "listed for that player).")

    def compare_table(self, pinned: RoundReport, current: RoundReport) -> str:
        """A (pinned), B (current) and B - A for the round's numbers, as an HTML table."""
        a, b = summary(pinned), summary(current)
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{a[k]}</td><td>{b[k]}</td><td>{b[k] - a[k]:+d}</td></tr>"
                       for k in a)
        return ("<table class='agot-table agot-compare-table'><tr><th></th><th>A (pinned)</th><th>B (current)</th>"
                f"<th>B - A</th></tr>{rows}</table>")

    def sweep(self, scenario: dict[str, Any], x: str, xs: range, y: str, ys: range,
              outcome: str) -> list[list[Fraction]]:
        """The round played for every (x, y) pair (the one sweep, `explorer.sweep`); rows follow `ys`."""
        return sweep(scenario, x, xs, y, ys, outcome)

    def trace(self, scenario: dict[str, Any], seed: int) -> tuple[RoundStep, ...]:
        """The round's steps (a round has no chance in it: the seed changes nothing)."""
        del seed
        return tuple(RoundStep(r["step"], r["challenge"], r["event"] + (
            f" (power: {', '.join(f'{k} {v}' for k, v in r['power'].items())})" if r["power"] else ""), r["rule"])
            for r in round_trace(resolve_as(scenario, RoundReport).result))

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse another game's scenario, one `explorer.resolve` refuses, or one that is not a listed round.

        Raises:
            explorer.ScenarioError: naming the bad key (``game``, ``question``, ``best_plan``...).
        """
        check_scenario(scenario, GAME)
        question = question_of(scenario)
        if question != "round":
            raise ScenarioError("question", f'this is an A Game of Thrones "{question}" scenario; this panel loads '
                                            'rounds ("question": "round"); resolve it with python -m explorer '
                                            "resolve FILE")
        if "best_plan" in scenario:
            raise ScenarioError("best_plan", "the panel plays the challenges listed; resolve a best-plan search "
                                             "with python -m explorer resolve FILE")
