"""Switches keep what the user built: race, NPC giants and giantslayers, and the default army."""

from __future__ import annotations

from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from tests.panels.assault_of_the_giants.support import build_attacker, units


def test_race_change_keeps_the_units_the_user_built(panel: AssaultPanel) -> None:
    build_attacker(panel)
    before = units(panel, "attacker")
    assert [u["wounded"] for u in before].count(True) == 1 and before[0]["name"] == "fire champion"
    panel.armies["attacker"].race.value = "hill"
    scenario = panel.scenario()["attacker"]
    assert scenario["units"] == before                       # units, values, wounded flag and order
    assert scenario["race"] == "hill" and scenario["pool"] == {"basic": 4, "hill": 1}  # special die swapped, count kept
    assert [name for name, _ in panel.armies["attacker"].kind.options][0] == "hill giant"
    assert "kept" in panel.armies["attacker"].list_note.value
    assert panel.armies["attacker"].use_preset.layout.display == ""
    assert panel.refresh()


def test_default_army_follows_the_race_until_edited_and_back(panel: AssaultPanel) -> None:
    start = panel.scenario()
    army = panel.armies["defender"]
    army.race.value = "storm"
    assert {u["name"] for u in units(panel, "defender")} == {"storm giant", "storm elite"}
    assert army.use_preset.layout.display == "none"          # nothing of the user's to replace
    army.race.value = "hill"
    assert panel.scenario() == start


def test_default_army_button_replaces_and_undo_restores(panel: AssaultPanel) -> None:
    build_attacker(panel)
    built = units(panel, "attacker")
    army = panel.armies["attacker"]
    army.race.value = "storm"
    army.use_preset.click()
    assert {u["name"] for u in units(panel, "attacker")} == {"storm giant", "storm elite"}
    assert army.undo.layout.display == ""
    army.undo.click()
    assert units(panel, "attacker") == built
    assert army.undo.layout.display == "none"


def test_npc_off_and_on_returns_exactly_the_previous_army(panel: AssaultPanel) -> None:
    build_attacker(panel)
    panel.commands["attacker"].move(0, "right")
    before = panel.scenario()
    army = panel.armies["attacker"]
    army.npc.value = True
    assert units(panel, "attacker") == before["attacker"]["units"]
    assert panel.scenario()["attacker"]["commands"] == [] and panel.commands["attacker"].play.disabled
    army.npc.value = False
    assert panel.scenario() == before
    assert not panel.commands["attacker"].play.disabled


def test_giantslayers_on_and_off_returns_exactly_the_previous_army(panel: AssaultPanel) -> None:
    build_attacker(panel)
    before = panel.scenario()
    army = panel.armies["attacker"]
    army.giantslayers.value = True
    slayers = units(panel, "attacker")
    assert {u["name"] for u in slayers} == {"giantslayer"}
    army.add_unit(0)
    army.rows[0].wounded.value = True
    edited_slayers = units(panel, "attacker")
    army.giantslayers.value = False
    assert panel.scenario() == before
    army.giantslayers.value = True
    assert units(panel, "attacker") == edited_slayers       # the giantslayer list is kept as well
    army.giantslayers.value = False
    assert panel.scenario() == before


def test_race_change_while_giantslayers_keeps_the_giants_aside(panel: AssaultPanel) -> None:
    build_attacker(panel)
    built = units(panel, "attacker")
    army = panel.armies["attacker"]
    army.giantslayers.value = True
    army.race.value = "cloud"
    army.giantslayers.value = False
    assert units(panel, "attacker") == built
    assert panel.scenario()["attacker"]["pool"] == {"basic": 4, "cloud": 1}
