"""The board rules of issue 21: the storm giants' stacking limit (rulebook p.9, notes LD9) and the
Giantslayer Actions of the Rest Command (rulebook p.18, notes L18), in battles, plans and tables.

Every refusal names its field and its page; every golden case cites the page it rests on.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer import resolve
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import parse_battle, parse_plan, parse_table

FIRE_VS_HILL: dict[str, Any] = json.loads(Path("examples/fire-vs-hill.json").read_text())
PLAN: dict[str, Any] = json.loads(Path("examples/aotg-plan.json").read_text())
TABLE: dict[str, Any] = json.loads(Path("examples/aotg-table.json").read_text())["table"]

STORM = [{"name": "Storm champion", "fortitude": 6, "champion": True, "ordning_value": 5},
         {"name": "Storm elite", "fortitude": 5, "wounded_fortitude": 3, "ordning_value": 4},
         {"name": "Storm giant", "fortitude": 4, "wounded_fortitude": 2, "ordning_value": 3},
         {"name": "King Hekaton", "fortitude": 7, "wounded_fortitude": 4, "ordning_value": 6}]
SLAYER = {"name": "slayer", "fortitude": 2, "wounded_fortitude": 1}


def _refused(call: Any, data: Any, field: str, *words: str) -> str:
    with pytest.raises(ScenarioError) as caught:
        call(data)
    assert caught.value.field == field, str(caught.value)
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 200 and all(w in message for w in words), message
    return message


def _battle(side: str = "defender", **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(FIRE_VS_HILL)
    data[side].update(changes)
    return data


# --- the storm giants' stacking limit (rulebook p.9, LD9) ------------------------------------------


def test_a_storm_side_of_four_units_is_refused_p9() -> None:
    """p.9 (LD9): the storm giants have a stacking limit of 3 units per space; a battle side stands
    in one region, so its fourth storm unit is one too many."""
    data = _battle(race="storm", pool={"basic": 3, "storm": 1}, units=STORM)
    _refused(parse_battle, data, "defender.units", "storm", "3", "got 4", "p.9")
    attacker = _battle("attacker", race="storm", pool={"basic": 3, "storm": 1}, units=STORM)
    _refused(parse_battle, attacker, "attacker.units", "stacking limit", "p.9")
    long_name = copy.deepcopy(PLAN)                  # the whole message fits a long army name too
    long_name["armies"]["s" * 60] = {"player": "storm", "race": "storm", "units": [
        {k: v for k, v in u.items() if k != "name"} for u in STORM]}
    _refused(parse_plan, long_name, f"armies.{'s' * 60}.units", "p.9")


def test_three_storm_units_champion_included_are_the_limit_p9() -> None:
    """p.9: the storm setup (1 elite instead of 2 regular units, beside the champion) fills the 3."""
    battle = parse_battle(_battle(race="storm", pool={"basic": 3, "storm": 1}, units=STORM[:3]))
    assert len(battle.defender.units) == 3 and battle.defender.units[0].champion


def test_npc_storm_giants_keep_the_limit_p9() -> None:
    """The ruling (inferred from p.9): the limit is the race's, so NPC storm giants keep it."""
    data = _battle(race="storm", npc=True, commands=[], pool={"basic": 3, "storm": 1}, units=STORM)
    _refused(parse_battle, data, "defender.units", "NPC storm giants too", "p.9")


def test_other_races_and_raceless_sides_have_no_limit_we_know() -> None:
    """Only storm's limit is in our pages: a hill side, or a side without race, of 4 units is read."""
    four = FIRE_VS_HILL["defender"]["units"] + [{"name": "Hill giant 4", "fortitude": 2, "wounded_fortitude": 1,
                                                 "ordning_value": 1}]
    assert len(parse_battle(_battle(race="hill", units=four)).defender.units) == 4
    assert len(parse_battle(_battle(units=STORM)).defender.units) == 4


def test_a_storm_army_of_four_in_a_plan_is_refused_p9() -> None:
    """An army of a plan stands in one region (p.9): a storm army holds at most 3 units."""
    data = copy.deepcopy(PLAN)
    data["armies"]["stone"].update(race="storm", units=STORM)
    for battle in data["plan"]:
        for side in ("attacker", "defender"):
            if battle[side]["army"] == "stone":
                battle[side]["pool"] = {"basic": 2, "storm": 1}
    _refused(parse_plan, data, "armies.stone.units", "storm", "p.9")
    data["armies"]["stone"]["units"] = STORM[:3]
    assert len(parse_plan(data).armies[2].units) == 3


