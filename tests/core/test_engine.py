"""The count engine (`explorer.core.engine.roll`) against the plain multiset engine and brute force, and its limits.

Not timed: the benchmarks (`benchmarks/run.py`) time it. A regression pin, not a reference: the
answers of the Assault of the Giants resolver on the examples (and variants), as the engine
before the count engine gave them (tests/core/aotg_regression_pin.json), must not change. Their
rightness rests on the oracles and rulebook cases elsewhere, not on this file.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.dist import Dist
from explorer.core.engine import (
    NO_REROLLS,
    REROLL_BLANKS,
    Conversion,
    CountPolicy,
    Pass,
    by_worth,
    clear_caches,
    roll_counts,
)
from explorer.core.engine import dp as count_dp
from explorer.core.engine import plan as count_plan
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import CombatDie, Modifiers, Side, resolve_battle, side_totals
from explorer.games.assault_of_the_giants.battle.battle import joint_points
from explorer.games.assault_of_the_giants.battle.lab import AssaultLabEngine
from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
from explorer.games.assault_of_the_giants.rules.casualties import best_orders
from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE, MAX_DICE_PER_SIDE
from explorer.games.assault_of_the_giants.rules.model import Unit
from tests.core.count_oracle import brute_counts
from tests.core.dice_oracle import Die, Face
from tests.core.pool_oracle import roll_multisets, roll_pool
from tests.games.assault_of_the_giants.pool_oracle import side_as_pool

SYMBOLS = ("hit", "block", "arcane", "crit")
FACES = [(0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 2, 0), (1, 0, 0, 0), (0, 1, 0, 0), (1, 0, 1, 0), (2, 0, 0, 0),
         (0, 0, 0, 1), (1, 0, 0, 1), (0, 0, 1, 1), (0, 2, 1, 0)]
PIN = Path(__file__).parent / "aotg_regression_pin.json"
"""Answers recorded once, to catch any change (a regression pin: see the module)."""

faces = st.lists(st.sampled_from(FACES), min_size=2, max_size=6).map(tuple)
conversions = st.lists(st.builds(Conversion, st.sampled_from(SYMBOLS),
                                 st.sampled_from([(("hit", 2),), (("block", 1),), (("arcane", 1),), ()]),
                                 st.integers(0, 5)), max_size=3)
reports = st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=4, unique=True).map(tuple)


@st.composite
def policies(draw) -> CountPolicy:
    """Passes over distinct faces, each maybe guarded by a symbol it shows; kinds listed or by worth."""
    chosen = draw(st.lists(st.sampled_from(FACES[:3] + FACES[7:8] + FACES[9:10]), max_size=3, unique=True))
    passes = []
    for face in chosen:
        shown = [s for s, c in zip(SYMBOLS, face) if c]
        guard = draw(st.sampled_from([None] + shown))
        passes.append(Pass(tuple((s, c) for s, c in zip(SYMBOLS, face) if c), guard))
    return CountPolicy(tuple(passes), draw(st.sampled_from([None, by_worth])))


@st.composite
def pools(draw, most: int) -> list[tuple[tuple[tuple[int, ...], ...], int]]:
    kinds, left = [], most
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(0, left))
        left -= n
        kinds.append((draw(faces), n))
    return kinds


@settings(max_examples=250, deadline=None)
@given(pools(3), st.integers(0, 4), policies(), conversions, reports)
def test_count_engine_equals_brute_force(pool, rerolls, policy, convs, report) -> None:
    fast = roll_counts(pool, SYMBOLS, rerolls=rerolls, policy=policy, conversions=convs, report=report)
    assert fast == brute_counts(pool, SYMBOLS, rerolls, policy, convs, report)


def _dice(pool) -> list[tuple[Die, int]]:
    return [(Die(f"k{i}", tuple(Face.from_mapping(dict(zip(SYMBOLS, f))) for f in fs)), n)
            for i, (fs, n) in enumerate(pool)]


@settings(max_examples=150, deadline=None)
@given(pools(5), st.integers(0, 5), policies(), conversions)
def test_count_engine_equals_the_plain_multiset_engine(pool, rerolls, policy, convs) -> None:
    """Same pool, same policy: on counts (roll_pool) and read on every multiset of faces."""
    fast = roll_pool(_dice(pool), SYMBOLS, rerolls=rerolls, policy=policy, conversions=convs)
    assert fast == roll_multisets(_dice(pool), SYMBOLS, rerolls=rerolls, policy=policy, conversions=convs)


@settings(max_examples=80, deadline=None)
@given(pools(4), st.integers(0, 4), policies(), conversions, reports)
def test_every_path_of_the_engine_agrees(pool, rerolls, policy, convs, report) -> None:
    """The per-state Horner run, the explicit path and the Horner path give the same result."""
    import dataclasses

    expected = brute_counts(pool, SYMBOLS, rerolls, policy, convs, report)
    original_layout, original_big = count_plan._layout, count_dp.BIG_PAYLOAD_BITS
    try:
        count_dp.BIG_PAYLOAD_BITS = 0
        clear_caches()
        assert roll_counts(pool, SYMBOLS, rerolls=rerolls, policy=policy, conversions=convs, report=report) == expected
        count_dp.BIG_PAYLOAD_BITS = original_big
        count_plan._layout = lambda *a: dataclasses.replace(original_layout(*a), last=None, split=max(0, len(a[2]) - 1))
        clear_caches()
        assert roll_counts(pool, SYMBOLS, rerolls=rerolls, policy=policy, conversions=convs, report=report) == expected
    finally:
        count_plan._layout, count_dp.BIG_PAYLOAD_BITS = original_layout, original_big
        clear_caches()


sides = st.builds(
    lambda a, b, na, nb, r, th, tb, policy: Side(((CombatDie("a", a), na), (CombatDie("b", b), nb)),
                                                 Modifiers(r, th, tb), (), reroll_policy=policy),
    st.lists(st.sampled_from([f[:3] for f in FACES]), min_size=6, max_size=6).map(tuple),
    st.sampled_from(list(DEFAULT_DICE.values())).map(lambda d: d.faces),
    st.integers(0, 4), st.integers(0, 2), st.integers(0, 4), st.integers(0, 3), st.integers(0, 3),
    st.sampled_from(["misses", "blanks", "none"]))


@settings(max_examples=80, deadline=None)
@given(sides)
def test_aotg_side_equals_the_plain_engine_with_the_rules_read_die_by_die(side: Side) -> None:
    """side_totals (count engine) against roll_multisets with `reroll_choice` (the game's own rule code)."""
    plain = roll_multisets(**side_as_pool(side, faces=True)).map(lambda v: (v[0], v[1]))
    assert side_totals(side) == plain


def _dist(d: Dist) -> dict:
    return {"cut": d.cut, "weights": sorted([[repr(o), w] for o, w in d.items()])}


@pytest.mark.parametrize("name", sorted(json.loads(PIN.read_text())["cases"]))
def test_aotg_answers_are_unchanged(name: str) -> None:
    """Examples and variants (14 dice, six kinds, custom dice, NPC): exact answers as before the engine."""
    entry = json.loads(PIN.read_text())["cases"][name]
    battle = parse_battle(entry["scenario"])
    result = resolve_battle(battle)
    for role in ("attacker", "defender"):
        side = getattr(result, role)
        for quantity in ("totals", "damage_taken", "ordning_points", "resource_cards"):
            assert _dist(getattr(side, quantity)) == entry[role][quantity], (role, quantity)
        assert _dist(side.casualties.map(lambda c: tuple(s.value for s in c))) == entry[role]["casualties"]
    assert _dist(joint_points(battle)) == entry["joint_points"]


def _old_best_order(units, damage, concede):
    """The order search before the engine work (frozensets, one memo per damage): the reference."""
    from functools import lru_cache

    from explorer.games.assault_of_the_giants.rules.casualties import _start, absorb  # noqa: PLC2701
    from explorer.games.assault_of_the_giants.rules.model import Status

    champions = frozenset(i for i, u in enumerate(units) if u.champion)
    statuses = tuple(_start(units))

    @lru_cache(maxsize=None)
    def best(remaining, left):
        if left <= 0 or not remaining:
            return (0, 0)
        pool = (remaining & champions) or remaining
        return min(score(i, remaining, left) for i in pool)

    def score(i, remaining, left):
        status, rest = absorb(units[i], statuses[i], left)
        defeated = status is Status.DEFEATED
        later = best(remaining - {i}, rest)
        return (later[0] + (concede[i] if defeated else 0), later[1] + defeated)

    order, remaining, left = [], frozenset(range(len(units))), damage
    while left > 0 and remaining:
        pool = (remaining & champions) or remaining
        target = best(remaining, left)
        pick = min(i for i in pool if score(i, remaining, left) == target)
        order.append(pick)
        _, left = absorb(units[pick], statuses[pick], left)
        remaining = remaining - {pick}
    return tuple(order)


units = st.builds(Unit, st.sampled_from(["u"]), st.integers(1, 4), st.integers(1, 3), st.integers(0, 4),
                  st.booleans(), st.booleans())


@settings(max_examples=25, deadline=None)
@given(st.lists(units, min_size=7, max_size=9), st.data())
def test_fewest_op_orders_from_the_numpy_table_equal_the_old_search(army, data) -> None:
    """From 8 units the values come from a numpy table; both paths equal the search they replace."""
    concede = tuple(data.draw(st.integers(0, 4)) for _ in army)
    most = sum(u.current_fortitude for u in army) + 1
    fast = best_orders(tuple(army), concede, most)
    assert fast == [_old_best_order(tuple(army), d, concede) for d in range(most + 1)]


def test_floats_of_a_60_dice_answer_are_within_1e12_of_the_exact_ones() -> None:
    """The only float path: probabilities turned into floats for charts and JSON."""
    totals = side_totals(Side(((DEFAULT_DICE["basic"], 59), (DEFAULT_DICE["fire"], 1)), Modifiers(5, 2, 2), ()))
    exact = totals.probabilities()
    floats = totals.floats()
    assert max(abs(Fraction(floats[o]) - p) for o, p in exact.items()) < Fraction(1, 10**12)
    assert math.isclose(sum(floats.values()), 1.0, abs_tol=1e-12)


def test_sixty_dice_a_side_are_accepted_and_sixty_one_refused_with_the_limit_named() -> None:
    assert MAX_DICE_PER_SIDE == 60
    scenario = {"game": "assault-of-the-giants", "attacker": {"pool": {"basic": 59, "fire": 1}, "units": []},
                "defender": {"pool": {"basic": 60}, "units": [{"fortitude": 3, "ordning_value": 1}]}}
    report = resolve_battle(parse_battle(scenario))
    # The one defending unit (Fortitude 3, Ordning Value 1) falls exactly when it takes 3 damage or more.
    assert report.attacker.ordning_points.probability(1) == report.defender.damage_taken.at_least(3) > 0
    scenario["attacker"]["pool"]["basic"] = 60
    with pytest.raises(ScenarioError, match=r"^attacker\.pool: at most 60 dice per side, got 61"):
        parse_battle(scenario)


def test_the_dice_lab_takes_sixty_dice() -> None:
    lab = AssaultLabEngine()
    assert lab.max_dice == 60
    result = lab.compute({"basic": 58, "storm": 2}, {}, {"rerolls": 5, "arcane_to_hits": 2}, "misses")
    side = Side(((DEFAULT_DICE["basic"], 58), (DEFAULT_DICE["storm"], 2)), Modifiers(5, 2, 0), ())
    assert result["hits"] == side_totals(side).marginal(0)  # the lab's pool path and a battle side's agree
    with pytest.raises(ScenarioError, match="at most 60 dice"):
        lab.compute({"basic": 61}, {}, {}, "misses")


def test_a_request_too_costly_is_refused_up_front_naming_the_field() -> None:
    pool = {name: 10 for name in ("basic", "hill", "stone", "frost", "fire", "cloud")}
    scenario = {"game": "assault-of-the-giants", "attacker": {"pool": pool, "rerolls": 20, "arcane_to_blocks": 3,
                                                               "units": []},
                "defender": {"pool": {"basic": 1}, "units": []}}
    with pytest.raises(ScenarioError, match=r"^attacker\.(rerolls|pool): too big for the exact engine"):
        resolve_battle(parse_battle(scenario))


def test_a_runaway_request_is_stopped_by_the_meter(monkeypatch) -> None:
    """If the estimate lets something through that grows too big, the running engine refuses it."""
    monkeypatch.setattr(count_dp, "METER_LIMIT", 0.0)
    clear_caches()
    with pytest.raises(ScenarioError, match=r"^(pool|rerolls): too big for the exact engine \(stopped"):
        roll_counts([(DEFAULT_DICE["basic"].faces, 12), (DEFAULT_DICE["frost"].faces, 6)], ("hit", "block", "arcane"),
                    rerolls=4, policy=REROLL_BLANKS, report=("hit",))
    clear_caches()


def test_count_policies_check_their_passes() -> None:
    with pytest.raises(ValueError, match="guarded by 'arcane'"):
        Pass((("hit", 1),), guard="arcane")
    with pytest.raises(ValueError, match="different face"):
        CountPolicy((Pass(), Pass()))


def test_no_dice_and_no_rerolls() -> None:
    assert roll_counts([], ("hit",)) == Dist.single((0,))
    assert roll_counts([(((1,), (0,)), 0)], ("hit",), rerolls=3, policy=REROLL_BLANKS) == Dist.single((0,))
    coin = ((1,), (0,))
    assert roll_counts([(coin, 3)], ("hit",), policy=NO_REROLLS) == Dist({(0,): 1, (1,): 3, (2,): 3, (3,): 1})
