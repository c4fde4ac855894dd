"""Cards in battle (scenario key ``cards``): Spell and Resource Cards played before final totals (pp.16-17).

Golden cases cite the rulebook page; each effect is checked against an independent computation:
the same battle without the card, shifted or written out by hand, and the brute-force oracles
(`tests.games.assault_of_the_giants.oracle`, `tests.games.assault_of_the_giants.best_oracle`), which write the cards out on their own.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.dist import Dist
from explorer.core.errors import MAX_MESSAGE, ScenarioError
from explorer.games.assault_of_the_giants import (
    Battle,
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
from explorer.games.assault_of_the_giants.best.advice import advise_conversion, advise_reroll
from explorer.games.assault_of_the_giants.best.play import best_joint
from explorer.games.assault_of_the_giants.rules.cards import card_to_dict, played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import BattleCard
from explorer.games.assault_of_the_giants.rules.rulings import BATTLE_RULINGS
from tests.games.assault_of_the_giants.best_oracle import brute_best_joint, brute_expected
from tests.games.assault_of_the_giants.oracle import brute_battle, normalise

ROOT = Path(__file__).resolve().parents[3]
BASE: dict[str, Any] = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())


def scenario(attacker: list[dict[str, Any]] | None = None, defender: list[dict[str, Any]] | None = None,
             **attacker_keys: Any) -> dict[str, Any]:
    """The example battle with the given cards (and extra keys for the attacker)."""
    data = copy.deepcopy(BASE)
    for role, cards in (("attacker", attacker), ("defender", defender)):
        if cards is not None:
            data[role]["cards"] = cards
    data["attacker"].update(attacker_keys)
    return data


def refused(data: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_battle(data)
    message = str(info.value)
    assert "\n" not in message and len(message) <= MAX_MESSAGE
    return info.value


def numbers(data: dict[str, Any]) -> dict[str, Any]:
    """The report's distributions and unit statuses (not the settings it echoes)."""
    out = resolve(data).to_dict()
    return {role: {k: out[role][k] for k in ("hits", "blocks", "damage_taken", "ordning_points", "units")}
            for role in ("attacker", "defender")}


# --- who may play what (golden, p.17) ---------------------------------------------------

def test_ore_refused_for_the_defender() -> None:
    # Rulebook p.17: "as per its text, the Ore Resource Card can only be used by the attacker".
    error = refused(scenario(defender=[{"name": "Ore", "hits": 1}]))
    assert error.field == "defender.cards[0].name"
    assert "attacker only" in error.problem and "p.17" in error.problem and "Weaponry" in error.problem


def test_ore_allowed_for_the_attacker_whatever_its_case() -> None:
    battle = parse_battle(scenario(attacker=[{"name": " ore ", "hits": 1}]))
    assert battle.attacker.cards == (BattleCard("Ore", "resource", hits=1),)


def test_weaponry_allowed_for_both_sides() -> None:
    # Rulebook p.17: "The Weaponry Resource Card can, however, be used by both the attacker and the defender."
    battle = parse_battle(scenario(attacker=[{"name": "Weaponry", "blocks": 1}],
                                   defender=[{"name": "Weaponry", "kind": "resource", "hits": 2}]))
    assert battle.attacker.cards[0].kind == battle.defender.cards[0].kind == "resource"
    assert battle.defender.cards[0].hits == 2


def test_a_known_card_keeps_its_kind() -> None:
    error = refused(scenario(attacker=[{"name": "Ore", "kind": "spell"}]))
    assert error.field == "attacker.cards[0].kind" and '"resource"' in error.problem


def test_own_cards_need_a_kind() -> None:
    error = refused(scenario(attacker=[{"name": "Fireball", "hits": 2}]))
    assert error.field == "attacker.cards[0].kind" and '"spell" or "resource"' in error.problem
    error = refused(scenario(attacker=[{"name": "Fireball", "kind": "event"}]))
    assert error.field == "attacker.cards[0].kind" and '"spell", "resource"' in error.problem
    assert parse_battle(scenario(defender=[{"name": "Shield", "kind": "spell", "blocks": 1}])).defender.cards


