"""The A Game of Thrones panel: build both sides, declare a round of challenges, see what the rules make of it.

The panel keeps no rules: it writes its inputs as a round scenario (``"question": "round"``), hands
it to the game's core and shows the result (the summary, the step trace in the rulebook's words,
the power through the round and the winner-by-STR heatmap). A bad input shows a message beside it,
naming the field; the last good charts stay, dimmed and labelled. The what-if comparison, the
sweep, the round's steps and the scenario box are the shared parts of `explorer.panels.common`,
told of every resolve through the host protocol and given the game's pieces by `AgotAdapter`.
The card odds and the race to 15 have their own inputs (`OddsPanel`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg import RoundReport
from explorer.panels.agot_lcg.adapter import GAME, AgotAdapter
from explorer.panels.agot_lcg.board import SideEditor
from explorer.panels.agot_lcg.challenges import RoundBuilder
from explorer.panels.agot_lcg.labels import round_labels
from explorer.panels.agot_lcg.odds import OddsPanel
from explorer.panels.agot_lcg.results import RoundResults
from explorer.panels.common.display import ErrorMessage, note, stylesheet
from explorer.panels.common.field_names import FieldNames
from explorer.panels.common.lazy import RESULTS, SCENARIO, SWEEP, WHATIF, PartTabs, SharedTabs
from explorer.panels.common.resolving import ResolvingHost, resolve_as
from explorer.panels.common.scenario_io import ScenarioBox, check_game
from explorer.panels.common.sweep import Sweep
from explorer.panels.common.trace_view import TraceView
from explorer.panels.common.whatif import WhatIf

__all__ = ["AgotPanel", "DEFAULT", "META_KEYS"]

_ODDS, _STEPS = "Card odds, race to 15", "The round's steps"

META_KEYS = ("title", "notes", "x", "keyword_order")
"""Top-level keys the panel has no input for but keeps, so a loaded file is written back whole."""

DEFAULT: dict[str, Any] = {
    "format": 1, "game": GAME, "question": "round",
    "players": {
        "first": {"faction": 5, "gold": 1, "claim": 1, "deck": 30, "characters": [
            {"name": "Sworn Knight", "str": 4, "icons": ["military", "power"], "keywords": ["renown"]},
            {"name": "Spy", "str": 2, "icons": ["intrigue"], "keywords": ["stealth"]},
            {"name": "Raider", "str": 3, "icons": ["military", "intrigue"], "keywords": ["pillage"]}]},
        "second": {"faction": 6, "gold": 2, "claim": 1, "deck": 25, "characters": [
            {"name": "Castellan", "str": 3, "icons": ["military", "power"], "power": 1},
            {"name": "Steward", "str": 1, "icons": ["intrigue", "power"]}]}},
    "challenges": [
        {"attacker": "first", "type": "military", "attackers": ["Raider"]},
        {"attacker": "first", "type": "power", "attackers": ["Sworn Knight"]},
        {"attacker": "second", "type": "intrigue", "attackers": ["Steward"]}],
}
"""The round the panel opens with (example characters, not card data)."""


class AgotPanel(SharedTabs, ResolvingHost):
    """Everything for one round of A Game of Thrones; `widget` is the root to display.

    A `explorer.panels.common.host.PanelHost`: `scenario`, `result`, `valid`, `apply`, `pause`,
    `resume` and `on_update` are what the shared parts use.
    """

    noun = "round"
    trace_title = _STEPS

    def __init__(self) -> None:
        self._start_resolving()
        self.adapter = AgotAdapter()
        """The game's pieces for the shared parts."""
        """False while the inputs are refused: every view then shows the last valid round."""
        self.meta: dict[str, Any] = {}
        """Top-level keys of a loaded scenario with no input here (`META_KEYS`)."""
        players = DEFAULT["players"]
        self.sides = {key: SideEditor(key, players[key], self._changed) for key in ("first", "second")}
        self.challenges = RoundBuilder(self._changed, lambda key: self.sides[key].characters())
        for side in self.sides.values():
            side.watch(self.challenges.roster_changed)
        self.challenges.load(DEFAULT["challenges"])
        self.swap = widgets.Button(description="swap first player", icon="exchange",
                                   tooltip="the second player becomes the first (sides and challenges swap)")
        self.swap.add_class("agot-swap")
        self.swap.on_click(lambda _b: self.swap_players())
        self.error = ErrorMessage("agot-error", "agot-error-main")
        self.status = widgets.HTML()
        self.result = resolve_as(self.scenario(), RoundReport)
        self.results = RoundResults(self.result)
        self.tabs = PartTabs({_ODDS: OddsPanel, WHATIF: lambda: WhatIf(self, self.adapter),
                              SWEEP: lambda: Sweep(self, self.adapter), _STEPS: self._steps_view,
                              SCENARIO: lambda: ScenarioBox(self, self.adapter)},
                             lead=(RESULTS, self._results_tab()))
        """The results and every tool, as tabs beside the inputs; each tool built when first opened."""
        self.widget = self._layout()
        self._ready = True
        self.refresh()

    def _results_tab(self) -> widgets.Widget:
        order = note("A round of challenges (4.2): each declared challenge in order (attackers and defenders kneel, "
                     "the higher STR wins, ties to the attacker, 0 STR wins nothing, unopposed +1 power, claim, "
                     "keywords), then dominance (5.2). Rules Reference, 2nd edition.")
        return widgets.VBox([self.results.widget, order])

    def _layout(self) -> widgets.Widget:
        inputs = widgets.VBox([self.swap, self.sides["first"].widget, self.sides["second"].widget, self.challenges.widget])
        inputs.add_class("explorer-inputs")
        results = widgets.VBox([self.error.widget, self.status, self.tabs.tab])
        results.add_class("explorer-results")
        main = widgets.Box([results, inputs])
        main.add_class("explorer-main")
        self.extras = self.tabs.tab
        root = widgets.VBox([stylesheet(), main])
        root.add_class("agot-panel")
        root.add_class("explorer-root")
        return root

    def _steps_view(self) -> TraceView:
        """A round has no chance in it: the shared "roll once" view shows its steps, with no seed."""
        trace = TraceView(self, self.adapter)
        trace.seed.layout.display = trace.again.layout.display = "none"
        trace.roll.description = "Show the steps"
        trace.widget.children = (note("The current round step by step, each citing its rule (a round has no "
                                      "dice: the same inputs always give the same steps)."),
                                 *trace.widget.children[1:])
        return trace

    @property
    def field_names(self) -> FieldNames:  # type: ignore[override]  # a table made from the inputs as they are
        """The labels on screen of the round's inputs, as they are now: characters by their names ("Sworn
        Knight, STR"), challenges by theirs ("Military challenge 1, attackers"), each player's boxes
        ("First player, deck"); the messages beside the inputs use them (`labels.round_labels`)."""
        return round_labels({key: side.names() for key, side in self.sides.items()},
                            [row.name for row in self.challenges.rows])

    @property
    def odds(self) -> OddsPanel:
        """The "Card odds, race to 15" tab."""
        return self.tabs.part(_ODDS)  # type: ignore[no-any-return]


    def scenario(self) -> dict[str, Any]:
        """The panel's inputs as a round scenario (format v1 with the round keys), as typed."""
        return {"format": 1, "game": GAME, "question": "round", **self.meta,
                "players": {k: side.to_dict() for k, side in self.sides.items()},
                "challenges": self.challenges.to_list()}

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Set every input from a round scenario (checked first by `AgotAdapter.check`), then resolve once.

        Raises:
            ScenarioError: the scenario is for another game or the reader refuses it; no input changed.
        """
        check_game(scenario, GAME)
        resolve_as(scenario, RoundReport)
        self.pause()
        try:
            self.meta = {k: scenario[k] for k in META_KEYS if k in scenario}
            for key, side in self.sides.items():
                side.load(scenario["players"][key])
            self.challenges.load(list(scenario.get("challenges") or []))
        finally:
            self.resume()

    def swap_players(self) -> None:
        """Make the second player the first: the sides trade places, each challenge keeps its attacker's
        characters, and the new first player's challenges come first (4.2); then resolve once."""
        data = self.scenario()
        other = {"first": "second", "second": "first"}
        challenges = [c | {"attacker": other.get(c["attacker"], c["attacker"])} for c in data["challenges"]]
        challenges.sort(key=lambda c: c["attacker"] != "first")
        self.pause()
        try:
            for key, side in self.sides.items():
                side.load(data["players"][other[key]])
            self.challenges.load(challenges)
        finally:
            self.resume()

    def _messages(self) -> list[ErrorMessage]:
        return [self.error, self.challenges.error, *(side.error for side in self.sides.values())]

    def _route(self, error: ScenarioError) -> ErrorMessage:
        """The message box beside the input the error names."""
        field = error.field
        for prefix, message in (("players.first", self.sides["first"].error),
                                ("players.second", self.sides["second"].error),
                                ("challenges", self.challenges.error)):
            if field == prefix or field.startswith((f"{prefix}.", f"{prefix}[")):
                return message
        return self.error

    def _compute(self) -> Any:
        return resolve_as(self.scenario(), RoundReport)
