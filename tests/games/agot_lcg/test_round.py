"""A Game of Thrones LCG: a whole challenges phase, dominance and best responses.

Golden cases name their Rules Reference entry (Appendix I 4.2 to 4.4 and 5.2 on p.28 and after;
p.23 for winning); the best defence is checked against a brute-force oracle.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import ScenarioError
from explorer.games.agot_lcg import Board, Declaration, PlayerState, best_defence, resolve
from explorer.games.agot_lcg.challenge.model import Character
from explorer.games.agot_lcg.round.plan import MAX_PLAN_CHARACTERS, MAX_PLANS, best_plan, count_plans
from tests.games.agot_lcg import oracle as agot_oracle

ALL = ["military", "intrigue", "power"]


def char(name: str, strength: int, icons: list[str] | None = None, *keywords: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "str": strength, "icons": ALL if icons is None else icons,
            **({"keywords": list(keywords)} if keywords else {}), **more}


def round_of(first_chars: list[dict], second_chars: list[dict], challenges: list[dict] | None = None,
             **extra: Any) -> dict[str, Any]:
    """A round scenario; ``first=`` and ``second=`` update those players' keys."""
    players = {"first": {"faction": 5, "claim": 1, "characters": first_chars},
               "second": {"faction": 5, "claim": 1, "characters": second_chars}}
    for key in ("first", "second"):
        players[key].update(extra.pop(key, {}))
    return {"game": "agot-lcg", "question": "round", "players": players, "challenges": challenges or [], **extra}


def attack(attacker: str, kind: str, *names: str, **more: Any) -> dict[str, Any]:
    return {"attacker": attacker, "type": kind, "attackers": list(names), **more}


# --- p.23 and 5.2: winning, dominance --------------------------------------------------------

def test_p23_an_undefended_challenge_is_unopposed_and_the_round_checks_victory_after_each_step() -> None:
    d = resolve(round_of([char("Knight", 3)], [], [attack("first", "power", "Knight")], first={"faction": 13})).to_dict()
    steps = d["challenges"][0]["steps"]
    assert d["challenges"][0]["unopposed"] and d["game_winner"] == "first"
    assert steps[-1]["step"] == "4.2.4" and d["game_end"]["step"] == "4.2.4" and d["dominance"] is None


def test_5_2_dominance_counts_standing_str_plus_gold_and_a_tie_gives_no_one_power() -> None:
    # Appendix I 5.2: standing characters' STR plus gold; the highest gains 1 power; a tie, no one.
    d = resolve(round_of([char("A", 3)], [char("B", 2)], second={"gold": 1})).to_dict()
    assert d["dominance"] == {"str": {"first": 3, "second": 2}, "gold": {"first": 0, "second": 1},
                              "count": {"first": 3, "second": 3}, "winner": None}
    # A player may win dominance with no standing characters (gold alone).
    d = resolve(round_of([char("A", 3, standing=False)], [], second={"gold": 1})).to_dict()
    assert d["dominance"]["winner"] == "second" and d["power_after"] == {"first": 5, "second": 6}


def test_4_2_attackers_and_defenders_kneel_so_they_do_not_count_at_dominance() -> None:
    # 4.2, 4.2.1: attackers and defenders kneel; a kneeling character is not counted at 5.2.
    data = round_of([char("A", 3), char("B", 1)], [char("C", 2), char("D", 2)],
                    [attack("first", "military", "A", defenders=["C"])])
    d = resolve(data).to_dict()
    after = {c["name"]: c["standing"] for c in d["board_after"]["first"]["characters"]}
    assert after == {"A": False, "B": True}
    # The claim kills C (kneeling, so the least loss by the ruling); D still stands for dominance.
    assert d["challenges"][0]["claim_effects"]["killed"] == ["C"]
    assert d["dominance"]["str"] == {"first": 1, "second": 2}


def test_4_3_the_first_player_makes_their_challenges_first() -> None:
    data = round_of([char("A", 3)], [char("B", 2)], [attack("second", "power", "B"), attack("first", "power", "A")])
    with pytest.raises(ScenarioError, match=r"^challenges\[1\].attacker: the first player makes all their challenges"):
        resolve(data)


