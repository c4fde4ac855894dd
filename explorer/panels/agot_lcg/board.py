"""The board of the A Game of Thrones panel: each side and its characters (the challenges: `challenges`).

Each editor turns its widgets into the round scenario's keys (`explorer.games.agot_lcg.round.scenario`)
as typed, and back from a scenario. A bad entry stays as typed: the resolver names the field and the
panel shows the message beside the editor. Keys a scenario has but no widget here are kept as they
were, so a loaded file is written back whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.agot_lcg import CHALLENGE_TYPES
from explorer.panels.common.display import ErrorMessage, heading
from explorer.panels.common.number_box import NumberText

__all__ = ["CharacterRow", "SideEditor", "split_names"]

ICONS = CHALLENGE_TYPES
"""The challenge icons a character may have."""

_NARROW = widgets.Layout(width="40px")


def split_names(text: str) -> list[str]:
    """Comma-separated entries, trimmed, empty ones dropped.

    >>> split_names(" Reaver, Knight of the Vale ,")
    ['Reaver', 'Knight of the Vale']
    """
    return [part.strip() for part in text.split(",") if part.strip()]


def _optional(value: Any) -> bool:
    return bool(value != "")


_ICON_WIDTH = "72px"
_COLUMNS = (("name", "120px", "the character's name"), ("STR", "40px", "strength"),
            ("icons", f"calc(3 * {_ICON_WIDTH} + 8px)", "challenge icons: the challenges it may attack or defend in"),
            ("keywords", "110px", "keywords, comma-separated"))
"""The character rows' column headers (widths as the boxes below them), each with what it abbreviates."""


def column_headers() -> widgets.HBox:
    """The line above the character rows: name, STR, icons, keywords (knelt and power are labelled in each row)."""
    cells = [widgets.HTML(f'<span title="{title}" style="color:#5d6d7e;font-size:90%">'
                          + (f'<abbr title="{title}">{text}</abbr>' if text == "STR" else text) + "</span>",
                          layout=widgets.Layout(width=width)) for text, width, title in _COLUMNS]
    header = widgets.HBox(cells)
    header.add_class("agot-character-header")
    return header


