"""Golden cases from the Assault of the Giants rulebook (page numbers cited per test)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from explorer import ScenarioError, resolve
from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants import (
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Standing,
    Status,
    Unit,
    absorb,
    assign_damage,
    assign_in_order,
    convert,
    endgame_turns,
    modifiers_from_commands,
    parse_battle,
    resolve_battle,
    win_chances,
)
from explorer.games.assault_of_the_giants.plan.endgame import (
    Phase,
    may_attack_starting_region,
    win_chances_joint,
)

D, W, H = Status.DEFEATED, Status.WOUNDED, Status.HEALTHY


def hill(fortitude: int, name: str = "hill giant") -> Unit:
    return Unit(name, fortitude, 1, ordning_value=1)


# --- p.17: casualties ---------------------------------------------------------------

def test_p17_walkthrough_seven_damage_against_hill_giants() -> None:
    # Rulebook p.17-18: 7 damage; the first hill giant (Fortitude 2) takes it from 7 to 5,
    # the second absorbs 3 more (5 to 2), the third takes the remaining 2.
    army = [hill(2), hill(3), hill(3)]
    assert assign_in_order(army, [0, 1, 2], 7) == (D, D, W)
    assert absorb(army[0], H, 7) == (D, 5)
    assert absorb(army[1], H, 5) == (D, 2)
    assert absorb(army[2], H, 2) == (W, 0)


def test_p17_equal_damage_defeats_and_smaller_damage_wounds() -> None:
    assert absorb(hill(3), H, 3) == (D, 0)
    assert absorb(hill(3), H, 2) == (W, 0)


def test_p17_a_wounded_unit_is_defeated_but_absorbs_only_its_current_fortitude() -> None:
    wounded = Unit("wounded giant", fortitude=4, wounded_fortitude=3, wounded=True)
    assert absorb(wounded, W, 2) == (D, 0)  # fortitude 3 > 2: defeated, damage used up
    assert absorb(wounded, W, 5) == (D, 2)  # reduced by the wounded side's 3


def test_p17_damage_is_not_spread_out() -> None:
    # Two giants of Fortitude 3 and 3 damage: one is defeated, the other untouched (not two wounds).
    assert assign_in_order([hill(3), hill(3)], [0, 1], 3) == (D, H)


def test_p17_champion_shrugs_off_smaller_damage_and_is_picked_first() -> None:
    champion = Unit("champion", fortitude=4, wounded_fortitude=4, ordning_value=3, champion=True)
    army = [hill(2), champion]
    assert assign_damage(army, 3, "listed", [1, 3]) == (H, H)  # shrugged off, the giant is spared
    assert assign_damage(army, 4, "listed", [1, 3]) == (H, D)  # equal damage defeats it
    assert assign_damage(army, 5, "listed", [1, 3]) == (W, D)  # the rest goes on to the giant
    # Even the defender's best order must start with the champion.
    assert assign_damage(army, 4, "fewest-op", [1, 3]) == (H, D)


def test_fewest_op_concedes_fewest_points_then_fewest_units() -> None:
    big = Unit("elite", fortitude=3, wounded_fortitude=2, ordning_value=3)
    small = Unit("giant", fortitude=1, wounded_fortitude=1, ordning_value=1)
    # 3 damage: listed order loses the elite (3 OP); the best order gives the small giant and wounds the elite.
    assert assign_damage([big, small], 3, "listed", [3, 1]) == (D, H)
    assert assign_damage([big, small], 3, "fewest-op", [3, 1]) == (W, D)


# --- p.16-17: dice modifications -------------------------------------------------------

def test_p16_command_positions() -> None:
    row = ["Move", "Leader", "Magic", "Recruit", "Attack"]
    mods = modifiers_from_commands(row, attacker=True)
    assert (mods.rerolls, mods.arcane_to_blocks, mods.arcane_to_hits) == (3, 2, 4)
    assert modifiers_from_commands(row, attacker=False).arcane_to_hits == 0  # p.17


def test_p17_example_totals_seven_hits_and_one_block() -> None:
    # p.17: after the Leader reroll, the Attack Command turns each of the 2 arcane into 2 hits;
    # with 3 hits and 1 block on the other dice the totals are 7 hits and 1 block.
    assert convert((3, 1, 2), Modifiers(arcane_to_hits=2)) == (7, 1)
    assert convert((3, 1, 2), Modifiers(arcane_to_hits=1)) == (5, 1)  # one card left of Attack: one arcane
    assert convert((0, 0, 3), Modifiers(arcane_to_hits=1, arcane_to_blocks=1)) == (2, 1)


def test_p17_defender_cannot_use_the_attack_conversion() -> None:
    data = {"game": "assault-of-the-giants",
            "attacker": {"pool": {"basic": 1}, "units": []},
            "defender": {"pool": {"basic": 1}, "units": [], "arcane_to_hits": 1}}
    with pytest.raises(ScenarioError, match=r"defender\.arcane_to_hits"):
        parse_battle(data)
    data["defender"] = {"pool": {"basic": 1}, "units": [], "commands": ["Leader", "Attack"]}
    assert parse_battle(data).defender.modifiers.arcane_to_hits == 0


# --- p.20: NPC giants ---------------------------------------------------------------

ARCANE = CombatDie("arcane", ((0, 0, 1),) * 6)
HIT = CombatDie("hit", ((1, 0, 0),) * 6)


def test_p20_npc_giants_may_convert_up_to_two_arcane_into_blocks_and_reroll_two() -> None:
    data = {"game": "assault-of-the-giants",
            "attacker": {"pool": {"basic": 1}, "units": []},
            "defender": {"pool": {"basic": 1}, "npc": True, "units": []}}
    mods = parse_battle(data).defender.modifiers
    assert (mods.rerolls, mods.arcane_to_blocks, mods.arcane_to_hits) == (2, 2, 0)


def test_p20_npc_rewards() -> None:
    giant = Unit("fire giant", 2, 1, ordning_value=3)
    npc = Unit("stone giant", 2, 1, ordning_value=2)
    attacker = Side(((HIT, 3),), Modifiers(), (giant,))
    defender = Side(((HIT, 3),), Modifiers(), (npc,), npc=True)
    result = resolve_battle(Battle(attacker, defender))
    assert result.attacker.ordning_points == Dist.single(2)  # full value for an NPC giant
    assert result.battle.attacker.units and result.attacker.unit_status(0) == Dist.single(D)
    assert result.defender.ordning_points == Dist.single(0)  # nobody scores the attacker


def test_p19_p20_giantslayers_earn_half_rounded_up_and_give_resource_cards() -> None:
    slayer = Unit("giantslayer", 1, 1)
    slayers = Side(((HIT, 4),), Modifiers(), (slayer, slayer), giantslayers=True)
    giants = Side(((HIT, 1),), Modifiers(), (Unit("storm giant", 4, 2, ordning_value=3),))
    result = resolve_battle(Battle(slayers, giants))
    assert result.attacker.ordning_points == Dist.single(2)  # ceil(3 / 2)
    assert result.defender.resource_cards == Dist.single(1)
    assert result.defender.ordning_points == Dist.single(0)
    npc_result = resolve_battle(Battle(slayers, Side(giants.pool, Modifiers(), giants.units, npc=True)))
    assert npc_result.attacker.ordning_points == Dist.single(2)  # half, as normal
    assert npc_result.defender.resource_cards == Dist.single(0)  # no cards from NPC giants


def test_p20_npc_pool_must_hold_the_race_die() -> None:
    data = {"game": "assault-of-the-giants",
            "attacker": {"pool": {"basic": 1}, "units": []},
            "defender": {"pool": {"basic": 2}, "npc": True, "race": "stone", "units": []}}
    with pytest.raises(ScenarioError, match=r"defender\.pool.*special die"):
        parse_battle(data)
    data["defender"]["pool"]["stone"] = 1
    assert parse_battle(data).defender.dice_count == 3


# --- p.20: the end of the game -------------------------------------------------------

def test_p20_winner_by_points_then_resource_cards_then_regions_else_shared() -> None:
    five, four = Dist.single(5), Dist.single(4)
    assert win_chances({"a": Standing(five), "b": Standing(four, 9, 9)})["a"]["wins"] == 1
    tie = win_chances({"a": Standing(five, 2, 1), "b": Standing(five, 3, 0)})
    assert (tie["a"]["wins"], tie["b"]["wins"]) == (0, 1)
    regions = win_chances({"a": Standing(five, 2, 4), "b": Standing(five, 2, 3)})
    assert regions["a"]["wins"] == 1
    shared = win_chances({"a": Standing(five, 2, 3), "b": Standing(five, 2, 3), "c": Standing(four)})
    assert shared["a"] == shared["b"] == {"wins": 0, "shares": 1}
    assert shared["c"] == {"wins": 0, "shares": 0}


def test_win_chances_agree_with_the_joint_form_for_independent_players() -> None:
    a, b = Dist.uniform([3, 4, 5]), Dist.uniform([4, 5])
    independent = win_chances({"a": Standing(a, 1, 0), "b": Standing(b, 1, 0)})
    joint = win_chances_joint(a.combine(b, lambda x, y: (x, y)), [("a", 1, 0), ("b", 1, 0)])
    assert independent == joint
    # By hand, the six equally likely pairs: (3,4) (3,5) (4,5) b wins; (5,4) a wins; (4,4) (5,5) tie.
    assert joint["a"]["wins"] == Fraction(1, 6) and joint["b"]["wins"] == Fraction(3, 6)
    assert joint["a"]["shares"] == joint["b"]["shares"] == Fraction(2, 6)


def test_p20_endgame_runs_to_the_lowest_token_then_one_final_round() -> None:
    order, numbers = ["storm", "cloud", "fire", "hill"], {"storm": 6, "cloud": 5, "fire": 4, "hill": 1}
    assert endgame_turns(order, numbers, "cloud") == ["fire", "hill", "storm", "cloud", "fire", "hill"]
    assert may_attack_starting_region(Phase.FINAL_ORDNING) and not may_attack_starting_region(Phase.NORMAL)


def test_resolve_reports_both_sides_in_the_spec_shape() -> None:
    report = resolve({"game": "assault-of-the-giants",
                      "dice": {"basic": [{"hit": 1}, {"hit": 2}, {"block": 1}, {"arcane": 1}, {}, {"hit": 1, "block": 1}]},
                      "attacker": {"pool": {"basic": 4}, "commands": ["Leader", "Move", "Attack"],
                                   "units": [{"name": "Fire giant", "fortitude": 3, "wounded_fortitude": 2,
                                              "ordning_value": 2}]},
                      "defender": {"pool": {"basic": 3}, "units": [{"fortitude": 2, "ordning_value": 1}]}})
    data = report.to_dict()
    for side in ("attacker", "defender"):
        for key in ("hits", "blocks", "damage_taken", "ordning_points"):
            assert abs(sum(data[side][key].values()) - 1) < 1e-12
        assert set(data[side]["units"][0]) == {"healthy", "wounded", "defeated"}
    assert data["attacker"]["modifiers"] == {"rerolls": 2, "arcane_to_hits": 2, "arcane_to_blocks": 0,
                                             "source": "commands"}


def test_p20_npc_limits_apply_even_with_a_command_row() -> None:
    data = {"game": "assault-of-the-giants",
            "attacker": {"pool": {"basic": 1}, "units": []},
            "defender": {"pool": {"basic": 1}, "npc": True, "commands": ["Leader", "Move", "Magic", "Trade"],
                         "units": []}}
    mods = parse_battle(data).defender.modifiers
    assert (mods.rerolls, mods.arcane_to_blocks) == (2, 2)
    assert "ignored" in mods.source
    data["defender"]["rerolls"] = 1  # an explicit number still overrides (spec)
    assert parse_battle(data).defender.modifiers.rerolls == 1
