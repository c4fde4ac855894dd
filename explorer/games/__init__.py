"""The game registry: one `GameDef` per rule system, found by name or alias.

A new game is a package under ``explorer/games/`` and one entry in `GAMES`, naming its
resolver, its dice-lab engine and its widget panel. The resolver, the command line, the app,
the dice lab and the tests all find games here. Engines and panels are named by dotted path
and imported only when asked for, so the core never imports a UI library.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.core.errors import ScenarioError
from explorer.scenario.report import Report
from explorer.scenario.sweep import SweepSpec

if TYPE_CHECKING:
    from explorer.scenario.lab import LabEngine

__all__ = ["GameDef", "GAMES", "find_game", "load", "labs", "panels"]


@dataclass(frozen=True, slots=True)
class GameDef:
    """What the explorer knows of one game."""

    name: str
    """Scenario ``game`` value, such as ``"assault-of-the-giants"``."""
    title: str
    """Full title and edition."""
    resolve: Callable[[Any], Report]
    """Scenario mapping -> report (raises `ScenarioError` on bad input)."""
    aliases: tuple[str, ...] = ()
    lab: str | None = None
    """``module:Class`` of the game's dice-lab engine (pure), or None."""
    panel: str | None = None
    """``module:Class`` of the game's widget panel (ipywidgets; imported by the app only), or None."""
    panel_title: str = ""
    """Tab title of the game's panel in the app."""
    estimate: Callable[[Any], float] | None = None
    """Scenario mapping -> seconds its answer and report are estimated at, computing nothing
    (raises `ScenarioError` on bad input or on a part too big alone); None: cheap, not weighed."""
    sweep: str | None = None
    """``module:NAME`` of the game's `explorer.scenario.sweep.SweepSpec` (what the one sweep,
    `explorer.sweep`, may vary and read), or None: only dotted paths can be swept."""
    trace: str | None = None
    """``module:function`` of the game's seeded trace (scenario, seed -> `TraceStep`s), or None."""

    def sweep_spec(self) -> SweepSpec:
        """The game's sweep inputs and outcomes (none for a game without a `sweep`).

        >>> "attacker basic dice" in find_game("aotg").sweep_spec().inputs
        True
        """
        if self.sweep is None:
            return SweepSpec({}, {})
        spec: SweepSpec = load(self.sweep)
        return spec

    def trace_steps(self, scenario: Any, seed: int) -> tuple[Any, ...]:
        """One seeded run of the scenario, step by step in the rulebook's order.

        Raises:
            ScenarioError: the game has no trace, or the scenario is refused.
        """
        if self.trace is None:
            raise ScenarioError("game", f"{self.name!r} has no step-by-step trace")
        steps: tuple[Any, ...] = tuple(load(self.trace)(scenario, seed))
        return steps

    def lab_engine(self) -> LabEngine:
        """A new dice-lab engine for this game.

        >>> find_game("aotg").lab_engine().title
        'Assault of the Giants'

        Raises:
            ScenarioError: the game has no dice lab.
        """
        if self.lab is None:
            raise ScenarioError("game", f"{self.name!r} has no dice lab yet (labs: {', '.join(labs())})")
        engine: LabEngine = load(self.lab)()
        return engine


def load(dotted: str) -> Any:
    """The object named ``"package.module:Name"``, imported now.

    >>> load("explorer.core.dist:Dist").__name__
    'Dist'
    """
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)


def labs() -> list[str]:
    """Names of the games with a dice lab, in registry order."""
    return [game.name for game in GAMES.values() if game.lab]


def panels() -> list[str]:
    """Names of the games with a widget panel, in registry order."""
    return [game.name for game in GAMES.values() if game.panel]


def _assault_of_the_giants(data: Any) -> Report:
    from explorer.games import assault_of_the_giants

    return assault_of_the_giants.resolve(data)


def _arcadia_quest(data: Any) -> Report:
    from explorer.games import arcadia_quest

    return arcadia_quest.resolve(data)


def _agot_lcg(data: Any) -> Report:
    from explorer.games import agot_lcg

    return agot_lcg.resolve(data)


def _assault_of_the_giants_cost(data: Any) -> float:
    from explorer.games import assault_of_the_giants

    return assault_of_the_giants.estimate(data)


def _arcadia_quest_cost(data: Any) -> float:
    from explorer.games import arcadia_quest

    return arcadia_quest.estimate(data)


def _agot_lcg_cost(data: Any) -> float:
    from explorer.games import agot_lcg

    return agot_lcg.estimate(data)


GAMES: dict[str, GameDef] = {
    game.name: game
    for game in (
        GameDef("assault-of-the-giants", "D&D: Assault of the Giants (WizKids, 2017)",
                _assault_of_the_giants, ("aotg", "assault of the giants"),
                lab="explorer.games.assault_of_the_giants.battle.lab:AssaultLabEngine",
                panel="explorer.panels.assault_of_the_giants.panel:AssaultPanel", panel_title="Assault of the Giants",
                estimate=_assault_of_the_giants_cost,
                sweep="explorer.games.assault_of_the_giants.battle.sweep:SWEEP",
                trace="explorer.games.assault_of_the_giants.battle.trace:trace_scenario"),
        GameDef("arcadia-quest", "Arcadia Quest (CMON, 2014)", _arcadia_quest, ("aq", "arcadia quest"),
                lab="explorer.games.arcadia_quest.attack.lab:ArcadiaLabEngine",
                panel="explorer.panels.arcadia_quest.panel:ArcadiaPanel", panel_title="Arcadia Quest",
                estimate=_arcadia_quest_cost,
                sweep="explorer.games.arcadia_quest.encounter.sweep:SWEEP",
                trace="explorer.games.arcadia_quest.encounter.trace:trace_scenario"),
        GameDef("agot-lcg", "A Game of Thrones: The Card Game, 2nd edition (FFG, 2015)", _agot_lcg,
                ("agot", "a game of thrones"),
                panel="explorer.panels.agot_lcg.panel:AgotPanel", panel_title="A Game of Thrones",
                estimate=_agot_lcg_cost,
                sweep="explorer.games.agot_lcg.round.sweep:SWEEP"),
    )
}
"""Games with a resolver, by scenario name."""


def find_game(name: Any) -> GameDef:
    """The game named `name` (scenario name or alias, any case).

    >>> find_game("AotG").name
    'assault-of-the-giants'

    Raises:
        ScenarioError: for a name no game answers to.
    """
    if isinstance(name, str):
        key = name.strip().lower()
        for game in GAMES.values():
            if key == game.name or key in game.aliases:
                return game
    allowed = ", ".join(f'"{g}"' for g in GAMES)
    raise ScenarioError("game", f"must be one of {allowed}, got {name!r}")
