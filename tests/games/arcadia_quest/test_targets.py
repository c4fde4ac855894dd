"""Arcadia Quest: an attack on several Monsters, its one Payback, the Guard report and the headline (issue 21).

Pages: "printed p.N" = the base rulebook's printed page (the seed spread pp.20-21: Guard, Payback,
Overkill); AQ-RB p.N as numbered in ``shared/rules/arcadia-quest.md`` (p.10: Nova Bolt, "both
targets suffer the full number of hits").
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest import encounter_to_dict, parse_encounter, resolve_encounter, trace_encounter
from explorer.scenario.trace import trace_text
from tests.games.arcadia_quest import oracle as aq_oracle

ROOT = Path(__file__).resolve().parents[3]
ALL_MELEE = {"attack": ["melee"] * 6, "defence": ["blank"] * 6}
"""Every attack die a melee hit, every defence die a blank: each attack's hits are its dice, no saves."""
SHIELDS = {"attack": ["melee"] * 6, "defence": ["shield"] * 6}
"""As `ALL_MELEE`, but every defence die a save."""


def monster(name: str, dice: int = 3, life: int = 3, overkill: int | None = 4, **more: object) -> dict:
    return {"name": name, "attack": {"dice": dice, "kind": "melee"}, "life": life, "overkill": overkill, **more}


def cleave(target: dict, others: list[dict], hero: dict | None = None, attack_dice: int = 3, **top: object) -> dict:
    return {"game": "arcadia-quest", "question": "encounter", "hero": hero or {"defence": 1, "life": 5},
            "attack": {"name": "Cleave", "dice": attack_dice, "kind": "melee"}, "target": target,
            "also_targets": others, **top}


def report(data: dict) -> dict:
    return explorer.resolve(data).to_dict()


# ----------------------------------------------------------------------------- golden cases
def test_printed_p21_an_overkilled_target_leaves_the_payback_to_another_targeted_monster() -> None:
    # Printed p.21: overkill removes the Monster at once, without its Payback; only one targeted Monster is
    # activated. 3 hits: the Goblin (Overkill 2) is overkilled, the Orc (Life 4) survives and pays back: 3 wounds.
    data = cleave(monster("Goblin", 1, life=1, overkill=2, close=True), [monster("Orc", 3, life=4, overkill=5)],
                  attack_dice=3, dice=ALL_MELEE)
    out = report(data)
    assert out["payback_by"]["who"] == {"Orc": 1.0}
    assert out["hero_wounds"] == {"3": 1.0} and out["payback"] == 1.0
    assert [(t["name"], t["kill"], t["overkill"]) for t in out["targets"]] == [("Goblin", 1.0, 1.0), ("Orc", 0.0, 0.0)]
    # issue 21: the old key can only switch Guard off, so the Orc's Payback was lost (it still reads so)
    old = {k: v for k, v in data.items() if k != "also_targets"}
    old["attack"] = {**data["attack"], "also_targets_close": True}
    assert report(old)["hero_wounds"] == {"0": 1.0}


def test_printed_p21_only_one_targeted_monster_pays_back_the_worst_for_the_hero() -> None:
    # Both survive 1 hit; they are not both activated (printed p.21): the 3-dice Orc, worse for the hero than
    # the 1-die Goblin, pays back alone: 3 wounds, never 4.
    data = cleave(monster("Goblin", 1, life=3), [monster("Orc", 3, life=3)], attack_dice=1, dice=ALL_MELEE)
    out = report(data)
    assert out["payback_by"]["who"] == {"Orc": 1.0} and out["hero_wounds"] == {"3": 1.0}
    named = report(data | {"payback_by": "Goblin"})  # a file may name the one the opponent activates
    assert named["payback_by"]["who"] == {"Goblin": 1.0} and named["hero_wounds"] == {"1": 1.0}


def test_printed_p21_a_killed_but_not_overkilled_target_may_still_be_the_one_that_pays_back() -> None:
    # 2 hits kill the Orc (Life 2, Overkill 4) without overkilling it: it may still pay back before it leaves,
    # and it is the worst for the hero; the Goblin (Overkill 2) is overkilled.
    data = cleave(monster("Goblin", 1, life=1, overkill=2), [monster("Orc", 4, life=2, overkill=4)], attack_dice=2)
    data["dice"] = ALL_MELEE
    out = report(data)
    assert out["targets"][1]["kill"] == 1.0 and out["targets"][1]["overkill"] == 0.0
    assert out["payback_by"]["who"] == {"Orc": 1.0} and out["hero_wounds"] == {"4": 1.0}


