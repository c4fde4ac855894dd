"""The active Hero and his Attack card: preset pickers, editable values with their sources, abilities.

What each picker changes, and what it keeps:

* **Hero**: a preset sets Defense and Life (fan-collected) and the abilities the preset has for
  the card's group (Greensleeves' Bow Mastery needs a Bow card); Wounds taken go back to 0.
  The reroll pool (it comes from his cards), Dazed and flanked are kept.
* **Attack card**: a preset sets its dice, melee or ranged, group and the Defense dice it adds.
  A new group changes the hero's abilities only while you have not ticked them yourself.
* "custom" keeps every value and lets you name the hero or the card.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import ATTACK_CARDS, CARD_GROUPS, HEROES, KINDS, AttackCard, Hero
from explorer.panels.arcadia_quest.values import FROM_SCENARIO, AbilityPicker, Box, ValueBoxes
from explorer.panels.common.display import ErrorMessage, heading, note

__all__ = ["CUSTOM", "CardEditor", "HeroEditor", "match_preset", "preset_abilities"]

CUSTOM = ""
"""The picker value of a custom hero, card or Monster (no preset)."""


def match_preset(name: Any, table: Mapping[str, Any]) -> str | None:
    """The preset `name` names in `table` (any case), or None.

    >>> match_preset("grom", HEROES), match_preset("Bob", HEROES)
    ('Grom', None)
    """
    if isinstance(name, str):
        for known in table:
            if name.strip().lower() == known.lower():
                return known
    return None


def preset_abilities(hero: str, group: str) -> tuple[str, ...]:
    """The abilities a preset hero has with a card of `group` (as the scenario reader gives them).

    >>> preset_abilities("Greensleeves", "bow"), preset_abilities("Greensleeves", "sword")
    (('extra-hit-per-crit',), ())
    """
    return tuple(a for a, needs in HEROES[hero].value.abilities if needs in ("", group))


def _note(text: str) -> str:
    return f'<span style="color:#5d6d7e;font-size:85%">{html.escape(text)}</span>' if text else ""


class HeroEditor:
    """The active hero: preset, Defense, Life, Wounds taken, reroll pool, conditions and abilities.

    Args:
        changed: called after every change by the user.
        group: the Attack card's group now (for the preset's abilities).
    """

    def __init__(self, changed: Callable[[], None], group: Callable[[], str]) -> None:
        self._changed, self._group, self._quiet = changed, group, False
        self.extra: dict[str, Any] = {}
        """Keys of a loaded hero with no input here (the ``name`` of a preset hero), written back as they were."""
        self.preset = widgets.Dropdown(options=[*((n, n) for n in HEROES), ("custom hero", CUSTOM)], value="Greensleeves",
                                       description="Hero", style={"description_width": "initial"},
                                       layout=widgets.Layout(width="210px"))
        self.preset.add_class("aq-hero-preset")
        self.name = widgets.Text("Hero", description="name", layout=widgets.Layout(width="200px", display="none"))
        self.note = widgets.HTML()
        self.values = ValueBoxes([
            Box("defence", "Defense", "Defense", "Defense dice: a whole number, 0 or more"),
            Box("life", "Life", "Life", "Life: a whole number, 1 or more"),
            Box("wounds", "Wounds on him", "Wounds", "Wounds already on him before this action: 0 up to Life - 1",
                "150px"),
            Box("rerolls", "reroll pool", "rerolls", "Rerolls his cards give (attack and Defense rolls)", "140px"),
        ], "aq-hero", changed)
        self.dazed = widgets.Checkbox(False, description="Dazed (rolls no Defense dice)", indent=False,
                                      layout=widgets.Layout(width="auto"))
        self.flanked = widgets.Checkbox(False, description="flanked (another enemy is Close to him)", indent=False,
                                        layout=widgets.Layout(width="auto"))
        self.abilities = AbilityPicker("aq-hero-abilities", changed)
        self.error = ErrorMessage("aq-error", "aq-error-hero")
        self.preset.observe(lambda _c: self._picked(), "value")
        self.name.observe(lambda _c: self._edited(), "value")
        for box in (self.dazed, self.flanked):
            box.observe(lambda _c: self._edited(), "value")
        self.widget = widgets.VBox([
            heading("Hero"), widgets.HBox([self.preset, self.name, self.note], layout=widgets.Layout(align_items="center")),
            self.values.row, self.values.provenance, widgets.HBox([self.dazed, self.flanked]),
            note("Abilities that change the dice (a preset ticks its own; point at one for its source):"),
            self.abilities.widget, self.error.widget])
        self.widget.add_class("aq-hero")
        self.use_preset("Greensleeves")

    def use_preset(self, name: str) -> None:
        """Show preset `name`: its Defense and Life, its abilities for the card's group, no Wounds taken."""
        stats = HEROES[name]
        self._quiet = True
        try:
            self.preset.value = name
            self.extra = {}
            self.values.set({"defence": stats.value.defence, "life": stats.value.life}, stats.source)
            self.values.set({"wounds": 0}, "")
            self.abilities.set(preset_abilities(name, self._group()))
            self._show_preset()
        finally:
            self._quiet = False

    def follow_group(self, group: str) -> None:
        """The card's group changed: a preset's abilities follow it unless the user ticked his own."""
        if self.preset.value != CUSTOM and not self.abilities.edited:
            self.abilities.set(preset_abilities(self.preset.value, group))

    def _picked(self) -> None:
        if self._quiet:
            return
        if self.preset.value != CUSTOM:
            self.use_preset(self.preset.value)
        self._show_preset()
        self._changed()

    def _edited(self) -> None:
        if not self._quiet:
            self._changed()

    def _show_preset(self) -> None:
        custom = self.preset.value == CUSTOM
        self.name.layout.display = None if custom else "none"
        self.note.value = _note("your own hero: name him and set every value" if custom
                                else HEROES[self.preset.value].value.note)

    def load(self, raw: Mapping[str, Any], hero: Hero) -> None:
        """Show a hero read from a scenario (`raw` is its ``hero`` object, `hero` as the reader made it)."""
        preset = match_preset(raw.get("preset"), HEROES)
        self._quiet = True
        try:
            self.preset.value = preset or CUSTOM
            if preset is None:
                self.name.value = hero.name
            self.extra = {"name": raw["name"]} if preset and "name" in raw else {}
            given = {key: FROM_SCENARIO if preset is None or key in raw else HEROES[preset].source
                     for key in ("defence", "life")}
            self.values.set({"defence": hero.defence, "life": hero.life}, given)
            self.values.set({k: getattr(hero, k) for k in ("wounds", "rerolls")},
                            {k: FROM_SCENARIO if k in raw else "" for k in ("wounds", "rerolls")})
            self.dazed.value, self.flanked.value = hero.dazed, hero.flanked
            self.abilities.set(hero.abilities, edited="abilities" in raw)
            self._show_preset()
        finally:
            self._quiet = False

    def to_dict(self) -> dict[str, Any]:
        """The hero in scenario form, values as typed (a bad entry stays text; the resolver names it)."""
        who = {"preset": self.preset.value} if self.preset.value != CUSTOM else {"name": self.name.value or "Hero"}
        return {**who, **self.extra, **self.values.values(), "abilities": list(self.abilities.value),
                "dazed": self.dazed.value, "flanked": self.flanked.value}


