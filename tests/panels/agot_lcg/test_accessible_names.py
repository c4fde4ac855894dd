"""Every input of the A Game of Thrones panel has an accessible name, as its column header or label reads."""

from __future__ import annotations

from explorer.panels.agot_lcg.panel import AgotPanel
from explorer.panels.common.lazy import SCENARIO
from tests.panels.agot_lcg.support import typed
from tests.panels.common.accessible import open_every_tab, unnamed


def test_every_input_of_the_panel_and_its_tabs_is_named(panel: AgotPanel) -> None:
    open_every_tab(panel, but=(SCENARIO,))
    row = panel.challenges.rows[0]
    row.defence.value = "listed"  # the defenders' boxes show
    panel.sides["first"].rows[2].icons["military"].value = False  # a pick no longer on offer: its box stays
    panel.sides["second"].add_character({"name": "", "str": 1, "icons": ["military"]})  # a character with no name yet
    assert len(row.attackers.widget.children) == 2 and len(row.defenders.widget.children) == 2
    assert unnamed(panel.widget) == []


def test_the_scenario_tab_is_named(panel: AgotPanel) -> None:
    assert unnamed(panel.scenario_box.widget) == []


def test_character_boxes_are_named_after_the_character_and_follow_renames(panel: AgotPanel) -> None:
    side = panel.sides["first"]
    knight = side.rows[0]
    assert knight.strength.tooltip.startswith("Sworn Knight: STR (strength")
    assert knight.power.description == "power" and knight.power.tooltip == "Sworn Knight: power on the character"
    assert knight.icons["military"].description == "military"  # full words, not "mil"
    assert knight.icons["intrigue"].tooltip.startswith("Sworn Knight: intrigue icon")
    assert knight.kneeling.tooltip.startswith("Sworn Knight: knelt")
    assert knight.remove.tooltip == "remove Sworn Knight"
    assert knight.name.tooltip == "First player, character 1: name"
    typed(knight.name, "Ser Arys")
    assert knight.remove.tooltip == "remove Ser Arys" and knight.strength.tooltip.startswith("Ser Arys: STR")
    typed(knight.name, "")
    assert knight.remove.tooltip == "remove First player, character 1"
    side.remove_character(side.rows[1])
    assert side.rows[1].name.tooltip == "First player, character 2: name"
    headers = [cell.value for cell in side.widget.children[3].children]
    assert ["name" in headers[0], '<abbr title="strength">STR</abbr>' in headers[1], "icons" in headers[2],
            "keywords" in headers[3]] == [True] * 4


def test_challenge_boxes_are_named_after_the_challenge(panel: AgotPanel) -> None:
    military, power, _ = panel.challenges.rows
    assert military.remove.tooltip == "remove Military challenge 1"
    assert military.attacker.tooltip == "Military challenge 1: attacking player"
    assert military.attacker.label == "first player"
    assert military.attackers.boxes["Raider"].tooltip == "Military challenge 1, attackers: Raider"
    assert military.defence.tooltip == "Military challenge 1: defence"
    power.type.value = "intrigue"
    assert power.remove.tooltip == "remove Intrigue challenge 2"
    panel.challenges.remove_challenge(military)
    assert power.attackers.boxes["Raider"].tooltip == "Intrigue challenge 1, attackers: Raider"
