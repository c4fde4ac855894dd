"""The hero, card, target and Close Monster editors: one `Editor` from four specs, each offering its own abilities."""

from __future__ import annotations

import json
import re

import pytest

import explorer
from explorer.games.arcadia_quest.data import ABILITIES, HEROES, MONSTERS
from explorer.panels.arcadia_quest.editor import Editor
from explorer.panels.arcadia_quest.hero import CARD, HERO
from explorer.panels.arcadia_quest.monsters import CLOSE, TARGET
from tests.panels.arcadia_quest.support import check_charts, load, report_of


def test_every_editor_is_the_one_editor_built_from_its_spec(panel):
    editors = {"hero": panel.hero, "card": panel.card, "target": panel.target, "close": panel.close.rows[0]}
    for (name, editor), spec in zip(editors.items(), (HERO, CARD, TARGET, CLOSE)):
        assert isinstance(editor, Editor) and editor.spec is spec, name
        assert (spec.css if name != "close" else "aq-close-row") in editor.widget._dom_classes, name


def test_the_monster_is_offered_monster_abilities_only_and_the_hero_hero_abilities(panel):
    monsters = {name for stats in MONSTERS.values() for name in stats.value.abilities}
    assert panel.target.abilities.shown == tuple(name for name in ABILITIES if name in monsters)
    assert set(panel.target.abilities.shown) == {"extra-hit-per-crit", "daze-on-wound"}
    cited = {name: re.search(r">([^<]*)</span>$", row.children[1].value).group(1)
             for name, row in panel.target.abilities._rows.items() if name in panel.target.abilities.shown}
    assert cited == {"extra-hit-per-crit": "— Minotaur", "daze-on-wound": "— Hammer Beastman"}  # not Bow Mastery
    assert not any(hero in text for text in cited.values() for hero in HEROES)
    tips = [panel.target.abilities.boxes[name].tooltip for name in panel.target.abilities.shown]
    assert not any(word in tip for tip in tips for word in ("Greensleeves", "Bow Mastery"))  # not the hero's source
    heroes = {name for stats in HEROES.values() for name, _group in stats.value.abilities}
    assert panel.hero.abilities.shown == tuple(name for name in ABILITIES if name in heroes)
    assert "daze-on-wound" not in panel.hero.abilities.shown  # the Hammer Beastman's, no Hero card's
    panel.hero.preset.value = ""                               # a custom hero: still the heroes' abilities
    assert panel.hero.abilities.shown == tuple(name for name in ABILITIES if name in heroes)
    bow = panel.hero.abilities.boxes["extra-hit-per-crit"].tooltip
    assert "Greensleeves' card, Bow Mastery" in bow and "Minotaur" not in bow


def test_a_loaded_monster_with_a_hero_ability_shows_it_until_unticked_and_a_preset(panel):
    scenario = panel.scenario()
    scenario["target"] = {"name": "Slime", "attack": {"dice": 2, "kind": "melee"}, "life": 3,
                          "abilities": ["ignore-defence"]}
    scenario["hero"] = {"name": "Ann", "defence": 2, "life": 4, "abilities": ["daze-on-wound"]}  # a Monster's
    scenario["close_monsters"] = [{"preset": "Orc Marauder", "abilities": ["extra-die-vs-flanked"]}]
    assert load(panel, json.dumps(scenario)) == ""
    assert panel.scenario()["target"]["abilities"] == ["ignore-defence"]
    assert "ignore-defence" in panel.target.abilities.shown
    cite = panel.target.abilities._rows["ignore-defence"].children[1].value
    assert "not a Monster ability: given by the scenario" in cite  # shown, and marked
    assert "not a hero ability: given by the scenario" in panel.hero.abilities._rows["daze-on-wound"].children[1].value
    assert panel.hero.abilities.value == ("daze-on-wound",) and "daze-on-wound" in panel.hero.abilities.shown
    assert "(not a Monster ability: given by the scenario)" in panel.close.rows[0].label.value
    written = panel.scenario()
    assert written["close_monsters"][0]["abilities"] == ["extra-die-vs-flanked"]
    assert report_of(panel) == explorer.resolve(json.loads(json.dumps(written))).to_dict()
    assert explorer.resolve(scenario).to_dict()["monster_wounds"] == report_of(panel)["monster_wounds"]  # its meaning kept
    panel.target.abilities.boxes["ignore-defence"].value = False
    assert panel.scenario()["target"]["abilities"] == []
    assert "ignore-defence" in panel.target.abilities.shown  # not pulled away under the pointer
    panel.target.preset.value = "Troll"
    assert "ignore-defence" not in panel.target.abilities.shown
    check_charts(panel)


