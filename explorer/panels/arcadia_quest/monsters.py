"""The target Monster and the Monsters Close to the hero (Guard): presets, editable values, sources.

* **Target**: a preset sets every value of its card (fan-collected; Schmetterling partly the
  rulebook's) and its abilities; the Wounds already on it and other Guilds' tokens go back to 0.
  Its conditions (Dazed, flanked), whether it is Close to the hero and whether its Payback can
  reach him are kept.
* **Close Monsters**: add one from a preset, edit its attack dice, melee or ranged, reroll pool,
  or remove it. Its other values (Life, abilities, ...) stay as the preset or the loaded scenario
  gave them: only its attack matters to the hero here.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import KINDS, MONSTERS, Monster, monster_dict
from explorer.panels.arcadia_quest.hero import CUSTOM, match_preset
from explorer.panels.arcadia_quest.values import FROM_SCENARIO, YOURS, AbilityPicker, Box, ValueBoxes
from explorer.panels.common.display import ErrorMessage, badge, heading, note
from explorer.panels.common.number_box import NumberText

__all__ = ["CloseMonsterRow", "CloseMonsters", "TargetEditor", "read_overkill"]

_NO_OVERKILL = ("", "none", "-")
_CARD_KEYS = ("attack", "kind", "defence", "rerolls", "life", "overkill", "reward", "villain")


def read_overkill(value: Any) -> Any:
    """An Overkill box's value for the scenario: None (no rating) for an empty box, else as typed.

    >>> read_overkill(""), read_overkill(" none "), read_overkill(6), read_overkill("2.5")
    (None, None, 6, '2.5')
    """
    return None if isinstance(value, str) and value.strip().lower() in _NO_OVERKILL else value


def _note(text: str) -> str:
    return f'<span style="color:#5d6d7e;font-size:85%">{html.escape(text)}</span>' if text else ""


class TargetEditor:
    """The Monster the hero attacks: its card, its state, and where it stands.

    Args:
        changed: called after every change by the user.
    """

    def __init__(self, changed: Callable[[], None]) -> None:
        self._changed, self._quiet = changed, False
        self.extra: dict[str, Any] = {}
        """Keys of a loaded target with no input here (``movement``, the ``name`` of a preset), kept."""
        self.preset = widgets.Dropdown(options=[*((n, n) for n in MONSTERS), ("custom Monster", CUSTOM)], value="Hammer Beastman",
                                       description="Target", style={"description_width": "initial"},
                                       layout=widgets.Layout(width="250px"))
        self.preset.add_class("aq-monster-preset")
        self.name = widgets.Text("Monster", description="name", layout=widgets.Layout(width="200px", display="none"))
        self.note = widgets.HTML()
        self.kind = widgets.Dropdown(options=list(KINDS), layout=widgets.Layout(width="90px"))
        self.villain = widgets.Checkbox(False, description="Villain", indent=False, layout=widgets.Layout(width="80px"))
        self.values = ValueBoxes([
            Box("attack", "attack dice", "attack", "its black Attack dice: a whole number, 0 or more", "130px"),
            Box("defence", "Defense", "Defense", "white Defense dice (most Monsters have none)"),
            Box("rerolls", "reroll pool", "rerolls", "its Reroll value (its attack and Defense rolls)", "140px"),
            Box("life", "Life", "Life", "Life: a whole number, 1 or more", "100px"),
            Box("wounds", "Wounds on it", "Wounds", "Wounds already on it before this attack: 0 up to Life - 1",
                "150px"),
            Box("overkill", "Overkill", "Overkill", "Overkill: at least its Life; leave empty for none (Lord Fang)",
                "120px"),
            Box("reward", "Reward", "Reward", "coins to the Guild that kills it", "110px"),
        ], "aq-monster", changed, {"kind": (self.kind, "type"), "villain": (self.villain, "Villain")})
        self.values.row.children = [self.values[k] for k in ("attack", "kind", "defence", "rerolls", "life", "wounds",
                                                             "overkill", "reward", "villain")]
        self.tokens = NumberText(0, description="other Guilds' tokens on it", style={"description_width": "initial"},
                                 tooltip="other Guilds that wounded this Villain earlier (each is paid its Reward if "
                                         "it dies, AQ-RB p.12)", layout=widgets.Layout(width="230px"))
        self.tokens.add_class("aq-monster-tokens")
        self.dazed = widgets.Checkbox(False, description="Dazed (no Defense dice)", indent=False,
                                      layout=widgets.Layout(width="auto"))
        self.flanked = widgets.Checkbox(False, description="flanked (another enemy Close to it)", indent=False,
                                        layout=widgets.Layout(width="auto"))
        self.reaches = widgets.Checkbox(True, description="it can reach the hero for its Payback", indent=False,
                                        layout=widgets.Layout(width="auto"))
        self.reaches.add_class("aq-reaches")
        self.close = widgets.Checkbox(False, description="it is Close to the hero (attacking it: no Guard)",
                                      indent=False, layout=widgets.Layout(width="auto"))
        self.close.add_class("aq-target-close")
        self.abilities = AbilityPicker("aq-monster-abilities", changed)
        self.error = ErrorMessage("aq-error", "aq-error-monster")
        self.preset.observe(lambda _c: self._picked(), "value")
        for w in (self.name, self.tokens, self.dazed, self.flanked, self.reaches, self.close):
            w.observe(lambda _c: self._edited(), "value")
        self.widget = widgets.VBox([
            heading("Target Monster"),
            widgets.HBox([self.preset, self.name, self.note], layout=widgets.Layout(align_items="center")),
            self.values.row, self.values.provenance, widgets.HBox([self.reaches, self.close]),
            widgets.HBox([self.tokens, self.dazed, self.flanked]),
            note("Its abilities (a preset ticks its own; point at one for its source):"),
            self.abilities.widget, self.error.widget])
        self.widget.add_class("aq-monster")
        self.use_preset("Hammer Beastman")

    def use_preset(self, name: str) -> None:
        """Show Monster preset `name`: its card's values and abilities, no Wounds, no tokens."""
        stats = MONSTERS[name]
        card = stats.value
        self._quiet = True
        try:
            self.preset.value = name
            self.extra = {}
            self.values.set({"attack": card.attack, "kind": card.kind, "defence": card.defence, "rerolls": card.rerolls,
                             "life": card.life, "overkill": card.overkill, "reward": card.reward,
                             "villain": card.villain}, stats.source)
            self.values.set({"wounds": 0}, "")
            self.tokens.value = 0
            self.abilities.set(card.abilities)
            self._show_preset()
        finally:
            self._quiet = False

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
        self.note.value = _note("your own Monster: name it and set every value" if custom
                                else MONSTERS[self.preset.value].value.note)

    def load(self, raw: Mapping[str, Any], monster: Monster, *, close: bool, reaches: bool, tokens: int) -> None:
        """Show a target read from a scenario (`raw` is its ``target`` object)."""
        preset = match_preset(raw.get("preset"), MONSTERS)
        self._quiet = True
        try:
            self.preset.value = preset or CUSTOM
            if preset is None:
                self.name.value = monster.name
            self.extra = {k: raw[k] for k in ("movement", "name") if k in raw and (k != "name" or preset)}
            given = {key: FROM_SCENARIO if preset is None or ("attack" if key == "kind" else key) in raw
                     else MONSTERS[preset].source for key in _CARD_KEYS}
            self.values.set({"attack": monster.attack, "kind": monster.kind, "defence": monster.defence,
                             "rerolls": monster.rerolls, "life": monster.life, "overkill": monster.overkill,
                             "reward": monster.reward, "villain": monster.villain}, given)
            self.values.set({"wounds": monster.wounds}, FROM_SCENARIO if "wounds" in raw else "")
            self.tokens.value = tokens
            self.dazed.value, self.flanked.value = monster.dazed, monster.flanked
            self.reaches.value, self.close.value = reaches, close
            self.abilities.set(monster.abilities, edited="abilities" in raw)
            self._show_preset()
        finally:
            self._quiet = False

    def to_dict(self) -> dict[str, Any]:
        """The target in scenario form (the ``target`` object), values as typed."""
        v = self.values.values()
        who = {"preset": self.preset.value} if self.preset.value != CUSTOM else {"name": self.name.value or "Monster"}
        return {**who, **self.extra, "attack": {"dice": v["attack"], "kind": v["kind"]},
                **{k: v[k] for k in ("life", "wounds", "defence", "rerolls", "reward", "villain")},
                "overkill": read_overkill(v["overkill"]), "abilities": list(self.abilities.value),
                "dazed": self.dazed.value, "flanked": self.flanked.value, "close": self.close.value,
                "reaches": self.reaches.value, "other_guild_tokens": self.tokens.value}


