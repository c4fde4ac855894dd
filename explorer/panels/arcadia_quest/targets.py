"""The other Monsters the hero's attack targets (Cleave, Nova Bolt's second target), and who pays back.

One attack roll hits every targeted Monster, and each rolls its own Defense; only one of them pays
back, chosen by the opponent (printed p.21). Each row is one more targeted Monster, added from a
preset: its attack, Defense, Life, Wounds, Overkill and Reward are editable, and whether it is
Close to the hero (then no Guard) and whether its Payback can reach him. The "Payback by" picker
is the scenario's ``payback_by``: the opponent's choice worst for the hero, or a Monster named.
Two Monsters of one preset get numbered names ("Orc Marauder 2"): the choice is made by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import MONSTERS, PAYBACK_WORST, Monster, Targeted, monster_dict
from explorer.panels.arcadia_quest.editor import Editor, Field, Row, Spec
from explorer.panels.arcadia_quest.monsters import read_overkill
from explorer.panels.arcadia_quest.values import MONSTER_ABILITIES, numbered
from explorer.panels.common.display import ErrorMessage, heading, note

__all__ = ["ALSO", "WORST_LABEL", "AlsoTargetRow", "AlsoTargets"]

WORST_LABEL = PAYBACK_WORST
"""The picker's default: the scenario's ``payback_by`` default (the opponent's choice worst for the hero)."""

_WRITTEN = ("attack", "kind", "defence", "life", "wounds", "overkill", "reward", "close", "reaches")


def _also_kept(raw: Mapping[str, Any], monster: Monster, preset: str | None) -> dict[str, Any]:
    """A loaded targeted Monster but the keys edited here: its preset and the keys given, or every value."""
    base = monster_dict(monster)
    if preset:
        base = {"preset": preset, **{k: v for k, v in base.items() if k in raw and k != "preset"}}
    base.update({k: raw[k] for k in ("other_guild_tokens",) if k in raw})
    return {k: v for k, v in base.items() if k not in _WRITTEN and k != "abilities"}


ALSO = Spec(
    css="aq-also", presets=MONSTERS,
    fields=(
        Field("attack", "dice", "its black Attack dice (for its Payback)", "80px", short="attack",
              path=("attack", "dice"), preset="card"),
        Field("kind", input="kind", short="type", path=("attack", "kind"), preset="card", css=""),
        Field("defence", "Defense", "its own white Defense dice against the same hits", "100px", short="Defense",
              preset="card", css=""),
        Field("life", "Life", "a whole number, 1 or more", "80px", short="Life", preset="card", css=""),
        Field("wounds", "Wounds", "already on it: 0 up to Life - 1", "100px", short="Wounds", preset="reset",
              css=""),
        Field("overkill", "Overkill", "at least its Life; empty for none", "105px", short="Overkill", preset="card",
              write=read_overkill, css=""),
        Field("reward", "Reward", "coins to the Guild that kills it", "95px", short="Reward", preset="card", css=""),
        Field("close", "Close", input="check", css="aq-also-close"),
        Field("reaches", "reaches", input="check", start=True, css="aq-also-reaches"),
    ),
    written=(*_WRITTEN, "abilities"),
    layout=Row(remove="stop targeting {name} with this attack"),
    keep=_also_kept,
    abilities=MONSTER_ABILITIES,
)
"""One more Monster targeted by the same attack."""


class AlsoTargetRow(Editor):
    """One more targeted Monster (`ALSO`), shown from `use_preset` or `load`."""

    def __init__(self, changed: Callable[[], None], remove: Callable[[AlsoTargetRow], None]) -> None:
        super().__init__(ALSO, changed, remove=lambda _editor: remove(self))
        self.close, self.reaches = self["close"], self["reaches"]
        self.close.description = "Close to the hero"
        self.reaches.description = "Payback reaches him"

    def named(self, name: str) -> None:
        """Give it a name of its own (a second Monster of one preset)."""
        if name != self._name:
            self.extra["name"] = name
            self._name = name
            self._show()

    def load(self, raw: Mapping[str, Any], spot: Targeted) -> None:
        """Show a targeted Monster read from a scenario (`raw` as written, `spot` as the reader made it)."""
        self.show_loaded(raw, spot.monster, {"close": spot.close, "reaches": spot.reaches})


class AlsoTargets:
    """The other targeted Monsters, and the "Payback by" picker.

    Args:
        changed: called after every change.
        target_name: the name of the target (the first targeted Monster), for the picker and the names.
    """

    def __init__(self, changed: Callable[[], None], target_name: Callable[[], str]) -> None:
        self._changed, self._target_name = changed, target_name
        self.rows: list[AlsoTargetRow] = []
        self.box = widgets.VBox()
        self.pick = widgets.Dropdown(options=list(MONSTERS), value="Orc Marauder", layout=widgets.Layout(width="190px"),
                                     tooltip="Monster to add, also targeted by this attack")
        self.add = widgets.Button(description="Add targeted Monster", icon="plus", layout=widgets.Layout(width="190px"))
        self.add.add_class("aq-add-also")
        self.add.on_click(lambda _b: self.add_preset(self.pick.value))
        self.payback_by = widgets.Dropdown(options=[WORST_LABEL], value=WORST_LABEL, description="Payback by",
                                           style={"description_width": "initial"},
                                           layout=widgets.Layout(width="320px"))
        self.payback_by.add_class("aq-payback-by")
        self._quiet = False
        self.payback_by.observe(lambda _c: None if self._quiet else self._changed(), "value")
        self.error = ErrorMessage("aq-error", "aq-error-also")
        self.widget = widgets.VBox([
            heading("Other Monsters this attack targets (Cleave, Nova Bolt)"),
            note("The one attack roll hits each; each rolls its own Defense. Only one targeted Monster pays back, "
                 "chosen by the opponent (printed p.21): by default, once the Wounds are known, the one most likely "
                 "to kill the hero (then the one dealing most Wounds, then the first listed); or name one."),
            self.box, widgets.HBox([self.pick, self.add]), self.payback_by, self.error.widget])
        self.widget.add_class("aq-also")

    def names(self) -> list[str]:
        """Every targeted Monster's name: the target's, then the rows'."""
        return [self._target_name(), *(row.name for row in self.rows)]

    def add_preset(self, name: str, notify: bool = True) -> None:
        """Add a Monster preset at the end of the list (numbered if its name is taken)."""
        row = AlsoTargetRow(self._changed, self._remove)
        row.use_preset(name)
        taken, number = set(self.names()), 2
        while row.name in taken:
            row.named(f"{name} {number}")
            number += 1
        self.rows.append(row)
        self._show(notify)

    def _remove(self, row: AlsoTargetRow) -> None:
        self.rows.remove(row)
        self._show()

    def refresh_names(self) -> None:
        """Offer every targeted Monster in the "Payback by" picker (after the target or a row changed)."""
        options = [WORST_LABEL, *dict.fromkeys(self.names())] if self.rows else [WORST_LABEL]
        value = self.payback_by.value if self.payback_by.value in options else WORST_LABEL
        self._quiet = True
        try:
            self.payback_by.options = options
            self.payback_by.value = value
        finally:
            self._quiet = False

    def _show(self, notify: bool = True) -> None:
        self.box.children = [row.widget for row in self.rows]
        for row, label in zip(self.rows, numbered([row.name for row in self.rows])):
            row.call(label)
        self.refresh_names()
        if notify:
            self._changed()

    def load(self, raws: list[Any], spots: tuple[Targeted, ...], payback_by: str) -> None:
        """Show the targeted Monsters and the Payback choice of a scenario (no `changed` call)."""
        self.rows = []
        for raw, spot in zip(raws, spots):
            row = AlsoTargetRow(self._changed, self._remove)
            row.load(raw, spot)
            self.rows.append(row)
        self._show(notify=False)
        self._quiet = True
        try:
            self.payback_by.value = payback_by if payback_by in self.payback_by.options else WORST_LABEL
        finally:
            self._quiet = False

    def to_scenario(self) -> dict[str, Any]:
        """``also_targets`` and ``payback_by`` as the scenario writes them (nothing when no row and the default)."""
        if not self.rows and self.payback_by.value == WORST_LABEL:
            return {}
        return {"also_targets": [row.to_dict() for row in self.rows], "payback_by": self.payback_by.value}

    def any_close(self) -> bool:
        """True if a targeted Monster here is Close to the hero (then no Guard, printed p.20)."""
        return any(row.close.value for row in self.rows)
