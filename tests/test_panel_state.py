"""Panel state: what the user built survives switches, every view follows the state it shows,
number boxes use exactly what they show, and the Load box takes what the command line takes."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

import explorer
from explorer.cli import main as cli_main
from explorer.games.assault_of_the_giants import parse_battle
from explorer.panels.assault import AssaultPanel
from explorer.panels.dice_lab import DiceLab
from explorer.panels.number_box import NumberText

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def panel() -> AssaultPanel:
    return AssaultPanel()


def units(panel: AssaultPanel, role: str) -> list[dict[str, Any]]:
    return panel.scenario()[role]["units"]


def click(row: Any, action: str) -> None:
    """Click a unit row's button (``up``, ``down``, ``remove``)."""
    buttons = [w for w in row.box.children[0].children if f"aotg-unit-{action}" in w._dom_classes]
    buttons[0].click()


def build_attacker(panel: AssaultPanel) -> None:
    """Add a champion, wound it, move it to the front, and edit a value of another unit."""
    army = panel.armies["attacker"]
    army.add_unit(2)
    added = army.rows[-1]
    added.wounded.value = True
    added.wounded_fortitude.value = 2
    while army.rows[0] is not added:
        click(added, "up")
    army.rows[1].fortitude.value = 6


def typed(box: widgets.Widget, text: str) -> None:
    """What the browser sends when text is typed into a box and committed."""
    box.set_state({"value": text})


def shown(box: widgets.Widget) -> str:
    """What the browser shows in a box."""
    return box.get_state()["value"]


def link_text(panel: AssaultPanel) -> str:
    payload = re.search(r"base64,([^\"]+)\"", panel.scenario_box.download.value).group(1)
    return base64.b64decode(payload).decode()


def report_numbers(data: dict[str, Any]) -> dict[str, Any]:
    report = explorer.resolve(data).to_dict()
    for side in ("attacker", "defender"):
        report[side]["modifiers"].pop("source", None)
    return report


# ----------------------------------------------------------------------------- race, NPC, giantslayers
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
    assert panel.armies["attacker"].use_preset.layout.display is None
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
    assert army.undo.layout.display is None
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
    assert {u["name"] for u in slayers} == {"giantslayer giantslayer"}
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


