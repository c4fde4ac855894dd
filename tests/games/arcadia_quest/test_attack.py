"""Arcadia Quest, one attack: Monte Carlo and exact oracles, closed forms, rulebook cases, errors.

Page numbers: AQ-RB = base rulebook, INF-RB = Inferno rulebook, as in ``shared/rules/arcadia-quest.md``.
"""

from __future__ import annotations

import json
import math
import random
import tomllib
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest import (
    ATTACK_DIE,
    CUT_BELOW,
    DEFENCE_DIE,
    Attack,
    AttackScenario,
    Defence,
    Target,
    Trial,
    parse_attack,
    resolve,
    resolve_attack,
    roll_successes,
    scenario_to_dict,
    successes,
)
from explorer.scenario.report import read_weights

ROOT = Path(__file__).resolve().parents[3]
MELEE = Trial.of(ATTACK_DIE.value, "melee")
RANGED = Trial.of(ATTACK_DIE.value, "ranged")
DEFENCE = Trial.of(DEFENCE_DIE.value, "shield")
TRIALS = {"melee": MELEE, "ranged": RANGED, "defence": DEFENCE}


def scenario(dice: int = 3, kind: str = "melee", rerolls: int = 1, defence: int = 2, defence_rerolls: int = 0,
             life: int = 4, wounds: int = 0, overkill: int | None = 6) -> dict:
    target = {"life": life, "wounds": wounds} | ({} if overkill is None else {"overkill": overkill})
    return {"game": "arcadia-quest", "attack": {"dice": dice, "kind": kind, "rerolls": rerolls},
            "defence": {"dice": defence, "rerolls": defence_rerolls}, "target": target}


# --- the physical procedure, die by die (Monte Carlo) ----------------------------------------------

def roll_physically(rng: random.Random, dice: int, rerolls: int, faces: tuple[str, ...], scores: str) -> int:
    """Roll like players do (INF-manualzz example): roll the pool, spend rerolls on dice showing a failure
    (a die may be rerolled again), then roll one extra die per CRIT, and go on with the extra dice."""
    points, total, batch = rerolls, 0, dice
    while batch:
        shown = [rng.choice(faces) for _ in range(batch)]
        while points:
            failed = [i for i, face in enumerate(shown) if face not in (scores, "crit")]
            if not failed:
                break
            shown[failed[0]] = rng.choice(faces)  # the new result replaces the old; a CRIT is never rerolled
            points -= 1
        total += sum(face in (scores, "crit") for face in shown)
        batch = shown.count("crit")
    return total


def sample_attack(data: dict, n: int, seed: int) -> dict[str, Counter]:
    rng = random.Random(seed)
    att, dfn, tgt = data["attack"], data["defence"], data["target"]
    out: dict[str, Counter] = {"hits": Counter(), "saves": Counter(), "wounds": Counter(), "kill": Counter(),
                               "overkill": Counter()}
    for _ in range(n):
        hits = roll_physically(rng, att["dice"], att["rerolls"], ATTACK_DIE.value, att["kind"])
        saves = roll_physically(rng, dfn["dice"], dfn["rerolls"], DEFENCE_DIE.value, "shield")
        wounds = max(0, hits - saves)
        out["hits"][hits] += 1
        out["saves"][saves] += 1
        out["wounds"][wounds] += 1
        out["kill"][wounds >= tgt["life"] - tgt["wounds"]] += 1
        out["overkill"]["overkill" in tgt and wounds >= tgt["overkill"]] += 1
    return out


def mismatches(report: dict, samples: dict[str, Counter], n: int) -> list[str]:
    """Outcomes whose sampled frequency is more than 4 standard errors (plus 2 samples) off."""
    bad = []
    exact = {q: report[q] for q in ("hits", "saves", "wounds")}
    exact["kill"] = {"True": report["kill"]}
    exact["overkill"] = {"True": report["overkill"]}
    for q, dist in exact.items():
        counts = {str(k): v for k, v in samples[q].items()}
        for outcome in set(dist) | (set(counts) - {"False"}):
            p, f = dist.get(outcome, 0.0), counts.get(outcome, 0) / n
            if abs(f - p) > 4 * math.sqrt(p * (1 - p) / n) + 2 / n:
                bad.append(f"{q}[{outcome}]: exact {p:.5f}, sampled {f:.5f}")
    return bad


