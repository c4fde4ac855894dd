"""The target Monster and the Monsters Close to the hero (Guard): `explorer.panels.arcadia_quest.editor` specs.

* **Target**: a preset sets every value of its card (fan-collected; Schmetterling partly the
  rulebook's) and its abilities; the Wounds already on it and other Guilds' tokens go back to 0.
  Its conditions (Dazed, flanked), whether it is Close to the hero and whether its Payback can
  reach him are kept. It is offered the abilities some Monster card has (`MONSTER_ABILITIES`),
  no hero's; one a loaded scenario gives it besides (Bow Mastery, say) keeps its meaning and
  shows while ticked, marked as not a Monster's.
* **Close Monsters**: add one from a preset, edit its attack dice, melee or ranged, reroll pool,
  or remove it. Its other values (Life, abilities, ...) stay as the preset or the loaded scenario
  gave them: only its attack matters to the hero here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.arcadia_quest import MONSTERS, Monster, monster_dict
from explorer.panels.arcadia_quest.editor import Editor, Field, Row, Section, Spec, kept
from explorer.panels.arcadia_quest.values import MONSTER_ABILITIES, numbered
from explorer.panels.common.display import ErrorMessage, heading, note

__all__ = ["CLOSE", "MONSTER_ABILITIES", "TARGET", "CloseMonsterRow", "CloseMonsters", "TargetEditor",
           "read_overkill"]

_NO_OVERKILL = ("", "none", "-")


def read_overkill(value: Any) -> Any:
    """An Overkill box's value for the scenario: None (no rating) for an empty box, else as typed.

    >>> read_overkill(""), read_overkill(" none "), read_overkill(6), read_overkill("2.5")
    (None, None, 6, '2.5')
    """
    return None if isinstance(value, str) and value.strip().lower() in _NO_OVERKILL else value


TARGET = Spec(
    css="aq-monster", presets=MONSTERS,
    fields=(
        Field("attack", "attack dice", "its black Attack dice: a whole number, 0 or more", "130px", short="attack",
              path=("attack", "dice"), preset="card"),
        Field("kind", input="kind", short="type", path=("attack", "kind"), preset="card"),
        Field("defence", "Defense", "white Defense dice; most Monsters have none", short="Defense", preset="card"),
        Field("rerolls", "reroll pool", "its Reroll value, for its attack and Defense rolls", "140px", short="rerolls",
              preset="card"),
        Field("life", "Life", "a whole number, 1 or more", "100px", short="Life", preset="card"),
        Field("wounds", "Wounds on it", "already on it before this attack: 0 up to Life - 1", "150px",
              short="Wounds", preset="reset"),
        Field("overkill", "Overkill", "at least its Life; leave empty for none (Lord Fang)", "120px",
              short="Overkill", preset="card", write=read_overkill),
        Field("reward", "Reward", "coins to the Guild that kills it", "110px", short="Reward", preset="card"),
        Field("villain", "Villain", input="check", width="80px", short="Villain", preset="card"),
        Field("reaches", "it can reach the hero for its Payback", input="check", start=True, css="aq-reaches"),
        Field("close", "it is Close to the hero (attacking it: no Guard)", input="check", css="aq-target-close"),
        Field("tokens", "other Guilds' tokens on it", "other Guilds that wounded this Villain earlier (each is paid "
              "its Reward if it dies, Arcadia Quest rulebook p.12)", "230px", path=("other_guild_tokens",), preset="reset"),
        Field("dazed", "Dazed (no Defense dice)", input="check", css=""),
        Field("flanked", "flanked (another enemy Close to it)", input="check", css=""),
    ),
    written=("attack", "kind", "life", "wounds", "defence", "rerolls", "reward", "villain", "overkill", "abilities",
             "dazed", "flanked", "close", "reaches", "tokens"),
    layout=Section("Target Monster", picker="Target", width="250px", first="Hammer Beastman",
                   custom="custom Monster", name="Monster", custom_note="your own Monster: name it and set every value",
                   rows=(("reaches", "close"), ("tokens", "dazed", "flanked")),
                   abilities_note="Its abilities (a preset ticks its own; point at one for its source):"),
    keep=kept("movement", "name"),
    abilities=MONSTER_ABILITIES,
)
"""The Monster the hero attacks: its card, its state, and where it stands."""


def _close_kept(raw: Mapping[str, Any], monster: Monster, preset: str | None) -> dict[str, Any]:
    """A loaded Close Monster but its attack: its preset and the keys the scenario gives, or every value."""
    base = monster_dict(monster)
    if preset and "name" not in raw:
        base = {"preset": preset, **{k: v for k, v in base.items() if k in raw and k != "preset"}}
    return {k: v for k, v in base.items() if k not in ("attack", "rerolls")}


CLOSE = Spec(
    css="aq-close", presets=MONSTERS,
    fields=(
        Field("attack", "dice", "its black Attack dice", "80px", short="attack", path=("attack", "dice"),
              preset="card"),
        Field("kind", input="kind", short="type", path=("attack", "kind"), preset="card", css=""),
        Field("rerolls", "rerolls", "its reroll pool", "95px", short="rerolls", preset="card", css=""),
    ),
    written=("attack", "kind", "rerolls"),
    layout=Row(remove="remove {name} from the Monsters Close to the hero"),
    keep=_close_kept,
    abilities=MONSTER_ABILITIES,
)
"""A Monster Close to the hero: its attack (dice, melee or ranged, reroll pool) is editable, the rest kept."""


class TargetEditor(Editor):
    """The Monster the hero attacks (`TARGET`): its card, its state, and where it stands.

    Args:
        changed: called after every change by the user.
    """

    def __init__(self, changed: Callable[[], None]) -> None:
        super().__init__(TARGET, changed)
        self.kind, self.villain, self.tokens = self["kind"], self["villain"], self["tokens"]
        self.dazed, self.flanked, self.reaches, self.close = (self[k] for k in ("dazed", "flanked", "reaches", "close"))

    def load(self, raw: Mapping[str, Any], monster: Monster, *, close: bool, reaches: bool, tokens: int) -> None:
        """Show a target read from a scenario (`raw` is its ``target`` object)."""
        self.show_loaded(raw, monster, {"close": close, "reaches": reaches, "tokens": tokens})


class CloseMonsterRow(Editor):
    """One Monster Close to the hero (`CLOSE`), shown from `use_preset` or `load`.

    Args:
        changed: called after every edit; remove: called with this row when its button is clicked.
    """

    def __init__(self, changed: Callable[[], None], remove: Callable[[CloseMonsterRow], None]) -> None:
        super().__init__(CLOSE, changed, remove=lambda _editor: remove(self))
        self.attack, self.kind, self.rerolls = self["attack"], self["kind"], self["rerolls"]

    def load(self, raw: Mapping[str, Any], monster: Monster) -> None:
        """Show a Close Monster read from a scenario (`raw` as written, `monster` as the reader made it)."""
        self.show_loaded(raw, monster)


class CloseMonsters:
    """The Monsters Close to the hero, in the order they make their Guard attacks.

    Args:
        changed: called after every change.
    """

    def __init__(self, changed: Callable[[], None]) -> None:
        self._changed = changed
        self.rows: list[CloseMonsterRow] = []
        self.box = widgets.VBox()
        self.pick = widgets.Dropdown(options=list(MONSTERS), value="Orc Marauder", layout=widgets.Layout(width="190px"),
                                     tooltip="Monster to add, Close to the hero")
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
        row = CloseMonsterRow(self._changed, self._remove)
        row.use_preset(name)
        self.rows.append(row)
        self._show(notify)

    def _remove(self, row: CloseMonsterRow) -> None:
        self.rows.remove(row)
        self._show()

    def _show(self, notify: bool = True) -> None:
        self.box.children = [row.widget for row in self.rows]
        for row, label in zip(self.rows, numbered([row.name for row in self.rows])):
            row.call(label)
        if notify:
            self._changed()

    def load(self, raws: list[Any], monsters: tuple[Monster, ...]) -> None:
        """Show the Close Monsters of a scenario (no `changed` call)."""
        self.rows = []
        for raw, monster in zip(raws, monsters):
            row = CloseMonsterRow(self._changed, self._remove)
            row.load(raw, monster)
            self.rows.append(row)
        self._show(notify=False)

    def to_list(self) -> list[dict[str, Any]]:
        """The Close Monsters in scenario form, in order."""
        return [row.to_dict() for row in self.rows]
