"""What the one sweep (`explorer.sweep`) can do with a round: its inputs, its numbers, its grid's work.

A round has no chance in it, so each cell's number is certain: a player's power after the
round, the lead, or who gained dominance. The grid is weighed before its first round is played
(`explorer.games.agot_lcg.round.cost.round_seconds`) and refused past about 2 s.

>>> summary_numbers({"first": 7, "second": 4}, "first")["first player's power lead after the round"]
3
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from explorer.core import backstop
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.round.cost import costliest_field, round_seconds
from explorer.games.agot_lcg.round.phase import Round
from explorer.games.agot_lcg.round.report import RoundReport
from explorer.games.agot_lcg.round.scenario import parse_round
from explorer.scenario.report import Report
from explorer.scenario.sweep import SweepInput, SweepSpec

__all__ = ["OUTCOMES", "PARAMETERS", "SWEEP", "summary", "summary_numbers"]

OUTCOMES = ("first player's power lead after the round", "first player's power after the round",
            "second player's power after the round", "dominance (1 first, -1 second, 0 no one)")
"""Numbers the sweep can map (keys of `summary`)."""

_NO_CHARACTER = "has no character whose STR the sweep could set"

PARAMETERS: dict[str, SweepInput] = {
    "STR of the first player's first character": SweepInput("players.first.characters[0].str", _NO_CHARACTER),
    "STR of the second player's first character": SweepInput("players.second.characters[0].str", _NO_CHARACTER),
    "first player's gold": SweepInput("players.first.gold"),
    "second player's gold": SweepInput("players.second.gold"),
    "first player's faction power": SweepInput("players.first.faction"),
    "second player's faction power": SweepInput("players.second.faction"),
    "first player's claim": SweepInput("players.first.claim"),
    "second player's claim": SweepInput("players.second.claim"),
}
"""Inputs the sweep can vary: each sets one key of a copy of the scenario."""


def summary_numbers(after: Mapping[str, int], dominance_winner: str | None) -> dict[str, int]:
    """The round's numbers from each player's power after it and who gained dominance."""
    return {"first player's power after the round": after["first"],
            "second player's power after the round": after["second"],
            "first player's power lead after the round": after["first"] - after["second"],
            "dominance (1 first, -1 second, 0 no one)": {"first": 1, "second": -1}.get(dominance_winner or "", 0)}


def summary(report: RoundReport) -> dict[str, int]:
    """The round's numbers: each player's power after it, the lead, and dominance (1 first, -1 second, 0 tie)."""
    dom = report.result.dominance
    return summary_numbers(report.result.after.totals(), dom.winner if dom is not None else None)


def _read_round(cell: Mapping[str, Any]) -> Round:
    return parse_round(cell).round


def _weigh(rounds: Sequence[Round], x: str, y: str) -> float:
    seconds = 0.0
    for round_ in reversed(rounds):  # the costliest cells are usually the last: a grid far too big stops early
        seconds += round_seconds(round_)
        backstop.check_grid(len(rounds), seconds, f"list {costliest_field(round_)}", x, y)
    return seconds


def _read(label: str) -> Callable[[Report], Fraction]:
    def read(report: Report) -> Fraction:
        if not isinstance(report, RoundReport):
            raise ScenarioError("sweep", "each cell must be a round")
        return Fraction(summary(report)[label])
    return read


SWEEP = SweepSpec(
    inputs=PARAMETERS,
    outcomes={label: _read(label) for label in OUTCOMES},
    read=_read_round,
    weigh=_weigh,
)
"""The round's sweep: its inputs and numbers; every cell read as a round and the grid weighed whole."""
