"""The rules of the table (issue 13, parts 2-4 and 6): phases, moves, attacks, recruiting, turns, winner.

Golden cases cite the rulebook page they come from (p.20 unless said otherwise); property tests
check the phase model and the Endgame turn list over many tables.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import resolve
from explorer.core.dist import Dist
from explorer.core.errors import MAX_MESSAGE, ScenarioError
from explorer.games.assault_of_the_giants.plan.endgame import Phase, Standing, victory
from explorer.games.assault_of_the_giants.rules.data import CASTE_ORDER
from explorer.games.assault_of_the_giants.table.legality import (
    may_attack,
    may_end_move,
    move_through,
    recruit_places,
    turns_left,
)
from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState, phase, take_token
from explorer.games.assault_of_the_giants.table.rulings import TABLE_RULINGS
from explorer.games.assault_of_the_giants.table.scenario import parse_table
from explorer.games.assault_of_the_giants.table.winner import winner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "aotg-table.json"
FIRE_VS_HILL: dict[str, Any] = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())

NORMAL, FINAL, END = Pools(3, 5), Pools(0, 5), Pools(0, 0)


def _table(pools: Pools, *regions: Region, current: str = "hill", began: str | None = None) -> TableState:
    """Hill and storm play; stone are NPC giants."""
    races = (Race("storm", 6), Race("hill", 1), Race("stone", npc=True))
    base = (Region("Maelstrom", "starting", home="storm", occupied_by="storm"),
            Region("Grudd Haug", "starting", home="hill", occupied_by="hill"))
    return TableState(races, base + regions, pools, current, began)


STONE_HOME_EMPTY = Region("Deadstone Cleft", "starting", home="stone")
STONE_HOME_HELD = Region("Deadstone Cleft", "starting", home="stone", occupied_by="stone")
STONE_IN_VALE = Region("Delimbiyr Vale", "small-folk", occupied_by="stone")


# --- phases (p.20) ------------------------------------------------------------------------


@pytest.mark.parametrize(("pools", "expected"), [
    (Pools(1, 1), Phase.NORMAL), (Pools(9, 0), Phase.NORMAL), (Pools(0, 1), Phase.FINAL_ORDNING),
    (Pools(0, 0), Phase.ENDGAME),
])
def test_phase_follows_the_pools_p20(pools: Pools, expected: Phase) -> None:
    """p.20: the Final Ordning begins when the first pool is depleted, the Endgame when the second is."""
    assert phase(pools) is expected


def test_second_pool_empty_before_the_first_is_refused() -> None:
    """Ruling (inferred from p.20): the pools run out in order."""
    with pytest.raises(ScenarioError) as caught:
        parse_table({"players": ["hill"], "pools": {"first": 2, "second": 0},
                     "regions": [{"name": "G", "kind": "starting", "home": "hill"}]})
    assert caught.value.field == "table.pools.second"


# --- moving through and ending moves (pp.11, 20) -----------------------------------------


def test_move_may_not_end_in_an_npc_starting_region_before_the_final_ordning_p20() -> None:
    """p.20: no one may end a move in an NPC giant's Starting Region until the Final Ordning has begun."""
    answer = may_end_move(_table(NORMAL, STONE_HOME_EMPTY), "hill", "Deadstone Cleft")
    assert not answer.allowed and answer.page == "p.20" and "until the Final Ordning" in answer.reason


@pytest.mark.parametrize("pools", [FINAL, END])
def test_move_may_end_in_an_undefended_npc_starting_region_from_the_final_ordning_on_p20(pools: Pools) -> None:
    """p.20: from the Final Ordning, giants may end moves in their enemies' undefended Starting Regions."""
    answer = may_end_move(_table(pools, STONE_HOME_EMPTY), "hill", "Deadstone Cleft")
    assert answer.allowed and answer.page == "p.20"


@pytest.mark.parametrize("pools", [NORMAL, FINAL, END])
def test_move_never_ends_where_npc_giants_stand_pp11_20(pools: Pools) -> None:
    """p.11: never end a move in an enemy region; NPC giants are enemies like any (p.20)."""
    for region in (STONE_HOME_HELD, STONE_IN_VALE):
        assert not may_end_move(_table(pools, region), "hill", region.name).allowed