def test_a_table_region_of_four_storm_units_is_refused_p9() -> None:
    table = copy.deepcopy(TABLE)
    table["regions"][0]["units"] = 4            # Maelstrom, occupied by the storm giants
    _refused(parse_table, table, "table.regions[0].units", "storm", "p.9")
    table["regions"][0]["units"] = 3
    assert parse_table(table).state.regions[0].units == 3
    table["regions"][5]["units"] = 2            # Svardborg: nobody stands there
    _refused(parse_table, table, "table.regions[5].units", "occupied_by")


def test_the_table_report_gives_the_units_by_region_name() -> None:
    table = copy.deepcopy(TABLE)
    table["regions"][0]["units"] = 3
    data = {"game": "aotg", "table": table}
    report = resolve(data).to_dict()["table"]
    assert report["units"] == {"Maelstrom": {"race": "storm", "units": 3}}
    assert "stacking" in report["inferred_rulings"]


# --- Giantslayer Actions (rulebook p.18, L18) -------------------------------------------------------


def _slayers(commands: list[str], count: int) -> dict[str, Any]:
    data = _battle("attacker", giantslayers=True, commands=commands,
                   units=[{**SLAYER, "name": f"slayer {i + 1}"} for i in range(count)])
    return data


def test_each_attacking_giantslayer_takes_one_action_of_the_rest_p18() -> None:
    """p.18 (L18): the Rest Command gives one Giantslayer Action per card to its left, and each
    attacking giantslayer takes 1: two cards pay for two giantslayers, not three."""
    assert len(parse_battle(_slayers(["Leader", "Move", "Rest"], 2)).attacker.units) == 2
    _refused(parse_battle, _slayers(["Leader", "Move", "Rest"], 3), "attacker.commands",
             "(2 here)", "3 attacking giantslayers", "p.18")
    _refused(parse_battle, _slayers(["Rest"], 1), "attacker.commands", "(0 here)", "p.18")


def test_rest_is_the_card_just_played_p18() -> None:
    """The giantslayers attack when Rest is played: it is the row's last card, and there is one Rest."""
    _refused(parse_battle, _slayers(["Rest", "Leader", "Move"], 1), "attacker.commands", "last", "p.18")
    _refused(parse_battle, _slayers(["Rest", "Move", "Rest"], 1), "attacker.commands", "once", "p.18")


def test_at_most_three_giantslayers_attack() -> None:
    """The box holds 3 giantslayer figures (reviews), so an attack has at most 3."""
    _refused(parse_battle, _slayers(["Leader", "Move", "Magic", "Trade", "Rest"], 4), "attacker.units", "3")


def test_a_row_without_rest_is_not_checked() -> None:
    """The stated assumption: without Rest the row gives only modifiers; the actions are taken as paid."""
    assert len(parse_battle(_slayers([], 3)).attacker.units) == 3
    assert len(parse_battle(_slayers(["Leader", "Attack"], 3)).attacker.units) == 3
    assert any(r.startswith("Giantslayer Actions") and "p.18" in r
               for r in resolve(_slayers([], 1)).to_dict()["rulings"])


@given(st.lists(st.sampled_from(["Leader", "Magic", "Move", "Trade", "Plunder", "Recruit"]), max_size=6, unique=True),
       st.integers(1, 3))
def test_a_rest_row_pays_for_as_many_giantslayers_as_cards_before_it(before: list[str], slayers: int) -> None:
    """Property: with Rest last, the attack is read exactly when the cards before Rest are at least
    the attacking giantslayers (p.18: one action per card to the left; one per giantslayer)."""
    data = _slayers([*before, "Rest"], slayers)
    data["attacker"]["pool"] = {"basic": 1}
    try:
        parse_battle(data)
        accepted = True
    except ScenarioError as error:
        assert error.field == "attacker.commands"
        accepted = False
    assert accepted == (len(before) >= slayers)


# --- giantslayers on the table (rulebook p.18, L18) -------------------------------------------------


