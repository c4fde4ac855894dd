"""Dice pools per die kind, and a die-face editor (six faces of hit / block / arcane counts)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.assault_of_the_giants import DEFAULT_DICE, FACE_LIMITS, FACES_PER_DIE, MAX_DICE_PER_SIDE
from explorer.panels.assault_of_the_giants.words import explain
from explorer.panels.common.display import ErrorMessage, badge, heading, note
from explorer.panels.common.number_box import NumberText

__all__ = ["PoolEditor", "FaceEditor", "OVERRIDES"]

_SYMBOLS = ("hit", "block", "arcane")

OVERRIDES = {"rerolls": "rerolls", "arcane_to_hits": "arcane → 2 hits", "arcane_to_blocks": "arcane → block"}
"""Side keys that replace what the command row (or the NPC limits) gives, with their labels."""

_WIDE = {"description_width": "initial"}


def _blank(value: int | str) -> bool:
    """True for an empty (or all-space) box: an override left out."""
    return isinstance(value, str) and not value.strip()


class PoolEditor:
    """The dice a side rolls: basic dice, the race's special die, any other die a scenario named,
    and optional numbers that replace the rerolls and conversions of the command row.

    Args:
        role: ``"attacker"`` or ``"defender"``.
        race: the race whose die is the special die.
        basic: how many basic dice.
        special: how many special dice.
        changed: called after every change.
    """

    def __init__(self, role: str, race: str, basic: int, special: int, changed: Callable[[], None]) -> None:
        self.role = role
        self.race = race
        self._changed = changed
        self._quiet = False
        self._side = role.title()
        self.basic = NumberText(basic, description="basic dice", tooltip=self._tip("basic dice"),
                                layout=widgets.Layout(width="170px"))
        self.special = NumberText(special, layout=widgets.Layout(width="170px"))
        self.basic.add_class(f"aotg-pool-basic-{role}")
        self.special.add_class(f"aotg-pool-special-{role}")
        self.extra: dict[str, NumberText] = {}
        self.extra_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        keys = [k for k in OVERRIDES if role == "attacker" or k != "arcane_to_hits"]
        self.overrides = {k: NumberText("", description=OVERRIDES[k], placeholder="from the row", style=_WIDE,
                                        tooltip=f"{self._side}, {OVERRIDES[k]}: empty takes it from the command row "
                                                "(or the limits of NPC giants); else a whole number, 0 or more",
                                        layout=widgets.Layout(width="200px")) for k in keys}
        self.error = ErrorMessage("aotg-error", f"aotg-error-pool-{role}")
        for w in (self.basic, self.special, *self.overrides.values()):
            w.observe(lambda _c: self._notify(), "value")
        self.widget = widgets.VBox([
            widgets.HBox([self.basic, self.special]), self.extra_box,
            note(explain("Rerolls and conversions: empty boxes take them from the command row (or the NPC limits, "
                         "p.20); a number replaces them.")),
            widgets.HBox(list(self.overrides.values()), layout=widgets.Layout(flex_flow="row wrap")), self.error.widget])
        self.set_race(race)

    def _tip(self, label: str) -> str:
        """The tooltip of a dice count: the side, the label, the values allowed."""
        return f"{self._side}, {label}: a whole number from 0 to {MAX_DICE_PER_SIDE}"

    def _name_special(self) -> None:
        self.special.description = f"{self.race} die"
        self.special.tooltip = self._tip(f"{self.race} dice (the race's special die)")

    def _notify(self) -> None:
        if not self._quiet:
            self._changed()

    def set_race(self, race: str) -> None:
        """Make `race`'s die the special die, keeping the count.

        If the pool already holds dice of that race (from a scenario), those become the special
        dice and the old special dice join the other dice, so no die is lost.
        """
        old, self.race = self.race, race
        self._name_special()
        if race == old or race not in self.extra:
            return
        self._quiet = True
        try:
            count, self.special.value = self.special.value, self.extra.pop(race).value
            if count != 0:
                self.extra[old] = self._extra(old, count)
            self._show_extra()
        finally:
            self._quiet = False

    def _extra(self, name: str, count: int | str) -> NumberText:
        box = NumberText(count, description=f"{name} dice", tooltip=self._tip(f"{name} dice"), style=_WIDE,
                         layout=widgets.Layout(width="170px"))
        box.observe(lambda _c: self._notify(), "value")
        return box

    def _show_extra(self) -> None:
        self.extra_box.children = list(self.extra.values())

    def set_pool(self, pool: Mapping[str, Any], race: str, overrides: Mapping[str, Any]) -> None:
        """Set every count and override from a scenario side (one `changed` call at most, by the caller)."""
        self._quiet = True
        try:
            self.race = race
            self._name_special()
            self.basic.value = pool.get("basic", 0)
            self.special.value = pool.get(race, 0)
            self.extra = {str(n): self._extra(str(n), k) for n, k in pool.items() if n not in ("basic", race)}
            for key, box in self.overrides.items():
                box.value = overrides.get(key, "")
            self._show_extra()
        finally:
            self._quiet = False

    def to_dict(self) -> dict[str, Any]:
        """The scenario ``pool`` (counts as shown: a bad entry stays text, and the resolver names it)."""
        return {"basic": self.basic.value, self.race: self.special.value,
                **{name: box.value for name, box in self.extra.items()}}

    def override_dict(self) -> dict[str, Any]:
        """The side's ``rerolls`` / ``arcane_to_*`` keys for the boxes that are not empty."""
        return {key: box.value for key, box in self.overrides.items() if not _blank(box.value)}