def test_printed_p21_every_target_overkilled_no_payback() -> None:
    data = cleave(monster("Goblin", 1, life=1, overkill=2), [monster("Orc", 4, life=2, overkill=3)], attack_dice=3)
    data["dice"] = ALL_MELEE
    out = report(data)
    assert out["payback_by"]["who"] == {"nobody": 1.0} and out["payback"] == 0.0 and out["hero_wounds"] == {"0": 1.0}


def test_payback_by_names_a_monster_that_cannot_pay_back_so_the_worst_other_does() -> None:
    data = cleave(monster("Goblin", 1, life=1, overkill=2), [monster("Orc", 2, life=4, overkill=5),
                                                             monster("Troll", 3, life=4, overkill=5)],
                  attack_dice=3, payback_by="Goblin")
    data["dice"] = ALL_MELEE
    assert report(data)["payback_by"]["who"] == {"Troll": 1.0}
    steps = trace_encounter(parse_encounter(data), 0)
    payback = next(s for s in steps if s.step == "6. Payback")
    assert payback.data["by"] == "Troll" and "Goblin (payback_by) cannot pay back" in payback.text


def test_aq_rb_p10_each_target_takes_the_full_hits_less_its_own_saves() -> None:
    # Nova Bolt (AQ-RB p.10): both targets suffer the full number of hits of the one roll; each rolls its own
    # Defense (the ruling). With every defence die a save: 4 hits, the Orc's 1 save -> 3, the Troll's 3 -> 1.
    data = cleave(monster("Orc", 1, life=9, overkill=None, defence=1),
                  [monster("Troll", 1, life=9, overkill=None, defence=3), monster("Goblin", 1, life=9, overkill=None)],
                  attack_dice=4)
    data["dice"] = SHIELDS
    out = report(data)
    assert out["monster_wounds"] == {"3": 1.0}
    steps = trace_encounter(parse_encounter(data), 5)
    wounds = {s.data["monster"]: s.data["wounds"] for s in steps if s.step == "5. Wounds"}
    assert wounds == {"Orc": 3, "Troll": 1, "Goblin": 4}
    assert steps[-1].data["target_wounds"] == (3, 1, 4)


def test_printed_p20_a_close_monster_among_the_targets_fends_off_the_guard() -> None:
    # Printed p.20, Example 2: Grom's Cleave hits Jøhan and the Close Goblin: no Guard. Here the second target
    # is the Close one.
    base = cleave(monster("Jøhan-ish Orc", 1, life=9, overkill=None), [monster("Goblin", 1, life=1, overkill=2)],
                  attack_dice=2, close_monsters=[monster("Guard Orc", 3)])
    base["dice"] = ALL_MELEE
    assert report(base)["guard"]["attackers"] == ["Guard Orc"]
    base["also_targets"][0]["close"] = True
    guard = report(base)["guard"]
    assert guard["triggered"] is False and guard["attackers"] == [] and "Close" in guard["reason"]


def test_coins_of_every_killed_target_go_to_the_active_guild() -> None:
    # AQ-RB p.10, p.13: the Guild of the Hero that kills a Monster gets its Reward; a Cleave can kill two.
    data = cleave(monster("Goblin", 1, life=1, overkill=2, reward=1), [monster("Orc", 1, life=2, overkill=3, reward=2)],
                  attack_dice=3)
    data["dice"] = ALL_MELEE
    assert report(data)["coins"]["active_guild"] == {"3": 1.0}


# ----------------------------------------------------------------------------- Guard with no opponent
def test_printed_p20_no_guard_attack_when_the_opponent_does_not_attack() -> None:
    # Issue 21: with opponent_attacks false, Guard was reported triggered with nobody attacking.
    data = cleave(monster("Beastman", 3, life=3), [], close_monsters=[monster("Orc", 3), monster("Goblin", 2)],
                  opponent_attacks=False)
    guard = report(data)["guard"]
    assert guard["triggered"] is False and guard["attackers"] == []
    assert "opponent does not attack" in guard["reason"]
    attacking = report(data | {"opponent_attacks": True})["guard"]
    assert attacking["triggered"] is True and attacking["attackers"] == ["Orc", "Goblin"]
    text = explorer.resolve(data).to_text()
    assert "no Guard attack (the opponent does not attack" in text


