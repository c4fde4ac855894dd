"""Army builder: a side's race preset, its units (add, remove, reorder, edit) and its switches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from explorer.games.assault_of_the_giants.data import CASTE_ORDER, UNIT_PRESETS
from explorer.games.assault_of_the_giants.model import (
    CASUALTY_ORDERS,
    REROLL_POLICIES,
    Unit,
)
from explorer.panels.common import ErrorMessage, badge, heading, note
from explorer.sourced import EXAMPLE

__all__ = ["UnitRow", "ArmyBuilder", "DEFAULT_ARMIES"]

_FIELDS = ("fortitude", "wounded_fortitude", "ordning_value")
_YOURS = "your value"
_SHORT = {"fortitude": "F", "wounded_fortitude": "wF", "ordning_value": "OV"}

DEFAULT_ARMIES: dict[str, tuple[int, ...]] = {"attacker": (0, 0, 1), "defender": (0, 0, 1)}
"""Preset indices (see `UNIT_PRESETS`) each side starts with: two giants and an elite."""

_CASUALTY_LABELS = {"listed": "listed order (champions first)", "fewest-op": "fewest Ordning Points lost"}


def _int(value: int, width: str = "52px") -> widgets.IntText:
    return widgets.IntText(value=value, layout=widgets.Layout(width=width))


class UnitRow:
    """One unit's editable values, with where each default came from."""

    def __init__(self, unit: Unit, sources: dict[str, str], changed: Callable[[], None],
                 act: Callable[[UnitRow, str], None]) -> None:
        self.sources = {f: sources.get(f, EXAMPLE) for f in _FIELDS}
        self.name = widgets.Text(value=unit.name, layout=widgets.Layout(width="130px"))
        self.fortitude = _int(unit.fortitude)
        self.wounded_fortitude = _int(unit.wounded_fortitude)
        self.ordning_value = _int(unit.ordning_value)
        self.wounded = widgets.Checkbox(value=unit.wounded, description="wounded", indent=False,
                                        layout=widgets.Layout(width="92px"))
        self.champion = widgets.Checkbox(value=unit.champion, description="champion", indent=False,
                                         layout=widgets.Layout(width="100px"))
        self.provenance = widgets.HTML()
        buttons = []
        for icon, action, tip in (("arrow-up", "up", "take damage earlier"), ("arrow-down", "down", "take damage later"),
                                  ("trash", "remove", "remove this unit")):
            button = widgets.Button(icon=icon, tooltip=tip, layout=widgets.Layout(width="32px"))
            button.add_class(f"aotg-unit-{action}")
            button.on_click(lambda _b, a=action: act(self, a))
            buttons.append(button)
        for field in _FIELDS:
            getattr(self, field).observe(lambda _c, f=field: self._edited(f, changed), "value")
        for w in (self.name, self.wounded, self.champion):
            w.observe(lambda _c: changed(), "value")
        self._show_sources()
        self.provenance.layout.margin = "-6px 0 4px 6px"
        self.box = widgets.VBox([widgets.HBox([self.name, self.fortitude, self.wounded_fortitude, self.ordning_value,
                                               self.wounded, self.champion, *buttons]), self.provenance])

    def _edited(self, field: str, changed: Callable[[], None]) -> None:
        self.sources[field] = _YOURS
        self._show_sources()
        changed()

    def _show_sources(self) -> None:
        """One badge per provenance, naming the fields it covers (F, wF, OV)."""
        groups: dict[str, list[str]] = {}
        for field, source in self.sources.items():
            groups.setdefault(source, []).append(_SHORT[field])
        self.provenance.value = ('<span style="font-size:85%;color:#5d6d7e">source: </span>'
                                 + " · ".join(f"<span style='font-size:85%'>{'/'.join(fields)}</span> {badge(source)}"
                                              for source, fields in groups.items()))

    def to_dict(self) -> dict[str, Any]:
        """The unit in scenario form (values as typed; the resolver checks them)."""
        return {"name": self.name.value or "unit", "fortitude": self.fortitude.value,
                "wounded_fortitude": self.wounded_fortitude.value, "ordning_value": self.ordning_value.value,
                "wounded": self.wounded.value, "champion": self.champion.value}


