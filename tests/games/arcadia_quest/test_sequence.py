"""Arcadia Quest sequences: attacks in turn until the Monster dies (wounds stay on it, Payback on each attack)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest import parse_encounter, parse_sequence, resolve_encounter, resolve_sequence
from explorer.games.arcadia_quest.encounter.sequence import MAX_WORK, SETTLED
from tests.games.arcadia_quest import oracle as aq_oracle
from tests.scenario.edits import edited

ROOT = Path(__file__).resolve().parents[3]
ALL_MELEE = {"attack": ["melee"] * 6, "defence": ["blank"] * 6}


def member(dice: int = 3, defence: int = 2, life: int = 4, **hero: object) -> dict:
    return {"hero": {"defence": defence, "life": life, **hero}, "attack": {"dice": dice, "kind": "melee"}}


def sequence(party: list[dict] | None = None, target: dict | None = None, **top: object) -> dict:
    return {"game": "arcadia-quest", "question": "sequence", "party": [member()] if party is None else party,
            "target": target or {"attack": {"dice": 3, "kind": "melee"}, "life": 5, "overkill": 6}, **top}


def solve(data: dict):
    return resolve_sequence(parse_sequence(data))


@pytest.mark.parametrize("data", [
    sequence(),
    sequence([member(2, 1, 3, rerolls=1)], {"attack": {"dice": 2, "kind": "ranged"}, "life": 4, "overkill": None,
                                           "defence": 1, "wounds": 1}),
    sequence([member(3, 1, 5, abilities=["extra-die-while-wounded"])],
             {"attack": {"dice": 3, "kind": "melee"}, "life": 3, "overkill": 3, "abilities": ["extra-die-while-wounded"]}),
], ids=["plain", "ranged-defence", "berserk"])
def test_one_hero_matches_the_recursive_oracle(data: dict) -> None:
    result = solve(data | {"max_attacks": 4})
    hero, target = data["party"][0]["hero"], data["target"]
    kills, dead, beyond = aq_oracle.attacks_to_kill(
        {"dice": data["party"][0]["attack"]["dice"], "kind": "melee", "rerolls": hero.get("rerolls", 0),
         "abilities": tuple(hero.get("abilities", ())), "defence": hero["defence"], "life": hero["life"]},
        {"dice": target["attack"]["dice"], "kind": target["attack"]["kind"], "rerolls": 0,
         "abilities": tuple(target.get("abilities", ())), "defence": target.get("defence", 0), "life": target["life"],
         "wounds": target.get("wounds", 0), "overkill": target["overkill"]}, cap=4)
    slack = Fraction(1, 10**8)  # both cut their CRIT chains (the oracle at 14 rounds of each roll)
    assert set(kills) <= set(range(1, 5))
    for n in range(1, 5):
        assert abs(result.kills.get(n, Fraction(0)) - kills.get(n, Fraction(0))) <= slack, n
    assert abs(result.party_killed - dead) <= slack
    assert abs(result.beyond_cap - beyond) <= slack


def test_one_attack_is_the_encounter() -> None:
    data = sequence(max_attacks=1)
    enc = resolve_encounter(parse_encounter({"hero": data["party"][0]["hero"], "attack": data["party"][0]["attack"],
                                             "target": data["target"]}))
    result = solve(data)
    assert result.kills.get(1, Fraction(0)) == enc.kill
    assert result.party_killed == enc.hero_killed_and_monster_survives


def test_aq_rb_p12_wounds_stay_on_the_monster() -> None:
    # AQ-RB p.12: Schmetterling "already has 3 Wounds previously inflicted": wounds add up over attacks.
    # One sure hit an attack, no Payback (it cannot reach): a Life 3 Monster dies on the third attack.
    result = solve(sequence([member(1)], {"attack": {"dice": 3, "kind": "melee"}, "life": 3, "reaches": False},
                            dice=ALL_MELEE))
    assert result.kills == {3: 1} and result.killers == (1,)


def test_a_killed_hero_drops_out_and_the_next_one_finishes() -> None:
    # Hero 1 deals 1 and dies to the 3-dice Payback; hero 2 attacks twice (3 Wounds on him), the third Wound kills.
    result = solve(sequence([member(1, 0, 3), member(1, 0, 10)], {"attack": {"dice": 3, "kind": "melee"}, "life": 3},
                            dice=ALL_MELEE))
    assert result.kills == {3: 1} and result.killers == (0, 1)
    assert result.heroes_killed() == (1, 0) and result.hero_wounds == ({3: 1}, {6: 1})


def test_the_party_can_die_first() -> None:
    result = solve(sequence([member(1, 0, 3), member(1, 0, 2)], {"attack": {"dice": 3, "kind": "melee"}, "life": 9},
                            dice=ALL_MELEE))
    assert result.party_killed == 1 and result.kills == {}


def test_the_mass_beyond_the_cap_is_reported() -> None:
    # A hero who never hits, against a Monster that never attacks: every attack is undecided.
    result = solve(sequence([member(0)], max_attacks=7, opponent_attacks=False))
    assert result.beyond_cap == 1 and result.followed == 7
    report = explorer.resolve(sequence([member(0)], max_attacks=7, opponent_attacks=False)).to_dict()
    assert report["beyond_cap"] == 1 and report["max_attacks"] == 7 and report["mean_attacks_to_kill"] is None


def test_following_stops_once_almost_nothing_is_undecided() -> None:
    result = solve(sequence([member(6)], max_attacks=50))
    assert result.followed < 50 and result.beyond_cap <= SETTLED


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(1, 5)), min_size=1, max_size=3),
       st.integers(0, 4), st.integers(1, 5), st.integers(0, 3), st.booleans(), st.integers(1, 8))
def test_outcomes_add_up(heroes, m_dice, m_life, extra, reaches, cap) -> None:
    data = sequence([member(d, df, life) for d, df, life in heroes],
                    {"attack": {"dice": m_dice, "kind": "melee"}, "life": m_life, "overkill": m_life + extra,
                     "reaches": reaches}, max_attacks=cap)
    result = solve(data)
    assert result.killed + result.party_killed + result.beyond_cap + result.cut == 1
    assert sum(result.killers) == result.killed and result.cut < Fraction(1, 10**12)
    assert set(result.kills) <= set(range(1, cap + 1))
    for wounds in result.hero_wounds:
        assert sum(wounds.values()) + result.cut == 1
    if not reaches:
        assert result.party_killed == 0
    report = explorer.resolve(data).to_dict()
    assert abs(sum(report["attacks_to_kill"].values()) + report["party_killed"] + report["beyond_cap"]
               + report["cut"] - 1) < 1e-12


@pytest.mark.parametrize(("data", "field"), [
    (sequence([]), "party"),
    (sequence([member()] * 5), "party"),
    (sequence([member(life=0)]), "party[0].hero.life"),
    (sequence([member(), {"hero": {"preset": "Grom"}}]), "party[1].attack"),
    (sequence(max_attacks=0), "max_attacks"),
    (sequence(max_attacks=51), "max_attacks"),
    (sequence(target={"preset": "Troll", "close": True}), "target.close"),
    (sequence(target={"preset": "Troll", "overkill": 3}), "target.overkill"),
    (sequence([member(life=30)] * 4, {"preset": "Troll", "life": 30, "overkill": None}), "party"),
])
def test_errors_name_the_field(data: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        explorer.resolve(data)
    assert error.value.field == field, str(error.value)


def test_too_big_is_refused_before_any_work() -> None:
    with pytest.raises(ScenarioError, match=f"limit {MAX_WORK // 10**6} s"):
        parse_sequence(sequence([member(life=7)] * 4, {"preset": "Troll", "life": 7, "overkill": 7}, max_attacks=50))


def test_cli_reads_a_sequence_file() -> None:
    run = subprocess.run([sys.executable, "-m", "explorer", "resolve", "examples/arcadia-sequence-minotaur.json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "ATTACKS TO KILL" in run.stdout and "deals the killing Wound" in run.stdout and "RULINGS" in run.stdout
    data = explorer.resolve(ROOT / "examples" / "arcadia-sequence-minotaur.json").to_dict()
    assert data["question"] == "sequence" and len(data["heroes"]) == 3
    assert json.loads(json.dumps(data)) == data
    assert edited(data["scenario"], "max_attacks", 3)["max_attacks"] == 3
    assert explorer.resolve(data["scenario"]).to_dict()["attacks_to_kill"] == data["attacks_to_kill"]