class CloseMonsterRow:
    """One Monster Close to the hero: its attack (dice, melee or ranged, reroll pool) is editable.

    Args:
        base: the Monster in scenario form (a preset name, or every value of a loaded one).
        name: the name shown.
        attack, kind, rerolls, abilities: its attack as it starts.
        source: where its values come from.
        changed: called after every edit; remove: called with this row when its button is clicked.
    """

    def __init__(self, base: dict[str, Any], name: str, attack: int, kind: str, rerolls: int,
                 abilities: tuple[str, ...], source: str, changed: Callable[[], None],
                 remove: Callable[[CloseMonsterRow], None]) -> None:
        self.base = {k: v for k, v in base.items() if k not in ("attack", "rerolls")}
        self.source = source
        self.label = widgets.HTML(layout=widgets.Layout(width="150px"))
        self.attack = NumberText(attack, description="dice", tooltip="its black Attack dice",
                                 style={"description_width": "initial"}, layout=widgets.Layout(width="80px"))
        self.attack.add_class("aq-close-attack")
        self.kind = widgets.Dropdown(options=list(KINDS), value=kind, layout=widgets.Layout(width="90px"))
        self.rerolls = NumberText(rerolls, description="rerolls", tooltip="its reroll pool",
                                  style={"description_width": "initial"}, layout=widgets.Layout(width="95px"))
        self.remove = widgets.Button(icon="trash", tooltip="remove this Monster", layout=widgets.Layout(width="34px"))
        self.remove.add_class("aq-close-remove")
        self.remove.on_click(lambda _b: remove(self))
        self.name, self._abilities = name, abilities
        for w in (self.attack, self.kind, self.rerolls):
            w.observe(lambda _c: self._edited(changed), "value")
        self._show()
        self.box = widgets.HBox([self.label, self.attack, self.kind, self.rerolls, self.remove],
                                layout=widgets.Layout(align_items="center"))
        self.box.add_class("aq-close-row")

    def _edited(self, changed: Callable[[], None]) -> None:
        self.source = YOURS
        self._show()
        changed()

    def _show(self) -> None:
        able = f" · {', '.join(self._abilities)}" if self._abilities else ""
        self.label.value = (f"<span title='{html.escape(self.source)}'><b>{html.escape(self.name)}</b>"
                            f"<span style='font-size:80%'>{html.escape(able)}</span> {badge(self.source)}</span>")

    def to_dict(self) -> dict[str, Any]:
        """The Monster in scenario form, its attack as typed."""
        return {**self.base, "attack": {"dice": self.attack.value, "kind": self.kind.value}, "rerolls": self.rerolls.value}


