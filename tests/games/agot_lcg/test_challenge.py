"""A Game of Thrones LCG (2nd ed.), one challenge: Rules Reference golden cases, properties, errors.

Page numbers cite the 2015 Rules Reference; p.23 (Unopposed, Winning a Challenge, Winning the Game,
"Would") is the project's seed page, p.28 holds framework steps 4.2 to 4.2.2.
"""

from __future__ import annotations

import copy
import json
import math
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import ScenarioError
from explorer.games.agot_lcg import (
    FRAMEWORK_STEPS,
    Interrupt,
    Power,
    Side,
    challenge_winner,
    claim_result,
    order_interrupts,
    resolve,
    usable_interrupts,
    victory,
)
from tests.scenario.edits import edited

ROOT = Path(__file__).resolve().parents[3]


def scenario(attackers: list[tuple[int, bool]] | None = None, defenders: list[tuple[int, bool]] | None = None,
             *, kind: str = "power", claim: int = 1, att: tuple[int, int] = (5, 0), dfn: tuple[int, int] = (5, 0),
             **extra: Any) -> dict[str, Any]:
    """A scenario from (STR, renown) pairs and (faction, cards) power."""
    def chars(side: str, pairs: list[tuple[int, bool]]) -> list[dict[str, Any]]:
        return [{"name": f"{side} {i}", "str": s, **({"keywords": ["renown"]} if r else {})}
                for i, (s, r) in enumerate(pairs)]
    data: dict[str, Any] = {
        "game": "agot-lcg",
        "challenge": {"type": kind, "claim": claim,
                      "attackers": chars("A", [(2, False)] if attackers is None else attackers),
                      "defenders": chars("D", defenders or [])},
        "power": {"attacker": {"faction": att[0], "cards": att[1]},
                  "defender": {"faction": dfn[0], "cards": dfn[1]}},
    }
    data.update(extra)
    return data


