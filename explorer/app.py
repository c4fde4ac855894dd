"""The explorer app: one tab per game with a panel, plus the dice lab.

`show()` is what the Voila app notebook displays; `show("assault-of-the-giants")` gives one
game's panel. Games without a panel are simply absent.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from explorer.games import find_game

__all__ = ["show", "PANELS"]


def _assault() -> widgets.Widget:
    from explorer.panels.assault import AssaultPanel

    return AssaultPanel().widget


def _dice_lab() -> widgets.Widget:
    from explorer.panels.dice_lab import DiceLab

    return DiceLab().widget


PANELS: dict[str, tuple[str, Callable[[], widgets.Widget]]] = {
    "assault-of-the-giants": ("Assault of the Giants", _assault),
}
"""Games with a widget panel: name -> (tab title, builder)."""


def show(game: str | None = None) -> widgets.Widget:
    """The whole explorer (a tab per game and the dice lab), or one game's panel.

    Args:
        game: a game name or alias; None for everything.

    Raises:
        explorer.ScenarioError: for a game without a panel.
    """
    if game is not None:
        name = find_game(game).name
        if name not in PANELS:
            from explorer.errors import ScenarioError

            raise ScenarioError("game", f"no panel for {name!r} yet (panels: {', '.join(PANELS)})")
        return PANELS[name][1]()
    from explorer.panels.common import stylesheet

    titles = [title for title, _ in PANELS.values()] + ["Dice lab"]
    tabs = widgets.Tab([build() for _, build in PANELS.values()] + [_dice_lab()], titles=titles)
    tabs.add_class("explorer-app")
    header = widgets.HTML("<b style='font-size:120%'>Rules explorer</b> <span style='color:#5d6d7e'>"
                          "exact results of board-game combat rules; change anything, every chart follows</span>")
    header.add_class("explorer-header")
    return widgets.VBox([stylesheet(), header, tabs], layout=widgets.Layout(width="100%"))