def test_passing_npc_giants_costs_a_discarded_card_or_a_wound_p20() -> None:
    """p.20: 1 Resource Card, discarded and given to no player, or a wound to a moving giant."""
    for region in (STONE_HOME_HELD, STONE_IN_VALE):
        answer = move_through(_table(NORMAL, region), "hill", region.name)
        assert answer.allowed and answer.page == "pp.11, 20"
        assert len(answer.costs) == 2
        assert "give it to no one" in answer.costs[0]
        assert "wound" in answer.costs[1]


def test_passing_an_enemy_player_pays_that_player_p11() -> None:
    """p.11: passing an enemy region costs 1 Resource Card paid to the enemy, or 1 wound."""
    answer = move_through(_table(NORMAL, Region("High Moor", "small-folk", occupied_by="storm")), "hill", "High Moor")
    assert answer.allowed and answer.costs[0] == "pay the storm player 1 Resource Card of your choice"
    assert not answer.inferred


def test_passing_an_empty_npc_starting_region_is_free_before_the_final_ordning_p20() -> None:
    """p.20: giants may move through an NPC giant's Starting Region (they only may not stop there)."""
    answer = move_through(_table(NORMAL, STONE_HOME_EMPTY), "hill", "Deadstone Cleft")
    assert answer.allowed and not answer.costs


def test_npc_giants_never_move_or_attack_p19() -> None:
    """p.19: NPC giants do not move or attack; they only defend."""
    state = _table(FINAL, STONE_HOME_HELD)
    for ask in (move_through, may_end_move, may_attack):
        answer = ask(state, "stone", "Grudd Haug")
        assert not answer.allowed and answer.page == "p.19"
    assert not recruit_places(state, "stone").allowed


# --- attacks (pp.19-20) --------------------------------------------------------------------


def test_attacking_an_npc_starting_region_waits_for_the_final_ordning_p20() -> None:
    """p.20: no attack on an NPC giant's Starting Region until the Final Ordning; then it is allowed."""
    assert not may_attack(_table(NORMAL, STONE_HOME_HELD), "hill", "Deadstone Cleft").allowed
    after = may_attack(_table(FINAL, STONE_HOME_HELD), "hill", "Deadstone Cleft")
    assert after.allowed and after.page == "p.20"


def test_npc_giants_in_small_folk_regions_may_be_attacked_any_time_p20() -> None:
    """p.20: NPC giants in adjacent Small Folk Regions are attacked as normal enemy giants;
    the player to the current player's right decides for them."""
    answer = may_attack(_table(NORMAL, STONE_IN_VALE), "hill", "Delimbiyr Vale")
    assert answer.allowed and "storm decides for them" in answer.reason


def test_player_starting_regions_open_to_attack_in_the_final_ordning_p20() -> None:
    """p.20: from the Final Ordning all giants may attack their enemies' Starting Regions."""
    assert not may_attack(_table(NORMAL), "hill", "Maelstrom").allowed
    assert may_attack(_table(FINAL), "hill", "Maelstrom").allowed


def test_giants_cannot_attack_giantslayers_p19() -> None:
    """p.19: giants cannot attack giantslayers during a normal turn, but enter their regions freely."""
    region = Region("Triboar", "small-folk", giantslayers=2)
    assert not may_attack(_table(FINAL, region), "hill", "Triboar").allowed
    assert may_end_move(_table(FINAL, region), "hill", "Triboar").allowed


# --- recruiting (p.20) --------------------------------------------------------------------


def test_homeless_giants_recruit_in_any_friendly_region_p20() -> None:
    """p.20: a race whose Starting Region is occupied by an enemy army recruits in any friendly region."""
    state = _table(FINAL, Region("High Moor", "small-folk", occupied_by="hill"),
                   Region("Sumber Hills", "small-folk", occupied_by="hill"))
    state = TableState(state.races, (state.regions[0], Region("Grudd Haug", "starting", home="hill",
                                                               occupied_by="storm")) + state.regions[2:],
                       state.pools, "hill")
    answer = recruit_places(state, "hill")
    assert answer.places == ("High Moor", "Sumber Hills") and answer.page == "p.20"
    assert answer.rulings == ("homeless",) and not answer.inferred