MC_CASES = [
    scenario(3, "melee", 1, 2, 0, life=4, overkill=6),
    scenario(4, "ranged", 2, 3, 2, life=5, wounds=2, overkill=7),
    scenario(2, "melee", 0, 0, 0, life=2, overkill=None),
    scenario(1, "ranged", 3, 4, 1, life=3, overkill=3),
]


@pytest.mark.parametrize("case", MC_CASES, ids=lambda c: f"{c['attack']}-{c['defence']}")
def test_monte_carlo_agrees_with_the_exact_distributions(case: dict) -> None:
    n = 20_000
    assert mismatches(resolve(case).to_dict(), sample_attack(case, n, seed=2014), n) == []


def test_the_monte_carlo_check_can_fail() -> None:
    # The same check against a different exact answer (one reroll fewer) must find mismatches.
    n = 20_000
    samples = sample_attack(scenario(3, "ranged", 2, 2, 1), n, seed=7)
    assert mismatches(resolve(scenario(3, "ranged", 1, 2, 1)).to_dict(), samples, n)


# --- an independent exact oracle: rounds of rolls, as players roll ---------------------------------

def rounds_oracle(dice: int, rerolls: int, trial: Trial, depth: int = 30) -> tuple[dict[int, Fraction], Fraction]:
    """Successes of a roll by rounds: roll a batch, reroll up to the points left of its failures, and roll
    those with one extra die per CRIT as the next batch. Rounds beyond `depth` are cut (outcome -1)."""
    @cache
    def go(m: int, points: int, d: int) -> Dist[int]:
        if m == 0:
            return Dist.single(0)
        if d == 0:
            return Dist.single(-1)
        parts = []
        for c in range(m + 1):
            for s in range(m - c + 1):
                f = m - c - s
                w = math.comb(m, c) * math.comb(m - c, s) * trial.crit**c * trial.plain**s * trial.fail**f
                if w:
                    u = min(points, f)
                    parts.append((go(u + c, points - u, d - 1).map(lambda k, g=s + c: -1 if k < 0 else k + g), w))
        return Dist.mix(parts)

    probs = go(dice, rerolls, depth).probabilities()
    cut = probs.pop(-1, Fraction(0))
    return probs, cut


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 4), st.integers(0, 3), st.sampled_from(sorted(TRIALS)))
def test_exact_roll_matches_the_rounds_oracle(dice: int, rerolls: int, kind: str) -> None:
    dp = roll_successes(dice, rerolls, TRIALS[kind])
    oracle, oracle_cut = rounds_oracle(dice, rerolls, TRIALS[kind])
    slack = dp.cut_mass() + oracle_cut + Fraction(1, 10**15)
    for k in set(oracle) | set(dp):
        assert abs(dp.probability(k) - oracle.get(k, 0)) <= slack, k


# --- closed forms ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kind", "fail", "mean"), [("melee", Fraction(2, 6), 0.8), ("ranged", Fraction(3, 6), 0.6),
                                                     ("defence", Fraction(4, 6), 0.4)])
def test_one_die_without_rerolls(kind: str, fail: Fraction, mean: float) -> None:
    # Rules file 1.2: p / (1 - 1/6) successes per die (melee 0.8, ranged 0.6, defence 0.4).
    dist = roll_successes(1, 0, TRIALS[kind])
    assert dist.probability(0) == fail
    assert abs(float(dist.mean()) - mean) < 1e-11
    assert TRIALS[kind].mean_per_die() == Fraction(mean).limit_denominator(10)


@given(st.integers(1, 6), st.integers(0, 4), st.sampled_from(sorted(TRIALS)))
def test_no_success_means_every_roll_and_reroll_failed(dice: int, rerolls: int, kind: str) -> None:
    trial = TRIALS[kind]
    assert roll_successes(dice, rerolls, trial).probability(0) == Fraction(trial.fail, trial.total) ** (dice + rerolls)


