"""The game registry: one `GameDef` per rule system, found by name or alias.

A new game is a module that builds a `GameDef` and an entry in `GAMES`; the resolver,
the command line and the app find it here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.errors import ScenarioError
from explorer.report import Report

__all__ = ["GameDef", "GAMES", "find_game"]


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


def _assault_of_the_giants(data: Any) -> Report:
    from explorer.games import assault_of_the_giants

    return assault_of_the_giants.resolve(data)


def _arcadia_quest(data: Any) -> Report:
    from explorer.games import arcadia_quest

    return arcadia_quest.resolve(data)


def _agot_lcg(data: Any) -> Report:
    from explorer.games import agot_lcg

    return agot_lcg.resolve(data)


GAMES: dict[str, GameDef] = {
    game.name: game
    for game in (
        GameDef("assault-of-the-giants", "D&D: Assault of the Giants (WizKids, 2017)",
                _assault_of_the_giants, ("aotg", "assault of the giants")),
        GameDef("arcadia-quest", "Arcadia Quest (CMON, 2014)", _arcadia_quest, ("aq", "arcadia quest")),
        GameDef("agot-lcg", "A Game of Thrones: The Card Game, 2nd edition (FFG, 2015)", _agot_lcg,
                ("agot", "a game of thrones")),
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
