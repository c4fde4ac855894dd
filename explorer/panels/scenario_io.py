"""Save, share and load the panel's battle as a scenario (format v1, JSON)."""

from __future__ import annotations

import base64
import html
import json
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants import parse_battle
from explorer.games.assault_of_the_giants.data import CASTE_ORDER, DEFAULT_DICE
from explorer.panels.common import ErrorMessage, note

if TYPE_CHECKING:
    from explorer.panels.assault import AssaultPanel

__all__ = ["ScenarioBox", "apply_scenario"]

_DERIVED = ("rerolls", "arcane_to_hits", "arcane_to_blocks")


def _race_of(role: str, side: dict[str, Any], current: str) -> str:
    """The side's race: its ``race`` key, else the one race die in its pool, else unchanged."""
    if "race" in side:
        return str(side["race"])
    specials = [name for name in side.get("pool", {}) if name in CASTE_ORDER]
    if len(specials) > 1:
        raise ScenarioError(f"{role}.pool", "the panel rolls basic dice and one race's special die; "
                                            f"this pool has {', '.join(specials)} (use the command line)")
    return specials[0] if specials else current


def _check_panel_can_show(data: dict[str, Any]) -> None:
    """Refuse, naming the key, what the panel has no input for."""
    for name in data.get("dice", {}):
        if name not in DEFAULT_DICE:
            raise ScenarioError(f"dice.{name}", f"the panel edits the dice {', '.join(DEFAULT_DICE)}; "
                                                "rename the die or use the command line")
    for role in ("attacker", "defender"):
        side = data[role]
        for key in _DERIVED:
            if key in side:
                raise ScenarioError(f"{role}.{key}", "the panel reads rerolls and conversions from the command "
                                                     "row (or the NPC limits); remove the key to load it here")
        race = _race_of(role, side, "hill")
        for name in side.get("pool", {}):
            if name not in ("basic", race):
                raise ScenarioError(f"{role}.pool.{name}", f'the panel rolls "basic" and "{race}" dice only')


def apply_scenario(panel: AssaultPanel, data: dict[str, Any]) -> None:
    """Set every input of `panel` from a scenario, then resolve once.

    Raises:
        ScenarioError: the scenario is invalid, or asks for what the panel cannot show.
    """
    battle = parse_battle(data)
    _check_panel_can_show(data)
    panel.pause()
    try:
        for name, faces in data.get("dice", {}).items():
            panel.faces.set_die(name, faces, "from the scenario")
        for role in ("attacker", "defender"):
            side, parsed = data[role], getattr(battle, role)
            army = panel.armies[role]
            army.race.value = _race_of(role, side, army.race.value)
            if role == "attacker":
                army.giantslayers.value = parsed.giantslayers
            army.npc.value = parsed.npc
            army.casualty_order.value = parsed.casualty_order
            army.reroll_policy.value = parsed.reroll_policy
            army.set_units(list(parsed.units), "from the scenario")
            pool = panel.pools[role]
            pool.set_race(army.race.value)
            pool.basic.value = side["pool"].get("basic", 0)
            pool.special.value = side["pool"].get(army.race.value, 0)
            panel.commands[role].set_commands(list(parsed.commands))
    finally:
        panel.resume()


class ScenarioBox:
    """A text box with the battle as JSON: show it, copy or download it, paste one and load it."""

    def __init__(self, panel: AssaultPanel) -> None:
        self.panel = panel
        self.text = widgets.Textarea(layout=widgets.Layout(width="100%", height="220px"),
                                     placeholder="Paste a scenario (JSON) here and press Load")
        self.text.add_class("aotg-scenario-text")
        self.current = widgets.Button(description="Show current", icon="file-code-o")
        self.load = widgets.Button(description="Load", icon="upload", button_style="info")
        self.load.add_class("aotg-scenario-load")
        self.download = widgets.HTML()
        self.error = ErrorMessage("aotg-error", "aotg-error-scenario")
        self.current.on_click(lambda _b: self.show_current())
        self.load.on_click(lambda _b: self.load_text())
        self.widget = widgets.VBox([
            note("The battle in the scenario format (the same file <code>python -m explorer resolve</code> "
                 "reads). Copy it to share it, or paste one and load it."),
            widgets.HBox([self.current, self.load, self.download]), self.error.widget, self.text])

    def show_current(self) -> None:
        """Write the current battle into the box, with a download link."""
        text = json.dumps(self.panel.scenario(), indent=1)
        self.text.value = text
        payload = base64.b64encode(text.encode()).decode()
        self.download.value = (f'<a download="battle.json" href="data:application/json;base64,{payload}">'
                               f"{html.escape('download battle.json')}</a>")
        self.error.clear()

    def load_text(self) -> None:
        """Load the box's JSON into the panel; a bad text leaves every input as it was."""
        self.error.clear()
        try:
            data = json.loads(self.text.value)
        except json.JSONDecodeError as error:
            self.error.show(f"scenario: not valid JSON ({error.msg}, line {error.lineno})")
            return
        if not isinstance(data, dict):
            self.error.show("scenario: must be an object at the top level")
            return
        try:
            apply_scenario(self.panel, data)
        except ScenarioError as error:
            self.error.show(str(error))