class CharacterRow:
    """One character: name, STR, icons, keywords, kneeling, power on it, and a remove button.

    Every box is named for assistive technology and hover by its tooltip, after the character's
    name ("Sworn Knight: STR"); `describe` renames them when the name or the row's place changes.
    """

    def __init__(self, data: Mapping[str, Any], changed: Callable[[], None],
                 remove: Callable[[CharacterRow], None],
                 roster: Callable[[tuple[str, str] | None], None] | None = None,
                 place: tuple[str, int] = ("Character", 1)) -> None:
        self.extra = {k: v for k, v in data.items()
                      if k not in ("name", "str", "icons", "keywords", "standing", "power")}
        self._place = place
        name = str(data.get("name", ""))
        tips = self._tips(place, name.strip() or f"{place[0]}, character {place[1]}")  # in the first message
        self.name = widgets.Text(name, placeholder="name", continuous_update=False, tooltip=tips["name"],
                                 layout=widgets.Layout(width="120px"))
        self.strength = NumberText(data.get("str", 1), layout=_NARROW, tooltip=tips["strength"])
        icons = set(data.get("icons", []))
        self.icons = {icon: widgets.ToggleButton(icon in icons, description=icon, tooltip=tips[icon],
                                                 layout=widgets.Layout(width=_ICON_WIDTH)) for icon in ICONS}
        self.keywords = widgets.Text(", ".join(data.get("keywords", [])), placeholder="keywords",
                                     continuous_update=False, layout=widgets.Layout(width="110px"),
                                     tooltip=tips["keywords"])
        self.kneeling = widgets.Checkbox(not data.get("standing", True), description="knelt", indent=False,
                                         layout=widgets.Layout(width="74px"), tooltip=tips["kneeling"])
        self.power = NumberText(data.get("power", 0), description="power", style={"description_width": "initial"},
                                layout=widgets.Layout(width="88px"), tooltip=tips["power"])
        self.remove = widgets.Button(icon="trash", layout=widgets.Layout(width="34px"), tooltip=tips["remove"])
        self.remove.on_click(lambda _b: remove(self))
        for w in (self.strength, self.keywords, self.kneeling, self.power):
            w.observe(lambda _c: changed(), "value")
        # A new name or icon changes what the challenges offer: `roster` is told first (it then resolves).
        self.name.observe(lambda c: self._renamed(c["old"], c["new"], roster, changed), "value")
        for box in self.icons.values():
            box.observe(lambda _c: roster(None) if roster else changed(), "value")
        self.widget = widgets.HBox([self.name, self.strength, *self.icons.values(), self.keywords, self.kneeling,
                                    self.power, self.remove])
        self.widget.add_class("agot-character")

    def _renamed(self, old: str, new: str, roster: Callable[[tuple[str, str] | None], None] | None,
                 changed: Callable[[], None]) -> None:
        self.describe(*self._place)
        if roster is not None:
            roster((old, new))
        else:
            changed()

    def who(self) -> str:
        """The character as the labels name it: its name, or its side and place while it has none."""
        side, number = self._place
        return self.name.value.strip() or f"{side}, character {number}"

    def describe(self, side: str, number: int) -> None:
        """Name every box after the character ("Sworn Knight: STR"); `side` and `number` say where the row is."""
        self._place = (side, number)
        tips = self._tips(self._place, self.who())
        self.name.tooltip = tips["name"]
        self.strength.tooltip = tips["strength"]
        for icon, box in self.icons.items():
            box.tooltip = tips[icon]
        self.keywords.tooltip = tips["keywords"]
        self.kneeling.tooltip = tips["kneeling"]
        self.power.tooltip = tips["power"]
        self.remove.tooltip = tips["remove"]

    @staticmethod
    def _tips(place: tuple[str, int], who: str) -> dict[str, str]:
        """Every tooltip of the row, by box, for a character called `who` at `place` (side, number)."""
        return {"name": f"{place[0]}, character {place[1]}: name",
                "strength": f"{who}: STR (strength: a whole number >= 0, or X)",
                **{icon: f"{who}: {icon} icon (may attack and defend in {icon} challenges)" for icon in ICONS},
                "keywords": f"{who}: keywords, comma-separated (renown, stealth, prized (1)...)",
                "kneeling": f"{who}: knelt (kneeling at the start of the round)",
                "power": f"{who}: power on the character", "remove": f"remove {who}"}

    def to_dict(self) -> dict[str, Any]:
        """The character as the scenario writes it."""
        out: dict[str, Any] = {"name": self.name.value, "str": self.strength.value,
                               "icons": [i for i in ICONS if self.icons[i].value],
                               "keywords": split_names(self.keywords.value)}
        if self.kneeling.value:
            out["standing"] = False
        if self.power.value != 0:
            out["power"] = self.power.value
        return out | self.extra


