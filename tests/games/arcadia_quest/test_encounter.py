"""Arcadia Quest encounters: the oracle, rulebook golden cases, Monte Carlo, properties, coins, presets, errors, CLI.

Pages: "printed p.N" = the base rulebook's printed page (the seed spread is pp.20-21); AQ-RB / INF-RB p.N as
numbered in ``shared/rules/arcadia-quest.md``.
"""

from __future__ import annotations

import json
import math
import random
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
from explorer.games import arcadia_quest
from explorer.games.arcadia_quest import (
    ABILITIES,
    ATTACK_CARDS,
    HEROES,
    MONSTERS,
    parse_encounter,
    resolve_attack,
    resolve_encounter,
)
from explorer.games.arcadia_quest.attack.model import Attack, AttackScenario, Defence, Target
from explorer.games.arcadia_quest.rulings import ENCOUNTER_RULINGS, REACTION_RULINGS, SEQUENCE_RULINGS
from tests.games.arcadia_quest import oracle as aq_oracle
from tests.scenario.edits import edited

ROOT = Path(__file__).resolve().parents[3]
ALL_MELEE = {"attack": ["melee"] * 6, "defence": ["blank"] * 6}
"""Dice that make every attack die a melee hit and every defence die a blank: the rules, without chance."""
ALL_RANGED = {"attack": ["ranged"] * 6, "defence": ["blank"] * 6}


def monster(dice: int = 3, kind: str = "melee", life: int = 3, overkill: int | None = 4, **more: object) -> dict:
    return {"attack": {"dice": dice, "kind": kind}, "life": life, "overkill": overkill, **more}


def encounter(hero: dict | None = None, attack: dict | None = None, target: dict | None = None,
              guards: list[dict] | None = None, **top: object) -> dict:
    return {"game": "arcadia-quest", "question": "encounter",
            "hero": hero or {"defence": 2, "life": 4}, "attack": attack or {"dice": 3, "kind": "melee"},
            "target": target or monster(), "close_monsters": guards or [], **top}


def exact(data: dict):
    return resolve_encounter(parse_encounter(data))


# ----------------------------------------------------------------------------- the oracle
def oracle_of(data: dict) -> tuple[dict, Fraction]:
    """The oracle's joint table for a scenario written with explicit numbers (no presets)."""
    hero, attack, target = data["hero"], data["attack"], data["target"]
    as_hero = {"dice": attack["dice"], "kind": attack["kind"], "rerolls": hero.get("rerolls", 0),
               "abilities": tuple(hero.get("abilities", ())), "defence": hero["defence"], "life": hero["life"],
               "wounds": hero.get("wounds", 0), "flanked": hero.get("flanked", False), "dazed": hero.get("dazed", False)}

    def plain(m: dict) -> dict:
        return {"dice": m["attack"]["dice"], "kind": m["attack"]["kind"], "rerolls": m.get("rerolls", 0),
                "abilities": tuple(m.get("abilities", ())), "defence": m.get("defence", 0), "life": m["life"],
                "wounds": m.get("wounds", 0), "overkill": m.get("overkill"), "flanked": m.get("flanked", False),
                "dazed": m.get("dazed", False)}

    close = target.get("close", False) or attack.get("also_targets_close", False)
    return aq_oracle.encounter(as_hero, plain(target), [plain(g) for g in data.get("close_monsters", [])],
                               target_close=close, opponent_attacks=data.get("opponent_attacks", True),
                               reaches=target.get("reaches", True))