@given(st.integers(1, 8), st.sampled_from(sorted(TRIALS)))
def test_without_rerolls_a_pool_is_the_sum_of_independent_chains(dice: int, kind: str) -> None:
    # One die: k successes = k CRITs then a failure, or k - 1 CRITs then a plain success.
    t = TRIALS[kind]
    p = {"f": Fraction(t.fail, t.total), "s": Fraction(t.plain, t.total), "c": Fraction(t.crit, t.total)}
    one = {0: p["f"]} | {k: p["c"] ** k * p["f"] + p["c"] ** (k - 1) * p["s"] for k in range(1, 40)}
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(dice):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in one.items():
                if a + b < 40:
                    nxt[a + b] = nxt.get(a + b, 0) + pa * pb
        total = nxt
    dist = roll_successes(dice, 0, t)
    for k in range(40):
        assert abs(float(dist.probability(k)) - float(total.get(k, 0))) < 1e-11, k


# --- invariants ---------------------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(0, 8), st.sampled_from(["melee", "ranged"]), st.integers(0, 4), st.integers(0, 6), st.integers(0, 4),
       st.integers(1, 6), st.integers(0, 5), st.one_of(st.none(), st.integers(1, 9)))
def test_probabilities_and_cut_sum_to_one(dice, kind, rerolls, defence, defence_rerolls, life, wounds, overkill) -> None:
    wounds = min(wounds, life - 1)
    overkill = None if overkill is None else max(overkill, life)  # below Life it is refused (printed p.21)
    report = resolve(scenario(dice, kind, rerolls, defence, defence_rerolls, life, wounds, overkill)).to_dict()
    for q in ("hits", "saves", "wounds"):
        assert abs(sum(report[q].values()) + report["cuts"][q] - 1) < 1e-12
        assert 0 <= report["cuts"][q] < CUT_BELOW
    assert report["cut"] == report["cuts"]["wounds"] < CUT_BELOW
    # The wound step recomputed here from the exact hits and saves: max(0, hits - saves), and a wound
    # is cut when either roll was.
    exact = report["exact"]  # each distribution as whole-number weights over its total (docs/arcadia-quest.md)
    hits, saves = ({int(k): v for k, v in read_weights(exact[q]).items()} for q in ("hits", "saves"))
    wounds: dict[int, Fraction] = {}
    for h, p in hits.items():
        for s, q in saves.items():
            wounds[max(0, h - s)] = wounds.get(max(0, h - s), Fraction(0)) + p * q
    assert {int(k): v for k, v in read_weights(exact["wounds"]).items()} == {k: v for k, v in wounds.items() if v}
    kept_hits, kept_saves = sum(hits.values()), sum(saves.values())
    assert Fraction(exact["cut"]) == 1 - kept_hits * kept_saves


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 7), st.integers(0, 4), st.sampled_from(sorted(TRIALS)))
def test_more_rerolls_never_lower_the_successes(dice: int, rerolls: int, kind: str) -> None:
    fewer, more = roll_successes(dice, rerolls, TRIALS[kind]), roll_successes(dice, rerolls + 1, TRIALS[kind])
    assert more.mean() >= fewer.mean() - Fraction(1, 10**11)
    for k in range(1, dice + rerolls + 8):  # and stochastically: P(>= k) never drops
        assert more.at_least(k) >= fewer.at_least(k) - Fraction(1, 10**11)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 6), st.integers(0, 4), st.integers(1, 7), st.integers(0, 6), st.integers(1, 9))
