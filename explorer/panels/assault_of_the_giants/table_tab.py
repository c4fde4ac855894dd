"""The "Rules of the table" tab: set up a moment of the game, see what p.20 allows and why.

A teacher lists the races (players in seat order, NPC races), a few regions, the pools of Ordning
Point tokens and whose turn it is; the tab shows the phase, what the current player's giants may
do in each region (pass through and at what cost, end a move, attack), where each player may
recruit, the turns left once the Endgame begins and, with final standings ticked, the winner.
The tab writes its inputs as a scenario's ``table`` key and hands it to
`explorer.games.assault_of_the_giants.table.report.answer_table`; it keeps no rule. A bad input
shows a message beside its section; the answers then stay as they were, marked not updated.
It does not need the battle's result.
"""

from __future__ import annotations

import copy
import html
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import (
    CASTE_ORDER,
    MAX_POOL,
    MAX_REGIONS,
    RaceName,
    TableAnswers,
    answer_table,
    parse_table,
)
from explorer.panels.assault_of_the_giants.table_inputs import RegionRow, StandingRow
from explorer.panels.assault_of_the_giants.table_view import (
    STYLE,
    moves_html,
    phase_html,
    recruit_html,
    rulings_html,
    slayers_html,
    turns_html,
    winner_html,
)
from explorer.panels.assault_of_the_giants.words import TERMS, explain
from explorer.panels.common.display import ErrorMessage, heading, note
from explorer.panels.common.field_names import FieldNames

__all__ = ["TableTab", "TableTabSlot", "DEFAULT_TABLE"]

DEFAULT_TABLE: dict[str, Any] = {
    "players": [{"race": "storm", "ordning_number": 6}, {"race": "cloud", "ordning_number": 5},
                {"race": "stone", "ordning_number": 2}, {"race": "hill", "ordning_number": 1}],
    "npc": ["fire", "frost"],
    "pools": {"first": 0, "second": 6},
    "current": "stone",
    "regions": [
        {"name": "Maelstrom", "kind": "starting", "home": "storm", "occupied_by": "storm"},
        {"name": "Evermoors", "kind": "starting", "home": "cloud", "occupied_by": "cloud"},
        {"name": "Deadstone Cleft", "kind": "starting", "home": "stone", "occupied_by": "stone"},
        {"name": "Grudd Haug", "kind": "starting", "home": "hill", "occupied_by": "storm"},
        {"name": "Ironslag", "kind": "starting", "home": "fire", "occupied_by": "fire"},
        {"name": "Svardborg", "kind": "starting", "home": "frost"},
        {"name": "High Moor", "kind": "small-folk", "occupied_by": "hill"},
        {"name": "Sumber Hills", "kind": "small-folk", "occupied_by": "frost"},
        {"name": "Delimbiyr Vale", "kind": "small-folk", "occupied_by": "cloud", "lyn_armaal": True},
        {"name": "Triboar", "kind": "small-folk", "giantslayers": 1},
    ],
}
"""The table the tab opens with: four players, fire and frost as NPC giants, in the Final Ordning
(``examples/aotg-table.json``; the Starting Regions' names other than the Evermoors are examples)."""

_SECTIONS = ("races", "pools", "regions", "standings")
_LABELS = {"table": "Rules of the table", "table.players": "Races, players", "table.npc": "Races, NPC giants",
           "table.current": "Races, current player", "table.pools": "Pools", "table.pools.first": "Pools, first pool",
           "table.pools.second": "Pools, second pool", "table.endgame_began_with": "Pools, second pool ran out on",
           "table.regions": "Regions", "table.standings": "Final standings"}
_REGION = {"name": "region name", "kind": "kind", "home": "of (its home race)", "occupied_by": "giants",
           "units": "units", "giantslayers": "slayers", "lyn_armaal": "Lyn Armaal"}
_STANDING = {"ordning_points": "Ordning Points", "resource_cards": "cards", "regions": "regions"}
_ROUTES = {"table.players": "races", "table.npc": "races", "table.current": "races",
           "table.endgame_began_with": "pools", "table.pools": "pools", "table.regions": "regions",
           "table.standings": "standings"}


