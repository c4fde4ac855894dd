"""One editor for the hero, his Attack card, the target and each Close Monster, built from a declaration.

Each of them is an `Editor` built from a `Spec`: its inputs (`Field`: label, tooltip with the
values allowed, width, where it goes in the scenario, what a preset does to it), its preset
table, the abilities it offers, and how it is shown (`Section`: a part of the panel with a preset
picker; `Row`: a row in a list, its Monster fixed when added). The editor does the rest the same
way for all:

* **a preset** sets the values of its card, with the preset's source; it puts the state back
  (`Field.preset` ``"reset"``: no Wounds, no tokens) and keeps the rest (conditions, the reroll
  pool his cards give). "custom" keeps every value and lets you name it;
* **every value** shows where it came from: the preset, the loaded scenario, or you;
* `Editor.to_dict` writes its scenario object with the values as typed (a bad entry stays text:
  the resolver names it), and `Editor.show_loaded` shows one read from a scenario, keeping the
  keys it has no input for (`Spec.keep`) so that a loaded file is written back whole.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import ipywidgets as widgets

from explorer.games.arcadia_quest import CARD_GROUPS, KINDS
from explorer.panels.arcadia_quest.values import (
    ABILITY_LABELS,
    FROM_SCENARIO,
    TERMS,
    YOURS,
    AbilityPicker,
    Offered,
    ValueBoxes,
)
from explorer.panels.common.display import ErrorMessage, badge, heading, note
from explorer.panels.common.number_box import NumberText
from explorer.panels.common.table import explained
from explorer.scenario.sourced import Sourced

__all__ = ["CUSTOM", "Editor", "Field", "Row", "Section", "Spec", "field_labels", "field_name", "kept",
           "match_preset"]

CUSTOM = ""
"""The picker value of a custom hero, card or Monster (no preset)."""

_WIDTHS = {"number": "118px", "check": "auto", "kind": "90px", "group": "130px"}
_OPTIONS = {"kind": KINDS, "group": CARD_GROUPS}


@dataclass(frozen=True, slots=True)
class Field:
    """One input of an editor."""

    key: str
    """Its name: the editor's item, the attribute a preset card and a parsed scenario give it."""
    label: str = ""
    tip: str = ""
    """Its tooltip: what it is, and the values allowed."""
    width: str = ""
    """Its width; "" for the input's usual one."""
    input: Literal["number", "check", "kind", "group"] = "number"
    """A whole-number box, a tick box, melee or ranged, or a card group."""
    short: str = ""
    """Its name in the source line; "" for an input whose source is not shown (a condition, a position)."""
    path: tuple[str, ...] = ()
    """Where it goes in the scenario object; ``(key,)`` when empty."""
    preset: Literal["card", "reset", "keep"] = "keep"
    """What a preset does to it: sets it from its card, puts back `start`, or keeps it."""
    start: int | bool = 0
    """Its value when the editor opens."""
    css: str | None = None
    """Its CSS class: None for ``{spec.css}-{key}`` (``_`` as ``-``), "" for none."""
    write: Callable[[Any], Any] | None = None
    """Turns its value into the scenario's (the Overkill box: empty for None); None: as typed."""

    @property
    def at(self) -> tuple[str, ...]:
        """Where it goes in the scenario object."""
        return self.path or (self.key,)


@dataclass(frozen=True, slots=True)
class Section:
    """An editor shown as a part of the panel: a heading, a preset picker, its values, its abilities."""

    title: str
    picker: str
    """The preset picker's label."""
    width: str
    first: str
    """The preset it opens with."""
    custom: str
    """The picker's label for no preset."""
    name: str
    """The name of a custom one left unnamed."""
    custom_note: str
    rows: tuple[tuple[str, ...], ...] = ()
    """The inputs whose source is not shown, in rows under the values."""
    abilities_note: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """An editor shown as a row of a list: its name, abilities and one source, its values, a remove button."""

    remove: str
    """The remove button's tooltip, ``{name}`` standing for the row's name ("remove {name}")."""
    width: str = "150px"
    """The width of its name."""


