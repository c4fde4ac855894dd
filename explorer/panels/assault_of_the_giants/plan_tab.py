"""The "Plan of battles" tab: several battles in a row, wounds and defeats carried forward, exactly.

The plan is a scenario of its own (keys ``armies``, ``plan``, ``standings``; docs/assault-of-the-giants.md, "plans of
battles"), edited here as text: "From this battle" writes one from the panel's battle (the same
attack twice, so the second meets the wounds of the first), to be edited and resolved. The tab
shows each player's Ordning Points at the end, the win chances with p.20's tiebreaks and the
armies battle by battle, computed by `explorer.games.assault_of_the_giants.plan.result`.
A plan the reader refuses shows the message beside the text and keeps the last charts.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from explorer.charts.aotg_plan import plan_figures
from explorer.core.errors import ExplorerError
from explorer.games.assault_of_the_giants import ARMY_KEYS, PlanReport, PlanResult, parse_plan, resolve_plan
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.host import PanelHost
from explorer.panels.common.table import decimal_text, html_table, percent_text
from explorer.scenario.loader import read_scenario_text

__all__ = ["PlanTab", "plan_from_battle", "standings_rows", "standings_html", "battles_html", "STANDINGS_COLUMNS"]

STANDINGS_COLUMNS = ("player", "expected Ordning Points", "expected Resource Cards", "wins alone",
                     "shares the victory")
"""The columns of the standings table."""

_PLAN_HEIGHT = 300


def plan_from_battle(scenario: Mapping[str, Any], repeats: int = 2) -> dict[str, Any]:
    """A plan scenario from a battle scenario: its two armies, and its battle fought `repeats` times.

    >>> plan = plan_from_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 2}, "units": [{"fortitude": 2, "ordning_value": 1}], "player": "a"},
    ...     "defender": {"pool": {"basic": 1}, "units": [{"fortitude": 2, "ordning_value": 1}], "player": "d"}})
    >>> list(plan["armies"]), [b["attacker"]["army"] for b in plan["plan"]]
    (['a', 'd'], ['a', 'a'])
    """
    armies: dict[str, Any] = {}
    sides: dict[str, dict[str, Any]] = {}
    for role in ("attacker", "defender"):
        side = copy.deepcopy(dict(scenario[role]))
        name = str(side.get("player") or role)
        army = {k: side.pop(k) for k in ARMY_KEYS if k in side}
        if army.get("npc"):
            army.pop("player", None)
        else:
            army["player"] = name
        if not army.get("giantslayers"):
            army.pop("giantslayers", None)
        if not army.get("npc"):
            army.pop("npc", None)
        for unit in army.get("units", []):
            unit.setdefault("wounded_fortitude", unit.get("fortitude", 1))
        armies[name] = army
        sides[role] = {"army": name, **side}
    if len(armies) < 2:
        raise ExplorerError("player: the two sides need different players to make a plan")
    battles = [{"name": f"attack {i + 1}", "attacker": copy.deepcopy(sides["attacker"]),
                "defender": copy.deepcopy(sides["defender"])} for i in range(repeats)]
    players = [a["player"] for a in armies.values() if "player" in a]
    out: dict[str, Any] = {"format": 1, "game": "assault-of-the-giants",
                           "title": "The panel's battle fought twice: the second attack meets the first one's wounds",
                           "armies": armies, "plan": battles,
                           "standings": {p: {"ordning_points": 0, "resource_cards": 0, "regions": 1} for p in players}}
    if "dice" in scenario:
        out["dice"] = copy.deepcopy(scenario["dice"])
    return out


def standings_rows(result: PlanResult) -> list[tuple[str, float, float, float, float]]:
    """Per player (`STANDINGS_COLUMNS`): expected Ordning Points and Resource Cards at the end, the chances to win.

    >>> from explorer.games.assault_of_the_giants.plan.scenario import parse_plan
    >>> rows = standings_rows(resolve_plan(parse_plan(json.load(open("examples/aotg-plan.json")))))
    >>> [row[0] for row in rows], all(0 <= row[3] <= 1 for row in rows)
    (['fire', 'hill', 'cloud'], True)
    """
    chances = result.win_chances()
    return [(player, float(result.points(player).mean()), float(result.resource_cards(player).mean()),
             float(chances[player]["wins"]), float(chances[player]["shares"])) for player in result.plan.players]


def standings_html(result: PlanResult) -> str:
    """`standings_rows` as a table: expectations with three decimals, chances as percentages."""
    chances = {c: (lambda v: percent_text(v, 1)) for c in ("wins alone", "shares the victory")}
    return html_table(STANDINGS_COLUMNS, standings_rows(result), "aotg-summary-table", formats=chances,
                      number=decimal_text)


def battles_html(report: PlanReport) -> str:
    """Per battle: the chance it takes place and each side's expected Ordning Points."""
    rows = [(b["name"], b["took_place"], b["attacker"]["means"]["ordning_points"],
             b["defender"]["means"]["ordning_points"]) for b in report.to_dict()["battles"]]
    return html_table(("battle", "takes place", "attacker's expected points", "defender's expected points"), rows,
                      "aotg-summary-table", formats={"takes place": lambda v: percent_text(v, 1)}, number=decimal_text)