def test_4_2_one_challenge_of_each_type_and_eligible_attackers_only() -> None:
    cases = [
        ([attack("first", "power", "A"), attack("first", "power", "B")], r"^challenges\[1\].type: first already makes"),
        ([attack("first", "intrigue", "C")], r"^challenges\[0\].attackers\[0\]: C has no intrigue icon"),
        ([attack("first", "power", "Z")], r"^challenges\[0\].attackers\[0\]: 'Z' is not one of first's characters"),
        ([attack("first", "power")], r"^challenges\[0\].attackers: at least one character must attack"),
        ([attack("first", "power", "A", defenders=["E"])], r"^challenges\[0\].defenders\[0\]: E has no power icon"),
        ([attack("first", "power", "A", intimidate="E")], r"^challenges\[0\].intimidate: name the intimidate target only"),
    ]
    first = [char("A", 2), char("B", 2), char("C", 2, ["power"]), char("K", 2, standing=False)]
    for challenges, message in cases:
        with pytest.raises(ScenarioError, match=message):
            resolve(round_of(first, [char("E", 1, ["military"])], challenges))


def test_an_attacker_knelt_by_intimidate_earlier_is_dropped() -> None:
    # Glossary "Intimidate" kneels the second player's only attacker; their challenge is not initiated.
    data = round_of([char("Bully", 6, None, "intimidate")], [char("Victim", 2), char("Guard", 1, ["power"])],
                    [attack("first", "military", "Bully", defenders=["Guard"]), attack("second", "power", "Victim")])
    with pytest.raises(ScenarioError, match="Guard has no military icon"):
        resolve(data)
    data["challenges"][0]["defenders"] = []
    d = resolve(data).to_dict()
    assert d["challenges"][0]["keywords"][0]["target"] == "Victim"
    assert d["challenges"][1]["initiated"] is False
    assert d["challenges"][1]["dropped"] == ["Victim is kneeling (knelt earlier this round)"]


# --- best responses ------------------------------------------------------------------------

def test_best_defence_denies_the_unopposed_bonus_with_the_least_str() -> None:
    # The defender cannot win (5 against 1 + 3): one character with 1 STR takes away the unopposed bonus.
    data = round_of([char("A", 5)], [char("Small", 1), char("Big", 3)], [attack("first", "power", "A")],
                    second={"faction": 0})
    row = resolve(data).to_dict()["challenges"][0]
    assert row["defence"] == "best" and row["defenders"] == ["Small"] and not row["unopposed"]
    assert len(row["defence_options"]) == 4


def test_best_defence_wins_when_it_can() -> None:
    data = round_of([char("A", 3)], [char("Small", 1), char("Big", 4)], [attack("first", "power", "A")])
    row = resolve(data).to_dict()["challenges"][0]
    assert row["defenders"] == ["Big"] and row["winner"] == "defender"


def test_best_stealth_bypasses_the_defender_who_could_win() -> None:
    # Glossary "Stealth": with no target named, the attacker picks the one that serves them best.
    data = round_of([char("Spy", 3, None, "stealth")], [char("Wall", 5), char("Page", 1)],
                    [attack("first", "intrigue", "Spy")])
    row = resolve(data).to_dict()["challenges"][0]
    assert row["bypassed"] == ["Wall"] and row["winner"] == "attacker" and row["defenders"] == ["Page"]
    assert len(row["stealth_options"]) == 3


def _board(att: list[int], dfn: list[int], renown: list[bool], faction: int, claim: int) -> Board:
    a = PlayerState(tuple(Character(f"A{i}", s, (), ("power",)) for i, s in enumerate(att)), claim=claim)
    d = PlayerState(tuple(Character(f"D{i}", s, ("renown",) if r else (), ("power",))
                          for i, (s, r) in enumerate(zip(dfn, renown))), faction=faction)
    return Board(("a", "d"), (a, d), "a")


@settings(max_examples=120, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=3), st.lists(st.tuples(st.integers(0, 4), st.booleans()),
                                                                      max_size=4),
       st.integers(0, 5), st.integers(0, 3))
def test_best_defence_matches_a_brute_force_oracle(att: list[int], dfn: list[tuple[int, bool]], faction: int,
                                                    claim: int) -> None:
    board = _board(att, [s for s, _ in dfn], [r for _, r in dfn], faction, claim)
    choice = best_defence(board, Declaration("a", "power", tuple(range(len(att))), claim=claim))
    oracle = agot_oracle.best_power_defence_swing(att, [s for s, _ in dfn], claim, faction,
                                                  renown=lambda i: int(dfn[i][1]))
    assert choice.gain[1] == oracle
    assert all(choice.gain <= gain for _, gain in choice.considered)


