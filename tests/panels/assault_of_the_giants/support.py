"""Helpers for the Assault of the Giants panel tests: acting on the panel as a user would."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import ipywidgets as widgets

import explorer
from explorer.panels.assault_of_the_giants.panel import AssaultPanel

ROOT = Path(__file__).resolve().parents[3]
"""The repository root."""

BASE: dict[str, Any] = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())
"""The example battle every scenario variant starts from."""


def units(panel: AssaultPanel, role: str) -> list[dict[str, Any]]:
    """The side's units as the scenario writes them."""
    return panel.scenario()[role]["units"]


def click(row: Any, action: str) -> None:
    """Click a unit row's button (``up``, ``down``, ``remove``)."""
    buttons = [w for w in row.box.children[0].children if f"aotg-unit-{action}" in w._dom_classes]
    buttons[0].click()


def build_attacker(panel: AssaultPanel) -> None:
    """Add a champion, move it to the front, wound another unit and edit one of its values."""
    army = panel.armies["attacker"]
    army.add_unit(2)
    added = army.rows[-1]
    while army.rows[0] is not added:
        click(added, "up")
    army.rows[1].wounded.value = True
    army.rows[1].wounded_fortitude.value = 2
    army.rows[1].fortitude.value = 6


def typed(box: widgets.Widget, text: str) -> None:
    """What the browser sends when text is typed into a box and committed."""
    box.set_state({"value": text})


def shown(box: widgets.Widget) -> str:
    """What the browser shows in a box."""
    return box.get_state()["value"]


def link_text(panel: AssaultPanel) -> str:
    """The text the scenario box's download link holds."""
    payload = re.search(r"base64,([^\"]+)\"", panel.scenario_box.download.value).group(1)
    return base64.b64decode(payload).decode()


def report_numbers(data: dict[str, Any]) -> dict[str, Any]:
    """The resolver's report of a scenario, without the modifiers' provenance."""
    report = explorer.resolve(data).to_dict()
    for side in ("attacker", "defender"):
        report[side]["modifiers"].pop("source", None)
    return report


def load(panel: AssaultPanel, text: str) -> str:
    """Paste `text` into the scenario box, press Load; the box's error message ('' if none)."""
    panel.scenario_box.text.value = text
    panel.scenario_box.load.click()
    return panel.scenario_box.error.text
