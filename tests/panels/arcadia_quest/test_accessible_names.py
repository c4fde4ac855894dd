"""Every input of the Arcadia Quest panel has an accessible name: the editor it belongs to, then its label; no
abbreviation or programmer word is shown without its meaning."""

from __future__ import annotations

from explorer.panels.arcadia_quest.panel import ArcadiaPanel
from explorer.panels.common.lazy import SCENARIO
from tests.panels.arcadia_quest.support import typed
from tests.panels.common.accessible import open_every_tab, unexplained, unnamed


def test_every_input_of_the_panel_and_its_tabs_is_named(panel: ArcadiaPanel) -> None:
    open_every_tab(panel, but=(SCENARIO,))
    panel.also.add_preset("Goblin Archer")
    panel.hero.preset.value = ""  # custom: the name box shows
    assert unnamed(panel.widget) == []


def test_the_scenario_tab_is_named(panel: ArcadiaPanel) -> None:
    assert unnamed(panel.scenario_box.widget) == []


def test_inputs_are_named_after_their_editor_and_rows_after_their_monster(panel: ArcadiaPanel) -> None:
    assert panel.hero.values["life"].tooltip.startswith("Hero: Life")
    assert panel.target.values["life"].tooltip.startswith("Target Monster: Life")
    assert panel.card.kind.tooltip.startswith("Attack card: melee or ranged")
    first, second = panel.close.rows
    assert first.attack.tooltip.startswith("Orc Marauder: dice") and second.kind.tooltip == "Goblin Archer: melee or ranged"
    assert second.remove.tooltip == "remove Goblin Archer from the Monsters Close to the hero"
    panel.close.add_preset("Orc Marauder")           # two of one kind: numbered
    assert [row.rerolls.tooltip.split(":")[0] for row in panel.close.rows] == [
        "Orc Marauder 1", "Goblin Archer", "Orc Marauder 2"]
    first.remove.click()
    assert panel.close.rows[1].remove.tooltip.startswith("remove Orc Marauder from")
    panel.also.add_preset("Orc Marauder")
    panel.also.add_preset("Orc Marauder")
    assert [row.remove.tooltip for row in panel.also.rows] == [
        "stop targeting Orc Marauder with this attack", "stop targeting Orc Marauder 2 with this attack"]


WORDS = ("INF-RB", "AQ-RB", "CRIT", "CRITs", "spec", "spec's", "k", "-0.000", "daze-on-wound", "extra-hit-per-crit")
"""Abbreviations, symbols and programmer words that must not be on screen unexplained."""


def test_no_abbreviation_or_programmer_word_is_shown_without_its_meaning(panel: ArcadiaPanel) -> None:
    open_every_tab(panel, but=(SCENARIO,))
    panel.card.preset.value = "Nova Bolt"        # its note speaks of a CRIT
    panel.close.add_preset("Hammer Beastman")    # a row shows its abilities beside its name
    panel.trace.roll.click()
    assert unexplained(panel.widget, WORDS) == []
    assert "Dazes the target" in panel.close.rows[-1].label.value
    assert '<abbr title="CRIT: ' in panel.card.note.value and '<abbr title="CRIT: ' in panel.trace.output.value
    crit = panel.hero.abilities.boxes["extra-hit-per-crit"]
    assert "CRIT: the dice's critical symbol" in crit.tooltip and "extra-hit-per-crit" not in crit.tooltip
    assert all("P(" not in tip and " k" not in tip for tip in panel.results.view.tooltips)


def test_messages_name_the_rows_as_they_show_their_monsters(panel: ArcadiaPanel) -> None:
    panel.close.add_preset("Goblin Archer")
    typed(panel.close.rows[2].rerolls, "x")
    assert panel.close.error.text.startswith("Close Monster Goblin Archer 2, rerolls: must be a whole number")
    assert "Not updated: Close Monster Goblin Archer 2, rerolls" in panel.status.value
    panel.trace.run()
    assert panel.trace.error.text.startswith("Close Monster Goblin Archer 2, rerolls")
