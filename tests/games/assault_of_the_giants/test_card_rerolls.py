"""Card rerolls as a second round after the Command rerolls (rulebook p.16; scenario key ``card_rerolls``).

Rulebook p.16 (rules notes §2): the attacker first modifies its dice with its face-up Command
Cards (1: Leader rerolls, 2-3: conversions), and only after using them modifies them further with
Spell or Resource Cards. So a card's reroll is a second round, chosen knowing the first round's
results, and may take a die the Leader rerolled. ``card_rerolls: "with commands"`` keeps the
merged reading (one round, each die once) as an option. The brute force
(`tests.games.assault_of_the_giants.oracle.brute_totals`) lists every face sequence of both rounds.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.errors import ScenarioError
from explorer.core.optional import pure_python
from explorer.games.assault_of_the_giants import (
    Battle,
    BattleCard,
    CombatDie,
    Modifiers,
    Side,
    Unit,
    battle_to_dict,
    parse_battle,
    resolve,
    resolve_battle,
)
from explorer.games.assault_of_the_giants.battle.best_summary import expected_values
from explorer.games.assault_of_the_giants.battle.trace import trace_battle
from explorer.games.assault_of_the_giants.best.advice import advise_reroll
from explorer.games.assault_of_the_giants.best.play import best_joint, clear_caches
from explorer.games.assault_of_the_giants.best.row_advisor import row_options
from explorer.games.assault_of_the_giants.rules.cards import played
from explorer.games.assault_of_the_giants.rules.combat import control_of, reroll_choice, side_totals
from tests.games.assault_of_the_giants.best_oracle import brute_best_joint
from tests.games.assault_of_the_giants.oracle import brute_totals, normalise

HALF = [{"hit": 1}, {}, {"hit": 1}, {}, {"hit": 1}, {}]
"""A die hitting on 3 of its 6 faces (blank on the others)."""


def golden(timing: str | None) -> dict[str, Any]:
    """One such die, 1 Leader reroll (Leader, then Attack: 1 card to its right) and 1 card reroll."""
    attacker: dict[str, Any] = {"pool": {"half": 1}, "commands": ["Leader", "Attack"], "units": [],
                                "cards": [{"name": "Haste", "kind": "spell", "rerolls": 1}]}
    if timing is not None:
        attacker["card_rerolls"] = timing
    return {"game": "assault-of-the-giants", "dice": {"half": HALF}, "attacker": attacker,
            "defender": {"pool": {}, "units": []}}


def test_golden_a_card_reroll_is_a_second_round_seven_in_eight() -> None:
    # p.16: the Leader reroll comes first; the card, played after, may reroll the same die again.
    battle = parse_battle(golden(None))
    assert battle.attacker.card_rerolls == "second round"
    hits = side_totals(battle.attacker).marginal(0)
    assert hits.probability(1) == Fraction(7, 8)
    assert resolve(golden(None)).to_dict()["attacker"]["hits"]["1"] == pytest.approx(7 / 8)


def test_golden_the_merged_option_gives_three_in_four() -> None:
    # One round of 2 rerolls for 1 die: the die is rerolled at most once.
    hits = side_totals(parse_battle(golden("with commands")).attacker).marginal(0)
    assert hits.probability(1) == Fraction(3, 4)


def test_the_option_round_trips_and_a_bad_value_names_the_key() -> None:
    merged = parse_battle(golden("with commands"))
    assert battle_to_dict(merged)["attacker"]["card_rerolls"] == "with commands"
    again = parse_battle(battle_to_dict(merged))
    assert again.attacker.card_rerolls == "with commands" and battle_to_dict(again) == battle_to_dict(merged)
    assert "card_rerolls" not in battle_to_dict(parse_battle(golden(None)))["attacker"]
    with pytest.raises(ScenarioError) as bad:
        parse_battle(golden("later"))
    assert bad.value.field == "attacker.card_rerolls" and '"second round"' in bad.value.problem


def test_the_report_shows_the_ruling_each_side_follows() -> None:
    out = resolve(golden(None)).to_dict()
    assert "second round" in out["provenance"]["card_rerolls"]
    assert any("second round" in r and "card_rerolls" in r for r in out["rulings"])
    merged = resolve(golden("with commands")).to_dict()["provenance"]["card_rerolls"]
    assert merged.startswith("attacker's card rerolls: with the Command rerolls")


# --- brute force on small random sides -------------------------------------------------------

coin = CombatDie("coin", ((1, 0, 0), (0, 0, 1), (0, 0, 0)) * 2)
mixed = CombatDie("mixed", ((0, 1, 0), (2, 0, 0), (0, 0, 2), (0, 0, 0), (1, 1, 0), (0, 0, 1)))


@st.composite
def two_round_sides(draw: st.DrawFn) -> Side:
    """A side with both rounds: Command rerolls 1-2 and cards rerolling 1-2 more."""
    pool = ((coin, draw(st.integers(0, 2))), (mixed, draw(st.integers(0, 1))))
    mods = Modifiers(draw(st.integers(1, 2)), draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    cards = tuple(BattleCard(f"card {i}", "spell", rerolls=draw(st.integers(0, 1)),
                             arcane_to_blocks=draw(st.integers(0, 1)),
                             dice=draw(st.sampled_from([(), ((coin, 1),)]))) for i in range(draw(st.integers(1, 2))))
    return Side(pool, mods, (Unit("a", 2, 1, 1),), reroll_policy=draw(st.sampled_from(["misses", "blanks", "none"])),
                cards=cards, card_rerolls=draw(st.sampled_from(["second round", "with commands"])))


@settings(max_examples=50, deadline=None)
@given(two_round_sides())
def test_both_rounds_equal_the_brute_force(side: Side) -> None:
    assert side_totals(side).probabilities() == normalise(brute_totals(side))


# --- best play: exact for one round and for two --------------------------------------------

def best(timing: str, rerolls: int = 1) -> Battle:
    """A best attacker with a card reroll, against a sure-hit defender."""
    hit = CombatDie("hit", ((1, 0, 0),) * 6)
    attacker = Side(((coin, 1), (mixed, 1)), Modifiers(rerolls, 1, 1), (Unit("a", 2, 1, 2),), reroll_policy="best",
                    objective="net-ordning-points", cards=(BattleCard("Haste", "spell", rerolls=1),),
                    card_rerolls=timing)  # type: ignore[arg-type]
    defender = Side(((hit, 1),), Modifiers(), (Unit("d", 2, 1, 1), Unit("e", 1, 1, 1)))
    return Battle(attacker, defender)


def _nothing() -> Any:
    import contextlib
    return contextlib.nullcontext()


@pytest.mark.parametrize("rerolls", [1, 2])
@pytest.mark.parametrize("pure", [False, True])
def test_best_play_with_two_rounds_equals_the_brute_force(pure: bool, rerolls: int) -> None:
    # The second round is chosen knowing the first's results (p.16): the brute force lists both.
    battle = best("second round", rerolls)
    expected = brute_best_joint(battle)
    clear_caches()
    with pure_python() if pure else _nothing():
        assert best_joint(battle).probabilities() == expected
        assert resolve_battle(battle).attacker.totals.probabilities() == {
            (h, b): sum((p for (ha, ba, _, _), p in expected.items() if (ha, ba) == (h, b)), Fraction(0))
            for h, b in {(k[0], k[1]) for k in expected}}
    clear_caches()


def test_two_rounds_beat_one_merged_round_here() -> None:
    # Golden, by hand: one half die, a Leader reroll then a card reroll: 7/8 hits with two rounds
    # (rerolled twice if needed), 3/4 with one merged round (each die once).
    two, merged = parse_battle(golden(None)), parse_battle(golden("with commands"))
    best_two = replace(two, attacker=replace(two.attacker, reroll_policy="best", objective="damage"))
    best_merged = replace(merged, attacker=replace(merged.attacker, reroll_policy="best", objective="damage"))
    clear_caches()
    assert best_joint(best_two).probabilities()[(1, 0, 0, 0)] == Fraction(7, 8)
    assert best_joint(best_merged).probabilities()[(1, 0, 0, 0)] == Fraction(3, 4)


@pytest.mark.parametrize("pure", [False, True])
def test_the_advisor_gives_both_rounds(pure: bool) -> None:
    # First round: rerolling the blank coin is worth 14/9 net points with the second round played
    # best after it; second round on the dice as they lie: the one-round values (brute force below).
    battle = best("second round")
    roll = [("coin", (0, 0, 0)), ("mixed", (0, 0, 2))]
    clear_caches()
    with pure_python() if pure else _nothing():
        first = advise_reroll(battle, "attacker", roll)
        second = advise_reroll(battle, "attacker", roll, second_round=True)
        with pytest.raises(ScenarioError) as refused:
            advise_reroll(replace(battle, attacker=replace(battle.attacker, card_rerolls="with commands")),
                          "attacker", roll, second_round=True)
    assert [(a.reroll, a.value) for a in first] == [((0,), Fraction(14, 9)), ((), Fraction(4, 3)),
                                                    ((1,), Fraction(19, 18))]
    assert [(a.reroll, a.value) for a in second] == [((0,), Fraction(4, 3)), ((), Fraction(1)), ((1,), Fraction(1, 2))]
    assert refused.value.field == "second_round"
    clear_caches()


def test_a_row_advisor_for_best_play_with_two_rounds_answers() -> None:
    battle = best("second round")
    battle = replace(battle, attacker=replace(battle.attacker, commands=("Leader", "Attack")))
    options = row_options(battle, ["Magic"], objective="damage", most=1)
    assert options


@pytest.mark.parametrize("timing,rerolls", [("with commands", 1), ("second round", 0), ("with commands", 0)])
def test_best_play_with_one_round_equals_the_brute_force_in_both_engines(timing: str, rerolls: int) -> None:
    # No Command rerolls: the card's round is the only one, whatever the option.
    battle = best(timing, rerolls)
    expected = brute_best_joint(battle)
    clear_caches()
    assert best_joint(battle).probabilities() == expected
    clear_caches()
    with pure_python():
        assert best_joint(battle).probabilities() == expected
    clear_caches()


def test_best_play_is_never_worse_than_a_fixed_policy_in_one_round() -> None:
    battle = best("with commands")
    top = expected_values(battle)["attacker"]
    for policy in ("misses", "blanks", "none"):
        fixed = replace(battle, attacker=replace(battle.attacker, reroll_policy=policy))
        assert top[0] >= expected_values(fixed)["attacker"][0], policy


# --- the trace ------------------------------------------------------------------------------

def test_the_trace_shows_both_rounds_the_second_on_the_dice_as_they_lie() -> None:
    data = copy.deepcopy(golden(None))
    data["attacker"]["pool"] = {"half": 3}
    battle = parse_battle(data)
    side = played(battle.attacker)
    seen_again = False
    for seed in range(40):
        steps = [s for s in trace_battle(battle, seed) if s.side == "attacker"]
        first, second = steps[1], steps[2]
        assert (first.step, second.step) == ("2. Rerolls", "2. Rerolls (cards, second round)")
        assert second.page == "rulebook p.16" and second.data["round"] == 2
        assert first.data["after"] == second.data["before"] and first.data["rerolls"] == 1
        controls = [tuple(sum(control_of(f)[j] for f in second.data["before"]) for j in range(3))]
        wanted, _ = reroll_choice("misses", controls, 0, replace(side.modifiers, rerolls=1), [0])
        assert len(second.data["rerolled"]) == wanted[0]
        assert next(s for s in steps if s.step == "Totals").data["faces"] == second.data["after"]
        seen_again |= bool(set(first.data["rerolled"]) & set(second.data["rerolled"]))
        if set(first.data["rerolled"]) & set(second.data["rerolled"]):
            assert ", again)" in second.text
    assert seen_again  # some seed rerolls the Leader's die again


def test_the_trace_of_best_play_shows_both_rounds_each_the_advisors_choice() -> None:
    # A best attacker: the first round's dice are the advisor's first-round choice for the roll, the
    # second round's its second-round choice for the dice as they then lie (chosen knowing them, p.16).
    battle = best("second round")
    names = [die.name for die, n in played(battle.attacker).pool for _ in range(n)]
    for seed in range(12):
        steps = [s for s in trace_battle(battle, seed) if s.side == "attacker"]
        first, second = steps[1], steps[2]
        assert second.step == "2. Rerolls (cards, second round)" and second.data["policy"] == "best"
        top = advise_reroll(battle, "attacker", list(zip(names, first.data["before"])))[0]
        assert tuple(first.data["rerolled"]) == top.reroll
        again = advise_reroll(battle, "attacker", list(zip(names, second.data["before"])), second_round=True)[0]
        assert tuple(second.data["rerolled"]) == again.reroll == second.data["best_reroll"]
        assert second.data["best_exact"] == str(again.value) and "best play for net-ordning-points" in second.text


def test_the_trace_keeps_one_round_with_the_merged_option() -> None:
    steps = trace_battle(parse_battle(golden("with commands")), 3)
    assert not any(s.step == "2. Rerolls (cards, second round)" for s in steps)
    assert next(s for s in steps if s.step == "2. Rerolls").data["rerolls"] == 2


@st.composite
def reroll_battles(draw: st.DrawFn) -> tuple[Battle, str]:
    """A best attacker whose cards reroll with the Commands' or after them (one round or two), and a
    fixed policy to compare."""
    pool = ((coin, draw(st.integers(0, 2))), (mixed, draw(st.integers(0, 1))))
    cards = (BattleCard("card", "spell", rerolls=draw(st.integers(0, 1)), arcane_to_hits=draw(st.integers(0, 1))),)
    attacker = Side(pool, Modifiers(draw(st.integers(0, 1)), 0, draw(st.integers(0, 1))), (Unit("a", 2, 1, 2),),
                    reroll_policy="best", objective=draw(st.sampled_from(["ordning-points", "damage", "wipe-out"])),
                    cards=cards, card_rerolls=draw(st.sampled_from(["with commands", "second round"])))
    defender = Side(((mixed, draw(st.integers(0, 1))),), Modifiers(1, 0, 0), (Unit("d", 2, 1, 1), Unit("e", 1, 1, 2)))
    return Battle(attacker, defender), draw(st.sampled_from(["misses", "blanks", "none"]))


@settings(max_examples=25, deadline=None)
@given(reroll_battles())
def test_best_play_is_never_worse_than_any_fixed_policy(case: tuple[Battle, str]) -> None:
    battle, policy = case
    fixed = replace(battle, attacker=replace(battle.attacker, reroll_policy=policy))
    assert expected_values(battle)["attacker"][0] >= expected_values(fixed)["attacker"][0]
