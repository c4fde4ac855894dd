"""Costs refused up front: each game's limits walked from just under to just over.

Just under a limit, a request answers, in at most a few seconds of CPU; just over, it is refused
within a fraction of a second with a `ScenarioError` that names the field and the limit. Times are
CPU times (`time.process_time`) with room for a busy machine: the promise is about 2 s of work
accepted and a refusal within about 0.1 s (docs/engine-limits.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import explorer
from explorer.core.engine import roll as counts
from explorer.core.errors import ScenarioError

ANSWER_CPU = 10.0
"""Most CPU seconds a request just under a limit may take here (about 2 s promised at this machine's
usual speed; the bound leaves room for a machine several times slower, as CI's may be, while
still failing on the minutes such requests took before the limits)."""
REFUSAL_CPU = 1.0
"""Most CPU seconds a refusal may take here (about 0.1 s promised; the requests refused took 11 to
19 s of computing before the up-front estimate, so 1 s still tells the two apart on a slow machine)."""
REPORT_BYTES = 5_000_000
"""The stated size no report (JSON) reaches."""


def cpu(run: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of `run()` and what it returned (or the ScenarioError it raised)."""
    counts.clear_caches()
    start = time.process_time()
    try:
        out: Any = run()
    except ScenarioError as error:
        out = error
    return time.process_time() - start, out


def battle(pool: dict[str, int], rerolls: int, units: int = 3) -> dict[str, Any]:
    army = [{"name": f"Giant {i}", "fortitude": 3, "wounded_fortitude": 2, "ordning_value": 2} for i in range(units)]
    return {"game": "assault-of-the-giants",
            "attacker": {"pool": pool, "rerolls": rerolls, "arcane_to_hits": 2, "arcane_to_blocks": 2, "units": army},
            "defender": {"pool": {"basic": 2}, "units": army}}


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """Imports and first-use caches are not part of a request's cost."""
    explorer.resolve(battle({"basic": 2}, 1)).to_dict()


# ----------------------------------------------------------------------------- Assault of the Giants
@pytest.mark.parametrize("pool, rerolls, bigger, field", [
    ({"basic": 20, "fire": 20}, 2, {"basic": 22, "fire": 22}, "attacker.pool"),
    ({"basic": 14, "fire": 14}, 3, {"basic": 16, "fire": 16}, "attacker.rerolls"),
    ({"basic": 8, "fire": 8, "hill": 8}, 2, {"basic": 10, "fire": 10, "hill": 10}, "attacker.pool"),
    ({"basic": 10, "storm": 10}, 5, {"basic": 12, "storm": 12}, "attacker.rerolls"),
])
def test_aotg_kinds_of_dice_just_under_answer_and_just_over_are_refused_at_once(
        pool: dict[str, int], rerolls: int, bigger: dict[str, int], field: str) -> None:
    spent, report = cpu(lambda: explorer.resolve(battle(pool, rerolls)).to_dict())
    assert not isinstance(report, ScenarioError), report
    assert spent < ANSWER_CPU
    spent, refused = cpu(lambda: explorer.resolve(battle(bigger, rerolls)))
    assert isinstance(refused, ScenarioError)
    assert refused.field == field and "limit 2 s" in refused.problem and "too big for the exact engine" in str(refused)
    assert spent < REFUSAL_CPU


@pytest.mark.parametrize("pool, rerolls", [
    ({"basic": 15, "fire": 15, "hill": 15, "cloud": 15}, 5),   # once 11 s before the refusal
    ({"basic": 20, "fire": 20, "frost": 20}, 5),
    ({"basic": 10, "fire": 10, "hill": 10, "cloud": 10, "stone": 10, "frost": 10}, 8),
    ({"basic": 30, "fire": 30}, 5),
    ({"cloud": 6, "stone": 5, "hill": 21}, 8),                 # once 19 s of computing
])
def test_aotg_several_big_kinds_are_refused_before_any_computing(pool: dict[str, int], rerolls: int) -> None:
    spent, refused = cpu(lambda: explorer.resolve(battle(pool, rerolls)))
    assert isinstance(refused, ScenarioError) and refused.field in ("attacker.pool", "attacker.rerolls")
    assert "limit 2 s" in refused.problem
    assert spent < REFUSAL_CPU