# ----------------------------------------------------------------------------- the brute-force oracle
def _plain(m: dict) -> dict:
    return {"name": m["name"], "dice": m["attack"]["dice"], "kind": m["attack"]["kind"], "rerolls": m.get("rerolls", 0),
            "abilities": tuple(m.get("abilities", ())), "defence": m.get("defence", 0), "life": m["life"],
            "wounds": m.get("wounds", 0), "overkill": m.get("overkill"), "close": m.get("close", False),
            "reaches": m.get("reaches", True), "dazed": m.get("dazed", False), "flanked": m.get("flanked", False)}


def oracle_of(data: dict) -> tuple[dict, dict, list, Fraction]:
    hero, attack = data["hero"], data["attack"]
    as_hero = {"dice": attack["dice"], "kind": attack["kind"], "rerolls": hero.get("rerolls", 0),
               "abilities": tuple(hero.get("abilities", ())), "defence": hero["defence"], "life": hero["life"],
               "wounds": hero.get("wounds", 0), "flanked": hero.get("flanked", False), "dazed": hero.get("dazed", False)}
    targets = [_plain(data["target"]), *(_plain(m) for m in data.get("also_targets", []))]
    guards = [_plain(g) for g in data.get("close_monsters", [])]
    return aq_oracle.several_targets(as_hero, targets, guards, payback_by=data.get("payback_by"),
                                     opponent_attacks=data.get("opponent_attacks", True))


def _agrees(data: dict) -> None:
    result = resolve_encounter(parse_encounter(data))
    joint, payers, killed, cut = oracle_of(data)
    slack = result.cut + cut + Fraction(1, 10**15)
    assert cut < Fraction(1, 10**6)
    for key in set(joint) | set(result.joint):
        assert abs(result.joint.probability(key) - joint.get(key, Fraction(0))) <= slack, key
    names = [t.monster.name for t in result.encounter.targets]
    exact = {("nobody" if i < 0 else names[i]): p for i, p in result.payback_by.probabilities().items()}
    for who in set(exact) | set(payers):
        assert abs(exact.get(who, Fraction(0)) - payers.get(who, Fraction(0))) <= slack, who
    for i, p in enumerate(killed):
        assert abs(result.target_chances(i)["kill"] - p) <= slack, names[i]


ORACLE_CASES = [
    cleave(monster("Goblin", 1, life=1, overkill=2), [monster("Orc", 3, life=3, overkill=4)],
           hero={"defence": 1, "life": 3}, attack_dice=2),
    cleave(monster("Goblin", 2, life=2, overkill=3, defence=1), [monster("Orc", 3, life=3, overkill=4, rerolls=1)],
           hero={"defence": 2, "life": 4, "rerolls": 1}, attack_dice=3, close_monsters=[monster("Guard", 2, life=2)]),
    cleave(monster("Orc", 3, life=2, overkill=3), [monster("Goblin", 2, life=1, overkill=2, reaches=False)],
           hero={"defence": 1, "life": 3}, attack_dice=2),
    cleave(monster("Orc", 2, life=2, overkill=3), [monster("Beast", 3, life=3, overkill=None, defence=1),
                                                   monster("Goblin", 1, life=1, overkill=1)],
           hero={"defence": 1, "life": 4, "wounds": 1, "abilities": ["extra-die-while-wounded"]}, attack_dice=2,
           payback_by="Goblin"),
]


@pytest.mark.parametrize("data", ORACLE_CASES, ids=range(len(ORACLE_CASES)))
def test_several_targets_match_the_brute_force_oracle(data: dict) -> None:
    _agrees(data)