@dataclass(frozen=True, slots=True)
class Spec:
    """What one kind of editor has: its inputs, presets, abilities, and how it is shown."""

    css: str
    """CSS class of the editor, and prefix of its inputs' (``aq-hero``: ``aq-hero-life``, ...)."""
    presets: Mapping[str, Sourced[Any]]
    fields: tuple[Field, ...]
    """Its inputs; those with a source (`Field.short`) in the order its row shows them (its source line
    names the number boxes first, then the others)."""
    written: tuple[str, ...]
    """The keys of `fields` (and ``"abilities"``) in the order its scenario object lists them."""
    layout: Section | Row
    keep: Callable[[Mapping[str, Any], Any, str | None], dict[str, Any]]
    """The keys of a loaded object with no input here, written back as they were: (the raw object,
    the object as the reader made it, the preset it names or None) -> those keys."""
    preset_key: str = "preset"
    """The scenario key naming its preset."""
    abilities: Offered | None = None
    """The abilities its kind of fighter has: a `Section` offers them in a picker (`AbilityPicker`), a `Row`
    shows those it holds beside its name, marking any other; None: it has none."""


def kept(*keys: str) -> Callable[[Mapping[str, Any], Any, str | None], dict[str, Any]]:
    """A `Spec.keep` keeping `keys` of the raw object as they were (its ``name`` only beside a preset).

    >>> kept("movement", "name")({"movement": 2, "name": "Bob"}, None, None)
    {'movement': 2}
    """
    return lambda raw, _obj, preset: {k: raw[k] for k in keys if k in raw and (k != "name" or preset)}


def match_preset(name: Any, table: Mapping[str, Any]) -> str | None:
    """The preset `name` names in `table` (any case), or None.

    >>> match_preset("grom", {"Grom": 1}), match_preset("Bob", {"Grom": 1})
    ('Grom', None)
    """
    if isinstance(name, str):
        for known in table:
            if name.strip().lower() == known.lower():
                return known
    return None


def field_name(field: Field) -> str:
    """What an input is called on screen: its label, else what it chooses.

    >>> field_name(Field("life", "Life")), field_name(Field("kind", input="kind"))
    ('Life', 'melee or ranged')
    """
    return field.label or {"kind": "melee or ranged", "group": "group"}.get(field.input, field.key.replace("_", " "))


def field_labels(spec: Spec, prefix: str, who: str) -> dict[str, str]:
    """The labels on screen of an editor's inputs, by the field path each writes under `prefix`.

    `who` names the editor ("Hero", "Close Monster Goblin Archer").

    >>> labels = field_labels(Spec("aq-x", {}, (Field("life", "Life"),), ("life",), Row(""), kept()), "hero", "Hero")
    >>> labels["hero.life"], labels["hero.abilities"]
    ('Hero, Life', 'Hero, abilities')
    """
    labels = {prefix: who, f"{prefix}.name": f"{who}, name", f"{prefix}.abilities": f"{who}, abilities",
              f"{prefix}.{spec.preset_key}": f"{who}, {spec.preset_key} picked"}
    labels.update({f"{prefix}.{'.'.join(f.at)}": f"{who}, {field_name(f)}" for f in spec.fields})
    return labels


def _note(text: str) -> str:
    return f'<span style="color:#5d6d7e;font-size:85%">{explained(text, TERMS)}</span>' if text else ""


def _input(field: Field, css: str) -> widgets.ValueWidget:
    layout = widgets.Layout(width=field.width or _WIDTHS[field.input])
    box: widgets.ValueWidget
    if field.input == "number":
        box = NumberText(field.start, description=field.label, style={"description_width": "initial"}, layout=layout)
    elif field.input == "check":
        box = widgets.Checkbox(bool(field.start), description=field.label, indent=False, layout=layout)
    else:
        style = {"style": {"description_width": "initial"}} if field.label else {}
        box = widgets.Dropdown(options=list(_OPTIONS[field.input]), description=field.label, layout=layout, **style)
    name = f"{css}-{field.key.replace('_', '-')}" if field.css is None else field.css
    if name:
        box.add_class(name)
    return box


