"""The "Plan of battles" tab: a plan from the panel's battle, resolved, shown; bad text refused in place."""

from __future__ import annotations

import json

import pytest

from explorer import resolve
from explorer.panels.assault_of_the_giants.panel import AssaultPanel


def _open(panel: AssaultPanel) -> None:
    panel.extras.selected_index = panel.extras.titles.index("Plan of battles")


def test_first_opening_plans_the_panels_battle_twice(panel: AssaultPanel) -> None:
    assert panel.plan.result is None                     # nothing computed while closed
    _open(panel)
    tab = panel.plan
    assert tab.error.text == "" and tab.result is not None
    plan = json.loads(tab.text.value)
    assert len(plan["plan"]) == 2
    # battle 1 is the panel's battle: its expected points are the single battle's, by the battle resolver
    battle = resolve(panel.scenario()).to_dict()
    first = resolve(plan).to_dict()["battles"][0]
    assert first["attacker"]["means"]["ordning_points"] == pytest.approx(battle["attacker"]["means"]["ordning_points"])
    assert first["defender"]["means"]["ordning_points"] == pytest.approx(battle["defender"]["means"]["ordning_points"])
    wins = tab.charts["wins"].data
    chances = tab.result.win_chances()
    assert list(wins[0].x) == [float(chances[p]["wins"]) for p in tab.result.plan.players]
    assert "wins alone" in tab.table.value and "attack 2" in tab.battles.value


def test_a_refused_plan_shows_why_and_keeps_the_last_charts(panel: AssaultPanel) -> None:
    _open(panel)
    tab = panel.plan
    before = tab.charts["points"].figure
    plan = json.loads(tab.text.value)
    plan["plan"][0]["attacker"]["army"] = "nobody"
    tab.text.value = json.dumps(plan)
    tab.resolve()
    assert tab.error.text.startswith("plan[0].attacker.army")
    assert tab.charts["points"].figure == before and tab.charts["points"].note.startswith("Not updated")
    tab.text.value = "{not json"
    tab.resolve()
    assert tab.error.text and "\n" not in tab.error.text