def test_homeless_giants_without_a_friendly_region_cannot_recruit_p20() -> None:
    """p.20: no friendly region left: no Recruit Command until the Starting Region is free again,
    though Plunder, Trade and other Commands are still played."""
    state = TableState(_table(FINAL).races, (Region("Maelstrom", "starting", home="storm", occupied_by="storm"),
                                             Region("Grudd Haug", "starting", home="hill", occupied_by="storm")),
                       FINAL, "hill")
    answer = recruit_places(state, "hill")
    assert not answer.allowed and "Plunder" in answer.reason and "free again" in answer.reason


def test_a_race_at_home_recruits_in_its_starting_region() -> None:
    """Ruling (inferred, pp.13, 20): the usual place to recruit is the Starting Region."""
    answer = recruit_places(_table(NORMAL), "hill")
    assert answer.places == ("Grudd Haug",) and answer.inferred


def _cloud(evermoors_holder: str | None, lyn_region: str | None = "Evermoors") -> TableState:
    table = {"players": ["cloud", "storm"], "pools": {"first": 0, "second": 2}, "regions": [
        {"name": "Maelstrom", "kind": "starting", "home": "storm", "occupied_by": "storm"},
        {"name": "Evermoors", "kind": "starting", "home": "cloud", "occupied_by": evermoors_holder,
         "lyn_armaal": lyn_region == "Evermoors"},
        {"name": "Delimbiyr Vale", "kind": "small-folk", "occupied_by": "cloud",
         "lyn_armaal": lyn_region == "Delimbiyr Vale"},
        {"name": "High Moor", "kind": "small-folk", "occupied_by": "cloud"}]}
    return parse_table(table).state


def test_cloud_giants_recruit_where_lyn_armaal_is_p20() -> None:
    """p.20: the cloud giants usually recruit in the same location as Lyn Armaal."""
    assert recruit_places(_cloud("cloud"), "cloud").places == ("Evermoors",)
    assert recruit_places(_cloud(None, "Delimbiyr Vale"), "cloud").places == ("Delimbiyr Vale",)


def test_lyn_armaal_starts_in_the_cloud_starting_region_p9() -> None:
    """p.9: Lyn Armaal is set up in the cloud Starting Region; a table that omits it puts it there."""
    state = parse_table({"players": ["cloud"], "regions": [{"name": "Evermoors", "kind": "starting",
                                                            "home": "cloud"}]}).state
    assert state.region("Evermoors").lyn_armaal


def test_cloud_giants_recruit_anywhere_friendly_once_the_evermoors_fall_p20() -> None:
    """p.20: if the Evermoors are occupied by enemy giants, the cloud giants recruit in any friendly region."""
    answer = recruit_places(_cloud("storm", "Delimbiyr Vale"), "cloud")
    assert answer.places == ("Delimbiyr Vale", "High Moor") and "lyn-armaal" in answer.rulings


# --- the Endgame turns (p.20) -------------------------------------------------------------

SEATINGS = [
    # (seats with Ordning Numbers, whose turn emptied the second pool, the turns that follow)
    ((("storm", 6), ("fire", 4), ("hill", 1)), "storm", ["fire", "hill", "storm", "fire", "hill"]),
    ((("storm", 6), ("fire", 4), ("hill", 1)), "hill", ["storm", "fire", "hill"]),
    ((("cloud", 5), ("stone", 2), ("hill", 1), ("storm", 6)), "stone",
     ["hill", "storm", "cloud", "stone", "hill"]),
    ((("storm", 6), ("cloud", 5), ("fire", 4), ("frost", 3), ("stone", 2), ("hill", 1)), "frost",
     ["stone", "hill", "storm", "cloud", "fire", "frost", "stone", "hill"]),
    ((("frost", 3), ("fire", 4), ("hill", 1)), "frost", ["fire", "hill", "frost", "fire", "hill"]),
]


