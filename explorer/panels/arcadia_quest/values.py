"""Small input groups of the Arcadia Quest panel: a card's number boxes with their sources, and abilities.

`ValueBoxes` is a row of strict number boxes (`explorer.panels.common.number_box.NumberText`),
each remembering where its value came from (a fan-collected preset, the loaded scenario, or the
user), shown as badges under the row. `AbilityPicker` is one tick box per named ability of
`explorer.games.arcadia_quest.data.ABILITIES`, each with its citation.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import ABILITIES
from explorer.panels.common.display import badge
from explorer.panels.common.number_box import NumberText

__all__ = ["ABILITY_LABELS", "FROM_SCENARIO", "YOURS", "AbilityPicker", "Box", "ValueBoxes", "short_citation", "source_line"]

YOURS = "your value"
"""The source of a value typed in the panel."""
FROM_SCENARIO = "from the scenario"
"""The source of a value a loaded scenario set."""

ABILITY_LABELS: dict[str, str] = {
    "extra-die-while-wounded": "+1 die in every roll while wounded",
    "extra-hit-per-crit": "+1 hit per CRIT in its attacks",
    "ignore-defence": "its target rolls no Defense dice",
    "extra-die-vs-flanked": "+1 attack die against a flanked target",
    "daze-on-wound": "a Wound it deals Dazes the target",
}
"""Each ability in plain words (the scenario names it by its key)."""


@dataclass(frozen=True, slots=True)
class Box:
    """One number box: its scenario key, its label, its short name in the source line, its tooltip."""

    key: str
    label: str
    short: str
    tip: str
    width: str = "118px"


def source_line(sources: Mapping[str, str], shorts: Mapping[str, str]) -> str:
    """One badge per provenance, naming the values it covers ("source: Def/Life fan-collected · wounds yours").

    >>> "Def/Life" in source_line({"defence": "fan data", "life": "fan data"}, {"defence": "Def", "life": "Life"})
    True
    """
    groups: dict[str, list[str]] = {}
    for key, source in sources.items():
        if source:
            groups.setdefault(source, []).append(shorts[key])
    return ('<span style="font-size:85%;color:#5d6d7e">source: </span>'
            + " · ".join(f"<span style='font-size:85%'>{html.escape('/'.join(keys))}</span> {badge(source)}"
                         for source, keys in groups.items()))


class ValueBoxes:
    """A row of number boxes (and choices), each with the source of its value.

    Args:
        boxes: the number boxes, in display order.
        css: prefix of each box's CSS class (``{css}-{key}``, e.g. ``aq-hero-defence``).
        changed: called after every edit by the user (not after `set`).
        choices: other inputs of the row (drop-downs, tick boxes) by scenario key, with their short
            names: their sources are tracked the same way.

    >>> row = ValueBoxes([Box("life", "Life", "Life", "a whole number")], "aq-hero", lambda: None)
    >>> row.set({"life": 4}, "fan data"); row["life"].value = 5; row.values(), row.sources
    ({'life': 5}, {'life': 'your value'})
    """

    def __init__(self, boxes: Sequence[Box], css: str, changed: Callable[[], None],
                 choices: Mapping[str, tuple[widgets.ValueWidget, str]] | None = None) -> None:
        self._changed = changed
        self._quiet = False
        self.shorts = {box.key: box.short for box in boxes}
        self.boxes: dict[str, widgets.ValueWidget] = {}
        for box in boxes:
            text = NumberText(0, description=box.label, tooltip=box.tip, style={"description_width": "initial"},
                              layout=widgets.Layout(width=box.width))
            text.add_class(f"{css}-{box.key.replace('_', '-')}")
            self.boxes[box.key] = text
        for key, (choice, short) in (choices or {}).items():
            choice.add_class(f"{css}-{key.replace('_', '-')}")
            self.boxes[key], self.shorts[key] = choice, short
        for key, widget in self.boxes.items():
            widget.observe(lambda _c, key=key: self._edited(key), "value")
        self.sources: dict[str, str] = {key: "" for key in self.boxes}
        self.provenance = widgets.HTML()
        self.provenance.layout.margin = "-4px 0 2px 4px"
        self.row = widgets.HBox(list(self.boxes.values()))

    def __getitem__(self, key: str) -> widgets.ValueWidget:
        return self.boxes[key]

    def set(self, values: Mapping[str, Any], sources: Mapping[str, str] | str) -> None:
        """Set some boxes (no `changed` call) and their sources (one for all, or one per key)."""
        self._quiet = True
        try:
            for key, value in values.items():
                self.boxes[key].value = "" if value is None else value
                self.sources[key] = sources if isinstance(sources, str) else sources[key]
        finally:
            self._quiet = False
        self._show()

    def values(self) -> dict[str, Any]:
        """Every box's value: the int typed, or the text as typed (the resolver names a bad one)."""
        return {key: box.value for key, box in self.boxes.items()}

    def _edited(self, key: str) -> None:
        if self._quiet:
            return
        self.sources[key] = YOURS
        self._show()
        self._changed()

    def _show(self) -> None:
        self.provenance.value = source_line(self.sources, self.shorts)