SCENARIO_KEYS = {
    "hero": ["preset", "defence", "life", "wounds", "rerolls", "abilities", "dazed", "flanked"],
    "attack": ["card", "dice", "defence_bonus", "kind", "group", "also_targets_close"],
    "target": ["preset", "attack", "life", "wounds", "defence", "rerolls", "reward", "villain", "overkill",
               "abilities", "dazed", "flanked", "close", "reaches", "other_guild_tokens"],
}


def test_each_editor_writes_its_keys_in_the_scenario_order(panel):
    scenario = panel.scenario()
    for part, keys in SCENARIO_KEYS.items():
        assert list(scenario[part]) == keys, part
    assert [list(m) for m in scenario["close_monsters"]] == [["preset", "attack", "rerolls"]] * 2
    assert list(scenario["target"]["attack"]) == ["dice", "kind"]


@pytest.mark.parametrize("edit", ["presets", "custom", "loaded"])
def test_a_written_scenario_loads_back_to_the_same_text(panel, edit):
    if edit == "presets":
        panel.hero.preset.value, panel.card.preset.value, panel.target.preset.value = "Seth", "Nova Bolt", "Lord Fang"
        panel.close.add_preset("Minotaur")
    elif edit == "custom":
        panel.hero.preset.value = panel.card.preset.value = panel.target.preset.value = ""
        panel.hero.name_box.value, panel.target.name_box.value = "Bob", "Slime"
        panel.close.rows[1].kind.value = "melee"
    else:
        raw = {"game": "aq", "hero": {"preset": "grom", "name": "Big Grom", "wounds": 1},
               "attack": {"card": "Rusty Sword", "group": "bow"},
               "target": {"preset": "Troll", "life": 5, "movement": 1, "name": "Old troll"},
               "close_monsters": [{"preset": "Troll", "name": "Big troll", "rerolls": 1},
                                  {"preset": "Orc Captain", "life": 3},
                                  {"name": "Rat", "attack": {"dice": 1, "kind": "ranged"}, "life": 1}]}
        assert load(panel, json.dumps(raw)) == ""
    text = panel.scenario_box.text.value
    panel.hero.preset.value, panel.target.preset.value = "Diva", "Orc Marauder"
    assert load(panel, text) == ""
    assert panel.scenario_box.text.value == text  # the same keys, in the same order
    if edit == "loaded":
        assert panel.target.to_dict()["name"] == "Old troll" and panel.hero.to_dict()["name"] == "Big Grom"
        assert [row.name for row in panel.close.rows] == ["Big troll", "Orc Captain", "Rat"]
        assert all(row.source == "from the scenario" for row in panel.close.rows)
    check_charts(panel)


def test_a_close_monster_row_names_its_source_until_edited(panel):
    row = panel.close.rows[0]
    assert row.name == "Orc Marauder" and "fan-collected" in row.label.value
    row.rerolls.value = 1
    assert row.source == "your value" and "your value" in row.label.value
    assert panel.scenario()["close_monsters"][0] == {"preset": "Orc Marauder", "attack": {"dice": 3, "kind": "melee"},
                                                     "rerolls": 1}
