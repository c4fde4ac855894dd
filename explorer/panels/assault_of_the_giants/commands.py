"""Command-row builder: place Command Cards left to right and see what each position gives."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

import ipywidgets as widgets

from explorer.games.assault_of_the_giants import COMMAND_CARDS, modifiers_from_commands
from explorer.panels.assault_of_the_giants.words import explain
from explorer.panels.common.display import heading, note

__all__ = ["CommandRow", "describe_row"]


def describe_row(commands: Sequence[str], attacker: bool, giantslayers: bool = False) -> str:
    """What the row gives in battle, in the rulebook's terms (p.16).

    >>> describe_row(["Leader", "Move", "Attack"], attacker=True)
    'Leader: 2 rerolls (cards to its right) · Attack: 2 arcane → 2 hits each (cards to its left)'
    >>> describe_row(["Attack", "Rest"], attacker=True, giantslayers=True)
    'Attack: no bonus in a giantslayer attack, a Rest Command action (p.17) · Rest: 1 Giantslayer Action (cards to its left), 1 per attacking giantslayer (p.18)'
    """
    mods = modifiers_from_commands(commands, attacker=attacker and not giantslayers)
    row = [c.lower() for c in commands]
    parts = []
    if "leader" in row:
        parts.append(f"Leader: {mods.rerolls} reroll{'s' * (mods.rerolls != 1)} (cards to its right)")
    if "magic" in row:
        parts.append(f"Magic: {mods.arcane_to_blocks} arcane → block (cards to its right)")
    if "attack" in row:
        if attacker and giantslayers:
            parts.append("Attack: no bonus in a giantslayer attack, a Rest Command action (p.17)")
        elif attacker:
            parts.append(f"Attack: {mods.arcane_to_hits} arcane → 2 hits each (cards to its left)")
        else:
            parts.append("Attack: no conversion for the defender (p.17)")
    if attacker and giantslayers:
        actions = row.index("rest") if "rest" in row else None
        parts.append("no Rest in the row: the Giantslayer Actions are not checked (p.18)" if actions is None else
                     f"Rest: {actions} Giantslayer Action{'s' * (actions != 1)} (cards to its left), 1 per "
                     "attacking giantslayer (p.18)")
    return " · ".join(parts) if parts else "no Leader, Magic or Attack Command in the row: no reroll, no conversion"


class CommandRow:
    """A side's face-up row of Command Cards, left to right, editable.

    Args:
        role: ``"attacker"`` or ``"defender"``.
        commands: the starting row.
        changed: called after every change.
    """

    def __init__(self, role: str, commands: Sequence[str], changed: Callable[[], None]) -> None:
        self.role = role
        self.commands = list(commands)
        self._changed = changed
        self.enabled = True
        """False while the side is NPC giants: the row is kept but plays no part (p.20)."""
        self.giantslayers = False
        """True while the attacker's giantslayers attack (a Rest Command action: no Attack bonus, p.17)."""
        self.cards = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.pick = widgets.Dropdown(layout=widgets.Layout(width="120px"),
                                     tooltip=f"{role.title()}: Command Card to play")
        self.play = widgets.Button(description="Play card", icon="plus", layout=widgets.Layout(width="100px"),
                                   tooltip=f"play the chosen card in the {role}'s row: a card is played at the "
                                           "right end of the row (p.10)")
        self.play.add_class("aotg-cmd-play")
        self.summary = widgets.HTML()
        self.summary.add_class(f"aotg-cmd-summary-{role}")
        self.play.on_click(lambda _b: self._play())
        self.widget = widgets.VBox([
            heading(f"{role.title()} Command row (left to right)"), self.cards,
            widgets.HBox([self.pick, self.play]), self.summary,
            note("Leader and Magic count the cards to their right, Attack the cards to its left (p.16). "
                 + ("The Attack Command starts this battle, so it stays the last card (p.17)." if role == "attacker" else "")),
        ])
        self.widget.add_class(f"aotg-commands-{role}")
        self._refresh(notify=False)

    def _card(self, index: int, name: str) -> widgets.Widget:
        label = widgets.HTML(f'<div style="padding:2px 6px;border:1px solid #aab;border-radius:4px;'
                             f'background:#f4f6f8">{html.escape(name)}</div>')
        buttons = []
        card = f"the {self.role}'s {name}"
        for icon, action, tip in (("chevron-left", "left", f"move {card} one place left"),
                                  ("chevron-right", "right", f"move {card} one place right"),
                                  ("times", "remove", f"take {card} back into hand")):
            button = widgets.Button(icon=icon, tooltip=tip, layout=widgets.Layout(width="28px", padding="0"))
            button.add_class(f"aotg-cmd-{action}")
            button.disabled = ((action == "left" and index == 0) or (action == "right" and index == len(self.commands) - 1)
                               or (action != "remove" and self._pinned(index + (action == "right"))))
            button.on_click(lambda _b, a=action: self.move(index, a))
            buttons.append(button)
        return widgets.HBox([buttons[0], label, buttons[1], buttons[2]],
                            layout=widgets.Layout(margin="0 8px 4px 0", align_items="center"))

    def _pinned(self, index: int) -> bool:
        """True if card `index` is the attacker's Attack Command, which stays last in a giant's battle (p.17)."""
        return (self.role == "attacker" and not self.giantslayers and 0 <= index < len(self.commands)
                and self.commands[index].strip().lower() == "attack")

    def move(self, index: int, action: str) -> None:
        """Move card `index` one place ``"left"`` / ``"right"``, or ``"remove"`` it."""
        row = self.commands
        if action == "remove":
            row.pop(index)
        elif action == "left" and index > 0:
            row[index - 1], row[index] = row[index], row[index - 1]
        elif action == "right" and index < len(row) - 1:
            row[index + 1], row[index] = row[index], row[index + 1]
        else:
            return
        self._refresh()

    def set_commands(self, commands: Sequence[str]) -> None:
        """Replace the whole row."""
        self.commands = list(commands)
        self._refresh()

    def _play(self) -> None:
        if self.pick.value and self.enabled:
            last = len(self.commands) - 1
            # The Attack Command is the card just played for this battle: others go to its left (p.17).
            self.commands.insert(last if self._pinned(last) else last + 1, self.pick.value)
            self._refresh()

    def _refresh(self, notify: bool = True) -> None:
        self.cards.children = [self._card(i, c) for i, c in enumerate(self.commands)]
        in_hand = [c for c in COMMAND_CARDS if c not in self.commands]
        self.pick.options = in_hand
        self.pick.value = in_hand[0] if in_hand else None
        self.play.disabled = not in_hand or not self.enabled
        if not self.enabled:
            for box in self.cards.children:
                for w in box.children:
                    if isinstance(w, widgets.Button):
                        w.disabled = True
        self.summary.value = (html.escape(describe_row(self.commands, self.role == "attacker", self.giantslayers))
                              if self.enabled else
                              explain("NPC giants: no Command Cards; up to 2 rerolls and 2 arcane → block (p.20). "
                                      "The row is kept for when NPC is unticked."))
        if notify:
            self._changed()

    def set_giantslayers(self, giantslayers: bool) -> None:
        """Giantslayers attack by a Rest Command action: the row's Attack bonus does not apply (p.17)."""
        self.giantslayers = giantslayers
        self._refresh(notify=False)

    def set_enabled(self, enabled: bool) -> None:
        """NPC giants have no Command Cards (their limits are fixed, p.20): the row is kept, disabled."""
        self.enabled = enabled
        self._refresh(notify=False)
