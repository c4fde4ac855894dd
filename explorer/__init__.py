"""Exact, interactive rules explorer for board-game combat.

The core (distributions, dice, games, resolver) imports no UI library; `explorer.app`,
`explorer.panels` and `explorer.charts` hold the widgets and figures.
"""

from explorer.core.dist import Dist
from explorer.core.errors import ExplorerError, ScenarioError
from explorer.games import GAMES, find_game
from explorer.resolver import load_scenario, resolve

__all__ = ["Dist", "ExplorerError", "GAMES", "ScenarioError", "find_game", "load_scenario", "resolve"]
__version__ = "0.1.0"
