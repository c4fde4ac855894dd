"""Number boxes use exactly what they show: a fraction is refused, named, and never used as another number."""

from __future__ import annotations

import re

import ipywidgets as widgets
import pytest

import explorer
from explorer.games.assault_of_the_giants import parse_battle
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.panels.common.dice_lab import DiceLab
from explorer.panels.common.number_box import NumberText
from tests.panels.assault_of_the_giants.support import shown, typed

NUMBER_BOXES = {
    "attacker.pool.basic": (lambda p: p.pools["attacker"].basic, lambda p: p.pools["attacker"].error,
                            "Attacker, basic dice"),
    "attacker.pool.fire": (lambda p: p.pools["attacker"].special, lambda p: p.pools["attacker"].error,
                           "Attacker, fire die"),
    "attacker.rerolls": (lambda p: p.pools["attacker"].overrides["rerolls"], lambda p: p.pools["attacker"].error,
                         "Attacker, rerolls (how many)"),
    "defender.units[0].fortitude": (lambda p: p.armies["defender"].rows[0].fortitude,
                                    lambda p: p.armies["defender"].error, "Defender, hill giant 1, Fortitude"),
    "defender.units[1].wounded_fortitude": (lambda p: p.armies["defender"].rows[1].wounded_fortitude,
                                            lambda p: p.armies["defender"].error,
                                            "Defender, hill giant 2, wounded Fortitude"),
    "attacker.units[2].ordning_value": (lambda p: p.armies["attacker"].rows[2].ordning_value,
                                        lambda p: p.armies["attacker"].error, "Attacker, fire elite, Ordning Value"),
    "dice.basic[0].hit": (lambda p: p.faces.cells[0][0], lambda p: p.faces.error, "Die faces, basic die, face 1, hit"),
}
"""Each number box by the field it writes: the box, the message beside it, and its label on screen."""


@pytest.mark.parametrize("field", NUMBER_BOXES)
def test_a_number_box_uses_what_it_shows(panel: AssaultPanel, field: str) -> None:
    box_of, message_of, label = NUMBER_BOXES[field]
    box, message = box_of(panel), message_of(panel)
    good = box.value
    charts_before = panel.results.figures["hits"].figure
    typed(box, "2.5")
    assert shown(box) == "2.5"                                # not 25, not 2
    assert message.text.startswith(f"{label}: must be a whole number >= ")  # the label on screen, not the path
    assert "got '2.5'" in message.text
    assert panel.results.figures["hits"].figure == charts_before and "Not updated" in panel.status.value
    with pytest.raises(explorer.ScenarioError, match=re.escape(field)):
        parse_battle(panel.scenario())                        # the scenario holds "2.5", never another number
    typed(box, f" {good:+d} " if isinstance(good, int) else good)  # spaces and a sign are fine
    assert box.value == good and shown(box) == str(good) and message.text == ""
    assert panel.refresh()


def test_whole_number_text_is_shown_as_the_number_used(panel: AssaultPanel) -> None:
    box = panel.pools["attacker"].basic
    typed(box, "06")
    assert box.value == 6 and shown(box) == "6"
    assert parse_battle(panel.scenario()).attacker.dice_count == 6 + 1


def test_no_int_text_widgets_left() -> None:
    def walk(w: widgets.Widget):
        yield w
        for child in getattr(w, "children", ()):
            yield from walk(child)

    roots = [AssaultPanel().widget, DiceLab().widget]
    found = [type(w).__name__ for root in roots for w in walk(root)
             if isinstance(w, (widgets.IntText, widgets.BoundedIntText, widgets.FloatText, widgets.BoundedFloatText))]
    assert found == []
    assert sum(isinstance(w, NumberText) for root in roots for w in walk(root)) > 20
