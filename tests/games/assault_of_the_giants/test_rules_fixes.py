"""Battles the rules forbid or treat differently (issue 9, part 1), each with its rulebook page."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from explorer import resolve
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import parse_battle

FIRE_VS_HILL: dict[str, Any] = json.loads(Path("examples/fire-vs-hill.json").read_text())
ARCANE = [{"arcane": 1}] * 6


def _scenario(**attacker: Any) -> dict[str, Any]:
    data = copy.deepcopy(FIRE_VS_HILL)
    data["attacker"].update(attacker)
    return data


def _refused(data: dict[str, Any], field: str, *words: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        resolve(data)
    assert caught.value.field == field
    message = str(caught.value)
    assert "\n" not in message and all(w in message for w in words), message
    return message


def test_giantslayer_attack_has_no_attack_bonus_p17() -> None:
    """p.17: the Attack Command's bonus applies only in the battle the Attack Command starts;
    a giantslayer attack is a Rest Command action, so the row's Attack gives nothing."""
    data = _scenario(giantslayers=True, commands=["Attack", "Move", "Rest"], pool={"sure": 1},
                     units=[{"name": "slayer", "fortitude": 2, "wounded_fortitude": 1}])
    data["dice"]["sure"] = ARCANE
    data["defender"]["pool"] = {}
    battle = parse_battle(data)
    assert battle.attacker.modifiers.arcane_to_hits == 0
    # one arcane, no conversion: no hit at all
    assert resolve(data).to_dict()["attacker"]["hits"] == {"0": 1.0}
    giants = _scenario(commands=["Leader", "Move", "Attack"], pool={"sure": 1})
    giants["dice"]["sure"] = ARCANE
    assert parse_battle(giants).attacker.modifiers.arcane_to_hits == 2
    assert resolve(giants).to_dict()["attacker"]["hits"] == {"2": 1.0}   # the same arcane as 2 hits


def test_giantslayer_explicit_attack_bonus_is_refused_p17() -> None:
    data = _scenario(giantslayers=True, arcane_to_hits=1,
                     units=[{"name": "slayer", "fortitude": 2, "wounded_fortitude": 1}])
    _refused(data, "attacker.arcane_to_hits", "giantslayers", "p.17")


def test_attack_command_is_the_last_card_of_a_giants_row_p17() -> None:
    """p.17: the battle starts with the Attack Command just played: no card can follow it."""
    message = _refused(_scenario(commands=["Leader", "Attack", "Move"]), "attacker.commands", "last", "Move", "p.17")
    assert len(message) <= 200
    assert parse_battle(_scenario(commands=["Leader", "Move", "Attack"])).attacker.modifiers.rerolls == 2
    # the defender's row is not the card just played: Attack may sit anywhere there (and gives nothing)
    data = _scenario()
    data["defender"]["commands"] = ["Attack", "Leader", "Trade"]
    assert parse_battle(data).defender.modifiers.arcane_to_hits == 0


def test_wounded_champion_is_refused_p17() -> None:
    """p.17: champions shrug off smaller damage without becoming wounded: no wounded side."""
    data = _scenario()
    data["attacker"]["units"][0]["wounded"] = True
    _refused(data, "attacker.units[0].wounded", "champion", "p.17")


def test_npc_attacker_is_refused_p19_20() -> None:
    """pp.19-20: NPC giants do not move or attack; they only defend."""
    _refused(_scenario(npc=True), "attacker.npc", "only defend")
    data = _scenario()
    data["defender"].update(npc=True, commands=[])
    assert parse_battle(data).defender.npc


def test_reports_say_which_values_are_examples_and_list_the_rulings() -> None:
    report = resolve("examples/fire-vs-hill.json")
    out = report.to_dict()
    assert out["provenance"]["dice.fire"] == "example, not from the rulebook"
    assert out["provenance"]["dice.basic"] == "example, not from the rulebook"   # the default faces, written out
    data = _scenario()
    data["dice"]["basic"] = ARCANE
    assert resolve(data).to_dict()["provenance"]["dice.basic"] == "entered in the scenario"
    assert any("p.17" in r and "giantslayer" in r for r in out["rulings"])
    text = report.to_text()
    assert "RULINGS" in text and "example, not from the rulebook" in text
    assert {"rulings", "provenance"} <= set(report.to_rows().column("side"))


def test_package_docstring_lists_every_ruling_the_reports_print() -> None:
    import re

    import explorer.games.assault_of_the_giants as package
    from explorer.games.assault_of_the_giants.rules.rulings import BATTLE_RULINGS

    def opening(text: str) -> str:
        words = [re.sub(r"[^a-z0-9']", "", w) for w in re.sub(r"\([^)]*\)", "", text).lower().split()]
        return " ".join([w for w in words if w][:2])

    bullets = {opening(item) for item in (package.__doc__ or "").split("\n* ")[1:]}
    assert {opening(ruling) for ruling in BATTLE_RULINGS} <= bullets


def test_report_gives_best_play_value_and_gain_over_misses() -> None:
    data = _scenario(reroll_policy="best")
    out = resolve(data).to_dict()["attacker"]
    assert out["objective"] == "ordning-points"
    best = out["best_play"]
    # the value reached is the battle's own expected Ordning Points; the baseline is the misses battle's
    assert best["value"] == pytest.approx(out["means"]["ordning_points"], abs=1e-12)
    misses = resolve(_scenario(reroll_policy="misses")).to_dict()["attacker"]["means"]["ordning_points"]
    assert best["misses_value"] == pytest.approx(misses, abs=1e-12)
    assert best["gain"] == pytest.approx(best["value"] - misses, abs=1e-12) and best["gain"] > 0
    assert 0.15 < best["relative_gain"] < 0.20          # the "about 17 %"
    text = resolve(data).to_text()
    assert "BEST PLAY (attacker, objective ordning-points)" in text
    assert "best_play" not in resolve(_scenario()).to_dict()["attacker"]