def report(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return resolve(scenario(*args, **kwargs)).to_dict()


# --- Rules Reference p.23, "Winning a Challenge" -----------------------------------------

def test_p23_tie_at_one_or_more_str_goes_to_the_attacker() -> None:
    assert challenge_winner(3, 3) == "attacker"
    assert challenge_winner(1, 1) == "attacker"
    assert report([(2, False)], [(2, False)])["winner"] == "attacker"
    assert report([(2, False)], [(3, False)])["winner"] == "defender"


def test_p23_zero_str_cannot_win_even_on_a_tie() -> None:
    d = report([(0, False)], [(0, False)])
    assert (d["winner"], d["unopposed"]) == ("none", False)
    assert d["power_after"] == {"attacker": 5, "defender": 5}


def test_p23_no_participating_character_cannot_win_and_there_is_no_fallback() -> None:
    # Attackers left play but 3 STR still counts for them: higher, yet no participant -> no one wins,
    # and the defender (1 STR, 1 character) does not win in their place.
    d = report([], [(1, False)], challenge={"type": "power", "claim": 1, "attackers": [],
                                            "defenders": [{"name": "D", "str": 1}],
                                            "str_modifiers": {"attacker": 3}})
    assert (d["str"], d["winner"]) == ({"attacker": 3, "defender": 1}, "none")
    # The same from the defender's side.
    assert challenge_winner(2, 5, attacker_characters=1, defender_characters=0) == "none"
    d = report([(2, False)], [], challenge={"type": "power", "claim": 1, "attackers": [{"name": "A", "str": 2}],
                                            "defenders": [], "str_modifiers": {"defender": 5}})
    assert d["winner"] == "none" and not d["unopposed"]


def test_p23_when_neither_wins_nothing_happens() -> None:
    d = report([(0, True)], [(0, True)], claim=3)
    assert d["winner"] == "none"
    assert d["claim_effects"] is None and d["power_moved"] == 0 and d["unopposed_bonus"] == 0
    assert d["renown_gained"] == {"attacker": 0, "defender": 0}
    assert d["power_after"] == {"attacker": 5, "defender": 5}


# --- Rules Reference p.23, "Unopposed" ---------------------------------------------------

def test_p23_unopposed_bonus_with_no_defenders_or_zero_str_defenders() -> None:
    for defenders in ([], [(0, False), (0, True)]):
        d = report([(2, False)], defenders, claim=0)
        assert d["unopposed"] and d["unopposed_bonus"] == 1
        assert d["power_after_detail"]["attacker"] == {"faction": 6, "cards": 0, "total": 6}
    assert not report([(2, False)], [(1, False)])["unopposed"]
    # Unopposed needs the attacker to win: 0 STR against 0 STR is not.
    assert not report([(0, False)], [])["unopposed"]


def test_framework_table_cites_pages_and_keeps_the_step_order() -> None:
    numbers = [s.number for s in FRAMEWORK_STEPS]
    assert numbers == ["4.2", "4.2.1", "4.2.2", "4.2.3", "4.2.4", "4.2.5", "4.2.6"]
    assert all("Rules Reference" in s.source and s.window_after for s in FRAMEWORK_STEPS)
    assert "p.23" in FRAMEWORK_STEPS[3].source and "p.28" in FRAMEWORK_STEPS[2].source
    steps = [s["step"] for s in report([(2, False)], [])["steps"]]
    assert steps == ["start", "4.2.2", "4.2.3", "4.2.4", "4.2.5", "4.2.6"]


# --- claim and renown ----------------------------------------------------------------------

def test_power_claim_moves_at_most_the_defenders_faction_power() -> None:
    d = report([(3, False)], [(1, False)], claim=2, att=(4, 1), dfn=(1, 6))
    assert d["power_moved"] == 1 and d["claim_effects"]["limited_by"]
    assert d["power_after_detail"]["defender"] == {"faction": 0, "cards": 6, "total": 6}
    assert d["power_after"] == {"attacker": 6, "defender": 6}


def test_no_claim_when_the_defender_wins() -> None:
    d = report([(1, True)], [(4, True), (1, True), (2, False)], claim=3)
    assert d["winner"] == "defender" and d["claim_effects"] is None
    assert d["renown_gained"] == {"attacker": 0, "defender": 2}
    assert d["power_after"] == {"attacker": 5, "defender": 7}


def test_military_and_intrigue_claims_move_no_power() -> None:
    d = report([(3, True)], [], kind="military", claim=2, defender={"characters": 1})
    assert d["claim_effects"]["characters_to_kill"] == 1 and d["claim_effects"]["chosen_by"] == "defender"
    assert d["power_moved"] == 0 and d["power_after"] == {"attacker": 7, "defender": 5}  # +1 bonus, +1 renown
    d = report([(3, False)], [], kind="military", claim=2)
    assert d["claim_effects"]["characters_to_kill"] == 2 and d["claim_effects"]["upper_bound"]
    d = report([(3, False)], [(1, False)], kind="intrigue", claim=2, defender={"hand": {"Ned": 1, "Robb": 3}})
    effects = d["claim_effects"]
    assert effects["cards_to_discard"] == 2 and d["power_moved"] == 0
    assert effects["discards_exact"] == {"1 x Ned, 1 x Robb": "1/2", "2 x Robb": "1/2"}
    assert effects["discard_chance"] == {"Ned": 0.5, "Robb": 1.0}


def test_intrigue_claim_is_capped_by_the_hand() -> None:
    d = report([(3, False)], [], kind="intrigue", claim=3, defender={"hand": {"Ned": 1}})
    assert d["claim_effects"]["cards_to_discard"] == 1 and d["claim_effects"]["discards"] == {"1 x Ned": 1.0}


def test_renown_goes_on_the_winners_characters() -> None:
    d = report([(2, True), (1, True), (1, False)], [(1, True)], claim=0)
    assert d["renown_gained"] == {"attacker": 2, "defender": 0}
    assert d["power_after_detail"]["attacker"] == {"faction": 5, "cards": 2, "total": 7}


# --- Rules Reference p.23, "Winning the Game" ----------------------------------------------

def test_p23_fifteen_power_on_faction_and_cards_wins_at_once() -> None:
    # 14 -> unopposed bonus makes 15 at 4.2.3: the game ends, claim and renown are not resolved.
    d = report([(2, True)], [], claim=1, att=(10, 4), dfn=(3, 0))
    assert d["game_winner"] == "attacker" and d["game_end"]["step"] == "4.2.3"
    assert d["power_after"] == {"attacker": 15, "defender": 3} and d["power_moved"] == 0
    # 13 + bonus + claim 1 = 15 at 4.2.4; one short of 15 is no win.
    assert report([(2, False)], [], claim=1, att=(10, 3))["game_end"]["step"] == "4.2.4"
    assert report([(2, False)], [], claim=0, att=(10, 3))["game_winner"] is None
    # The defender can win too, by renown.
    d = report([(1, False)], [(2, True)], dfn=(10, 4))
    assert (d["game_winner"], d["game_end"]["reason"]) == ("defender", "power")


def test_p23_a_position_already_won_resolves_no_challenge() -> None:
    d = report([(3, True)], [], att=(10, 5))
    assert d["game_winner"] == "attacker" and d["game_end"]["step"] == "start"
    assert d["winner"] == "none" and d["power_after"] == {"attacker": 15, "defender": 5}


def test_p23_simultaneous_fifteen_is_decided_by_the_first_player() -> None:
    d = report([(3, False)], [], att=(15, 0), dfn=(10, 6))
    assert d["game_winner"] is None
    assert d["game_end"]["reason"] == "simultaneous" and d["game_end"]["decided_by"] == "undecided"
    assert "first player decides" in resolve(scenario([(3, False)], [], att=(15, 0), dfn=(10, 6))).to_text()
    for first in ("attacker", "defender"):
        d = report([(3, False)], [], att=(15, 0), dfn=(10, 6), first_player=first)
        assert d["game_winner"] == first and d["game_end"]["decided_by"] == "first player"
    assert victory({"attacker": 20, "defender": 15}, first_player="defender").winner == "defender"


def test_p23_an_empty_draw_deck_eliminates() -> None:
    d = report([(3, False)], [], defender={"deck": 0}, attacker={"deck": 12})
    assert d["game_winner"] == "attacker" and d["game_end"]["reason"] == "elimination"
    assert d["game_end"]["eliminated"] == ["defender"]
    d = report([(3, False)], [], defender={"deck": 0}, attacker={"deck": 0})
    assert d["game_winner"] is None and d["game_end"]["reason"] == "simultaneous"
    d = report([(3, False)], [], defender={"deck": 0}, attacker={"deck": 0}, first_player="defender")
    assert d["game_winner"] == "defender"
    assert report([(3, False)], [], defender={"deck": 1})["game_winner"] is None


# --- Rules Reference p.23, "Would" -------------------------------------------------------------

def test_p23_would_interrupts_come_before_is_interrupts() -> None:
    grief = Interrupt("Grief", "When a character is killed")
    forced = Interrupt("Forced", "When a character is killed", forced=True)
    save = Interrupt("Bodyguard", "When a character would be killed", changes_outcome=True)
    peek = Interrupt("Peek", "When a character would be killed")
    cancel = Interrupt("Treachery", "When an ability would initiate", cancel=True)
    ordered = order_interrupts([grief, forced, save, peek, cancel])
    assert [i.name for i in ordered] == ["Treachery", "Bodyguard", "Peek", "Forced", "Grief"]
    used, blocked = usable_interrupts([grief, peek, save])
    assert [i.name for i in used] == ["Peek", "Bodyguard"] and [i.name for i in blocked] == ["Grief"]
    assert usable_interrupts([grief, peek]) == ([peek, grief], [])
    assert not Interrupt("x", "when a character is wounded").would


# --- properties ---------------------------------------------------------------------------------

characters = st.lists(st.tuples(st.integers(0, 6), st.booleans()), max_size=4)
powers = st.tuples(st.integers(0, 16), st.integers(0, 8))


@settings(max_examples=300, deadline=None)
@given(characters, characters, st.sampled_from(["military", "intrigue", "power"]), st.integers(0, 4),
       powers, powers, st.integers(-3, 3), st.integers(-3, 3))
def test_power_conservation_and_the_winner_requirements(att_chars: list, def_chars: list, kind: str, claim: int,
                                                        att: tuple, dfn: tuple, mod_a: int, mod_d: int) -> None:
    data = scenario(att_chars, def_chars, kind=kind, claim=claim, att=att, dfn=dfn)
    data["challenge"]["str_modifiers"] = {"attacker": mod_a, "defender": mod_d}
    d = resolve(data).to_dict()
    before = sum(att) + sum(dfn)
    after = d["power_after"]["attacker"] + d["power_after"]["defender"]
    assert after == before + d["unopposed_bonus"] + sum(d["renown_gained"].values())
    assert all(v >= 0 for side in d["power_after_detail"].values() for v in side.values())
    assert d["power_moved"] <= min(claim, dfn[0])
    a_str = max(0, sum(s for s, _ in att_chars) + mod_a)
    d_str = max(0, sum(s for s, _ in def_chars) + mod_d)
    assert d["str"] == {"attacker": a_str, "defender": d_str}
    if d["game_end"] is None or d["game_end"]["step"] != "start":
        # Oracle straight from p.23: each side's requirements, ties to the attacker.
        attacker_wins = a_str >= d_str and a_str >= 1 and len(att_chars) >= 1
        defender_wins = d_str > a_str and d_str >= 1 and len(def_chars) >= 1
        assert d["winner"] == ("attacker" if attacker_wins else "defender" if defender_wins else "none")
        assert d["unopposed"] == (attacker_wins and d_str == 0)
    if d["winner"] != "none":
        assert d["str"][d["winner"]] >= 1 and d["participants"][d["winner"]] >= 1
    else:
        assert after == before and d["power_after"] == {"attacker": sum(att), "defender": sum(dfn)}
    winners = [p for p, v in d["power_after"].items() if v >= 15]
    if d["game_end"] is None:
        assert not winners
    elif d["game_end"]["reason"] == "power":
        assert winners == [d["game_winner"]]


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from("ABCDE"), st.integers(0, 4), max_size=5), st.integers(0, 6))
def test_intrigue_discards_match_the_hypergeometric_law(hand: dict[str, int], claim: int) -> None:
    effect = claim_result("intrigue", claim, Side(hand=tuple(hand.items())))
    size = sum(hand.values())
    n = min(claim, size)
    assert effect.discards == n and effect.discard_dist is not None
    assert all(sum(k for _, k in outcome) == n for outcome in effect.discard_dist)
    for card, copies in hand.items():
        if copies:
            expected = 1 - Fraction(math.comb(size - copies, n), math.comb(size, n))
            assert effect.discard_chance()[card] == pytest.approx(float(expected), abs=1e-12)


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10))
def test_power_claim_is_min_of_claim_and_faction(claim: int, faction: int, cards: int) -> None:
    assert claim_result("power", claim, Side(power=Power(faction, cards))).power_moved == min(claim, faction)


