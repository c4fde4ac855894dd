"""A Game of Thrones LCG reports: the headline numbers, the deck-out "not out" outcome, the documented keys.

Golden cases cite the 2015 Rules Reference (p.23 "Unopposed" and "Winning the Game", Appendix I
4.2.3 to 4.2.5 and 5.2, the draw phase 2.2) through the rules note ``shared/rules/agot-lcg.md``.
The deck-out report is checked against the branching oracle of `tests.games.agot_lcg.oracle`.
"""

from __future__ import annotations

import json
import re
import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import explorer
from tests.games.agot_lcg import oracle as agot_oracle

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted(p for p in (ROOT / "examples").glob("agot-*") if p.suffix in (".json", ".toml"))


def load(path: Path) -> Any:
    return tomllib.loads(path.read_text()) if path.suffix == ".toml" else json.loads(path.read_text())


# --- headline: one challenge --------------------------------------------------------------------

def test_challenge_headline_is_the_power_the_attacker_gains_p23() -> None:
    # examples/agot-power-challenge.json: 13 power; unopposed (p.23, 4.2.3) +1, the power claim of 2
    # takes the defender's only faction power (4.2.4) +1 = 15, and the game ends before renown (p.23).
    rep = explorer.resolve(ROOT / "examples" / "agot-power-challenge.json")
    head = rep.to_dict()["headline"]
    assert head["of"] == "power the attacker gains in the challenge"
    assert (head["mean"], head["sd"], head["median"]) == (2.0, 0.0, 2)
    assert head["at_least"] == {"2": 1.0} and head["at_most"] == {"2": 1.0} and head["exact"]["mean"] == "2"
    text = rep.to_text()
    assert "HEADLINE\n  power the attacker gains in the challenge: 2, always (no chance in it)" in text


def test_challenge_headline_counts_renown_and_claim_and_is_zero_when_the_attack_fails() -> None:
    # Renown (glossary) +1 on the character and claim 1 moved (4.2.4): 2; a defender's win: 0 (4.2.4).
    won: dict[str, Any] = {"game": "agot-lcg", "challenge": {"type": "power", "claim": 1, "attackers": [{"name": "K", "str": 3, "keywords": ["renown"]}],
                         "defenders": [{"name": "G", "str": 2}]},
           "power": {"attacker": {"faction": 5}, "defender": {"faction": 3}}}
    assert explorer.resolve(won).to_dict()["headline"]["median"] == 2
    won["challenge"]["defenders"][0]["str"] = 4
    assert explorer.resolve(won).to_dict()["headline"]["median"] == 0


# --- headline: a round --------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "player", "gained"), [
    ("agot-round.json", "first", 2),          # 7 -> 9 (the example's own docs, docs/agot-lcg.md)
    ("agot-best-plan.toml", "first", 3),      # the best plan's 9 -> 12
])
def test_round_headline_is_the_power_gained_in_the_round(name: str, player: str, gained: int) -> None:
    rep = explorer.resolve(ROOT / "examples" / name)
    d = rep.to_dict()
    assert d["power_after"][player] - d["power_before"][player] == gained
    assert d["headline"]["of"] == f"power the {player} player gains in the round (challenges and dominance)"
    assert d["headline"]["median"] == gained and d["headline"]["mean"] == gained
    lines = rep.to_text().splitlines()
    assert lines[lines.index("HEADLINE") - 1].startswith("ROUND (first player: first)")


def test_round_headline_counts_dominance_5_2() -> None:
    # No challenge: the first player's 3 standing STR beat 0 at dominance and gain 1 power (5.2).
    data = {"game": "agot-lcg", "players": {"first": {"faction": 2, "characters": [{"name": "A", "str": 3, "icons": ["power"]}]},
                        "second": {"faction": 2, "characters": []}}}
    assert explorer.resolve(data).to_dict()["headline"]["median"] == 1


# --- deck out past max_rounds -------------------------------------------------------------------

def test_a_deck_lasting_past_max_rounds_is_not_out_and_says_so() -> None:
    # Issue 21: a 20-card deck drawing 1 a round (2.2) still has cards after 3 rounds.
    rep = explorer.resolve({"game": "agot-lcg", "deck_out": {"deck": 20, "draws": 1, "max_rounds": 3}})
    out = rep.to_dict()["deck_out"]
    assert out["round"] == {"not out by round 3": 1.0} and "4" not in out["round"]
    assert out["not_out_by_max_rounds"] == 1.0 and out["runs_out_by_max_rounds"] == 0.0
    text = rep.to_text()
    assert "not out by round 3 (cards left after round 3)" in text and "round 4" not in text


def test_a_deck_of_5_drawing_2_runs_out_in_round_3() -> None:
    # 2.2: 2 cards each draw phase; 5 -> 3 -> 1 -> 0, out in round 3 (p.23: an empty deck eliminates).
    short = explorer.resolve({"game": "agot-lcg", "deck_out": {"deck": 5, "max_rounds": 2}}).to_dict()["deck_out"]
    assert short["round"] == {"not out by round 2": 1.0}
    long = explorer.resolve({"game": "agot-lcg", "deck_out": {"deck": 5, "max_rounds": 3}})
    assert long.to_dict()["deck_out"]["round"] == {"3": 1.0}
    assert "runs out in round 3" in long.to_text()


@settings(max_examples=30, deadline=None)
@given(deck=st.integers(1, 12), draws=st.integers(1, 3), insight=st.sampled_from([{0: 1}, {0: 1, 1: 1}]),
       pillage=st.sampled_from([{0: 1}, {0: 2, 1: 1}, {1: 1}]), max_rounds=st.integers(1, 6))
def test_deck_out_report_matches_the_branching_oracle(deck: int, draws: int, insight: dict[int, int],
                                                      pillage: dict[int, int], max_rounds: int) -> None:
    out = explorer.resolve({"game": "agot-lcg", "deck_out": {"deck": deck, "draws": draws, "max_rounds": max_rounds,
                                         "insight": {str(k): w for k, w in insight.items()},
                                         "pillage": {str(k): w for k, w in pillage.items()}}}).to_dict()["deck_out"]
    expected = agot_oracle.deck_out_rounds(deck, draws, insight, pillage, max_rounds)
    named = {(str(r) if r <= max_rounds else f"not out by round {max_rounds}"): p for r, p in expected.items() if p}
    assert {k: Fraction(v) for k, v in out["round_exact"].items()} == named
    assert Fraction(out["not_out_by_max_rounds_exact"]) == expected.get(max_rounds + 1, 0)


# --- every report key is documented -------------------------------------------------------------

@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_top_level_report_key_is_named_in_the_docs(path: Path) -> None:
    docs = (ROOT / "docs" / "agot-lcg.md").read_text()
    named = set(re.findall(r"`([a-z_]+)`", docs))
    report = explorer.resolve(load(path)).to_dict()
    missing = [key for key in report if key not in named]
    assert not missing, f"{path.name}: keys not named in docs/agot-lcg.md: {missing}"
    for section in ("deck_out", "headline"):
        if isinstance(report.get(section), dict):
            assert not [k for k in report[section] if k not in named], section