class SideEditor:
    """One player's side: faction power, gold, claim, deck, hand, and the characters in play."""

    def __init__(self, key: str, data: Mapping[str, Any], changed: Callable[[], None]) -> None:
        self.key = key
        self._changed = changed
        self.extra: dict[str, Any] = {}
        self.error = ErrorMessage("agot-error", f"agot-error-{key}")
        style = {"description_width": "initial"}
        box = widgets.Layout(width="118px")
        self.label = f"{key.capitalize()} player"
        """The player as the labels name it: "First player"."""
        self.faction = NumberText(0, description="faction power", style=style, layout=widgets.Layout(width="150px"),
                                  tooltip=f"{self.label}: faction power (the power on the faction card)")
        self.gold = NumberText(0, description="gold", style=style, layout=box, tooltip=f"{self.label}: gold")
        self.claim = NumberText(1, description="claim", style=style, layout=box,
                                tooltip=f"{self.label}: claim (the plot's claim value)")
        self.deck = NumberText("", description="deck", style=style, layout=box,
                               tooltip=f"{self.label}: deck, cards left; empty: unknown")
        self.hand = NumberText("", description="hand", style=style, layout=box,
                               tooltip=f"{self.label}: hand, cards in hand; empty: unknown")
        for w in (self.faction, self.gold, self.claim, self.deck, self.hand):
            w.add_class(f"agot-{key}-{w.description.split()[0]}")
            w.observe(lambda _c: self._notify(), "value")
        self.add = widgets.Button(description="add character", icon="plus", layout=widgets.Layout(width="150px"),
                                  tooltip=f"add a character to the {key} player's side")
        self.add.add_class(f"agot-{key}-add")
        self.add.on_click(lambda _b: self.add_character({"name": self._fresh_name(), "str": 1, "icons": ["military"]}))
        self.rows: list[CharacterRow] = []
        self.list = widgets.VBox([])
        self._quiet = False
        self._watchers: list[Callable[[str, tuple[str, str] | None], None]] = []
        self.title = heading(self.label + (" (makes their challenges first)" if key == "first" else ""))
        self.widget = widgets.VBox([self.title, widgets.HBox([self.faction, self.gold, self.claim]),
                                    widgets.HBox([self.deck, self.hand]), column_headers(), self.list, self.add,
                                    self.error.widget])
        self.widget.add_class(f"agot-side-{key}")
        self.load(data)

    def _notify(self) -> None:
        if not self._quiet:
            self._changed()

    def watch(self, roster_changed: Callable[[str, tuple[str, str] | None], None]) -> None:
        """Call ``roster_changed(key, renamed)`` when characters are added, removed, loaded, renamed
        (`renamed`: the old and the new name) or given other icons, before the change resolves."""
        self._watchers.append(roster_changed)

    def _roster(self, renamed: tuple[str, str] | None = None) -> None:
        for watcher in self._watchers:
            watcher(self.key, renamed)

    def _row_changed(self, renamed: tuple[str, str] | None) -> None:
        if renamed is not None and renamed[0] in self.names():
            renamed = None  # the old name is still in use (twice before): its picks stay
        self._roster(renamed)
        self._notify()

    def _row(self, data: Mapping[str, Any], number: int | None = None) -> CharacterRow:
        place = (self.label, len(self.rows) + 1 if number is None else number)
        return CharacterRow(data, self._notify, self.remove_character, self._row_changed, place)

    def _show(self) -> None:
        for number, row in enumerate(self.rows, 1):
            row.describe(self.label, number)
        self.list.children = [r.widget for r in self.rows]

    def _fresh_name(self) -> str:
        names = {r.name.value for r in self.rows}
        return next(f"Character {i}" for i in range(1, 100) if f"Character {i}" not in names)

    def add_character(self, data: Mapping[str, Any]) -> CharacterRow:
        """Add a character row (and resolve)."""
        row = self._row(data)
        self.rows.append(row)
        self._show()
        self._roster()
        self._notify()
        return row

    def remove_character(self, row: CharacterRow) -> None:
        """Take a character row away (and resolve)."""
        self.rows.remove(row)
        self._show()
        self._roster()
        self._notify()

    def names(self) -> list[str]:
        """The characters' names, in order."""
        return [r.name.value for r in self.rows]

    def characters(self) -> list[tuple[str, tuple[str, ...]]]:
        """Each character's name and challenge icons, in order (what a challenge may pick)."""
        return [(r.name.value, tuple(i for i in ICONS if r.icons[i].value)) for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        """This player as the round scenario writes it."""
        out: dict[str, Any] = {"faction": self.faction.value, "gold": self.gold.value, "claim": self.claim.value}
        for key, box in (("deck", self.deck), ("hand", self.hand)):
            if _optional(box.value):
                out[key] = box.value
        out["characters"] = [r.to_dict() for r in self.rows]
        return out | self.extra

    def load(self, data: Mapping[str, Any]) -> None:
        """Set every input from the scenario's entry for this player (no resolve)."""
        self._quiet = True
        try:
            hand = data.get("hand", "")
            self.extra = {k: v for k, v in data.items() if k not in ("faction", "gold", "claim", "deck", "hand",
                                                                      "characters")}
            if isinstance(hand, dict):  # named cards in hand: kept as they are (no input for them)
                self.extra["hand"], hand = hand, ""
            self.hand.disabled = "hand" in self.extra
            self.faction.value, self.gold.value = data.get("faction", 0), data.get("gold", 0)
            self.claim.value, self.deck.value, self.hand.value = data.get("claim", 1), data.get("deck", ""), hand
            self.rows = [self._row(character, n) for n, character in enumerate(data.get("characters", []), 1)]
            self._show()
        finally:
            self._quiet = False
        self._roster()
