"""The shared what-if, sweep, scenario box and roll-once trace, on the Arcadia Quest panel."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import explorer
from explorer.charts.kit import compare_figure
from explorer.games.arcadia_quest.encounter.summary import OUTCOMES
from explorer.games.arcadia_quest.encounter.sweep import raise_overkill
from explorer.panels.arcadia_quest.adapter import QUANTITIES
from explorer.panels.common.host import GameAdapter, PanelHost
from explorer.scenario.sweep import with_value
from tests.panels.arcadia_quest.support import ROOT, check_charts, load, typed


def test_panel_and_adapter_follow_the_protocols(panel):
    assert isinstance(panel, PanelHost)
    assert isinstance(panel.adapter, GameAdapter)


def test_what_if_pins_a_and_compares_b(panel):
    panel.whatif.pin.click()
    a = explorer.resolve(panel.scenario()).result
    typed(panel.card.values["dice"], "4")
    b = explorer.resolve(panel.scenario()).result
    for name, pick in QUANTITIES.items():
        panel.whatif.quantity.value = name
        expected = compare_figure(pick(a), pick(b), title=name.capitalize(), x_title=name.split(" ")[0])
        assert panel.whatif.compare.data == expected.data, name
    table = panel.whatif.differences.value
    assert "aq-compare-table" in table and "A (pinned)" in table
    kill_a, kill_b = float(OUTCOMES["P(kill)"](a)) * 100, float(OUTCOMES["P(kill)"](b)) * 100
    assert f"<th>P(kill)</th><td>{kill_a:.2f}%</td><td>{kill_b:.2f}%</td><td>{kill_b - kill_a:.2f}%</td>" in table
    typed(panel.card.values["dice"], "-2")
    assert "Attack card, attack dice" in panel.whatif.compare.note and "aq-stale" in panel.whatif.differences._dom_classes


def test_sweep_maps_attack_dice_and_monster_life_to_the_resolver(panel):
    sweep = panel.sweep
    assert (sweep.x.value, sweep.y.value, sweep.outcome.value) == ("attack dice", "monster Life", "P(kill without dying)")
    sweep.x_range.value, sweep.y_range.value = (1, 3), (2, 7)  # Life 6 and 7 pass the Overkill of 5
    sweep.run.click()
    assert not sweep.error.text, sweep.error.text
    z = sweep.heatmap.data[0].z
    full = explorer.resolve(panel.scenario()).to_dict()["scenario"]
    for row, life in zip(z, range(2, 8)):
        for cell, dice in zip(row, range(1, 4)):
            scenario = json.loads(json.dumps(full))
            scenario["attack"]["dice"], scenario["target"]["life"] = dice, life
            scenario["target"]["overkill"] = max(scenario["target"]["overkill"], life)
            assert abs(cell - explorer.resolve(scenario).to_dict()["kill_and_survive"]) < 1e-12, (dice, life)
    typed(panel.hero.values["life"], "6")
    assert sweep.heatmap.note  # the heatmap says it is not the current encounter's any more


def test_sweep_names_a_refused_cell(panel):
    typed(panel.target.values["wounds"], "2")
    panel.sweep.run_sweep()
    assert "target.wounds" in panel.sweep.error.text and "sweep cell" in panel.sweep.error.text


def test_a_sweep_cell_keeps_overkill_at_least_life():
    def cell(target, value):
        out = with_value({"target": target}, "target.life", value)
        raise_overkill(out, "target.life", value)
        return out["target"]

    assert cell({"life": 3, "overkill": None}, 9)["overkill"] is None
    assert cell({"life": 3, "overkill": 4}, 2)["overkill"] == 4
    assert cell({"life": 3, "overkill": 4}, 6)["overkill"] == 6


def test_trace_walks_the_encounter_and_follows_changes(panel):
    panel.trace.roll.click()
    page = panel.trace.output.value
    text = re.sub(r"<[^>]+>", "", page)
    for words in ("1. Attack roll", "2. CRITs", "3. Rerolls", "4. Defense roll", "5. Wounds", "6. Payback", "7. Guard",
                  "8. Coins", "Inferno rulebook p.18", "printed p.20", "printed p.21"):
        assert words in text, words
    assert "aq-trace-table" in page and '<abbr title="CRIT: ' in page  # the rules' abbreviation explained on hover
    assert "INF-RB" not in page and "AQ-RB" not in page
    panel.close.rows[0].remove.click()
    panel.close.rows[0].remove.click()
    assert "no Monster is Close" in panel.trace.output.value  # same seed, the new encounter
    typed(panel.hero.values["life"], "0")
    assert "last valid" in panel.trace.state.value


def test_scenario_box_follows_and_round_trips(panel):
    typed(panel.hero.values["rerolls"], "2")
    assert json.loads(panel.scenario_box.text.value) == panel.scenario()
    assert "aq-scenario-text" in panel.scenario_box.text._dom_classes
    text = panel.scenario_box.text.value
    panel.hero.preset.value = "Diva"
    assert load(panel, text) == ""
    assert panel.scenario() == json.loads(text)
    check_charts(panel)


def test_every_encounter_example_loads_and_gives_the_command_line_numbers(panel):
    for path in sorted((ROOT / "examples").glob("arcadia-encounter-*")):
        assert load(panel, path.read_text(encoding="utf-8")) == "", path.name
        check_charts(panel)
        wanted = explorer.resolve(path).to_dict()
        got = explorer.resolve(panel.scenario()).to_dict()
        for key in ("kill", "overkill", "hero_killed", "kill_and_survive", "monster_wounds", "hero_wounds", "coins"):
            assert got[key] == wanted[key], (path.name, key)
        assert panel.scenario()["title"] == wanted["scenario"]["title"]


def test_loaded_values_show_where_they_came_from(panel):
    text = (ROOT / "examples" / "arcadia-encounter-payback.toml").read_text(encoding="utf-8")
    assert load(panel, text) == ""
    assert panel.hero.preset.value == "Grom" and panel.target.preset.value == "Schmetterling"
    assert panel.hero.values.sources["wounds"] == "from the scenario"
    assert panel.hero.values.sources["life"].startswith("fan-collected")  # the file names the preset only
    assert panel.target.values.sources["wounds"] == "from the scenario"
    assert panel.target.values.sources["overkill"].startswith("Arcadia Quest rulebook p.12")
    assert panel.target.close.value and "No Guard" in panel.close.guard.value


def test_a_custom_loaded_encounter_keeps_every_key(panel):
    scenario = {"game": "aq", "hero": {"name": "Ann", "defence": 1, "life": 3, "abilities": ["ignore-defence"]},
                "attack": {"card": "rusty sword", "name": "Old blade", "dice": 4},
                "target": {"attack": {"dice": 2, "kind": "ranged"}, "life": 2, "overkill": None, "movement": 3},
                "close_monsters": [{"preset": "Troll", "name": "Big troll", "rerolls": 1}],
                "dice": {"defence": ["shield", "shield", "crit", "blank", "blank", "blank"]}}
    assert load(panel, json.dumps(scenario)) == ""
    written = panel.scenario()
    assert written["hero"]["name"] == "Ann" and written["attack"]["name"] == "Old blade"
    assert written["attack"]["card"] == "Rusty Sword" and written["target"]["movement"] == 3
    assert written["close_monsters"][0]["name"] == "Big troll" and written["dice"] == scenario["dice"]
    for key in ("kill", "hero_killed", "joint"):
        assert explorer.resolve(written).to_dict()[key] == explorer.resolve(scenario).to_dict()[key]
    check_charts(panel)


def test_load_refuses_other_games_and_questions_and_changes_nothing(panel):
    before = panel.scenario()
    aotg = (ROOT / "examples" / "fire-vs-hill.json").read_text(encoding="utf-8")
    assert load(panel, aotg).startswith("game: this is a \"assault-of-the-giants\" scenario")
    attack = (ROOT / "examples" / "arcadia-troll.json").read_text(encoding="utf-8")
    assert load(panel, attack).startswith("question:") and "encounter" in panel.scenario_box.error.text
    sequence = (ROOT / "examples" / "arcadia-sequence-minotaur.json").read_text(encoding="utf-8")
    assert load(panel, sequence).startswith("question:")
    bad = json.loads(json.dumps(before))
    bad["target"]["overkill"] = 1
    assert load(panel, json.dumps(bad)).startswith("target.overkill")
    assert load(panel, "not = [valid") .startswith("scenario:")
    assert panel.scenario() == before
    check_charts(panel)


def test_status_reports_a_fast_update(panel):
    typed(panel.card.values["dice"], "10")
    typed(panel.hero.values["rerolls"], "3")
    elapsed = int(re.search(r"updated in (\d+) ms", panel.status.value).group(1))
    assert elapsed < 2000
    assert panel.result.kill > Fraction(1, 2)
    check_charts(panel)