def test_kill_and_overkill_follow_the_wounds(dice: int, defence: int, life: int, wounds: int, overkill: int) -> None:
    wounds = min(wounds, life - 1)
    # the reading before issue 21 (kept as target.overkill_below_life "as given"): any rating from 1 is taken as given
    given = "as given"
    result = resolve_attack(AttackScenario(Attack(dice, "melee", 1), Defence(defence, 1),
                                           Target(life, wounds, overkill, given)))
    assert result.kill == result.wounds.at_least(life - wounds)
    assert result.overkill == result.wounds.at_least(overkill)
    fresh = resolve_attack(AttackScenario(Attack(dice, "melee", 1), Defence(defence, 1), Target(life, 0, overkill, given)))
    assert fresh.overkill == result.overkill  # p.21: wounds already there do not count towards Overkill
    assert fresh.kill <= result.kill
    never = resolve_attack(AttackScenario(Attack(dice, "melee", 1), Defence(defence, 1), Target(life, wounds)))
    assert never.overkill == 0  # no Overkill rating: cannot be overkilled


# --- rulebook cases -----------------------------------------------------------------------------------

def test_inf_rb_p18_example_3_a_defence_crit_adds_a_die() -> None:
    # INF-RB p.18 Example 3: "She rolls 3 Defense dice ... scoring 2 Saves. She rolls an extra die because
    # of the CRIT and gets a [blank], so her total is still 2 Saves." (icons lost: shield, CRIT, blank).
    assert successes(("shield", "crit", "blank"), "shield") == 2
    assert successes(("shield", "crit", "blank", "blank"), "shield") == 2


def test_inf_rb_p18_hits_and_saves_by_kind() -> None:
    # INF-RB p.18: Kisha's ranged roll [ranged hit, CRIT] is "two Hits"; a ranged face misses in melee
    # (Mark's melee roll: "two misses and one Hit"); "a [shield] and 3 [blank]" is one Save.
    assert successes(("ranged", "crit"), "ranged") == 2
    assert successes(("ranged", "ranged", "melee"), "melee") == 1
    assert successes(("shield", "blank", "blank", "blank"), "shield") == 1


def test_aq_rb_p12_schmetterling_is_killed_but_not_overkilled() -> None:
    # AQ-RB p.12: 3 Wounds already, 2 more kill it, "far from its Overkill rating of 7". Life 5 is
    # the largest Life the example allows.
    troll = Target(life=5, wounds=3, overkill=7)
    assert troll.killed_by(2) and not troll.overkilled_by(2)
    assert not Target(5, 4, 7).overkilled_by(6) and Target(5, 4, 7).overkilled_by(7)  # p.21: only this attack counts


def test_aq_rb_p12_two_rerolls_reroll_both_failed_defence_dice() -> None:
    # AQ-RB p.12: "Because Schmetterling has 2 Rerolls, he rerolls the two failed dice": with 3 dice and
    # 2 rerolls, no save at all needs all 3 dice and both rerolls to fail.
    assert roll_successes(3, 2, DEFENCE).probability(0) == Fraction(4, 6) ** 5


def test_printed_p21_one_attack_refuses_an_overkill_below_life() -> None:
    # Printed p.21: an Overkill is Wounds enough to remove the Monster at once, so a rating below its Life
    # would make an overkill that is not a kill (issue 21: life 6, overkill 2 gave P(overkill) 77.8% beside
    # P(kill) 1.2%). One-attack files now refuse it, as encounter files do, naming the allowed range.
    data = json.loads((ROOT / "examples" / "arcadia-troll.json").read_text())
    data["target"] = {"life": 6, "wounds": 0, "overkill": 2}
    with pytest.raises(ScenarioError) as error:
        resolve(data)
    assert error.value.field == "target.overkill"
    assert "must be target.life (6) to 1000, or null" in str(error.value)
    for overkill in (6, 7, None):  # life itself, above it, and none are accepted
        resolve(data | {"target": {"life": 6, "overkill": overkill}})
    # the old reading stays available under its name, and reads back from the report's scenario
    old = data | {"target": {"life": 6, "overkill": 2, "overkill_below_life": "as given"}}
    report = resolve(old).to_dict()
    assert report["overkill"] > report["kill"]  # what the old reading gives: an "overkill" that is no kill
    assert report["scenario"]["target"]["overkill_below_life"] == "as given"
    assert "overkill_below_life" not in resolve(data | {"target": {"life": 6, "overkill": 7}}).to_dict()["scenario"]["target"]


