"""Every view follows the state it shows: the what-if comparison, the sweep, the scenario box and
its link, and the roll-once steps (or says which battle it still shows)."""

from __future__ import annotations

import json
import re

from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from tests.panels.assault_of_the_giants.support import link_text, typed


def test_clear_a_removes_the_comparison_table(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    assert "No pinned battle" in whatif.caption.value and "<table" not in whatif.differences.value
    whatif.pin.click()
    panel.pools["attacker"].basic.value += 1
    assert "B - A" in whatif.differences.value and re.search(r"\d\.\d{3}", whatif.differences.value)
    whatif.unpin.click()
    assert "<table" not in whatif.differences.value and not re.search(r"\d", whatif.differences.value)
    assert "No pinned battle" in whatif.differences.value and "No pinned battle" in whatif.caption.value
    (current,) = whatif.compare.data                          # A is gone: the current battle alone
    assert current.name == "current (nothing pinned)"
    panel.pools["attacker"].basic.value -= 1                  # later changes bring no stale table back
    assert "<table" not in whatif.differences.value


def test_comparison_says_when_b_is_not_the_current_inputs(panel: AssaultPanel) -> None:
    whatif = panel.whatif
    whatif.pin.click()
    typed(panel.pools["attacker"].basic, "x")
    assert "last valid battle" in whatif.caption.value and "aotg-stale" in whatif.differences._dom_classes
    whatif.quantity.index = 1                                 # redrawing B does not hide that it is not current
    assert "last valid battle" in whatif.caption.value and whatif.compare.note != ""
    typed(panel.pools["attacker"].basic, "5")
    assert whatif.caption.value.startswith("A: the pinned battle") and "aotg-stale" not in whatif.differences._dom_classes


def test_sweep_heatmap_is_marked_out_of_date(panel: AssaultPanel) -> None:
    sweep = panel.sweep
    sweep.x_range.value, sweep.y_range.value = (1, 2), (0, 1)
    sweep.run.click()
    assert sweep.heatmap.note == ""
    panel.pools["defender"].basic.value += 1
    assert "Run sweep" in sweep.heatmap.note
    panel.pools["defender"].basic.value -= 1
    assert sweep.heatmap.note == ""
    sweep.outcome.index = 1
    assert "Run sweep" in sweep.heatmap.note


# ----------------------------------------------------------------------------- scenario box and link
def test_scenario_box_and_link_follow_every_change(panel: AssaultPanel) -> None:
    box = panel.scenario_box
    changes = [
        lambda: panel.armies["attacker"].add_unit(1),
        lambda: setattr(panel.armies["attacker"].rows[0].wounded, "value", True),
        lambda: setattr(panel.armies["defender"].race, "value", "frost"),
        lambda: panel.commands["defender"].move(0, "remove"),
        lambda: panel.faces.set_face("basic", 4, block=1),
        lambda: setattr(panel.pools["defender"].overrides["rerolls"], "value", 3),
    ]
    for change in changes:
        change()
        assert json.loads(box.text.value) == panel.scenario()
        assert json.loads(link_text(panel)) == panel.scenario()
        assert "current battle" in box.state.value


def test_scenario_box_does_not_overwrite_typed_text(panel: AssaultPanel) -> None:
    box = panel.scenario_box
    box.text.value = 'game = "aotg"  # still typing'
    panel.armies["attacker"].add_unit(0)
    assert box.text.value == 'game = "aotg"  # still typing' and "your text" in box.state.value
    assert json.loads(link_text(panel)) == panel.scenario()   # the link still follows
    box.current.click()
    assert json.loads(box.text.value) == panel.scenario()


def test_roll_once_follows_the_battle(panel: AssaultPanel) -> None:
    trace = panel.trace
    trace.roll.click()
    first = trace.output.value
    panel.armies["defender"].rows[0].fortitude.value = 9
    assert trace.output.value != first and "9" in trace.output.value
    typed(panel.pools["attacker"].basic, "2.5")
    assert "last valid battle" in trace.state.value
    typed(trace.seed, "1.5")
    assert "seed" in trace.error.text and "whole number" in trace.error.text
