"""Plans of Assault of the Giants battles: the exact engine against a brute-force enumeration
(tests/games/assault_of_the_giants/plan_oracle.py), golden cases from the rulebook, the scenario keys and the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from copy import deepcopy
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import explorer
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.report import BattleReport
from explorer.games.assault_of_the_giants.plan import engine as campaign_engine
from explorer.games.assault_of_the_giants.plan.battles import battle_outcomes
from explorer.games.assault_of_the_giants.plan.report import PlanReport
from explorer.games.assault_of_the_giants.plan.result import resolve_plan
from explorer.games.assault_of_the_giants.plan.scenario import parse_plan
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from tests.games.assault_of_the_giants.oracle import brute_battle, normalise
from tests.games.assault_of_the_giants.plan_oracle import play
from tests.games.assault_of_the_giants.test_oracle import sides as oracle_sides

# ----------------------------------------------------------------------------- random plans

faces = st.fixed_dictionaries({}, optional={"hit": st.integers(1, 2), "block": st.just(1), "arcane": st.just(1)})
dice_faces = st.lists(faces, min_size=6, max_size=6)


@st.composite
def units(draw: Any, slayers: bool) -> dict[str, Any]:
    fortitude = draw(st.integers(1, 3))
    unit: dict[str, Any] = {"fortitude": fortitude, "wounded_fortitude": draw(st.integers(1, fortitude))}
    if not slayers or draw(st.booleans()):
        unit["ordning_value"] = draw(st.integers(0, 3))
    if draw(st.integers(0, 4)) == 0:
        unit["champion"] = True
    elif draw(st.booleans()):
        unit["wounded"] = True
    return unit


@st.composite
def sides(draw: Any, army: str, attacker: bool, slayers: bool) -> dict[str, Any]:
    first = draw(st.integers(0, 2))
    side: dict[str, Any] = {
        "army": army, "pool": {"a": first, "b": draw(st.integers(0, 2 - first))},
        "rerolls": draw(st.integers(0, 1)), "reroll_policy": draw(st.sampled_from(["none", "blanks"])),
        "arcane_to_blocks": draw(st.integers(0, 1)),
        "casualty_order": draw(st.sampled_from(["listed", "fewest-op"])),
    }
    if attacker and not slayers:
        side["arcane_to_hits"] = draw(st.integers(0, 1))
    return side


@st.composite
def plans(draw: Any) -> dict[str, Any]:
    kinds = ["giants", "giants"] + draw(st.lists(st.sampled_from(["giants", "npc", "slayers"]), max_size=1))
    armies: dict[str, Any] = {}
    for k, kind in enumerate(kinds):
        army: dict[str, Any] = {"units": draw(st.lists(units(kind == "slayers"), min_size=1, max_size=3))}
        if kind == "npc":
            army["npc"] = True
        else:
            army["player"] = ["red", "blue"][k] if k < 2 else draw(st.sampled_from(["red", "blue", "green"]))
        if kind == "slayers":
            army["giantslayers"] = True
        elif kind == "giants" and draw(st.integers(0, 3)) == 0:
            army["occupies_region"] = False
        armies[f"army{k}"] = army
    names = list(armies)
    pairs = [(x, y) for x in names for y in names
             if x != y and not armies[x].get("npc") and not armies[y].get("giantslayers")
             and (armies[x].get("player") is None or armies[x].get("player") != armies[y].get("player"))]
    plan = []
    for x, y in draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=3)):
        plan.append({"attacker": draw(sides(x, True, bool(armies[x].get("giantslayers")))),
                     "defender": draw(sides(y, False, False))})
    standings: dict[str, Any] = {}
    for player in ("red", "blue", "green"):
        held = sum(1 for a in armies.values() if a.get("player") == player and not a.get("giantslayers")
                   and a.get("occupies_region", True))
        if draw(st.booleans()):
            standings[player] = {"ordning_points": draw(st.integers(0, 3)),
                                 "resource_cards": draw(st.integers(0, 1)),
                                 "regions": held + draw(st.integers(0, 1))}
    return {"game": "assault-of-the-giants", "dice": {"a": draw(dice_faces), "b": draw(dice_faces)},
            "armies": armies, "plan": plan, "standings": standings}


def _check_against_oracle(data: dict[str, Any]) -> None:
    oracle = play(data)
    result = resolve_plan(parse_plan(data))
    assert list(result.plan.players) == oracle.players
    gains = {}
    for (_, p, c), q in oracle.final.items():
        gains[(p, c)] = gains.get((p, c), 0) + q
    assert result.states().map(lambda s: (s.points, s.cards)).probabilities() == gains
    assert result.standings().probabilities() == oracle.standings
    for player, chances in result.win_chances().items():
        assert chances == {"wins": oracle.wins[player], "shares": oracle.shares[player]}
    assert {k: v for k, v in result.decided_by().items() if v} == dict(oracle.decided)
    for index, step in enumerate(result.steps):
        assert step.earned.probabilities() == oracle.earned[index]
        for army in result.plan.armies:
            got = [{s.value: p for s, p in d.probabilities().items()}
                   for d in result.unit_statuses(army.name, index)]
            assert got == oracle.statuses[index][army.name]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans())
def test_plans_equal_the_brute_force_enumeration(data: dict[str, Any]) -> None:
    _check_against_oracle(data)


@settings(max_examples=80, deadline=None)
@given(oracle_sides(True), oracle_sides(False))
def test_one_battles_joint_outcome_has_the_brute_force_marginals(attacker: Side, defender: Side) -> None:
    # tests/games/assault_of_the_giants/oracle.py rolls every die one by one and tries every casualty order.
    outcomes = battle_outcomes(Battle(attacker, defender))
    brute = brute_battle(Battle(attacker, defender))
    for name, points, cards in (("attacker", 2, 4), ("defender", 3, 5)):
        assert outcomes.marginal(points).probabilities() == normalise(brute[name]["ordning_points"])
        assert outcomes.marginal(cards).probabilities() == normalise(brute[name]["resource_cards"])
        for i, counter in enumerate(brute[name]["units"]):
            status = outcomes.map(lambda o, n=name, k=i: getattr(o, n)[k].value)
            assert status.probabilities() == normalise(counter)


# ----------------------------------------------------------------------------- golden cases

ONE_HIT = [{"hit": 1}] * 6
TWO_HITS = [{"hit": 2}] * 6
THREE_HITS = [{"hit": 3}] * 6


def _plan(armies: dict[str, Any], battles: list[tuple[str, str, str]], standings: dict[str, Any] | None = None,
          defender_die: str | None = None) -> dict[str, Any]:
    """Battles as (attacker, defender, the attacker's one die); the defender rolls nothing unless told."""
    return {"game": "aotg", "dice": {"one": ONE_HIT, "two": TWO_HITS, "three": THREE_HITS},
            "armies": armies,
            "plan": [{"attacker": {"army": a, "pool": {die: 1}},
                      "defender": {"army": d, "pool": {defender_die: 1} if defender_die else {}}}
                     for a, d, die in battles],
            "standings": standings or {}}


FIRE = {"player": "fire", "units": [{"name": "Fire giant", "fortitude": 9, "wounded_fortitude": 9, "ordning_value": 2}]}


def test_a_wounded_unit_carries_its_wound_and_falls_to_fewer_hits() -> None:
    # Rulebook p.17: a unit wounded already is defeated by damage below its Fortitude, and it
    # absorbs its current (wounded) Fortitude: 2 damage wounds A (Fortitude 3); then 3 damage
    # defeats wounded A (Fortitude 2) and wounds B with the 1 left. Fresh, 3 damage would only defeat A.
    hill = {"player": "hill", "units": [
        {"name": "A", "fortitude": 3, "wounded_fortitude": 2, "ordning_value": 2},
        {"name": "B", "fortitude": 2, "wounded_fortitude": 1, "ordning_value": 1}]}
    data = _plan({"fire": FIRE, "hill": hill}, [("fire", "hill", "two"), ("fire", "hill", "three")])
    result = resolve_plan(parse_plan(data))
    first = [d.probabilities() for d in result.unit_statuses("hill", after=0)]
    assert [next(iter(p)).value for p in first] == ["wounded", "healthy"]
    second = [next(iter(d.probabilities())).value for d in result.unit_statuses("hill", after=1)]
    assert second == ["defeated", "wounded"]
    assert result.points("fire").probabilities() == {2: 1}
    # One hit alone defeats the wounded unit, where it only wounds it fresh (the wound carried forward).
    single = _plan({"fire": FIRE, "hill": {"player": "hill", "units": [hill["units"][0]]}},
                   [("fire", "hill", "two"), ("fire", "hill", "one")])
    assert resolve_plan(parse_plan(single)).wiped_out("hill") == 1
    _check_against_oracle(data)


def test_a_defeated_unit_is_gone_and_an_empty_army_fights_no_more() -> None:
    hill = {"player": "hill", "units": [
        {"name": "A", "fortitude": 1, "wounded_fortitude": 1, "ordning_value": 1},
        {"name": "B", "fortitude": 3, "wounded_fortitude": 1, "ordning_value": 2}]}
    battles = [("fire", "hill", "one"), ("fire", "hill", "one"), ("fire", "hill", "one"), ("hill", "fire", "three")]
    result = resolve_plan(parse_plan(_plan({"fire": FIRE, "hill": hill}, battles)))
    # Battle 1 defeats A; battle 2's hit goes to B (A is not there to absorb it); battle 3 defeats wounded B.
    assert [next(iter(d.probabilities())).value for d in result.unit_statuses("hill", after=1)] == [
        "defeated", "wounded"]
    assert result.wiped_out("hill", after=2) == 1
    # Battle 4: the hill army has no units left, so it cannot attack: nothing happens.
    assert result.took_place(3) == 0
    assert result.army_statuses("hill", after=3) == result.army_statuses("hill", after=2) == Dist.single("dd")
    assert result.army_statuses("fire", after=3) == Dist.single("h")
    assert result.earned(3, "attacker").probabilities() == {0: 1}
    assert result.points("fire").probabilities() == {3: 1}


def test_the_tiebreak_chain_resource_cards_then_regions_then_a_shared_victory() -> None:
    # Resource Cards (p.19): hill defeats the giantslayer that attacked it and draws 1 card.
    slayer = {"player": "fire", "giantslayers": True,
              "units": [{"name": "slayer", "fortitude": 1, "wounded_fortitude": 1}]}
    hill = {"player": "hill", "units": [{"name": "H", "fortitude": 5, "wounded_fortitude": 4, "ordning_value": 4}]}
    even = {"fire": {"ordning_points": 10, "resource_cards": 0}, "hill": {"ordning_points": 10, "resource_cards": 0}}
    cards = resolve_plan(parse_plan(_plan({"slayers": slayer, "hill": hill}, [("slayers", "hill", "one")], even,
                                          defender_die="one")))
    assert cards.resource_cards("hill").probabilities() == {1: 1}
    assert cards.win_chances()["hill"] == {"wins": 1, "shares": 0}
    assert cards.decided_by()["resource_cards"] == 1
    # Regions: the wiped-out hill army no longer occupies its region.
    weak = {"player": "hill", "units": [{"name": "H", "fortitude": 1, "wounded_fortitude": 1, "ordning_value": 0}]}
    level = {p: {"ordning_points": 10, "resource_cards": 1, "regions": 2} for p in ("fire", "hill")}
    regions = resolve_plan(parse_plan(_plan({"fire": FIRE, "hill": weak}, [("fire", "hill", "one")], level)))
    assert regions.regions("hill").probabilities() == {1: 1}
    assert regions.win_chances()["fire"]["wins"] == 1 and regions.decided_by()["regions"] == 1
    # Shared: the same, but the army shared its region with other hill units (occupies_region false).
    shared_hill = dict(weak, occupies_region=False)
    shared = resolve_plan(parse_plan(_plan({"fire": FIRE, "hill": shared_hill}, [("fire", "hill", "one")], level)))
    assert shared.win_chances() == {"fire": {"wins": 0, "shares": 1}, "hill": {"wins": 0, "shares": 1}}
    assert shared.decided_by()["shared"] == 1
    report = PlanReport(shared).to_dict()
    assert report["final"]["most_likely"][0]["winners"] == ["fire", "hill"]


def test_npc_victories_earn_nothing_and_giantslayers_earn_half() -> None:
    stone = {"npc": True, "units": [{"name": "S", "fortitude": 1, "wounded_fortitude": 1, "ordning_value": 3}]}
    slayer = {"player": "fire", "giantslayers": True,
              "units": [{"name": "slayer", "fortitude": 1, "wounded_fortitude": 1}]}
    data = _plan({"slayers": slayer, "stone": stone}, [("slayers", "stone", "one")], defender_die="one")
    result = resolve_plan(parse_plan(data))
    assert result.points("fire").probabilities() == {2: 1}  # half of 3, rounded up (p.19-20)
    assert result.plan.players == ("fire",)  # NPC giants are no player
    assert result.earned(0, "defender", "resource_cards").probabilities() == {0: 1}  # p.20


@pytest.mark.parametrize("policy", ["misses", "best"])
def test_a_one_battle_plan_agrees_with_the_single_battle_resolver(policy: str) -> None:
    # The plan reads its sides through the v1 reader, so every side key works in a plan, best play too.
    with open("examples/fire-vs-hill.json", encoding="utf-8") as handle:
        single = json.load(handle)
    for role in ("attacker", "defender"):
        single[role]["reroll_policy"] = policy
    battle = explorer.resolve(single)
    assert isinstance(battle, BattleReport)  # an old file keeps its meaning
    armies = {}
    for role in ("attacker", "defender"):
        units = [dict(u, wounded_fortitude=u.get("wounded_fortitude", u["fortitude"])) for u in single[role]["units"]]
        armies[role] = {"player": single[role]["player"], "units": units}
    strip = ("player", "units")
    plan = {"game": "aotg", "dice": single["dice"], "armies": armies,
            "plan": [{role: dict({k: v for k, v in single[role].items() if k not in strip}, army=role)
                      for role in ("attacker", "defender")}]}
    result = explorer.resolve(plan)
    assert isinstance(result, PlanReport)
    for role in ("attacker", "defender"):
        expected = battle.side(role)
        assert result.result.earned(0, role) == expected.ordning_points
        for i, status in enumerate(result.result.unit_statuses(role, 0)):
            assert status == expected.unit_status(i)


# ----------------------------------------------------------------------------- scenario keys

BASE = _plan({"fire": FIRE, "hill": {"player": "hill", "units": [
    {"name": "A", "fortitude": 2, "wounded_fortitude": 1, "ordning_value": 1}]}}, [("fire", "hill", "one")])


def _edit(path: str, value: Any) -> dict[str, Any]:
    data = deepcopy(BASE)
    *parents, last = path.split("/")
    node: Any = data
    for key in parents:
        node = node[int(key)] if key.isdigit() else node[key]
    if value is _DELETE:
        del node[last]
    elif last.isdigit():
        node[int(last)] = value
    else:
        node[last] = value
    return data


_DELETE = object()

BAD = [
    ("armies/fire/colour", "red", "armies.fire.colour", "unknown key"),
    ("plan/0/attacker/army", "frost", "plan[0].attacker.army", '"fire", "hill"'),
    ("plan/0/defender/army", "fire", "plan[0].defender.army", "cannot fight itself"),
    ("armies/hill/player", "fire", "plan[0].defender.army", "own giants"),
    ("armies/fire/npc", True, "armies.fire.player", "no player"),
    ("plan/0/attacker/units", [], "plan[0].attacker.units", "belongs to the army"),
    ("plan/0/attacker/player", "x", "plan[0].attacker.player", "belongs to the army"),
    ("plan/0/attacker/colour", "red", "plan[0].attacker.colour", "allowed here: arcane_to_blocks, arcane_to_hits, army,"),
    ("plan/0/attacker/pool", {"one": 13}, "plan[0].attacker.pool", "at most 12"),
    ("plan/0/defender/reroll_policy", "often", "plan[0].defender.reroll_policy", '"blanks"'),
    ("armies/hill/units/0/fortitude", 0, "armies.hill.units[0].fortitude", ">= 1"),
    ("armies/hill/units", [], "armies.hill.units", "1 to 8"),
    ("standings/fire", {"regions": 0}, "standings.fire.regions", "at least 1"),
    ("standings/fire", {"ordning_points": -1}, "standings.fire.ordning_points", ">= 0"),
    ("standings/fire", {"glory": 1}, "standings.fire.glory", "unknown key"),
    ("standings/fier", {"ordning_points": 1}, "standings.fier", 'did you mean "fire"'),
    ("plan", [], "plan", "1 to 8"),
    ("plan", [{"attacker": {"army": "fire", "pool": {}}, "defender": {"army": "hill", "pool": {}}}] * 9, "plan",
     "1 to 8"),
    ("attacker", {"pool": {}}, "attacker", "not used with plan"),
    ("plan", _DELETE, "plan", "is required"),
    ("armies", {"fire": FIRE}, "armies", "2 to 6"),
]


@pytest.mark.parametrize(("path", "value", "field", "fragment"), BAD)
def test_bad_plans_name_the_field(path: str, value: Any, field: str, fragment: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        explorer.resolve(_edit(path, value))
    assert caught.value.field == field
    assert fragment in caught.value.problem
    assert "\n" not in str(caught.value)


def test_plan_rules_on_who_may_attack_whom() -> None:
    stone = {"npc": True, "units": [{"fortitude": 1, "wounded_fortitude": 1, "ordning_value": 1}]}
    slayer = {"player": "hill", "giantslayers": True, "units": [{"fortitude": 1, "wounded_fortitude": 1}]}
    for armies, battle, field, fragment in (
        ({"fire": FIRE, "stone": stone}, ("stone", "fire", "one"), "plan[0].attacker.army", "never attack"),
        ({"fire": FIRE, "slay": slayer}, ("fire", "slay", "one"), "plan[0].defender.army", "giantslayers"),
    ):
        with pytest.raises(ScenarioError) as caught:
            parse_plan(_plan(armies, [battle]))
        assert (caught.value.field, fragment in caught.value.problem) == (field, True)
    missing = _plan({"fire": FIRE, "hill": {"player": "hill", "units": [{"fortitude": 2, "ordning_value": 1}]}},
                    [("fire", "hill", "one")])
    with pytest.raises(ScenarioError, match=r"armies\.hill\.units\[0\]\.wounded_fortitude: is required in a plan"):
        parse_plan(missing)


def test_a_plan_too_big_is_refused_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign_engine, "BUDGET", 50)
    data = deepcopy(BASE)
    data["dice"]["coin"] = [{"hit": 1}, {}] * 3
    data["plan"] = [{"attacker": {"army": "fire", "pool": {"coin": 2}}, "defender": {"army": "hill", "pool": {"coin": 2}}}] * 2
    with pytest.raises(ScenarioError) as caught:
        explorer.resolve(data)
    assert caught.value.field == "plan" and "too big to work out exactly" in caught.value.problem


# ----------------------------------------------------------------------------- the example file

@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_the_example_plan_resolves_from_the_command_line(flag: list[str]) -> None:
    run = subprocess.run([sys.executable, "-m", "explorer", "resolve", "examples/aotg-plan.json", *flag],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    if not flag:
        assert "FINAL STANDINGS" in run.stdout and "RULINGS (the plan)" in run.stdout
        assert "dice.basic: example, not from the rulebook" in run.stdout
        return
    report = json.loads(run.stdout)
    assert report["question"] == "plan" and len(report["battles"]) == 3
    final = report["final"]
    for player in report["players"]:
        assert sum(final["players"][player]["ordning_points"].values()) == pytest.approx(1, abs=1e-9)
    wins = sum(final["players"][p]["wins"] for p in report["players"])
    assert wins + final["decided_by_chances"]["shared"] == pytest.approx(1, abs=1e-9)
    assert report["battles"][1]["took_place"] < 1  # the hill army may be wiped out in battle 1


def test_the_example_plan_frame_and_exact_fractions() -> None:
    report = explorer.resolve("examples/aotg-plan.json")
    assert isinstance(report, PlanReport)
    finals = report.to_rows().where(step="final", quantity="ordning_points")
    for player in report.result.plan.players:
        assert sum(r["probability"] for r in finals if r["subject"] == player) == pytest.approx(1, abs=1e-12)
    fire = report.to_dict()["final"]["players"]["fire"]
    exact = {int(k): Fraction(v) for k, v in fire["exact"]["ordning_points"].items()}
    assert {str(k): float(p) for k, p in exact.items()} == fire["ordning_points"]  # the floats are the fractions
    assert float(sum(k * p for k, p in exact.items())) == pytest.approx(fire["mean_ordning_points"], abs=1e-12)
