"""A Game of Thrones LCG: what a challenge file and a round file refuse, and the forms both take.

Golden cases cite the rules note (``shared/rules/agot-lcg.md``: §1.4 "Military claim", no character
chosen twice; §1.5 "Stealth" and "Intimidate", §1.1 for the
standing attackers of 4.2 and the defenders of 4.2.1, p.28). Properties: a repeated name is
refused wherever it is given, and the order characters are listed in changes no answer.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import ScenarioError
from explorer.games.agot_lcg import resolve

ALL = ["military", "intrigue", "power"]


def one(name: str, strength: int, *keywords: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "str": strength, **({"keywords": list(keywords)} if keywords else {}), **more}


def challenge(attackers: list[dict[str, Any]], defenders: list[dict[str, Any]], *, kind: str = "military", claim: int = 1,
              **keys: Any) -> dict[str, Any]:
    """A one-challenge file; ``keys`` go into ``challenge`` except ``attacker`` / ``defender`` / ``power``."""
    top: dict[str, Any] = {k: keys.pop(k) for k in ("attacker", "defender") if k in keys}
    return {"game": "agot-lcg",
            "challenge": {"type": kind, "claim": claim, "attackers": attackers, "defenders": defenders, **keys},
            "power": {"attacker": {"faction": 5}, "defender": {"faction": 5}}, **top}


def char(name: str, strength: int, *keywords: str, **more: Any) -> dict[str, Any]:
    return {"icons": ALL, **one(name, strength, *keywords), **more}


def round_of(first_chars: list[dict[str, Any]], second_chars: list[dict[str, Any]], challenges: list[dict[str, Any]], **players: Any
             ) -> dict[str, Any]:
    data: dict[str, Any] = {"game": "agot-lcg", "question": "round",
            "players": {"first": {"faction": 5, "claim": 1, "characters": first_chars},
                        "second": {"faction": 5, "claim": 1, "characters": second_chars}},
            "challenges": challenges}
    for key, more in players.items():
        data["players"][key].update(more)
    return data


def refused(data: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        resolve(data)
    return caught.value


# --- §1.4 Military claim: different characters, none chosen twice ------------------------------

def test_military_claim_naming_a_character_twice_is_refused_in_a_challenge_file() -> None:
    # Issue 21: kill ["S", "S"] used to kill S once and count two kills.
    data = challenge([one("Knight", 5)], [one("S", 1)], claim=2, kill=["S", "S"],
                     defender={"others": [one("T", 1)]})
    error = refused(data)
    assert error.field == "challenge.kill[1]"
    assert "'S' repeats challenge.kill[0]" in str(error) and "Military Claim" in str(error)
    data["challenge"]["kill"] = ["S", "T"]
    assert resolve(data).to_dict()["claim_effects"]["killed"] == ["S", "T"]


def test_military_claim_naming_a_character_twice_is_refused_in_a_round_file() -> None:
    data = round_of([char("Knight", 5)], [char("S", 1), char("T", 1)],
                    [{"attacker": "first", "type": "military", "attackers": ["Knight"], "defenders": [],
                      "kill": ["S", "S"]}], first={"claim": 2})
    error = refused(data)
    assert error.field == "challenges[0].kill[1]" and "'S' repeats challenges[0].kill[0]" in str(error)


# --- names identify characters: unique for a side ----------------------------------------------

@pytest.mark.parametrize(("where", "field"), [
    ("attackers", "challenge.attackers[1].name"),
    ("defenders", "challenge.defenders[1].name"),
    ("others", "defender.others[0].name"),
    ("attacker_others", "attacker.others[0].name"),
])
def test_a_character_name_used_twice_on_one_side_is_refused(where: str, field: str) -> None:
    attackers, defenders = [one("A", 3)], [one("D", 1)]
    extra: dict[str, Any] = {}
    if where == "attackers":
        attackers.append(one("A", 2))
    elif where == "defenders":
        defenders.append(one("D", 2))
    elif where == "others":
        extra["defender"] = {"others": [one("D", 2)]}
    else:
        extra["attacker"] = {"others": [one("A", 2)]}
    error = refused(challenge(attackers, defenders, **extra))
    assert error.field == field and "names must be unique for a side" in str(error)


def test_the_same_name_on_both_sides_is_allowed() -> None:
    # Names identify a character within its side: stealth, kill and intimidate each name one side's.
    d = resolve(challenge([one("Guard", 3)], [one("Guard", 1)], kind="power")).to_dict()
    assert d["winner"] == "attacker"


def test_round_attackers_and_defenders_named_twice_are_refused_at_the_repeat() -> None:
    base = [{"attacker": "first", "type": "power", "attackers": ["A", "A"]}]
    error = refused(round_of([char("A", 2)], [char("B", 1)], base))
    assert error.field == "challenges[0].attackers[1]" and "declared once" in str(error)
    base = [{"attacker": "first", "type": "power", "attackers": ["A"], "defenders": ["B", "B"]}]
    assert refused(round_of([char("A", 2)], [char("B", 1)], base)).field == "challenges[0].defenders[1]"


# --- §1.5 Stealth: each stealth attacker chooses one character ----------------------------------

def test_two_stealth_attackers_naming_the_same_target_are_refused() -> None:
    attackers = [one("Spy", 2, "stealth"), one("Thief", 2, "stealth")]
    data = challenge(attackers, [], kind="power", stealth={"Spy": "Guard", "Thief": "Guard"},
                     defender={"others": [one("Guard", 3), one("Maester", 1)]})
    error = refused(data)
    assert error.field == "challenge.stealth.Thief" and "already the stealth target of 'Spy'" in str(error)
    data["challenge"]["stealth"] = {"Spy": "Guard", "Thief": "Maester"}
    assert resolve(data).to_dict()["winner"] == "attacker"
    rnd = round_of([char("Spy", 2, "stealth"), char("Thief", 2, "stealth")], [char("Guard", 3), char("Maester", 1)],
                   [{"attacker": "first", "type": "power", "attackers": ["Spy", "Thief"],
                     "stealth": {"Spy": "Guard", "Thief": "Guard"}}])
    assert refused(rnd).field == "challenges[0].stealth.Thief"


# --- §1.5 Intimidate: it acts only for an attacker controlling a character with the keyword ------

def test_an_intimidate_target_without_an_intimidate_attacker_is_refused() -> None:
    data = challenge([one("Knight", 5)], [], kind="power", intimidate="Guard", defender={"others": [one("Guard", 1)]})
    error = refused(data)
    assert error.field == "challenge.intimidate" and "no attacker has intimidate" in str(error)
    data["challenge"]["attackers"][0]["keywords"] = ["intimidate"]
    d = resolve(data).to_dict()
    assert [k["target"] for k in d["keywords"] if k["keyword"] == "intimidate"] == ["Guard"]
    rnd = round_of([char("Knight", 5)], [char("Guard", 1)],
                   [{"attacker": "first", "type": "power", "attackers": ["Knight"], "defenders": [],
                     "intimidate": "Guard"}])
    error = refused(rnd)
    assert error.field == "challenges[0].intimidate" and "no attacker has intimidate" in str(error)


# --- defender.hand: a number or name -> copies, in both files -----------------------------------

def test_defender_hand_as_a_number_in_a_challenge_file_caps_the_intrigue_claim() -> None:
    # §1.4 Intrigue claim: "as much of the claim as possible"; a hand of 1 loses its one card.
    d = resolve(challenge([one("Spy", 3)], [], kind="intrigue", claim=2, defender={"hand": 1})).to_dict()
    assert d["claim_effects"]["cards_to_discard"] == 1 and d["claim_effects"]["hand_size"] == 1
    named = resolve(challenge([one("Spy", 3)], [], kind="intrigue", claim=2,
                              defender={"hand": {"Ned": 1, "Robb": 3}})).to_dict()["claim_effects"]
    assert named["cards_to_discard"] == 2 and named["hand_size"] == 4 and named["survival_chance"]["Ned"] == 0.5
    assert refused(challenge([one("Spy", 3)], [], kind="intrigue", defender={"hand": -1})).field == "defender.hand"


def test_player_hand_in_a_round_file_takes_both_forms() -> None:
    attack = [{"attacker": "first", "type": "intrigue", "attackers": ["Spy"], "defenders": []}]
    for hand, size in ((3, 3), ({"Ned": 1, "Robb": 2}, 3)):
        d = resolve(round_of([char("Spy", 3)], [], attack, first={"claim": 2}, second={"hand": hand})).to_dict()
        effects = d["challenges"][0]["claim_effects"]
        assert effects["cards_to_discard"] == 2 and effects["hand_size"] == size


# --- 4.2, 4.2.1: a kneeling character cannot be declared; the round drops it with a note --------

def test_an_attacker_kneeling_at_the_start_of_the_round_is_dropped_with_a_note() -> None:
    data = round_of([char("Tired", 4, standing=False), char("Fresh", 2)], [char("Guard", 1)],
                    [{"attacker": "first", "type": "power", "attackers": ["Tired", "Fresh"], "defenders": []}])
    rep = resolve(data)
    record = rep.to_dict()["challenges"][0]
    assert record["attackers"] == ["Fresh"] and record["str"] == {"attacker": 2, "defender": 0}
    note = "Tired is kneeling at the start of the round (standing: false) and cannot attack (4.2, 4.2.1)"
    assert record["dropped"] == [note]
    assert f"dropped: {note}" in rep.to_text()
    data["challenges"][0]["attackers"] = ["Tired"]
    record = resolve(data).to_dict()["challenges"][0]
    assert record["initiated"] is False and "cannot attack" in record["dropped"][0]


def test_a_character_listed_in_two_challenges_attacks_once_and_is_dropped_from_the_second() -> None:
    # 4.2: attackers kneel when declared; a kneeling character cannot be declared again.
    data = round_of([char("A", 3), char("B", 1)], [],
                    [{"attacker": "first", "type": "power", "attackers": ["A"]},
                     {"attacker": "first", "type": "military", "attackers": ["A", "B"]}])
    second = resolve(data).to_dict()["challenges"][1]
    assert second["attackers"] == ["B"] and second["dropped"] == ["A is kneeling (knelt earlier this round)"]


def test_a_kneeling_defender_listed_is_dropped_with_a_note() -> None:
    data = round_of([char("A", 3)], [char("Asleep", 5, standing=False)],
                    [{"attacker": "first", "type": "power", "attackers": ["A"], "defenders": ["Asleep"]}])
    record = resolve(data).to_dict()["challenges"][0]
    assert record["defenders"] == [] and record["unopposed"] is True
    assert record["dropped"] == ["Asleep is kneeling at the start of the round (standing: false) and cannot defend "
                                 "(4.2, 4.2.1)"]


# --- properties --------------------------------------------------------------------------------

NAMES = st.lists(st.sampled_from("ABCDEFGH"), min_size=1, max_size=5, unique=True)


@settings(max_examples=40, deadline=None)
@given(names=NAMES, data=st.data())
def test_any_repeated_name_in_kill_is_refused_at_its_second_place(names: list[str], data: st.DataObject) -> None:
    repeat = data.draw(st.sampled_from(names))
    at = data.draw(st.integers(names.index(repeat) + 1, len(names)))
    kill = names[:at] + [repeat] + names[at:]
    chars = [one(n, 1) for n in names]
    error = refused(challenge([one("K", 9)], chars[:1], claim=len(kill), kill=kill,
                              defender={"others": chars[1:]}))
    assert error.field == f"challenge.kill[{at}]" and f"{repeat!r} repeats" in str(error)


@settings(max_examples=40, deadline=None)
@given(names=NAMES, data=st.data())
def test_any_repeated_character_name_is_refused(names: list[str], data: st.DataObject) -> None:
    repeat = data.draw(st.sampled_from(names))
    listed = names + [repeat]
    error = refused(challenge([one("K", 9)], [one(n, 1) for n in listed], kind="power"))
    assert error.field == f"challenge.defenders[{len(names)}].name"


STRS = st.lists(st.tuples(st.integers(0, 5), st.booleans()), min_size=0, max_size=4)


@settings(max_examples=60, deadline=None)
@given(att=STRS.filter(bool), dfn=STRS, others=STRS, kind=st.sampled_from(ALL), claim=st.integers(0, 3),
       seed=st.integers(0, 10**6))
def test_permuting_the_listed_characters_changes_no_answer(att: list[tuple[int, bool]], dfn: list[tuple[int, bool]],
                                                            others: list[tuple[int, bool]], kind: str, claim: int,
                                                            seed: int) -> None:
    def chars(prefix: str, pairs: list[tuple[int, bool]]) -> list[dict[str, Any]]:
        return [one(f"{prefix}{i}", s, *(["renown"] if r else [])) for i, (s, r) in enumerate(pairs)]
    base = challenge(chars("A", att), chars("D", dfn), kind=kind, claim=claim,
                     defender={"others": chars("O", others), "hand": 4})
    # Distinct STR and power keep the ruling's choice of victims independent of the order listed.
    for k, c in enumerate(base["challenge"]["defenders"] + base["defender"]["others"]):
        c["power"] = k
    shuffled = copy.deepcopy(base)
    rng = random.Random(seed)
    for chars_list in (shuffled["challenge"]["attackers"], shuffled["challenge"]["defenders"],
                       shuffled["defender"]["others"]):
        rng.shuffle(chars_list)
    a, b = resolve(base).to_dict(), resolve(shuffled).to_dict()
    for key in ("winner", "unopposed", "power_after", "game_winner", "headline"):
        assert a.get(key) == b.get(key), key
    assert sorted((a["claim_effects"] or {}).get("killed") or []) == sorted((b["claim_effects"] or {}).get("killed") or [])