class CloseMonsters:
    """The Monsters Close to the hero, in the order they make their Guard attacks.

    Args:
        changed: called after every change.
    """

    def __init__(self, changed: Callable[[], None]) -> None:
        self._changed = changed
        self.rows: list[CloseMonsterRow] = []
        self.box = widgets.VBox()
        self.pick = widgets.Dropdown(options=list(MONSTERS), value="Orc Marauder", layout=widgets.Layout(width="190px"))
        self.add = widgets.Button(description="Add Close Monster", icon="plus", layout=widgets.Layout(width="170px"))
        self.add.add_class("aq-add-close")
        self.add.on_click(lambda _b: self.add_preset(self.pick.value))
        self.guard = widgets.HTML()
        self.guard.add_class("aq-guard-note")
        self.error = ErrorMessage("aq-error", "aq-error-close")
        self.widget = widgets.VBox([
            heading("Monsters Close to the hero (Guard)"),
            note("If his attack targets none of them, each attacks him after the Payback, in this order (printed p.20)."),
            self.box, widgets.HBox([self.pick, self.add]), self.guard, self.error.widget])
        self.widget.add_class("aq-close")

    def add_preset(self, name: str, notify: bool = True) -> None:
        """Add a Monster preset at the end of the list."""
        stats = MONSTERS[name]
        card = stats.value
        self.rows.append(CloseMonsterRow({"preset": name}, name, card.attack, card.kind, card.rerolls, card.abilities,
                                         stats.source, self._changed, self._remove))
        self._show(notify)

    def _remove(self, row: CloseMonsterRow) -> None:
        self.rows.remove(row)
        self._show()

    def _show(self, notify: bool = True) -> None:
        self.box.children = [row.box for row in self.rows]
        if notify:
            self._changed()

    def load(self, raws: list[Any], monsters: tuple[Monster, ...]) -> None:
        """Show the Close Monsters of a scenario (no `changed` call)."""
        self.rows = []
        for raw, monster in zip(raws, monsters):
            base = monster_dict(monster)
            if match_preset(raw.get("preset"), MONSTERS) and "name" not in raw:
                base = {"preset": match_preset(raw["preset"], MONSTERS),
                        **{k: v for k, v in base.items() if k in raw and k != "preset"}}
            self.rows.append(CloseMonsterRow(base, monster.name, monster.attack, monster.kind, monster.rerolls,
                                             monster.abilities, FROM_SCENARIO, self._changed, self._remove))
        self._show(notify=False)

    def to_list(self) -> list[dict[str, Any]]:
        """The Close Monsters in scenario form, in order."""
        return [row.to_dict() for row in self.rows]