ORACLE_CASES = [
    encounter(),
    encounter({"defence": 1, "life": 5, "wounds": 1, "rerolls": 1, "abilities": ["extra-die-while-wounded"]},
              {"dice": 2, "kind": "melee"}, monster(3, "melee", 3, 4, defence=1, wounds=1,
                                                   abilities=["extra-die-while-wounded"])),
    encounter({"defence": 2, "life": 4, "abilities": ["extra-hit-per-crit"]}, {"dice": 2, "kind": "ranged"},
              monster(4, "melee", 3, 5, abilities=["daze-on-wound"]), [monster(2, "ranged", 1, 2), monster(3, "melee", 2, 3)]),
    encounter({"defence": 3, "life": 3, "flanked": True, "abilities": ["extra-die-vs-flanked", "ignore-defence"]},
              {"dice": 2, "kind": "melee"}, monster(2, "melee", 2, None, defence=2, rerolls=1, flanked=True)),
    encounter(target=monster(3, "melee", 2, 3, close=True), guards=[monster(3, "melee", 2, 3)]),
    encounter(attack={"dice": 2, "kind": "melee", "also_targets_close": True}, guards=[monster(2, "melee", 2, 3)]),
    encounter(target=monster(3, "melee", 2, 3, reaches=False), guards=[monster(2, "ranged", 1, 2)]),
    encounter(guards=[monster(2, "melee", 1, 2)], opponent_attacks=False),
    encounter({"defence": 1, "life": 3, "dazed": True}, target=monster(2, "melee", 1, 1, dazed=True)),
]


@pytest.mark.parametrize("data", ORACLE_CASES, ids=range(len(ORACLE_CASES)))
def test_encounter_matches_the_brute_force_oracle(data: dict) -> None:
    result = exact(data)
    oracle, oracle_cut = oracle_of(data)
    slack = result.cut + oracle_cut + Fraction(1, 10**15)
    assert oracle_cut < Fraction(1, 10**6)
    for key in set(oracle) | set(result.joint):
        assert abs(result.joint.probability(key) - oracle.get(key, Fraction(0))) <= slack, key


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 3), st.sampled_from(["melee", "ranged"]), st.integers(0, 1), st.integers(0, 2),
       st.integers(1, 4), st.integers(0, 3), st.integers(1, 3), st.integers(0, 2), st.booleans(), st.integers(0, 2))
def test_random_encounters_match_the_oracle(dice, kind, rerolls, defence, life, m_dice, m_life, extra_ok, close,
                                           guards) -> None:
    data = encounter({"defence": defence, "life": life, "rerolls": rerolls}, {"dice": dice, "kind": kind},
                     monster(m_dice, "melee", m_life, m_life + extra_ok, close=close),
                     [monster(2, "ranged", 1, 2)] * guards)
    result = exact(data)
    oracle, oracle_cut = oracle_of(data)
    slack = result.cut + oracle_cut + Fraction(1, 10**15)
    for key in set(oracle) | set(result.joint):
        assert abs(result.joint.probability(key) - oracle.get(key, Fraction(0))) <= slack, key


# ----------------------------------------------------------------------------- rulebook golden cases
def test_printed_p21_a_killed_but_not_overkilled_monster_pays_back() -> None:
    # Printed p.21 and AQ-RB p.12: Schmetterling has 3 Wounds, takes 2 more and dies, "far from its Overkill
    # rating of 7", so it "will be able to perform its full activation": its Payback hits the hero.
    troll = {"preset": "Schmetterling", "wounds": 3, "attack": {"dice": 3}}
    report = explorer.resolve(encounter({"defence": 2, "life": 4}, {"dice": 2, "kind": "melee"}, troll,
                                        dice=ALL_MELEE)).to_dict()
    assert report["kill"] == 1 and report["overkill"] == 0 and report["payback"] == 1
    assert report["hero_wounds"] == {"3": 1.0} and report["joint"] == {"2": {"3": 1.0}}
    # Wounds reaching the Overkill in one attack remove it at once: no Payback (printed p.21).
    overkilled = explorer.resolve(encounter({"defence": 2, "life": 4}, {"dice": 7, "kind": "melee"}, troll,
                                            dice=ALL_MELEE)).to_dict()
    assert overkilled["overkill"] == 1 and overkilled["payback"] == 0 and overkilled["hero_wounds"] == {"0": 1.0}


def test_printed_p21_wounds_already_there_do_not_count_towards_overkill() -> None:
    # "it doesn't matter how many Wounds the Monster already has, in order to Overkill it a single attack must
    # beat its Overkill rating": 6 Wounds on a Life 7 / Overkill 7 monster, 6 more: killed, not overkilled.
    report = explorer.resolve(encounter(attack={"dice": 6, "kind": "melee"}, target=monster(3, "melee", 7, 7, wounds=6),
                                        dice=ALL_MELEE)).to_dict()
    assert report["kill"] == 1 and report["overkill"] == 0 and report["payback"] == 1


