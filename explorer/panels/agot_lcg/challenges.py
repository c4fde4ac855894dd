"""The round's challenges in the A Game of Thrones panel: one row per declared challenge, in order.

Each row is named as the rules name a challenge, by its type and its place in the declared order
("Military challenge 1", 4.2). Its attackers are picked among the attacking player's characters
and its defenders among the other player's (`NamePicker`), or left to the rules: the best
defence, or no defender at all. The rows follow the sides' rosters (`RoundBuilder.roster_changed`):
a renamed character stays picked under its new name, a new one is offered, and a removed one that
was picked is shown as not in play, with a message beside the row, until it is unticked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

from explorer.games.agot_lcg import CHALLENGE_TYPES, challenge_title
from explorer.panels.agot_lcg.pickers import NamePicker
from explorer.panels.common.display import ErrorMessage, heading, note

__all__ = ["DEFENCES", "ChallengeRow", "RoundBuilder"]

PLAYERS = {"first": "first player", "second": "second player"}
"""The players' keys and their names on screen."""

DEFENCES = {"best": "best defence (the rules choose)", "none": "undefended (no defender)",
            "listed": "these defenders:"}
"""How a challenge is defended: left to the rules (no ``defenders`` key), no one (``[]``), or the picked."""

Roster = Callable[[str], list[tuple[str, tuple[str, ...]]]]
"""A player's key -> each of that player's characters now: its name and its challenge icons."""


def _other(key: str) -> str:
    return "second" if key == "first" else "first"