def test_npc_giants_play_no_cards() -> None:
    data = scenario(defender=[{"name": "Weaponry", "blocks": 1}])
    data["defender"].update(npc=True, race="hill")
    error = refused(data)
    assert error.field == "defender.cards" and "NPC" in error.problem


@pytest.mark.parametrize("card, field, words", [
    ({"name": "Ore", "hits": 21}, "attacker.cards[0].hits", "<= 20"),
    ({"name": "Ore", "rerolls": -1}, "attacker.cards[0].rerolls", ">= 0"),
    ({"name": "Ore", "arcane_to_hits": 1.5}, "attacker.cards[0].arcane_to_hits", "whole number"),
    ({"name": "Ore", "dice": {"red": 1}}, "attacker.cards[0].dice.red", "unknown die"),
    ({"name": "Ore", "dice": {"basic": 7}}, "attacker.cards[0].dice.basic", "<= 6"),
    ({"name": "Ore", "blanks_to_hits": 1}, "attacker.cards[0].blanks_to_hits", "unknown key"),
    ({"name": ""}, "attacker.cards[0].name", "non-empty"),
    ({"name": "x" * 41, "kind": "spell"}, "attacker.cards[0].name", "at most 40"),
])
def test_bad_card_entries_name_the_field_and_what_is_allowed(card: dict[str, Any], field: str, words: str) -> None:
    error = refused(scenario(attacker=[card]))
    assert error.field == field and words in error.problem


def test_at_most_six_cards_and_sixty_dice_a_side() -> None:
    error = refused(scenario(attacker=[{"name": "Weaponry"}] * 7))
    assert error.field == "attacker.cards" and "at most 6" in error.problem
    data = scenario(attacker=[{"name": "Weaponry", "dice": {"basic": 6}}] * 6)
    data["attacker"]["pool"] = {"basic": 30}
    error = refused(data)
    assert error.field == "attacker.cards" and "at most 60 dice" in error.problem


# --- each effect against an independent computation -----------------------------------------

def test_a_card_hit_shifts_the_hit_distribution_by_exactly_one() -> None:
    plain = parse_battle(BASE).attacker
    carded = parse_battle(scenario(attacker=[{"name": "Ore", "hits": 1}])).attacker
    assert side_totals(carded) == side_totals(plain).map(lambda t: (t[0] + 1, t[1]))


def test_a_defender_block_changes_the_damage_as_one_more_block() -> None:
    battle = parse_battle(scenario(defender=[{"name": "Weaponry", "blocks": 1}]))
    plain = parse_battle(BASE)
    hits, blocks = side_totals(plain.attacker).marginal(0), side_totals(plain.defender).marginal(1)
    damage: Dist[int] = hits.combine(blocks, lambda h, b: max(0, h - (b + 1)))
    assert resolve_battle(battle).defender.damage_taken == damage


def test_an_extra_die_equals_the_pool_with_one_more_die() -> None:
    with_card = scenario(attacker=[{"name": "Weaponry", "dice": {"basic": 1}}])
    written = copy.deepcopy(BASE)
    written["attacker"]["pool"]["basic"] += 1
    assert numbers(with_card) == numbers(written)
    assert parse_battle(with_card).attacker.dice_count == parse_battle(written).attacker.dice_count == 7


def test_extra_rerolls_with_commands_equal_explicit_rerolls_plus_one() -> None:
    """The merged reading, an option since the second-round ruling (p.16): one round of all the rerolls."""
    base_rerolls = parse_battle(BASE).attacker.modifiers.rerolls
    with_card = scenario(attacker=[{"name": "Haste", "kind": "spell", "rerolls": 1}])
    with_card["attacker"]["card_rerolls"] = "with commands"
    written = copy.deepcopy(BASE)
    written["attacker"]["rerolls"] = base_rerolls + 1
    assert numbers(with_card) == numbers(written)
    default = scenario(attacker=[{"name": "Haste", "kind": "spell", "rerolls": 1}])
    assert base_rerolls and numbers(default) != numbers(written)  # a second round (p.16) changes the answer


