"""The Load box takes what the command line takes, and a file it refuses changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import explorer
from explorer.cli import main as cli_main
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from tests.panels.assault_of_the_giants.support import BASE, ROOT, build_attacker, load, report_numbers


def test_load_box_takes_toml_like_the_command_line(panel: AssaultPanel, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "npc-stone-giants.toml").read_text()
    path = tmp_path / "battle.toml"
    path.write_text(text)
    assert cli_main(["resolve", str(path)]) == 0
    assert load(panel, text) == ""
    assert report_numbers(panel.scenario()) == report_numbers(explorer.load_scenario(path))
    assert panel.scenario()["title"] == "Storm giants against NPC stone giants"
    assert json.loads(panel.scenario_box.text.value) == panel.scenario()


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
     "attacker.pool.basic: must be a whole number >= 0 and <= 60, got 2.5"),
])
def test_a_bad_file_is_named_and_changes_nothing(panel: AssaultPanel, text: str, start: str) -> None:
    build_attacker(panel)
    before = panel.scenario()
    message = load(panel, text)
    assert message.startswith(start), message
    assert panel.scenario() == before
    assert panel.scenario_box.text.value == text               # the user's text stays to be fixed


def test_resolver_limits_refuse_before_any_input_changes(panel: AssaultPanel, monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario the parser takes but the resolver refuses (a computing limit, say) changes no input."""
    import explorer.games.assault_of_the_giants as game

    def limited(_data: Any) -> Any:
        raise explorer.ScenarioError("attacker.pool", "too big for the exact engine (a computing limit)")

    monkeypatch.setattr(game, "resolve", limited)
    before = panel.scenario()
    many = {**BASE, "attacker": {**BASE["attacker"], "pool": {"basic": 2, "hill": 2, "stone": 2}, "rerolls": 3}}
    with pytest.raises(explorer.ScenarioError) as info:
        explorer.resolve(many)                                # the command line refuses it
    assert load(panel, json.dumps(many)) == str(info.value)
    assert panel.scenario() == before


def test_open_file_button_loads_toml(panel: AssaultPanel) -> None:
    content = (ROOT / "examples" / "npc-stone-giants.toml").read_bytes()
    panel.scenario_box.upload.set_state({"value": [  # as the browser sends an opened file
        {"name": "npc.toml", "type": "", "size": len(content), "content": memoryview(content), "last_modified": 0}]})
    assert panel.scenario_box.error.text == ""
    assert panel.scenario()["defender"]["npc"] is True
    assert panel.commands["defender"].play.disabled            # NPC row stays disabled after loading


def test_no_exception_escapes_the_buttons(panel: AssaultPanel, monkeypatch: pytest.MonkeyPatch) -> None:
    import explorer.panels.assault_of_the_giants.adapter as adapter
    import explorer.panels.common.scenario_io as scenario_io

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("boom")

    before = panel.scenario()
    monkeypatch.setattr(scenario_io, "resolve", broken)
    assert "could not load it (RuntimeError: boom)" in load(panel, json.dumps(BASE))
    assert panel.scenario() == before
    monkeypatch.setattr(adapter, "sweep", broken)
    panel.sweep.run.click()
    assert "RuntimeError: boom" in panel.sweep.error.text
    monkeypatch.setattr(adapter.AssaultAdapter, "trace", broken)
    panel.trace.roll.click()
    assert "RuntimeError: boom" in panel.trace.error.text
