"""The panel's other targeted Monsters (Cleave), its "Payback by" picker and its headline numbers, headless.

Rules: printed p.21 (only one targeted Monster pays back, the opponent chooses), printed p.20
(a Close target fends off the Guard).
"""

from __future__ import annotations

import json

import explorer
from tests.panels.arcadia_quest.support import ROOT, check_charts, load, report_of, typed


def test_adding_a_targeted_monster_writes_also_targets_and_offers_it_for_payback(panel):
    assert "also_targets" not in panel.scenario()  # an encounter without one reads as before
    panel.also.add.click()
    scenario = panel.scenario()
    assert [m["preset"] for m in scenario["also_targets"]] == ["Orc Marauder"]
    assert scenario["payback_by"] == "worst for the hero"
    assert list(panel.also.payback_by.options) == ["worst for the hero", "Hammer Beastman", "Orc Marauder"]
    assert panel.valid
    check_charts(panel)
    out = report_of(panel)
    assert "Payback by" in panel.results.payback.value
    for who, p in out["payback_by"]["who"].items():
        assert f"{who} {p * 100:.1f}%" in panel.results.payback.value


def test_two_monsters_of_one_preset_get_names_of_their_own(panel):
    panel.also.pick.value = "Goblin Archer"
    panel.also.add.click()
    panel.also.add.click()
    names = [m.get("name", m.get("preset")) for m in panel.scenario()["also_targets"]]
    assert names == ["Goblin Archer", "Goblin Archer 2"] and panel.valid


def test_naming_who_pays_back_changes_the_answer(panel):
    panel.also.pick.value = "Goblin Archer"
    panel.also.add.click()
    worst = report_of(panel)["hero_killed"]
    panel.also.payback_by.value = "Goblin Archer"
    assert panel.scenario()["payback_by"] == "Goblin Archer"
    named = report_of(panel)
    assert named["hero_killed"] <= worst  # the opponent's own choice is the worst for the hero
    assert set(named["payback_by"]["who"]) <= {"Goblin Archer", "Hammer Beastman", "nobody"}
    check_charts(panel)
    panel.also.rows[0].remove.click()  # the named Monster leaves: the picker goes back to the default
    assert panel.also.payback_by.value == "worst for the hero" and "also_targets" not in panel.scenario()


def test_a_close_targeted_monster_fends_off_the_guard(panel):
    panel.also.add.click()
    assert "Guard:" in panel.close.guard.value
    panel.also.rows[0].close.value = True
    assert "No Guard" in panel.close.guard.value
    assert report_of(panel)["guard"]["triggered"] is False


def test_a_bad_value_of_a_targeted_monster_is_named_beside_it(panel):
    panel.also.add.click()
    typed(panel.also.rows[0].values["life"], "0")
    assert not panel.valid and panel.also.error.text.startswith("Other target Orc Marauder, Life:")
    assert not panel.target.error.text and not panel.close.error.text
    typed(panel.also.rows[0].values["life"], "2")
    assert panel.valid and not panel.also.error.text


def test_the_cleave_example_loads_with_its_targets(panel):
    path = ROOT / "examples" / "arcadia-encounter-cleave.json"
    assert load(panel, path.read_text(encoding="utf-8")) == ""
    row = panel.also.rows[0]
    assert row.name == "Orc Marauder" and row.close.value is True and row.reaches.value is True
    wanted = explorer.resolve(path).to_dict()
    got = report_of(panel)
    for key in ("payback_by", "targets", "hero_killed", "headline"):
        assert got[key] == wanted[key], key
    again = json.loads(json.dumps(panel.scenario()))
    assert again["also_targets"][0]["close"] is True and again["payback_by"] == "worst for the hero"


def test_the_headline_shows_the_wounds_dealt_to_the_target(panel):
    out = report_of(panel)
    page = panel.results.headline.widget.value
    assert "wounds dealt to the target" in page
    assert f"mean {out['headline']['mean']:.2f}" in page and f"median {out['headline']['median']}" in page
    assert "chance of at least this" in page and "chance of at most this" in page and ">k<" not in page
    typed(panel.card.values["dice"], "5")
    assert f"mean {report_of(panel)['headline']['mean']:.2f}" in panel.results.headline.widget.value
