"""What the shared panel parts need from A Game of Thrones (a `explorer.panels.common.host.GameAdapter`).

A round is deterministic, so the distributions the what-if compares are single values, the sweep
resolves the round once per cell, and the "roll once" trace is the round's steps whatever the seed.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.core import backstop
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg import (
    RoundReport,
    costliest_field,
    parse_round,
    play_round,
    question_of,
    round_seconds,
    round_trace,
)
from explorer.panels.common.host import Labels, SweepAxis
from explorer.panels.common.scenario_io import check_scenario

__all__ = ["GAME", "OUTCOMES", "PARAMETERS", "QUANTITIES", "AgotAdapter", "RoundStep", "resolve_round", "summary"]

GAME = "agot-lcg"
"""The game this panel's scenarios are for."""


def resolve_round(scenario: Mapping[str, Any]) -> RoundReport:
    """The round scenario resolved as `explorer.resolve` resolves it (without a best-plan search).

    Raises:
        ScenarioError: naming the bad key.
    """
    question = parse_round(scenario)
    return RoundReport(play_round(question.round))


def summary(report: RoundReport) -> dict[str, int]:
    """The round's numbers: each player's power after it, the lead, and dominance (1 first, -1 second, 0 tie)."""
    after = report.result.after.totals()
    dom = report.result.dominance
    winner = dom.winner if dom is not None else None
    return {"first player's power after the round": after["first"],
            "second player's power after the round": after["second"],
            "first player's power lead after the round": after["first"] - after["second"],
            "dominance (1 first, -1 second, 0 no one)": {"first": 1, "second": -1}.get(winner or "", 0)}


OUTCOMES = ("first player's power lead after the round", "first player's power after the round",
            "second player's power after the round", "dominance (1 first, -1 second, 0 no one)")
"""Numbers the sweep can map (keys of `summary`)."""

QUANTITIES: dict[str, Callable[[RoundReport], Dist[int]]] = {
    "power of the first player after the round": lambda r: Dist.single(r.result.after.totals()["first"]),
    "power of the second player after the round": lambda r: Dist.single(r.result.after.totals()["second"]),
    "power lead of the first player after the round": lambda r: Dist.single(
        r.result.after.totals()["first"] - r.result.after.totals()["second"]),
}
"""What the A/B overlay can show (a round is exact and certain: one bar each)."""


def _str_of(side: str) -> Callable[[dict[str, Any], int], None]:
    def put(scenario: dict[str, Any], value: int) -> None:
        chars = scenario["players"][side].get("characters") or []
        if not chars:
            raise ScenarioError(f"players.{side}.characters", "has no character whose STR the sweep could set")
        chars[0]["str"] = value
    return put


def _key_of(side: str, key: str) -> Callable[[dict[str, Any], int], None]:
    def put(scenario: dict[str, Any], value: int) -> None:
        scenario["players"][side][key] = value
    return put


PARAMETERS: dict[str, Callable[[dict[str, Any], int], None]] = {
    "STR of the first player's first character": _str_of("first"),
    "STR of the second player's first character": _str_of("second"),
    "first player's gold": _key_of("first", "gold"),
    "second player's gold": _key_of("second", "gold"),
    "first player's faction power": _key_of("first", "faction"),
    "second player's faction power": _key_of("second", "faction"),
    "first player's claim": _key_of("first", "claim"),
    "second player's claim": _key_of("second", "claim"),
}
"""Inputs the sweep can vary: each sets one key of a copy of the scenario."""


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
    sweep_parameters: Sequence[str] = tuple(PARAMETERS)
    sweep_outcomes: Sequence[str] = OUTCOMES
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
        """The round played for every (x, y) pair; rows follow `ys`.

        Every cell is read, then the whole grid weighed (`round_cost.round_seconds`) before the first
        round is played, and refused past about 2 s (`explorer.core.backstop.check_grid`).

        Raises:
            ScenarioError: a cell that does not read (the message names it), or a grid too big (``sweep``).
        """
        rounds = []
        for yv in ys:
            for xv in xs:
                cell = copy.deepcopy(scenario)
                try:
                    PARAMETERS[x](cell, xv)
                    PARAMETERS[y](cell, yv)
                    rounds.append(parse_round(cell).round)
                except ScenarioError as error:
                    raise ScenarioError(error.field, f"{error.problem} (sweep cell {x} = {xv}, {y} = {yv})") from None
        seconds = 0.0
        for round_ in reversed(rounds):  # the costliest cells are usually the last: a grid far too big stops early
            seconds += round_seconds(round_)
            backstop.check_grid(len(rounds), seconds, f"list {costliest_field(round_)}", x, y)
        values = []
        with backstop.request():
            for round_ in rounds:
                backstop.check("sweep", "the sweep")
                values.append(Fraction(summary(RoundReport(play_round(round_)))[outcome]))
        return [values[i:i + len(xs)] for i in range(0, len(values), len(xs))]

    def trace(self, scenario: dict[str, Any], seed: int) -> tuple[RoundStep, ...]:
        """The round's steps (a round has no chance in it: the seed changes nothing)."""
        del seed
        return tuple(RoundStep(r["step"], r["challenge"], r["event"] + (
            f" (power: {', '.join(f'{k} {v}' for k, v in r['power'].items())})" if r["power"] else ""), r["rule"])
            for r in round_trace(resolve_round(scenario).result))

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
