"""The A Game of Thrones panel: charts follow every kind of change, errors sit beside the input."""

from __future__ import annotations

import html
import json

import explorer
from explorer.app import show
from explorer.games import find_game
from explorer.panels.agot_lcg.adapter import AgotAdapter
from explorer.panels.common.host import GameAdapter, PanelHost
from tests.panels.agot_lcg.support import ROOT, check_charts, resolved, typed


def test_the_panel_is_a_host_with_an_adapter(panel):
    assert isinstance(panel, PanelHost) and isinstance(AgotAdapter(), GameAdapter)
    assert {"agot-panel", "explorer-root"} <= set(panel.widget._dom_classes)
    check_charts(panel)


def test_charts_follow_each_kind_of_change(panel):
    first, second = panel.sides["first"], panel.sides["second"]
    typed(first.rows[0].strength, "7")
    check_charts(panel)
    second.rows[0].kneeling.value = True
    check_charts(panel)
    first.rows[1].icons["power"].value = True
    check_charts(panel)
    typed(second.gold, "9")
    check_charts(panel)
    typed(second.faction, "14")
    check_charts(panel)
    first.add_character({"name": "Giant", "str": 12, "icons": ["power"]})
    check_charts(panel)
    panel.challenges.rows[1].attackers.boxes["Giant"].value = True  # ticked beside Sworn Knight
    assert panel.scenario()["challenges"][1]["attackers"] == ["Sworn Knight", "Giant"]
    check_charts(panel)
    panel.challenges.rows[0].defence.value = "none"
    assert panel.scenario()["challenges"][0]["defenders"] == []
    check_charts(panel)
    first.rows[0].keywords.value = "renown, insight"
    check_charts(panel)
    panel.challenges.remove_challenge(panel.challenges.rows[-1])
    check_charts(panel)
    panel.challenges.add_challenge({"attacker": "second", "type": "power", "attackers": ["Steward"]})
    check_charts(panel)
    panel.challenges.remove_challenge(panel.challenges.rows[-1])
    second.remove_character(second.rows[1])
    check_charts(panel)
    names = first.names()
    panel.swap_players()
    assert second.names() == names and {c["attacker"] for c in panel.scenario()["challenges"]} == {"second"}
    check_charts(panel)


def test_bad_input_marks_charts_stale_naming_the_field_and_a_fix_clears_it(panel):
    row = panel.sides["second"].rows[0]
    typed(row.strength, "2.5")
    assert not panel.valid
    said = "Castellan, STR: must be a whole number >= 0 and <= 100, got '2.5'"  # the labels on screen, no path
    assert panel.sides["second"].error.text == said
    assert all(said in c.note for c in panel.results.figures.values()) and said in html.unescape(panel.status.value)
    assert "agot-stale" in panel.results.summary._dom_classes
    assert said in panel.whatif.compare.note
    typed(row.strength, "3")
    assert panel.sides["second"].error.text == ""
    check_charts(panel)
    panel.challenges.rows[0].attackers.boxes["Raider"].value = False  # no attacker left
    said = "Military challenge 1, attackers: at least one character must attack (4.2)"
    assert panel.challenges.error.text == said
    assert all(said in c.note for c in panel.results.figures.values())
    panel.challenges.rows[0].attackers.boxes["Raider"].value = True
    check_charts(panel)


def test_the_scenario_box_loads_the_round_example(panel):
    box = panel.scenario_box
    assert "agot-scenario-text" in box.text._dom_classes
    box.text.value = (ROOT / "examples" / "agot-round.json").read_text()
    box.load_text()
    assert box.error.text == ""
    data = json.loads((ROOT / "examples" / "agot-round.json").read_text())
    assert resolved(panel).to_dict() == explorer.resolve(data).to_dict()
    assert panel.scenario()["challenges"][2]["defenders"] == []
    assert panel.scenario()["players"]["second"]["hand"] == data["players"]["second"]["hand"]
    check_charts(panel)
    assert "Hedge Knight" in panel.results.summary.value  # the military claim kills him


def test_the_scenario_box_refuses_other_games_and_questions(panel):
    before = panel.scenario()
    box = panel.scenario_box
    for name, field in (("arcadia-troll.json", "game"), ("agot-card-odds.json", "question"),
                        ("agot-best-plan.toml", "best_plan")):
        box.text.value = (ROOT / "examples" / name).read_text()
        box.load_text()
        assert box.error.text.startswith(field), (name, box.error.text)
        assert panel.scenario() == before


def test_whatif_sweep_and_steps_follow(panel):
    panel.whatif.set_pin()
    typed(panel.sides["first"].gold, "6")
    assert "+" in panel.whatif.differences.value
    panel.sweep.run_sweep()
    assert panel.sweep.error.text == ""
    z = panel.sweep.heatmap.data[0].z
    assert len(z) == 7 and len(z[0]) == 7
    panel.trace.run()
    steps = panel.trace.output.value
    assert "Dominance" in steps and "5.2" in steps and "Power challenge 2 (first player)" in steps
    assert "challenges[" not in steps


