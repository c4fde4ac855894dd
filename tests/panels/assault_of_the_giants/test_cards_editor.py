"""Cards in battle in the panel: add a card, enter its effects, and the battle follows (pp.16-17)."""

from __future__ import annotations

import copy
import json

import explorer
from explorer.games.assault_of_the_giants import parse_battle
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from tests.panels.assault_of_the_giants.support import BASE, load, report_numbers, typed


def _hits_chart(panel: AssaultPanel) -> object:
    return panel.results.figures["hits"].figure


def test_adding_a_card_puts_it_in_the_scenario_and_changes_the_charts(panel: AssaultPanel) -> None:
    editor = panel.cards["attacker"]
    assert "cards" not in panel.scenario()["attacker"]          # old scenarios stay as they were
    before, without = _hits_chart(panel), report_numbers(panel.scenario())["attacker"]["hits"]
    editor.name.value = "Ore"
    assert editor.kind.value == "resource" and editor.kind.disabled  # a known card's kind is the rules'
    editor.add.click()
    assert panel.scenario()["attacker"]["cards"] == [{"name": "Ore", "kind": "resource"}]
    row = editor.rows[0]
    assert "enter from your card" in row.box.children[0].children[0].value
    typed(row.effects["hits"], "2")
    assert panel.scenario()["attacker"]["cards"] == [{"name": "Ore", "kind": "resource", "hits": 2}]
    assert _hits_chart(panel) != before
    shifted = {str(int(h) + 2): p for h, p in without.items()}
    assert report_numbers(panel.scenario())["attacker"]["hits"] == shifted  # +2 hits, exactly
    row.remove.click()
    assert "cards" not in panel.scenario()["attacker"] and _hits_chart(panel) == before


def test_an_own_card_takes_the_kind_chosen_and_extra_dice(panel: AssaultPanel) -> None:
    editor = panel.cards["defender"]
    rolled = parse_battle(panel.scenario()).defender.dice_count
    editor.name.value = "Stoneskin"
    editor.kind.value = "spell"
    editor.add.click()
    row = editor.rows[0]
    row.die.value = "hill"
    typed(row.die_count, "1")
    typed(row.effects["blocks"], "1")
    card = panel.scenario()["defender"]["cards"][0]
    assert card == {"name": "Stoneskin", "kind": "spell", "blocks": 1, "dice": {"hill": 1}}
    assert parse_battle(panel.scenario()).defender.dice_count == rolled + 1


def test_ore_is_not_offered_to_the_defender_and_is_refused_beside_the_cards(panel: AssaultPanel) -> None:
    assert "Ore" in panel.cards["attacker"].name.options
    assert "Ore" not in panel.cards["defender"].name.options and "Weaponry" in panel.cards["defender"].name.options
    editor = panel.cards["defender"]
    editor.add_card("ore")                                    # typed in anyway: the resolver refuses it (p.17)
    assert editor.error.text.startswith("Defender, Ore, name: Ore can be played by the attacker only")
    assert "p.17" in editor.error.text and panel.armies["defender"].error.text == ""
    assert "Not updated" in panel.status.value
    editor.rows[0].remove.click()
    assert editor.error.text == "" and panel.refresh()


def test_a_bad_number_shows_a_message_beside_the_cards(panel: AssaultPanel) -> None:
    editor = panel.cards["attacker"]
    editor.add_card("Weaponry")
    before = _hits_chart(panel)
    typed(editor.rows[0].effects["rerolls"], "1.5")
    assert editor.error.text.startswith("Attacker, Weaponry, + rerolls: must be a whole number >= 0 and <= 10")
    assert _hits_chart(panel) == before and panel.pools["attacker"].error.text == ""
    typed(editor.rows[0].effects["rerolls"], "11")
    assert "<= 10" in editor.error.text
    typed(editor.rows[0].effects["rerolls"], "1")
    assert editor.error.text == ""


def test_adding_without_a_name_says_so(panel: AssaultPanel) -> None:
    editor = panel.cards["attacker"]
    editor.add.click()
    assert "type a card's name first" in editor.error.text and not editor.rows


def test_loading_a_scenario_with_cards_fills_the_editor(panel: AssaultPanel) -> None:
    data = copy.deepcopy(BASE)
    data["attacker"]["cards"] = [{"name": "Ore", "hits": 1}, {"name": "Haste", "kind": "spell", "rerolls": 1,
                                                               "dice": {"basic": 1, "storm": 2}}]
    data["defender"]["cards"] = [{"name": "weaponry", "blocks": 2}]
    expected = report_numbers(data)
    assert load(panel, json.dumps(data)) == ""
    assert [r.name for r in panel.cards["attacker"].rows] == ["Ore", "Haste"]
    assert panel.cards["defender"].rows[0].name == "Weaponry"
    assert panel.scenario()["attacker"]["cards"][1]["dice"] == {"basic": 1, "storm": 2}
    assert report_numbers(panel.scenario()) == expected
    again = AssaultPanel()                                     # the panel's own file loads back the same
    assert load(again, panel.scenario_box.text.value) == ""
    assert again.scenario() == panel.scenario()
    assert explorer.resolve(panel.scenario()).to_dict()["attacker"]["cards"][0]["note"] == "enter from your card"
    assert load(panel, json.dumps(BASE)) == "" and not panel.cards["attacker"].rows


def test_what_should_i_reroll_lists_the_cards_dice_and_rerolls(panel: AssaultPanel) -> None:
    panel.extras.selected_index = panel.extras.titles.index("What should I reroll?")
    tab = panel.reroll_advisor
    rolled = len(tab.face_boxes)
    panel.cards["attacker"].add_card("Haste", "spell")
    row = panel.cards["attacker"].rows[0]
    typed(row.die_count, "1")
    typed(row.effects["rerolls"], "1")
    # By default the card's reroll is a second round (p.16): the tab advises either round.
    assert len(tab.face_boxes) == rolled + 1 and tab.error.text == "" and tab.round.layout.display == ""
    commands = parse_battle(panel.scenario()).attacker.modifiers.rerolls
    assert f"up to {commands} rerolls; first round" in tab.summary.value
    tab.round.value = 2
    assert "up to 1 reroll; second round" in tab.summary.value
    panel.cards["attacker"].timing.value = "with commands"
    assert panel.scenario()["attacker"]["card_rerolls"] == "with commands" and tab.error.text == ""
    rerolls = parse_battle(panel.scenario()).attacker.modifiers.rerolls + 1  # the card's with the Commands'
    assert f"up to {rerolls} rerolls" in tab.summary.value


def test_the_card_rerolls_choice_round_trips_and_changes_the_answer(panel: AssaultPanel) -> None:
    panel.cards["attacker"].add_card("Haste", "spell")
    typed(panel.cards["attacker"].rows[0].effects["rerolls"], "1")
    second = report_numbers(panel.scenario())
    assert "card_rerolls" not in panel.scenario()["attacker"]  # the default is not written
    assert "second round" in explorer.resolve(panel.scenario()).to_dict()["provenance"]["card_rerolls"]
    panel.cards["attacker"].timing.value = "with commands"
    data = panel.scenario()
    assert report_numbers(data) != second
    again = AssaultPanel()
    assert load(again, json.dumps(data)) == "" and again.cards["attacker"].timing.value == "with commands"
    assert "with the Command rerolls" in explorer.resolve(data).to_dict()["provenance"]["card_rerolls"]
