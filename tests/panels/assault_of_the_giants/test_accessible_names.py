"""Every input of the Assault of the Giants panel has an accessible name, named as its column header reads;
no abbreviation or programmer word is shown without its meaning."""

from __future__ import annotations

from fractions import Fraction

from explorer.games.assault_of_the_giants import Modifiers, RowOption
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.assault_of_the_giants.row_advisor import advice_html
from explorer.panels.common.lazy import SCENARIO
from tests.panels.assault_of_the_giants.support import click, typed
from tests.panels.common.accessible import open_every_tab, unexplained, unnamed


def test_every_input_of_the_panel_and_its_tabs_is_named(panel: AssaultPanel) -> None:
    open_every_tab(panel, but=(SCENARIO,))
    panel.table_rules.show(True)  # its hundreds of inputs are built when the tab first opens
    panel.cards["attacker"].add_card("Ore")
    panel.pools["defender"].set_pool({"basic": 1, "hill": 1, "frost": 2}, "hill", {})  # a die the race does not own
    assert panel.table_rules.tab is not None and len(panel.reroll_advisor.face_boxes) > 0
    assert unnamed(panel.widget) == []


def test_the_scenario_tab_is_named(panel: AssaultPanel) -> None:
    assert unnamed(panel.scenario_box.widget) == []


def test_a_unit_row_is_named_after_its_unit_and_follows_renames_and_moves(panel: AssaultPanel) -> None:
    army = panel.armies["attacker"]
    first, second, elite = army.rows
    assert first.fortitude.tooltip.startswith("fire giant 1: Fortitude")
    assert second.ordning_value.tooltip.startswith("fire giant 2: Ordning Value")
    assert elite.wounded_fortitude.tooltip.startswith("fire elite: wounded Fortitude")
    assert [b.tooltip.split(" (")[0] for b in first.buttons.values()] == [
        "move fire giant 1 up", "move fire giant 1 down", "remove fire giant 1"]
    assert first.wounded.tooltip.startswith("fire giant 1: wounded") and first.name.tooltip == "fire giant 1: name"
    click(elite, "up")
    click(elite, "up")                                   # the elite first: the giants keep their numbers in order
    assert [r.name.tooltip for r in army.rows] == ["fire elite: name", "fire giant 1: name", "fire giant 2: name"]
    second.name.value = "Hrothgar"                       # a name of its own: its twin is no longer numbered
    assert second.champion.tooltip.startswith("Hrothgar: champion") and first.name.tooltip == "fire giant: name"
    army.add_unit(0)
    assert army.rows[-1].buttons["remove"].tooltip == "remove fire giant 2" and first.name.tooltip == "fire giant 1: name"


def test_command_cards_and_dice_are_named_with_their_side(panel: AssaultPanel) -> None:
    leader = panel.commands["defender"].cards.children[1]
    assert [b.tooltip for b in leader.children if hasattr(b, "tooltip") and b.tooltip] == [
        "move the defender's Leader one place left", "move the defender's Leader one place right",
        "take the defender's Leader back into hand"]
    assert panel.pools["attacker"].special.tooltip.startswith("Attacker, fire dice")
    panel.armies["attacker"].race.value = "frost"
    assert panel.pools["attacker"].special.tooltip.startswith("Attacker, frost dice")
    panel.faces.die.value = "fire"
    assert panel.faces.cells[5][2].tooltip.startswith("fire die, face 6: arcane")


def test_unit_boxes_have_column_headers_of_their_width_and_sources_in_full_words(panel: AssaultPanel) -> None:
    army = panel.armies["defender"]
    headers = [w for w in army.widget.children if "aotg-unit-headers" in w._dom_classes]
    assert len(headers) == 1
    cells = headers[0].children
    row = army.rows[0]
    boxes = [row.name, row.fortitude, row.wounded_fortitude, row.ordning_value]
    assert [c.layout.width for c in cells] == [b.layout.width for b in boxes]
    assert [c.value.split(">")[1].split("<")[0] for c in cells] == [
        "name", "Fortitude", "wounded Fortitude", "Ordning Value"]
    assert "Fortitude</span>" in row.provenance.value and "p.17" in row.provenance.value  # the hill giant's is p.17's
    assert "wounded Fortitude and Ordning Value</span>" in row.provenance.value
    mine = panel.armies["attacker"].rows[0]
    assert "source of the values:" in mine.provenance.value and "example" in mine.provenance.value
    mine.ordning_value.value = 3
    text = mine.provenance.value
    assert "Fortitude and wounded Fortitude</span>" in text and "Ordning Value</span>" in text and "your value" in text
    assert not any(short in text + row.provenance.value for short in ("F/", "wF", "OV"))


WORDS = ("F", "wF", "OV", "NPC", "spec", "spec's", "INF-RB", "AQ-RB", "k", "P(damage", "dice.basic", "-0.000")
"""Abbreviations, symbols and programmer words that must not be on screen unexplained."""


def test_no_abbreviation_or_programmer_word_is_shown_without_its_meaning(panel: AssaultPanel) -> None:
    open_every_tab(panel, but=(SCENARIO,))
    panel.table_rules.show(True)
    panel.armies["defender"].npc.value = True   # the command row then speaks of NPC giants
    assert unexplained(panel.widget, WORDS) == []
    labels = dict((value, label) for label, value in panel.armies["attacker"].reroll_policy.options)
    assert labels["misses"] == "misses: blanks, then arcane it cannot convert"
    assert "source of the values" in panel.armies["attacker"].rows[0].provenance.value
    assert "faces of the basic die" in panel.results.notes.value and "dice.basic" not in panel.results.notes.value
    assert panel.results.k.description == "damage threshold"


def test_a_difference_too_small_to_show_is_zero_not_minus_zero() -> None:
    options = [RowOption(("Attack",), 0, Modifiers(), Fraction(1, 2)),
               RowOption(("Leader", "Attack"), 1, Modifiers(rerolls=1), Fraction(1, 2) - Fraction(1, 10**9))]
    page = advice_html(options, "damage")
    assert "<td>0.5000</td><td>0.0000</td></tr>" in page and "-0.0000" not in page


def test_messages_name_the_inputs_as_shown_now_in_every_tab(panel: AssaultPanel) -> None:
    army = panel.armies["attacker"]
    army.rows[1].name.value = "Hrothgar"
    typed(army.rows[1].fortitude, "0")
    assert army.error.text.startswith("Attacker, Hrothgar, Fortitude: must be >= 1")
    assert "Not updated: Attacker, Hrothgar, Fortitude" in panel.status.value
    advisor = panel.tabs.select("What should I reroll?")
    assert advisor.error.text.startswith("Attacker, Hrothgar, Fortitude:")
    panel.trace.run()
    assert panel.trace.error.text.startswith("Attacker, Hrothgar, Fortitude:")
    typed(army.rows[1].fortitude, "3")
    panel.cards["defender"].add_card("")
    assert panel.cards["defender"].error.text.startswith("Defender, card: type a card's name first")
    panel.pools["defender"].set_pool({"basic": 1, "hill": 1, "frost": "x"}, "hill", {})
    panel.refresh()
    assert panel.pools["defender"].error.text.startswith("Defender, frost dice: must be a whole number")
