"""Scenario files (JSON and TOML), clear errors naming the field, and the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from explorer import ScenarioError, load_scenario, resolve
from explorer.games.assault_of_the_giants import battle_to_dict, parse_battle
from tests.scenario.edits import edited

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.*"))

BASE = {
    "game": "assault-of-the-giants",
    "dice": {"basic": [{"hit": 1}, {"hit": 2}, {"block": 1}, {"arcane": 1}, {}, {"hit": 1, "block": 1}]},
    "attacker": {"pool": {"basic": 2}, "commands": ["Leader", "Attack"],
                 "units": [{"name": "Fire giant", "fortitude": 3, "wounded_fortitude": 2, "ordning_value": 2}]},
    "defender": {"pool": {"basic": 2}, "units": [{"name": "Hill giant", "fortitude": 2, "ordning_value": 1}],
                 "casualty_order": "fewest-op"},
}


DISTRIBUTIONS = {
    "assault-of-the-giants": lambda d: [d[s][q] for s in ("attacker", "defender") if s in d  # a plan or a table: none
                                        for q in ("hits", "blocks", "damage_taken", "ordning_points")],
    "arcadia-quest": lambda d: [d[q] for q in ("hits", "saves", "wounds")],
    "agot-lcg": lambda d: [],
}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_resolve_and_sum_to_one(path: Path) -> None:
    """Every example file resolves through the one resolver; its distributions sum to 1 (cut included)."""
    data = resolve(path).to_dict()
    assert data["game"] == load_scenario(path)["game"]
    for dist in DISTRIBUTIONS[data["game"]](data):
        assert abs(sum(dist.values()) + data.get("cut", 0) - 1) < 1e-9


def test_json_and_toml_give_the_same_report(tmp_path: Path) -> None:
    toml = tmp_path / "s.toml"
    toml.write_text("""game = "assault-of-the-giants"
[dice]
basic = [{hit = 1}, {hit = 2}, {block = 1}, {arcane = 1}, {}, {hit = 1, block = 1}]
[attacker]
pool = {basic = 2}
commands = ["Leader", "Attack"]
units = [{name = "Fire giant", fortitude = 3, wounded_fortitude = 2, ordning_value = 2}]
[defender]
pool = {basic = 2}
units = [{name = "Hill giant", fortitude = 2, ordning_value = 1}]
casualty_order = "fewest-op"
""")
    js = tmp_path / "s.json"
    js.write_text(json.dumps(BASE))
    assert resolve(toml).to_dict() == resolve(js).to_dict() == resolve(BASE).to_dict()


def test_round_trip_through_the_scenario_form() -> None:
    battle = parse_battle(BASE)
    again = parse_battle(battle_to_dict(battle))
    assert resolve(battle_to_dict(battle)).to_dict()["attacker"]["hits"] == resolve(BASE).to_dict()["attacker"]["hits"]
    assert again.attacker.modifiers.rerolls == battle.attacker.modifiers.rerolls


def _with(path: str, value: object) -> dict:
    return edited(BASE, path, value)


BAD = [
    ("game", "chess", "game"),
    ("format", 2, "format"),
    ("attacker.pool.basic", -1, "attacker.pool.basic"),
    ("attacker.pool.basic", 2.5, "attacker.pool.basic"),
    ("attacker.pool.basic", 99, "attacker.pool.basic"),
    ("attacker.pool.purple", 1, "attacker.pool.purple"),
    ("attacker.rerolls", "two", "attacker.rerolls"),
    ("attacker.npc", 1, "attacker.npc"),
    ("attacker.colour", "red", "attacker.colour"),
    ("attacker.casualty_order", "random", "attacker.casualty_order"),
    ("attacker.units.0.fortitude", 0, r"attacker.units\[0\].fortitude"),
    ("attacker.units.0.wounded", "yes", r"attacker.units\[0\].wounded"),
    ("attacker.units.0.speed", 3, r"attacker.units\[0\].speed"),
    ("defender.arcane_to_hits", 2, "defender.arcane_to_hits"),
    ("defender.giantslayers", True, "defender.giantslayers"),
    ("attacker.commands", ["Leader", "Leader"], "attacker.commands"),
    ("dice.basic", [{"hit": 1}] * 5, "dice.basic"),
    ("dice.basic", [{"hit": 5}] + [{}] * 5, r"dice.basic\[0\].hit"),
    ("dice.basic", [{"sword": 1}] + [{}] * 5, r"dice.basic\[0\].sword"),
    ("defender.units", "none", "defender.units"),
    ("defender.units", [{"fortitude": 2, "ordning_value": 1}] * 13, "defender.units"),
]


@pytest.mark.parametrize("path, value, field", BAD, ids=[b[0] + "=" + repr(b[1]) for b in BAD])
def test_bad_values_name_their_field(path: str, value: object, field: str) -> None:
    with pytest.raises(ScenarioError, match=f"^{field}: "):
        resolve(_with(path, value))


def test_missing_required_keys_are_named() -> None:
    data = copy.deepcopy(BASE)
    del data["attacker"]["units"][0]["ordning_value"]
    with pytest.raises(ScenarioError, match=r"attacker.units\[0\].ordning_value: is required"):
        resolve(data)
    data = copy.deepcopy(BASE)
    data["defender"]["units"][0]["wounded"] = True
    with pytest.raises(ScenarioError, match=r"wounded_fortitude: is required when wounded"):
        resolve(data)


def test_explicit_numbers_override_the_command_row() -> None:
    data = _with("attacker.rerolls", 0)
    assert parse_battle(data).attacker.modifiers.rerolls == 0
    assert parse_battle(BASE).attacker.modifiers.rerolls == 1


def test_bad_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{nope")
    with pytest.raises(ScenarioError, match="not valid JSON"):
        load_scenario(broken)
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.toml")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, cwd=ROOT)


def test_cli_prints_a_table_and_json() -> None:
    path = str(ROOT / "examples" / "fire-vs-hill.json")
    table = _cli("resolve", path)
    assert table.returncode == 0 and "ordning_points" in table.stdout and "ATTACKER" in table.stdout
    data = json.loads(_cli("resolve", path, "--json").stdout)
    assert data == json.loads(json.dumps(resolve(path).to_dict()))


def test_cli_bad_file_gives_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_with("attacker.pool.basic", -3)))
    run = _cli("resolve", str(bad), "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: attacker.pool.basic:")
    assert "Traceback" not in run.stderr
    assert _cli("frobnicate").returncode == 2


def test_a_pool_too_large_for_the_exact_engine_is_refused_with_a_message() -> None:
    names = ["basic", "hill", "stone", "frost", "fire", "cloud", "storm"]
    data = copy.deepcopy(BASE)
    del data["dice"]
    data["attacker"]["pool"] = {name: 10 for name in names[:6]}
    data["attacker"]["rerolls"] = 20
    with pytest.raises(ScenarioError, match=r"^attacker\.(pool|rerolls): too big for the exact engine"):
        resolve(data)


def test_a_directory_is_refused_once_in_one_line(tmp_path: Path) -> None:
    """A folder given as the scenario: one line, said once (it was wrapped in a second "cannot read")."""
    done = _cli("resolve", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.strip().count("cannot read") == 1 and "it is a directory" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
