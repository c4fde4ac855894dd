"""The explorer app: one tab per game with a panel, plus the dice lab.

`show()` is what the Voila app notebook displays; `show("assault-of-the-giants")` gives one
game's panel. Which games have a panel or a dice lab is read from the game registry
(`explorer.games.GAMES`); games without a panel are simply absent.

In `show()` the first game's panel and the dice lab are built at once; every other game's panel
is built the first time its tab is opened (`LazyTab`), so that a page does not wait for the
widgets of tabs nobody has looked at yet (a browser creates the views of hidden tabs too).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from explorer.errors import ScenarioError
from explorer.games import GAMES, find_game, labs, load, panels

__all__ = ["show", "build_panel", "DiceLabHost", "LazyTab"]


def build_panel(game: str) -> Any:
    """A new panel object for `game` (its ``widget`` is what is displayed).

    Raises:
        explorer.ScenarioError: for a game without a panel.
    """
    definition = find_game(game)
    if definition.panel is None:
        raise ScenarioError("game", f"no panel for {definition.name!r} yet (panels: {', '.join(panels())})")
    return load(definition.panel)()


class DiceLabHost:
    """The Dice lab tab: a game picker (when several games have a lab) above that game's lab."""

    def __init__(self, game: str | None = None) -> None:
        from explorer.panels.common.dice_lab import DiceLab

        self._make = DiceLab
        names = labs()
        self.game = widgets.Dropdown(options=[(GAMES[n].title, n) for n in names], value=game or names[0],
                                     description="game", layout=widgets.Layout(width="420px",
                                                                                display=None if len(names) > 1 else "none"))
        self.lab = DiceLab(self.game.value)
        self.widget = widgets.VBox([self.game, self.lab.widget])
        self.game.observe(lambda change: self._switch(change["new"]), "value")

    def _switch(self, game: str) -> None:
        self.lab = self._make(game)
        self.widget.children = (self.game, self.lab.widget)


class LazyTab:
    """A tab holding a game's panel, built the first time the tab is opened (`open`).

    Attributes:
        game: the game's registry name; panel: its panel once built (else None);
        widget: the tab's content (a note until the panel is built, then the panel's widget).
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.panel: Any = None
        waiting = widgets.HTML(f"<i>Opening the {GAMES[game].panel_title or GAMES[game].title} panel…</i>")
        self.widget = widgets.VBox([waiting])
        self.widget.add_class("explorer-lazy-tab")

    def open(self) -> Any:
        """Build the panel if it is not built yet, and show it; the panel."""
        if self.panel is None:
            self.panel = build_panel(self.game)
            self.widget.children = (self.panel.widget,)
        return self.panel


def show(game: str | None = None) -> widgets.Widget:
    """The whole explorer (a tab per game and the dice lab), or one game's panel.

    Args:
        game: a game name or alias; None for everything.

    Raises:
        explorer.ScenarioError: for a game without a panel.
    """
    if game is not None:
        widget: widgets.Widget = build_panel(game).widget
        return widget
    from explorer.panels.common import stylesheet

    names = panels()
    titles = [GAMES[n].panel_title or GAMES[n].title for n in names] + ["Dice lab"]
    later = {i: LazyTab(n) for i, n in enumerate(names) if i}
    first = [build_panel(names[0]).widget] if names else []
    tabs = widgets.Tab(first + [later[i].widget for i in sorted(later)] + [DiceLabHost().widget], titles=titles)
    tabs.add_class("explorer-app")

    def opened(change: dict[str, Any]) -> None:
        if change["new"] in later:
            later[change["new"]].open()

    tabs.observe(opened, "selected_index")
    header = widgets.HTML("<b style='font-size:120%'>Rules explorer</b> <span style='color:#5d6d7e'>"
                          "exact results of board-game combat rules; change anything, every chart follows</span>")
    header.add_class("explorer-header")
    return widgets.VBox([stylesheet(), header, tabs], layout=widgets.Layout(width="100%"))