class ChallengeRow:
    """One declared challenge: who attacks, the type, the attackers and how it is defended.

    Args:
        data: the challenge as the scenario writes it (names of attackers and defenders).
        number: its place in the declared order, from 1.
        roster: the names of each player's characters now.
        changed: called after every change the user makes.
        remove: called with the row when its remove button is pressed.
    """

    def __init__(self, data: Mapping[str, Any], number: int, roster: Roster, changed: Callable[[], None],
                 remove: Callable[[ChallengeRow], None]) -> None:
        self.extra = {k: v for k, v in data.items() if k not in ("attacker", "type", "attackers", "defenders")}
        self._roster, self._changed, self.number = roster, changed, number
        self.title = widgets.HTML()
        self.attacker = widgets.Dropdown(options=[(label, key) for key, label in PLAYERS.items()],
                                         value=data.get("attacker", "first"), layout=widgets.Layout(width="130px"))
        self.type = widgets.Dropdown(options=list(CHALLENGE_TYPES), value=data.get("type", "military"),
                                     layout=widgets.Layout(width="100px"))
        self.attackers = NamePicker(data.get("attackers", []), self._picked)
        defenders = data.get("defenders", "best")
        mode = "best" if defenders == "best" else "listed" if defenders else "none"
        self.defence = widgets.Dropdown(options=[(label, key) for key, label in DEFENCES.items()], value=mode,
                                        layout=widgets.Layout(width="220px"))
        self.defenders = NamePicker([] if mode != "listed" else defenders, self._picked)
        self.remove = widgets.Button(icon="trash", layout=widgets.Layout(width="34px"))
        self.remove.on_click(lambda _b: remove(self))
        self.error = ErrorMessage("agot-error", "agot-error-challenge")
        self.attacker.observe(lambda _c: self._new_attacker(), "value")
        self.type.observe(lambda _c: self._new_defence(), "value")
        self.defence.observe(lambda _c: self._new_defence(), "value")
        self._who = widgets.HTML()
        self.widget = widgets.VBox([
            widgets.HBox([self.title, self.attacker, self.type, self.remove],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            widgets.HBox([self._who, self.attackers.widget], layout=widgets.Layout(align_items="center")),
            widgets.HBox([self.defence], layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.defenders.widget, self.error.widget])
        self.widget.add_class("agot-challenge")
        self.offer()

    @property
    def name(self) -> str:
        """The challenge as the rules name it: "Military challenge 1"."""
        return challenge_title(self.type.value, self.number)

    def offer(self) -> None:
        """Offer the characters of each player that have the challenge's icon (4.2); say beside the row which
        picked ones may not take part any more."""
        attacker, listed = self.attacker.value, self.defence.value == "listed"
        lines = self._offer(self.attackers, attacker, "attack")
        lines += self._offer(self.defenders, _other(attacker), "defend") if listed else []
        if not listed:
            self.defenders.offer([])
        self.defenders.widget.layout.display = "" if listed else "none"
        self._retitle()
        if lines:
            self.error.show("; ".join(lines) + ": untick it, or pick again")
        else:
            self.error.clear()

    def _offer(self, picker: NamePicker, key: str, role: str) -> list[str]:
        """Offer player `key`'s characters with the icon; the lines saying why a pick is not on offer."""
        kind = self.type.value
        characters = self._roster(key)
        why = {name: f"no {kind} icon" for name, icons in characters if kind not in icons}
        picker.offer([name for name, icons in characters if kind in icons], why)
        return [f"{name or '(no name)'} has no {kind} icon and cannot {role} in a {kind} challenge (4.2)"
                if name in why else f"{name or '(no name)'} is not one of the {PLAYERS[key]}'s characters "
                "(renamed or removed?)" for name in picker.missing()]

    def renumber(self, number: int) -> None:
        """The row's new place in the declared order."""
        self.number = number
        self._retitle()

    def rename(self, key: str, old: str, new: str) -> None:
        """Player `key` renamed a character: a pick of it follows (call `offer` next)."""
        (self.attackers if key == self.attacker.value else self.defenders).rename(old, new)

    def _retitle(self) -> None:
        name = self.name
        self.title.value = f"<b>{name}</b>"
        self.attacker.tooltip = f"{name}: attacking player"
        self.type.tooltip = f"{name}: challenge type (military, intrigue or power)"
        self.defence.tooltip = f"{name}: defence"
        self.remove.tooltip = f"remove {name}"
        self._who.value = "attackers:"
        self.attackers.describe(f"{name}, attackers")
        self.defenders.describe(f"{name}, defenders")

    def _new_attacker(self) -> None:
        self.attackers.clear()  # the picks were the other player's characters
        self.defenders.clear()
        self.offer()
        self._changed()

    def _picked(self) -> None:  # the message beside the row follows an unticked pick
        self.offer()
        self._changed()

    def _new_defence(self) -> None:  # or a new type: other characters have its icon
        self.offer()
        self._changed()

    def to_dict(self) -> dict[str, Any]:
        """The challenge as the scenario writes it."""
        out: dict[str, Any] = {"attacker": self.attacker.value, "type": self.type.value,
                               "attackers": self.attackers.value}
        if self.defence.value != "best":
            out["defenders"] = self.defenders.value if self.defence.value == "listed" else []
        return out | self.extra


class RoundBuilder:
    """The challenges of the round, in the order declared (the first player's first).

    Args:
        changed: called after every change (and resolves).
        roster: the names of each player's characters now.
    """

    def __init__(self, changed: Callable[[], None], roster: Roster) -> None:
        self._changed = changed
        self._roster = roster
        self._quiet = False
        self.rows: list[ChallengeRow] = []
        self.list = widgets.VBox([])
        self.error = ErrorMessage("agot-error", "agot-error-challenges")
        self.add = widgets.Button(description="add challenge", icon="plus", layout=widgets.Layout(width="150px"),
                                  tooltip="add a challenge after the last one")
        self.add.add_class("agot-add-challenge")
        self.add.on_click(lambda _b: self.add_challenge({"attacker": "first", "type": "power", "attackers": []}))
        self.widget = widgets.VBox([
            heading("Challenges, in the order declared"),
            note("Each challenge: the attacking player, the type, the attackers (ticked among that player's "
                 "characters) and the defence (the best defence the rules find, none, or the defenders ticked). "
                 "One of each type per player; the first player makes all theirs first (4.2)."),
            self.list, self.add, self.error.widget])
        self.widget.add_class("agot-round-builder")

    def _notify(self) -> None:
        if not self._quiet:
            self._changed()

    def _row(self, data: Mapping[str, Any], number: int) -> ChallengeRow:
        return ChallengeRow(data, number, self._roster, self._notify, self.remove_challenge)

    def _show(self) -> None:
        for number, row in enumerate(self.rows, 1):
            row.renumber(number)
        self.list.children = [r.widget for r in self.rows]

    def add_challenge(self, data: Mapping[str, Any]) -> ChallengeRow:
        """Add a challenge row (and resolve)."""
        row = self._row(data, len(self.rows) + 1)
        self.rows.append(row)
        self._show()
        self._notify()
        return row

    def remove_challenge(self, row: ChallengeRow) -> None:
        """Take a challenge away (and resolve)."""
        self.rows.remove(row)
        self._show()
        self._notify()

    def roster_changed(self, key: str, renamed: tuple[str, str] | None = None) -> None:
        """Player `key`'s characters changed (`renamed`: a character's old and new name): every row follows
        (`explorer.panels.agot_lcg.board.SideEditor.watch`)."""
        for row in self.rows:
            if renamed is not None:
                row.rename(key, *renamed)
            row.offer()

    def to_list(self) -> list[dict[str, Any]]:
        """The challenges as the scenario lists them."""
        return [r.to_dict() for r in self.rows]

    def load(self, items: list[Mapping[str, Any]]) -> None:
        """Replace the challenges (no resolve)."""
        self._quiet = True
        try:
            self.rows = [self._row(item, number) for number, item in enumerate(items, 1)]
            self._show()
        finally:
            self._quiet = False