@pytest.mark.parametrize(("seats", "emptied_by", "expected"), SEATINGS)
def test_endgame_turns_for_several_seatings_p20(seats: tuple[tuple[str, int], ...], emptied_by: str,
                                                expected: list[str]) -> None:
    """p.20: turns go on until the lowest-numbered player has had a turn, then one final round."""
    state = TableState(tuple(Race(n, k) for n, k in seats), (), END, emptied_by, emptied_by)
    turns = turns_left(state)
    assert list(turns.turns) == expected and turns.begun and turns.after == emptied_by


def test_a_seating_against_the_setup_is_flagged_p10() -> None:
    """p.10: with the setup's seating everyone gets equal turns; another seating is flagged."""
    state = TableState((Race("frost", 3), Race("fire", 4), Race("hill", 1)), (), END, "frost")
    turns = turns_left(state)
    assert not turns.equal and "not the setup's" in turns.reason


def test_turns_before_the_endgame_are_what_would_follow() -> None:
    """Before the Endgame the list is a preview, from the current player's turn."""
    turns = turns_left(_table(FINAL, current="storm"))
    assert not turns.begun and turns.turns == ("hill", "storm", "hill")


def test_endgame_began_with_is_refused_outside_the_endgame() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_table({"players": ["hill"], "endgame_began_with": "hill",
                     "regions": [{"name": "G", "kind": "starting", "home": "hill"}]})
    assert caught.value.field == "table.endgame_began_with" and "both pools" in caught.value.problem


# --- the winner (p.20) ---------------------------------------------------------------------


def _standing(points: int, cards: int = 0, regions: int = 0) -> Standing:
    return Standing(Dist.single(points), cards, regions)


@pytest.mark.parametrize(("standings", "winners", "step"), [
    ({"hill": _standing(20, 0, 0), "storm": _standing(18, 9, 9)}, ("hill",), "ordning_points"),
    ({"hill": _standing(20, 3, 0), "storm": _standing(20, 2, 9)}, ("hill",), "resource_cards"),
    ({"hill": _standing(20, 2, 1), "storm": _standing(20, 2, 4)}, ("storm",), "regions"),
    ({"hill": _standing(20, 2, 4), "storm": _standing(20, 2, 4), "fire": _standing(20, 2, 3)},
     ("hill", "storm"), "shared"),
])
def test_the_tiebreak_chain_to_a_shared_victory_p20(standings: dict[str, Standing], winners: tuple[str, ...],
                                                    step: str) -> None:
    """p.20: most Ordning Points, then Resource Cards, then regions occupied, then a shared victory."""
    result = winner(standings)
    assert result.winners == winners and result.decided_by == step
    assert all(result.chances[w]["wins" if len(winners) == 1 else "shares"] == 1 for w in winners)


def test_a_race_with_no_forces_left_can_win_p20() -> None:
    """p.20: a player may claim victory even if all their forces on the board were defeated."""
    data = {"players": ["storm", "hill"], "pools": {"first": 0, "second": 0}, "regions": [
        {"name": "Maelstrom", "kind": "starting", "home": "storm", "occupied_by": "storm"},
        {"name": "Grudd Haug", "kind": "starting", "home": "hill", "occupied_by": "storm"}],
        "standings": {"storm": {"ordning_points": 30}, "hill": {"ordning_points": 31}}}
    scenario = parse_table(data)
    assert scenario.standings is not None and scenario.standings["hill"].regions == 0
    assert winner(scenario.standings).winners == ("hill",)


def test_win_chances_while_points_are_random() -> None:
    result = winner({"a": Standing(Dist({10: 1, 12: 3})), "b": _standing(11)})
    assert result.winners == () and result.decided_by is None
    assert result.chances["a"]["wins"] == Dist({10: 1, 12: 3}).probability(12)
    assert sum(result.steps.values()) == 1


def test_standings_must_rank_every_player_p20() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_table({"players": ["hill", "storm"], "standings": {"hill": {"ordning_points": 1}}, "regions": [
            {"name": "G", "kind": "starting", "home": "hill"}, {"name": "M", "kind": "starting", "home": "storm"}]})
    assert caught.value.field == "table.standings" and "no forces" in caught.value.problem


# --- scenario errors -----------------------------------------------------------------------