# ----------------------------------------------------------------------------- what if: Clear A
def test_clear_a_removes_the_comparison_table(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    assert "No pinned battle" in whatif.caption.value and "<table" not in whatif.differences.value
    whatif.pin.click()
    panel.pools["attacker"].basic.value += 1
    assert "B - A" in whatif.differences.value and re.search(r"\d\.\d{3}", whatif.differences.value)
    whatif.unpin.click()
    assert "<table" not in whatif.differences.value and not re.search(r"\d", whatif.differences.value)
    assert "No pinned battle" in whatif.differences.value and "No pinned battle" in whatif.caption.value
    a, b = whatif.compare.data
    assert list(a.y) == list(b.y)                             # A is no longer a different battle
    panel.pools["attacker"].basic.value -= 1                  # later changes bring no stale table back
    assert "<table" not in whatif.differences.value


def test_comparison_says_when_b_is_not_the_current_inputs(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    whatif.pin.click()
    typed(panel.pools["attacker"].basic, "x")
    assert "last valid battle" in whatif.caption.value and "aotg-stale" in whatif.differences._dom_classes
    whatif.quantity.index = 1                                 # redrawing B does not hide that it is not current
    assert "last valid battle" in whatif.caption.value and whatif.compare.note != ""
    typed(panel.pools["attacker"].basic, "5")
    assert whatif.caption.value.startswith("A: the pinned battle") and "aotg-stale" not in whatif.differences._dom_classes


def test_sweep_heatmap_is_marked_out_of_date(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    whatif.x_range.value, whatif.y_range.value = (1, 2), (0, 1)
    whatif.run.click()
    assert whatif.heatmap.note == ""
    panel.pools["defender"].basic.value += 1
    assert "Run sweep" in whatif.heatmap.note
    panel.pools["defender"].basic.value -= 1
    assert whatif.heatmap.note == ""
    whatif.outcome.index = 1
    assert "Run sweep" in whatif.heatmap.note


# ----------------------------------------------------------------------------- scenario box and link
def test_scenario_box_and_link_follow_every_change(panel: AssaultPanel) -> None:
    box = panel.scenario_box
    changes = [
        lambda: panel.armies["attacker"].add_unit(1),
        lambda: setattr(panel.armies["attacker"].rows[0].wounded, "value", True),
        lambda: setattr(panel.armies["defender"].race, "value", "frost"),
        lambda: panel.commands["defender"].move(0, "remove"),
        lambda: panel.faces.set_face("basic", 4, block=1),
        lambda: setattr(panel.pools["defender"].overrides["rerolls"], "value", 3),
    ]
    for change in changes:
        change()
        assert json.loads(box.text.value) == panel.scenario()
        assert json.loads(link_text(panel)) == panel.scenario()
        assert "current battle" in box.state.value


def test_scenario_box_does_not_overwrite_typed_text(panel: AssaultPanel) -> None:
    box = panel.scenario_box
    box.text.value = 'game = "aotg"  # still typing'
    panel.armies["attacker"].add_unit(0)
    assert box.text.value == 'game = "aotg"  # still typing' and "your text" in box.state.value
    assert json.loads(link_text(panel)) == panel.scenario()   # the link still follows
    box.current.click()
    assert json.loads(box.text.value) == panel.scenario()


def test_roll_once_follows_the_battle(panel: AssaultPanel) -> None:
    trace = panel.trace
    trace.roll.click()
    first = trace.output.value
    panel.armies["defender"].rows[0].fortitude.value = 9
    assert trace.output.value != first and "9" in trace.output.value
    typed(panel.pools["attacker"].basic, "2.5")
    assert "last valid battle" in trace.state.value
    typed(trace.seed, "1.5")
    assert "seed" in trace.error.text and "whole number" in trace.error.text


# ----------------------------------------------------------------------------- number boxes
NUMBER_BOXES = {
    "attacker.pool.basic": (lambda p: p.pools["attacker"].basic, lambda p: p.pools["attacker"].error),
    "attacker.pool.fire": (lambda p: p.pools["attacker"].special, lambda p: p.pools["attacker"].error),
    "attacker.rerolls": (lambda p: p.pools["attacker"].overrides["rerolls"], lambda p: p.pools["attacker"].error),
    "defender.units[0].fortitude": (lambda p: p.armies["defender"].rows[0].fortitude,
                                    lambda p: p.armies["defender"].error),
    "defender.units[1].wounded_fortitude": (lambda p: p.armies["defender"].rows[1].wounded_fortitude,
                                            lambda p: p.armies["defender"].error),
    "attacker.units[2].ordning_value": (lambda p: p.armies["attacker"].rows[2].ordning_value,
                                        lambda p: p.armies["attacker"].error),
    "dice.basic[0].hit": (lambda p: p.faces.cells[0][0], lambda p: p.faces.error),
}


@pytest.mark.parametrize("field", NUMBER_BOXES)
def test_a_number_box_uses_what_it_shows(panel: AssaultPanel, field: str) -> None:
    box, message = (get(panel) for get in NUMBER_BOXES[field])
    good = box.value
    charts_before = panel.results.figures["hits"].figure
    typed(box, "2.5")
    assert shown(box) == "2.5"                                # not 25, not 2
    assert message.text.startswith(f"{field}: must be a whole number >= ")
    assert "got '2.5'" in message.text
    assert panel.results.figures["hits"].figure == charts_before and "Not updated" in panel.status.value
    with pytest.raises(explorer.ScenarioError, match=re.escape(field)):
        parse_battle(panel.scenario())                        # the scenario holds "2.5", never another number
    typed(box, f" {good:+d} " if isinstance(good, int) else good)  # spaces and a sign are fine
    assert box.value == good and shown(box) == str(good) and message.text == ""
    assert panel.refresh()


def test_whole_number_text_is_shown_as_the_number_used(panel: AssaultPanel) -> None:
    box = panel.pools["attacker"].basic
    typed(box, "06")
    assert box.value == 6 and shown(box) == "6"
    assert parse_battle(panel.scenario()).attacker.dice_count == 6 + 1


def test_no_int_text_widgets_left() -> None:
    def walk(w: widgets.Widget):
        yield w
        for child in getattr(w, "children", ()):
            yield from walk(child)

    roots = [AssaultPanel().widget, DiceLab().widget]
    found = [type(w).__name__ for root in roots for w in walk(root)
             if isinstance(w, (widgets.IntText, widgets.BoundedIntText, widgets.FloatText, widgets.BoundedFloatText))]
    assert found == []
    assert sum(isinstance(w, NumberText) for root in roots for w in walk(root)) > 20


@pytest.mark.parametrize("name, control, words", [
    ("basic", lambda lab: lab.counts["basic"], ["basic dice", "0 to 14", "'2.5'"]),
    ("custom count", lambda lab: lab.custom_count, ["custom dice", "0 to 14", "'2.5'"]),
    ("rerolls", lambda lab: lab.modifiers["rerolls"], ["rerolls", "0 to 14", "'2.5'"]),
])
def test_dice_lab_box_refuses_a_fraction_and_uses_what_it_shows(name: str, control: Any, words: list[str]) -> None:
    lab = DiceLab()
    box = control(lab)
    before = lab.distribution.figure
    typed(box, "2.5")
    assert shown(box) == "2.5"
    text = lab.error_texts()[name]
    assert all(word in text for word in words)
    assert lab.distribution.figure == before
    typed(box, "2")
    assert lab.error_texts() == {} and shown(box) == "2" and box.value == 2
    pool, _custom, mods, _policy = lab._key                   # what the chart was computed from
    used = dict(mods)["rerolls"] if name == "rerolls" else dict(pool)["custom" if name == "custom count" else name]
    assert used == 2


# ----------------------------------------------------------------------------- the Load box
def load(panel: AssaultPanel, text: str) -> str:
    panel.scenario_box.text.value = text
    panel.scenario_box.load.click()
    return panel.scenario_box.error.text


def test_load_box_takes_toml_like_the_command_line(panel: AssaultPanel, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "npc-stone-giants.toml").read_text()
    path = tmp_path / "battle.toml"
    path.write_text(text)
    assert cli_main(["resolve", str(path)]) == 0
    assert load(panel, text) == ""
    assert report_numbers(panel.scenario()) == report_numbers(explorer.load_scenario(path))
    assert panel.scenario()["title"] == "Storm giants against NPC stone giants"
    assert json.loads(panel.scenario_box.text.value) == panel.scenario()


BASE = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())
CLI_SCENARIOS = {
    "explicit rerolls and conversions": {**BASE, "attacker": {**BASE["attacker"], "rerolls": 3, "arcane_to_hits": 0,
                                                              "arcane_to_blocks": 1},
                                         "defender": {**BASE["defender"], "arcane_to_hits": 0}},
    "two race dice in a pool": {**BASE, "attacker": {**BASE["attacker"], "pool": {"basic": 2, "fire": 1, "storm": 2}}},
    "a die of its own": {**BASE, "dice": {**BASE["dice"], "bone": [{"hit": 2}, {}, {}, {"block": 1}, {}, {}]},
                         "defender": {**BASE["defender"], "pool": {"basic": 1, "bone": 2}}},
    "NPC without a race": {**BASE, "defender": {**BASE["defender"], "npc": True, "pool": {"basic": 3}}},
    "game alias, no format, notes": {**{k: v for k, v in BASE.items() if k != "format"}, "game": "AotG",
                                     "notes": ["a note"]},
    "giantslayers": {**BASE, "attacker": {"giantslayers": True, "pool": {"basic": 3},
                                          "units": [{"fortitude": 2, "ordning_value": 0}, {"fortitude": 3}]}},
    "minimal": {"game": "assault-of-the-giants", "attacker": {"pool": {"basic": 2}, "units": []},
                "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}},
}


@pytest.mark.parametrize("name", CLI_SCENARIOS)
def test_load_box_takes_any_scenario_the_command_line_takes(panel: AssaultPanel, name: str) -> None:
    data = CLI_SCENARIOS[name]
    expected = report_numbers(data)                          # the command line's resolver accepts it
    assert load(panel, json.dumps(data)) == ""
    assert report_numbers(panel.scenario()) == expected
    again = AssaultPanel()                                   # and the panel's own file loads back the same
    assert load(again, panel.scenario_box.text.value) == ""
    assert again.scenario() == panel.scenario()


def test_loading_a_file_resets_dice_it_does_not_define(panel: AssaultPanel) -> None:
    panel.faces.set_face("basic", 0, hit=4)
    text = (ROOT / "examples" / "npc-stone-giants.toml").read_text()
    assert load(panel, text) == ""
    assert report_numbers(panel.scenario()) == report_numbers(explorer.load_scenario(ROOT / "examples" / "npc-stone-giants.toml"))


@pytest.mark.parametrize("text, start", [
    ((ROOT / "examples" / "arcadia-troll.json").read_text(), "game: this is a \"arcadia-quest\" scenario"),
    ((ROOT / "examples" / "agot-power-challenge.toml").read_text(), "game: this is a \"agot-lcg\" scenario"),
    ('{"attacker": {}, "defender": {}}', "game: is required"),
    ('game = "chess"', "game: must be one of"),
    ("[attacker\npool = 1", "scenario: neither JSON nor valid TOML"),
    ('{"game": ', "scenario: not valid JSON"),
    ("[1, 2]", "scenario: must be an object"),
    ("   ", "scenario: the box is empty"),
    ('game = "aotg"\n[attacker]\npool = {basic = 2.5}\nunits = []\n[defender]\npool = {}\nunits = []',
     "attacker.pool.basic: must be a whole number >= 0 and <= 14, got 2.5"),
])
def test_a_bad_file_is_named_and_changes_nothing(panel: AssaultPanel, text: str, start: str) -> None:
    build_attacker(panel)
    before = panel.scenario()
    message = load(panel, text)
    assert message.startswith(start), message
    assert panel.scenario() == before
    assert panel.scenario_box.text.value == text               # the user's text stays to be fixed


def test_resolver_limits_refuse_before_any_input_changes(panel: AssaultPanel) -> None:
    before = panel.scenario()
    pool = {"basic": 2, "hill": 2, "stone": 2, "frost": 2, "fire": 2, "cloud": 2, "storm": 2}
    many = {**BASE, "attacker": {**BASE["attacker"], "pool": pool, "rerolls": 3}}
    with pytest.raises(explorer.ScenarioError) as info:
        explorer.resolve(many)
    assert load(panel, json.dumps(many)).startswith(str(info.value)[:20])
    assert panel.scenario() == before


def test_open_file_button_loads_toml(panel: AssaultPanel) -> None:
    content = (ROOT / "examples" / "npc-stone-giants.toml").read_bytes()
    panel.scenario_box.upload.set_state({"value": [  # as the browser sends an opened file
        {"name": "npc.toml", "type": "", "size": len(content), "content": memoryview(content), "last_modified": 0}]})
    assert panel.scenario_box.error.text == ""
    assert panel.scenario()["defender"]["npc"] is True
    assert panel.commands["defender"].play.disabled            # NPC row stays disabled after loading


def test_no_exception_escapes_the_buttons(panel: AssaultPanel, monkeypatch: pytest.MonkeyPatch) -> None:
    import explorer.panels.scenario_io as scenario_io
    import explorer.panels.trace_view as trace_view
    import explorer.panels.whatif as whatif

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    before = panel.scenario()
    monkeypatch.setattr(scenario_io, "resolve_battle", broken)
    assert "could not load it (RuntimeError: boom)" in load(panel, json.dumps(BASE))
    assert panel.scenario() == before
    monkeypatch.setattr(whatif, "sweep", broken)
    panel.whatif.run.click()
    assert "RuntimeError: boom" in panel.whatif.sweep_error.text
    monkeypatch.setattr(trace_view, "trace_battle", broken)
    panel.trace.roll.click()
    assert "RuntimeError: boom" in panel.trace.error.text
