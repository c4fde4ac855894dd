"""What the shared panel parts need from Assault of the Giants (a `explorer.panels.common.host.GameAdapter`).

The what-if comparison, the sweep, the roll-once trace view and the scenario box are generic
(`explorer.panels.common`); this adapter gives them the game's pieces: the distributions A and
B can be compared on and the table of differences, the sweep's inputs and outcomes, the seeded
battle trace, and the check of a loaded scenario with the one resolver.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from explorer.core.dist import Dist
from explorer.games import find_game
from explorer.games.assault_of_the_giants import BattleResult, TraceStep
from explorer.panels.assault_of_the_giants.results import compare_html
from explorer.panels.common.host import Labels, SweepAxis
from explorer.panels.common.scenario_io import check_scenario
from explorer.sweep import sweep

__all__ = ["AssaultAdapter", "GAME", "QUANTITIES"]

GAME = "assault-of-the-giants"
"""The game this panel's scenarios are for."""

QUANTITIES: dict[str, Callable[[BattleResult], Dist[int]]] = {
    "damage to the defender": lambda r: r.defender.damage_taken,
    "damage to the attacker": lambda r: r.attacker.damage_taken,
    "Ordning Points earned by the attacker": lambda r: r.attacker.ordning_points,
    "Ordning Points earned by the defender": lambda r: r.defender.ordning_points,
    "attacker hits": lambda r: r.attacker.hits,
    "defender hits": lambda r: r.defender.hits,
}
"""Distributions the A/B overlay can show."""


class AssaultAdapter:
    """Assault of the Giants for the shared panel parts (what-if, sweep, roll once, scenario box).

    >>> adapter = AssaultAdapter()
    >>> adapter.labels.file_name, adapter.game, adapter.sweep_parameters[0]
    ('battle.json', 'assault-of-the-giants', 'attacker basic dice')
    """

    labels = Labels(noun="battle", css="aotg")
    game = GAME
    quantities: Mapping[str, Callable[[Any], Dist[int]]] = QUANTITIES
    sweep_parameters: Sequence[str] = tuple(find_game(GAME).sweep_spec().inputs)
    sweep_outcomes: Sequence[str] = tuple(find_game(GAME).sweep_spec().outcomes)
    sweep_axes = (SweepAxis(value=(1, 7), bounds=(0, 10)), SweepAxis(value=(0, 4), bounds=(0, 6)))
    sweep_note = ("Each cell resolves the current battle exactly with two inputs set; an explicit number "
                  "replaces what the command row gives.")

    def compare_table(self, pinned: BattleResult, current: BattleResult) -> str:
        """A (pinned), B (current) and B - A for every summary number, as an HTML table."""
        return compare_html(pinned, current)

    def sweep(self, scenario: dict[str, Any], x: str, xs: range, y: str, ys: range,
              outcome: str) -> list[list[Fraction]]:
        """The battle resolved for every (x, y) pair (the one sweep, `explorer.sweep`)."""
        return sweep(scenario, x, xs, y, ys, outcome)

    def trace(self, scenario: dict[str, Any], seed: int) -> tuple[TraceStep, ...]:
        """One seeded battle, step by step, citing pages (the game's trace, through the registry)."""
        return cast(tuple[TraceStep, ...], find_game(GAME).trace_steps(scenario, seed))

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse another game's scenario, or one `explorer.resolve` refuses (the command line's checks).

        Raises:
            explorer.ScenarioError: naming the bad key.
        """
        check_scenario(scenario, GAME)