class CardEditor:
    """The Attack card: preset, dice, melee or ranged, group, the Defense dice it adds, and its reach.

    Args:
        changed: called after every change by the user.
        on_group: called with the new group when it changes (the hero's abilities may follow).
    """

    def __init__(self, changed: Callable[[], None], on_group: Callable[[str], None]) -> None:
        self._changed, self._on_group, self._quiet = changed, on_group, False
        self.extra: dict[str, Any] = {}
        """Keys of a loaded card with no input here (the ``name`` of a preset card)."""
        self.preset = widgets.Dropdown(options=[*((n, n) for n in ATTACK_CARDS), ("custom card", CUSTOM)], value="Slingshot",
                                       description="Attack card", style={"description_width": "initial"},
                                       layout=widgets.Layout(width="250px"))
        self.preset.add_class("aq-card-preset")
        self.name = widgets.Text("Attack card", description="name",
                                 layout=widgets.Layout(width="200px", display="none"))
        self.note = widgets.HTML()
        self.kind = widgets.Dropdown(options=list(KINDS), description="", layout=widgets.Layout(width="90px"),
                                     tooltip="melee: melee-hit faces score; ranged: ranged-hit faces score (AQ-RB p.9)")
        self.group = widgets.Dropdown(options=list(CARD_GROUPS), description="group",
                                      style={"description_width": "initial"}, layout=widgets.Layout(width="130px"))
        self.group.observe(lambda _c: self._group_changed(), "value")  # before the row's: abilities follow first
        self.values = ValueBoxes([
            Box("dice", "attack dice", "dice", "black Attack dice: a whole number, 0 or more", "130px"),
            Box("defence_bonus", "Defense dice it adds", "Defense bonus",
                "Defense dice the card adds to its owner, exhausted or not (INF-RB p.16)", "170px"),
        ], "aq-card", changed, {"kind": (self.kind, "type"), "group": (self.group, "group")})
        self.values.row.children = [self.values[k] for k in ("dice", "kind", "group", "defence_bonus")]
        self.also_targets_close = widgets.Checkbox(
            False, description="a special effect also targets a Close Monster (no Guard, p.20)", indent=False,
            layout=widgets.Layout(width="auto"))
        self.also_targets_close.add_class("aq-also-targets-close")
        self.error = ErrorMessage("aq-error", "aq-error-card")
        self.preset.observe(lambda _c: self._picked(), "value")
        for w in (self.name, self.also_targets_close):
            w.observe(lambda _c: self._edited(), "value")
        self.widget = widgets.VBox([
            heading("Attack card"),
            widgets.HBox([self.preset, self.name, self.note], layout=widgets.Layout(align_items="center")),
            self.values.row, self.values.provenance, self.also_targets_close, self.error.widget])
        self.widget.add_class("aq-card")
        self.use_preset("Slingshot")

    def use_preset(self, name: str) -> None:
        """Show card preset `name` (its values fan-collected)."""
        card = ATTACK_CARDS[name]
        self._quiet = True
        try:
            self.preset.value = name
            self.extra = {}
            self.values.set({"dice": card.value.dice, "kind": card.value.kind, "group": card.value.group,
                             "defence_bonus": card.value.defence_bonus}, card.source)
            self._show_preset()
        finally:
            self._quiet = False

    def _picked(self) -> None:
        if self._quiet:
            return
        if self.preset.value != CUSTOM:
            self.use_preset(self.preset.value)
            self._on_group(self.group.value)
        self._show_preset()
        self._changed()

    def _group_changed(self) -> None:
        if not self._quiet:
            self._on_group(self.group.value)

    def _edited(self) -> None:
        if not self._quiet:
            self._changed()

    def _show_preset(self) -> None:
        custom = self.preset.value == CUSTOM
        self.name.layout.display = None if custom else "none"
        self.note.value = _note("your own card: name it and set every value" if custom
                                else ATTACK_CARDS[self.preset.value].value.note)

    def load(self, raw: Mapping[str, Any], card: AttackCard, also_targets_close: bool) -> None:
        """Show a card read from a scenario (`raw` is its ``attack`` object)."""
        preset = match_preset(raw.get("card"), ATTACK_CARDS)
        keys = ("dice", "kind", "group", "defence_bonus")
        self._quiet = True
        try:
            self.preset.value = preset or CUSTOM
            if preset is None:
                self.name.value = card.name
            self.extra = {"name": raw["name"]} if preset and "name" in raw else {}
            self.values.set({k: getattr(card, k) for k in keys},
                            {k: FROM_SCENARIO if preset is None or k in raw else ATTACK_CARDS[preset].source
                             for k in keys})
            self.also_targets_close.value = also_targets_close
            self._show_preset()
        finally:
            self._quiet = False

    def to_dict(self) -> dict[str, Any]:
        """The card in scenario form (the ``attack`` object), values as typed."""
        who = {"card": self.preset.value} if self.preset.value != CUSTOM else {"name": self.name.value or "Attack card"}
        return {**who, **self.extra, **self.values.values(), "also_targets_close": self.also_targets_close.value}
