"""Bad input: a message beside the input naming it as labelled on screen, every chart dimmed and labelled, never a
traceback."""

from __future__ import annotations

import html
import re

import pytest

import explorer
from explorer.panels.arcadia_quest.panel import ArcadiaPanel
from tests.panels.arcadia_quest.support import check_charts, typed


def _message(panel: ArcadiaPanel, where: str) -> str:
    return {"hero": panel.hero.error, "card": panel.card.error, "monster": panel.target.error,
            "close": panel.close.error, "game": panel.game_error, "main": panel.error}[where].text


BAD = [
    # (what, typed, where the message goes, the field path the command line names, its label on screen, a good value)
    (lambda p: p.hero.values["defence"], "2.5", "hero", "hero.defence", "Hero, Defense", "3"),
    (lambda p: p.hero.values["wounds"], "4", "hero", "hero.wounds", "Hero, Wounds on him", "1"),
    (lambda p: p.card.values["dice"], "-1", "card", "attack.dice", "Attack card, attack dice", "3"),
    (lambda p: p.target.values["overkill"], "2", "monster", "target.overkill", "Target Monster, Overkill", "3"),
    (lambda p: p.target.values["life"], "many", "monster", "target.life", "Target Monster, Life", "4"),
    (lambda p: p.target.tokens, "1", "monster", "target.other_guild_tokens",
     "Target Monster, other Guilds' tokens on it", "0"),
    (lambda p: p.close.rows[1].attack, "x", "close", "close_monsters[1].attack.dice", "Close Monster Goblin Archer, dice",
     "2"),
    (lambda p: p.guilds, "5", "game", "guilds", "Guilds in the game", "2"),
]


@pytest.mark.parametrize("box, bad, where, path, field, good", BAD, ids=[case[3] for case in BAD])
def test_bad_input_marks_charts_stale_naming_the_field_and_a_fix_clears_it(panel, box, bad, where, path, field, good):
    shown = {name: chart.figure for name, chart in panel.results.figures.items()}
    typed(box(panel), bad)
    assert box(panel).get_state()["value"] == bad  # kept on screen as typed
    assert not panel.valid
    assert _message(panel, where).startswith(f"{field}: "), _message(panel, where)  # the label, not the path
    with pytest.raises(explorer.ScenarioError, match=re.escape(path)):
        explorer.resolve(panel.scenario())  # the command line still names the field path
    others = [w for w in ("hero", "card", "monster", "close", "game", "main") if w != where]
    assert not any(_message(panel, w) for w in others)
    for name, chart in panel.results.figures.items():
        assert field in chart.note and "last valid" in chart.note, name
        assert chart.figure == shown[name]  # the last valid encounter, dimmed and labelled
    assert "aq-stale" in panel.results.table._dom_classes
    assert field in panel.whatif.compare.note
    assert field in html.unescape(panel.scenario_box.state.value)
    typed(box(panel), good)
    assert panel.valid and not _message(panel, where)
    assert not any(chart.note for chart in panel.results.figures.values())
    assert "aq-stale" not in panel.results.table._dom_classes
    check_charts(panel)


def test_an_unexpected_error_is_a_message_not_a_traceback(panel, monkeypatch):
    import explorer.panels.arcadia_quest.panel as module

    def broken(*_args):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(module, "resolve_as", broken)  # the panel's one call to the resolver
    typed(panel.hero.values["life"], "5")
    assert not panel.valid
    assert "unexpected problem: ZeroDivisionError: boom" in panel.error.text
    assert all("unexpected problem" in chart.note for chart in panel.results.figures.values())