class FaceEditor:
    """Edit the six faces of any named die; defaults are examples, not rulebook values."""

    def __init__(self, changed: Callable[[], None]) -> None:
        self.faces: dict[str, list[dict[str, int | str]]] = {}
        self.sources: dict[str, str] = {}
        self._changed = changed
        self._loading = False
        self.die = widgets.Dropdown(options=list(DEFAULT_DICE), value="basic", description="die",
                                    tooltip="the die whose six faces are shown below")
        self.cells = [[NumberText(0, layout=widgets.Layout(width="52px")) for _ in _SYMBOLS] for _ in range(FACES_PER_DIE)]
        self.provenance = widgets.HTML()
        self.reset = widgets.Button(description="Reset to example", icon="undo")
        self.error = ErrorMessage("aotg-error", "aotg-error-dice")
        rows = [widgets.HBox([widgets.Label(f"face {i + 1}", layout=widgets.Layout(width="55px")), *row])
                for i, row in enumerate(self.cells)]
        text = ", ".join(f"{s} ≤ {FACE_LIMITS[s].value}" for s in _SYMBOLS)
        self.widget = widgets.VBox([
            heading("Die faces"), widgets.HBox([self.die, self.reset, self.provenance]),
            note(f"columns: hit · block · arcane; a face shows {text} ({FACE_LIMITS['hit'].source}); "
                 "all zeros is a blank (a miss)."),
            *rows, self.error.widget,
        ])
        self.widget.add_class("aotg-face-editor")
        self.reset_all()
        self.die.observe(lambda _c: self._load(), "value")
        self.reset.on_click(lambda _b: self._reset())
        for i, row in enumerate(self.cells):
            for j, cell in enumerate(row):
                cell.observe(lambda c, i=i, j=j: self._edit(i, j, c["new"]), "value")
        self._load()

    def _load(self) -> None:
        self._loading = True
        try:
            for row, face in zip(self.cells, self.faces[self.die.value]):
                for cell, symbol in zip(row, _SYMBOLS):
                    cell.value = face.get(symbol, 0)
        finally:
            self._loading = False
        self.provenance.value = badge(self.sources[self.die.value])
        for i, row in enumerate(self.cells):
            for cell, symbol in zip(row, _SYMBOLS):
                cell.tooltip = (f"{self.die.value} die, face {i + 1}: {symbol} (a whole number from 0 to "
                                f"{FACE_LIMITS[symbol].value})")
        self.reset.tooltip = f"the {self.die.value} die's faces back to the example faces"
        self.reset.disabled = self.die.value not in DEFAULT_DICE  # a die from a scenario has no example faces

    def _edit(self, face: int, symbol: int, value: int | str) -> None:
        if self._loading:
            return
        self.faces[self.die.value][face][_SYMBOLS[symbol]] = value
        self.sources[self.die.value] = "your faces"
        self.provenance.value = badge("your faces")
        self._changed()

    def _reset(self) -> None:
        name = self.die.value
        if name in DEFAULT_DICE:
            self.faces[name] = [dict(zip(_SYMBOLS, face)) for face in DEFAULT_DICE[name].faces]
            self.sources[name] = DEFAULT_DICE[name].source
            self._load()
        self._changed()

    def reset_all(self) -> None:
        """Every die back to its example faces; dice a scenario added are dropped (no `changed` call)."""
        self.faces = {name: [dict(zip(_SYMBOLS, face)) for face in die.faces] for name, die in DEFAULT_DICE.items()}
        self.sources = {name: die.source for name, die in DEFAULT_DICE.items()}
        self._set_options()

    def _set_options(self) -> None:
        shown = self.die.value if self.die.value in self.faces else "basic"
        self.die.options = list(self.faces)
        self.die.value = shown
        self._load()

    def set_die(self, name: str, faces: list[dict[str, int]], source: str) -> None:
        """Replace all six faces of a named die (as in a scenario's ``dice``); a new name is added."""
        new = name not in self.faces
        self.faces[name] = [{s: face.get(s, 0) for s in _SYMBOLS} for face in faces]
        self.sources[name] = source
        if new:
            self._set_options()
        elif self.die.value == name:
            self._load()

    def set_face(self, die: str, face: int, **counts: int | str) -> None:
        """Set one face of a die (for scripts and tests), as if typed in."""
        self.die.value = die
        for symbol, value in counts.items():
            self.cells[face][_SYMBOLS.index(symbol)].value = value

    def to_dict(self) -> dict[str, Any]:
        """The scenario ``dice``: every die written out, zero counts left out (a bad entry stays, as text)."""
        return {name: [{s: n for s, n in face.items() if n != 0} for face in faces] for name, faces in self.faces.items()}