def short_citation(source: str) -> str:
    """Who has an ability, in a few words (the full source goes in the tooltip).

    >>> short_citation("Scarlet's Backstab (fan list, rules notes §4.1); flanked as the INF-RB defines it")
    "— Scarlet's Backstab"
    """
    return "— " + source.split(" (")[0].split(";")[0]


class AbilityPicker:
    """One tick box per ability, each citing where it comes from.

    Args:
        css: CSS class of the picker (its boxes get ``{css}-{ability}``).
        changed: called after every tick by the user (not after `set`).
        cited: True: who has it beside each box, the whole citation in its tooltip; False: the
            citation in the tooltip only (a compact row).

    >>> picker = AbilityPicker("aq-hero-abilities", lambda: None)
    >>> picker.set(("extra-die-while-wounded",)); picker.value
    ('extra-die-while-wounded',)
    """

    def __init__(self, css: str, changed: Callable[[], None], cited: bool = True) -> None:
        self._changed = changed
        self._quiet = False
        self.edited = False
        """True once the user ticked or unticked a box (the panel then stops following presets)."""
        self.boxes: dict[str, widgets.Checkbox] = {}
        rows: list[widgets.Widget] = []
        for name, ability in ABILITIES.items():
            tip = f"{name}: {ability.effect}. Source: {ability.source}"
            box = widgets.Checkbox(False, description=ABILITY_LABELS[name], indent=False, tooltip=tip,
                                   layout=widgets.Layout(width="auto"))
            box.add_class(f"{css}-{name}")
            box.observe(lambda _c: self._ticked(), "value")
            self.boxes[name] = box
            if cited:
                cite = widgets.HTML(f'<span style="font-size:80%;color:#5d6d7e" title="{html.escape(tip)}">'
                                    f"{html.escape(short_citation(ability.source))}</span>")
                rows.append(widgets.HBox([box, cite], layout=widgets.Layout(align_items="center")))
            else:
                rows.append(box)
        self.widget = widgets.VBox(rows) if cited else widgets.HBox(rows)
        self.widget.add_class(css)

    @property
    def value(self) -> tuple[str, ...]:
        """The abilities ticked, in `ABILITIES` order."""
        return tuple(name for name, box in self.boxes.items() if box.value)

    def set(self, names: Sequence[str], edited: bool = False) -> None:
        """Tick exactly `names` (no `changed` call); `edited` says whether they are now the user's."""
        self._quiet = True
        try:
            for name, box in self.boxes.items():
                box.value = name in names
        finally:
            self._quiet = False
        self.edited = edited

    def _ticked(self) -> None:
        if self._quiet:
            return
        self.edited = True
        self._changed()