def test_odds_charts_and_errors(panel):
    odds = panel.odds
    typed(odds.hand, "7")
    typed(odds.claim, "2")
    bars = odds.figures["intrigue"].data[0]
    assert dict(zip(bars.x, bars.y)) == {0: 2 / 7, 1: 5 / 7}
    typed(odds.deck, "-1")
    assert odds.error.text == "Finding a card, deck: must be >= 7 and <= 1000, got -1"  # the labels on screen
    assert all("Finding a card, deck: must be" in c.note for c in odds.figures.values())
    typed(odds.deck, "60")
    assert odds.valid and all(c.note == "" for c in odds.figures.values())


def test_show_has_the_tab_after_arcadia_quest():
    app = show()
    tabs = app.children[-1]
    titles = list(tabs.titles)
    assert titles.index("A Game of Thrones") == titles.index("Arcadia Quest") + 1
    index = titles.index("A Game of Thrones")
    tabs.selected_index = index
    assert "agot-panel" in tabs.children[index].children[0]._dom_classes
    assert "agot-panel" in show("agot-lcg")._dom_classes
    assert find_game("agot").panel_title == "A Game of Thrones"


def test_figures_are_valid_plotly(monkeypatch, panel):
    from explorer.charts import kit as common
    from explorer.charts.agot_lcg import round_figures
    from explorer.panels.agot_lcg.odds import odds_figures
    from explorer.panels.agot_lcg.results import grid_for

    monkeypatch.setattr(common, "VALIDATE", True)
    round_figures(panel.result.result, grid_for(panel.result))
    odds_figures(panel.odds.question)


def test_the_headline_shows_the_power_the_first_player_gains_and_follows_changes(panel):
    # Issue 21 part 4: the round report's headline (power gained in the round) in the main results.
    assert panel.results.headline.widget in panel.results.widget.children
    report = resolved(panel)
    head = report.to_dict()["headline"]
    gained = report.to_dict()["power_after"]["first"] - report.to_dict()["power_before"]["first"]
    assert head["of"] == "power the first player gains in the round (challenges and dominance)"
    assert head["mean"] == gained and head["median"] == gained
    page = panel.results.headline.widget.value
    assert "power the first player gains in the round" in page and f"{gained}, always (no chance in it)" in page
    typed(panel.sides["second"].faction, "0")  # nothing left to claim from the second player's faction card
    after = resolved(panel).to_dict()
    assert f"{after['headline']['median']}, always" in panel.results.headline.widget.value
    typed(panel.sides["second"].rows[0].strength, "x2")
    assert not panel.valid and "agot-stale" in panel.results.headline.widget._dom_classes


def test_a_kneeling_attacker_is_dropped_with_the_note_in_the_summary(panel):
    # 4.2: a kneeling character cannot be declared as an attacker; the round drops it and says so.
    panel.sides["first"].rows[0].kneeling.value = True  # Sworn Knight, the power challenge's attacker
    assert panel.valid
    summary = panel.results.summary.value
    assert "Sworn Knight is kneeling at the start of the round (standing: false) and cannot attack" in summary
    check_charts(panel)


def test_challenges_are_named_by_type_and_place_on_every_view(panel):
    # Issue 22: "Military challenge 1", as the rules name a challenge (4.2), not the path challenges[0].
    axis = list(panel.results.figures["power_through_the_round"].data[0].x)
    assert axis[0] == "start" and "Power challenge 2: unopposed bonus (4.2.3)" in axis and axis[-1] == "Dominance (5.2)"
    for view in (panel.results.summary.value, panel.results.trace.value):
        assert "Military challenge 1 (first player)" in view and "Intrigue challenge 3 (second player)" in view
        assert "challenges[" not in view
    panel.challenges.rows[0].type.value = "intrigue"  # the name follows the type (and the place) of a row
    panel.challenges.rows[2].type.value = "power"
    assert "Intrigue challenge 1 (first player)" in panel.results.summary.value
    assert panel.valid and "Power challenge 3 (second player)" in panel.results.trace.value


def test_messages_beside_the_inputs_name_the_labels_on_screen(panel):
    # Issue 22: "First player, deck", "Sworn Knight, STR", "Military challenge 1, attackers"; never a field path.
    first = panel.sides["first"]
    for box, text, said in (
            (first.deck, "-3", "First player, deck: "), (first.faction, "x", "First player, faction power: "),
            (first.rows[0].strength, "1.5", "Sworn Knight, STR: "), (first.rows[1].power, "-1", "Spy, power: "),
            (first.rows[2].keywords, "renown, flying", "Raider, keywords: ")):
        old = str(box.value)
        typed(box, text)
        assert first.error.text.startswith(said) and "players." not in first.error.text, (said, first.error.text)
        typed(box, old)
        assert first.error.text == "" and panel.valid
    typed(first.rows[0].name, "Ser Arys")  # the message follows the name on screen
    typed(first.rows[0].strength, "1.5")
    assert first.error.text.startswith("Ser Arys, STR: ")
