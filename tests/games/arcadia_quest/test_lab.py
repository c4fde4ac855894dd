"""Arcadia Quest dice: the closed-form roll against the die-by-die walk, and the dice lab engine."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import ScenarioError
from explorer.games import load
from explorer.games.arcadia_quest.attack.chains import chain_successes
from explorer.games.arcadia_quest.attack.lab import ArcadiaLabEngine
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, DEFENCE_DIE, Trial, roll_successes
from explorer.scenario.lab import CUSTOM, JOINT, parse_custom_die
from tests.games.arcadia_quest import oracle as aq_oracle

TRIALS = {"melee": Trial.of(ATTACK_DIE.value, "melee"), "ranged": Trial.of(ATTACK_DIE.value, "ranged"),
          "defence": Trial.of(DEFENCE_DIE.value, "shield"), "odd": Trial(fail=1, plain=4, crit=1)}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.integers(0, 5), st.sampled_from(sorted(TRIALS)), st.integers(1, 2))
def test_closed_form_matches_the_die_by_die_walk(dice: int, rerolls: int, kind: str, worth: int) -> None:
    fast = chain_successes(dice, rerolls, TRIALS[kind], worth, 1e-13)
    walk = roll_successes(dice, rerolls, TRIALS[kind], cut_below=1e-13, crit_worth=worth)
    assert fast.cut_mass() < Fraction(1, 10**13) and walk.cut_mass() < Fraction(1, 10**13)
    slack = fast.cut_mass() + walk.cut_mass()
    for k in set(fast) | set(walk):
        assert abs(fast.probability(k) - walk.probability(k)) <= slack, k


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 3), st.integers(0, 2), st.sampled_from(["melee", "ranged"]), st.integers(1, 2))
def test_closed_form_matches_the_face_by_face_oracle(dice: int, rerolls: int, kind: str, worth: int) -> None:
    fast = chain_successes(dice, rerolls, TRIALS[kind], worth, 1e-13)
    oracle, cut = aq_oracle.roll(dice, rerolls, aq_oracle.ATTACK_FACES, kind, worth)
    slack = fast.cut_mass() + cut
    for k, p in oracle:
        assert abs(fast.probability(k) - p) <= slack, k


def test_certain_dice_and_no_crit() -> None:
    assert chain_successes(4, 2, Trial(fail=0, plain=6, crit=0)).probabilities() == {4: 1}
    assert chain_successes(2, 1, Trial(fail=6, plain=0, crit=0)).probabilities() == {0: 1}
    with pytest.raises(ValueError):
        chain_successes(1, 0, Trial(fail=0, plain=0, crit=6))


# ----------------------------------------------------------------------------- the lab engine
@pytest.fixture
def engine() -> ArcadiaLabEngine:
    return ArcadiaLabEngine()


def test_engine_offers_what_a_lab_needs(engine: ArcadiaLabEngine) -> None:
    assert isinstance(load("explorer.games.arcadia_quest.attack.lab:ArcadiaLabEngine")(), ArcadiaLabEngine)
    dice = engine.dice()
    assert list(dice) == ["attack (melee)", "attack (ranged)", "defence"]
    assert all(len(die.faces) == engine.faces_per_die and "inferred" in die.source for die in dice.values())
    assert [m.name for m in engine.modifiers()] == ["attack_rerolls", "defence_rerolls", "extra_hit_per_crit"]
    assert engine.outcomes[:2] == ("hits", "saves") and engine.policies == ("failures",)


@pytest.mark.parametrize(("pool", "mods"), [
    ({"attack (melee)": 3, "defence": 2}, {"attack_rerolls": 1, "defence_rerolls": 0, "extra_hit_per_crit": 0}),
    ({"attack (ranged)": 4, "defence": 3}, {"attack_rerolls": 0, "defence_rerolls": 2, "extra_hit_per_crit": 1}),
    ({"defence": 1}, {}),
    ({}, {}),
])
def test_engine_gives_the_exact_rolls(engine: ArcadiaLabEngine, pool: dict, mods: dict) -> None:
    out = engine.compute(pool, {}, mods, "failures")
    kind = "ranged" if "attack (ranged)" in pool else "melee"
    attack_dice = pool.get("attack (melee)", 0) + pool.get("attack (ranged)", 0)
    hits = chain_successes(attack_dice, mods.get("attack_rerolls", 0), TRIALS[kind],
                           2 if mods.get("extra_hit_per_crit") else 1, 5e-13)
    saves = chain_successes(pool.get("defence", 0), mods.get("defence_rerolls", 0), TRIALS["defence"], 1, 5e-13)
    assert out["hits"] == hits and out["saves"] == saves
    assert out["wounds"] == hits.combine(saves, lambda h, s: max(0, h - s))
    joint = out[JOINT]  # the joint carries both rolls' cuts
    assert joint.cut_mass() <= hits.cut_mass() + saves.cut_mass() < Fraction(1, 10**12)
    for index, dist in ((0, hits), (1, saves)):
        for k in dist:
            assert abs(joint.marginal(index).probability(k) - dist.probability(k)) <= joint.cut_mass()


def test_custom_dice_take_their_role_from_their_faces(engine: ArcadiaLabEngine) -> None:
    sure = parse_custom_die("hit, hit, hit, hit, hit, hit", engine.symbols, engine.face_limits, 6)
    out = engine.compute({CUSTOM: 2, "defence": 0}, {CUSTOM: sure}, {"attack_rerolls": 3}, "failures")
    assert out["hits"].probabilities() == {2: 1}
    wall = parse_custom_die("save, save, save, save, save, save", engine.symbols, engine.face_limits, 6)
    out = engine.compute({"attack (melee)": 1, CUSTOM: 1}, {CUSTOM: wall}, {}, "failures")
    assert out["saves"].probabilities() == {1: 1}


@pytest.mark.parametrize(("pool", "custom", "field"), [
    ({"attack (melee)": 1, "attack (ranged)": 1}, None, "pool"),
    ({"d20": 1}, None, "pool.d20"),
    ({CUSTOM: 1}, "hit+crit, -, -, -, -, -", "custom die, face 1"),
    ({CUSTOM: 1}, "hit, save, -, -, -, -", "custom die"),
    ({CUSTOM: 1}, "crit, crit, crit, crit, crit, crit", "pool"),
    ({"attack (melee)": 20, "defence": 11}, None, "pool"),
])
def test_engine_refuses_bad_pools(engine: ArcadiaLabEngine, pool: dict, custom: str | None, field: str) -> None:
    faces = {CUSTOM: parse_custom_die(custom, engine.symbols, engine.face_limits, 6, "custom die")} if custom else {}
    with pytest.raises(ScenarioError) as error:
        engine.compute(pool, faces, {}, "failures")
    assert error.value.field == field, str(error.value)
    with pytest.raises(ScenarioError):
        engine.compute({}, {}, {}, "all")
