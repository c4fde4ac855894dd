"""The explorer app: one tab per game with a panel, plus the dice lab.

`show()` is what the Voila app notebook displays; `show("assault-of-the-giants")` gives one
game's panel. Which games have a panel or a dice lab is read from the game registry
(`explorer.games.GAMES`); games without a panel are simply absent.

In `show()` only the first game's panel is built at once; every other game's panel and the dice
lab are built the first time their tab is opened (`LazyTab`), and so are the panels' own side
tabs (`explorer.panels.common.lazy`), so that a page does not wait for the widgets of tabs nobody
has looked at yet (a browser creates the views of hidden tabs too).

A shared link (``?game=...&scenario=v1...``, `explorer.share`) is opened by `Explorer.open_link`,
which the app notebook calls in a cell of its own after the app is shown: with a preheated kernel
the app is built before any page asks for it, and only that second cell waits for the page's
address. A link that does not decode shows a message above the tabs and the default scenario.
"""

from __future__ import annotations

import html
import sys
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games import GAMES, find_game, labs, load, panels

if sys.platform == "emscripten":  # the in-browser lab (explorer.site): figures drawn without nbformat
    from explorer.panels.common.chart import show_figures_as_json

    show_figures_as_json()

__all__ = ["show", "build_panel", "DiceLabHost", "Explorer", "LazyTab"]


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
                                     description="game", layout=widgets.Layout(width="420px", max_width="100%",
                                                                                display="" if len(names) > 1 else "none"))
        self.lab = DiceLab(self.game.value)
        self.widget = widgets.VBox([self.game, self.lab.widget])
        self.game.observe(lambda change: self._switch(change["new"]), "value")

    def _switch(self, game: str) -> None:
        self.lab = self._make(game)
        self.widget.children = (self.game, self.lab.widget)


class LazyTab:
    """A tab holding a game's panel (or the dice lab), built the first time the tab is opened (`open`).

    Args:
        game: the game's registry name, or None for the dice lab.

    Attributes:
        game: as given; panel: the panel (or `DiceLabHost`) once built, else None;
        widget: the tab's content (a note until the panel is built, then the panel's widget).
    """

    def __init__(self, game: str | None) -> None:
        self.game = game
        self.panel: Any = None
        title = "Dice lab" if game is None else f"{GAMES[game].panel_title or GAMES[game].title} panel"
        waiting = widgets.HTML(f"<i>Opening the {title}…</i>")
        self.widget = widgets.VBox([waiting])
        self.widget.add_class("explorer-lazy-tab")

    def open(self) -> Any:
        """Build the panel if it is not built yet, and show it; the panel."""
        if self.panel is None:
            self.panel = DiceLabHost() if self.game is None else build_panel(self.game)
            self.widget.children = (self.panel.widget,)
        return self.panel


class Explorer:
    """The whole explorer: a tab per game and the dice lab, and the scenario a shared link opens.

    `show()` displays ``Explorer().widget``; the app notebook keeps the object to call
    `open_link` once the page's address is known (see `explorer.panels.common.share_view`).

    Attributes:
        tabs: the game tabs and the dice lab; notice: a message about the link (hidden when
        none); widget: the root.
    """

    def __init__(self) -> None:
        from explorer.panels.common import stylesheet
        from explorer.panels.common.share_view import where_it_runs

        self.names = panels()
        titles = [GAMES[n].panel_title or GAMES[n].title for n in self.names] + ["Dice lab"]
        self.first = build_panel(self.names[0]) if self.names else None
        self.later: dict[int, LazyTab] = {i: LazyTab(n) for i, n in enumerate(self.names) if i}
        self.later[len(self.names)] = self.dice_lab_tab = LazyTab(None)
        first = [self.first.widget] if self.first is not None else []
        self.tabs = widgets.Tab(first + [self.later[i].widget for i in sorted(self.later)], titles=titles)
        self.tabs.add_class("explorer-app")
        self.tabs.observe(self._opened, "selected_index")
        header = widgets.HTML("<b style='font-size:120%'>Rules explorer</b> <span style='color:#5d6d7e'>"
                              "exact results of board-game combat rules; change anything, every chart follows</span>"
                              f"<br><span class='explorer-where' style='color:#5d6d7e;font-size:90%'>"
                              f"{html.escape(where_it_runs())}</span> <span class='explorer-hint' "
                              "style='color:#5d6d7e;font-size:90%'>Number boxes apply as you type; the ↑ and ↓ keys "
                              "step them.</span>")
        header.add_class("explorer-header")
        self.notice = widgets.HTML(layout=widgets.Layout(display="none"))
        self.notice.add_class("explorer-link-notice")
        self.widget = widgets.VBox([stylesheet(), header, self.notice, self.tabs], layout=widgets.Layout(width="100%"))

    def _opened(self, change: dict[str, Any]) -> None:
        if change["new"] in self.later:
            self.later[change["new"]].open()

    def panel(self, game: str) -> Any:
        """The panel of `game` (a name or alias), built now if its tab was never opened."""
        index = self.names.index(find_game(game).name)
        return self.first if index == 0 else self.later[index].open()

    def select(self, game: str) -> Any:
        """Show the tab of `game` (built if needed) and return its panel."""
        panel = self.panel(game)
        self.tabs.selected_index = self.names.index(find_game(game).name)
        return panel

    def open_link(self, query: str | None = None) -> bool:
        """Open what a shared link asks for: a game's tab, and its scenario loaded into the panel.

        A link that does not decode, or whose scenario the game refuses, changes nothing and
        says why above the tabs (the default scenario stays).

        Args:
            query: the page's query string; None to read it from Voila (`link_query`), or, in the
                browser (the static site), to open it when the page has told it (`PageAddress`).

        Returns:
            True if the link asked for something and it was opened.
        """
        from explorer.panels.common.share_view import PageAddress, in_browser, link_query, open_scenario
        from explorer.share import parse_query

        if query is None and in_browser():  # no server to ask: the page tells its address
            self.address = PageAddress()
            self.address.observe(lambda change: self.open_link(change["new"].lstrip("?")), "search")
            return False
        if query is None:
            query = link_query()
        try:
            link = parse_query(query)
            if link.game is None:
                return False
            panel = self.select(link.game)
            if link.scenario is not None:
                open_scenario(panel, link.scenario)
        except ScenarioError as error:
            self._say(f"This link could not be opened ({error}); showing the default scenario instead.")
            return False
        except Exception as error:  # noqa: BLE001 - no traceback reaches the page
            self._say(f"This link could not be opened ({type(error).__name__}); showing the default scenario instead.")
            return False
        self._say("")
        return True

    def _say(self, text: str) -> None:
        self.notice.value = (f"<div style='background:#fdedec;border-left:4px solid #b03a2e;padding:4px 10px'>"
                             f"⚠ {html.escape(text)}</div>") if text else ""
        self.notice.layout.display = "" if text else "none"


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
    return Explorer().widget