def test_printed_p20_example_1_an_attack_on_a_distant_monster_triggers_guard() -> None:
    # Printed p.20, Example 1: Greensleeves' Ranged attack on the Hammer Beastman (not Close) triggers the Guard of
    # the Close Orc and Goblin. With every die a ranged hit: the Slingshot deals 2 (the Beastman lives), the
    # melee Beastman and Orc miss, the Goblin Archer's 2 ranged dice hit: 2 wounds, all from Guard.
    data = encounter({"preset": "Greensleeves"}, {"card": "Slingshot"}, {"preset": "Hammer Beastman"},
                     [{"preset": "Orc Marauder"}, {"preset": "Goblin Archer"}], dice=ALL_RANGED)
    report = explorer.resolve(data).to_dict()
    assert report["guard"]["triggered"] is True and report["guard"]["attackers"] == ["Orc Marauder", "Goblin Archer"]
    assert "targets none of the Close Monsters" in report["guard"]["reason"]
    assert report["joint"] == {"2": {"2": 1.0}}
    alone = explorer.resolve(edited(data, "close_monsters", [])).to_dict()
    assert alone["hero_wounds"] == {"0": 1.0}


def test_printed_p20_example_2_an_attack_that_also_targets_a_close_monster_triggers_none() -> None:
    # Printed p.20, Example 2: Grom's Cleave hits Jøhan and the Close Goblin: no Guard. As an encounter: the
    # target is Close, or a special effect also targets a Close Monster. The Orc stays quiet either way.
    orc = [{"preset": "Orc Marauder"}]
    close_target = encounter({"preset": "Grom"}, {"card": "Rusty Sword"}, {"preset": "Goblin Archer", "close": True},
                             orc, dice=ALL_MELEE)
    cleave = encounter({"preset": "Grom"}, {"card": "Rusty Sword", "also_targets_close": True},
                       {"preset": "Goblin Archer"}, orc, dice=ALL_MELEE)
    for data in (close_target, cleave):
        report = explorer.resolve(data).to_dict()
        assert report["guard"]["triggered"] is False and report["guard"]["attackers"] == []
        assert "the attack targets a Close Monster" in report["guard"]["reason"]
        assert report["hero_wounds"] == {"0": 1.0}  # the Goblin is overkilled (3 >= 2): no Payback either
    distant = explorer.resolve(edited(close_target, "target.close", False)).to_dict()
    assert distant["guard"]["attackers"] == ["Orc Marauder"] and distant["hero_wounds"] == {"3": 1.0}


def test_printed_p21_payback_even_if_the_attack_roll_completely_fails() -> None:
    # "Whenever a Hero attacks a Monster (even if his attack roll completely fails), the Monster is activated".
    report = explorer.resolve(encounter(attack={"dice": 3, "kind": "ranged"}, dice=ALL_MELEE)).to_dict()
    assert report["monster_wounds"] == {"0": 1.0} and report["payback"] == 1 and report["hero_wounds"] == {"3": 1.0}


def test_a_killed_hero_takes_no_more_attacks() -> None:
    # AQ-RB p.10: killed at his Life; the Guard attacks after the Payback find nobody (wounds capped at Life).
    report = explorer.resolve(encounter({"defence": 0, "life": 2}, guards=[monster(3)] * 2, dice=ALL_MELEE)).to_dict()
    assert report["hero_wounds"] == {"2": 1.0} and report["hero_killed"] == 1


# ----------------------------------------------------------------------------- Monte Carlo
def roll_physically(rng: random.Random, dice: int, rerolls: int, faces: list[str], scores: str, worth: int = 1) -> int:
    """Roll like players: roll the batch, reroll failed dice while points last, then one extra die per CRIT."""
    points, total, batch = rerolls, 0, dice
    while batch:
        shown = [rng.choice(faces) for _ in range(batch)]
        for i, face in enumerate(shown):
            while points and shown[i] not in (scores, "crit"):
                shown[i] = rng.choice(faces)
                points -= 1
        total += sum(1 for f in shown if f == scores) + worth * shown.count("crit")
        batch = shown.count("crit")
    return total