def _seat(entry: Any) -> tuple[RaceName, int | None]:
    """A seat of a table `parse_table` has read: its race and Ordning Number (None: the default)."""
    if isinstance(entry, str):
        return cast(RaceName, entry), None
    return entry["race"], entry.get("ordning_number")


class TableTab:
    """The tab's widgets; `widget` is its content, `answers` the last valid answers."""

    def __init__(self, table: Mapping[str, Any] | None = None) -> None:
        self._loading = False
        self.answers: TableAnswers | None = None
        self.valid = True
        """False while the inputs are refused: the answers shown are the last valid ones."""
        tags = {"allowed_tags": list(CASTE_ORDER), "allow_duplicates": False}
        self.players = widgets.TagsInput(value=[], tooltip="players: their races in seat order", **tags)
        self.npc = widgets.TagsInput(value=[], tooltip=f"NPC giants: their races (NPC: {TERMS['NPC']})", **tags)
        self.numbers = {race: widgets.BoundedIntText(value=i + 1, min=1, max=99, description=race,
                                                     style={"description_width": "40px"},
                                                     tooltip=f"{race}: Ordning Number on its Giant Race Token (p.9)",
                                                     layout=widgets.Layout(width="100px"))
                        for i, race in enumerate(CASTE_ORDER)}
        self.current = widgets.Dropdown(description="current player", style={"description_width": "auto"})
        self.first = widgets.BoundedIntText(min=0, max=MAX_POOL, description="first pool",
                                            style={"description_width": "auto"}, layout=widgets.Layout(width="150px"))
        self.second = widgets.BoundedIntText(min=0, max=MAX_POOL, description="second pool",
                                             style={"description_width": "auto"}, layout=widgets.Layout(width="160px"))
        self.began = widgets.Dropdown(description="second pool ran out on", style={"description_width": "auto"},
                                      layout=widgets.Layout(width="360px"))
        self.rows: list[RegionRow] = []
        self.regions_box = widgets.VBox()
        self.add_region = widgets.Button(description="add region", icon="plus")
        self.add_region.on_click(lambda _b: self._add_row({"name": f"Region {len(self.rows) + 1}",
                                                          "kind": "small-folk"}))
        self.rank = widgets.Checkbox(value=False, description="final standings", indent=False)
        self.standings = {race: StandingRow(race, self.refresh) for race in CASTE_ORDER}
        self.errors = {name: ErrorMessage(f"aotg-table-error-{name}") for name in _SECTIONS}
        self.status = widgets.HTML()
        self.phase = widgets.HTML()
        self.moves = widgets.HTML()
        self.recruit = widgets.HTML()
        self.slayers = widgets.HTML()
        """Where giantslayers may be recruited and end a move (p.18)."""
        self.turns = widgets.HTML()
        self.winner = widgets.HTML()
        for w in (self.players, self.npc):
            w.observe(lambda _c: self._players_changed(), "value")
        for w in (*self.numbers.values(), self.current, self.began, self.rank):
            w.observe(lambda _c: self.refresh(), "value")
        self.first.observe(lambda _c: self._pools_changed(), "value")
        self.second.observe(lambda _c: self._pools_changed(), "value")
        self.widget = self._layout()
        self.load(DEFAULT_TABLE if table is None else table)

    def _layout(self) -> widgets.Widget:
        races = widgets.VBox([
            heading("Races"),
            note(explain("Players in seat order, leftwards from the start player (the turn order); drag to reorder. "
                         "NPC giants take no turns (p.19).")),
            widgets.HBox([widgets.Label("players"), self.players]),
            widgets.HBox([widgets.Label("NPC", tooltip=f"NPC: {TERMS['NPC']}"), self.npc]),
            note("Ordning Numbers on the Giant Race Tokens (p.9; the printed values are not in our pages: "
                 "caste order by default, inferred)"),
            widgets.HBox(list(self.numbers.values())), self.current, self.errors["races"].widget])
        pools = widgets.VBox([heading("Pools of Ordning Point tokens"), widgets.HBox([self.first, self.second]),
                              self.began, self.errors["pools"].widget])
        regions = widgets.VBox([heading("Regions"), note("Whose giants stand there (one race at most, p.11), "
                                                         "giantslayers, and where Lyn Armaal is."),
                                self.regions_box, self.add_region, self.errors["regions"].widget])
        standing_rows = widgets.VBox([row.widget for row in self.standings.values()])
        standings = widgets.VBox([heading("Final standings"), self.rank,
                                  note("Ordning Points as a number, or still random as values with weights "
                                       "(20:1, 26:1); regions blank: counted from the table"),
                                  standing_rows, self.errors["standings"].widget])
        inputs = widgets.VBox([races, pools, regions, standings])
        inputs.add_class("explorer-inputs")
        self.results = widgets.VBox([self.phase, self.moves, self.recruit, self.slayers, self.turns, self.winner])
        """The answers (faded while the inputs are refused)."""
        results = widgets.VBox([widgets.HTML(STYLE), self.status, self.results, widgets.HTML(explain(rulings_html()))])
        results.add_class("explorer-results")
        main = widgets.Box([inputs, results])
        main.add_class("explorer-main")
        root = widgets.VBox([main])
        root.add_class("aotg-table-tab")
        return root

    @contextmanager
    def _batch(self) -> Iterator[None]:
        """Set many inputs, then answer once (nested batches answer when the outermost ends)."""
        outer = not self._loading
        self._loading = True
        try:
            yield
        finally:
            if outer:
                self._loading = False
        if outer:
            self.refresh()

    def _add_row(self, region: Mapping[str, Any]) -> None:
        if len(self.rows) >= MAX_REGIONS:
            self.errors["regions"].show(f"Regions: at most {MAX_REGIONS} regions")
            return
        self.rows.append(RegionRow(region, self.refresh, self._remove_row))
        self.regions_box.children = [row.widget for row in self.rows]
        self.refresh()

    def _remove_row(self, row: RegionRow) -> None:
        self.rows.remove(row)
        self.regions_box.children = [r.widget for r in self.rows]
        self.refresh()

    def _players_changed(self) -> None:
        with self._batch():
            names = list(self.players.value)
            keep = self.current.value if self.current.value in names else (names[0] if names else None)
            self.current.options = names
            self.current.value = keep
            began = self.began.value if self.began.value in names else ""
            self.began.options = [("the current player's turn", "")] + [(n, n) for n in names]
            self.began.value = began
            for race, row in self.standings.items():
                row.widget.layout.display = "" if race in names else "none"
            for race, box in self.numbers.items():
                box.disabled = race not in names

    def _pools_changed(self) -> None:
        self.began.disabled = bool(self.first.value or self.second.value)
        self.refresh()

    def table(self) -> dict[str, Any]:
        """The inputs as a scenario's ``table`` key.

        Raises:
            ScenarioError: a standing typed in a form the scenario cannot hold.
        """
        out: dict[str, Any] = {
            "players": [{"race": r, "ordning_number": self.numbers[r].value} for r in self.players.value],
            "npc": list(self.npc.value),
            "regions": [row.to_dict() for row in self.rows],
            "pools": {"first": self.first.value, "second": self.second.value},
        }
        if self.current.value:
            out["current"] = self.current.value
        if self.began.value and not (self.first.value or self.second.value):
            out["endgame_began_with"] = self.began.value
        if self.rank.value:
            out["standings"] = {r: self.standings[r].to_dict() for r in self.players.value}
        return out

    def load(self, table: Mapping[str, Any]) -> None:
        """Set every input from a scenario's ``table`` key, checked first.

        Raises:
            ScenarioError: the table is refused; no input changed.
        """
        parse_table(table)
        table = copy.deepcopy(dict(table))
        with self._batch():
            seats = [_seat(entry) for entry in table["players"]]
            for race, number in seats:
                self.numbers[race].value = CASTE_ORDER.index(race) + 1 if number is None else number
            self.players.value = [race for race, _ in seats]
            self.npc.value = list(table.get("npc", []))
            pools = table.get("pools", {"first": 1, "second": 1})
            self.first.value, self.second.value = pools["first"], pools["second"]
            self.current.value = table.get("current", seats[0][0])
            self.began.value = table.get("endgame_began_with", "")
            self.rows = [RegionRow(region, self.refresh, self._remove_row) for region in table["regions"]]
            self.regions_box.children = [row.widget for row in self.rows]
            standings = table.get("standings")
            self.rank.value = standings is not None
            for race, row in self.standings.items():
                row.set((standings or {}).get(race, {}))

    def field_names(self) -> FieldNames:
        """The labels on screen of the tab's inputs, for the messages beside them ("Regions, Triboar, slayers")."""
        labels = dict(_LABELS)
        for i, race in enumerate(self.players.value):
            labels[f"table.players[{i}]"] = f"Races, players, {race}"
            labels[f"table.players[{i}].ordning_number"] = f"Races, {race}, Ordning Number"
        labels.update({f"table.npc[{i}]": f"Races, NPC giants, {race}" for i, race in enumerate(self.npc.value)})
        for i, row in enumerate(self.rows):
            name = f"Regions, {row.name.value.strip() or f'region {i + 1}'}"
            labels[f"table.regions[{i}]"] = name
            labels.update({f"table.regions[{i}].{key}": f"{name}, {label}" for key, label in _REGION.items()})
        for race in self.standings:
            labels[f"table.standings.{race}"] = f"Final standings, {race}"
            labels.update({f"table.standings.{race}.{key}": f"Final standings, {race}, {label}"
                           for key, label in _STANDING.items()})
        return FieldNames(labels)

    def _route(self, error: ScenarioError) -> ErrorMessage:
        for prefix, section in _ROUTES.items():
            if error.field.startswith(prefix):
                return self.errors[section]
        return self.errors["races"]

    def refresh(self) -> bool:
        """Answer the current inputs; on bad input, say where and keep the last answers.

        Returns:
            True if the answers now show the current inputs.
        """
        if self._loading:
            return self.valid
        for message in self.errors.values():
            message.clear()
        try:
            answers = answer_table(parse_table(self.table()))
        except ScenarioError as error:
            said = self.field_names().message(error)
            self._route(error).show(said)
            return self._refused(said)
        except Exception as error:  # noqa: BLE001 - the notebook must never show a traceback
            self.errors["races"].show(f"unexpected problem: {type(error).__name__}: {error}")
            return self._refused("unexpected problem (see the message beside the races)")
        self.answers, self.valid = answers, True
        self.results.remove_class("explorer-stale")
        self.status.value = ""
        self.phase.value = explain(phase_html(answers))
        self.moves.value = explain(moves_html(answers))
        self.recruit.value = explain(recruit_html(answers))
        self.slayers.value = explain(slayers_html(answers))
        self.turns.value = explain(turns_html(answers))
        self.winner.value = explain(winner_html(answers))
        return True

    def _refused(self, problem: str) -> bool:
        self.valid = False
        if self.answers is not None:
            self.results.add_class("explorer-stale")
        self.status.value = (f"<b style='color:#b03a2e'>Not updated: {html.escape(problem)}. "
                             "Showing the last valid table.</b>")
        return False


class TableTabSlot:
    """The tab's place in the panel: the `TableTab` is built the first time the tab is opened.

    Its hundreds of widgets then cost the page nothing until a teacher asks for them.

    >>> slot = TableTabSlot()
    >>> slot.tab is None, slot.show(True), slot.tab is not None and slot.tab.valid
    (True, None, True)
    """

    def __init__(self) -> None:
        self.tab: TableTab | None = None
        self.widget = widgets.VBox([note("Opening the rules of the table…")])
        self.widget.add_class("aotg-table-slot")

    def show(self, active: bool) -> None:
        """Called when the tab is opened (True) or left (False)."""
        if active and self.tab is None:
            self.tab = TableTab()
            self.widget.children = [self.tab.widget]
