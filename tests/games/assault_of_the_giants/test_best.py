"""Best play (reroll policy "best"): the fast search against a brute force, golden figures, properties."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import Battle, CombatDie, Modifiers, Side, Unit, parse_battle, resolve_battle
from explorer.games.assault_of_the_giants.battle.battle import joint_points
from explorer.games.assault_of_the_giants.battle.best_summary import best_play_summary, expected_values
from explorer.games.assault_of_the_giants.battle.scenario import battle_to_dict
from explorer.games.assault_of_the_giants.best.play import best_joint
from explorer.games.assault_of_the_giants.rules.model import OBJECTIVES
from tests.games.assault_of_the_giants.best_oracle import brute_best_joint, brute_expected

ROOT = Path(__file__).resolve().parents[3]

faces = st.sampled_from([(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1)])
dice = st.lists(faces, min_size=6, max_size=6).map(tuple)
units = st.builds(Unit, st.sampled_from(["u", "v"]), st.integers(1, 3), st.integers(1, 2), st.integers(0, 3),
                  st.booleans(), st.booleans())


@st.composite
def sides(draw, attacker: bool, policies=("best",), max_dice: int = 2) -> Side:
    first, second = draw(dice), draw(dice)
    n1 = draw(st.integers(0, max_dice))
    n2 = draw(st.integers(0 if n1 else 1, max_dice - n1))
    pool = ((CombatDie("k1", first), n1), (CombatDie("k2", second), n2))
    mods = Modifiers(draw(st.integers(0, 2)), draw(st.integers(0, 2)) if attacker else 0, draw(st.integers(0, 2)))
    return Side(pool, mods, tuple(draw(st.lists(units, max_size=2))),
                npc=draw(st.booleans()), giantslayers=attacker and draw(st.booleans()),
                casualty_order=draw(st.sampled_from(["listed", "fewest-op"])),
                reroll_policy=draw(st.sampled_from(policies)), objective=draw(st.sampled_from(OBJECTIVES)))


def _fast_joint(battle: Battle) -> dict:
    return best_joint(battle).probabilities()


@settings(max_examples=60, deadline=None)
@given(sides(True, ("best",)), sides(False, ("misses", "blanks", "none")))
def test_best_attacker_equals_brute_force(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    assert _fast_joint(battle) == brute_best_joint(battle)
    assert expected_values(battle)["attacker"] == brute_expected(battle, "attacker")


@settings(max_examples=25, deadline=None)
@given(sides(True, ("misses", "blanks", "none")), sides(False, ("best",)))
def test_best_defender_answers_the_attackers_totals_as_brute_force(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    assert _fast_joint(battle) == brute_best_joint(battle)
    assert expected_values(battle)["defender"] == brute_expected(battle, "defender")


@settings(max_examples=30, deadline=None)
@given(sides(True, ("best",), max_dice=2), sides(False, ("best",), max_dice=1))
def test_both_best_equals_brute_force(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    assert _fast_joint(battle) == brute_best_joint(battle)
    for role in ("attacker", "defender"):
        assert expected_values(battle)[role] == brute_expected(battle, role)


def achieved(battle: Battle, role: str) -> Fraction:
    """A side's objective as `resolve_battle` reports the battle (not the search's own bookkeeping)."""
    result = resolve_battle(battle)
    mine, theirs = (result.attacker, result.defender) if role == "attacker" else (result.defender, result.attacker)
    objective = getattr(battle, role).objective
    if objective == "ordning-points":
        return mine.ordning_points.mean()
    if objective == "net-ordning-points":
        return mine.ordning_points.mean() - theirs.ordning_points.mean()
    if objective == "damage":
        return theirs.damage_taken.mean()
    return theirs.wiped_out()


def with_side(battle: Battle, role: str, **changes) -> Battle:
    return replace(battle, **{role: replace(getattr(battle, role), **changes)})


@settings(max_examples=40, deadline=None)
@given(sides(True, ("best",), max_dice=4), sides(False, ("misses", "blanks", "none", "best"), max_dice=3))
def test_a_best_attacker_never_does_worse_than_a_fixed_policy(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    value = achieved(battle, "attacker")
    for policy in ("misses", "blanks", "none"):
        assert value >= achieved(with_side(battle, "attacker", reroll_policy=policy), "attacker")
    assert expected_values(battle)["attacker"][0] == value


@settings(max_examples=30, deadline=None)
@given(sides(True, ("misses", "blanks", "none"), max_dice=3), sides(False, ("best",), max_dice=3))
def test_a_best_defender_never_does_worse_than_a_fixed_policy(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    value = achieved(battle, "defender")
    for policy in ("misses", "blanks", "none"):
        assert value >= achieved(with_side(battle, "defender", reroll_policy=policy), "defender")


@settings(max_examples=25, deadline=None)
@given(sides(True, ("best",), max_dice=3), sides(False, ("best",), max_dice=3))
def test_both_net_is_zero_sum_and_best_beats_fixed_policies(attacker: Side, defender: Side) -> None:
    battle = Battle(replace(attacker, objective="net-ordning-points"), replace(defender, objective="net-ordning-points"))
    values = expected_values(battle)
    assert values["attacker"] == tuple(-v for v in values["defender"])
    assert achieved(battle, "attacker") == values["attacker"][0] == -achieved(battle, "defender")
    for policy in ("misses", "blanks", "none"):
        assert achieved(battle, "defender") >= achieved(with_side(battle, "defender", reroll_policy=policy), "defender")


@settings(max_examples=30, deadline=None)
@given(sides(True, ("best",), max_dice=3), sides(False, ("misses", "best"), max_dice=2), st.integers(0, 2))
def test_more_rerolls_never_lower_the_attackers_best_value(attacker: Side, defender: Side, extra: int) -> None:
    battle = Battle(attacker, defender)
    more = replace(attacker.modifiers, rerolls=attacker.modifiers.rerolls + 1 + extra)
    assert achieved(with_side(battle, "attacker", modifiers=more), "attacker") >= achieved(battle, "attacker")


@settings(max_examples=25, deadline=None)
@given(sides(True, ("misses", "none"), max_dice=3), sides(False, ("best",), max_dice=3))
def test_more_rerolls_never_lower_the_defenders_best_value(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    more = replace(defender.modifiers, rerolls=defender.modifiers.rerolls + 1)
    assert achieved(with_side(battle, "defender", modifiers=more), "defender") >= achieved(battle, "defender")


@settings(max_examples=20, deadline=None)
@given(sides(True, ("best", "misses"), max_dice=3), sides(False, ("best", "blanks"), max_dice=3))
def test_results_follow_the_joint_totals(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    result, points = resolve_battle(battle), joint_points(battle)
    assert points.marginal(0) == result.attacker.ordning_points
    assert points.marginal(1) == result.defender.ordning_points
    from explorer.games.assault_of_the_giants.battle.battle import casualty_table

    for got, side, victor in ((result.attacker, attacker, defender), (result.defender, defender, attacker)):
        table = casualty_table(side, victor, max(got.damage_taken))  # casualties read off the damage taken
        assert got.casualties == got.damage_taken.map(lambda d: table[d])


# --- golden figures: examples/fire-vs-hill.json ---------------------------------------------------

FIRE_VS_HILL = parse_battle(json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text()))


@pytest.mark.parametrize("objective, misses, best", [
    ("ordning-points", 3.6362, 4.2681),
    ("net-ordning-points", 3.2578, 3.7861),
    ("damage", 5.9486, 6.9269),
    ("wipe-out", 0.5904, 0.7638),
])
def test_fire_vs_hill_attacker_best_play(objective: str, misses: float, best: float) -> None:
    battle = with_side(FIRE_VS_HILL, "attacker", reroll_policy="best", objective=objective)
    summary = best_play_summary(battle)["attacker"]
    assert summary["objective"] == objective
    assert summary["misses_value_float"] == pytest.approx(misses, abs=5e-5)
    assert summary["value_float"] == pytest.approx(best, abs=5e-5)
    assert summary["gain"] == summary["value"] - summary["misses_value"] > 0
    assert summary["misses_value"] == achieved(with_side(battle, "attacker", reroll_policy="misses"), "attacker")


def test_fire_vs_hill_matches_the_issue() -> None:
    # Issue 9: best rerolls raise expected Ordning Points by about 17 %, and the chance to wipe out
    # the defender from about 59 % to about 76 %.
    op = best_play_summary(with_side(FIRE_VS_HILL, "attacker", reroll_policy="best"))["attacker"]
    assert 0.165 < op["relative_gain_float"] < 0.175
    wipe = with_side(FIRE_VS_HILL, "attacker", reroll_policy="best", objective="wipe-out")
    assert round(float(resolve_battle(wipe).defender.wiped_out()), 2) == 0.76


def test_fire_vs_hill_both_best_for_net_points() -> None:
    battle = with_side(with_side(FIRE_VS_HILL, "attacker", reroll_policy="best", objective="net-ordning-points"),
                       "defender", reroll_policy="best", objective="net-ordning-points")
    summary = best_play_summary(battle)
    assert summary["attacker"]["value"] == -summary["defender"]["value"]
    assert summary["attacker"]["value_float"] == pytest.approx(3.7071, abs=5e-5)
    # The defender's answers cost the attacker: less than against the defender's fixed "misses".
    assert summary["attacker"]["value"] < best_play_summary(with_side(battle, "defender", reroll_policy="misses"))[
        "attacker"]["value"]


# --- scenario, limits -----------------------------------------------------------------------------

def test_objective_reads_and_round_trips() -> None:
    data = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())
    assert "objective" not in battle_to_dict(parse_battle(data))["attacker"]
    data["attacker"].update(reroll_policy="best", objective="wipe-out")
    battle = parse_battle(data)
    assert (battle.attacker.reroll_policy, battle.attacker.objective) == ("best", "wipe-out")
    assert battle.defender.objective == "ordning-points"
    again = parse_battle(battle_to_dict(battle))
    assert (again.attacker.objective, again.defender.objective) == ("wipe-out", "ordning-points")
    assert battle_to_dict(again) == battle_to_dict(battle)
    data["attacker"]["objective"] = "glory"
    with pytest.raises(ScenarioError) as error:
        parse_battle(data)
    assert error.value.field == "attacker.objective"


def test_a_search_too_big_is_refused_up_front() -> None:
    basic = FIRE_VS_HILL.attacker.pool[0][0]
    huge = with_side(FIRE_VS_HILL, "attacker", reroll_policy="best", pool=((basic, 40),),
                     modifiers=Modifiers(rerolls=12))
    with pytest.raises(ScenarioError) as error:
        resolve_battle(huge)
    assert error.value.field in ("attacker.pool", "attacker.rerolls")
    assert "2 s" in error.value.problem


# --- the roll-once trace --------------------------------------------------------------------------

def test_trace_of_best_play_samples_the_exact_joint() -> None:
    import math
    from collections import Counter

    from explorer.games.assault_of_the_giants.battle.trace import trace_battle

    mystic = CombatDie("mystic", ((0, 0, 0), (0, 0, 1), (0, 0, 1), (0, 0, 2), (2, 0, 0), (1, 1, 0)))
    basic = FIRE_VS_HILL.attacker.pool[0][0]
    units = (Unit("giant", 2, 1, 2), Unit("chief", 3, 2, 3, champion=True))
    battle = Battle(Side(((basic, 2), (mystic, 1)), Modifiers(2, 1, 1), units, reroll_policy="best"),
                    Side(((mystic, 2),), Modifiers(1, 0, 1), units, reroll_policy="best", objective="damage"))
    joint = best_joint(battle)
    samples = 1500
    seen: dict[str, Counter] = {"attacker": Counter(), "defender": Counter()}
    for seed in range(samples):
        for step in trace_battle(battle, seed):
            if step.step == "Totals":
                seen[step.side][(step.data["hits"], step.data["blocks"])] += 1
    for role, index in (("attacker", 0), ("defender", 2)):
        exact = joint.map(lambda t, i=index: (t[i], t[i + 1])).probabilities()
        bad = [k for k in set(seen[role]) | set(exact)
               if abs(seen[role][k] / samples - float(exact.get(k, 0)))
               > 4 * math.sqrt(float(exact.get(k, 0)) * (1 - float(exact.get(k, 0))) / samples) + 1e-9]
        assert not bad, (role, bad)


def test_trace_shows_best_play_next_to_the_choice_made() -> None:
    from explorer.games.assault_of_the_giants.battle.trace import trace_battle

    compared = 0
    for seed in range(40):
        for step in trace_battle(FIRE_VS_HILL, seed):
            if step.step == "2. Rerolls" and "best_value" in step.data:
                assert step.data["best_value"] >= step.data["chosen_value"]
                compared += 1
                if step.data["best_value"] > step.data["chosen_value"]:
                    assert "best play for ordning-points would reroll" in step.text
    assert compared == 80
    steps = trace_battle(FIRE_VS_HILL, 3)
    reroll = next(s for s in steps if s.side == "attacker" and s.step == "2. Rerolls")
    assert reroll.data["rerolled"] == (1, 2) and reroll.data["best_reroll"] == (1, 2, 4)
    assert reroll.data["best_value"] > reroll.data["chosen_value"]


def test_advice_lists_every_choice_best_first_and_agrees_with_the_search() -> None:
    from explorer.games.assault_of_the_giants.best.advice import advise_conversion, advise_reroll

    battle = with_side(FIRE_VS_HILL, "attacker", reroll_policy="best")
    roll = [("basic", (0, 0, 0)), ("basic", (0, 0, 1)), ("basic", (0, 1, 0)), ("basic", (1, 1, 0)),
            ("basic", (2, 0, 0)), ("fire", (1, 0, 1))]
    options = advise_reroll(battle, "attacker", roll)
    # 3 rerolls among 6 distinct dice: every subset of at most 3 of them is a distinct choice.
    assert len(options) == 1 + 6 + 15 + 20
    assert [o.best for o in options].count(True) == 1 and options[0].best
    assert all(a.values >= b.values for a, b in zip(options, options[1:]))
    assert options[0].reroll == (0, 2)  # the blank and the lone block
    # The search's own choice for this roll: the same kept symbols and the same dice rerolled per kind.
    from explorer.games.assault_of_the_giants.best.play import attacker_solution
    from explorer.games.assault_of_the_giants.best.two_rounds import TwoRounds

    solved = attacker_solution(battle).solved
    assert not isinstance(solved, TwoRounds)  # one round of rerolls
    plan = solved.plan
    counts = [[sum(1 for name, f in roll if name == die and f == face) for face in kind.faces]
              for die, kind in zip(("basic", "fire"), plan.kinds)]
    chosen = solved.choice_at(0, plan.roll_states().index(plan.state(counts)))
    H, B, A = plan.dims
    cells = H * B * A
    kept = (chosen % cells // (B * A), chosen % (B * A) // A, chosen % A)
    assert plan.moves[chosen // cells] == (2, 0) and kept == (4, 1, 2)
    splits = advise_conversion(battle, "attacker", (3, 2, 3))
    assert (splits[0].to_hits, splits[0].to_blocks, splits[0].totals) == (3, 0, (9, 2))
    with pytest.raises(ScenarioError):
        advise_reroll(battle, "defender", roll)
    with pytest.raises(ScenarioError):
        advise_reroll(battle, "attacker", roll[:-1])
