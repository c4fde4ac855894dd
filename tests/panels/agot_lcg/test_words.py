"""The A Game of Thrones panel speaks in the rulebook's and the user's words: no field paths, raw keys or -0."""

from __future__ import annotations

import html
import re

import ipywidgets as widgets

from explorer.panels.agot_lcg.panel import AgotPanel
from tests.panels.agot_lcg.support import typed
from tests.panels.common.accessible import open_every_tab, walk

PROGRAMMER_WORDS = re.compile(r"\b[a-z]+_[a-z_]+\b|challenges\[|players\.|best_plan|-0\.0*\b|\bNone\b|\bTrue\b|\bFalse\b")
"""Raw keys (power_after), field paths, Python values and a negative zero."""


def labels(box: widgets.Dropdown) -> list[str]:
    """The choices a drop-down shows."""
    return [str(option[0] if isinstance(option, tuple) else option) for option in box.options]


def screen_text(panel: AgotPanel) -> list[str]:
    """Every text the panel shows or names an input with (not the scenario box's text, which is the file)."""
    out = []
    for w in walk(panel.widget):
        if isinstance(w, widgets.Textarea):
            continue
        for attr in ("description", "tooltip", "placeholder") + (() if isinstance(w, widgets.Dropdown) else ("value",)):
            value = getattr(w, attr, None)
            if isinstance(value, str):
                out.append(html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", value, flags=re.S)))
        if isinstance(w, widgets.Dropdown):
            out += labels(w)
    return out


def test_no_programmer_words_on_screen(panel: AgotPanel) -> None:
    open_every_tab(panel)
    panel.whatif.set_pin()
    typed(panel.sides["first"].gold, "6")
    panel.sweep.run_sweep()
    panel.trace.run()
    found = [text for text in screen_text(panel) if PROGRAMMER_WORDS.search(text)]
    assert found == []
    exports = panel.scenario_box.widget  # the share tab's chart picker reads the charts in words
    charts = [labels(w) for w in walk(exports) if isinstance(w, widgets.Dropdown) and w.description == "chart"]
    assert charts == [["power through the round", "who wins by strength"]]


def test_a_bad_input_is_said_in_words_everywhere(panel: AgotPanel) -> None:
    typed(panel.sides["second"].rows[0].strength, "x1")
    panel.challenges.rows[0].attackers.boxes["Raider"].value = False
    assert not panel.valid
    assert [text for text in screen_text(panel) if PROGRAMMER_WORDS.search(text)] == []


def test_the_race_chart_says_no_one_not_none(panel: AgotPanel) -> None:
    odds = panel.odds
    typed(odds.first_gains, "0")
    typed(odds.second_gains, "0")
    assert odds.figures["race"].to_figure().layout.title.text == "Round someone reaches 15 (wins: no one 100%)"