class Editor:
    """The inputs of one hero, card or Monster (`Spec`), its presets, its sources, its scenario object.

    Args:
        spec: what it has and how it is shown.
        changed: called after every change by the user.
        hooks: called first with an input's new value when the user changes it, and after a
            preset is picked (the hero's abilities follow the card's group).
        remove: a `Row`'s remove button calls it with the editor.
    """

    def __init__(self, spec: Spec, changed: Callable[[], None], *,
                 hooks: Mapping[str, Callable[[Any], None]] | None = None,
                 remove: Callable[[Editor], None] | None = None) -> None:
        self.spec, self._changed, self._quiet = spec, changed, False
        self._hooks = dict(hooks or {})
        self._fields = {f.key: f for f in spec.fields}
        self.extra: dict[str, Any] = {}
        """Keys of a loaded object with no input here (`Spec.keep`), written back as they were."""
        self.held: tuple[str, ...] = ()
        """The abilities it has when it has no picker (a Close Monster's, shown beside its name)."""
        self._name = ""
        self.who = ""
        """What the editor is called in its inputs' tooltips: its section's title, or its row's name."""
        self.inputs = {f.key: _input(f, spec.css) for f in spec.fields}
        for key, hook in self._hooks.items():  # before the sources' observer: what follows it is set before `changed`
            self.inputs[key].observe(lambda change, hook=hook: None if self._quiet else hook(change["new"]), "value")
        tracked = [f for f in spec.fields if f.short]
        named = [f for f in tracked if f.input == "number"] + [f for f in tracked if f.input != "number"]
        self.values = ValueBoxes({f.key: (self.inputs[f.key], f.short) for f in named}, self._edited)
        for f in spec.fields:
            if not f.short:
                self.inputs[f.key].observe(lambda _c: self._edited(), "value")
        owner = spec.layout.title if isinstance(spec.layout, Section) else ""
        self.abilities = (AbilityPicker(f"{spec.css}-abilities", self._edited, spec.abilities, owner)
                          if spec.abilities is not None and isinstance(spec.layout, Section) else None)
        row = [self.inputs[f.key] for f in tracked]
        if isinstance(spec.layout, Section):
            self.widget = self._section(spec.layout, row)
            self.call(spec.layout.title)
            self.use_preset(spec.layout.first)
        else:
            self.widget = self._row(spec.layout, row, remove)

    def call(self, who: str) -> None:
        """Name every input after `who` in its tooltip ("Hero: Life (...)", "remove Orc Marauder 2")."""
        self.who = who
        for f in self.spec.fields:
            self.inputs[f.key].tooltip = f"{who}: {field_name(f)}" + (f" ({f.tip})" if f.tip else "")
        if isinstance(self.spec.layout, Section):
            self.name_box.tooltip = f"{who}: name"
        else:
            self.remove.tooltip = self.spec.layout.remove.format(name=who)

    def _section(self, section: Section, row: list[widgets.Widget]) -> widgets.Widget:
        self.preset = widgets.Dropdown(options=[*((n, n) for n in self.spec.presets), (section.custom, CUSTOM)],
                                       value=section.first, description=section.picker,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width=section.width))
        self.preset.add_class(f"{self.spec.css}-preset")
        self.preset.observe(lambda _c: self._picked(), "value")
        self.name_box = widgets.Text(section.name, description="name",
                                     layout=widgets.Layout(width="200px", display="none"))
        self.name_box.observe(lambda _c: self._edited(), "value")
        self.note = widgets.HTML()
        self.error = ErrorMessage("aq-error", f"aq-error-{self.spec.css.removeprefix('aq-')}")
        lines = [self.inputs[keys[0]] if len(keys) == 1 else widgets.HBox([self.inputs[k] for k in keys])
                 for keys in section.rows]
        picker = [note(section.abilities_note), self.abilities.widget] if self.abilities else []
        widget = widgets.VBox([
            heading(section.title),
            widgets.HBox([self.preset, self.name_box, self.note], layout=widgets.Layout(align_items="center")),
            widgets.HBox(row), self.values.provenance, *lines, *picker, self.error.widget])
        widget.add_class(self.spec.css)
        return widget

    def _row(self, spec: Row, row: list[widgets.Widget], remove: Callable[[Editor], None] | None) -> widgets.Widget:
        self.label = widgets.HTML(layout=widgets.Layout(width=spec.width))
        self.remove = widgets.Button(icon="trash", layout=widgets.Layout(width="34px"))
        self.remove.add_class(f"{self.spec.css}-remove")
        if remove is not None:
            self.remove.on_click(lambda _b: remove(self))
        widget = widgets.HBox([self.label, *row, self.remove], layout=widgets.Layout(align_items="center"))
        widget.add_class(f"{self.spec.css}-row")
        return widget

    def __getitem__(self, key: str) -> widgets.ValueWidget:
        return self.inputs[key]

    @property
    def name(self) -> str:
        """Its name: the preset's, the one typed for a custom one, or the one it was added with."""
        if not isinstance(self.spec.layout, Section):
            return self._name
        return str(self.preset.value) if self.preset.value != CUSTOM else self.name_box.value or self.spec.layout.name

    @property
    def source(self) -> str:
        """Where its values come from, in one word: yours once you edited one, else the first one's."""
        sources = list(self.values.sources.values())
        return YOURS if YOURS in sources else next(iter(sources), "")

    def preset_abilities(self, name: str) -> tuple[str, ...]:
        """The abilities preset `name` has (a Monster's card lists them)."""
        return tuple(getattr(self.spec.presets[name].value, "abilities", ()))

    def use_preset(self, name: str) -> None:
        """Show preset `name`: its card's values with its source and its abilities, the state put back."""
        stats = self.spec.presets[name]
        fields = self.spec.fields
        self._quiet = True
        try:
            if isinstance(self.spec.layout, Section):
                self.preset.value = name
                self.extra = {}
            else:
                self._name, self.extra = name, {self.spec.preset_key: name}
            self.values.set({f.key: getattr(stats.value, f.key) for f in fields if f.short and f.preset == "card"},
                            stats.source)
            self.values.set({f.key: f.start for f in fields if f.short and f.preset == "reset"}, "")
            for f in fields:
                if not f.short and f.preset == "reset":
                    self.inputs[f.key].value = f.start
            self.held = self.preset_abilities(name)
            if self.abilities:
                self.abilities.set(self.held)
            self._show()
        finally:
            self._quiet = False

    def show_loaded(self, raw: Mapping[str, Any], obj: Any, state: Mapping[str, Any] | None = None) -> None:
        """Show an object read from a scenario: `raw` as written, `obj` as the reader made it.

        Each value is read from `state` by its key, else from `obj`. Its source: the scenario if
        the scenario gives it (a `Row`'s: all of them), else its preset's ("reset" and kept ones: none).
        """
        preset = match_preset(raw.get(self.spec.preset_key), self.spec.presets)
        state = state or {}
        read = {f.key: state[f.key] if f.key in state else getattr(obj, f.key) for f in self.spec.fields}

        def source(f: Field) -> str:
            if not isinstance(self.spec.layout, Section) or f.at[0] in raw:
                return FROM_SCENARIO
            if f.preset != "card":
                return ""
            return FROM_SCENARIO if preset is None else self.spec.presets[preset].source

        self._quiet = True
        try:
            if isinstance(self.spec.layout, Section):
                self.preset.value = preset or CUSTOM
                if preset is None:
                    self.name_box.value = obj.name
            else:
                self._name = obj.name
            self.extra = self.spec.keep(raw, obj, preset)
            tracked = [f for f in self.spec.fields if f.short]
            self.values.set({f.key: read[f.key] for f in tracked}, {f.key: source(f) for f in tracked})
            for f in self.spec.fields:
                if not f.short:
                    self.inputs[f.key].value = read[f.key]
            self.held = tuple(getattr(obj, "abilities", ()))
            if self.abilities:
                self.abilities.set(self.held, edited="abilities" in raw)
            self._show()
        finally:
            self._quiet = False

    def to_dict(self) -> dict[str, Any]:
        """Its scenario object, values as typed (a bad entry stays text; the resolver names it)."""
        layout = self.spec.layout
        who: dict[str, Any] = {}
        if isinstance(layout, Section):
            who = ({self.spec.preset_key: self.preset.value} if self.preset.value != CUSTOM
                   else {"name": self.name_box.value or layout.name})
        out = {**who, **self.extra}
        for key in self.spec.written:
            if key == "abilities":
                out[key] = list(self.abilities.value if self.abilities else self.held)
                continue
            field = self._fields[key]
            value = self.inputs[key].value
            into = out
            for part in field.at[:-1]:
                into = into.setdefault(part, {})
            into[field.at[-1]] = field.write(value) if field.write else value
        return out

    def _picked(self) -> None:
        if self._quiet:
            return
        if self.preset.value != CUSTOM:
            self.use_preset(self.preset.value)
            for key, hook in self._hooks.items():
                hook(self.inputs[key].value)
        self._show()
        self._changed()

    def _edited(self) -> None:
        if self._quiet:
            return
        self._show()
        self._changed()

    def _show(self) -> None:
        layout = self.spec.layout
        if isinstance(layout, Section):
            custom = self.preset.value == CUSTOM
            self.name_box.layout.display = "" if custom else "none"
            self.note.value = _note(layout.custom_note if custom else self.spec.presets[self.preset.value].value.note)
            return
        if not self.who:
            self.call(self._name)  # until its list numbers it
        offered = self.spec.abilities
        marks = {a: f" ({offered.cite(a)[2:]})" if offered and a not in offered.cites else "" for a in self.held}
        able = f" · {', '.join(ABILITY_LABELS.get(a, a) + marks[a] for a in self.held)}" if self.held else ""
        source = self.source
        self.label.value = (f"<span title='{html.escape(source)}'><b>{html.escape(self._name)}</b>"
                            f"<span style='font-size:80%'>{explained(able, TERMS)}</span> {badge(source)}</span>")
