"""Cards in battle: the Spell and Resource Cards one side plays before final totals (pp.16-17).

The card texts are not in the pages we have, so each card is a name and number boxes for the
effects the user enters from the card ("enter from your card"). Who may play what is the core's
rule (`explorer.games.assault_of_the_giants.rules.cards`): the name box offers only the known cards the
side may play (Ore to the attacker alone, Weaponry to both, p.17), and a card typed in anyway is
refused by the resolver, its message shown beside this editor. A choice says when the cards'
rerolls are taken (scenario key ``card_rerolls``: a second round by default, p.16, or with the
Commands' rerolls). The editor keeps no rules.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets

from explorer.games.assault_of_the_giants import (
    CARD_KINDS,
    CARD_REROLLS,
    DEFAULT_DICE,
    EFFECT_LIMITS,
    ENTER_NOTE,
    KNOWN_CARDS,
    MAX_CARD_DICE,
    MAX_CARDS_PER_SIDE,
    BattleCard,
    card_to_dict,
    cards_for,
    known_card,
)
from explorer.panels.assault_of_the_giants.words import explain
from explorer.panels.common.display import ErrorMessage, heading, note
from explorer.panels.common.number_box import NumberText

__all__ = ["CardRow", "CardsEditor", "EFFECT_LABELS", "TIMING_LABELS"]

EFFECT_LABELS = {"hits": "+ hits", "blocks": "+ blocks", "rerolls": "+ rerolls",
                 "arcane_to_hits": "arcane → 2 hits", "arcane_to_blocks": "arcane → block"}
"""The number boxes of a card, in scenario-key order, with their labels."""

TIMING_LABELS = {"second round": "a second round, after the Commands' (may reroll a die again; p.16)",
                 "with commands": "with the Commands' rerolls (one round, each die once)"}
"""The choices of the scenario key ``card_rerolls``, in words (the ruling the side's card rerolls follow)."""

_WIDE = {"description_width": "initial"}


class CardRow:
    """One card played: its name and kind, a box per effect, extra dice, and a remove button.

    Args:
        card: the card as a scenario writes it (``name``, ``kind``, effects, ``dice``).
        dice: die names offered for extra dice.
        changed: called after every edit.
        remove: called with this row when its remove button is clicked.
    """

    def __init__(self, card: Mapping[str, Any], dice: Sequence[str], changed: Callable[[], None],
                 remove: Callable[[CardRow], None]) -> None:
        self.name, self.kind = str(card["name"]), str(card["kind"])
        self.effects = {key: NumberText(card.get(key, 0), description=label, style=_WIDE,
                                        tooltip=f"{self.name}: {label} ({ENTER_NOTE}: a whole number from 0 to "
                                                f"{EFFECT_LIMITS[key]})",
                                        layout=widgets.Layout(width="150px"))
                        for key, label in EFFECT_LABELS.items()}
        listed = dict(card.get("dice", {}))
        first = next(iter(listed), "basic")
        self.die = widgets.Dropdown(options=list(dict.fromkeys([*dice, first])), value=first, description="+ dice",
                                    tooltip=f"{self.name}: the kind of die it adds", style=_WIDE,
                                    layout=widgets.Layout(width="150px"))
        self.die_count = NumberText(listed.pop(first, 0), tooltip=f"{self.name}: how many dice it adds "
                                                                  f"({ENTER_NOTE}: 0 to {MAX_CARD_DICE})",
                                    layout=widgets.Layout(width="50px"))
        self.other_dice = listed
        """Dice of a loaded card beyond the first kind, kept as they were."""
        self.remove = widgets.Button(description="remove", icon="trash", tooltip=f"remove {self.name}",
                                     layout=widgets.Layout(width="90px"))
        self.remove.add_class("aotg-card-remove")
        self.remove.on_click(lambda _b: remove(self))
        for box in (*self.effects.values(), self.die, self.die_count):
            box.observe(lambda _c: changed(), "value")
        others = ", ".join(f"{n} {d}" for d, n in self.other_dice.items())
        title = widgets.HTML(f"<b>{html.escape(self.name)}</b> ({self.kind}) · effects: <i>{ENTER_NOTE}</i>"
                             + (f" · also {html.escape(others)} dice" if others else ""))
        self.box = widgets.VBox([
            widgets.HBox([title, self.remove]),
            widgets.HBox([*self.effects.values(), self.die, self.die_count], layout=widgets.Layout(flex_flow="row wrap")),
        ])
        self.box.add_class("aotg-card")

    def to_dict(self) -> dict[str, Any]:
        """The card in scenario form: effects that are not 0, as typed (a bad entry stays text for the resolver)."""
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        out.update({key: box.value for key, box in self.effects.items() if box.value != 0})
        dice = dict(self.other_dice)
        if self.die_count.value != 0:
            dice = {self.die.value: self.die_count.value, **dice}
        if dice:
            out["dice"] = dice
        return out


class CardsEditor:
    """The cards one side plays in battle; `widget` goes under the side's dice pool.

    Args:
        role: ``"attacker"`` or ``"defender"``.
        changed: called after every change.
    """

    def __init__(self, role: str, changed: Callable[[], None]) -> None:
        self.role = role
        self._changed = changed
        self.rows: list[CardRow] = []
        self.dice: list[str] = list(DEFAULT_DICE)
        """Die names offered for a card's extra dice."""
        self.name = widgets.Combobox(options=list(cards_for(role)), placeholder="Weaponry, or your card's name"
                                     if role == "defender" else "Ore, Weaponry, or your card's name",
                                     description="card", ensure_option=False, layout=widgets.Layout(width="260px"),
                                     tooltip=f"{role.title()}: the card's name (a known card, or your own)")
        self.kind = widgets.Dropdown(options=list(CARD_KINDS), value="spell", description="kind",
                                     tooltip=f"{role.title()}: the card's kind (a known card's is fixed, p.17)",
                                     layout=widgets.Layout(width="170px"))
        self.add = widgets.Button(description="Add card", icon="plus", layout=widgets.Layout(width="110px"),
                                  tooltip=f"add the card named to the {role}'s cards in battle")
        self.add.add_class(f"aotg-add-card-{role}")
        self.add.on_click(lambda _b: self.add_card())
        self.name.observe(lambda _c: self._follow_name(), "value")
        self.timing = widgets.Dropdown(options=[(TIMING_LABELS[v], v) for v in CARD_REROLLS], value=CARD_REROLLS[0],
                                       description="card rerolls", style=_WIDE, layout=widgets.Layout(width="520px"),
                                       tooltip=f"{role.title()}: when the cards' rerolls are taken (p.16)")
        self.timing.add_class(f"aotg-card-rerolls-{role}")
        self.timing.observe(lambda _c: self._changed() if self.rows else None, "value")
        self.error = ErrorMessage("aotg-error", f"aotg-error-cards-{role}")
        self.card_box = widgets.VBox()
        rules = ", ".join(f"{n}: {' and '.join(r.value[1])}" for n, r in KNOWN_CARDS.items())
        self.widget = widgets.VBox([
            heading(f"Cards in battle ({role})"),
            note(explain(f"Spell and Resource Cards played before final totals (pp.16-17). Their texts are not in "
                         f"the pages we have: {ENTER_NOTE} each effect. Who may play them: {rules} (p.17); NPC giants "
                         "play none.")),
            widgets.HBox([self.name, self.kind, self.add]), self.card_box, self.timing, self.error.widget,
        ])
        self.widget.add_class(f"aotg-cards-{role}")

    def _follow_name(self) -> None:
        """A known card has its kind fixed by the rules (p.17); any other name takes the kind chosen."""
        known = known_card(str(self.name.value))
        if known is not None:
            self.kind.value = KNOWN_CARDS[known].value[0]
        self.kind.disabled = known is not None

    def add_card(self, name: str | None = None, kind: str | None = None) -> None:
        """Add a card with every effect 0 (the typed name and chosen kind, unless given)."""
        typed = (self.name.value if name is None else name).strip()
        if not typed:
            self.error.show(f"{self.role.title()}, card: type a card's name first (known: "
                            f"{', '.join(cards_for(self.role))}, or your own)")
            return
        if len(self.rows) >= MAX_CARDS_PER_SIDE:
            self.error.show(f"{self.role.title()}, cards in battle: at most {MAX_CARDS_PER_SIDE} cards per side")
            return
        known = known_card(typed)
        chosen = kind or (KNOWN_CARDS[known].value[0] if known else self.kind.value)
        self.rows.append(self._row({"name": known or typed, "kind": chosen}))
        self.name.value = ""
        self._show()

    def _row(self, card: Mapping[str, Any]) -> CardRow:
        return CardRow(card, self.dice, self._changed, self._remove)

    def _remove(self, row: CardRow) -> None:
        self.rows.remove(row)
        self._show()

    def _show(self, notify: bool = True) -> None:
        self.card_box.children = [r.box for r in self.rows]
        if notify:
            self._changed()

    def set_dice(self, names: Sequence[str]) -> None:
        """The die names a card may add (the panel's dice, a loaded scenario's included)."""
        self.dice = list(names)
        for row in self.rows:
            row.die.options = list(dict.fromkeys([*names, row.die.value]))

    def set_cards(self, cards: Sequence[BattleCard], timing: str = CARD_REROLLS[0]) -> None:
        """Replace every card, and when their rerolls are taken, by a scenario's (no `changed` call:
        the caller resolves once)."""
        self.rows = [self._row(card_to_dict(card)) for card in cards]
        self.timing.value = timing
        self._show(notify=False)

    def to_list(self) -> list[dict[str, Any]]:
        """The side's ``cards`` in scenario form, in the order played."""
        return [row.to_dict() for row in self.rows]

    def keys(self) -> dict[str, Any]:
        """The side's ``cards`` and, unless it is the default, ``card_rerolls`` (empty without cards).

        >>> editor = CardsEditor("attacker", lambda: None)
        >>> editor.add_card("Ore"); editor.timing.value = "with commands"
        >>> editor.keys()
        {'cards': [{'name': 'Ore', 'kind': 'resource'}], 'card_rerolls': 'with commands'}
        """
        if not self.rows:
            return {}
        out: dict[str, Any] = {"cards": self.to_list()}
        if self.timing.value != CARD_REROLLS[0]:
            out["card_rerolls"] = self.timing.value
        return out
