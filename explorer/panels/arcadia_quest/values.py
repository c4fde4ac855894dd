"""Small input groups of the Arcadia Quest panel: values with their sources, and abilities.

`ValueBoxes` tracks where each value of an editor came from (a fan-collected preset, the loaded
scenario, or the user) and shows it as badges under its row. `AbilityPicker` is one tick box per
named ability of `explorer.games.arcadia_quest.data.ABILITIES`; an editor offers those its kind
of fighter has (`Offered`: the hero's list the heroes' abilities, the Monster's the Monsters'), each
cited by the cards that have it, and shows another only while it is ticked (a loaded scenario may
give a Monster a hero's ability: it keeps its meaning, and shows marked as not one of the list's).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import ABILITIES, HEROES, MONSTERS
from explorer.panels.common.display import badge
from explorer.panels.common.field_names import numbered
from explorer.scenario.sourced import Sourced

__all__ = ["ABILITY_LABELS", "TERMS", "FROM_SCENARIO", "HERO_ABILITIES", "MONSTER_ABILITIES", "YOURS", "AbilityPicker",
           "Offered", "ValueBoxes", "numbered", "offered_by", "source_line"]

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


@dataclass(frozen=True, slots=True)
class Offered:
    """The abilities one kind of fighter has (a hero, a Monster), as its editor offers them."""

    kind: str
    """Whose list it is, in words ("hero", "Monster")."""
    cites: Mapping[str, str]
    """Each ability offered, in `ABILITIES` order, with the cards that have it ("— Minotaur")."""
    sources: Mapping[str, str]
    """Each ability offered, with where it is read: its cards and their source."""

    def cite(self, name: str) -> str:
        """What the list writes beside ability `name`: who has it, or that it is not one of this list's.

        >>> MONSTER_ABILITIES.cite("daze-on-wound"), MONSTER_ABILITIES.cite("ignore-defence")
        ('— Hammer Beastman', '— not a Monster ability: given by the scenario')
        """
        return self.cites.get(name) or f"— not a {self.kind} ability: given by the scenario"

    def source(self, name: str) -> str:
        """Where ability `name` is read, for this list (the game's whole source for one not offered)."""
        return self.sources.get(name) or ABILITIES[name].source  # type: ignore[index]  # a key of the scenario's


def offered_by(kind: str, cards: Mapping[str, Sourced[Any]], has: Callable[[Any], Iterable[str]]) -> Offered:
    """The abilities some card of `cards` has (`has` reads them off a card), each cited by the cards that have it.

    >>> offered = offered_by("Monster", MONSTERS, lambda card: card.abilities)
    >>> dict(offered.cites)
    {'extra-hit-per-crit': '— Minotaur', 'daze-on-wound': '— Hammer Beastman'}
    >>> offered.sources["extra-hit-per-crit"].startswith("the Minotaur's card (fan-collected")
    True
    """
    holders: dict[str, list[str]] = {name: [who for who, card in cards.items() if name in tuple(has(card.value))]
                                     for name in ABILITIES}
    cites = {name: "— " + ", ".join(who) for name, who in holders.items() if who}

    def card_of(who: str) -> str:
        note = getattr(cards[who].value, "note", "")
        article = "the " if kind == "Monster" else ""
        owner = f"{who}'" if who.endswith("s") else f"{who}'s"
        return f"{article}{owner} card" + (f", {note}" if note else "") + f" ({cards[who].source})"

    sources = {name: "; ".join(card_of(who) for who in holders[name]) for name in cites}
    return Offered(kind, cites, sources)


HERO_ABILITIES = offered_by("hero", HEROES, lambda card: [name for name, _group in card.abilities])
"""The abilities some Hero card has (what the hero's list offers, a custom hero's too)."""
MONSTER_ABILITIES = offered_by("Monster", MONSTERS, lambda card: card.abilities)
"""The abilities some Monster card has (what the Monster's list offers; no hero's, such as Bow Mastery)."""


class AbilityPicker:
    """One tick box per ability, each citing who has it; those not offered show only while ticked.

    Args:
        css: CSS class of the picker (its boxes get ``{css}-{ability}``).
        changed: called after every tick by the user (not after `set`).
        offered: the abilities to offer, each with who has it (`HERO_ABILITIES`, `MONSTER_ABILITIES`).
            The others are hidden unless ticked (a loaded scenario may give any ability to anyone):
            shown then, marked as not one of the list's, so that they can be unticked.
        owner: who has the abilities, first in each box's tooltip ("Hero: ...").

    >>> picker = AbilityPicker("aq-monster-abilities", lambda: None, MONSTER_ABILITIES)
    >>> picker.set(("ignore-defence",)); picker.value, picker.shown
    (('ignore-defence',), ('extra-hit-per-crit', 'ignore-defence', 'daze-on-wound'))
    """

    def __init__(self, css: str, changed: Callable[[], None], offered: Offered, owner: str = "") -> None:
        self._changed = changed
        self._quiet = False
        self.edited = False
        """True once the user ticked or unticked a box (the panel then stops following presets)."""
        self.offered = offered
        self.boxes: dict[str, widgets.Checkbox] = {}
        self._rows: dict[str, widgets.HBox] = {}
        for name, ability in ABILITIES.items():
            tip = (f"{owner}: " * bool(owner) + f"{ABILITY_LABELS[name]} ({ability.effect}). Source: "
                   f"{offered.source(name)}" + ("" if name in offered.cites else f" ({offered.cite(name)[2:]})"))
            tip += "".join(f". {term}: {meaning}" for term, meaning in TERMS.items() if term in ABILITY_LABELS[name])
            box = widgets.Checkbox(False, description=ABILITY_LABELS[name], indent=False, tooltip=tip,
                                   layout=widgets.Layout(width="auto"))
            box.add_class(f"{css}-{name}")
            box.observe(lambda _c: self._ticked(), "value")
            self.boxes[name] = box
            cite = offered.cite(name)
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
            row.layout.display = "" if name in self.offered.cites or self.boxes[name].value else "none"

    def _ticked(self) -> None:
        if self._quiet:
            return
        self.edited = True
        self._changed()
