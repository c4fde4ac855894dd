"""The report's words (issue 21, parts 4-5): each key means one thing everywhere, answers are keyed
by the names the file gives, the old keys stay as documented aliases, every top-level key is on the
game's page, and the battle's headline numbers are the defender's damage taken, exactly.
"""

from __future__ import annotations

import copy
import json
import re
from fractions import Fraction
from itertools import product
from pathlib import Path
from typing import Any

import pytest

import explorer
from explorer import resolve

DOCS = Path("docs/assault-of-the-giants.md").read_text()
EXAMPLES = ("examples/fire-vs-hill.json", "examples/npc-stone-giants.toml", "examples/aotg-giantslayers.json",
            "examples/aotg-row-advisor.json",
            "examples/aotg-table.json", "examples/aotg-plan.json")
TABLE: dict[str, Any] = json.loads(Path("examples/aotg-table.json").read_text())


def _named_in_docs(key: str) -> bool:
    return f"`{key}`" in DOCS or re.search(rf"`[^`]*\b{re.escape(key)}\b[^`]*`", DOCS) is not None


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    return {path: resolve(explorer.load_scenario(path)).to_dict() for path in EXAMPLES}


@pytest.mark.parametrize("path", EXAMPLES)
def test_every_top_level_key_of_each_example_report_is_on_the_games_page(
        reports: dict[str, dict[str, Any]], path: str) -> None:
    missing = [key for key in reports[path] if not _named_in_docs(key)]
    assert not missing, f"{path}: keys not named in docs/assault-of-the-giants.md: {missing}"


def test_the_table_and_final_keys_are_on_the_games_page(reports: dict[str, dict[str, Any]]) -> None:
    table = reports["examples/aotg-table.json"]["table"]
    final = reports["examples/aotg-plan.json"]["final"]
    keys = [*table, *table["endgame_turns"], *table["winner"], *table["giantslayers"], *final,
            *final["most_likely"][0]]
    assert [k for k in keys if not _named_in_docs(k)] == []


def test_the_page_section_lists_the_deprecated_aliases_and_each_is_still_written(
        reports: dict[str, dict[str, Any]]) -> None:
    section = DOCS.split("### Renamed and deprecated keys", 1)[1].split("\n## ", 1)[0]
    for old in ("table.regions", "table.endgame_turns.turns", "table.endgame_turns.after", "table.inferred",
                "final.most_likely[i].ordning_points", "ruling_keys", "final.decided_by_chances"):
        assert f"`{old}" in section, old
    table = reports["examples/aotg-table.json"]["table"]
    # old keys present, and the same facts as the new ones
    assert [r["region"] for r in table["regions"]] == list(table["region_answers"])
    assert all({k: v for k, v in old.items() if k != "region"} == table["region_answers"][old["region"]]
               for old in table["regions"])
    turns = table["endgame_turns"]
    assert turns["turns"] == turns["turns_after_second_pool_empty"]
    assert turns["after"] == turns["second_pool_emptied_on_turn_of"] == "stone"
    assert turns["count"] == len(turns["turns"])
    assert table["inferred"] == table["inferred_rulings"]
    for answer in table["recruit"].values():
        assert answer["rulings"] == answer["ruling_keys"] and isinstance(answer["inferred"], bool)
    for row in reports["examples/aotg-plan.json"]["final"]["most_likely"]:
        for player, line in row["standings"].items():
            assert [line[k] for k in ("ordning_points", "resource_cards", "regions")] == [
                row["ordning_points"][player], row["resource_cards"][player], row["regions"][player]]


def test_region_answers_are_keyed_by_the_names_written_in_input_order(reports: dict[str, dict[str, Any]]) -> None:
    answers = reports["examples/aotg-table.json"]["table"]["region_answers"]
    assert list(answers) == [r["name"] for r in TABLE["table"]["regions"]]
    assert set(answers["Triboar"]) == {"pass_through", "end_move", "attack"}
    # p.11: no move ends where another race's giants stand (stone is the current player)
    assert answers["Maelstrom"]["end_move"]["allowed"] is False
    assert answers["Deadstone Cleft"]["end_move"]["allowed"] is True


