"""A Game of Thrones LCG: card odds against an independent enumeration, the timing explainer, the
panel helpers and the command line.

Rules Reference entries: "Intrigue Claim", "Setup", "Mulligan", 2.2 Draw, "Insight", "Pillage",
p.23 "Winning the Game" and "Would", "Triggering Condition", "Cancel", "Nested Ability Sequences".
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import Dist, ScenarioError, resolve
from explorer.games.agot_lcg.challenge.grid import winner_grid
from explorer.games.agot_lcg.odds.cards import deck_out, draw_odds, power_race, survives_intrigue
from explorer.games.agot_lcg.odds.dists import draw_round_dist, intrigue_survival_dist, race_winner_dist
from explorer.games.agot_lcg.round.phase import play_round
from explorer.games.agot_lcg.round.scenario import parse_round
from explorer.games.agot_lcg.round.trace import round_trace
from explorer.games.agot_lcg.timing.explain import Ability, Trigger, explain
from tests.games.agot_lcg import oracle as agot_oracle

ROOT = Path(__file__).resolve().parents[3]

# --- odds against the oracle ---------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.data())
def test_intrigue_survival_matches_enumeration(hand: int, data: st.DataObject) -> None:
    copies = data.draw(st.integers(1, hand))
    claim = data.draw(st.integers(0, hand + 2))
    at_least = data.draw(st.integers(1, copies))
    assert survives_intrigue(hand, copies, claim, at_least) == agot_oracle.intrigue_survival(hand, copies, claim, at_least)


def test_a_claim_of_4_on_a_100_card_hand_answers_at_once() -> None:
    start = time.perf_counter()
    d = resolve({"game": "agot-lcg", "intrigue": {"hand": 100, "copies": 1, "claim": 4}}).to_dict()
    assert d["intrigue"]["survives_exact"] == "24/25" and time.perf_counter() - start < 1


@settings(max_examples=25, deadline=None)
@given(st.integers(7, 11), st.integers(1, 2), st.integers(0, 2), st.integers(1, 2), st.booleans(), st.integers(0, 1))
def test_draw_odds_match_every_shuffle(deck: int, copies: int, rounds: int, at_least: int, mulligan: bool,
                                       setup: int) -> None:
    at_least = min(at_least, copies)
    fast = draw_odds(deck, copies, rounds, at_least=at_least, mulligan=mulligan, setup_cards=setup)
    assert list(fast) == agot_oracle.draw_chances(deck, copies, rounds, at_least, mulligan, setup)


def test_draw_odds_golden_60_card_deck() -> None:
    # 3 copies in 60 cards: setup hand alone 1 - C(57,7)/C(60,7); the mulligan redraws 7 on a miss.
    from math import comb

    miss = Fraction(comb(57, 7), comb(60, 7))
    assert draw_odds(60, 3, 0)[0] == 1 - miss * miss
    assert draw_odds(60, 3, 0, mulligan=False)[0] == 1 - miss
    odds = draw_odds(60, 3, 10)
    assert all(a <= b for a, b in zip(odds, odds[1:]))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12), st.integers(0, 3), st.dictionaries(st.integers(0, 2), st.integers(0, 3), min_size=1),
       st.dictionaries(st.integers(0, 2), st.integers(0, 3), min_size=1), st.integers(1, 6))
def test_deck_out_matches_branching(deck: int, draws: int, insight: dict[int, int], pillage: dict[int, int],
                                    max_rounds: int) -> None:
    if not any(insight.values()) or not any(pillage.values()) or draws == 0 and not any(p for p in pillage if pillage[p]):
        return
    fast = deck_out(deck, draws=draws, insight=Dist(insight), pillage=Dist(pillage), max_rounds=max_rounds)
    assert fast.probabilities() == {k: v for k, v in sorted(agot_oracle.deck_out_rounds(
        deck, draws, insight, pillage, max_rounds).items()) if v}


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 14), st.integers(0, 14),
       st.dictionaries(st.integers(0, 6), st.integers(0, 3), min_size=1, max_size=3),
       st.dictionaries(st.integers(0, 6), st.integers(0, 3), min_size=1, max_size=3), st.integers(1, 4))
def test_power_race_matches_branching(a: int, b: int, ga: dict[int, int], gb: dict[int, int], rounds: int) -> None:
    if not any(ga.values()) or not any(gb.values()):
        return
    fast = power_race((a, Dist(ga)), (b, Dist(gb)), rounds)
    assert fast.probabilities() == {k: v for k, v in sorted(agot_oracle.power_race_outcomes(
        (a, ga), (b, gb), rounds).items()) if v}


def test_power_race_first_player_decides_a_same_round_tie() -> None:
    # p.23: both reach 15 at once; the first player decides, picking themselves (ruling).
    race = power_race((14, Dist.single(1)), (14, Dist.single(3)))
    assert race == Dist.single((1, "first"))
    # First: 10 then +0 or +5; second: 13 then +1 a round, so 15 in round 2, where a first at 15 takes the tie.
    race = power_race((10, Dist.uniform([0, 5])), (13, Dist.single(1)))
    assert race_winner_dist(race).probability("second") == Fraction(1, 4)


# --- the timing explainer --------------------------------------------------------------------------

def test_p23_would_interrupts_first_and_a_save_blocks_the_rest() -> None:
    t = Trigger("a character would be killed", (
        Ability("After it dies", "reaction"), Ability("Last words", "interrupt"),
        Ability("Forced on death", "forced interrupt"), Ability("Peek", "would interrupt"),
        Ability("Forced peek", "would interrupt", forced=True), Ability("Bodyguard", "would interrupt", changes=True)))
    trace = explain(t)
    done = [e.ability for e in trace if e.status == "resolves"]
    blocked = [e.ability for e in trace if e.status == "not possible"]
    assert done == ["Forced peek", "Peek", "Bodyguard"]
    assert blocked == ["Forced on death", "Last words", "After it dies"]
    assert any(e.step == "occurs" and "does not occur" in e.text for e in trace)


def test_cancel_stops_everything_and_nested_triggers_resolve_first() -> None:
    nested = Trigger("a card is discarded", (Ability("Scavenger", "reaction"),))
    t = Trigger("an event would initiate", (
        Ability("Reaction", "reaction"), Ability("Counter", "cancel", then=nested), Ability("Second cancel", "cancel")))
    trace = explain(t)
    names = [(e.depth, e.ability, e.status) for e in trace if e.ability]
    assert names == [(0, "Counter", "resolves"), (1, "Scavenger", "resolves"), (0, "Second cancel", "not possible"),
                     (0, "Reaction", "not possible")]
    # Replacement: the most recent one is used and reactions still follow.
    t = Trigger("a character is killed", (Ability("A", "interrupt", replacement=True),
                                          Ability("B", "interrupt", replacement=True), Ability("R", "reaction")))
    occurs = next(e for e in explain(t) if e.step == "occurs")
    assert "resolved by B instead (A overridden)" in occurs.text
    assert explain(t)[-1].status == "resolves"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["cancel", "would interrupt", "forced interrupt", "interrupt",
                                           "forced reaction", "reaction"]), st.booleans()), max_size=8))
def test_timing_order_follows_the_sequence(abilities: list[tuple[str, bool]]) -> None:
    kinds = ["cancel", "would interrupt", "forced interrupt", "interrupt", "forced reaction", "reaction"]
    t = Trigger("x", tuple(Ability(f"a{i}", k, changes=c and k in kinds[1:4]) for i, (k, c) in enumerate(abilities)))
    trace = explain(t)
    resolved = [next(a.kind for a in t.abilities if a.name == e.ability) for e in trace if e.status == "resolves"]
    assert resolved == sorted(resolved, key=kinds.index)
    assert len([e for e in trace if e.ability]) == len(abilities)
    if any(k == "cancel" for k, _ in abilities):
        assert [e.ability for e in trace if e.status == "resolves"] == [t.abilities[[k for k, _ in abilities].index(
            "cancel")].name]


# --- panel helpers -------------------------------------------------------------------------------

def test_winner_grid_shows_the_tie_and_zero_str_rules() -> None:
    grid = winner_grid(3, 3)
    assert all(grid.winners[a][a] == ("attacker" if a else "none") for a in range(4))  # p.23 ties
    assert all(grid.winners[0][d] != "attacker" for d in range(4))  # 0 STR never wins
    assert grid.codes[2][3] == -1 and grid.reasons[0][0] == "0 STR: no winner"
    empty = winner_grid(2, 2, defenders=0)
    assert empty.winners[1][2] == "none" and empty.reasons[1][2] == "no participant: no winner"


def test_odds_helpers_are_distributions() -> None:
    survive = intrigue_survival_dist(7, 2, 2)
    assert survive.at_least(2) == survives_intrigue(7, 2, 2, at_least=2)
    rounds = draw_round_dist(60, 3, 4)
    assert rounds.at_most(4) == draw_odds(60, 3, 4)[4]


def test_round_trace_rows() -> None:
    data = json.loads((ROOT / "examples" / "agot-round.json").read_text())
    rows = round_trace(play_round(parse_round(data).round))
    assert rows[-1]["step"] == "5.2" and any(r["event"].startswith("dropped") for r in rows)
    assert all(set(r) == {"challenge", "title", "step", "event", "power", "rule"} for r in rows)
    # Challenges are named by type and place in the declared order (4.2), never by the scenario path.
    assert [r["challenge"] for r in rows if r["step"] == "4.2.1"] == [
        "Military challenge 1 (first player)", "Intrigue challenge 2 (first player)"]
    assert rows[-1]["challenge"] == rows[-1]["title"] == "Dominance"
    assert not any("challenges[" in r["challenge"] for r in rows)


# --- files and the command line ----------------------------------------------------------------

AGOT_EXAMPLES = sorted((ROOT / "examples").glob("agot-*"))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("path", AGOT_EXAMPLES, ids=lambda p: p.name)
def test_examples_answer_with_rulings(path: Path) -> None:
    report = resolve(path)
    d = report.to_dict()
    assert d["game"] == "agot-lcg" and d["rulings"] and report.to_text().count("RULINGS") == 1
    assert json.loads(json.dumps(d)) == d


def test_the_text_report_names_each_challenge_by_type_and_place() -> None:
    text = resolve(ROOT / "examples" / "agot-round.json").to_text()
    heads = [line for line in text.splitlines() if re.match(r"[A-Z]+ CHALLENGE \d", line)]
    assert heads == ["MILITARY CHALLENGE 1: the first player attacks", "INTRIGUE CHALLENGE 2: the first player attacks",
                     "POWER CHALLENGE 3: the second player attacks: not initiated (no attacker left)"]


def test_cli_text_and_json() -> None:
    for name, marker in (("agot-round.json", "DOMINANCE (5.2)"), ("agot-card-odds.json", "POWER RACE"),
                         ("agot-timing.json", "TIMING"), ("agot-best-plan.toml", "BEST PLAN FOR FIRST")):
        path = str(ROOT / "examples" / name)
        text = _cli("resolve", path)
        assert text.returncode == 0 and marker in text.stdout and "RULINGS" in text.stdout
        assert "CHALLENGES[" not in text.stdout and "BEST_PLAN[" not in text.stdout
        data = json.loads(_cli("resolve", path, "--json").stdout)
        assert data == json.loads(json.dumps(resolve(path).to_dict()))


@pytest.mark.parametrize("scenario, field", [
    ({"game": "agot-lcg", "question": "dice"}, "question"),
    ({"game": "agot-lcg", "draw": {"deck": 60, "copies": 3, "rounds": 500}}, "draw.rounds"),
    ({"game": "agot-lcg", "intrigue": {"hand": 5000, "copies": 1, "claim": 4}}, "intrigue.hand"),
    ({"game": "agot-lcg", "power_race": {"first": {"power": 3, "gains": {"1": 1}},
                                         "second": {"power": 3, "gains": {"-1": 1}}}}, "power_race.second.gains.-1"),
    ({"game": "agot-lcg", "trigger": "x", "abilities": [{"name": "a", "kind": "reaction", "changes": True}]},
     "abilities[0].changes"),
    ({"game": "agot-lcg", "players": {"first": {"faction": 1, "characters": []}}}, "players.second"),
])
def test_cli_bad_input_one_line_exit_2(tmp_path: Path, scenario: dict, field: str) -> None:
    with pytest.raises(ScenarioError) as error:
        resolve(scenario)
    assert error.value.field == field
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(scenario))
    run = _cli("resolve", str(bad))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and run.stderr.startswith(f"error: {field}:")