def test_a_card_adds_on_top_of_explicit_modifiers() -> None:
    with_card = scenario(attacker=[{"name": "Rune", "kind": "spell", "arcane_to_blocks": 2}], arcane_to_blocks=1)
    written = scenario(arcane_to_blocks=3)
    assert numbers(with_card)["attacker"] == numbers(written)["attacker"]


def test_a_defender_card_may_turn_arcane_into_hits() -> None:
    # The defender cannot use the Attack Command's conversion (p.17); a card of its own is another matter.
    battle = parse_battle(scenario(defender=[{"name": "Flame", "kind": "spell", "arcane_to_hits": 1}]))
    by_hand = replace(battle.defender, cards=(), modifiers=replace(battle.defender.modifiers, arcane_to_hits=1))
    assert side_totals(battle.defender) == side_totals(by_hand)


def test_played_folds_once_and_keeps_only_the_flat_effects() -> None:
    die = CombatDie("d", ((1, 0, 1),) * 6)
    card = BattleCard("Ore", "resource", hits=1, blocks=2, rerolls=1, arcane_to_blocks=1, dice=((die, 2),))
    side = Side(((die, 1),), Modifiers(1, 0, 0), (), cards=(card,))
    folded = played(side)
    assert folded.pool == ((die, 3),) and folded.modifiers == Modifiers(1, 0, 1, card_rerolls=1)  # a second round
    merged = played(replace(side, card_rerolls="with commands"))
    assert merged.modifiers == Modifiers(2, 0, 1) and played(merged) == merged
    assert folded.cards == (BattleCard("Ore", "resource", hits=1, blocks=2),)
    assert played(folded) == folded and side.dice_count == folded.dice_count == 3


coin = CombatDie("coin", ((1, 0, 0), (0, 0, 1), (0, 0, 0)) * 2)
mixed = CombatDie("mixed", ((0, 1, 0), (2, 0, 0), (0, 0, 2), (0, 0, 0), (1, 1, 0), (0, 0, 1)))
cards = st.builds(BattleCard, st.just("card"), st.sampled_from(["spell", "resource"]), st.integers(0, 2),
                  st.integers(0, 2), st.integers(0, 1), st.integers(0, 1), st.integers(0, 1),
                  st.sampled_from([(), ((coin, 1),), ((mixed, 1),)]))


