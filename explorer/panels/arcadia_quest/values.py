"""Small input groups of the Arcadia Quest panel: values with their sources, and abilities.

`ValueBoxes` tracks where each value of an editor came from (a fan-collected preset, the loaded
scenario, or the user) and shows it as badges under its row. `AbilityPicker` is one tick box per
named ability of `explorer.games.arcadia_quest.data.ABILITIES`, each with its citation; an editor
offers those its kind of fighter has (`offered_by`), and shows another only while it is ticked.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import ABILITIES
from explorer.panels.common.display import badge

__all__ = ["ABILITY_LABELS", "TERMS", "EVERY_ABILITY", "FROM_SCENARIO", "YOURS", "AbilityPicker", "ValueBoxes",
           "numbered", "offered_by", "short_citation", "source_line"]

YOURS = "your value"
"""The source of a value typed in the panel."""
FROM_SCENARIO = "from the scenario"
"""The source of a value a loaded scenario set."""

TERMS = {"CRIT": "the dice's critical symbol; it always counts as a success and rolls one more die "
                 "(Inferno rulebook p.18)"}
"""Words the rules abbreviate, with their meaning (shown on hover wherever the panel writes them)."""

ABILITY_LABELS: dict[str, str] = {
    "extra-die-while-wounded": "+1 die in every roll while wounded",
    "extra-hit-per-crit": "+1 hit per CRIT in its attacks",
    "ignore-defence": "its target rolls no Defense dice",
    "extra-die-vs-flanked": "+1 attack die against a flanked target",
    "daze-on-wound": "a Wound it deals Dazes the target",
}
"""Each ability in plain words (the scenario names it by its key)."""


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
    """Inputs (number boxes, drop-downs, tick boxes), each with the source of its value.

    Args:
        inputs: each input by its key, with its short name in the source line, in the order the
            source line names them.
        changed: called after every edit by the user (not after `set`).

    >>> from explorer.panels.common.number_box import NumberText
    >>> row = ValueBoxes({"life": (NumberText(0), "Life")}, lambda: None)
    >>> row.set({"life": 4}, "fan data"); row["life"].value = 5; row.values(), row.sources
    ({'life': 5}, {'life': 'your value'})
    """

    def __init__(self, inputs: Mapping[str, tuple[widgets.ValueWidget, str]], changed: Callable[[], None]) -> None:
        self._changed = changed
        self._quiet = False
        self.boxes: dict[str, widgets.ValueWidget] = {key: box for key, (box, _short) in inputs.items()}
        self.shorts = {key: short for key, (_box, short) in inputs.items()}
        for key, box in self.boxes.items():
            box.observe(lambda _c, key=key: self._edited(key), "value")
        self.sources: dict[str, str] = {key: "" for key in self.boxes}
        self.provenance = widgets.HTML()
        self.provenance.layout.margin = "-4px 0 2px 4px"

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


def numbered(names: list[str]) -> list[str]:
    """What each row of a list is called in tooltips and messages: its name, numbered when shared.

    >>> numbered(["Orc Marauder", "Goblin Archer", "Orc Marauder"])
    ['Orc Marauder 1', 'Goblin Archer', 'Orc Marauder 2']
    """
    counts: dict[str, int] = {}
    out = []
    for name in names:
        counts[name] = counts.get(name, 0) + 1
        out.append(f"{name} {counts[name]}" if names.count(name) > 1 else name)
    return out


def short_citation(source: str) -> str:
    """Who has an ability, in a few words (the full source goes in the tooltip).

    >>> short_citation("Scarlet's Backstab (fan list, rules notes §4.1); flanked as the INF-RB defines it")
    "— Scarlet's Backstab"
    """
    return "— " + source.split(" (")[0].split(";")[0]


EVERY_ABILITY: dict[str, str] = {name: short_citation(ability.source) for name, ability in ABILITIES.items()}
"""Every ability, each cited by its source's first words (what a hero is offered: a custom one may have any)."""


def offered_by(presets: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """The abilities some preset has, in `ABILITIES` order, each cited by the presets that have it.

    >>> offered_by({"Minotaur": ("extra-hit-per-crit",), "Orc": ()})
    {'extra-hit-per-crit': '— Minotaur'}
    """
    holders = {name: [who for who, has in presets.items() if name in tuple(has)] for name in ABILITIES}
    return {name: "— " + ", ".join(who) for name, who in holders.items() if who}


class AbilityPicker:
    """One tick box per ability, each citing who has it; those not offered show only while ticked.

    Args:
        css: CSS class of the picker (its boxes get ``{css}-{ability}``).
        changed: called after every tick by the user (not after `set`).
        offered: the abilities to offer, each with who has it in a few words (`EVERY_ABILITY`,
            `offered_by`). The others are hidden unless ticked (a loaded scenario may give any
            ability to anyone): shown then, so that they can be unticked.
        owner: who has the abilities, first in each box's tooltip ("Hero: ...").

    >>> picker = AbilityPicker("aq-monster-abilities", lambda: None, {"daze-on-wound": "— Hammer Beastman"})
    >>> picker.set(("ignore-defence",)); picker.value, picker.shown
    (('ignore-defence',), ('ignore-defence', 'daze-on-wound'))
    """

    def __init__(self, css: str, changed: Callable[[], None], offered: Mapping[str, str], owner: str = "") -> None:
        self._changed = changed
        self._quiet = False
        self.edited = False
        """True once the user ticked or unticked a box (the panel then stops following presets)."""
        self.offered = dict(offered)
        self.boxes: dict[str, widgets.Checkbox] = {}
        self._rows: dict[str, widgets.HBox] = {}
        for name, ability in ABILITIES.items():
            tip = f"{owner}: " * bool(owner) + f"{ABILITY_LABELS[name]} ({ability.effect}). Source: {ability.source}"
            tip += "".join(f". {term}: {meaning}" for term, meaning in TERMS.items() if term in ABILITY_LABELS[name])
            box = widgets.Checkbox(False, description=ABILITY_LABELS[name], indent=False, tooltip=tip,
                                   layout=widgets.Layout(width="auto"))
            box.add_class(f"{css}-{name}")
            box.observe(lambda _c: self._ticked(), "value")
            self.boxes[name] = box
            cite = self.offered.get(name) or EVERY_ABILITY[name]
            cited = widgets.HTML(f'<span style="font-size:80%;color:#5d6d7e" title="{html.escape(tip)}">'
                                 f"{html.escape(cite)}</span>")
            self._rows[name] = widgets.HBox([box, cited], layout=widgets.Layout(align_items="center"))
        self._show()
        self.widget = widgets.VBox(list(self._rows.values()))
        self.widget.add_class(css)

    @property
    def value(self) -> tuple[str, ...]:
        """The abilities ticked, in `ABILITIES` order."""
        return tuple(name for name, box in self.boxes.items() if box.value)

    @property
    def shown(self) -> tuple[str, ...]:
        """The abilities whose box is shown, in `ABILITIES` order."""
        return tuple(name for name, row in self._rows.items() if row.layout.display != "none")

    def set(self, names: Sequence[str], edited: bool = False) -> None:
        """Tick exactly `names` (no `changed` call); `edited` says whether they are now the user's."""
        self._quiet = True
        try:
            for name, box in self.boxes.items():
                box.value = name in names
        finally:
            self._quiet = False
        self.edited = edited
        self._show()

    def _show(self) -> None:
        for name, row in self._rows.items():
            row.layout.display = "" if name in self.offered or self.boxes[name].value else "none"

    def _ticked(self) -> None:
        if self._quiet:
            return
        self.edited = True
        self._changed()