def test_aotg_sixty_dice_of_one_kind_answer() -> None:
    spent, report = cpu(lambda: explorer.resolve(battle({"basic": 60}, 5)).to_dict())
    assert not isinstance(report, ScenarioError) and spent < ANSWER_CPU
    spent, refused = cpu(lambda: explorer.resolve(battle({"basic": 61}, 5)))
    assert isinstance(refused, ScenarioError) and refused.field.startswith("attacker.pool")
    assert "at most 60" in refused.problem or "<= 60" in refused.problem
    assert spent < REFUSAL_CPU


def test_aotg_units_a_side_are_capped_and_the_largest_army_answers() -> None:
    from explorer.games.assault_of_the_giants.battle.scenario import MAX_UNITS

    spent, report = cpu(lambda: explorer.resolve(battle({"basic": 30}, 3, units=MAX_UNITS)).to_dict())
    assert not isinstance(report, ScenarioError) and spent < ANSWER_CPU
    assert len(json.dumps(report)) < REPORT_BYTES
    spent, refused = cpu(lambda: explorer.resolve(battle({"basic": 30}, 3, units=MAX_UNITS + 1)))
    assert isinstance(refused, ScenarioError) and refused.field == "attacker.units"
    assert f"at most {MAX_UNITS}" in refused.problem and spent < REFUSAL_CPU


# ----------------------------------------------------------------------------- A Game of Thrones
def round_with(first: list[dict[str, Any]], second: list[dict[str, Any]], hand: Any) -> dict[str, Any]:
    players = {key: {"faction": 5, "claim": 2, "deck": 30, "hand": hand, "characters": chars}
               for key, chars in (("first", first), ("second", second))}
    return {"game": "agot-lcg", "question": "round", "players": players, "best_plan": "first"}


def character(name: str, strength: int, icons: list[str], keywords: list[str] | None = None) -> dict[str, Any]:
    return {"name": name, "str": strength, "icons": icons, "keywords": keywords or []}


ALL = ["military", "intrigue", "power"]


def test_agot_best_plan_just_under_the_plan_limit_answers_and_just_over_is_refused() -> None:
    from explorer.games.agot_lcg.round.plan import MAX_PLANS, count_plans
    from explorer.games.agot_lcg.round.scenario import parse_round

    defenders = [character(f"D{i}", 2, ALL) for i in range(4)]
    hand = {f"Card {i}": 1 for i in range(1000)}  # a thousand named cards: every intrigue claim has odds
    under = round_with([character(f"A{i}", 3, ALL) for i in range(4)]
                       + [character("Scout", 1, ["intrigue"]), character("Herald", 1, ["power"])], defenders, hand)
    over = round_with([character(f"A{i}", 3, ALL, ["stealth"] if i < 2 else []) for i in range(3)]
                      + [character("Scout", 1, ["intrigue"])], defenders, hand)
    plans = [count_plans(parse_round(d).round.board, "first") for d in (under, over)]
    assert plans[0] <= MAX_PLANS < plans[1]
    assert plans[0] > MAX_PLANS * 3 // 4  # near the limit
    spent, report = cpu(lambda: explorer.resolve(under).to_dict())
    assert not isinstance(report, ScenarioError) and spent < ANSWER_CPU
    assert len(json.dumps(report)) < REPORT_BYTES
    spent, refused = cpu(lambda: explorer.resolve(over))
    assert isinstance(refused, ScenarioError) and refused.field == "best_plan"
    assert f"more than the {MAX_PLANS}" in refused.problem and spent < REFUSAL_CPU


