"""Headless tests of the "Rules of the table" tab (issue 13, part 5): set inputs, read the answers."""

from __future__ import annotations

import copy
import html
import json
from pathlib import Path

import pytest

from explorer.core.errors import ScenarioError
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.assault_of_the_giants.table_tab import DEFAULT_TABLE, TableTab

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def tab() -> TableTab:
    """A tab with the default table: four players, fire and frost as NPC giants, the Final Ordning."""
    return TableTab()


def _row(tab: TableTab, name: str):  # noqa: ANN202 - a RegionRow
    return next(row for row in tab.rows if row.name.value == name)


def _outputs(tab: TableTab) -> tuple[str, ...]:
    return (tab.phase.value, tab.moves.value, tab.recruit.value, tab.turns.value, tab.winner.value)


def _shown_errors(tab: TableTab) -> dict[str, str]:
    return {name: message.text for name, message in tab.errors.items() if message.text}


def test_the_default_table_is_the_example(tab: TableTab) -> None:
    example = json.loads((ROOT / "examples" / "aotg-table.json").read_text())["table"]
    example.pop("standings")
    assert tab.table()["regions"] == DEFAULT_TABLE["regions"] == example["regions"]
    assert tab.valid and not _shown_errors(tab)
    assert "The Final Ordning" in tab.phase.value
    assert tab.moves.value.count("<tr>") == 1 + len(DEFAULT_TABLE["regions"])
    assert tab.answers is not None and tab.answers.recruit["hill"].places == ("High Moor",)


def test_an_npc_starting_region_opens_with_the_final_ordning_p20(tab: TableTab) -> None:
    """p.20: a move may end in an undefended NPC Starting Region only once the first pool is empty."""
    assert tab.answers is not None
    svardborg = next(m for m in tab.answers.moves if m[0] == "Svardborg")
    assert svardborg[2].allowed
    _row(tab, "Grudd Haug").occupied_by.value = "hill"  # no foreign army in a Starting Region before the FO
    tab.first.value = 4
    assert tab.valid and "Normal play" in tab.phase.value
    svardborg = next(m for m in tab.answers.moves if m[0] == "Svardborg")
    assert not svardborg[2].allowed and "until the Final Ordning" in svardborg[2].reason


def test_homeless_giants_lose_their_last_friendly_region_p20(tab: TableTab) -> None:
    _row(tab, "High Moor").occupied_by.value = "nobody"
    assert tab.answers is not None and not tab.answers.recruit["hill"].allowed
    assert "no Recruit Command" in html.unescape(tab.recruit.value)


def test_the_endgame_turns_follow_the_pool_p20(tab: TableTab) -> None:
    assert tab.began.disabled
    tab.second.value = 0
    assert not tab.began.disabled and "Turns left in the Endgame" in tab.turns.value
    tab.began.value = "storm"
    assert tab.answers is not None and tab.answers.turns.turns == ("cloud", "stone", "hill", "storm", "cloud",
                                                                   "stone", "hill")
    assert tab.table()["endgame_began_with"] == "storm"
    assert tab.turns.value.count("(final round)") == 4


def test_players_and_seats_drive_the_current_player(tab: TableTab) -> None:
    tab.players.value = ["cloud", "stone", "hill", "storm"]
    assert tab.valid and tab.current.value == "stone"
    tab.players.value = ["storm", "cloud", "hill"]
    assert tab.current.value == "storm"  # stone left the table
    assert tab.standings["stone"].widget.layout.display == "none"
    # its Starting Region names a race no longer at the table: said beside the regions, nowhere else
    assert not tab.valid and list(_shown_errors(tab)) == ["regions"] and "stone" in _shown_errors(tab)["regions"]


