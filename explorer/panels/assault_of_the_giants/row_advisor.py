"""The command-row advisor tab: attack now, or play other Command Cards first?

The row so far is the attacker's row in the panel (its final Attack is the card about to be
played); the hand is ticked here. For each row the attacker can reach, ending with Attack (p.17),
the tab shows what it gives (p.16) and what the attack is worth for the chosen objective, as a
chart and a table, computed exactly by `explorer.games.assault_of_the_giants.best.row_advisor`.
It computes only while its tab is open (each option is one battle).
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from explorer.charts.aotg_decisions import OBJECTIVE_LABELS, row_advice_figure, row_label
from explorer.core.errors import ExplorerError
from explorer.games.assault_of_the_giants import (
    COMMAND_CARDS,
    MAX_EXTRA_CARDS,
    OBJECTIVES,
    Objective,
    RowOption,
    parse_battle,
    row_options,
)
from explorer.panels.assault_of_the_giants.labels import said
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.host import PanelHost, Update
from explorer.panels.common.table import decimal_text, html_table

__all__ = ["RowAdvisor", "advice_columns", "advice_rows", "advice_html"]


def advice_columns(objective: Objective) -> tuple[str, ...]:
    """The columns of the advice table (the value's column is named for the objective)."""
    return ("cards played", "cards before Attack", "rerolls", "arcane → 2 hits", "arcane → block",
            OBJECTIVE_LABELS[objective], "gain over attacking now")


def advice_rows(options: list[RowOption]) -> list[tuple[str, int, int, int, int, float, float | None]]:
    """Per option (`advice_columns`): cards played, what the row gives, the value and its gain over attacking now.

    The gain is None when attacking now is not among the options.

    >>> from fractions import Fraction
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> advice_rows([RowOption(("Attack",), 0, Modifiers(), Fraction(1, 2))])
    [('attack now', 0, 0, 0, 0, 0.5, 0.0)]
    """
    now = next((o.value for o in options if o.extra_cards == 0), None)
    return [(html.unescape(row_label(o)), o.extra_cards, o.modifiers.rerolls, o.modifiers.arcane_to_hits,
             o.modifiers.arcane_to_blocks, float(o.value), float(o.value - now) if now is not None else None)
            for o in options]


def advice_html(options: list[RowOption], objective: Objective) -> str:
    """`advice_rows` as a table, values with four decimals."""
    return html_table(advice_columns(objective), advice_rows(options), "aotg-summary-table",
                      number=lambda v: decimal_text(v, 4))


class RowAdvisor:
    """The advisor's widgets, following the host's attacker row; `widget` is the tab's content."""

    def __init__(self, host: PanelHost, row_so_far: Callable[[], list[str]]) -> None:
        self.host = host
        self._row = row_so_far
        self.active = False
        """True while the tab is shown: only then does it compute."""
        self.options: list[RowOption] = []
        self.hand_boxes = {card: widgets.Checkbox(value=True, description=card, indent=False,
                                                  layout=widgets.Layout(width="auto", margin="0 10px 0 0"))
                           for card in COMMAND_CARDS if card != "Attack"}
        self.most = widgets.IntSlider(value=2, min=0, max=MAX_EXTRA_CARDS, description="cards first",
                                      continuous_update=False, style={"description_width": "auto"})
        self.objective = widgets.Dropdown(options=[(OBJECTIVE_LABELS[o], o) for o in OBJECTIVES],
                                          value="ordning-points", description="objective",
                                          layout=widgets.Layout(width="380px"))
        self.chart = Chart(row_advice_figure([], "ordning-points"))
        self.table = widgets.HTML()
        self.table.add_class("aotg-row-advice-table")
        self.error = ErrorMessage("aotg-row-advice-error")
        self.hand = widgets.HBox(list(self.hand_boxes.values()), layout=widgets.Layout(flex_flow="row wrap"))
        for w in (*self.hand_boxes.values(), self.most, self.objective):
            w.observe(lambda _c: self.refresh(), "value")
        host.on_update(self._updated)
        self.widget = widgets.VBox([
            note("Cards in the attacker's hand (a card already in the row is not offered). Each card played "
                 "before Attack is one more turn; Leader and Magic count the cards to their right, Attack the "
                 "cards to its left (p.16); Attack is the card that starts the battle, so it comes last (p.17). "
                 "The attacker plays by its reroll policy in the panel; the defender as set. The attacker's "
                 "Cards in battle add on top of what each row gives."),
            self.hand, widgets.HBox([self.most, self.objective]), self.error.widget, self.chart, self.table,
        ])
        self.widget.add_class("aotg-row-advisor")

    def show(self, active: bool) -> None:
        """Called when the tab is opened (True) or left (False)."""
        self.active = active
        if active:
            self.refresh()

    def _updated(self, update: Update) -> None:
        if not update.valid:
            self.chart.mark_stale(update.reason)
        elif self.active:
            self.refresh()

    def refresh(self) -> None:
        """Recompute the options for the current battle, hand and objective."""
        if not self.active:
            return
        row = [c.strip().lower() for c in self._row()]
        for card, box in self.hand_boxes.items():
            box.disabled = card.lower() in row
        hand = [c for c, box in self.hand_boxes.items() if box.value and c.lower() not in row]
        try:
            battle = parse_battle(self.host.scenario())
            self.options = row_options(battle, hand, objective=self.objective.value, most=self.most.value)
        except ExplorerError as error:
            self.error.show(said(self.host, error))
            self.chart.mark_stale(f"Not updated: {said(self.host, error)}")  # not the last chart's options as if current
            return
        self.error.clear()
        self.chart.show(row_advice_figure(self.options, self.objective.value))
        self.table.value = advice_html(self.options, self.objective.value)