def simulate(s: dict, rng: random.Random) -> tuple[int, int]:
    """One encounter from a fully written-out scenario (`encounter_to_dict`): (monster wounds, hero wounds)."""
    hero, card, target = s["hero"], s["attack"], s["target"]
    atk, dfn = ["melee"] * 3 + ["ranged"] * 2 + ["crit"], ["shield", "crit"] + ["blank"] * 4

    def strike(dice, kind, rerolls, skills, wounded, flanked, defence, d_rerolls, d_skills, d_wounded, dazed):
        dice += ("extra-die-while-wounded" in skills and wounded) + ("extra-die-vs-flanked" in skills and flanked)
        hits = roll_physically(rng, dice, rerolls, atk, kind, 2 if "extra-hit-per-crit" in skills else 1)
        if dazed or "ignore-defence" in skills:
            return hits
        saves = roll_physically(rng, defence + ("extra-die-while-wounded" in d_skills and d_wounded), d_rerolls, dfn, "shield")
        return max(0, hits - saves)

    w = strike(card["dice"], card["kind"], hero["rerolls"], hero["abilities"], hero["wounds"] > 0, target["flanked"],
               target["defence"], target["rerolls"], target["abilities"], target["wounds"] > 0, target["dazed"])
    attackers = []
    if s["opponent_attacks"] and target["reaches"] and not (target["overkill"] is not None and w >= target["overkill"]):
        attackers.append((target, target["wounds"] + w > 0))
    if s["opponent_attacks"] and not (target["close"] or card["also_targets_close"]):
        attackers += [(g, g["wounds"] > 0) for g in s["close_monsters"]]
    taken, dazed, left = 0, hero["dazed"], hero["life"] - hero["wounds"]
    for m, wounded in attackers:
        if taken >= left:
            break
        h = strike(m["attack"]["dice"], m["attack"]["kind"], m["rerolls"], m["abilities"], wounded, hero["flanked"],
                   hero["defence"] + card["defence_bonus"], hero["rerolls"], hero["abilities"],
                   hero["wounds"] + taken > 0, dazed)
        taken, dazed = min(left, taken + h), dazed or ("daze-on-wound" in m["abilities"] and h > 0)
    return w, taken


MC_CASES = [
    encounter({"preset": "Grom", "wounds": 1, "rerolls": 1}, {"card": "Rusty Sword"}, {"preset": "Orc Captain"},
              [{"preset": "Goblin Archer"}]),
    encounter({"preset": "Greensleeves"}, {"card": "Slingshot"}, {"preset": "Hammer Beastman"},
              [{"preset": "Orc Marauder"}, {"preset": "Sister of Pain"}]),
    encounter({"preset": "Diva", "rerolls": 2}, {"card": "Parrying Dagger"}, {"preset": "Minotaur", "wounds": 2}),
]


def mismatches(report: dict, scenario: dict, n: int, seed: int) -> list[str]:
    """Outcomes whose sampled frequency is more than 4 standard errors (plus 2 samples) from `report`."""
    rng = random.Random(seed)
    samples = Counter(simulate(scenario, rng) for _ in range(n))
    checks: dict[str, Counter] = {"monster_wounds": Counter(), "hero_wounds": Counter()}
    for (w, h), count in samples.items():
        checks["monster_wounds"][str(w)] += count
        checks["hero_wounds"][str(h)] += count
    life_left = scenario["target"]["life"] - scenario["target"]["wounds"]
    checks["kill"] = Counter({"yes": sum(c for (w, _), c in samples.items() if w >= life_left)})
    exact_values = {"monster_wounds": report["monster_wounds"], "hero_wounds": report["hero_wounds"],
                    "kill": {"yes": report["kill"]}}
    bad = []
    for q, dist in exact_values.items():
        for outcome in set(dist) | set(checks[q]):
            p, f = dist.get(outcome, 0.0), checks[q][outcome] / n
            if abs(f - p) > 4 * math.sqrt(p * (1 - p) / n) + 2 / n:
                bad.append(f"{q}[{outcome}]: exact {p:.5f}, sampled {f:.5f}")
    return bad


