"""Parts built when first opened (`explorer.panels.common.lazy`) and what a page then holds.

A part built late must look as if it had been there all along: placed in its tab, told whether
its tab is open, and told at once if the panel's inputs are refused at that moment.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from explorer.app import Explorer
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.common.lazy import PartTabs
from tests.panels.assault_of_the_giants.support import typed


class Part:
    """A part that records every ``show(active)``."""

    made = 0

    def __init__(self, name: str) -> None:
        Part.made += 1
        self.widget = widgets.HTML(name)
        self.shown: list[bool] = []

    def show(self, active: bool) -> None:
        self.shown.append(active)


def tabs() -> PartTabs:
    return PartTabs({"A": lambda: Part("a"), "B": lambda: Part("b"), "C": lambda: Part("c")}, active=("B", "C"))


def test_only_the_open_tab_is_built_and_each_is_built_once() -> None:
    before = Part.made
    bar = tabs()
    assert [bar.built(t) for t in "ABC"] == [True, False, False] and Part.made == before + 1
    bar.tab.selected_index = 2
    bar.tab.selected_index = 0
    bar.tab.selected_index = 2
    assert [bar.built(t) for t in "ABC"] == [True, False, True] and Part.made == before + 2
    assert bar.tab.children[2].children == (bar.part("C").widget,)
    assert bar.tab.children[1].children[0].value.startswith("<i>Opening B")  # the placeholder until opened


def test_parts_with_show_are_told_when_their_tab_opens_and_closes() -> None:
    bar = tabs()
    c = bar.select("C")
    assert c.shown == [True]
    bar.tab.selected_index = 1
    b = bar.part("B")
    assert b.shown == [True] and c.shown == [True, False]
    bar.tab.selected_index = 0
    assert b.shown == [True, False] and c.shown == [True, False, False]


def test_a_part_asked_for_is_built_in_its_tab_without_opening_it() -> None:
    bar = tabs()
    b = bar.part("B")
    assert bar.tab.selected_index == 0 and b.shown == []
    assert bar.tab.children[1].children == (b.widget,)


def test_a_tab_built_while_the_inputs_are_refused_shows_the_last_valid_battle() -> None:
    panel = AssaultPanel()
    assert not panel.tabs.built("Sweep") and not panel.tabs.built("Scenario, share")
    typed(panel.pools["attacker"].basic, "2.5")
    assert not panel.valid
    box = panel.scenario_box  # built now, while the battle is refused
    assert "Attacker, basic dice" in box.state.value  # says the command line would refuse it
    typed(panel.pools["attacker"].basic, "5")
    assert panel.valid and "follows every change" in box.state.value


def widget_count(root: Any) -> int:
    """The widgets reachable from `root` (children, layouts, styles...)."""
    seen: set[int] = set()
    todo = [root]
    while todo:
        widget = todo.pop()
        if id(widget) in seen:
            continue
        seen.add(id(widget))
        for key in widget.keys:
            value = getattr(widget, key, None)
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(item, widgets.Widget):
                    todo.append(item)
    return len(seen)


def test_the_app_opens_with_what_is_on_screen_only() -> None:
    app = Explorer()
    opened = widget_count(app.widget)
    assert all(tab.panel is None for tab in app.later.values())  # other games and the dice lab: not built
    app.dice_lab_tab.open()
    app.panel("arcadia-quest")
    for title in app.first.tabs.titles:
        app.first.tabs.part(title)
    everything = widget_count(app.widget)
    assert opened < 0.6 * everything, (opened, everything)
