"""Headless widget tests of the Assault of the Giants panel: set values, compare the figures
with the resolver's own numbers for the same scenario."""

from __future__ import annotations

import pytest

import explorer
from explorer import ScenarioError, charts
from explorer.app import show
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
from explorer.games.assault_of_the_giants.battle.summary import summary_rows
from explorer.games.assault_of_the_giants.battle.sweep import OUTCOMES, PARAMETERS
from explorer.lessons import changed
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.common.host import GameAdapter, PanelHost


@pytest.fixture(scope="module")
def panel() -> AssaultPanel:
    return AssaultPanel()


def exact(panel: AssaultPanel):
    return resolve_battle(parse_battle(panel.scenario()))


def assert_figures_match(panel: AssaultPanel) -> None:
    result = exact(panel)
    figures = panel.results.figures
    for name, attr in (("hits", "hits"), ("damage", "damage_taken"), ("ordning_points", "ordning_points")):
        for trace, side in zip(figures[name].data, ("attacker", "defender")):
            xs, ys = charts.view_values(getattr(getattr(result, side), attr), panel.results.view.value)
            assert list(trace.x) == xs and list(trace.y) == pytest.approx(ys, abs=1e-12), (name, side)
    defeated = figures["casualties"].data[2]
    units = [(s, i) for s in ("attacker", "defender") for i in range(len(getattr(result.battle, s).units))]
    assert list(defeated.x) == pytest.approx(
        [float(getattr(result, s).unit_status(i).probability(next(iter(
            x for x in getattr(result, s).unit_status(i) if x.value == "defeated"), None)) or 0) for s, i in units])
    rows = summary_rows(result, panel.results.k.value)
    assert panel.results.summary == rows
    wiped = f"{float(rows['defender']['chance wiped out']) * 100:.2f}%"
    assert "<th>defender</th>" in panel.results.table.value and f"<td>{wiped}</td>" in panel.results.table.value


def test_initial_figures_equal_the_resolver(panel: AssaultPanel) -> None:
    assert_figures_match(panel)
    assert "example" in panel.banner.value


def test_adding_a_unit_updates_every_chart_in_place(panel: AssaultPanel) -> None:
    widget_before = panel.results.figures["casualties"]
    bars_before = len(widget_before.data[0].y)
    panel.armies["attacker"].add.click()
    assert panel.results.figures["casualties"] is widget_before
    assert len(widget_before.data[0].y) == bars_before + 1
    assert_figures_match(panel)


def test_moving_a_command_card_changes_rerolls_and_charts(panel: AssaultPanel) -> None:
    row = panel.commands["attacker"]
    before = list(panel.results.figures["hits"].data[0].y)
    rerolls_before = parse_battle(panel.scenario()).attacker.modifiers.rerolls
    row.move(row.commands.index("Leader"), "right")
    assert parse_battle(panel.scenario()).attacker.modifiers.rerolls == rerolls_before - 1
    assert "Leader: " in row.summary.value
    assert list(panel.results.figures["hits"].data[0].y) != before
    assert_figures_match(panel)


def test_views_and_k(panel: AssaultPanel) -> None:
    panel.results.view.value = "at least"
    assert panel.results.figures["damage"].data[1].y[0] == pytest.approx(1.0)
    assert_figures_match(panel)
    panel.results.k.value = 1
    assert "chance of 1 or more damage taken" in panel.results.table.value and "P(" not in panel.results.table.value
    panel.results.view.value = "exactly"


def test_bad_pool_shows_a_message_next_to_it_and_keeps_the_last_charts(panel: AssaultPanel) -> None:
    pool = panel.pools["attacker"]
    before = list(panel.results.figures["hits"].data[0].y)
    good = pool.basic.value
    pool.basic.value = 61
    assert pool.error.text.startswith("Attacker, basic dice:") and "<= 60" in pool.error.text
    assert list(panel.results.figures["hits"].data[0].y) == before
    assert "last valid" in panel.status.value
    pool.basic.value = good + 1
    assert pool.error.text == ""
    assert list(panel.results.figures["hits"].data[0].y) != before
    assert_figures_match(panel)


def test_bad_unit_value_and_bad_face_are_named(panel: AssaultPanel) -> None:
    row = panel.armies["defender"].rows[0]
    row.fortitude.value = 0
    assert panel.armies["defender"].error.text.startswith("Defender, hill giant 1, Fortitude:")
    row.fortitude.value = 2
    assert panel.armies["defender"].error.text == ""
    assert "your value" in row.provenance.value
    panel.faces.set_face("basic", 0, hit=7)
    assert panel.faces.error.text.startswith("Die faces, basic die, face 1, hit:")
    panel.faces.set_face("basic", 0, hit=2)
    assert panel.faces.error.text == ""
    assert parse_battle(panel.scenario()).attacker.pool[0][0].faces[0] == (2, 0, 0)
    assert_figures_match(panel)


def test_npc_switch_disables_commands_and_uses_p20_limits(panel: AssaultPanel) -> None:
    panel.armies["defender"].npc.value = True
    battle = parse_battle(panel.scenario())
    assert (battle.defender.modifiers.rerolls, battle.defender.modifiers.arcane_to_blocks) == (2, 2)
    assert "NPC" in panel.commands["defender"].summary.value
    assert exact(panel).defender.ordning_points.probability(0) == 1
    assert_figures_match(panel)
    panel.armies["defender"].npc.value = False