@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.booleans()), max_size=8))
def test_every_would_interrupt_precedes_every_is_interrupt(flags: list[tuple[bool, bool, bool]]) -> None:
    interrupts = [Interrupt(f"i{k}", "when a character would be killed" if would else "when a character is killed",
                            forced=forced, cancel=cancel) for k, (would, forced, cancel) in enumerate(flags)]
    ordered = order_interrupts(interrupts)
    assert sorted(ordered, key=lambda i: i.name) == sorted(interrupts, key=lambda i: i.name)
    plain = [i for i in ordered if not i.cancel]
    assert [i.would for i in plain] == sorted((i.would for i in plain), reverse=True)
    assert [i.cancel for i in ordered] == sorted((i.cancel for i in ordered), reverse=True)


# --- scenario files, report forms ---------------------------------------------------------------

def test_example_json_and_toml_give_the_same_report() -> None:
    js = json.loads((ROOT / "examples" / "agot-power-challenge.json").read_text())
    toml = tomllib.loads((ROOT / "examples" / "agot-power-challenge.toml").read_text())
    d = resolve(js).to_dict()
    assert d == resolve(toml).to_dict()
    assert {k: d[k] for k in ("format", "game", "winner", "unopposed", "power_after", "game_winner")} == {
        "format": 1, "game": "agot-lcg", "winner": "attacker", "unopposed": True,
        "power_after": {"attacker": 15, "defender": 6}, "game_winner": "attacker"}