@st.composite
def small_sides(draw: st.DrawFn, policies: tuple[str, ...]) -> Side:
    pool = ((coin, draw(st.integers(0, 1))), (mixed, draw(st.integers(0, 1))))
    mods = Modifiers(draw(st.integers(0, 1)), draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    units = (Unit("a", draw(st.integers(1, 3)), 1, draw(st.integers(0, 3))), Unit("b", 2, 1, 2))
    policy = draw(st.sampled_from(policies))
    # Best play searches both readings: one round, or the cards' second round after the Commands' (p.16).
    timing = draw(st.sampled_from(["second round", "with commands"]))
    return Side(pool, mods, units, reroll_policy=policy,
                objective=draw(st.sampled_from(["ordning-points", "net-ordning-points", "damage", "wipe-out"])),
                cards=tuple(draw(st.lists(cards, max_size=2))), card_rerolls=timing)


@settings(max_examples=40, deadline=None)
@given(small_sides(("misses", "blanks", "none")), small_sides(("misses", "blanks", "none")))
def test_battles_with_cards_equal_the_brute_force(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    fast, slow = resolve_battle(battle), brute_battle(battle)
    for name in ("attacker", "defender"):
        side = getattr(fast, name)
        for q in ("hits", "blocks", "damage_taken", "ordning_points"):
            assert getattr(side, q).probabilities() == normalise(slow[name][q]), (name, q)


@settings(max_examples=12, deadline=None)
@given(small_sides(("best",)), small_sides(("misses", "best")))
def test_best_play_with_cards_equals_the_brute_force(attacker: Side, defender: Side) -> None:
    # The oracle writes the cards out itself and scores the final totals with the flat hits and blocks.
    battle = Battle(attacker, defender)
    assert best_joint(battle).probabilities() == brute_best_joint(battle)
    for role in ("attacker", "defender"):
        assert expected_values(battle)[role] == brute_expected(battle, role)


def test_best_play_with_cards_equals_best_play_with_the_same_modifiers_written() -> None:
    data = scenario(attacker=[{"name": "Storm", "kind": "spell", "rerolls": 1, "arcane_to_hits": 1,
                               "dice": {"basic": 1}}], reroll_policy="best", card_rerolls="with commands")
    written = scenario(reroll_policy="best")
    base = parse_battle(BASE).attacker.modifiers
    written["attacker"].update(rerolls=base.rerolls + 1, arcane_to_hits=base.arcane_to_hits + 1)
    written["attacker"]["pool"]["basic"] += 1
    assert numbers(data) == numbers(written)
    assert resolve(data).to_dict()["attacker"]["best_play"] == resolve(written).to_dict()["attacker"]["best_play"]


def test_a_flat_block_changes_best_play_as_the_search_sees_the_recorded_totals() -> None:
    # 1 die: blank or arcane; the attacker needs 1 block to survive the defender's sure hit.
    arcane = CombatDie("arcane", ((0, 0, 1),) * 3 + ((0, 0, 0),) * 3)
    hit = CombatDie("hit", ((1, 0, 0),) * 6)
    attacker = Side(((arcane, 1),), Modifiers(0, 1, 1), (Unit("a", 1, 1, 5),), reroll_policy="best",
                    objective="net-ordning-points")
    defender = Side(((hit, 1),), Modifiers(), (Unit("d", 2, 2, 1),))
    # Without a card, an arcane made 2 hits kills the defender (+1) and loses the attacker (-5): a block is better.
    split = advise_conversion(Battle(attacker, defender), "attacker", (0, 0, 1))[0]
    assert (split.to_hits, split.to_blocks, split.totals) == (0, 1, (0, 1))
    # With a card's flat block the attacker is safe anyway, so best play turns the arcane into hits.
    carded = replace(attacker, cards=(BattleCard("Weaponry", "resource", blocks=1),))
    split = advise_conversion(Battle(carded, defender), "attacker", (0, 0, 1))[0]
    assert (split.to_hits, split.to_blocks, split.totals, split.value) == (1, 0, (2, 1), Fraction(1))
    assert expected_values(Battle(carded, defender))["attacker"] == brute_expected(Battle(carded, defender), "attacker")


def test_advice_lists_the_cards_dice_in_the_roll() -> None:
    battle = parse_battle(scenario(attacker=[{"name": "Weaponry", "dice": {"basic": 1}}], reroll_policy="best"))
    roll = [("basic", (0, 0, 0))] * 6 + [("fire", (0, 0, 0))]
    assert advise_reroll(battle, "attacker", roll)[0].best
    with pytest.raises(ScenarioError, match="7 dice"):
        advise_reroll(battle, "attacker", roll[:6])


# --- trace, report, round trip -------------------------------------------------------

def test_the_trace_shows_each_card_before_final_totals() -> None:
    battle = parse_battle(scenario(attacker=[{"name": "Ore", "hits": 2}, {"name": "Haste", "kind": "spell",
                                                                          "rerolls": 1, "dice": {"basic": 1}}]))
    for seed in range(5):
        steps = trace_battle(battle, seed)
        names = [(s.side, s.step) for s in steps if s.side == "attacker"][:6]
        assert names[2:] == [("attacker", "2. Rerolls (cards, second round)"), ("attacker", "3. Conversions"),
                             ("attacker", "Cards (before final totals)"), ("attacker", "Totals")]
        cards = next(s for s in steps if s.step.startswith("Cards"))
        totals = next(s for s in steps if s.side == "attacker" and s.step == "Totals")
        conversions = next(s for s in steps if s.side == "attacker" and s.step == "3. Conversions")
        symbols = conversions.data["symbols"]
        made = (symbols[0] + 2 * conversions.data["to_hits"], symbols[1] + conversions.data["to_blocks"])
        assert (totals.data["hits"], totals.data["blocks"]) == (made[0] + 2, made[1])
        assert "Ore (resource): +2 hits" in cards.text and "enter from your card" in cards.text
        assert cards.page == "rulebook pp.16-17"
        roll = steps[0]
        assert len(roll.data["faces"]) == 7 and "1 basic die from Haste" in roll.text


def test_the_report_lists_the_cards_with_the_label() -> None:
    report = resolve(scenario(attacker=[{"name": "Ore", "hits": 1}], defender=[{"name": "Weaponry", "blocks": 2}]))
    out = report.to_dict()
    assert out["attacker"]["cards"] == [{"name": "Ore", "kind": "resource", "hits": 1, "effects": "+1 hit",
                                         "note": "enter from your card"}]
    assert out["defender"]["cards"][0]["effects"] == "+2 blocks"
    assert "cards" in out["provenance"] and "p.17" in out["provenance"]["cards"]
    assert "cards" not in resolve(BASE).to_dict()["attacker"]
    text = report.to_text()
    assert "Ore (resource): +1 hit" in text and "enter from your card" in text
    assert "card 0: Weaponry (resource)" in report.to_rows().column("quantity")


def test_round_trip_writes_cards_only_when_present() -> None:
    data = scenario(attacker=[{"name": "Ore", "hits": 1, "dice": {"storm": 1}}],
                    defender=[{"name": "Shield", "kind": "spell", "blocks": 1, "rerolls": 0}])
    battle = parse_battle(data)
    written = battle_to_dict(battle)
    assert written["attacker"]["cards"] == [{"name": "Ore", "kind": "resource", "hits": 1, "dice": {"storm": 1}}]
    assert written["defender"]["cards"] == [{"name": "Shield", "kind": "spell", "blocks": 1}]
    assert "storm" in written["dice"]
    again = parse_battle(written)
    for role in ("attacker", "defender"):  # a die written out reads back as the scenario's die, faces equal
        assert [card_to_dict(c) for c in getattr(again, role).cards] == [card_to_dict(c) for c in
                                                                          getattr(battle, role).cards]
    assert again.attacker.cards[0].dice[0][0].faces == battle.attacker.cards[0].dice[0][0].faces
    assert battle_to_dict(again) == written
    assert "cards" not in battle_to_dict(parse_battle(BASE))["attacker"]


def test_the_row_advisor_keeps_the_cards_on_top_of_each_row() -> None:
    from explorer.games.assault_of_the_giants.best.row_advisor import row_options

    data = scenario(attacker=[{"name": "Haste", "kind": "spell", "rerolls": 1, "arcane_to_hits": 1}])
    data["attacker"]["commands"] = ["Leader", "Attack"]
    battle = parse_battle(data)
    options = row_options(battle, ["Magic"], objective="damage", most=1)
    for option in options:
        fought = replace(battle, attacker=replace(battle.attacker, commands=option.row, modifiers=option.modifiers,
                                                  cards=()))
        r = option.modifiers.rerolls  # the card's reroll is a second round after the Leader's (p.16)
        by_hand = replace(fought, attacker=replace(fought.attacker, modifiers=Modifiers(
            r if r else 1, option.modifiers.arcane_to_hits + 1, option.modifiers.arcane_to_blocks,
            card_rerolls=1 if r else 0)))
        assert option.value == resolve_battle(by_hand).defender.damage_taken.mean()


def test_the_card_rulings_are_printed_with_the_others() -> None:
    assert any(r.startswith("Cards in battle") and "pp.16-17" in r for r in BATTLE_RULINGS)
    assert any(r.startswith("Who plays cards") and "NPC giants play none" in r for r in BATTLE_RULINGS)
