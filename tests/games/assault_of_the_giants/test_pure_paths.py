"""The pure-Python paths give exactly the numpy paths' answers: best play, its advisors, casualty tables.

Each case is computed twice in one process, every cache cleared before each: once with numpy
(where it is installed), once under `explorer.core.optional.pure_python`, and the reports
(``to_dict()``) or answers are compared whole. Without numpy there is nothing to compare with:
the module is skipped (the other tests then run the pure paths on their own).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from copy import deepcopy
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer
from explorer.core.optional import accelerator, pure_python
from explorer.games.assault_of_the_giants import Battle, CombatDie, Modifiers, Side, Unit, parse_battle
from explorer.games.assault_of_the_giants.battle import best_summary
from explorer.games.assault_of_the_giants.best import advice
from explorer.games.assault_of_the_giants.best import play as best
from explorer.games.assault_of_the_giants.best.row_advisor import row_options
from explorer.games.assault_of_the_giants.rules import casualties, outcome
from explorer.games.assault_of_the_giants.rules.model import OBJECTIVES

pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[3]
T = TypeVar("T")


def _fresh() -> None:
    """Forget every cached answer on the way, so each path computes the case itself."""
    best.clear_caches()
    best_summary._summary.cache_clear()
    outcome._casualty_table.cache_clear()
    casualties._values.cache_clear()


def both(compute: Callable[[], T]) -> tuple[T, T]:
    """`compute` with numpy, then on the pure-Python paths."""
    _fresh()
    assert accelerator("numpy") is not None
    fast = compute()
    _fresh()
    with pure_python():
        assert best.chosen_engine() is not best.play_numpy
        pure = compute()
    _fresh()
    return fast, pure


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "examples" / name).read_text())
    return data


def _set(data: dict[str, Any], role: str, **keys: Any) -> dict[str, Any]:
    data = deepcopy(data)
    data[role].update(keys)
    return data


FIRE = _example("fire-vs-hill.json")
MYSTIC = [{}, {"arcane": 1}, {"arcane": 1}, {"arcane": 2}, {"hit": 2}, {"hit": 1, "block": 1}]

SCENARIOS = {
    "attacker best, ordning points": _set(FIRE, "attacker", reroll_policy="best"),
    "defender best, damage": _set(FIRE, "defender", reroll_policy="best", objective="damage"),
    "both best, net points": _set(_set(FIRE, "attacker", reroll_policy="best", objective="net-ordning-points"),
                                  "defender", reroll_policy="best", objective="net-ordning-points"),
    "both best, wipe-out against ordning points": _set(_set(FIRE, "attacker", reroll_policy="best",
                                                            objective="wipe-out"), "defender", reroll_policy="best"),
    "defender best with conversions and cards": _set(
        _set(FIRE, "defender", reroll_policy="best", objective="net-ordning-points", rerolls=2, arcane_to_blocks=2,
             cards=[{"name": "Shield", "kind": "spell", "blocks": 1, "dice": {"basic": 1}}]),
        "attacker", reroll_policy="blanks"),
    "attacker best with a card's dice and rerolls, fewest-op champions": _set(
        _set(FIRE, "attacker", reroll_policy="best", objective="damage", card_rerolls="with commands",
             cards=[{"name": "Fireball", "kind": "spell", "hits": 1, "rerolls": 1, "dice": {"basic": 1}}]),
        "defender", casualty_order="fewest-op",
        units=[{"name": "Chief", "fortitude": 4, "wounded_fortitude": 3, "champion": True, "ordning_value": 3},
               {"name": "Guard", "fortitude": 2, "wounded_fortitude": 1, "wounded": True, "ordning_value": 1},
               {"name": "Guard 2", "fortitude": 2, "wounded_fortitude": 1, "ordning_value": 1}]),
    "both best, mystic dice, no rerolls left for the defender": _set(
        _set(dict(FIRE, dice={**FIRE["dice"], "mystic": MYSTIC}), "attacker", reroll_policy="best",
             pool={"basic": 2, "mystic": 2}),
        "defender", reroll_policy="best", objective="wipe-out", pool={"mystic": 2}, rerolls=0),
    "giantslayers attack a best defender": _set(
        _set(FIRE, "attacker", giantslayers=True, commands=[], rerolls=1, units=[], race=None),
        "defender", reroll_policy="best", objective="net-ordning-points"),
    "npc defenders, attacker best for net points": _set(
        _set(FIRE, "attacker", reroll_policy="best", objective="net-ordning-points"), "defender", npc=True,
        commands=[], player=None),
}


def _clean(data: dict[str, Any]) -> dict[str, Any]:
    for role in ("attacker", "defender"):
        data[role] = {k: v for k, v in data[role].items() if v is not None}
    return data


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_best_play_reports_are_the_same_without_numpy(name: str) -> None:
    scenario = _clean(SCENARIOS[name])
    fast, pure = both(lambda: explorer.resolve(scenario).to_dict())
    assert pure == fast
    assert any("best_play" in fast[role] for role in ("attacker", "defender"))
    fast_text, pure_text = both(lambda: explorer.resolve(scenario).to_text())
    assert pure_text == fast_text


@pytest.mark.parametrize("name", ["aotg-row-advisor.json", "aotg-plan.json", "fire-vs-hill.json"])
def test_the_examples_with_best_play_everywhere_are_the_same_without_numpy(name: str) -> None:
    scenario = _example(name)
    for side in [f for f in scenario.get("plan", [])] + [scenario]:
        for role in ("attacker", "defender"):
            if role in side:
                side[role]["reroll_policy"] = "best"
    fast, pure = both(lambda: explorer.resolve(scenario).to_dict())
    assert pure == fast


def test_the_row_advisor_is_the_same_without_numpy() -> None:
    battle = parse_battle(_clean(SCENARIOS["both best, net points"]))
    start = Battle(Side(battle.attacker.pool, battle.attacker.modifiers, battle.attacker.units,
                        reroll_policy="best", objective="net-ordning-points", commands=("Move",)), battle.defender)
    fast, pure = both(lambda: row_options(start, ["Leader", "Magic", "Trade"], most=2))
    assert pure == fast and len(fast) > 2


def _rolls(side: Side) -> list[list[tuple[str, tuple[int, int, int]]]]:
    dice = [die for die, n in side.pool for _ in range(n)]
    return [[(d.name, d.faces[(seed * 7 + 3 * i) % len(d.faces)]) for i, d in enumerate(dice)] for seed in range(6)]


@pytest.mark.parametrize("name", ["both best, net points", "defender best with conversions and cards",
                                  "attacker best with a card's dice and rerolls, fewest-op champions"])
def test_the_advisors_are_the_same_without_numpy(name: str) -> None:
    battle = parse_battle(_clean(SCENARIOS[name]))
    from explorer.games.assault_of_the_giants.rules.cards import played

    def advise() -> list[Any]:
        out: list[Any] = []
        totals = advice.contexts_totals(battle)
        for role, given_totals in (("attacker", None), ("defender", max(totals)), ("defender", min(totals))):
            side = played(getattr(battle, role))
            for roll in _rolls(side):
                out.append(advice.advise_reroll(battle, role, roll, attacker_totals=given_totals))
            for symbols in ((0, 0, 0), (1, 1, 1), (2, 0, 2)):
                out.append(advice.advise_conversion(battle, role, symbols, attacker_totals=given_totals))
            out.append(advice.reroll_habits(battle, role, attacker_totals=given_totals))
        out.append(advice.reroll_habits(battle, "defender"))
        return out

    fast, pure = both(advise)
    assert pure == fast


faces = st.sampled_from([(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0), (2, 0, 0), (0, 1, 0), (1, 1, 0), (1, 0, 1)])
units = st.builds(Unit, st.sampled_from(["u", "v"]), st.integers(1, 3), st.integers(1, 2), st.integers(0, 3),
                  st.booleans(), st.booleans())


@st.composite
def sides(draw: Any, attacker: bool) -> Side:
    kinds = [CombatDie(f"k{i}", tuple(draw(st.lists(faces, min_size=6, max_size=6)))) for i in range(2)]
    counts = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2).filter(lambda c: 0 < sum(c) <= 4))
    mods = Modifiers(draw(st.integers(0, 3)), draw(st.integers(0, 2)) if attacker else 0, draw(st.integers(0, 2)))
    return Side(tuple(zip(kinds, counts)), mods, tuple(draw(st.lists(units, max_size=3))),
                npc=draw(st.booleans()), giantslayers=attacker and draw(st.booleans()),
                casualty_order=draw(st.sampled_from(["listed", "fewest-op"])),
                reroll_policy=draw(st.sampled_from(["best", "best", "misses", "none"])),
                objective=draw(st.sampled_from(OBJECTIVES)))


@settings(max_examples=40, deadline=None)
@given(sides(True), sides(False))
def test_random_battles_give_the_same_results_and_joints_without_numpy(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    if "best" not in (attacker.reroll_policy, defender.reroll_policy):
        battle = Battle(Side(attacker.pool, attacker.modifiers, attacker.units, attacker.npc, attacker.giantslayers,
                             attacker.casualty_order, "best", objective=attacker.objective), defender)
    from explorer.games.assault_of_the_giants import resolve_battle

    def answers() -> tuple[Any, ...]:
        return (resolve_battle(battle), best.best_joint(battle), best.best_joint_points(battle),
                best_summary.best_play_summary(battle), best.attacker_totals(battle))

    fast, pure = both(answers)
    assert pure == fast


army = st.lists(st.builds(Unit, st.just("u"), st.integers(1, 5), st.integers(1, 4), st.integers(0, 4), st.booleans(),
                          st.booleans()), min_size=7, max_size=12)


@settings(max_examples=30, deadline=None)
@given(army, st.data())
def test_casualty_orders_of_big_armies_are_the_same_without_numpy(units_: list[Unit], data: Any) -> None:
    concede = tuple(data.draw(st.integers(0, 4)) for _ in units_)
    if data.draw(st.booleans()):  # repeated kinds: the pure table's rows collapse
        units_ = units_[:3] * 4
        concede = concede[:3] * 4
    most = sum(u.current_fortitude for u in units_) + 1
    fast, pure = both(lambda: casualties.best_orders(tuple(units_), concede, most))
    assert pure == fast
