"""After each kind of change every chart equals the resolver's numbers for the panel's scenario."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from explorer.charts.kit import VIEWS
from explorer.games.arcadia_quest.data import ATTACK_CARDS, HEROES, MONSTERS
from explorer.panels.arcadia_quest.panel import ArcadiaPanel
from tests.panels.arcadia_quest.support import check_charts, typed


def _ability(panel: ArcadiaPanel) -> None:
    panel.hero.abilities.boxes["extra-die-while-wounded"].value = True
    typed(panel.hero.values["wounds"], "1")


def _close_edit(panel: ArcadiaPanel) -> None:
    typed(panel.close.rows[0].attack, "5")
    panel.close.rows[1].kind.value = "melee"
    typed(panel.close.rows[1].rerolls, "2")


CHANGES: dict[str, tuple[Callable[[ArcadiaPanel], Any], Callable[[dict[str, Any]], bool]]] = {
    "hero preset": (lambda p: setattr(p.hero.preset, "value", "Grom"),
                    lambda s: s["hero"]["preset"] == "Grom" and s["hero"]["defence"] == HEROES["Grom"].value.defence),
    "hero Defense and Life": (lambda p: (typed(p.hero.values["defence"], "4"), typed(p.hero.values["life"], "6")),
                              lambda s: (s["hero"]["defence"], s["hero"]["life"]) == (4, 6)),
    "monster preset": (lambda p: setattr(p.target.preset, "value", "Minotaur"),
                       lambda s: s["target"]["preset"] == "Minotaur" and s["target"]["defence"] == 1),
    "monster Life, Overkill, Defense, Payback dice": (
        lambda p: (typed(p.target.values["life"], "4"), typed(p.target.values["overkill"], "7"),
                   typed(p.target.values["defence"], "2"), typed(p.target.values["attack"], "2")),
        lambda s: (s["target"]["life"], s["target"]["overkill"], s["target"]["defence"],
                   s["target"]["attack"]["dice"]) == (4, 7, 2, 2)),
    "no Overkill rating": (lambda p: typed(p.target.values["overkill"], ""), lambda s: s["target"]["overkill"] is None),
    "attack dice and type": (lambda p: (typed(p.card.values["dice"], "4"), setattr(p.card.kind, "value", "melee")),
                             lambda s: (s["attack"]["dice"], s["attack"]["kind"]) == (4, "melee")),
    "card preset": (lambda p: setattr(p.card.preset, "value", "Parrying Dagger"),
                    lambda s: s["attack"]["card"] == "Parrying Dagger" and s["attack"]["defence_bonus"] == 1),
    "reroll pools": (lambda p: (typed(p.hero.values["rerolls"], "2"), typed(p.target.values["rerolls"], "1")),
                     lambda s: (s["hero"]["rerolls"], s["target"]["rerolls"]) == (2, 1)),
    "an ability": (_ability, lambda s: "extra-die-while-wounded" in s["hero"]["abilities"] and s["hero"]["wounds"] == 1),
    "add a Close Monster": (lambda p: p.close.add_preset("Troll"),
                            lambda s: [m.get("preset") for m in s["close_monsters"]][-1] == "Troll"),
    "remove a Close Monster": (lambda p: p.close.rows[0].remove.click(), lambda s: len(s["close_monsters"]) == 1),
    "edit a Close Monster's attack": (_close_edit, lambda s: s["close_monsters"][0]["attack"]["dice"] == 5
                                      and s["close_monsters"][1]["rerolls"] == 2),
    "Payback cannot reach": (lambda p: setattr(p.target.reaches, "value", False),
                             lambda s: s["target"]["reaches"] is False),
    "target Close to the hero": (lambda p: setattr(p.target.close, "value", True), lambda s: s["target"]["close"]),
    "the opponent does not attack": (lambda p: setattr(p.opponent, "value", False),
                                     lambda s: s["opponent_attacks"] is False),
    "Dazed target, flanked hero": (lambda p: (setattr(p.target.dazed, "value", True),
                                              setattr(p.hero.flanked, "value", True)),
                                   lambda s: s["target"]["dazed"] and s["hero"]["flanked"]),
    "Villain with a token, 3 Guilds": (lambda p: (setattr(p.target.villain, "value", True),
                                                  typed(p.target.tokens, "1"), typed(p.guilds, "3")),
                                       lambda s: s["target"]["other_guild_tokens"] == 1 and s["guilds"] == 3),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_each_change_redraws_every_chart_with_the_resolver_numbers(panel, change):
    act, shows = CHANGES[change]
    before = {name: chart.revision for name, chart in panel.results.figures.items()}
    check_charts(panel)
    act(panel)
    assert shows(panel.scenario()), panel.scenario()
    check_charts(panel)
    assert all(chart.revision > before[name] for name, chart in panel.results.figures.items())


@pytest.mark.parametrize("view", VIEWS)
def test_view_changes_the_wound_charts(panel, view):
    panel.close.add_preset("Minotaur")
    panel.results.view.value = view
    check_charts(panel)


def test_every_preset_resolves_and_charts(panel):
    for hero, card, monster in zip(HEROES, list(ATTACK_CARDS) * 2, list(MONSTERS) * 2):
        panel.hero.preset.value, panel.card.preset.value, panel.target.preset.value = hero, card, monster
        check_charts(panel)


def test_presets_set_values_with_their_sources(panel):
    panel.target.preset.value = "Lord Fang"
    assert panel.target.values["overkill"].value == ""  # no Overkill rating: never overkilled
    assert panel.scenario()["target"]["overkill"] is None
    assert "fan-collected" in panel.target.values.provenance.value
    typed(panel.target.values["life"], "6")
    assert "your value" in panel.target.values.provenance.value
    assert "fan-collected" in panel.target.values.provenance.value  # the other values keep theirs
    check_charts(panel)


def test_a_card_group_brings_the_presets_ability_until_the_user_picks(panel):
    assert panel.scenario()["hero"]["abilities"] == ["extra-hit-per-crit"]  # Greensleeves with a Bow card
    panel.card.preset.value = "Rusty Sword"
    assert panel.scenario()["hero"]["abilities"] == []  # Bow Mastery needs a Bow card
    panel.card.group.value = "bow"
    assert panel.scenario()["hero"]["abilities"] == ["extra-hit-per-crit"]
    panel.hero.abilities.boxes["extra-hit-per-crit"].value = False  # the user's choice now
    panel.card.group.value = "sword"
    panel.card.group.value = "bow"
    assert panel.scenario()["hero"]["abilities"] == []
    check_charts(panel)


def test_guard_note_says_who_guards(panel):
    assert "Orc Marauder, Goblin Archer attack" in panel.close.guard.value
    panel.card.also_targets_close.value = True
    assert "No Guard" in panel.close.guard.value
    assert panel.result.encounter.guard_attackers == ()
    panel.card.also_targets_close.value = False
    for row in list(panel.close.rows):
        row.remove.click()
    assert "No Monster is Close" in panel.close.guard.value
    check_charts(panel)


def test_custom_hero_card_and_monster(panel):
    panel.hero.preset.value = ""
    panel.hero.name_box.value = "Bob"
    panel.card.preset.value = ""
    panel.target.preset.value = ""
    panel.target.name_box.value = "Slime"
    scenario = panel.scenario()
    assert scenario["hero"]["name"] == "Bob" and "preset" not in scenario["hero"]
    assert "card" not in scenario["attack"] and scenario["target"]["name"] == "Slime"
    check_charts(panel)
    assert panel.results.figures["monster_wounds"].to_figure().layout.title.text == "Wounds dealt to the Slime"
