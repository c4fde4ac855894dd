"""The Arcadia Quest panel: one hero action against a Monster, and what the rules make of it.

The panel keeps no rules: it writes its inputs as an encounter scenario (format v1 with the
encounter keys), hands it to the game's resolver and shows the result. A bad input shows a
message next to it, naming the field; the other inputs and the last good charts stay, dimmed
and labelled. After every change the scenario box, the what-if comparison, the sweep and the
roll-once steps follow too: they are the shared parts of `explorer.panels.common`, told of every
resolve through the host protocol (`explorer.panels.common.host.PanelHost`, which this panel
implements) and given the game's pieces by `ArcadiaAdapter`.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest import (
    ATTACK_CARDS,
    ATTACK_DIE,
    ENCOUNTER_RULINGS,
    HEROES,
    MONSTERS,
    REACTION_RULINGS,
    EncounterReport,
    EncounterResult,
    parse_encounter,
)
from explorer.panels.arcadia_quest.adapter import GAME, ArcadiaAdapter
from explorer.panels.arcadia_quest.hero import CardEditor, HeroEditor
from explorer.panels.arcadia_quest.labels import FIELD_NAMES, screen_labels
from explorer.panels.arcadia_quest.monsters import CloseMonsters, TargetEditor
from explorer.panels.arcadia_quest.results import EncounterResults
from explorer.panels.arcadia_quest.targets import AlsoTargets
from explorer.panels.common.display import ErrorMessage, heading, note, stylesheet
from explorer.panels.common.lazy import RESULTS, SCENARIO, SWEEP, TRACE, WHATIF, PartTabs, SharedTabs
from explorer.panels.common.number_box import NumberText
from explorer.panels.common.resolving import ResolvingHost, resolve_as
from explorer.panels.common.scenario_io import ScenarioBox, check_game
from explorer.panels.common.sweep import Sweep
from explorer.panels.common.trace_view import TraceView
from explorer.panels.common.whatif import WhatIf

__all__ = ["ArcadiaPanel", "META_KEYS"]


META_KEYS = ("title", "notes", "dice")
"""Top-level keys the panel has no input for but keeps, so a loaded file is written back whole."""

DEFAULT_CLOSE = ("Orc Marauder", "Goblin Archer")
"""The Close Monsters the panel opens with (printed p.20, Guard Example 1)."""


def _banner() -> str:
    sources = [f"{label}: {source}" for label, table in (("Heroes", HEROES), ("Attack cards", ATTACK_CARDS),
                                                          ("Monsters", MONSTERS))
               for source in dict.fromkeys(s.source for s in table.values())]
    rulings = "".join(f"<li>{html.escape(r)}</li>" for r in ENCOUNTER_RULINGS + REACTION_RULINGS)
    listed = "".join(f"<li>{html.escape(s)}</li>" for s in [*sources, f"Die faces: {ATTACK_DIE.source}"])
    return ("<details class='explorer-banner aq-banner' style='background:#fef5e7;border-left:4px solid #8a5a00;"
            "padding:3px 10px'><summary><b>Check these numbers against your cards:</b> the hero, card and Monster "
            "values are fan-collected (<span style='color:#8a5a00'>amber</span> sources) and the die faces inferred "
            "from fan apps; rulings and sources (more)</summary>"
            "<p style='margin:4px 0'>The rulebook prints icons, not numbers, for most of these. Every value is "
            "editable and shows its source beside it; point at a source for the whole text.</p>"
            f"<b>Where the values come from</b><ul style='margin:2px 0'>{listed}</ul>"
            f"<b>Rulings used where the rules are silent</b><ul style='margin:2px 0'>{rulings}</ul></details>")


class ArcadiaPanel(SharedTabs, ResolvingHost):
    """Everything for one Arcadia Quest encounter; `widget` is the root to display.

    A `explorer.panels.common.host.PanelHost`: `scenario`, `result`, `valid`, `apply`, `pause`,
    `resume` and `on_update` are what the shared parts (`whatif`, `sweep`, `trace`,
    `scenario_box`) use.
    """

    noun = "encounter"
    field_names = FIELD_NAMES
    """The labels on screen of the inputs, for the messages beside them (`labels`; each resolve names the
    Monster rows shown then)."""

    def refresh(self) -> bool:
        """Resolve the current inputs (`ResolvingHost.refresh`), messages naming the inputs as shown now."""
        self.field_names = screen_labels(self.close.rows, self.also.rows)
        return super().refresh()

    def __init__(self) -> None:
        self._start_resolving()
        self.adapter = ArcadiaAdapter()
        """The game's pieces for the shared parts."""
        """False while the inputs are refused: every view then shows the last valid encounter."""
        self.meta: dict[str, Any] = {}
        """Top-level keys of a loaded scenario with no input here (`META_KEYS`), kept as they were."""
        self.card = CardEditor(self._changed, lambda group: self.hero.follow_group(group))
        self.hero = HeroEditor(self._changed, lambda: self.card.group.value)
        self.target = TargetEditor(self._changed)
        self.also = AlsoTargets(self._changed, lambda: self.target.name)
        """The other Monsters the attack targets, and who of the targeted pays back (``payback_by``)."""
        self.close = CloseMonsters(self._changed)
        for name in DEFAULT_CLOSE:
            self.close.add_preset(name, notify=False)
        self.opponent = widgets.Checkbox(True, description="the opponent attacks with the Monsters (Payback, Guard)",
                                         indent=False, layout=widgets.Layout(width="auto"))
        self.opponent.add_class("aq-opponent")
        self.guilds = NumberText(4, description="Guilds in the game", style={"description_width": "initial"},
                                 tooltip="2 to 4: every other Guild gets 1 coin when a Monster kills the hero",
                                 layout=widgets.Layout(width="170px"))
        self.guilds.add_class("aq-guilds")
        self.game_error = ErrorMessage("aq-error", "aq-error-game")
        for w in (self.opponent, self.guilds):
            w.observe(lambda _c: self._changed(), "value")
        self.error = ErrorMessage("aq-error", "aq-error-main")
        self.status = widgets.HTML()
        self.banner = widgets.HTML(_banner())
        self.result: EncounterResult = resolve_as(self.scenario(), EncounterReport).result
        self.results = EncounterResults(self.result)
        self.tabs = PartTabs({WHATIF: lambda: WhatIf(self, self.adapter), SWEEP: lambda: Sweep(self, self.adapter),
                              TRACE: lambda: TraceView(self, self.adapter),
                              SCENARIO: lambda: ScenarioBox(self, self.adapter)},
                             lead=(RESULTS, self._results_tab()))
        """The results and every tool, as tabs beside the inputs; each tool built when first opened."""
        self.widget = self._layout()
        self._ready = True
        self.refresh()

    def _results_tab(self) -> widgets.Widget:
        order = note("One hero action: his attack → one targeted Monster's Payback (unless overkilled) → the Guard "
                     "of each Close Monster (printed pp.20-21). Exact chances.")
        return widgets.VBox([self.results.widget, order])

    def _layout(self) -> widgets.Widget:
        game = widgets.VBox([heading("Reactions and coins"), widgets.HBox([self.opponent, self.guilds]),
                             self.game_error.widget])
        inputs = widgets.VBox([self.hero.widget, self.card.widget, self.target.widget, self.also.widget,
                               self.close.widget, game])
        inputs.add_class("explorer-inputs")
        results = widgets.VBox([self.error.widget, self.status, self.tabs.tab])
        results.add_class("explorer-results")
        main = widgets.Box([results, inputs])
        main.add_class("explorer-main")
        self.extras = self.tabs.tab
        root = widgets.VBox([stylesheet(), self.banner, main])
        root.add_class("aq-panel")
        root.add_class("explorer-root")
        return root


    def scenario(self) -> dict[str, Any]:
        """The panel's inputs as an encounter scenario (format v1 with the encounter keys), as typed."""
        meta = {k: v for k, v in self.meta.items() if k != "dice"}
        out = {"format": 1, "game": GAME, "question": "encounter", **meta, "hero": self.hero.to_dict(),
               "attack": self.card.to_dict(), "target": self.target.to_dict(), **self.also.to_scenario(),
               "close_monsters": self.close.to_list(), "opponent_attacks": self.opponent.value,
               "guilds": self.guilds.value}
        return out | ({"dice": self.meta["dice"]} if "dice" in self.meta else {})

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Set every input from an encounter scenario (checked first by `ArcadiaAdapter.check`), then resolve once.

        The scenario is read first; only then do the inputs change.

        Raises:
            ScenarioError: the scenario is for another game or the reader refuses it; no input changed.
        """
        check_game(scenario, GAME)
        enc = parse_encounter(scenario)
        raw_close = list(scenario.get("close_monsters") or [])
        self.pause()
        try:
            self.meta = {k: scenario[k] for k in META_KEYS if k in scenario}
            self.card.load(scenario["attack"], enc.card, enc.also_targets_close)
            self.hero.load(scenario["hero"], enc.hero)
            self.target.load(scenario["target"], enc.target, close=enc.target_close, reaches=enc.payback_reaches,
                             tokens=enc.other_guild_tokens)
            self.also.load(list(scenario.get("also_targets") or []), enc.also_targets, enc.payback_by)
            self.close.load(raw_close, enc.close_monsters)
            self.opponent.value, self.guilds.value = enc.opponent_attacks, enc.guilds
        finally:
            self.resume()

    def _messages(self) -> list[ErrorMessage]:
        return [self.error, self.game_error, self.hero.error, self.card.error, self.target.error, self.also.error,
                self.close.error]

    def _route(self, error: ScenarioError) -> ErrorMessage:
        """The message box next to the input the error names."""
        field = error.field
        for prefix, message in (("hero", self.hero.error), ("attack", self.card.error),
                                ("target", self.target.error), ("close_monsters", self.close.error),
                                ("also_targets", self.also.error), ("payback_by", self.also.error),
                                ("guilds", self.game_error), ("opponent_attacks", self.game_error)):
            if field == prefix or field.startswith((f"{prefix}.", f"{prefix}[")):
                return message
        return self.error

    def _guard_note(self) -> None:
        """Say, next to the Close Monsters, whether they guard and why."""
        names = [row.name for row in self.close.rows]
        if not names:
            text = "No Monster is Close to the hero: no Guard attack."
        elif self.target.close.value or self.card.also_targets_close.value or self.also.any_close():
            text = "No Guard: the attack targets a Close Monster, which fends off all of them (p.20)."
        elif not self.opponent.value:
            text = "No Guard: the opponent does not attack with the Monsters (below)."
        else:
            text = f"Guard: {', '.join(names)} attack{'s' if len(names) == 1 else ''} the hero after the Payback."
        self.close.guard.value = f'<span style="font-size:90%">{html.escape(text)}</span>'

    def _compute(self) -> EncounterResult:
        self.also.refresh_names()
        self._guard_note()
        return resolve_as(self.scenario(), EncounterReport).result