def test_agot_intrigue_claim_of_four_from_a_hundred_named_cards_is_per_card_odds_at_once() -> None:
    """Once 7 minutes, 4.4 GB and 581 MB printed: every possible discard set listed."""
    hand = {f"Card {i}": 1 for i in range(100)}
    scenario = {"game": "agot-lcg", "challenge": {"type": "intrigue", "claim": 4,
                                                  "attackers": [{"name": "Spy", "str": 4}], "defenders": []},
                "power": {"attacker": {"faction": 0}, "defender": {"faction": 0}}, "defender": {"hand": hand}}
    spent, report = cpu(lambda: explorer.resolve(scenario))
    assert not isinstance(report, ScenarioError) and spent < REFUSAL_CPU * 3
    claim = report.to_dict()["claim_effects"]
    assert claim["discard_chance_exact"]["Card 7"] == str(Fraction(4, 100))  # C(99, 3) / C(100, 4)
    assert "discards" not in claim and "too many outcomes" in claim["discards_note"]
    assert len(json.dumps(report.to_dict())) + len(report.to_text()) < 100_000


def test_agot_a_claim_on_a_hand_of_named_cards_never_enumerates_failing_draws() -> None:
    """A claim as big as the hand has one outcome: found at once, not among 2^cards partial draws."""
    hand = {f"Card {i}": 1 for i in range(100)}
    scenario = {"game": "agot-lcg", "challenge": {"type": "intrigue", "claim": 100,
                                                  "attackers": [{"name": "Spy", "str": 4}], "defenders": []},
                "power": {"attacker": {"faction": 0}, "defender": {"faction": 0}}, "defender": {"hand": hand}}
    spent, report = cpu(lambda: explorer.resolve(scenario).to_dict())
    assert not isinstance(report, ScenarioError) and spent < REFUSAL_CPU * 3
    assert list(report["claim_effects"]["discards"].values()) == [1.0]


# ----------------------------------------------------------------------------- Arcadia Quest
def sequence(attacks: int) -> dict[str, Any]:
    party = [{"hero": {"defence": 2, "life": 5}, "attack": {"dice": 3, "kind": "melee"}} for _ in range(3)]
    return {"game": "arcadia-quest", "question": "sequence", "party": party, "max_attacks": attacks,
            "target": {"attack": {"dice": 3, "kind": "melee"}, "life": 8, "defence": 2, "reaches": True}}


def test_arcadia_sequence_just_under_the_work_limit_answers_and_just_over_is_refused() -> None:
    from explorer.games.arcadia_quest.encounter.sequence import MAX_WORK

    spent, report = cpu(lambda: explorer.resolve(sequence(7)).to_dict())
    assert not isinstance(report, ScenarioError) and spent < ANSWER_CPU
    spent, refused = cpu(lambda: explorer.resolve(sequence(8)))
    assert isinstance(refused, ScenarioError) and refused.field == "party"
    assert f"limit {MAX_WORK // 10**6} s" in refused.problem and spent < REFUSAL_CPU


def test_arcadia_the_largest_hero_action_answers_within_the_report_size() -> None:
    monster = {"attack": {"dice": 30, "kind": "melee"}, "life": 30, "defence": 30, "rerolls": 20}
    scenario = {"game": "arcadia-quest", "question": "encounter",
                "hero": {"defence": 30, "life": 30, "rerolls": 20}, "attack": {"dice": 30, "kind": "melee"},
                "target": {**monster, "reaches": True, "close": True},
                "close_monsters": [{**monster, "name": f"Guard {i}"} for i in range(9)]}
    spent, report = cpu(lambda: explorer.resolve(scenario))
    assert not isinstance(report, ScenarioError) and spent < ANSWER_CPU
    assert len(json.dumps(report.to_dict())) < REPORT_BYTES and len(report.to_text()) < REPORT_BYTES


def test_aotg_a_battle_weighs_both_rolls_before_computing_either() -> None:
    """Each side alone under the limit, together over it: refused at once, the costlier side named."""
    scenario = battle({"basic": 20, "fire": 20}, 2)
    scenario["defender"].update(pool={"basic": 14, "fire": 14}, rerolls=3, arcane_to_blocks=2)
    spent, refused = cpu(lambda: explorer.resolve(scenario))
    assert isinstance(refused, ScenarioError) and refused.field == "attacker.pool"
    assert "with the other side's roll" in refused.problem and "limit 2 s a battle" in refused.problem
    assert spent < REFUSAL_CPU