@pytest.mark.parametrize("data", MC_CASES, ids=["grom", "greensleeves", "diva"])
def test_monte_carlo_agrees_with_the_exact_encounter(data: dict) -> None:
    report = explorer.resolve(data).to_dict()
    assert mismatches(report, report["scenario"], 20_000, seed=2014) == []


def test_the_monte_carlo_check_can_fail() -> None:
    # The same samples against the exact answer without Payback must disagree.
    report = explorer.resolve(MC_CASES[0]).to_dict()
    without_payback = explorer.resolve(edited(MC_CASES[0], "target.reaches", False)).to_dict()
    assert mismatches(without_payback, report["scenario"], 5_000, seed=7)


# ----------------------------------------------------------------------------- properties
@st.composite
def encounters(draw) -> dict:
    hero = {"defence": draw(st.integers(0, 3)), "life": draw(st.integers(1, 5)), "rerolls": draw(st.integers(0, 2)),
            "abilities": draw(st.lists(st.sampled_from(sorted(ABILITIES)), max_size=2))}
    life = draw(st.integers(1, 4))
    target = monster(draw(st.integers(0, 4)), draw(st.sampled_from(["melee", "ranged"])), life,
                     draw(st.one_of(st.none(), st.integers(life, life + 3))), defence=draw(st.integers(0, 2)),
                     close=draw(st.booleans()), reaches=draw(st.booleans()), reward=draw(st.integers(0, 3)),
                     villain=draw(st.booleans()))
    guards = [monster(draw(st.integers(0, 3)), "melee", 2, 3) for _ in range(draw(st.integers(0, 2)))]
    return encounter(hero, {"dice": draw(st.integers(0, 5)), "kind": "melee"}, target, guards,
                     opponent_attacks=draw(st.booleans()), guilds=draw(st.integers(2, 4)))


@settings(max_examples=40, deadline=None)
@given(encounters())
def test_probabilities_are_consistent(data: dict) -> None:
    res = exact(data)
    enc = res.encounter
    assert res.hits.cut_mass() <= res.cut < Fraction(1, 10**12)  # the attack's own cut is carried, not dropped
    assert res.overkill <= res.kill and res.hero_killed_and_monster_survives <= res.hero_killed
    assert res.kill_and_survive + res.hero_killed_and_monster_survives <= 1
    assert res.kill == res.monster_wounds.at_least(enc.target.life_left)
    assert res.hero_killed == res.hero_wounds.at_least(enc.hero.life_left)
    assert res.payback == (0 if not (enc.opponent_attacks and enc.payback_reaches) else 1 - res.overkill - res.cut)
    assert res.coins_active.mean() == enc.target.reward * res.kill
    assert res.coins_others.mean() == (enc.guilds - 1) * res.hero_killed
    if not enc.opponent_attacks:
        assert res.hero_wounds.probabilities() == {0: 1 - res.cut}
    report = explorer.resolve(data).to_dict()
    assert abs(sum(report["hero_wounds"].values()) + report["cut"] - 1) < 1e-12
    assert report["rulings"] == list(ENCOUNTER_RULINGS + REACTION_RULINGS)


@settings(max_examples=25, deadline=None)
@given(encounters(), st.integers(0, 3))
def test_an_extra_guard_attack_never_helps_the_hero(data: dict, dice: int) -> None:
    before = exact(data)
    after = exact(edited(data, "close_monsters", data["close_monsters"] + [monster(dice, "melee", 2, 3)]))
    slack = before.cut + after.cut
    for k in range(1, data["hero"]["life"] + 1):
        assert after.hero_wounds.at_least(k) >= before.hero_wounds.at_least(k) - slack


@settings(max_examples=25, deadline=None)
@given(encounters())
def test_more_defence_dice_never_raise_the_chance_to_die(data: dict) -> None:
    weak, strong = exact(data), exact(edited(data, "hero.defence", data["hero"]["defence"] + 1))
    assert strong.hero_killed <= weak.hero_killed + weak.cut + strong.cut


def test_a_close_target_fends_off_the_close_monsters() -> None:
    data = encounter(target=monster(close=True), guards=[monster(4), monster(2)])
    assert exact(data).joint == exact(edited(data, "close_monsters", [])).joint