@st.composite
def several(draw: st.DrawFn) -> dict:
    count = draw(st.integers(2, 3))
    targets = []
    for i in range(count):
        life = draw(st.integers(1, 3))
        overkill = draw(st.one_of(st.none(), st.integers(life, life + 2)))
        targets.append(monster(f"M{i}", draw(st.integers(0, 3)), life=life, overkill=overkill,
                               defence=draw(st.integers(0, 1)), reaches=draw(st.booleans()), close=draw(st.booleans())))
    hero = {"defence": draw(st.integers(0, 2)), "life": draw(st.integers(1, 4))}
    guards = [monster("G", draw(st.integers(0, 2)), life=2)] * draw(st.integers(0, 1))
    return cleave(targets[0], targets[1:], hero=hero, attack_dice=draw(st.integers(0, 3)), close_monsters=guards)


@settings(max_examples=15, deadline=None)
@given(several())
def test_random_attacks_on_several_targets_match_the_oracle(data: dict) -> None:
    _agrees(data)


@settings(max_examples=20, deadline=None)
@given(several())
def test_the_chosen_payback_is_never_better_for_the_hero_than_forcing_any_target(data: dict) -> None:
    """The opponent's default choice (worst for the hero, per outcome) is at least as deadly as naming any one."""
    worst = resolve_encounter(parse_encounter(data))
    names = [data["target"]["name"], *(m["name"] for m in data["also_targets"])]
    for name in names:
        forced = resolve_encounter(parse_encounter(data | {"payback_by": name}))
        assert worst.hero_killed >= forced.hero_killed, name
        if worst.hero_killed == forced.hero_killed:
            assert worst.hero_wounds.mean() >= forced.hero_wounds.mean(), name


def test_one_target_listed_as_before_is_unchanged() -> None:
    data = cleave(monster("Orc", 3, life=2, overkill=3), [], close_monsters=[monster("G", 2)])
    without = {k: v for k, v in data.items() if k != "also_targets"}
    a, b = resolve_encounter(parse_encounter(data)), resolve_encounter(parse_encounter(without))
    assert a.joint == b.joint and a.coins_others == b.coins_others
    assert "also_targets" not in encounter_to_dict(parse_encounter(without))


def test_several_targets_read_back_from_the_scenario_form() -> None:
    enc = parse_encounter(ORACLE_CASES[3])
    back = encounter_to_dict(enc)
    assert back["payback_by"] == "Goblin" and [m["name"] for m in back["also_targets"]] == ["Beast", "Goblin"]
    assert parse_encounter(back) == enc


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize(("data", "field"), [
    (cleave(monster("Orc"), [monster("Orc")]), "also_targets[0].name"),
    (cleave(monster("Orc"), [monster("Goblin"), monster("Goblin")]), "also_targets[1].name"),
    (cleave({"preset": "Orc Marauder"}, [{"preset": "Orc Marauder"}]), "also_targets[0].name"),
    (cleave(monster("Orc"), [monster("Goblin")], payback_by="Troll"), "payback_by"),
    (cleave(monster("Orc"), [monster("Goblin")], payback_by=3), "payback_by"),
    (cleave(monster("Orc"), [monster(f"M{i}") for i in range(4)]), "also_targets"),
    (cleave(monster("Orc"), [monster("Goblin", life=3, overkill=2)]), "also_targets[0].overkill"),
    (cleave(monster("Orc"), [monster("Goblin", other_guild_tokens=1)]), "also_targets[0].other_guild_tokens"),
    (cleave(monster("Orc"), [monster("Goblin", colour="green")]), "also_targets[0].colour"),
])
def test_errors_name_the_field(data: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        explorer.resolve(data)
    assert error.value.field == field


def test_a_sequence_takes_no_also_targets() -> None:
    data = {"game": "arcadia-quest", "party": [{"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"}}],
            "target": {"preset": "Orc Marauder"}, "also_targets": []}
    with pytest.raises(ScenarioError) as error:
        explorer.resolve(data)
    assert error.value.field == "also_targets"


# ----------------------------------------------------------------------------- roll once
def test_the_trace_says_who_paid_back_and_why() -> None:
    data = cleave(monster("Goblin", 1, life=3), [monster("Orc", 3, life=3)], attack_dice=1)
    data["dice"] = ALL_MELEE
    steps = trace_encounter(parse_encounter(data), 2)
    text = trace_text(steps)
    assert "only one targeted Monster pays back, chosen by the opponent (printed p.21)" in text
    assert "the opponent picks the Orc, the worst for the hero" in text
    assert steps[-1].data["payback_by"] == "Orc"