def test_frame_and_text() -> None:
    rep = resolve(scenario([(3, True)], [(1, False)], kind="intrigue", claim=1, defender={"hand": {"A": 1, "B": 1}}))
    rows = rep.to_rows()
    assert rows.columns == ("quantity", "side", "value", "probability")
    discarded = rows.where(quantity="discarded")
    assert sorted((r["value"], r["probability"]) for r in discarded) == [("1 x A", 0.5), ("1 x B", 0.5)]  # one of two
    assert [r["value"] for r in rows.where(quantity="power_after", side="attacker")] == [6]
    text = rep.to_text()
    assert "INTRIGUE CHALLENGE" in text and "4.2.5" in text and "50.00%" in text


# --- errors name the field -----------------------------------------------------------------------

BASE = scenario([(2, True)], [(1, False)])


def _with(path: str, value: object) -> dict:
    return edited(BASE, path, value)


BAD = [
    ("challenge.type", "naval", "challenge.type"),
    ("challenge.claim", -1, "challenge.claim"),
    ("challenge.attackers.0.str", -1, r"challenge.attackers\[0\].str"),
    ("challenge.attackers.0.str", 2.5, r"challenge.attackers\[0\].str"),
    ("challenge.defenders.0.cost", 3, r"challenge.defenders\[0\].cost"),
    ("challenge.attackers.0.keywords", ["renwon"], r"challenge.attackers\[0\].keywords\[0\]"),
    ("challenge.attackers.0.keywords", ["renown", "Renown"], r"challenge.attackers\[0\].keywords\[1\]"),
    ("challenge.attackers.0.keywords", "renown", r"challenge.attackers\[0\].keywords"),
    ("challenge.attackers.0.name", "", r"challenge.attackers\[0\].name"),
    ("challenge.attackers", "none", "challenge.attackers"),
    ("challenge.str_modifiers", {"attacker": "x"}, "challenge.str_modifiers.attacker"),
    ("challenge.str_modifiers", {"both": 1}, "challenge.str_modifiers.both"),
    ("power.defender.faction", -1, "power.defender.faction"),
    ("power.attacker.gold", 3, "power.attacker.gold"),
    ("first_player", "north", "first_player"),
    ("format", 2, "format"),
    ("colour", "red", "colour"),
    ("defender.hand", {"Ned": -1}, "defender.hand.Ned"),
    ("defender.characters", 0, "defender.characters"),
    ("defender.deck", True, "defender.deck"),
    ("attacker.hand", {"Ned": 1}, "attacker.hand"),
]