def test_a_bad_input_shows_a_message_beside_it_and_changes_nothing_else(tab: TableTab) -> None:
    before = _outputs(tab)
    tab.first.value = 3  # the storm giants stand in the hill Starting Region: not before the Final Ordning
    assert not tab.valid and _outputs(tab) == before
    shown = _shown_errors(tab)
    assert list(shown) == ["regions"] and shown["regions"].startswith("Regions, Grudd Haug, giants:")
    assert "explorer-stale" in tab.results._dom_classes and "Not updated" in tab.status.value
    tab.first.value = 0
    assert tab.valid and not _shown_errors(tab) and "explorer-stale" not in tab.results._dom_classes


def test_duplicate_region_names_are_refused_beside_the_regions(tab: TableTab) -> None:
    before = _outputs(tab)
    _row(tab, "Triboar").name.value = "high moor"
    assert _outputs(tab) == before and "listed twice" in _shown_errors(tab)["regions"]


def test_regions_can_be_added_and_removed(tab: TableTab) -> None:
    tab.add_region.click()
    assert len(tab.rows) == 11 and tab.valid and "Region 11" in tab.moves.value
    tab.rows[-1].remove.click()
    assert len(tab.rows) == 10 and "Region 11" not in tab.moves.value


def test_region_names_are_escaped(tab: TableTab) -> None:
    _row(tab, "Triboar").name.value = "<b>Tri</b>"
    assert "&lt;b&gt;Tri&lt;/b&gt;" in tab.moves.value and "<b>Tri</b>" not in tab.moves.value


def test_the_winner_with_the_tiebreak_chain_p20(tab: TableTab) -> None:
    tab.rank.value = True
    for race, points, cards in (("storm", "24", 3), ("cloud", "24", 3), ("stone", "20", 1), ("hill", "11", 0)):
        tab.standings[race].points.value = points
        tab.standings[race].cards.value = cards
    assert tab.valid and "storm and cloud share the victory" in tab.winner.value
    tab.standings["cloud"].regions.value = "3"
    assert "cloud wins" in tab.winner.value and "regions occupied" in tab.winner.value
    tab.standings["stone"].points.value = "20:1, 26:1"
    assert tab.answers is not None and tab.answers.victory is not None
    assert tab.answers.victory.chances["stone"]["wins"] == pytest.approx(0.5)


def test_a_bad_standing_is_shown_beside_the_standings(tab: TableTab) -> None:
    tab.rank.value = True
    before = _outputs(tab)
    tab.standings["hill"].points.value = "lots"
    assert _outputs(tab) == before
    assert list(_shown_errors(tab)) == ["standings"] and _shown_errors(tab)["standings"].startswith(
        "Final standings, hill, Ordning Points: must be a whole number")


def test_load_refuses_a_bad_table_and_changes_nothing(tab: TableTab) -> None:
    bad = copy.deepcopy(DEFAULT_TABLE)
    bad["pools"] = {"first": 2, "second": 0}
    before = (tab.table(), _outputs(tab))
    with pytest.raises(ScenarioError):
        tab.load(bad)
    assert (tab.table(), _outputs(tab)) == before


def test_load_sets_every_input() -> None:
    example = json.loads((ROOT / "examples" / "aotg-table.json").read_text())["table"]
    tab = TableTab(example)
    assert tab.rank.value and tab.standings["stone"].points.value == "20:1, 26:1"
    assert tab.answers is not None and tab.answers.victory is not None
    assert tab.table()["current"] == "stone" and tab.valid


def test_the_panel_shows_the_tab_before_the_scenario_box() -> None:
    panel = AssaultPanel()
    titles = list(panel.extras.titles)
    rules = titles.index("Rules of the table")
    assert titles[rules + 1].startswith("Scenario")
    assert panel.table_rules.tab is None  # built when first opened
    panel.extras.selected_index = rules
    assert panel.table_rules.tab is not None and panel.table_rules.tab.valid
    assert panel.extras.children[rules].children[0] is panel.table_rules.widget  # the slot, in its tab
    assert panel.table_rules.widget.children[0] is panel.table_rules.tab.widget
