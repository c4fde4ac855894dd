"""Characters picked from those a player has: one checkbox per character, following the side's roster.

A challenge's attackers and defenders are names (the scenario keeps names), but the panel never
asks for them typed: `NamePicker` offers a checkbox for each character of the right player, in the
side's order, and follows renames, additions and removals. A checkbox is a native control: a
click, a tap, or Tab and Space toggle it, a screen reader reads its name and state, and the boxes
wrap onto more lines on a narrow screen (390 px). A name the side no longer has (a character
removed, or one that lost the challenge's icon) stays picked, shown with the reason ("not in
play"), until it is unticked: nothing the user picked disappears unsaid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets

__all__ = ["NamePicker"]

_GONE = "not in play"
"""Why a picked name is not on offer, unless `NamePicker.offer` is told another reason."""


class NamePicker:
    """The characters picked among a side's current names, in the order they were picked.

    Args:
        chosen: the names picked at first (from the scenario), kept in their order.
        changed: called after the user ticks or unticks a box (not after `offer`, `rename` or `clear`).

    >>> picker = NamePicker(["Raider", "Ghost"], lambda: None)
    >>> picker.offer(["Sworn Knight", "Raider"])
    >>> [box.description for box in picker.widget.children], picker.missing()
    (['Sworn Knight', 'Raider', 'Ghost (not in play)'], ['Ghost'])
    >>> picker.boxes["Sworn Knight"].value = True
    >>> picker.value
    ['Raider', 'Ghost', 'Sworn Knight']
    >>> picker.rename("Raider", "Reaver"); picker.value
    ['Reaver', 'Ghost', 'Sworn Knight']
    """

    def __init__(self, chosen: Sequence[str], changed: Callable[[], None]) -> None:
        self.chosen: list[str] = list(dict.fromkeys(chosen))
        """The names picked, in the order picked (the scenario's order for a loaded one)."""
        self.names: list[str] = []
        """The side's characters, as last offered."""
        self.boxes: dict[str, widgets.Checkbox] = {}
        """One checkbox per name on offer (the side's, then picked names it no longer has)."""
        self._changed = changed
        self._quiet = False
        self._what = "picked"
        self._why: dict[str, str] = {}
        self.widget = widgets.Box([], layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.widget.add_class("agot-picker")

    @property
    def value(self) -> list[str]:
        """The names picked, as the scenario lists them."""
        return list(self.chosen)

    def missing(self) -> list[str]:
        """Picked names the side does not have (any more)."""
        return [name for name in self.chosen if name not in self.names]

    def offer(self, names: Sequence[str], why: Mapping[str, str] | None = None) -> None:
        """Show a checkbox for each of `names` (those that may be picked now), then for each other pick,
        saying why it may not (`why`, by name; "not in play" by default)."""
        self.names = list(dict.fromkeys(names))
        self._why = dict(why or {})
        shown = self.names + self.missing()
        self._quiet = True
        try:
            for name in shown:
                box = self.boxes.get(name)
                if box is None:
                    box = self.boxes[name] = widgets.Checkbox(False, indent=False, layout=widgets.Layout(width="auto"))
                    box.observe(lambda change, name=name: self._ticked(name, change["new"]), "value")
                box.description = (name or "(no name)") + ("" if name in self.names else f" ({self.reason(name)})")
                box.value = name in self.chosen
            for name in [n for n in self.boxes if n not in shown]:
                del self.boxes[name]
        finally:
            self._quiet = False
        self.widget.children = [self.boxes[name] for name in shown]
        self.describe(self._what)

    def reason(self, name: str) -> str:
        """Why a picked `name` is not on offer ("not in play", "no military icon"...)."""
        return self._why.get(name, _GONE)

    def describe(self, what: str) -> None:
        """Name every checkbox for what it picks ("Military challenge 1, attackers"): its tooltip."""
        self._what = what
        for name, box in self.boxes.items():
            state = "" if name in self.names else f", {self.reason(name)}: untick to drop it"
            box.tooltip = f"{what}: {name or '(no name)'}{state}"

    def rename(self, old: str, new: str) -> None:
        """A character was renamed: a pick of `old` becomes `new` (call `offer` next)."""
        self.chosen = list(dict.fromkeys(new if name == old else name for name in self.chosen))

    def clear(self) -> None:
        """Pick no one (call `offer` next)."""
        self.chosen = []

    def _ticked(self, name: str, on: bool) -> None:
        if self._quiet:
            return
        if on and name not in self.chosen:
            self.chosen.append(name)
        elif not on and name in self.chosen:
            self.chosen.remove(name)
        if not on and name not in self.names:  # a pick no longer on offer, unticked: it goes away
            self.offer(self.names, self._why)
        self._changed()