def _base(**table: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"players": ["storm", "hill"], "npc": ["stone"], "regions": [
        {"name": "Maelstrom", "kind": "starting", "home": "storm", "occupied_by": "storm"},
        {"name": "Grudd Haug", "kind": "starting", "home": "hill", "occupied_by": "hill"},
        {"name": "Deadstone Cleft", "kind": "starting", "home": "stone", "occupied_by": "stone"}]}
    out.update(table)
    return out


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"current": "stone"}, "table.current", "NPC giants take no turns"),
    ({"players": ["storm", "storm"]}, "table.players[1]", "seated twice"),
    ({"players": [{"race": "storm", "ordning_number": 1}, {"race": "hill", "ordning_number": 1}]},
     "table.players[1]", "Ordning Number 1"),
    ({"npc": ["hill"]}, "table.npc[0]", "at the table already"),
    ({"players": ["giant"]}, "table.players[0]", '"hill"'),
    ({"pools": {"first": -1, "second": 1}}, "table.pools.first", ">= 0"),
    ({"regions": []}, "table.regions", "1 to 30"),
])
def test_bad_tables_name_their_field(change: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_table(_base(**change))
    assert caught.value.field == field and words in str(caught.value)
    assert len(str(caught.value)) <= MAX_MESSAGE and "\n" not in str(caught.value)


def test_a_foreign_army_in_a_starting_region_before_the_final_ordning_is_refused_p20() -> None:
    data = _base()
    data["regions"][1]["occupied_by"] = "storm"
    with pytest.raises(ScenarioError) as caught:
        parse_table(data)
    assert caught.value.field == "table.regions[1].occupied_by" and "p.20" in caught.value.problem
    data["pools"] = {"first": 0, "second": 1}
    assert parse_table(data).state.region("Grudd Haug").occupied_by == "storm"


def test_npc_giants_never_leave_for_another_starting_region_p19() -> None:
    data = _base(pools={"first": 0, "second": 0})
    data["regions"][1]["occupied_by"] = "stone"
    with pytest.raises(ScenarioError, match="never move"):
        parse_table(data)


def test_unknown_keys_are_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_table(_base(curent="hill"))
    assert caught.value.field == "table.curent" and 'did you mean "current"' in caught.value.problem


# --- the resolver, the example and the command line ------------------------------------------


def test_the_example_resolves_in_the_final_ordning() -> None:
    report = resolve(str(EXAMPLE)).to_dict()
    table = report["table"]
    assert table["phase"]["phase"] == "final ordning"
    assert len(table["seats"]) == 4 and table["npc"] == ["fire", "frost"]
    assert table["recruit"]["hill"]["places"] == ["High Moor"]
    assert table["recruit"]["cloud"]["places"] == ["Delimbiyr Vale"]
    svardborg = next(r for r in table["regions"] if r["region"] == "Svardborg")
    assert svardborg["end_move"]["allowed"] and svardborg["end_move"]["page"] == "p.20"
    assert table["endgame_turns"]["turns"] == ["hill", "storm", "cloud", "stone", "hill"]
    assert table["winner"]["chances"]["stone"]["wins"] == 0.5
    assert {r["key"] for r in table["rulings"]} == {r.key for r in TABLE_RULINGS}


def test_the_command_line_prints_the_table() -> None:
    done = subprocess.run([sys.executable, "-m", "explorer", "resolve", str(EXAMPLE)], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "PHASE: final ordning" in done.stdout and "[INFERRED]" in done.stdout and "RECRUIT:" in done.stdout


def test_a_battle_with_a_table_keeps_its_v1_report() -> None:
    """Old files keep their meaning: with ``table`` added, the battle's keys are unchanged."""
    alone = resolve(FIRE_VS_HILL).to_dict()
    both = copy.deepcopy(FIRE_VS_HILL)
    both["table"] = json.loads(EXAMPLE.read_text())["table"]
    report = resolve(both)
    combined = report.to_dict()
    assert {k: combined[k] for k in alone} == alone and combined["table"]["current"] == "stone"
    assert "ATTACKER" in report.to_text() and "PHASE:" in report.to_text()
    assert {"battle", "recruit", "attack"} <= set(report.to_rows().column("question"))


def test_the_frame_lists_every_answer() -> None:
    rows = resolve(str(EXAMPLE)).to_rows()
    assert len(rows.where(question="end move")) == 10
    assert {page for page in rows.column("page") if page is not None} <= {"p.11", "p.19", "p.20", "pp.11, 20", "pp.11, 19", "pp.19, 20",
                                           "pp.11, 18", "pp.11, 19, 20"}


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(1, 30), st.integers(0, 80))
def test_the_phase_never_goes_back_as_tokens_are_taken(first: int, second: int, taken: int) -> None:
    pools, order = Pools(first, second), list(Phase)
    seen = [phase(pools)]
    for _ in range(taken):
        pools = take_token(pools)
        seen.append(phase(pools))
    assert all(order.index(a) <= order.index(b) for a, b in zip(seen, seen[1:]))
    assert (phase(pools) is Phase.ENDGAME) == (taken >= first + second)


@st.composite
def _setup_seating(draw: st.DrawFn) -> tuple[list[Race], str]:
    """A table seated as at setup: numbers fall leftwards from the start player (p.9), any rotation."""
    races = draw(st.lists(st.sampled_from(CASTE_ORDER), min_size=1, max_size=6, unique=True))
    numbers = sorted(draw(st.lists(st.integers(1, 99), min_size=len(races), max_size=len(races), unique=True)),
                     reverse=True)
    seats = [Race(r, n) for r, n in zip(races, numbers)]
    turn = draw(st.integers(0, len(seats) - 1))
    emptied_by = seats[draw(st.integers(0, len(seats) - 1))].name
    return seats[turn:] + seats[:turn], emptied_by


@settings(max_examples=200, deadline=None)
@given(_setup_seating())
def test_every_player_gets_the_same_number_of_turns_p10(table: tuple[list[Race], str]) -> None:
    """p.10: with the setup's seating each player has an equal number of turns in the game.

    Counting the round under way from the start player (highest number), the emptying turn and
    the turns after it, every player plays exactly twice more than in earlier rounds."""
    seats, emptied_by = table
    state = TableState(tuple(seats), (), END, emptied_by, emptied_by)
    turns = turns_left(state)
    top = max(range(len(seats)), key=lambda i: seats[i].ordning_number or 0)
    round_order = [r.name for r in seats[top:] + seats[:top]]
    played = round_order[:round_order.index(emptied_by) + 1]
    counts = Counter(played + list(turns.turns))
    assert turns.equal and set(counts.values()) == {2} and set(counts) == set(round_order)
    assert turns.turns[-len(seats):] == tuple(round_order) or len(seats) == 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=5))
