"""The Assault of the Giants panel: two armies, command rows, dice, and what the rules make of them.

The panel keeps no rules: it writes its inputs as a scenario (format v1), hands it to the
game's resolver and shows the result. A bad input shows a message next to it; the other
inputs and the last good charts stay. After every change the scenario box, the what-if
comparison, the sweep and the roll-once steps follow too (or say which battle they still show):
they are the shared parts of `explorer.panels.common`, told of every resolve through the host
protocol (`explorer.panels.common.host.PanelHost`, which this panel implements) and given the
game's pieces by `AssaultAdapter`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import BattleReport, BattleResult
from explorer.panels.assault_of_the_giants.adapter import AssaultAdapter
from explorer.panels.assault_of_the_giants.army import ArmyBuilder
from explorer.panels.assault_of_the_giants.cards_editor import CardsEditor
from explorer.panels.assault_of_the_giants.commands import CommandRow
from explorer.panels.assault_of_the_giants.dice_editor import OVERRIDES, FaceEditor, PoolEditor
from explorer.panels.assault_of_the_giants.labels import FIELD_NAMES, screen_labels
from explorer.panels.assault_of_the_giants.loading import apply_scenario
from explorer.panels.assault_of_the_giants.plan_tab import PlanTab
from explorer.panels.assault_of_the_giants.reroll_advisor import RerollAdvisor
from explorer.panels.assault_of_the_giants.results import BattleResults
from explorer.panels.assault_of_the_giants.row_advisor import RowAdvisor
from explorer.panels.assault_of_the_giants.table_tab import TableTabSlot
from explorer.panels.common.display import ErrorMessage, stylesheet
from explorer.panels.common.lazy import RESULTS, SCENARIO, SWEEP, TRACE, WHATIF, PartTabs, SharedTabs
from explorer.panels.common.resolving import ResolvingHost, resolve_as
from explorer.panels.common.scenario_io import ScenarioBox
from explorer.panels.common.sweep import Sweep
from explorer.panels.common.trace_view import TraceView
from explorer.panels.common.whatif import WhatIf

__all__ = ["AssaultPanel", "DEFAULTS"]

DEFAULTS: dict[str, dict[str, Any]] = {
    "attacker": {"race": "fire", "commands": ["Leader", "Move", "Magic", "Attack"], "basic": 4, "special": 1},
    "defender": {"race": "hill", "commands": ["Recruit", "Leader", "Trade"], "basic": 3, "special": 1},
}
"""The battle the panel opens with (example dice and units)."""

_REROLL, _ROW, _PLAN, _TABLE = "What should I reroll?", "Which row? (advisor)", "Plan of battles", "Rules of the table"

_BANNER = ("<details class='explorer-banner' style='background:#fef5e7;border-left:4px solid #8a5a00;"
           "padding:3px 10px'><summary><b>Check these numbers against your box:</b> values marked "
           "<span style='color:#8a5a00'>example</span> are placeholders (more)</summary>"
           "The rulebook pages available to us list neither the dice faces nor the units' Fortitude and "
           "Ordning Values. Enter your dice under <b>Die faces</b> and your units' values in the army lists; "
           "every value shows its source.</details>")


class AssaultPanel(SharedTabs, ResolvingHost):
    """Everything for one Assault of the Giants battle; `widget` is the root to display.

    A `explorer.panels.common.host.PanelHost`: `scenario`, `result`, `valid`, `apply`, `pause`,
    `resume` and `on_update` are what the shared parts (`whatif`, `sweep`, `trace`,
    `scenario_box`) use.
    """

    noun = "battle"
    field_names = FIELD_NAMES
    """The labels on screen of the inputs, for the messages beside them (`labels`; each resolve names the
    rows, dice and cards shown then)."""
    pools: dict[str, PoolEditor]
    """Each side's dice pool (the army builders' race switch reaches them)."""

    def refresh(self) -> bool:
        """Resolve the current inputs (`ResolvingHost.refresh`), messages naming the inputs as shown now."""
        self.field_names = screen_labels({r: a.rows for r, a in self.armies.items()},
                                         {r: c.commands for r, c in self.commands.items()}, self.pools, self.cards,
                                         self.faces.faces)
        return super().refresh()

    def _race_switch(self, role: str) -> Callable[[str], None]:
        """What a side's army builder calls when its race changes: that side's pool follows."""
        return lambda race: self.pools[role].set_race(race)

    def __init__(self) -> None:
        self._start_resolving()
        self.adapter = AssaultAdapter()
        """The game's pieces for the shared parts."""
        """False while the inputs are refused: every view then shows the last valid battle."""
        self.meta: dict[str, Any] = {}
        """Top-level keys of a loaded scenario with no input here (``title``, ``notes``), kept as they were."""
        self.armies = {role: ArmyBuilder(role, d["race"], self._changed, self._race_switch(role))
                       for role, d in DEFAULTS.items()}
        self.commands = {role: CommandRow(role, d["commands"], self._changed) for role, d in DEFAULTS.items()}
        self.pools = {role: PoolEditor(role, d["race"], d["basic"], d["special"], self._changed)
                      for role, d in DEFAULTS.items()}
        self.cards = {role: CardsEditor(role, self._changed) for role in DEFAULTS}
        """The Spell and Resource Cards each side plays before final totals (pp.16-17)."""
        self.faces = FaceEditor(self._changed)
        self.error = ErrorMessage("aotg-error", "aotg-error-main")
        self.status = widgets.HTML()
        self.banner = widgets.HTML(_BANNER)
        self.result: BattleResult = resolve_as(self.scenario(), BattleReport).result
        self.results = BattleResults(self.result)
        self.tabs = PartTabs({
            WHATIF: lambda: WhatIf(self, self.adapter),
            SWEEP: lambda: Sweep(self, self.adapter),
            TRACE: lambda: TraceView(self, self.adapter),
            _REROLL: lambda: RerollAdvisor(self),
            _ROW: lambda: RowAdvisor(self, lambda: list(self.commands["attacker"].commands)),
            _PLAN: lambda: PlanTab(self),
            _TABLE: TableTabSlot,
            SCENARIO: lambda: ScenarioBox(self, self.adapter),
        }, active=(_REROLL, _ROW, _PLAN, _TABLE), lead=(RESULTS, self.results.widget))
        """The results and every tool, as tabs beside the inputs; each tool is built when first opened
        (`PartTabs`); the advisors, the plan and the table compute only while their tab is open."""
        for role, army in self.armies.items():
            army.npc.observe(lambda c, r=role: self.commands[r].set_enabled(not c["new"]), "value")
        giantslayers = self.armies["attacker"].giantslayers
        giantslayers.observe(lambda c: self.commands["attacker"].set_giantslayers(c["new"]), "value")
        self.commands["attacker"].set_giantslayers(giantslayers.value)
        self.widget = self._layout()
        self._ready = True
        self.refresh()

    def _layout(self) -> widgets.Widget:
        faces = widgets.Accordion([self.faces.widget], titles=("Die faces (examples: check your dice)",))
        faces.selected_index = None
        inputs = widgets.VBox([widget for role in ("attacker", "defender")
                               for widget in (self.armies[role].widget, self.commands[role].widget,
                                              self.pools[role].widget, self.cards[role].widget)] + [faces])
        inputs.add_class("explorer-inputs")
        results = widgets.VBox([self.error.widget, self.status, self.tabs.tab])
        results.add_class("explorer-results")
        main = widgets.Box([results, inputs])
        main.add_class("explorer-main")
        self.extras = self.tabs.tab
        root = widgets.VBox([stylesheet(), self.banner, main])
        root.add_class("aotg-panel")
        root.add_class("explorer-root")
        return root

    @property
    def reroll_advisor(self) -> RerollAdvisor:
        """The "What should I reroll?" tab (built now if never opened)."""
        return self.tabs.part(_REROLL)  # type: ignore[no-any-return]

    @property
    def row_advisor(self) -> RowAdvisor:
        """The "Which row? (advisor)" tab (built now if never opened)."""
        return self.tabs.part(_ROW)  # type: ignore[no-any-return]

    @property
    def plan(self) -> PlanTab:
        """The "Plan of battles" tab (built now if never opened)."""
        return self.tabs.part(_PLAN)  # type: ignore[no-any-return]

    @property
    def table_rules(self) -> TableTabSlot:
        """The "Rules of the table" tab (p.20); it needs no battle."""
        return self.tabs.part(_TABLE)  # type: ignore[no-any-return]

    def scenario(self) -> dict[str, Any]:
        """The panel's inputs as a scenario (format v1, with the project's extra keys)."""
        sides = {}
        for role in ("attacker", "defender"):
            side = self.armies[role].to_dict()
            side["pool"] = self.pools[role].to_dict()
            side.update(self.pools[role].override_dict())
            side.update(self.cards[role].keys())
            side["commands"] = [] if side["npc"] else list(self.commands[role].commands)
            sides[role] = side
        return {"format": 1, "game": "assault-of-the-giants", **self.meta, "dice": self.faces.to_dict(), **sides}

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Set every input from a scenario (checked first by `AssaultAdapter.check`), then resolve once.

        Raises:
            ScenarioError: the scenario is for another game or the parser refuses it; no input changed.
        """
        apply_scenario(self, scenario)

    def _messages(self) -> list[ErrorMessage]:
        return [self.error, self.faces.error, *(a.error for a in self.armies.values()),
                *(p.error for p in self.pools.values()), *(c.error for c in self.cards.values())]

    def _route(self, error: ScenarioError) -> ErrorMessage:
        """The message box next to the input the error names."""
        field = error.field
        if field.startswith("dice"):
            return self.faces.error
        for role in ("attacker", "defender"):
            if field.startswith(f"{role}.cards"):
                return self.cards[role].error
            if field.startswith(f"{role}.pool") or field in (f"{role}.{key}" for key in OVERRIDES):
                return self.pools[role].error
            if field.startswith(role):
                return self.armies[role].error
        return self.error

    def _compute(self) -> BattleResult:
        return resolve_as(self.scenario(), BattleReport).result
