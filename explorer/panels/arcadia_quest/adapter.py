"""What the shared panel parts need from Arcadia Quest (a `explorer.panels.common.host.GameAdapter`).

The what-if comparison, the sweep, the roll-once trace view and the scenario box are generic
(`explorer.panels.common`); this adapter gives them the game's pieces: the distributions A and B
can be compared on and the table of differences, the sweep's inputs and outcomes, the seeded
encounter trace, and the check of a loaded scenario (the one resolver, and an encounter only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games import find_game
from explorer.games.arcadia_quest import EncounterResult, TraceStep, compare_rows, question_of
from explorer.panels.arcadia_quest.results import table_html
from explorer.panels.arcadia_quest.values import TERMS
from explorer.panels.common.host import Labels, SweepAxis
from explorer.panels.common.scenario_io import check_scenario
from explorer.sweep import sweep

__all__ = ["GAME", "QUANTITIES", "ArcadiaAdapter"]

GAME = "arcadia-quest"
"""The game this panel's scenarios are for."""

QUANTITIES: dict[str, Callable[[EncounterResult], Dist[int]]] = {
    "wounds dealt to the monster": lambda r: r.monster_wounds,
    "wounds the hero takes": lambda r: r.hero_wounds,
    "coins of the active Guild": lambda r: r.coins_active,
    "hits of the hero's attack": lambda r: r.hits,
    "saves of the monster's Defense roll": lambda r: r.saves,
}
"""Distributions the A/B overlay can show (the first word names the x axis)."""


class ArcadiaAdapter:
    """Arcadia Quest for the shared panel parts (what-if, sweep, roll once, scenario box).

    >>> adapter = ArcadiaAdapter()
    >>> adapter.labels.file_name, adapter.game, adapter.sweep_parameters[:2]
    ('encounter.json', 'arcadia-quest', ('attack dice', 'monster Life'))
    """

    labels = Labels(noun="encounter", css="aq")
    game = GAME
    terms = TERMS
    """Words the rules abbreviate ("CRIT"), explained on hover in the roll-once steps."""
    quantities: Mapping[str, Callable[[Any], Dist[int]]] = QUANTITIES
    sweep_parameters: Sequence[str] = tuple(find_game(GAME).sweep_spec().inputs)
    sweep_outcomes: Sequence[str] = ("P(kill without dying)", *(name for name in find_game(GAME).sweep_spec().outcomes
                                                                  if name != "P(kill without dying)"))
    sweep_axes = (SweepAxis(value=(1, 6), bounds=(0, 12)), SweepAxis(value=(1, 6), bounds=(1, 12)))
    sweep_note = ("Each cell resolves the current encounter exactly with two inputs set (a Life above the "
                  "Overkill raises the Overkill to it: an overkill is a kill).")

    def compare_table(self, pinned: EncounterResult, current: EncounterResult) -> str:
        """A (pinned), B (current) and B - A for every summary number, as an HTML table."""
        return table_html(compare_rows(pinned, current), ("A (pinned)", "B (current)", "B - A"), "aq-compare-table")

    def sweep(self, scenario: dict[str, Any], x: str, xs: range, y: str, ys: range,
              outcome: str) -> list[list[Fraction]]:
        """The encounter resolved for every (x, y) pair (the one sweep, `explorer.sweep`)."""
        return sweep(scenario, x, xs, y, ys, outcome)

    def trace(self, scenario: dict[str, Any], seed: int) -> tuple[TraceStep, ...]:
        """One seeded encounter, step by step, citing pages (the game's trace, through the registry)."""
        return cast(tuple[TraceStep, ...], find_game(GAME).trace_steps(scenario, seed))

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse another game's scenario, one `explorer.resolve` refuses, or one that is not an encounter.

        Raises:
            explorer.ScenarioError: naming the bad key (``game``, ``question``, ...).
        """
        check_scenario(scenario, GAME)
        question = question_of(scenario)
        if question != "encounter":
            raise ScenarioError("question", f'this is an Arcadia Quest "{question}" scenario; this panel loads '
                                            'encounters ("question": "encounter", or a "hero" key); resolve it '
                                            "with python -m explorer resolve FILE")