class PlanTab:
    """The tab's widgets; `widget` is its content."""

    def __init__(self, host: PanelHost) -> None:
        self.host = host
        self.active = False
        self.result: PlanResult | None = None
        self.text = widgets.Textarea(layout=widgets.Layout(width="100%", height="260px"),
                                     tooltip="the plan of battles (JSON or TOML)")
        self.text.add_class("aotg-plan-text")
        self.from_battle = widgets.Button(description="From this battle", icon="copy",
                                          tooltip="a plan of the panel's battle fought twice (edit it after)")
        self.run = widgets.Button(description="Resolve the plan", icon="play", button_style="primary",
                                  tooltip="read the plan above and compute it")
        self.run.add_class("aotg-plan-run")
        self.error = ErrorMessage("aotg-plan-error")
        self.table = widgets.HTML()
        self.battles = widgets.HTML()
        self.charts = {name: Chart(None, height=_PLAN_HEIGHT) for name in ("points", "wins", "armies")}
        grid = widgets.Box(list(self.charts.values()))
        grid.add_class("explorer-charts")
        self.from_battle.on_click(lambda _b: self.start_from_battle())
        self.run.on_click(lambda _b: self.resolve())
        self.widget = widgets.VBox([
            note("A plan is several battles in order: a unit wounded in one fights the next on its wounded side, "
                 "a defeated one is gone (p.17), points and Resource Cards add up, and the end is ranked by "
                 "Ordning Points, then Resource Cards, then regions, else a shared victory (p.20). Edit the plan "
                 "(JSON or TOML; keys in docs/assault-of-the-giants.md, 'Plans of battles'), then resolve it."),
            widgets.HBox([self.from_battle, self.run]), self.text, self.error.widget, self.table, grid, self.battles,
        ])
        self.widget.add_class("aotg-plan-tab")

    def show(self, active: bool) -> None:
        """Called when the tab is opened (True) or left (False); the first opening starts a plan."""
        self.active = active
        if active and not self.text.value.strip():
            self.start_from_battle()

    def start_from_battle(self) -> None:
        """Write a plan from the panel's battle into the box and resolve it."""
        try:
            plan = plan_from_battle(self.host.scenario())
        except (ExplorerError, KeyError, TypeError) as error:
            self.error.show(f"plan: cannot start from this battle ({error})")
            return
        self.text.value = json.dumps(plan, indent=2)
        self.resolve()

    def resolve(self) -> None:
        """Read the box and resolve the plan; a refusal keeps the last charts, dimmed, with the reason."""
        try:
            data = read_scenario_text(self.text.value, source="plan")
            result = resolve_plan(parse_plan(data))
            report = PlanReport(result)
            figures = plan_figures(result)
        except ExplorerError as error:
            self.error.show(str(error))
            for chart in self.charts.values():
                chart.mark_stale(f"Not updated: {error}")
            return
        self.error.clear()
        self.result = result
        for name, figure in figures.items():
            self.charts[name].show(figure)
        self.table.value = standings_html(result)
        self.battles.value = battles_html(report)