def test_race_swaps_the_special_die_and_offers_its_preset(panel: AssaultPanel) -> None:
    army = panel.armies["defender"]
    units_before = panel.scenario()["defender"]["units"]  # edited above: the list is the user's
    army.race.value = "storm"
    scenario = panel.scenario()
    assert "storm" in scenario["defender"]["pool"]
    assert scenario["defender"]["units"] == units_before
    army.use_preset.click()
    assert all(u["name"].startswith("storm") for u in panel.scenario()["defender"]["units"])
    assert_figures_match(panel)


def test_pin_and_compare(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    whatif.pin.click()
    pinned_y = list(whatif.compare.data[0].y)
    panel.pools["attacker"].basic.value += 1
    assert list(whatif.compare.data[0].y) == pinned_y  # A stays
    assert list(whatif.compare.data[1].y) != pinned_y  # B follows
    assert "B - A" in whatif.differences.value


def test_sweep_heatmap_equals_resolved_cells(panel: AssaultPanel) -> None:
    view = panel.sweep
    view.x_range.value = (1, 3)
    view.y_range.value = (0, 1)
    view.run.click()
    read = OUTCOMES[view.outcome.value]  # each cell resolved on its own, without the sweep
    x_path, y_path = PARAMETERS[view.x.value].path, PARAMETERS[view.y.value].path
    expected = [[read(explorer.resolve(changed(panel.scenario(), {x_path: a, y_path: b})).result) for a in range(1, 4)]
                for b in range(0, 2)]
    assert [list(r) for r in view.heatmap.data[0].z] == [[float(v) for v in r] for r in expected]
    view.y.value = view.x.value
    view.run.click()
    assert "different inputs" in view.error.text
    assert set(OUTCOMES) >= {view.outcome.value}


def test_roll_once_trace_cites_pages(panel: AssaultPanel) -> None:
    panel.trace.seed.value = 7
    panel.trace.roll.click()
    first = panel.trace.output.value
    assert "p.17" in first and "Casualties" in first
    panel.trace.roll.click()
    assert panel.trace.output.value == first  # same seed, same battle
    panel.trace.again.click()
    assert panel.trace.seed.value == 8


def test_the_panel_is_a_host_and_its_adapter_a_game_adapter(panel: AssaultPanel) -> None:
    assert isinstance(panel, PanelHost) and isinstance(panel.adapter, GameAdapter)


def test_app_entry_points() -> None:
    app = show()
    tabs = app.children[-1]
    assert "explorer-app" in tabs._dom_classes
    assert [tabs.get_title(i) for i in range(len(tabs.children))] == ["Assault of the Giants", "Arcadia Quest",
                                                                      "A Game of Thrones", "Dice lab"]
    assert "aotg-panel" in show("assault-of-the-giants")._dom_classes
    assert "aotg-panel" in show("AotG")._dom_classes
    with pytest.raises(ScenarioError):
        show("no-such-game")  # every game has a panel now; an unknown name is refused


def test_figures_are_valid_plotly(monkeypatch: pytest.MonkeyPatch, panel: AssaultPanel) -> None:
    """Figures are built without validation for speed; built once with it, every property must pass."""
    monkeypatch.setattr(charts.kit, "VALIDATE", True)
    charts.battle_figures(panel.result)
    panel.whatif.update(panel.result)


@pytest.mark.parametrize("name", ["fire-vs-hill.json", "npc-stone-giants.toml"])
def test_scenario_box_loads_an_example_and_the_panel_answers_like_the_cli(name: str) -> None:
    import json

    import explorer

    fresh = AssaultPanel()
    data = explorer.load_scenario(f"examples/{name}")
    fresh.scenario_box.text.value = json.dumps(data)
    fresh.scenario_box.load.click()
    assert fresh.scenario_box.error.text == ""
    ours, theirs = explorer.resolve(fresh.scenario()).to_dict(), explorer.resolve(data).to_dict()
    for side in ("attacker", "defender"):
        for key in ("hits", "blocks", "damage_taken", "ordning_points", "units"):
            assert ours[side][key] == theirs[side][key], (side, key)
    assert_figures_match(fresh)
    fresh.scenario_box.show_current()
    assert json.loads(fresh.scenario_box.text.value) == fresh.scenario()
    assert "download" in fresh.scenario_box.download.value


def test_scenario_box_refuses_bad_text_and_keeps_the_inputs(panel: AssaultPanel) -> None:
    import json

    before = panel.scenario()
    box = panel.scenario_box
    box.text.value = "{not json"
    box.load.click()
    assert box.error.text.startswith("scenario: not valid JSON")
    unsupported = {**before, "attacker": {**before["attacker"], "rerolls": -1}}  # the CLI refuses it too
    box.text.value = json.dumps(unsupported)
    box.load.click()
    assert box.error.text.startswith("attacker.rerolls:")
    invalid = {**before, "defender": {**before["defender"], "casualty_order": "random"}}
    box.text.value = json.dumps(invalid)
    box.load.click()
    assert box.error.text.startswith("defender.casualty_order:")
    assert panel.scenario() == before