@pytest.mark.parametrize("path, value, field", BAD, ids=[b[0] + "=" + repr(b[1]) for b in BAD])
def test_bad_values_name_their_field(path: str, value: object, field: str) -> None:
    with pytest.raises(ScenarioError, match=f"^{field}: "):
        resolve(_with(path, value))


def test_missing_keys_are_named() -> None:
    for path, field in (("challenge.attackers.0", r"challenge.attackers\[0\].str"), ("", "power"),
                        ("challenge", "challenge.type")):
        data = copy.deepcopy(BASE)
        if path == "":
            del data["power"]
        elif path == "challenge":
            del data["challenge"]["type"]
        else:
            del data["challenge"]["attackers"][0]["str"]
        with pytest.raises(ScenarioError, match=f"^{field}: is required"):
            resolve(data)


def test_valued_and_other_glossary_keywords_are_accepted() -> None:
    # Issue 8: insight now acts (the winner draws) and ambush is reported as not acting in a challenge;
    # this test used to expect insight listed as "not modeled".
    data = _with("challenge.attackers.0.keywords", ["Ambush (3)", "stealth", "insight", "renown"])
    d = resolve(data).to_dict()
    assert d["renown_gained"]["attacker"] == 1
    assert [(k["keyword"], k["amount"]) for k in d["keywords"]] == [("insight", 1), ("renown", 1)]
    assert d["keywords_not_acting"] == ["A 0: ambush does not act in a challenge (a way to put a card into play "
                                        "from hand for X gold during the challenges phase)"]
    assert d["stealth_bypassed"] == []
