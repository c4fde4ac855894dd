"""Army builder: a side's race, its units (add, remove, reorder, edit) and its switches.

What each switch changes, and what it keeps:

* **race** decides the side's special die (the panel swaps the die in the pool, keeping the
  count) and the presets offered by "Add unit". The unit list follows the race only while it
  is the untouched default army. Once you add, remove, move or edit a unit (wounded and
  champion included), or load a scenario, the list is yours: a race change keeps it, and a
  button offers the race's default army instead, with Undo.
* **giantslayers** (attacker only): the side fights with giantslayers, which have their own
  unit list. The giant list is set aside as it is and comes back when the box is unticked;
  the giantslayer list is kept the same way.
* **NPC giants**: the units stay; the command row is set aside (the p.20 limits apply).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from explorer.charts.aotg_decisions import OBJECTIVE_LABELS
from explorer.games.assault_of_the_giants import (
    CASTE_ORDER,
    CASUALTY_ORDERS,
    OBJECTIVES,
    REROLL_POLICIES,
    UNIT_PRESETS,
    CasualtyOrder,
    Objective,
    RerollPolicy,
    Unit,
)
from explorer.panels.assault_of_the_giants.unit_row import FIELDS, UnitRow, column_headers
from explorer.panels.assault_of_the_giants.words import TERMS, explain
from explorer.panels.common.display import ErrorMessage, heading, note
from explorer.panels.common.field_names import numbered

__all__ = ["UnitRow", "UnitList", "ArmyBuilder", "DEFAULT_ARMIES", "unit_labels"]

DEFAULT_ARMIES: dict[str, tuple[int, ...]] = {"attacker": (0, 0, 1), "defender": (0, 0, 1)}
"""Preset indices (see `UNIT_PRESETS`) each side starts with: two giants and an elite."""

GIANTSLAYER_ARMY = (0, 0)
"""Preset indices of the default giantslayer list."""

_REROLL_LABELS = {"misses": "misses: blanks, then arcane it cannot convert", "blanks": "blanks only", "none": "none",
                  "best": "best play (exact)"}
_CASUALTY_LABELS = {"listed": "listed order (champions first)", "fewest-op": "fewest Ordning Points lost"}

_SWITCHES = ("Race sets the special die (its count is kept) and the units offered by Add unit; "
             "your unit list stays once you have changed it. NPC sets the command row aside (p.20 limits).")
_GIANTSLAYERS = " Giantslayers have their own unit list: your giants come back, as they were, when you untick it."


def unit_labels(names: list[str]) -> list[str]:
    """What each unit of a list is called in tooltips and messages: its name, numbered when shared.

    >>> unit_labels(["fire giant", "fire giant", "fire elite", ""])
    ['fire giant 1', 'fire giant 2', 'fire elite', 'unit']
    """
    return numbered(name.strip() or "unit" for name in names)


@dataclass
class UnitList:
    """The rows of one unit list and where the list came from.

    Attributes:
        rows: the units, in casualty order.
        preset: the preset race the list was built from (``""`` for a list from a scenario).
        edited: True once a unit was added, removed, moved or edited.
    """

    rows: list[UnitRow]
    preset: str
    edited: bool = False


class ArmyBuilder:
    """One side: race, units, NPC / giantslayer switches, casualty and reroll policies.

    Args:
        role: ``"attacker"`` or ``"defender"``.
        race: the starting race.
        changed: called after every change.
        on_race: called with the new race after a race change, before `changed`.
    """

    def __init__(self, role: str, race: str, changed: Callable[[], None],
                 on_race: Callable[[str], None] | None = None) -> None:
        self.role = role
        self._changed = changed
        self._on_race = on_race
        self._quiet = False
        self.race_given = True
        """False while the race shown was not named by a loaded scenario (the scenario then omits it)."""
        self.player: str | None = None
        """The ``player`` name a loaded scenario gave, else None (a name built from role and race)."""
        self.error = ErrorMessage("aotg-error", f"aotg-error-{role}")
        side = role.title()
        self.race = widgets.Dropdown(options=list(CASTE_ORDER), value=race, description="race",
                                     tooltip=f"{side}: race (it sets the special die and the units offered)",
                                     layout=widgets.Layout(width="200px"))
        self.kind = widgets.Dropdown(layout=widgets.Layout(width="160px"), tooltip=f"{side}: unit to add")
        self.add = widgets.Button(description="Add unit", icon="plus", layout=widgets.Layout(width="110px"),
                                  tooltip=f"add the unit chosen at the end of the {role}'s list")
        self.add.add_class("aotg-add-unit")
        self.add.add_class(f"aotg-{role}")
        # NPC giants never attack, they only defend (pp.19-20): the switch is the defender's alone.
        self.npc = widgets.Checkbox(value=False, description="NPC giants (p.20)", indent=False,
                                    tooltip=f"NPC: {TERMS['NPC']}",
                                    layout=widgets.Layout(display="none" if role == "attacker" else None))
        self.giantslayers = widgets.Checkbox(value=False, description="giantslayers attack (p.19)", indent=False,
                                             tooltip="the attacker fights with giantslayers, which have their own "
                                                     "unit list (p.19)",
                                             layout=widgets.Layout(display="" if role == "attacker" else "none"))
        self.casualty_order = widgets.Dropdown(options=[(_CASUALTY_LABELS[c], c) for c in CASUALTY_ORDERS],
                                               value="listed", description="casualties",
                                               tooltip=f"{side}: which unit takes damage next")
        self.reroll_policy = widgets.Dropdown(options=[(_REROLL_LABELS.get(r, r), r) for r in REROLL_POLICIES],
                                              value="misses", description="rerolls",
                                              tooltip=f"{side}: which dice it rerolls")
        self.objective = widgets.Dropdown(options=[(OBJECTIVE_LABELS[o], o) for o in OBJECTIVES],
                                          value="ordning-points", description="plays for",
                                          layout=widgets.Layout(width="380px"),
                                          tooltip=f"{side}: what best play maximises (and what the row advisor "
                                                  "values)")
        self.objective.add_class(f"aotg-objective-{role}")
        self.unit_box = widgets.VBox()
        self.list_note = widgets.HTML()
        self.list_note.add_class(f"aotg-list-note-{role}")
        self.use_preset = widgets.Button(icon="refresh", layout=widgets.Layout(width="auto"),
                                         tooltip="replace the unit list by the race's default army (Undo brings it back)")
        self.use_preset.add_class("aotg-use-preset")
        self.undo = widgets.Button(description="Undo", icon="undo", layout=widgets.Layout(width="auto"),
                                   tooltip=f"bring back the {role}'s unit list the default army replaced")
        self.undo.add_class("aotg-undo-units")
        self._aside: dict[bool, UnitList] = {}
        self._undo: UnitList | None = None
        self.units = self._preset_list()
        self.add.on_click(lambda _b: self.add_unit())
        self.use_preset.on_click(lambda _b: self.load_preset())
        self.undo.on_click(lambda _b: self.undo_replace())
        self.race.observe(lambda _c: self._race_changed(), "value")
        self.giantslayers.observe(lambda c: self._mode_changed(c["old"], c["new"]), "value")
        for w in (self.npc, self.casualty_order, self.reroll_policy, self.objective):
            w.observe(lambda _c: self._changed(), "value")
        header = column_headers()
        self.widget = widgets.VBox([
            heading(role.title()), widgets.HBox([self.race, self.npc, self.giantslayers]),
            note(explain(_SWITCHES + (_GIANTSLAYERS if role == "attacker" else ""))),
            header, self.unit_box, widgets.HBox([self.kind, self.add]),
            widgets.HBox([self.list_note, self.use_preset, self.undo], layout=widgets.Layout(align_items="center")),
            widgets.HBox([self.casualty_order, self.reroll_policy]), self.objective, self.error.widget,
        ])
        self.widget.add_class(f"aotg-army-{role}")
        self._show(notify=False)

    @property
    def preset_race(self) -> str:
        """The race whose unit presets are offered ("giantslayer" when giantslayers attack)."""
        return "giantslayer" if self.giantslayers.value else self.race.value

    @property
    def rows(self) -> list[UnitRow]:
        """The units shown, in casualty order."""
        return self.units.rows

    def _row(self, preset: int, label: str | None = None) -> UnitRow:
        unit, sources = UNIT_PRESETS[self.preset_race][preset]
        return UnitRow(unit, dict(sources), self._row_changed, self._act, label)

    def _preset_list(self) -> UnitList:
        picks = GIANTSLAYER_ARMY if self.giantslayers.value else DEFAULT_ARMIES[self.role]
        names = [UNIT_PRESETS[self.preset_race][i][0].name for i in picks]
        return UnitList([self._row(i, label) for i, label in zip(picks, unit_labels(names))], self.preset_race)

    def load_preset(self, notify: bool = True) -> None:
        """Replace the unit list by the default army of the race (Undo brings the old list back)."""
        self._undo = self.units if self.units.edited else None
        self.units = self._preset_list()
        self._show(notify)

    def undo_replace(self) -> None:
        """Bring back the list the last `load_preset` replaced."""
        if self._undo is not None:
            self.units, self._undo = self._undo, None
            self._show()

    def set_units(self, units: list[Unit], source: str) -> None:
        """Replace the units by `units`, every value marked with `source` (the list counts as yours)."""
        rows = [UnitRow(u, {f: source for f in FIELDS}, self._row_changed, self._act, label)
                for u, label in zip(units, unit_labels([u.name for u in units]))]
        self.units, self._undo = UnitList(rows, "", edited=True), None
        self._show()

    def set_side(self, *, race: str, race_given: bool, giantslayers: bool, npc: bool, casualty_order: CasualtyOrder,
                 reroll_policy: RerollPolicy, units: list[Unit], player: str | None,
                 objective: Objective = "ordning-points") -> None:
        """Set the whole side from a scenario, without the race and giantslayer rules above.

        The list of the other mode (giants / giantslayers) is kept aside as it was.
        """
        self._quiet = True
        try:
            if self.giantslayers.value != giantslayers:
                self._aside[self.giantslayers.value] = self.units
                self._aside.pop(giantslayers, None)
            self.race.value = race
            self.giantslayers.value = giantslayers
            self.npc.value = npc
            self.casualty_order.value = casualty_order
            self.reroll_policy.value = reroll_policy
            self.objective.value = objective
        finally:
            self._quiet = False
        self.race_given, self.player = race_given, player
        self.set_units(units, "from the scenario")

    def add_unit(self, preset: int | None = None) -> None:
        """Add a unit of the chosen preset at the end of the list."""
        pick = (self.kind.value or 0) if preset is None else preset
        names = [r.name.value for r in self.rows] + [UNIT_PRESETS[self.preset_race][pick][0].name]
        self.rows.append(self._row(pick, unit_labels(names)[-1]))
        self.units.edited = True
        self._show()

    def _row_changed(self) -> None:
        self.units.edited = True
        self._relabel()
        self._show_list_state()
        self._changed()

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
        self.units.edited = True
        self._show()

    def _race_changed(self) -> None:
        """The special die follows the race; the unit list only while it is the untouched default."""
        if self._quiet:
            return
        self.race_given = True
        self._undo = None
        if not self.units.edited and not self.giantslayers.value:
            self.units = self._preset_list()  # an untouched giant list set aside is rebuilt on return
        if self._on_race is not None:
            self._on_race(self.race.value)
        self._show()

    def _mode_changed(self, old: bool, new: bool) -> None:
        """Giantslayers on / off: set the shown list aside, bring back the other mode's list."""
        if self._quiet:
            return
        self._aside[old] = self.units
        self._undo = None
        kept = self._aside.pop(new, None)
        self.units = kept if kept is not None and (kept.edited or kept.preset == self.preset_race) else self._preset_list()
        self._show()

    def _show(self, notify: bool = True) -> None:
        self.kind.options = [(unit.name, i) for i, (unit, _) in enumerate(UNIT_PRESETS[self.preset_race])]
        self.kind.value = 0
        self.unit_box.children = [r.box for r in self.rows]
        self._relabel()
        self._show_list_state()
        if notify:
            self._changed()

    def _relabel(self) -> None:
        """Name each row in its tooltips: its unit's name, numbered when two units share it (`unit_labels`)."""
        for row, label in zip(self.rows, unit_labels([r.name.value for r in self.rows])):
            if row.label != label:
                row.set_label(label)

    def _show_list_state(self) -> None:
        """Say whether the list follows the race, and offer the default army (or Undo)."""
        preset = self.preset_race
        label = "giantslayer" if preset == "giantslayer" else f"{preset} giant"
        if self._undo is not None:
            text = f"Replaced your list by the default {label} army."
        elif not self.units.edited:
            text = (f"Default {label} army: it follows the race until you change it." if preset != "giantslayer"
                    else "Default giantslayer army.")
        else:
            text = "Your unit list: kept when the race or the switches change."
        if not self.race_given:
            text += " The loaded scenario names no race: the race shown is not written out until you pick one."
        self.list_note.value = f'<span style="color:#5d6d7e;font-size:90%">{text}</span>'
        self.use_preset.description = f"Use the default {label} army"
        self.use_preset.layout.display = "" if self.units.edited else "none"
        self.undo.layout.display = "" if self._undo is not None else "none"

    def to_dict(self) -> dict[str, Any]:
        """The side's unit and policy keys in scenario form (pool and commands come from elsewhere)."""
        side: dict[str, Any] = {
            "units": [r.to_dict() for r in self.rows], "npc": self.npc.value,
            "casualty_order": self.casualty_order.value, "reroll_policy": self.reroll_policy.value,
            **({"objective": self.objective.value} if self.objective.value != "ordning-points" else {}),
            "player": self.player or f"{self.role} ({self.preset_race})",
        }
        if self.role == "attacker":
            side["giantslayers"] = self.giantslayers.value
        if not self.giantslayers.value and self.race_given:
            side["race"] = self.race.value
        return side