def test_without_reactions_the_monster_wounds_are_the_one_attack_wounds() -> None:
    data = encounter({"defence": 1, "life": 3, "rerolls": 2}, {"dice": 4, "kind": "ranged"},
                     monster(3, "melee", 5, None, defence=2, rerolls=1), opponent_attacks=False)
    enc = exact(data)
    one = resolve_attack(AttackScenario(Attack(4, "ranged", 2), Defence(2, 1), Target(5)))
    for k in set(enc.monster_wounds) | set(one.wounds):
        assert abs(enc.monster_wounds.probability(k) - one.wounds.probability(k)) <= enc.cut + one.cut
    assert abs(enc.kill - one.kill) <= enc.cut + one.cut


# ----------------------------------------------------------------------------- coins
def test_coins_of_a_villain_kill_and_of_a_hero_killed() -> None:
    # AQ-RB p.12: every Guild with a token on a Villain gets its full Reward; p.13: a Monster killing a Hero
    # pays 1 coin to each other Guild. Deterministic dice: the Minotaur (Life 5) takes 5 and pays back 4.
    data = encounter({"defence": 0, "life": 4}, {"dice": 5, "kind": "melee"},
                     {"preset": "Minotaur", "defence": 0, "other_guild_tokens": 2, "abilities": []}, dice=ALL_MELEE,
                     guilds=4)
    report = explorer.resolve(data).to_dict()
    assert report["kill"] == 1 and report["hero_killed"] == 1
    assert report["coins"]["active_guild"] == {"3": 1.0}
    assert report["coins"]["other_guilds"] == {str(3 + 2 * 3): 1.0}
    assert report["coins"]["expected"] == {"active_guild": 3.0, "other_guilds": 9.0}
    wounded_only = explorer.resolve(edited(data, "attack.dice", 2)).to_dict()
    assert wounded_only["villain_token"] == 1 and wounded_only["coins"]["active_guild"] == {"0": 1.0}


# ----------------------------------------------------------------------------- presets and rulings
def test_presets_match_the_rules_notes_tables() -> None:
    # Rules notes §4.1 (Def / Life), §4.2 (starter cards), §3.4 (level-1 Monsters), all fan-collected.
    assert {name: (h.value.defence, h.value.life) for name, h in HEROES.items()} == {
        "Diva": (4, 4), "Greensleeves": (2, 4), "Grom": (1, 5), "Hobsbawm": (2, 4), "Jøhan": (3, 3), "Kanga": (2, 4),
        "Maya": (1, 5), "Scarlet": (3, 3), "Seth": (2, 3), "Spike": (2, 3), "Wisp": (2, 3), "Zazu": (2, 4)}
    assert {name: (c.value.dice, c.value.kind) for name, c in list(ATTACK_CARDS.items())[:5]} == {
        "Rusty Sword": (3, "melee"), "Parrying Dagger": (2, "melee"), "Slingshot": (2, "ranged"),
        "Nova Bolt": (2, "ranged"), "Life Drain": (2, "ranged")}
    table = {name: (m.value.attack, m.value.defence, m.value.life, m.value.overkill, m.value.reward)
             for name, m in MONSTERS.items()}
    assert table["Orc Marauder"] == (3, 0, 2, 3, 1) and table["Minotaur"] == (4, 1, 5, 6, 3)
    assert table["Troll"] == (4, 2, 4, 6, 3) and table["Lord Fang"][3] is None
    for preset in (*HEROES.values(), *ATTACK_CARDS.values(), *MONSTERS.values()):
        assert preset.is_example, preset  # fan data: to check against the cards
        overkill = getattr(preset.value, "overkill", None)
        assert overkill is None or overkill >= preset.value.life


def test_every_ruling_is_in_the_package_docstring() -> None:
    doc = " ".join(arcadia_quest.__doc__.split()).lower()
    for ruling in REACTION_RULINGS + ENCOUNTER_RULINGS + SEQUENCE_RULINGS:
        assert " ".join(ruling.split()[:4]).rstrip(":,").lower() in doc, ruling