def test_best_plan_table_and_replay() -> None:
    first = [char("Champion", 5, ["military", "power"], "renown"), char("Raider", 3, ["military", "intrigue"])]
    second = [char("Castellan", 4, ["military", "power"], power=2), char("Guard", 1)]
    data = round_of(first, second, best_plan="first", second={"gold": 1})
    d = resolve(data).to_dict()
    plan = d["best_plan"]
    board = Board(("first", "second"), (PlayerState(tuple(Character(c["name"], c["str"], tuple(c.get("keywords", ())),
                                                                     tuple(c["icons"])) for c in first)),
                                        PlayerState(tuple(Character(c["name"], c["str"], (), tuple(c["icons"]),
                                                                    power=c.get("power", 0)) for c in second))))
    assert plan["plans_considered"] == count_plans(board, "first")
    assert plan["best"] == plan["top"][0] and plan["best_by_order"][0] == plan["best"]
    assert plan["best"]["power_after"] == d["power_after"]  # the report's round replays the best plan
    values = [tuple(row["value"].values()) for row in plan["top"]]
    assert values == sorted(values, reverse=True)
    assert {tuple(row["order"]) for row in plan["best_by_order"]} >= {(), ("power",), ("military",)}


def test_best_plan_limits_are_stated_up_front() -> None:
    many = [char(f"C{i}", 1) for i in range(MAX_PLAN_CHARACTERS + 1)]
    with pytest.raises(ScenarioError, match=r"^players.first.characters: the best plan search compares every plan: "
                                            r"at most 6 characters a side, got 7"):
        resolve(round_of(many, [], best_plan="first"))
    sneaky = [char(f"S{i}", 1, None, "stealth") for i in range(6)]
    with pytest.raises(ScenarioError, match=rf"^best_plan: \d+ plans to compare, more than the {MAX_PLANS}"):
        resolve(round_of(sneaky, [char(f"D{i}", 1) for i in range(6)], best_plan="first"))
    with pytest.raises(ScenarioError, match=r"^challenges: must be empty with best_plan"):
        resolve(round_of([char("A", 1)], [], [attack("first", "power", "A")], best_plan="first"))
    with pytest.raises(ScenarioError, match=r"^players.first.claim: is required"):
        data = round_of([char("A", 1)], [], best_plan="first")
        del data["players"]["first"]["claim"]
        resolve(data)


def test_best_plan_search_on_a_direct_board() -> None:
    me = PlayerState((Character("A", 2, (), ("power",)), Character("B", 1, (), ("military",))), claim=1)
    search = best_plan(Board(("p", "q"), (me, PlayerState(faction=3, gold=2)), "p"), "p")
    assert search.considered == 5  # none, power, military, and both in either order
    assert search.best.value[1] >= max(p.value[1] for p in search.by_order)


ROUND_BAD = [
    ("players.first.characters.0.icons", ["naval"], r"players.first.characters\[0\].icons\[0\]"),
    ("players.first.characters.0.str", -1, r"players.first.characters\[0\].str"),
    ("players.first.gold", "lots", "players.first.gold"),
    ("players.first.hand", {"Ned": -1}, "players.first.hand.Ned"),
    ("players.third", {}, "players.third"),
    ("best_plan", "third", "best_plan"),
    ("challenges.0.defenders", "all", r"challenges\[0\].defenders"),
    ("challenges.0.stealth", {"A": "Nobody"}, r"challenges\[0\].stealth.A"),
]


@pytest.mark.parametrize("path, value, field", ROUND_BAD, ids=[b[0] for b in ROUND_BAD])
def test_round_errors_name_their_field(path: str, value: object, field: str) -> None:
    from tests.scenario.edits import edited

    base = round_of([char("A", 2)], [char("B", 1)], [attack("first", "power", "A")])
    with pytest.raises(ScenarioError, match=f"^{field}: "):
        resolve(edited(base, path, value))


def test_icons_are_required_and_names_unique() -> None:
    base = round_of([char("A", 2)], [char("B", 1)])
    data = copy.deepcopy(base)
    del data["players"]["first"]["characters"][0]["icons"]
    with pytest.raises(ScenarioError, match=r"^players.first.characters\[0\].icons: is required"):
        resolve(data)
    data = round_of([char("A", 2), char("A", 1)], [])
    with pytest.raises(ScenarioError, match=r"^players.first.characters\[0\].name: 'A' is listed twice"):
        resolve(data)
