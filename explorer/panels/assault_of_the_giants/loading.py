"""Load a scenario into the Assault of the Giants panel: every input set from the file, then one resolve."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from explorer.games.assault_of_the_giants import CASTE_ORDER, Side, parse_battle
from explorer.panels.assault_of_the_giants.adapter import GAME
from explorer.panels.assault_of_the_giants.army import ArmyBuilder
from explorer.panels.assault_of_the_giants.cards_editor import CardsEditor
from explorer.panels.assault_of_the_giants.commands import CommandRow
from explorer.panels.assault_of_the_giants.dice_editor import OVERRIDES, FaceEditor, PoolEditor
from explorer.panels.common.scenario_io import check_game

__all__ = ["Inputs", "apply_scenario", "META_KEYS"]


class Inputs(Protocol):
    """What loading sets on a panel: its editors per side, the die faces, the kept keys (`AssaultPanel`)."""

    armies: dict[str, ArmyBuilder]
    pools: dict[str, PoolEditor]
    commands: dict[str, CommandRow]
    cards: dict[str, CardsEditor]
    faces: FaceEditor
    meta: dict[str, Any]

    def pause(self) -> None:
        """Hold resolving while many inputs change."""

    def resume(self) -> None:
        """Resolve once with every change made."""

META_KEYS = ("title", "notes")
"""Top-level keys the panel has no input for but keeps, so a loaded file is written back whole."""


@dataclass(frozen=True)
class _SidePlan:
    """Everything one side's inputs are set to, worked out before any input changes."""

    parsed: Side
    race: str
    race_given: bool
    pool: dict[str, Any]
    overrides: dict[str, Any]
    player: str | None


def _side_plan(role: str, side: Mapping[str, Any], parsed: Side, current_race: str) -> _SidePlan:
    """The race: the side's ``race``, else its first race die, else the panel's current race."""
    pool = dict(side.get("pool", {}))
    race = side.get("race") or next((str(n) for n in pool if n in CASTE_ORDER), current_race)
    overrides = {k: side[k] for k in OVERRIDES if k in side}
    if role == "defender":
        overrides.pop("arcane_to_hits", None)  # the parser allows only 0 here: the same as leaving it out
    return _SidePlan(parsed, str(race), "race" in side, pool, overrides, side.get("player"))


def apply_scenario(panel: Inputs, data: Mapping[str, Any]) -> None:
    """Set every input of `panel` from a scenario, then resolve once.

    The scenario is read first (the game and every key); only then do the inputs change. The
    scenario box has already checked it with the resolver (`AssaultAdapter.check`). Dice the
    scenario does not define go back to their example faces, as the command line reads them.

    Raises:
        ScenarioError: the scenario is for another game, or the parser refuses it.
    """
    check_game(data, GAME)
    battle = parse_battle(data)
    plans = {role: _side_plan(role, data[role], getattr(battle, role), panel.armies[role].race.value)
             for role in ("attacker", "defender")}
    panel.pause()
    try:
        panel.meta = {k: data[k] for k in META_KEYS if k in data}
        panel.faces.reset_all()
        for name, faces in data.get("dice", {}).items():
            panel.faces.set_die(str(name), faces, "from the scenario")
        for role, plan in plans.items():
            parsed = plan.parsed
            panel.armies[role].set_side(
                race=plan.race, race_given=plan.race_given, giantslayers=parsed.giantslayers, npc=parsed.npc,
                casualty_order=parsed.casualty_order, reroll_policy=parsed.reroll_policy,
                units=list(parsed.units), player=plan.player, objective=parsed.objective)
            panel.pools[role].set_pool(plan.pool, plan.race, plan.overrides)
            panel.commands[role].set_commands(list(parsed.commands))
            panel.commands[role].set_enabled(not parsed.npc)
            panel.cards[role].set_dice(list(panel.faces.faces))
            panel.cards[role].set_cards(parsed.cards, parsed.card_rerolls)
    finally:
        panel.resume()