def _normal_table() -> dict[str, Any]:
    table = copy.deepcopy(TABLE)
    table["pools"] = {"first": 3, "second": 6}
    table["regions"][3]["occupied_by"] = "hill"          # before the Final Ordning no giant stands in another's home
    return table


def test_giantslayers_in_a_starting_region_before_the_final_ordning_are_refused_p18() -> None:
    """p.18 (L18): giantslayers are recruited into Small Folk Regions, and may not end a move in a
    Starting Region until the Final Ordning; the table refused giants there already, now giantslayers too."""
    table = _normal_table()
    parse_table(table)
    table["regions"][0]["giantslayers"] = 1
    _refused(parse_table, table, "table.regions[0].giantslayers", "Final Ordning", "Starting Region", "p.18")


def test_giantslayers_in_a_starting_region_are_read_from_the_final_ordning_on_p18() -> None:
    table = copy.deepcopy(TABLE)                          # first pool empty: the Final Ordning
    table["regions"][0]["giantslayers"] = 1
    assert parse_table(table).state.regions[0].giantslayers == 1
    table["pools"] = {"first": 0, "second": 0}            # the Endgame too
    assert parse_table(table).state.regions[0].giantslayers == 1


def test_the_table_answers_where_giantslayers_go_and_what_it_costs_p18() -> None:
    normal = resolve({"game": "aotg", "table": _normal_table()}).to_dict()["table"]["giantslayers"]
    assert normal["actions"] == {"recruit": 2, "move": 1, "attack": 1}
    small_folk = [r["name"] for r in TABLE["regions"] if r["kind"] == "small-folk"]
    assert normal["recruit"]["places"] == small_folk and normal["recruit"]["page"] == "p.18"
    assert list(normal["end_move"]) == [r["name"] for r in TABLE["regions"]]
    assert [name for name, a in normal["end_move"].items() if not a["allowed"]] == [
        r["name"] for r in TABLE["regions"] if r["kind"] == "starting"]
    final = resolve({"game": "aotg", "table": copy.deepcopy(TABLE)}).to_dict()["table"]["giantslayers"]
    assert all(a["allowed"] for a in final["end_move"].values())


def test_no_giantslayer_is_recruited_once_all_three_are_on_the_board() -> None:
    table = copy.deepcopy(TABLE)
    table["regions"][9]["giantslayers"] = 3
    recruit = resolve({"game": "aotg", "table": table}).to_dict()["table"]["giantslayers"]["recruit"]
    assert recruit["allowed"] is False and recruit["places"] == [] and "3" in recruit["reason"]


def test_the_giantslayer_example_is_paid_for_and_has_no_attack_bonus_p17_p18() -> None:
    """examples/aotg-giantslayers.json: Leader and Move left of Rest pay for its 2 giantslayers (p.18);
    no Attack Command, so no arcane-to-2-hits (p.17); Leader rerolls once per card to its right (p.16)."""
    data = json.loads(Path("examples/aotg-giantslayers.json").read_text())
    battle = parse_battle(data)
    assert len(battle.attacker.units) == 2 and battle.attacker.modifiers.arcane_to_hits == 0
    assert battle.attacker.modifiers.rerolls == 2
    data["attacker"]["units"].append({**SLAYER, "name": "Giantslayer 3"})
    _refused(parse_battle, data, "attacker.commands", "3 attacking giantslayers", "p.18")


def _slayer_plan(units: int, commands: list[str]) -> dict[str, Any]:
    data = copy.deepcopy(PLAN)
    data["armies"]["slayers"] = {"player": "cloud", "giantslayers": True,
                                 "units": [{**SLAYER, "name": f"slayer {i + 1}"} for i in range(units)]}
    data["plan"].append({"attacker": {"army": "slayers", "pool": {"basic": 2}, "commands": commands},
                         "defender": {"army": "stone", "pool": {"basic": 2, "stone": 1}}})
    return data


def test_a_plan_checks_the_giantslayers_rest_row_and_their_number_p18() -> None:
    """In a plan too, each attacking giantslayer takes an action of the Rest Command (p.18)."""
    assert parse_plan(_slayer_plan(2, ["Trade", "Move", "Rest"])).battles[3].attacker.army == "slayers"
    _refused(parse_plan, _slayer_plan(2, ["Move", "Rest"]), "plan[3].attacker.commands", "p.18")
    _refused(parse_plan, _slayer_plan(4, []), "armies.slayers.units", "3")