def test_hero_abilities_tied_to_a_card_group_need_that_group() -> None:
    assert parse_encounter(encounter({"preset": "Seth"}, {"card": "Nova Bolt"})).hero.abilities == ("ignore-defence",)
    assert parse_encounter(encounter({"preset": "Seth"}, {"card": "Rusty Sword"})).hero.abilities == ()
    assert parse_encounter(encounter({"preset": "Seth", "abilities": []}, {"card": "Nova Bolt"})).hero.abilities == ()


def test_report_shows_rulings_sources_and_the_values_used() -> None:
    report = explorer.resolve(MC_CASES[0])
    data, text = report.to_dict(), report.to_text()
    assert data["scenario"]["hero"] == {"preset": "Grom", "defence": 1, "life": 5, "wounds": 1, "rerolls": 1,
                                        "abilities": ["extra-die-while-wounded"], "dazed": False, "flanked": False}
    assert "fan-collected" in data["sources"]["hero"] and "fan-collected" in data["sources"]["close_monsters"][0]
    assert "Grom's Berserk" in data["abilities"]["extra-die-while-wounded"]["source"]
    for line in ("RULINGS:", "SOURCES", "Overkill 4", "Defense 1", "JOINT", "COINS", "Berserk"):
        assert line in text, line
    wounds = report.to_rows().where(quantity="hero_wounds")
    assert abs(sum(row["probability"] for row in wounds) + data["cut"] - 1) < 1e-12


# ----------------------------------------------------------------------------- errors and the command line
@pytest.mark.parametrize(("data", "field"), [
    (encounter(target={"preset": "Orc Marauder", "overkill": 1}), "target.overkill"),
    (encounter(target=monster(life=4, overkill=3)), "target.overkill"),
    (encounter(guards=[monster(), monster(kind="magic")]), "close_monsters[1].attack.kind"),
    (encounter(guards=[monster(life=3, overkill=2)]), "close_monsters[0].overkill"),
    (encounter({"preset": "Gandalf"}), "hero.preset"),
    (encounter({"life": 3}), "hero.defence"),
    (encounter({"defence": 1, "life": 3, "wounds": 3}), "hero.wounds"),
    (encounter({"defence": 1, "life": 3, "abilities": ["flying"]}), "hero.abilities[0]"),
    (encounter({"defence": 1, "life": 3, "abilities": [["flying"]]}), "hero.abilities[0]"),  # was a TypeError
    (encounter(target=monster(abilities=[{}])), "target.abilities[0]"),
    (encounter(attack={"card": "Excalibur"}), "attack.card"),
    (encounter(attack={"dice": 3}), "attack.kind"),
    (encounter(attack={"dice": 3, "kind": "melee", "group": "axe"}), "attack.group"),
    (encounter(target={"attack": {"dice": 2, "kind": "melee"}}), "target.life"),
    (encounter(target=monster(other_guild_tokens=1)), "target.other_guild_tokens"),
    (encounter(target=monster(colour="green")), "target.colour"),
    (encounter(guilds=5), "guilds"),
    (encounter(guards=[monster()] * 10), "close_monsters"),
    (encounter(question="battle"), "question"),
    (encounter(opponent_attacks="yes"), "opponent_attacks"),
])
def test_errors_name_the_field(data: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        explorer.resolve(data)
    assert error.value.field == field, str(error.value)
    assert str(error.value).startswith(field)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "explorer", "resolve", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_cli_reads_an_encounter_file() -> None:
    text = run_cli("examples/arcadia-encounter-guard.json")
    assert text.returncode == 0, text.stderr
    for words in ("HERO: Greensleeves", "2 Guard attack(s): Orc Marauder, Goblin Archer", "hero killed", "RULINGS"):
        assert words in text.stdout
    data = json.loads(run_cli("examples/arcadia-encounter-guard.json", "--json").stdout)
    assert data["question"] == "encounter" and data["guard"]["triggered"] is True
    assert abs(sum(data["hero_wounds"].values()) + data["cut"] - 1) < 1e-9


def test_cli_refuses_a_bad_encounter_file_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(encounter(target=monster(life=4, overkill=2))))
    run = run_cli(str(path))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("error: target.overkill: must be >= target.life (4)")
