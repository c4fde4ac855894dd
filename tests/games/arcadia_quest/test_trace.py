"""The roll-once trace of an Arcadia Quest encounter: reproducible, cited, in the rules' order, and in
agreement with the exact resolver (a seeded Monte Carlo over many traces)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, DEFENCE_DIE, Trial
from explorer.games.arcadia_quest.encounter.fighters import Roll
from explorer.games.arcadia_quest.encounter.trace import RolledDice, roll_dice, trace_encounter, trace_text

GUARD = {"hero": {"preset": "Greensleeves", "rerolls": 1}, "attack": {"card": "Slingshot"},
         "target": {"preset": "Hammer Beastman"}, "close_monsters": [{"preset": "Orc Marauder"},
                                                                      {"preset": "Goblin Archer"}]}
"""Printed p.20, Guard Example 1: a Payback (with Daze) and two Guard attacks."""
PAYBACK = {"hero": {"preset": "Grom", "wounds": 1, "rerolls": 1}, "attack": {"card": "Rusty Sword"},
           "target": {"preset": "Schmetterling", "wounds": 3, "close": True, "other_guild_tokens": 1},
           "close_monsters": [{"preset": "Orc Marauder"}], "guilds": 3}
"""AQ-RB p.12: a wounded Troll, killed but not overkilled, still pays back; no Guard (the target is Close)."""


def _check_roll(rolled: RolledDice, dice: int) -> None:
    """One roll obeys the rules: each CRIT adds a die, rerolls only failures, the pool is spent while one shows."""
    scoring = (rolled.scores, "crit")
    assert len(rolled.first) == dice
    assert len(rolled.extra) == rolled.first.count("crit") + rolled.extra.count("crit")  # each CRIT, one die
    assert len(rolled.final) == dice + rolled.crits  # every CRIT, first or rerolled, brought exactly one die
    assert len(rolled.rerolls) <= rolled.pool
    assert all(old not in scoring for old, _new, _added in rolled.rerolls)  # a CRIT or a hit is never rerolled
    for _old, new, added in rolled.rerolls:
        assert len(added) == (new == "crit") + added.count("crit")
    if len(rolled.rerolls) < rolled.pool:
        assert all(face in scoring for face in rolled.final)  # points left over: no failure left showing
    worth = rolled.worth
    assert rolled.successes == rolled.final.count(rolled.scores) + worth * rolled.crits


def test_one_roll_obeys_the_rules_over_many_seeds():
    melee = Trial.of(ATTACK_DIE.value, "melee")
    for seed in range(3000):
        rng = random.Random(seed)
        dice, rerolls = rng.randrange(0, 6), rng.randrange(0, 4)
        rolled = roll_dice(rng, Roll(dice, rerolls, melee, rng.choice((1, 2))), ATTACK_DIE.value, "melee")
        _check_roll(rolled, dice)
        saves = roll_dice(rng, Roll(dice, rerolls, Trial.of(DEFENCE_DIE.value, "shield")), DEFENCE_DIE.value, "shield")
        _check_roll(saves, dice)


def test_a_crit_chain_adds_one_die_per_crit():
    faces = ("crit", "melee")  # a two-faced die makes long chains common
    for seed in range(500):
        rolled = roll_dice(random.Random(seed), Roll(2, 0, Trial(0, 1, 1)), faces, "melee")
        assert len(rolled.extra) == rolled.crits and len(rolled.final) == 2 + rolled.crits
        assert rolled.successes == len(rolled.final)


def test_same_seed_same_trace_and_pages_cited():
    enc = parse_encounter(GUARD)
    steps = trace_encounter(enc, 42)
    assert steps == trace_encounter(enc, 42)
    assert any(trace_encounter(enc, seed) != steps for seed in range(1, 6))
    order = [s.step for s in steps]
    assert order[:6] == ["1. Attack roll", "2. CRITs", "3. Rerolls", "Hits", "4. Defense roll", "5. Wounds"]
    assert order[-2:] == ["8. Coins", "Result"]
    assert order.index("6. Payback") < order.index("7. Guard") < order.index("8. Coins")
    assert all(s.page for s in steps if s.step != "Result")
    assert "printed p.20" in trace_text(steps) and "Inferno rulebook p.18" in trace_text(steps)


@pytest.mark.parametrize("data", [GUARD, PAYBACK], ids=["guard", "payback"])
def test_every_step_is_consistent_with_the_rules(data):
    enc = parse_encounter(data)
    hero, target = enc.hero, enc.target
    for seed in range(400):
        steps = trace_encounter(enc, seed)
        attack = steps[0].data["roll"]
        _check_roll(attack, len(attack.first))
        wounds_step = next(s for s in steps if s.step == "5. Wounds").data
        saves = next(s for s in steps if s.step == "4. Defense roll").data["roll"]
        assert wounds_step["hits"] == attack.successes and wounds_step["saves"] == saves.successes
        w = wounds_step["wounds"]
        assert w == max(0, attack.successes - saves.successes)
        assert wounds_step["killed"] == (w >= target.life_left)
        assert wounds_step["overkilled"] == target.overkilled_by(w)
        payback = [s for s in steps if s.step == "6. Payback"]
        assert (len(payback) == 2) == enc.pays_back(w)  # an attack and the hero's Defense, or one "no Payback"
        guards = [s for s in steps if s.step == "7. Guard" and s.side == "hero"]
        taken = [s.data["taken"] for s in steps if s.side == "hero" and "taken" in s.data]
        assert taken == sorted(taken)  # wounds only grow
        assert len(guards) <= len(enc.guard_attackers)
        end = steps[-1].data
        assert end["monster_wounds"] == w and end["hero_wounds"] == (taken[-1] if taken else 0)
        assert end["hero_wounds"] <= hero.life_left
        if end["hero_wounds"] < hero.life_left:
            assert len(guards) == len(enc.guard_attackers)  # a living hero takes every Guard attack
        killed = w >= target.life_left
        assert end["coins_active"] == (target.reward if killed else 0)
        assert end["coins_others"] == ((enc.guilds - 1) * (end["hero_wounds"] >= hero.life_left)
                                       + target.reward * enc.other_guild_tokens * (killed and target.villain))


@pytest.mark.parametrize("data", [GUARD, PAYBACK], ids=["guard", "payback"])
def test_many_traces_agree_with_the_exact_joint_table(data):
    """Seeded Monte Carlo: every (monster wounds, hero wounds) cell within 4.5 standard errors."""
    enc = parse_encounter(data)
    exact = resolve_encounter(enc).joint
    samples = 6000
    seen = Counter((s[-1].data["monster_wounds"], s[-1].data["hero_wounds"])
                   for s in (trace_encounter(enc, seed) for seed in range(samples)))
    for cell in set(seen) | set(exact.probabilities()):
        p = float(exact.probability(cell))
        error = math.sqrt(max(p * (1 - p), 1e-4) / samples)
        assert abs(seen[cell] / samples - p) <= 4.5 * error, (cell, seen[cell] / samples, p)


def test_no_payback_and_no_guard_say_why():
    no_reach = parse_encounter({**GUARD, "target": {"preset": "Hammer Beastman", "reaches": False},
                                "opponent_attacks": True})
    text = trace_text(trace_encounter(no_reach, 1))
    assert "cannot reach" in text
    quiet = parse_encounter({**GUARD, "opponent_attacks": False})
    text = trace_text(trace_encounter(quiet, 1))
    assert "no Payback: the opponent does not attack" in text and "no Guard: the opponent" in text
    close = parse_encounter({**GUARD, "attack": {"card": "Slingshot", "also_targets_close": True}})
    assert "no Guard: the attack targets a Close Monster" in trace_text(trace_encounter(close, 1))
    dazed = parse_encounter({**GUARD, "target": {"preset": "Minotaur", "dazed": True}})
    assert "is Dazed: rolls no Defense dice" in trace_text(trace_encounter(dazed, 1))
