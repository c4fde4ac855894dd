"""Attackers and defenders are picked among the characters that exist (issue 22), never typed; the summary
names who defended."""

from __future__ import annotations

import json
import re

import ipywidgets as widgets

from explorer.panels.agot_lcg.panel import AgotPanel
from tests.panels.agot_lcg.support import ROOT, check_charts, typed


def offered(picker) -> list[str]:
    return [box.description for box in picker.widget.children]


def test_no_challenge_input_is_a_text_box(panel: AgotPanel) -> None:
    for row in panel.challenges.rows:
        boxes = [w for w in (row.attacker, row.type, row.defence, *row.attackers.boxes.values(),
                             *row.defenders.boxes.values())]
        assert not any(isinstance(w, widgets.Text) for w in boxes)
        assert all(isinstance(b, widgets.Checkbox) for b in row.attackers.widget.children)


def test_attackers_are_the_attacking_players_characters_with_the_icon(panel: AgotPanel) -> None:
    military, power, intrigue = panel.challenges.rows
    assert offered(military.attackers) == ["Sworn Knight", "Raider"]  # Spy has no military icon (4.2)
    assert offered(power.attackers) == ["Sworn Knight"]
    assert offered(intrigue.attackers) == ["Steward"]  # the second player's characters
    assert [b.value for b in military.attackers.widget.children] == [False, True]
    power.defence.value = "listed"
    assert offered(power.defenders) == ["Castellan", "Steward"]  # the other player's, with the power icon


def test_the_pickers_follow_additions_renames_and_removals(panel: AgotPanel) -> None:
    first = panel.sides["first"]
    military = panel.challenges.rows[0]
    first.add_character({"name": "Giant", "str": 9, "icons": ["military"]})
    assert offered(military.attackers) == ["Sworn Knight", "Raider", "Giant"]
    typed(first.rows[2].name, "Reaver")  # Raider, picked, renamed: still picked under the new name
    assert offered(military.attackers) == ["Sworn Knight", "Reaver", "Giant"]
    assert panel.scenario()["challenges"][0]["attackers"] == ["Reaver"]
    check_charts(panel)
    first.rows[0].icons["military"].value = False  # Sworn Knight loses the icon: no longer offered
    assert offered(military.attackers) == ["Reaver", "Giant"]
    first.remove_character(first.rows[2])  # Reaver removed while picked: said beside the row
    assert offered(military.attackers) == ["Giant", "Reaver (not in play)"]
    assert military.error.text == ("Reaver is not one of the first player's characters (renamed or removed?): "
                                   "untick it, or pick again")
    assert not panel.valid and "Reaver" in panel.challenges.error.text
    military.attackers.boxes["Reaver"].value = False
    military.attackers.boxes["Giant"].value = True
    assert offered(military.attackers) == ["Giant"] and military.error.text == ""
    assert panel.scenario()["challenges"][0]["attackers"] == ["Giant"]
    check_charts(panel)


def test_a_picked_character_without_the_icon_is_named_beside_the_row(panel: AgotPanel) -> None:
    military = panel.challenges.rows[0]
    panel.sides["first"].rows[2].icons["military"].value = False  # Raider, the attacker
    assert offered(military.attackers) == ["Sworn Knight", "Raider (no military icon)"]
    assert military.error.text.startswith("Raider has no military icon and cannot attack in a military challenge")
    assert not panel.valid
    military.type.value = "intrigue"  # Raider has the intrigue icon: on offer and picked again
    assert offered(military.attackers) == ["Spy", "Raider"] and military.error.text == "" and panel.valid


def test_the_defence_is_the_best_none_or_the_ticked_defenders(panel: AgotPanel) -> None:
    row = panel.challenges.rows[0]
    assert "defenders" not in panel.scenario()["challenges"][0]  # the best defence
    assert row.defenders.widget.layout.display == "none"
    row.defence.value = "none"
    assert panel.scenario()["challenges"][0]["defenders"] == []
    check_charts(panel)
    row.defence.value = "listed"
    assert row.defenders.widget.layout.display == "" and offered(row.defenders) == ["Castellan"]
    row.defenders.boxes["Castellan"].value = True
    assert panel.scenario()["challenges"][0]["defenders"] == ["Castellan"]
    check_charts(panel)
    row.attacker.value = "second"  # the picks were the first player's: the row starts again
    assert offered(row.attackers) == ["Castellan"] and offered(row.defenders) == ["Sworn Knight", "Raider"]
    assert panel.scenario()["challenges"][0] == {"attacker": "second", "type": "military", "attackers": [],
                                                 "defenders": []}


def test_a_loaded_round_keeps_its_names_in_their_order(panel: AgotPanel) -> None:
    data = json.loads((ROOT / "examples" / "agot-round.json").read_text())
    panel.apply(data)
    assert panel.scenario()["challenges"] == data["challenges"]
    military = panel.challenges.rows[0]
    assert offered(military.attackers) == ["Knight of the Vale", "Reaver"]
    assert military.attackers.value == ["Reaver", "Knight of the Vale"]  # as the file lists them
    assert panel.challenges.rows[2].defence.value == "none"
    panel.swap_players()
    assert panel.challenges.rows[0].attackers.value == ["Sworn Sword"]
    assert offered(panel.challenges.rows[0].attackers) == ["Sworn Sword", "Spymaster"]
    check_charts(panel)


def _summary_row(panel: AgotPanel, title: str) -> str:
    text = re.sub(r"<[^>]+>", "|", panel.results.summary.value)
    return text.split(f"|{title}|", 1)[1].split("|", 2)[1]


def test_the_summary_names_who_defended_each_challenge(panel: AgotPanel) -> None:
    row = panel.challenges.rows[0]
    assert ("no defence chosen: the best defence (of 2 sets compared) is Castellan"
            in _summary_row(panel, "Military challenge 1 (first player)"))
    assert ("no defence chosen: the best defence (of 1 set compared) is to leave it undefended"
            in _summary_row(panel, "Power challenge 2 (first player)"))
    row.defence.value = "none"
    assert _summary_row(panel, "Military challenge 1 (first player)").startswith("attacked by Raider; undefended; ")
    row.defence.value = "listed"
    row.defenders.boxes["Castellan"].value = True
    assert "; defended by Castellan; won by " in _summary_row(panel, "Military challenge 1 (first player)")
    check_charts(panel)
