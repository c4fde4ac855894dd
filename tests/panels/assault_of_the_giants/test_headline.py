"""The battle panel's headline numbers (issue 21 part 5): the damage the defender takes, in the
main results beside the summary table, following every change and the report's own numbers."""

from __future__ import annotations

from typing import cast

import explorer
from explorer.games.assault_of_the_giants import battle_headline, parse_battle, resolve_battle
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.assault_of_the_giants.results import BattleResults
from explorer.panels.common.stats_view import headline_html


def _expected(panel: AssaultPanel) -> str:
    return headline_html(battle_headline(resolve_battle(parse_battle(panel.scenario()))))


def test_the_headline_sits_above_the_summary_table_and_equals_the_report(panel: AssaultPanel) -> None:
    results = cast(BattleResults, panel.results)
    children = list(results.widget.children)
    assert children.index(results.headline.widget) == children.index(results.table) - 1
    assert "damage taken by the defender" in results.headline.widget.value
    assert results.headline.widget.value == _expected(panel)
    mean = explorer.resolve(panel.scenario()).to_dict()["headline"]["mean"]
    assert f"mean {mean:.2f}" in results.headline.widget.value


def test_the_headline_follows_a_change_and_stays_on_a_refusal(panel: AssaultPanel) -> None:
    view = cast(BattleResults, panel.results).headline.widget
    before = view.value
    panel.pools["attacker"].basic.value += 2
    after = view.value
    assert after != before and after == _expected(panel)
    panel.pools["attacker"].basic.value = 61            # refused: the last good headline stays, dimmed
    assert view.value == after
    assert "aotg-stale" in view._dom_classes