def test_decided_by_is_the_deciding_step_in_tables_and_plans(reports: dict[str, dict[str, Any]]) -> None:
    """p.20's chain: `decided_by` is a step name or null, `decided_by_chances` each step's chance."""
    steps = {"ordning_points", "resource_cards", "regions", "shared"}
    winner = reports["examples/aotg-table.json"]["table"]["winner"]
    final = reports["examples/aotg-plan.json"]["final"]
    for found in (winner, final):
        assert found["decided_by"] is None          # both examples still have random points
        assert set(found["decided_by_chances"]) == steps
        assert sum(found["decided_by_chances"].values()) == pytest.approx(1)
    assert all(row["decided_by"] in steps for row in final["most_likely"])


def _certain_plan() -> dict[str, Any]:
    """Two armies that roll no dice: nothing happens, so the final standings are certain."""
    unit = {"fortitude": 2, "wounded_fortitude": 1, "ordning_value": 1}
    return {"game": "aotg",
            "armies": {"a": {"player": "fire", "units": [unit]}, "b": {"player": "hill", "units": [unit]}},
            "plan": [{"attacker": {"army": "a", "pool": {}}, "defender": {"army": "b", "pool": {}}}],
            "standings": {"fire": {"ordning_points": 9, "resource_cards": 1}, "hill": {"ordning_points": 9,
                                                                                     "resource_cards": 2}}}


def test_a_certain_plan_and_the_same_table_give_the_same_decided_by_p20() -> None:
    """Equal Ordning Points, hill has more Resource Cards: Resource Cards decide (p.20), in both reports."""
    final = resolve(_certain_plan()).to_dict()["final"]
    assert final["decided_by"] == "resource_cards"
    assert final["decided_by_chances"]["resource_cards"] == 1.0
    table = {"players": ["fire", "hill"], "regions": [{"name": "F", "kind": "starting", "home": "fire"},
                                                      {"name": "H", "kind": "starting", "home": "hill"}],
             "standings": {"fire": {"ordning_points": 9, "resource_cards": 1, "regions": 1},
                           "hill": {"ordning_points": 9, "resource_cards": 2, "regions": 1}}}
    winner = resolve({"game": "aotg", "table": table}).to_dict()["table"]["winner"]
    assert winner["decided_by"] == final["decided_by"] and winner["winners"] == ["hill"]


# --- the headline (issue 21 part 5) ---------------------------------------------------------------

BASIC_HITS = (1, 2, 0, 0, 0, 1)
"""Hits on the faces of the spec's example die (1 hit, 2 hits, block, arcane, blank, hit + block)."""


def test_the_headline_is_the_defenders_damage_taken_exactly() -> None:
    """Oracle: two basic dice, no rerolls, a defender rolling nothing: the damage is the hits rolled
    (p.17: hits not blocked are damage); enumerate the 36 rolls with fractions."""
    counts: dict[int, Fraction] = {}
    for a, b in product(BASIC_HITS, repeat=2):
        counts[a + b] = counts.get(a + b, Fraction(0)) + Fraction(1, 36)
    mean = sum(k * p for k, p in counts.items())
    data = {"game": "aotg", "attacker": {"pool": {"basic": 2}, "units": []},
            "defender": {"pool": {}, "units": [{"fortitude": 9, "ordning_value": 1}]}}
    report = resolve(data)
    head = report.to_dict()["headline"]
    assert head["of"] == "damage taken by the defender"
    assert head["exact"]["mean"] == str(mean) == "4/3"
    for k in range(0, 5):
        assert head["at_least"][str(k)] == pytest.approx(float(sum(p for v, p in counts.items() if v >= k)))
        assert head["at_most"][str(k)] == pytest.approx(float(sum(p for v, p in counts.items() if v <= k)))
    # median: P(damage <= 0) = 1/4 < 1/2 <= P(damage <= 1) = 7/12
    assert counts[0] == Fraction(1, 4) and counts[0] + counts[1] == Fraction(7, 12) and head["median"] == 1
    assert report.to_dict()["defender"]["headline"] == head
    assert report.to_dict()["attacker"]["headline"]["of"] == "damage taken by the attacker"
    text = report.to_text()
    assert text.startswith("HEADLINE:\n  damage taken by the defender: mean 1.33")


def test_the_headline_of_the_example_and_its_text(reports: dict[str, dict[str, Any]]) -> None:
    head = reports["examples/fire-vs-hill.json"]["headline"]
    defender = reports["examples/fire-vs-hill.json"]["defender"]
    assert head["mean"] == pytest.approx(defender["means"]["damage_taken"])
    assert head["at_least"]["1"] == pytest.approx(1 - defender["damage_taken"]["0"])
    assert copy.deepcopy(head) == defender["headline"]
