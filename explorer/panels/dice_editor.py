"""Dice pools per die kind, and a die-face editor (six faces of hit / block / arcane counts)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from explorer.games.assault_of_the_giants.data import (
    DEFAULT_DICE,
    FACE_LIMITS,
    FACES_PER_DIE,
)
from explorer.panels.common import ErrorMessage, badge, heading, note

__all__ = ["PoolEditor", "FaceEditor"]

_SYMBOLS = ("hit", "block", "arcane")


class PoolEditor:
    """How many basic dice and how many of the side's special die it rolls."""

    def __init__(self, role: str, race: str, basic: int, special: int, changed: Callable[[], None]) -> None:
        self.role = role
        self.race = race
        self.basic = widgets.IntText(value=basic, description="basic dice", layout=widgets.Layout(width="170px"))
        self.special = widgets.IntText(value=special, layout=widgets.Layout(width="170px"))
        self.basic.add_class(f"aotg-pool-basic-{role}")
        self.error = ErrorMessage("aotg-error", f"aotg-error-pool-{role}")
        for w in (self.basic, self.special):
            w.observe(lambda _c: changed(), "value")
        self.widget = widgets.VBox([widgets.HBox([self.basic, self.special]), self.error.widget])
        self.set_race(race)

    def set_race(self, race: str) -> None:
        """Show the special die of `race`."""
        self.race = race
        self.special.description = f"{race} die"

    def to_dict(self) -> dict[str, int]:
        """The scenario ``pool``."""
        return {"basic": self.basic.value, self.race: self.special.value}


class FaceEditor:
    """Edit the six faces of any named die; defaults are examples, not rulebook values."""

    def __init__(self, changed: Callable[[], None]) -> None:
        self.faces: dict[str, list[dict[str, int]]] = {
            name: [dict(zip(_SYMBOLS, face)) for face in die.faces] for name, die in DEFAULT_DICE.items()}
        self.sources = {name: die.source for name, die in DEFAULT_DICE.items()}
        self._changed = changed
        self._loading = False
        self.die = widgets.Dropdown(options=list(DEFAULT_DICE), value="basic", description="die")
        self.cells = [[widgets.IntText(layout=widgets.Layout(width="52px")) for _ in _SYMBOLS]
                      for _ in range(FACES_PER_DIE)]
        self.provenance = widgets.HTML()
        self.reset = widgets.Button(description="Reset to example", icon="undo")
        self.error = ErrorMessage("aotg-error", "aotg-error-dice")
        rows = [widgets.HBox([widgets.Label(f"face {i + 1}", layout=widgets.Layout(width="55px")), *row])
                for i, row in enumerate(self.cells)]
        limits = ", ".join(f"{s} ≤ {FACE_LIMITS[s].value}" for s in _SYMBOLS)
        self.widget = widgets.VBox([
            heading("Die faces"), widgets.HBox([self.die, self.reset, self.provenance]),
            note(f"columns: hit · block · arcane; a face shows {limits} ({FACE_LIMITS['hit'].source}); "
                 "all zeros is a blank (a miss)."),
            *rows, self.error.widget,
        ])
        self.widget.add_class("aotg-face-editor")
        self.die.observe(lambda _c: self._load(), "value")
        self.reset.on_click(lambda _b: self._reset())
        for i, row in enumerate(self.cells):
            for j, cell in enumerate(row):
                cell.observe(lambda c, i=i, j=j: self._edit(i, j, c["new"]), "value")
        self._load()

    def _load(self) -> None:
        self._loading = True
        for row, face in zip(self.cells, self.faces[self.die.value]):
            for cell, symbol in zip(row, _SYMBOLS):
                cell.value = face.get(symbol, 0)
        self._loading = False
        self.provenance.value = badge(self.sources[self.die.value])

    def _edit(self, face: int, symbol: int, value: int) -> None:
        if self._loading:
            return
        self.faces[self.die.value][face][_SYMBOLS[symbol]] = value
        self.sources[self.die.value] = "your faces"
        self.provenance.value = badge("your faces")
        self._changed()

    def _reset(self) -> None:
        name = self.die.value
        self.faces[name] = [dict(zip(_SYMBOLS, face)) for face in DEFAULT_DICE[name].faces]
        self.sources[name] = DEFAULT_DICE[name].source
        self._load()
        self._changed()

    def set_die(self, name: str, faces: list[dict[str, int]], source: str) -> None:
        """Replace all six faces of a named die (as in a scenario's ``dice``)."""
        self.faces[name] = [{s: face.get(s, 0) for s in _SYMBOLS} for face in faces]
        self.sources[name] = source
        if self.die.value == name:
            self._load()

    def set_face(self, die: str, face: int, **counts: int) -> None:
        """Set one face of a die (for scripts and tests), as if typed in."""
        self.die.value = die
        for symbol, value in counts.items():
            self.cells[face][_SYMBOLS.index(symbol)].value = value

    def to_dict(self) -> dict[str, Any]:
        """The scenario ``dice``: every die written out, zero counts left out."""
        return {name: [{s: n for s, n in face.items() if n} for face in faces] for name, faces in self.faces.items()}