def test_lord_fang_without_overkill_is_never_overkilled() -> None:
    # Rules file 3.2: Lord Fang has no Overkill value (forum ruling): the key is left out.
    report = resolve(scenario(8, "melee", 3, 0, 0, life=5, overkill=None)).to_dict()
    assert report["overkill"] == 0 and report["kill"] > 0.5


# --- scenario files, errors, report forms --------------------------------------------------------------

def test_json_and_toml_examples_give_the_same_report() -> None:
    with open(ROOT / "examples" / "arcadia-troll.json", encoding="utf-8") as handle:
        from_json = resolve(json.load(handle)).to_dict()
    with open(ROOT / "examples" / "arcadia-troll.toml", "rb") as handle:
        from_toml = resolve(tomllib.load(handle)).to_dict()
    assert from_json == from_toml
    assert abs(sum(from_json["hits"].values()) - 1) < 1e-12
    assert from_json["scenario"]["target"] == {"life": 5, "wounds": 3, "overkill": 7}


def test_report_keys_and_forms() -> None:
    report = resolve(scenario())
    data = json.loads(json.dumps(report.to_dict()))
    assert {"format", "game", "hits", "saves", "wounds", "kill", "overkill", "cut"} <= set(data)
    assert data["format"] == 1 and data["game"] == "arcadia-quest"
    assert all(isinstance(k, str) for k in data["hits"])
    wounds = report.to_rows().where(quantity="wounds")
    assert abs(sum(row["probability"] for row in wounds) + data["cut"] - 1) < 1e-12
    assert "kill" in report.to_text() and "overkill" in report.to_text()
    assert parse_attack(scenario_to_dict(parse_attack(scenario()))) == parse_attack(scenario())


def test_dice_key_replaces_the_inferred_faces() -> None:
    plain = {"attack": ["melee", "melee", "melee", "blank", "blank", "blank"]}
    report = resolve(scenario(1, "melee", 0, 0) | {"dice": plain}).to_dict()
    assert report["hits"] == {"0": 0.5, "1": 0.5} and report["cut"] == 0
    assert ATTACK_DIE.is_example and DEFENCE_DIE.is_example  # provenance: inferred, to check against a box


def bad(path: str, value: object) -> dict:
    data = scenario()
    section, key = path.split(".")
    data[section][key] = value
    return data


@pytest.mark.parametrize(("data", "field"), [
    (bad("attack.kind", "magic"), "attack.kind"),
    (bad("attack.dice", -1), "attack.dice"),
    (bad("attack.dice", 2.5), "attack.dice"),
    (bad("attack.rerolls", True), "attack.rerolls"),
    (bad("attack.colour", "black"), "attack.colour"),
    (bad("defence.dice", -2), "defence.dice"),
    (bad("defence.rerolls", "2"), "defence.rerolls"),
    (bad("target.life", 0), "target.life"),
    (bad("target.wounds", 4), "target.wounds"),
    (bad("target.wounds", -1), "target.wounds"),
    (bad("target.overkill", 0), "target.overkill"),
    (bad("target.overkill", 3), "target.overkill"),
    (bad("target.overkill_below_life", "ignore"), "target.overkill_below_life"),
    ({k: v for k, v in scenario().items() if k != "target"}, "target"),
    (scenario() | {"attack": {"dice": 2}}, "attack.kind"),
    (scenario() | {"defense": {"dice": 1}}, "defense"),
    (scenario() | {"format": 2}, "format"),
    (scenario() | {"dice": {"attack": ["crit"] * 6}}, "dice.attack"),
    (scenario() | {"dice": {"defence": ["shield"] * 5 + ["skull"]}}, "dice.defence[5]"),
    ([1, 2], "scenario"),
])
def test_errors_name_the_field(data: object, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        resolve(data)
    assert error.value.field == field
    assert str(error.value).startswith(field)


def test_a_six_dice_attack_with_two_rerolls_is_fast() -> None:
    import time

    roll_successes.cache_clear()
    start = time.perf_counter()
    resolve(scenario(6, "melee", 2, 6, 2))
    assert time.perf_counter() - start < 0.5
