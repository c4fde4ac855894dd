"""Best play with two rounds of rerolls (rulebook p.16): the Command rerolls, then the cards', chosen
knowing the first round's results, against the brute force (`best_oracle.best_side`: every die one by
one, every subset of each round, every fresh face, Fractions), in both engines.
"""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import ScenarioError
from explorer.core.optional import pure_python
from explorer.games.assault_of_the_giants import BattleCard, CombatDie, Modifiers, Side, Unit
from explorer.games.assault_of_the_giants.battle.best_summary import expected_values
from explorer.games.assault_of_the_giants.best.costs import battle_costs, rounds_of, search_seconds
from explorer.games.assault_of_the_giants.best.play import best_joint, best_result, clear_caches
from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
from explorer.games.assault_of_the_giants.rules.model import Battle
from tests.games.assault_of_the_giants.best_oracle import brute_best_joint, brute_expected

coin = CombatDie("coin", ((1, 0, 0), (0, 0, 1), (0, 0, 0)) * 2)
mixed = CombatDie("mixed", ((0, 1, 0), (2, 0, 0), (0, 0, 2), (0, 0, 0), (1, 1, 0), (0, 0, 1)))
half = CombatDie("half", ((1, 0, 0), (0, 0, 0)) * 3)


@st.composite
def two_round_sides(draw: st.DrawFn, policy: str = "best") -> Side:
    """A side with Command rerolls 1-2 and cards rerolling 1-2 more in a second round, 1-3 dice in all
    (the card's die included: a fourth die makes one brute force take over a minute)."""
    pool = ((coin, draw(st.integers(0, 2))), (mixed, draw(st.integers(0, 1))))
    if not sum(n for _, n in pool):
        pool = ((coin, 1), (mixed, 0))
    card_dice = draw(st.sampled_from([(), ((half, 1),)])) if sum(n for _, n in pool) < 3 else ()
    cards = (BattleCard("Haste", "spell", rerolls=draw(st.integers(1, 2)), arcane_to_blocks=draw(st.integers(0, 1)),
                        hits=draw(st.integers(0, 1)), dice=card_dice),)
    mods = Modifiers(draw(st.integers(1, 2)), draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    units = (Unit("a", 2, 1, 2), Unit("b", 1, 1, 1))
    objective = draw(st.sampled_from(["ordning-points", "net-ordning-points", "damage", "wipe-out"]))
    return Side(pool, mods, units, reroll_policy=policy, objective=objective, cards=cards)  # type: ignore[arg-type]


def _engines() -> list[object]:
    return [nullcontext, pure_python]


@settings(max_examples=12, deadline=None)
@given(two_round_sides(), st.integers(0, 1))
def test_a_best_attacker_with_two_rounds_equals_the_brute_force(attacker: Side, defender_dice: int) -> None:
    assert rounds_of(attacker)[1]
    defender = Side(((mixed, defender_dice),), Modifiers(1, 0, 0), (Unit("d", 2, 1, 1), Unit("e", 1, 1, 2)))
    battle = Battle(attacker, defender)
    expected = brute_best_joint(battle)
    for engine in _engines():
        clear_caches()
        with engine():  # type: ignore[operator]
            assert best_joint(battle).probabilities() == expected
    clear_caches()


@settings(max_examples=12, deadline=None)
@given(two_round_sides(), st.sampled_from(["misses", "best"]), st.integers(0, 1))
def test_a_best_defender_with_two_rounds_equals_the_brute_force(defender: Side, attacker_policy: str,
                                                                 attacker_dice: int) -> None:
    attacker = Side(((mixed, attacker_dice), (half, 1)), Modifiers(1, 0, 0), (Unit("x", 2, 1, 2),),
                    reroll_policy=attacker_policy, objective="net-ordning-points")  # type: ignore[arg-type]
    defender = replace(defender, pool=defender.pool[:1] if sum(n for _, n in defender.pool) > 2 else defender.pool)
    battle = Battle(attacker, defender)
    expected = brute_best_joint(battle)
    for engine in _engines():
        clear_caches()
        with engine():  # type: ignore[operator]
            assert best_joint(battle).probabilities() == expected
            result = best_result(battle)
            assert result.defender.totals.probabilities() == _marginal(expected, 2)
    clear_caches()


def _marginal(joint: dict[tuple[int, int, int, int], Fraction], at: int) -> dict[tuple[int, int], Fraction]:
    out: dict[tuple[int, int], Fraction] = {}
    for k, p in joint.items():
        key = (k[at], k[at + 1])
        out[key] = out.get(key, Fraction(0)) + p
    return out


@settings(max_examples=8, deadline=None)
@given(two_round_sides(), st.sampled_from(["misses", "blanks", "none"]))
def test_best_play_with_two_rounds_is_never_worse_than_a_fixed_policy(attacker: Side, policy: str) -> None:
    # Each fixed policy plays both rounds too (its policy applied again, p.16): best play may do as it does.
    defender = Side(((mixed, 1),), Modifiers(1, 0, 0), (Unit("d", 2, 1, 1), Unit("e", 1, 1, 2)))
    battle = Battle(attacker, defender)
    fixed = replace(battle, attacker=replace(attacker, reroll_policy=policy))  # type: ignore[arg-type]
    clear_caches()
    top = expected_values(battle)["attacker"]
    assert top[0] >= expected_values(fixed)["attacker"][0]
    assert tuple(top) == brute_expected(battle, "attacker")
    clear_caches()


def test_the_second_round_may_reroll_a_die_the_first_rerolled() -> None:
    # Golden, by hand: one half die, 1 Command reroll, 1 card reroll, objective damage: a miss is
    # rerolled, and if the reroll misses again, rerolled again: hits 1 - (1/2)^3 = 7/8.
    die_card = BattleCard("Haste", "spell", rerolls=1)
    atk = Side(((half, 1),), Modifiers(rerolls=1), (), reroll_policy="best", objective="damage", cards=(die_card,))
    dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    for engine in _engines():
        clear_caches()
        with engine():  # type: ignore[operator]
            assert best_joint(Battle(atk, dfn)).probabilities()[(1, 0, 0, 0)] == Fraction(7, 8)
    clear_caches()


def test_a_two_round_search_too_big_is_refused_before_it_runs() -> None:
    # 9 basic dice with 3 Command rerolls and 3 card rerolls: the first round alone has thousands of
    # kept multisets per context; the estimate names an input and no search starts.
    card = BattleCard("Haste", "spell", rerolls=3)
    atk = Side(((DEFAULT_DICE["basic"], 9),), Modifiers(rerolls=3), (), reroll_policy="best", cards=(card,))
    dfn = Side(((DEFAULT_DICE["basic"], 9),), Modifiers(rerolls=3), (Unit("g", 3, 1, 2),), reroll_policy="best",
               cards=(card,))
    assert search_seconds(atk, 1) > search_seconds(replace(atk, card_rerolls="with commands"), 1) / 10
    with pytest.raises(ScenarioError) as refused:
        battle_costs(Battle(atk, dfn))
    assert refused.value.field.startswith("defender.")
