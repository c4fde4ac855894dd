"""The shared what-if, sweep, scenario box and roll-once trace view work for a made-up game.

The game (`fake_game`: toss coins, count heads) has a tiny host and adapter and no code of any
real game: the host protocol and the adapters are all the shared parts need.
"""

from __future__ import annotations

import base64
import json
import re

import pytest

from explorer.panels.common.host import GameAdapter, PanelHost
from tests.panels.common.fake_game import CoinAdapter, CoinHost, CoinPanel, build, toss


@pytest.fixture
def coins() -> CoinPanel:
    return build(coins=2, target=1)


def test_the_fake_game_is_a_host_and_an_adapter() -> None:
    assert isinstance(CoinHost(), PanelHost) and isinstance(CoinAdapter(), GameAdapter)
    assert not isinstance(object(), PanelHost)


def test_parts_use_the_game_labels_for_css_and_words(coins: CoinPanel) -> None:
    assert "coins-pin" in coins.whatif.pin._dom_classes
    assert "coins-sweep" in coins.sweep.run._dom_classes
    assert "coins-scenario-text" in coins.box.text._dom_classes
    assert "coins-roll-once" in coins.trace.roll._dom_classes
    assert "No pinned toss (A)" in coins.whatif.caption.value
    assert 'download="toss.json"' in coins.box.download.value


def test_whatif_overlays_a_and_b_and_follows_the_host(coins: CoinPanel) -> None:
    whatif, host = coins.whatif, coins.host
    (only,) = whatif.compare.data  # nothing pinned: the current toss alone, no grey "A" bars
    assert only.name == "current (nothing pinned)" and list(only.y) == pytest.approx([0.25, 0.5, 0.25])
    whatif.pin.click()
    host.set(coins=3)
    a, b = whatif.compare.data
    assert list(a.y) == pytest.approx([0.25, 0.5, 0.25])             # A: the pinned toss
    assert list(b.y) == pytest.approx([0.125, 0.375, 0.375, 0.125])   # B: the current one
    assert "<td>1.000</td><td>1.500</td><td>0.500</td>" in whatif.differences.value
    whatif.quantity.value = "tails"
    assert list(whatif.compare.data[1].x) == [0, 1, 2, 3]


def test_whatif_says_when_b_is_not_the_current_inputs(coins: CoinPanel) -> None:
    whatif, host = coins.whatif, coins.host
    whatif.pin.click()
    host.set(coins="2.5")
    assert not host.valid
    assert "coins: must be a whole number" in whatif.compare.note and "last valid toss" in whatif.compare.note
    assert "last valid toss" in whatif.caption.value and "coins-stale" in whatif.differences._dom_classes
    host.set(coins=4)
    assert whatif.compare.note == "" and "coins-stale" not in whatif.differences._dom_classes
    whatif.unpin.click()
    assert "No pinned toss" in whatif.differences.value


def test_sweep_maps_the_adapter_outcome_and_goes_stale(coins: CoinPanel) -> None:
    sweep, host = coins.sweep, coins.host
    sweep.x_range.value, sweep.y_range.value = (1, 2), (0, 1)
    sweep.run.click()
    assert sweep.error.text == ""
    expected = [[float(toss({"game": "coins", "coins": c, "target": t}).heads.at_least(t)) for c in (1, 2)]
                for t in (0, 1)]
    assert [list(row) for row in sweep.heatmap.data[0].z] == expected
    host.set(target=2)                       # the sweep does not depend on it: x and y replace both inputs
    assert "toss or the sweep settings changed" in sweep.heatmap.note
    host.set(target=1)
    assert sweep.heatmap.note == ""
    sweep.y.value = sweep.x.value
    sweep.run.click()
    assert "different inputs" in sweep.error.text


def test_scenario_box_follows_loads_and_refuses(coins: CoinPanel) -> None:
    box, host = coins.box, coins.host
    host.set(coins=5)
    assert json.loads(box.text.value) == host.scenario()
    payload = re.search(r"base64,([^\"]+)\"", box.download.value).group(1)
    assert json.loads(base64.b64decode(payload)) == host.scenario()
    box.text.value = 'game = "coins"\ncoins = 7\ntarget = 3'
    assert "your text" in box.state.value
    box.load.click()
    assert box.error.text == "" and host.scenario()["coins"] == 7 and host.applied
    assert json.loads(box.text.value) == host.scenario()
    before = host.scenario()
    for text, start in (('{"game": "aotg", "coins": 1}', "game: this panel loads"),
                        ('game = "coins"\ncoins = 99', "coins: must be >= 0 and <= 12"),
                        ("{oops", "scenario: not valid JSON")):
        box.text.value = text
        box.load.click()
        assert box.error.text.startswith(start), box.error.text
        assert host.scenario() == before and box.text.value == text
    host.set(coins="x")
    assert "refuse it until this is fixed: coins:" in box.state.value or "your text" in box.state.value


def test_trace_view_rolls_follows_and_reports(coins: CoinPanel) -> None:
    trace, host = coins.trace, coins.host
    trace.seed.value = 3
    trace.roll.click()
    first = trace.output.value
    assert "coins-trace-table" in first and "tosses 2 coins" in first and "house rule 1" in first
    trace.roll.click()
    assert trace.output.value == first                     # same seed, same toss
    host.set(coins=4)
    assert "tosses 4 coins" in trace.output.value          # the steps follow the inputs
    host.set(coins=-1)
    assert "last valid toss" in trace.state.value
    host.set(coins=4)
    trace.seed.set_state({"value": "1.5"})
    assert "seed" in trace.error.text and "whole number" in trace.error.text