def test_many_traces_of_a_cleave_agree_with_the_exact_tables() -> None:
    data = json.loads((ROOT / "examples" / "arcadia-encounter-cleave.json").read_text())
    enc = parse_encounter(data)
    result = resolve_encounter(enc)
    samples = 3000
    ends = [trace_encounter(enc, seed)[-1].data for seed in range(samples)]
    names = [t.monster.name for t in enc.targets]
    exact_payers = {("nobody" if i < 0 else names[i]): p for i, p in result.payback_by.probabilities().items()}
    seen = Counter(end["payback_by"] or "nobody" for end in ends)
    cells = Counter((end["monster_wounds"], end["hero_wounds"]) for end in ends)
    for table, counts in ((exact_payers, seen), (result.joint.probabilities(), cells)):
        for key in set(table) | set(counts):
            p = float(table.get(key, 0))
            error = math.sqrt(max(p * (1 - p), 1e-4) / samples)
            assert abs(counts[key] / samples - p) <= 4.5 * error, (key, counts[key] / samples, p)


# ----------------------------------------------------------------------------- headline and the CLI
def test_every_report_has_the_headline_of_its_outcome() -> None:
    one = report(json.loads((ROOT / "examples" / "arcadia-troll.json").read_text()))
    assert one["headline"]["of"] == "wounds dealt to the target"
    assert abs(one["headline"]["mean"] - one["means"]["wounds"]) < 1e-12
    assert one["headline"]["at_least"]["0"] == pytest.approx(1 - one["cut"], abs=1e-12)
    action = report(json.loads((ROOT / "examples" / "arcadia-encounter-cleave.json").read_text()))
    assert abs(action["headline"]["mean"] - action["means"]["monster_wounds"]) < 1e-12
    assert action["headline"]["at_least"]["1"] == pytest.approx(1 - action["monster_wounds"]["0"] - action["cut"])
    seq = report(json.loads((ROOT / "examples" / "arcadia-sequence-minotaur.json").read_text()))
    assert seq["headline"]["mean"] == pytest.approx(seq["mean_attacks_to_kill"], abs=1e-9)
    last = list(seq["headline"]["at_most"])[-1]  # k is listed up to the last with a chance of 1 in 10,000
    assert seq["headline"]["at_most"][last] == pytest.approx(1.0, abs=1e-4)  # given that it is killed within the cap
    for path in ("arcadia-troll.json", "arcadia-encounter-cleave.json", "arcadia-sequence-minotaur.json"):
        assert "HEADLINE: " in explorer.resolve(json.loads((ROOT / "examples" / path).read_text())).to_text()


def test_cli_reads_a_cleave_file() -> None:
    run = subprocess.run([sys.executable, "-m", "explorer", "resolve", "examples/arcadia-encounter-cleave.json",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert set(data["payback_by"]["who"]) == {"nobody", "Orc Marauder"} and "headline" in data
    text = subprocess.run([sys.executable, "-m", "explorer", "resolve", "examples/arcadia-encounter-cleave.json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120).stdout
    assert "PAYBACK BY" in text and "ALSO TARGETED: Orc Marauder" in text


def test_four_armoured_targets_resolve_quickly() -> None:
    """The other targets are followed by class (none, wound, kill, overkill): four targets with Defense and
    rerolls, 30 attack dice and two Guards stay well under a second or two (measured: 0.4 s)."""
    import time

    def armoured(name: str, defence: int, life: int, overkill: int | None) -> dict:
        return {"name": name, "attack": {"dice": 6, "kind": "melee"}, "life": life, "overkill": overkill,
                "defence": defence, "rerolls": 2}

    data = cleave(armoured("A", 4, 6, 9), [armoured("B", 4, 6, 9), armoured("C", 6, 20, None), armoured("D", 2, 3, 30)],
                  hero={"defence": 3, "life": 8, "rerolls": 3}, attack_dice=30,
                  close_monsters=[armoured("G1", 4, 6, 9), armoured("G2", 4, 6, 9)])
    start = time.perf_counter()
    out = report(data)
    assert time.perf_counter() - start < 8
    assert abs(sum(out["payback_by"]["who"].values()) + out["cut"] - 1) < 1e-12 and out["cut"] < 1e-12