def test_the_winner_is_the_top_of_the_chain_and_order_free(lines: list[tuple[int, int, int]]) -> None:
    names = [f"p{i}" for i in range(len(lines))]
    result = winner({n: _standing(*line) for n, line in zip(names, lines)})
    best = max(lines)
    assert {names.index(w) for w in result.winners} == {i for i, line in enumerate(lines) if line == best}
    flipped = winner({n: _standing(*line) for n, line in reversed(list(zip(names, lines)))})
    assert set(flipped.winners) == set(result.winners) and flipped.decided_by == result.decided_by
    assert victory(lines)[1] == result.decided_by


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([NORMAL, FINAL, END]), st.sampled_from([None, "hill", "storm", "stone"]),
       st.booleans(), st.integers(0, 3))
def test_every_answer_has_a_reason_and_a_page(pools: Pools, holder: str | None, starting: bool,
                                              slayers: int) -> None:
    if starting and holder not in (None, "stone") and pools is NORMAL:
        holder = "stone"  # a foreign army stands in a Starting Region only from the Final Ordning on
    region = (Region("Deadstone Cleft", "starting", home="stone", occupied_by=holder, giantslayers=slayers)
              if starting else Region("Vale", "small-folk", occupied_by=holder, giantslayers=slayers))
    state = _table(pools, region)
    for ask in (move_through, may_end_move, may_attack):
        answer = ask(state, "hill", region.name)
        assert answer.reason and answer.page.startswith("p")
        if ask is may_end_move and holder not in (None, "hill"):
            assert not answer.allowed
        if ask is may_attack and answer.allowed:
            assert holder not in (None, "hill") and (not starting or pools is not NORMAL)