class ArmyBuilder:
    """One side: race preset, units, NPC / giantslayer switches, casualty and reroll policies.

    Args:
        role: ``"attacker"`` or ``"defender"``.
        race: the starting race preset.
        changed: called after every change.
    """

    def __init__(self, role: str, race: str, changed: Callable[[], None]) -> None:
        self.role = role
        self._changed = changed
        self.rows: list[UnitRow] = []
        self.error = ErrorMessage("aotg-error", f"aotg-error-{role}")
        self.race = widgets.Dropdown(options=list(CASTE_ORDER), value=race, description="race",
                                     layout=widgets.Layout(width="200px"))
        self.kind = widgets.Dropdown(layout=widgets.Layout(width="160px"))
        self.add = widgets.Button(description="Add unit", icon="plus", layout=widgets.Layout(width="110px"))
        self.add.add_class("aotg-add-unit")
        self.add.add_class(f"aotg-{role}")
        self.npc = widgets.Checkbox(value=False, description="NPC giants (p.20)", indent=False)
        self.giantslayers = widgets.Checkbox(value=False, description="giantslayers attack (p.19)", indent=False,
                                             layout=widgets.Layout(display=None if role == "attacker" else "none"))
        self.casualty_order = widgets.Dropdown(options=[(_CASUALTY_LABELS[c], c) for c in CASUALTY_ORDERS],
                                               value="listed", description="casualties")
        self.reroll_policy = widgets.Dropdown(options=list(REROLL_POLICIES), value="misses", description="rerolls")
        self.unit_box = widgets.VBox()
        self.add.on_click(lambda _b: self.add_unit())
        self.race.observe(lambda _c: self.load_preset(), "value")
        self.giantslayers.observe(lambda _c: self.load_preset(), "value")
        for w in (self.npc, self.casualty_order, self.reroll_policy):
            w.observe(lambda _c: self._changed(), "value")
        header = note("name · Fortitude (F) · wounded Fortitude (wF) · Ordning Value (OV); "
                      "each value's source on the right")
        self.widget = widgets.VBox([
            heading(role.title()), widgets.HBox([self.race, self.npc, self.giantslayers]),
            header, self.unit_box, widgets.HBox([self.kind, self.add]),
            widgets.HBox([self.casualty_order, self.reroll_policy]), self.error.widget,
        ])
        self.widget.add_class(f"aotg-army-{role}")
        self.load_preset(notify=False)

    @property
    def preset_race(self) -> str:
        """The race whose unit presets are offered ("giantslayer" when giantslayers attack)."""
        return "giantslayer" if self.giantslayers.value else self.race.value

    def load_preset(self, notify: bool = True) -> None:
        """Replace the units by the race's default army."""
        presets = UNIT_PRESETS[self.preset_race]
        self.kind.options = [(unit.name, i) for i, (unit, _) in enumerate(presets)]
        self.kind.value = 0
        picks = (0, 0) if self.giantslayers.value else DEFAULT_ARMIES[self.role]
        self.rows = [self._row(i) for i in picks]
        self._refresh(notify)

    def set_units(self, units: list[Unit], source: str) -> None:
        """Replace the units by `units`, every value marked with `source`."""
        self.rows = [UnitRow(u, {f: source for f in _FIELDS}, self._changed, self._act) for u in units]
        self._refresh()

    def _row(self, preset: int) -> UnitRow:
        unit, sources = UNIT_PRESETS[self.preset_race][preset]
        return UnitRow(unit, dict(sources), self._changed, self._act)

    def add_unit(self, preset: int | None = None) -> None:
        """Add a unit of the chosen preset at the end of the list."""
        self.rows.append(self._row((self.kind.value or 0) if preset is None else preset))
        self._refresh()

    def _act(self, row: UnitRow, action: str) -> None:
        i = self.rows.index(row)
        if action == "remove":
            self.rows.pop(i)
        elif action == "up" and i > 0:
            self.rows[i - 1], self.rows[i] = self.rows[i], self.rows[i - 1]
        elif action == "down" and i < len(self.rows) - 1:
            self.rows[i + 1], self.rows[i] = self.rows[i], self.rows[i + 1]
        else:
            return
        self._refresh()

    def _refresh(self, notify: bool = True) -> None:
        self.unit_box.children = [r.box for r in self.rows]
        if notify:
            self._changed()

    def to_dict(self) -> dict[str, Any]:
        """The side's unit and policy keys in scenario form (pool and commands come from elsewhere)."""
        side: dict[str, Any] = {
            "units": [r.to_dict() for r in self.rows], "npc": self.npc.value,
            "casualty_order": self.casualty_order.value, "reroll_policy": self.reroll_policy.value,
            "player": f"{self.role} ({self.preset_race})",
        }
        if self.role == "attacker":
            side["giantslayers"] = self.giantslayers.value
        if not self.giantslayers.value:
            side["race"] = self.race.value
        return side
