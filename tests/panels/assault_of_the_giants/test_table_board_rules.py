"""Headless tests of the "Rules of the table" tab for the board rules of issue 21: the storm giants'
stacking limit (rulebook p.9) and where giantslayers may stand and be recruited (rulebook p.18)."""

from __future__ import annotations

from explorer.panels.assault_of_the_giants.table_inputs import RegionRow
from explorer.panels.assault_of_the_giants.table_tab import TableTab


def _row(tab: TableTab, name: str) -> RegionRow:
    return next(row for row in tab.rows if row.name.value == name)


def _errors(tab: TableTab) -> dict[str, str]:
    return {name: message.text for name, message in tab.errors.items() if message.text}


def test_four_storm_units_in_a_region_are_refused_beside_the_regions_p9() -> None:
    tab = TableTab()
    maelstrom = _row(tab, "Maelstrom")
    maelstrom.units.value = 3
    assert tab.valid and tab.table()["regions"][0]["units"] == 3
    maelstrom.units.value = 4
    shown = _errors(tab)
    assert not tab.valid and list(shown) == ["regions"]
    assert shown["regions"].startswith("Regions, Maelstrom, units:") and "p.9" in shown["regions"]
    maelstrom.units.value = 0                       # 0: not given, and the key is left out
    assert tab.valid and "units" not in tab.table()["regions"][0]


def test_giantslayers_in_a_starting_region_wait_for_the_final_ordning_p18() -> None:
    tab = TableTab()
    _row(tab, "Grudd Haug").occupied_by.value = "hill"
    _row(tab, "Svardborg").giantslayers.value = 1   # the Final Ordning (first pool empty): allowed
    assert tab.valid and "Svardborg" in tab.slayers.value
    tab.first.value = 4                             # back to normal play: refused, beside the regions
    shown = _errors(tab)
    assert not tab.valid and shown["regions"].startswith("Regions, Svardborg, slayers:")
    assert "p.18" in shown["regions"]
    _row(tab, "Svardborg").giantslayers.value = 0
    assert tab.valid
    assert "2 Giantslayer Actions" in tab.slayers.value and "until the Final Ordning" in tab.slayers.value
