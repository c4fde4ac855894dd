"""The step-by-step battle trace: reproducible, cited, and in agreement with the exact resolver."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from explorer.games.assault_of_the_giants import (
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Status,
    Unit,
    assign_damage,
    convert,
    parse_battle,
    resolve_battle,
)
from explorer.games.assault_of_the_giants.battle.battle import points_for, resource_cards_for
from explorer.games.assault_of_the_giants.battle.trace import (
    TraceStep,
    face_name,
    trace_battle,
    trace_text,
)

SAMPLES = 2000


def small_battle(defender_policy: str = "misses") -> Battle:
    """2-3 dice a side, 1-2 rerolls, conversions on both sides, 2 units a side, a champion."""
    return parse_battle({
        "game": "assault-of-the-giants",
        "dice": {"mystic": [{}, {"arcane": 1}, {"arcane": 1}, {"arcane": 2}, {"hit": 2}, {"hit": 1, "block": 1}]},
        "attacker": {
            "pool": {"basic": 2, "frost": 1}, "commands": ["Leader", "Attack"],  # 1 reroll, 1 arcane -> 2 hits
            "units": [{"name": "Fire giant", "fortitude": 3, "wounded_fortitude": 2, "ordning_value": 2},
                      {"name": "Fire scout", "fortitude": 2, "ordning_value": 1}]},
        "defender": {
            "pool": {"mystic": 3}, "rerolls": 2, "arcane_to_blocks": 1,
            "casualty_order": "fewest-op", "reroll_policy": defender_policy,
            "units": [{"name": "Hill giant", "fortitude": 2, "ordning_value": 1},
                      {"name": "Hill chief", "fortitude": 3, "wounded_fortitude": 2, "ordning_value": 3,
                       "champion": True}]},
    })


def only(steps: Sequence[TraceStep], side: str, step: str, key: str) -> Any:
    """The data value `key` of the single matching step."""
    found = [s.data[key] for s in steps if s.side == side and s.step == step and key in s.data]
    assert len(found) == 1, (side, step, key, found)
    return found[0]


def always(face: tuple[int, int, int], name: str = "") -> CombatDie:
    """A die showing the same face on all six sides: a deterministic roll."""
    return CombatDie(name or face_name(face), (face,) * 6)


# --- reproducibility and citations ---------------------------------------------------

def test_same_seed_same_trace_and_seeds_differ() -> None:
    """The same seed walks the same battle in another interpreter too (another hash seed, so no
    set or dict order can leak in); other seeds walk other battles."""
    battle = small_battle()
    code = ("import sys; sys.path.insert(0, '.'); from tests.games.assault_of_the_giants.test_trace import small_battle; "
            "from explorer.games.assault_of_the_giants.battle.trace import trace_battle, trace_text; "
            "print(trace_text(trace_battle(small_battle(), 7)), end='')")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parents[3], env={**os.environ, "PYTHONHASHSEED": "12345"})
    assert run.returncode == 0, run.stderr
    assert run.stdout == trace_text(trace_battle(battle, 7))
    texts = {trace_text(trace_battle(battle, seed)) for seed in range(6)}
    assert len(texts) > 1


def test_every_step_cites_a_page_and_follows_the_rulebook_order() -> None:
    steps = trace_battle(small_battle(), 3)
    assert all(re.search(r"p\.\d+", s.page) for s in steps)
    assert all(s.side in ("attacker", "defender", "") for s in steps)
    titles = [(s.side, s.step) for s in steps]
    expected = ([("attacker", t) for t in ("1. Roll", "2. Rerolls", "3. Conversions", "Totals")]
                + [("defender", t) for t in ("1. Roll", "2. Rerolls", "3. Conversions", "Totals")]
                + [("", "4. Damage")])
    assert titles[:9] == expected
    casualties = [side for side, t in titles if t == "5. Casualties"]
    assert casualties == sorted(casualties, key=lambda s: s != "defender")  # defender first
    assert titles[-2:] == [("attacker", "6. Battle Rewards"), ("defender", "6. Battle Rewards")]
    assert len(trace_text(steps).splitlines()) == len(steps)


def test_face_names() -> None:
    assert face_name((0, 0, 0)) == "blank"
    assert face_name((2, 0, 0)) == "2 hits"
    assert face_name((1, 1, 0)) == "1 hit + 1 block"
    assert face_name((0, 0, 1)) == "1 arcane"
    assert face_name((0, 2, 2)) == "2 blocks + 2 arcane"


# --- internal consistency with the resolver's building blocks -----------------------------

@pytest.mark.parametrize("seed", range(0, 300, 7))
def test_totals_are_the_conversion_of_the_final_faces(seed: int) -> None:
    battle = small_battle()
    steps = trace_battle(battle, seed)
    for label, side in (("attacker", battle.attacker), ("defender", battle.defender)):
        faces = only(steps, label, "Totals", "faces")
        assert faces == only(steps, label, "2. Rerolls", "after")
        symbols = tuple(sum(f[j] for f in faces) for j in range(3))
        hits, blocks = convert(symbols, side.modifiers)
        assert (only(steps, label, "Totals", "hits"), only(steps, label, "Totals", "blocks")) == (hits, blocks)
        before = only(steps, label, "2. Rerolls", "before")
        assert before == only(steps, label, "1. Roll", "faces")
        rerolled = only(steps, label, "2. Rerolls", "rerolled")
        assert len(rerolled) <= side.modifiers.rerolls
        assert all(before[i] == after for i, after in enumerate(faces) if i not in rerolled)
        # Under "misses" only dice showing a blank or arcane alone are ever rerolled.
        assert all(before[i][0] == before[i][1] == 0 for i in rerolled)


@pytest.mark.parametrize("seed", range(0, 300, 7))
def test_damage_casualties_and_rewards_agree_with_assign_damage(seed: int) -> None:
    battle = small_battle()
    steps = trace_battle(battle, seed)
    atk, dfn = battle.attacker, battle.defender
    hits = {s: only(steps, s, "Totals", "hits") for s in ("attacker", "defender")}
    blocks = {s: only(steps, s, "Totals", "blocks") for s in ("attacker", "defender")}
    damage = only(steps, "", "4. Damage", "defender"), only(steps, "", "4. Damage", "attacker")
    assert damage == (max(0, hits["attacker"] - blocks["defender"]), max(0, hits["defender"] - blocks["attacker"]))
    for label, victim, victor, dmg in (("defender", dfn, atk, damage[0]), ("attacker", atk, dfn, damage[1])):
        statuses = only(steps, label, "5. Casualties", "statuses")
        expected = assign_damage(victim.units, dmg, victim.casualty_order, points_for(victim, victor))
        assert statuses == tuple(s.value for s in expected)
        absorbed = [s for s in steps if s.side == label and s.step == "5. Casualties" and "unit" in s.data]
        assert sum(s.data["damage"] - s.data["left"] for s in absorbed) <= dmg
        earner = "attacker" if label == "defender" else "defender"
        points = points_for(victim, victor)
        assert only(steps, earner, "6. Battle Rewards", "ordning_points") == sum(
            p for p, s in zip(points, expected) if s is Status.DEFEATED)


# --- Monte Carlo against the exact resolver ------------------------------------------

def _within(counts: Counter[Hashable], exact: Mapping[Hashable, Fraction], n: int) -> list[str]:
    """Cells whose empirical frequency is more than 4 standard errors from the exact probability."""
    bad = []
    for outcome in set(counts) | set(exact):
        p = float(exact.get(outcome, 0))
        freq = counts[outcome] / n
        if abs(freq - p) > 4 * math.sqrt(p * (1 - p) / n) + 1e-12:
            bad.append(f"{outcome!r}: trace {freq:.4f}, exact {p:.4f}")
    return bad


def _sample(battle: Battle) -> tuple[Counter[Hashable], Counter[Hashable], list[Counter[Hashable]]]:
    dfn_hits: Counter[Hashable] = Counter()
    atk_hits: Counter[Hashable] = Counter()
    units: list[Counter[Hashable]] = [Counter() for _ in range(4)]
    for seed in range(SAMPLES):
        steps = trace_battle(battle, seed)
        dfn_hits[only(steps, "defender", "Totals", "hits")] += 1
        atk_hits[only(steps, "attacker", "Totals", "hits")] += 1
        statuses = only(steps, "defender", "5. Casualties", "statuses") + only(steps, "attacker", "5. Casualties", "statuses")
        for counter, status in zip(units, statuses):
            counter[status] += 1
    return dfn_hits, atk_hits, units


@pytest.fixture(scope="module")
def sampled() -> tuple[Counter[Hashable], Counter[Hashable], list[Counter[Hashable]]]:
    return _sample(small_battle())


def test_monte_carlo_matches_the_exact_resolver(sampled: Any) -> None:
    dfn_hits, atk_hits, units = sampled
    result = resolve_battle(small_battle())
    bad = _within(dfn_hits, result.defender.hits.probabilities(), SAMPLES)
    bad += _within(atk_hits, result.attacker.hits.probabilities(), SAMPLES)
    for counter, (side, i) in zip(units, [(result.defender, 0), (result.defender, 1),
                                           (result.attacker, 0), (result.attacker, 1)]):
        exact = {s.value: p for s, p in side.unit_status(i).probabilities().items()}
        bad += _within(counter, exact, SAMPLES)
    assert not bad, bad


def test_monte_carlo_check_has_the_power_to_catch_another_reroll_policy(sampled: Any) -> None:
    # Had the trace rerolled only blanks (or nothing), the check above would have failed.
    dfn_hits, _, _ = sampled
    for policy in ("blanks", "none"):
        other = resolve_battle(small_battle(policy)).defender.hits.probabilities()
        assert _within(dfn_hits, other, SAMPLES), policy


# --- golden cases --------------------------------------------------------------------

def test_p17_walkthrough_seven_damage_against_hill_giants() -> None:
    # p.17: 7 hits and 1 block (2 arcane turned into 4 hits by the Attack Command, plus 3 hits);
    # the hill giants (Fortitude 2, 3, 3) end defeated, defeated, wounded.
    arcane, two, hit_block = always((0, 0, 1)), always((2, 0, 0)), always((1, 1, 0))
    attacker = Side(((arcane, 2), (two, 1), (hit_block, 1)),
                    Modifiers(arcane_to_hits=2, source="commands"), (), commands=("Move", "Rest", "Attack"))
    army = tuple(Unit("Hill giant", f, 1, ordning_value=1) for f in (2, 3, 3))
    battle = Battle(attacker, Side((), Modifiers(), army))
    for seed in (0, 1, 99):
        steps = trace_battle(battle, seed)
        assert (only(steps, "attacker", "Totals", "hits"), only(steps, "attacker", "Totals", "blocks")) == (7, 1)
        assert only(steps, "", "4. Damage", "defender") == 7
        lines = [s.text for s in steps if s.side == "defender" and s.step == "5. Casualties" and "unit" in s.data]
        assert lines == [
            "Hill giant (Fortitude 2) absorbs 2 of 7 damage and is defeated; 5 left",
            "Hill giant (Fortitude 3) absorbs 3 of 5 damage and is defeated; 2 left",
            "Hill giant (Fortitude 3) absorbs 2 of 2 damage and is wounded (flipped to its wounded side); 0 left",
        ]
        assert only(steps, "defender", "5. Casualties", "statuses") == ("defeated", "defeated", "wounded")
        assert only(steps, "attacker", "6. Battle Rewards", "ordning_points") == 2
        conversion = next(s for s in steps if s.side == "attacker" and s.step == "3. Conversions")
        assert "2 arcane into 4 hits (Attack has 2 cards to its left)" in conversion.text


def test_reroll_text_names_the_die_and_the_reason() -> None:
    battle = parse_battle({
        "game": "assault-of-the-giants",
        "dice": {"blank": [{}] * 6, "hit": [{"hit": 1}] * 6},
        "attacker": {"pool": {"blank": 1, "hit": 1}, "commands": ["Leader", "Move"], "units": []},
        "defender": {"pool": {"hit": 1}, "units": []}})
    steps = trace_battle(battle, 5)
    reroll = next(s for s in steps if s.side == "attacker" and s.step == "2. Rerolls")
    assert reroll.text.startswith("rerolls the blank die (1 reroll: Leader has 1 card to its right)")
    assert reroll.data["rerolled"] == (0,)
    roll = steps[0]
    assert roll.text == "rolls 1 blank die and 1 hit die: [blank: blank] [hit: 1 hit]"


def test_npc_defender_earns_no_points_and_cites_page_20() -> None:
    battle = parse_battle({
        "game": "assault-of-the-giants",
        "dice": {"four": [{"hit": 4}] * 6, "one": [{"hit": 1}] * 6},
        "attacker": {"pool": {"one": 1}, "units": [{"name": "Fire giant", "fortitude": 2, "ordning_value": 3}]},
        "defender": {"pool": {"four": 1}, "npc": True,
                     "units": [{"name": "Stone giant", "fortitude": 1, "ordning_value": 2}]}})
    steps = trace_battle(battle, 0)
    assert only(steps, "attacker", "5. Casualties", "statuses") == ("defeated",)
    assert only(steps, "defender", "6. Battle Rewards", "ordning_points") == 0
    assert only(steps, "attacker", "6. Battle Rewards", "ordning_points") == 2  # full value for an NPC giant
    reward = next(s for s in steps if s.side == "defender" and s.step == "6. Battle Rewards")
    assert "NPC" in reward.text and reward.page == "rulebook p.20"
    npc_reroll = next(s for s in steps if s.side == "defender" and s.step == "2. Rerolls")
    assert npc_reroll.page == "rulebook p.20" and npc_reroll.data["rerolls"] == 2


@pytest.mark.parametrize("npc", [False, True])
def test_giantslayers_earn_half_rounded_up_and_give_resource_cards(npc: bool) -> None:
    battle = parse_battle({
        "game": "assault-of-the-giants",
        "dice": {"two": [{"hit": 2}] * 6, "one": [{"hit": 1}] * 6},
        "attacker": {"pool": {"two": 2}, "giantslayers": True,
                     "units": [{"name": "slayer", "fortitude": 1}, {"name": "slayer", "fortitude": 1}]},
        "defender": {"pool": {"one": 2}, "npc": npc, "arcane_to_blocks": 0,
                     "units": [{"name": "Storm giant", "fortitude": 4, "ordning_value": 3}]}})
    steps = trace_battle(battle, 0)
    assert only(steps, "defender", "5. Casualties", "statuses") == ("defeated",)
    assert only(steps, "attacker", "5. Casualties", "statuses") == ("defeated", "defeated")
    assert only(steps, "attacker", "6. Battle Rewards", "ordning_points") == 2  # ceil(3 / 2)
    assert only(steps, "defender", "6. Battle Rewards", "ordning_points") == 0
    cards = only(steps, "defender", "6. Battle Rewards", "resource_cards")
    assert cards == (0 if npc else 2)
    assert cards == sum(resource_cards_for(battle.attacker, battle.defender))
    attacker_reward = next(s for s in steps if s.side == "attacker" and s.step == "6. Battle Rewards")
    assert "half" in attacker_reward.text and attacker_reward.page == "rulebook p.19"
