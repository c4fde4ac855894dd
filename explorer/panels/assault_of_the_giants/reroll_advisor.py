"""The "What should I reroll?" tab: for a roll you set, every choice of dice to reroll, valued exactly.

Pick a side and the face each of its dice shows (or roll at random). The tab lists each distinct
choice of dice to reroll with its exact value for the side's objective ("plays for" in the army),
best first, as a chart and a table; how best to convert the arcane showing if every die is kept;
and, on request, the rule of thumb: how often best play rerolls each face. A side whose cards reroll
in a second round after its Command rerolls (p.16) has a round to pick: the first (each choice worth
its expectation with the second round played best) or the cards' second, on the dice as they lie. The other side plays
as set in the panel. The defender decides knowing the attacker's final totals (p.17), entered here.
Computed by `explorer.games.assault_of_the_giants.best.advice`, only while the tab is open.
"""

from __future__ import annotations

import html
import random
from collections.abc import Sequence

import ipywidgets as widgets

from explorer.charts.aotg_decisions import OBJECTIVE_LABELS, reroll_advice_figure
from explorer.core.errors import ExplorerError
from explorer.games.assault_of_the_giants import (
    Alternative,
    Battle,
    Objective,
    Side,
    Symbols,
    advise_conversion,
    advise_reroll,
    parse_battle,
    played,
    reroll_habits,
)
from explorer.panels.assault_of_the_giants.labels import said
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.host import PanelHost, Update
from explorer.panels.common.number_box import NumberText, read_whole
from explorer.panels.common.table import decimal_text, html_table, percent_text

__all__ = ["RerollAdvisor", "face_label", "reroll_label", "alternatives_html", "two_rounds"]

SHOWN = 10
"""Most alternatives listed (the chart and the table), best first."""


def face_label(face: Symbols) -> str:
    """A face in words.

    >>> face_label((2, 0, 0)), face_label((1, 1, 0)), face_label((0, 0, 0))
    ('2 hits', 'hit + block', 'blank')
    """
    parts = [f"{n} {name}{'s' * (n > 1)}" if n > 1 else name
             for n, name in zip(face, ("hit", "block", "arcane")) if n]
    return " + ".join(parts) if parts else "blank"


def reroll_label(option: Alternative, dice: Sequence[str]) -> str:
    """Which dice a choice rerolls, and what they show, in words.

    >>> from fractions import Fraction
    >>> reroll_label(Alternative((1,), ((0, 0, 0),), Fraction(3, 2), (Fraction(3, 2),), True), ["basic", "fire"])
    'die 2 (fire): blank'
    """
    return ", ".join(f"die {i + 1} ({dice[i]}): {face_label(f)}" for i, f in zip(option.reroll, option.faces)) or "keep all"


def alternatives_html(options: Sequence[Alternative], dice: Sequence[str], objective: Objective) -> str:
    """The choices as a table: which dice, the value, and how far each is from the best.

    >>> from fractions import Fraction
    >>> a = Alternative((1,), ((0, 0, 0),), Fraction(3, 2), (Fraction(3, 2),), True)
    >>> "<td>die 2 (fire): blank</td><td>1.5000</td><td>0.0000</td>" in alternatives_html([a], ["basic", "fire"], "damage")
    True
    """
    best = options[0].value if options else 0
    rows = [(reroll_label(o, dice), float(o.value), float(best - o.value)) for o in options]
    return html_table(("reroll", OBJECTIVE_LABELS[objective], "short of the best"), rows, "aotg-summary-table",
                      number=lambda v: decimal_text(v, 4))


def two_rounds(side: Side) -> bool:
    """Whether the side's cards reroll in a second round after its Command rerolls (and it has dice).

    >>> from explorer.games.assault_of_the_giants import BattleCard, CombatDie, Modifiers
    >>> die = CombatDie("d", ((1, 0, 0),) * 6)
    >>> card = BattleCard("Haste", "spell", rerolls=1)
    >>> two_rounds(Side(((die, 1),), Modifiers(rerolls=1), (), cards=(card,)))
    True
    >>> two_rounds(Side(((die, 1),), Modifiers(), (), cards=(card,)))  # no Command rerolls: one round
    False
    """
    side = played(side)
    return bool(side.modifiers.rerolls and side.modifiers.card_rerolls and side.dice_count)


def _dice_of(side: Side) -> list[tuple[str, tuple[Symbols, ...]]]:
    """Every die the side rolls, its cards' dice included (`cards.played`), in the pool's order."""
    return [(die.name, die.faces) for die, n in played(side).pool for _ in range(n)]


class RerollAdvisor:
    """The tab's widgets; `widget` is its content."""

    def __init__(self, host: PanelHost) -> None:
        self.host = host
        self.active = False
        self.options: list[Alternative] = []
        self.role = widgets.ToggleButtons(options=["attacker", "defender"], value="attacker",
                                          tooltips=["advise the attacker", "advise the defender"],
                                          style={"button_width": "90px"})
        self.round = widgets.ToggleButtons(options=[("first round (Commands)", 1), ("second round (cards)", 2)],
                                           value=1, style={"button_width": "170px"},
                                           tooltips=["the Command rerolls; each choice counts the cards' round "
                                                     "played best after it", "the cards' rerolls, on the dice as "
                                                     "they lie after the first round (any die, p.16)"])
        self.round.layout.display = "none"
        self.hits = NumberText(0, tooltip="the attacker's final hits (the defender decides knowing them, p.17)",
                               layout=widgets.Layout(width="60px"))
        self.blocks = NumberText(0, tooltip="the attacker's final blocks", layout=widgets.Layout(width="60px"))
        self.totals = widgets.HBox([widgets.HTML("attacker's final hits&nbsp;"), self.hits,
                                    widgets.HTML("&nbsp;blocks&nbsp;"), self.blocks])
        self.roll_button = widgets.Button(description="Roll", icon="dice", layout=widgets.Layout(width="90px"),
                                          tooltip="set every die to a random face")
        self.faces = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.face_boxes: list[widgets.Dropdown] = []
        self.chart = Chart(reroll_advice_figure([], [], "ordning-points"))
        self.table = widgets.HTML()
        self.table.add_class("aotg-reroll-advice-table")
        self.conversion = widgets.HTML()
        self.habits_button = widgets.Button(description="Rule of thumb", icon="lightbulb-o",
                                            tooltip="how often best play rerolls each face, over every roll")
        self.habits = widgets.HTML()
        self.error = ErrorMessage("aotg-reroll-advice-error")
        self.summary = widgets.HTML()
        self._dice: list[tuple[str, tuple[Symbols, ...]]] = []
        self._rng = random.Random(17)
        self.role.observe(lambda _c: self._rebuild(), "value")
        self.round.observe(lambda _c: self.refresh(), "value")
        for w in (self.hits, self.blocks):
            w.observe(lambda _c: self.refresh(), "value")
        self.roll_button.on_click(lambda _b: self.roll())
        self.habits_button.on_click(lambda _b: self.show_habits())
        host.on_update(self._updated)
        self.widget = widgets.VBox([
            note("Set what each die shows (or Roll). Each choice of dice to reroll is valued exactly for the "
                 "side's objective ('plays for' in its army); the other side plays as set. Rerolls: up to the "
                 "side's rerolls, each die once, all at once (p.16)."),
            widgets.HBox([self.role, self.roll_button]), self.round, self.totals, self.faces, self.error.widget, self.summary,
            self.chart, self.table, self.conversion, self.habits_button, self.habits,
        ])
        self.widget.add_class("aotg-reroll-advisor")

    def show(self, active: bool) -> None:
        """Called when the tab is opened (True) or left (False)."""
        self.active = active
        if active:
            self._rebuild()

    def _updated(self, update: Update) -> None:
        if not update.valid:
            self.chart.mark_stale(update.reason)
        elif self.active:
            self._rebuild()

    def _battle(self) -> Battle:
        return parse_battle(self.host.scenario())

    def _rebuild(self) -> None:
        """New dice rows when the side's pool changed; faces already set are kept where they still fit."""
        if not self.active:
            return
        try:
            battle = self._battle()
        except ExplorerError as error:
            self.error.show(said(self.host, error))
            self.chart.mark_stale(f"Not updated: {said(self.host, error)}")
            return
        side: Side = getattr(battle, self.role.value)
        self.totals.layout.display = "" if self.role.value == "defender" else "none"
        self.round.layout.display = "" if two_rounds(side) else "none"
        dice = _dice_of(side)
        if dice != self._dice:
            old = [box.value for box in self.face_boxes]
            self._dice = dice
            self.face_boxes = []
            for i, (name, faces) in enumerate(dice):
                labels = list(dict.fromkeys(faces))
                box = widgets.Dropdown(options=[(face_label(f), f) for f in labels],
                                       value=old[i] if i < len(old) and old[i] in labels else labels[0],
                                       description=f"{i + 1}. {name}", style={"description_width": "auto"},
                                       tooltip=f"die {i + 1} ({name}): the face it shows",
                                       layout=widgets.Layout(width="200px"))
                box.observe(lambda _c: self.refresh(), "value")
                self.face_boxes.append(box)
            self.faces.children = self.face_boxes
        self.refresh(battle)

    def roll(self) -> None:
        """Every die to a random face (one redraw)."""
        for box, (_, faces) in zip(self.face_boxes, self._dice):
            box.unobserve_all("value")
            box.value = self._rng.choice(faces)
            box.observe(lambda _c: self.refresh(), "value")
        self.refresh()

    def _attacker_totals(self) -> tuple[int, int] | None:
        if self.role.value != "defender":
            return None
        hits, blocks = read_whole(self.hits.value), read_whole(self.blocks.value)
        if not isinstance(hits, int) or not isinstance(blocks, int) or hits < 0 or blocks < 0:
            raise ExplorerError("the attacker's final hits and blocks: whole numbers, 0 or more")
        return hits, blocks

    def refresh(self, battle: Battle | None = None) -> None:
        """Value every choice for the faces shown."""
        if not self.active or not self.face_boxes:
            return
        role = self.role.value
        try:
            battle = battle or self._battle()
            totals = self._attacker_totals()
            roll = [(name, box.value) for (name, _), box in zip(self._dice, self.face_boxes)]
            second = two_rounds(getattr(battle, role)) and self.round.value == 2
            self.options = advise_reroll(battle, role, roll, attacker_totals=totals, second_round=second)
            symbols = tuple(sum(f[j] for _, f in roll) for j in range(3))
            splits = advise_conversion(battle, role, symbols, attacker_totals=totals)
        except ExplorerError as error:
            self.error.show(said(self.host, error))
            self.chart.mark_stale(f"Not updated: {said(self.host, error)}")  # not the last roll's choices as if current
            return
        self.error.clear()
        side: Side = played(getattr(battle, role))  # the cards' rerolls count too
        objective = side.objective
        shown = self.options[:SHOWN]
        names = [name for name, _ in self._dice]
        self.chart.show(reroll_advice_figure(shown, names, objective))
        best = self.options[0]
        rerolls = side.modifiers.card_rerolls if second else side.modifiers.rerolls
        rounds = ""
        if two_rounds(side):
            rounds = ("; second round: on the dice as they lie after the first" if second else
                      "; first round: each value counts the cards' second round played best after it")
        self.summary.value = (f"<b>Best:</b> {html.escape(reroll_label(best, names))} — "
                              f"{OBJECTIVE_LABELS[objective]} {decimal_text(float(best.value), 4)} "
                              f"({len(self.options)} choices, up to {rerolls} reroll{'s' * (rerolls != 1)}{rounds})")
        self.table.value = alternatives_html(shown, names, objective)
        rows = "".join(f"<tr><td>{s.to_hits}</td><td>{s.to_blocks}</td><td>{s.totals[0]} hits, {s.totals[1]} blocks"
                       f"</td><td>{decimal_text(float(s.value), 4)}</td></tr>" for s in splits)
        self.conversion.value = ("<b>If every die is kept:</b> how to convert the arcane showing "
                                 f"({symbols[2]} arcane), best first<table class='aotg-summary-table'>"
                                 "<tr><th>arcane → 2 hits</th><th>arcane → block</th><th>final</th>"
                                 f"<th>{OBJECTIVE_LABELS[objective]}</th></tr>{rows}</table>")

    def show_habits(self) -> None:
        """The rule of thumb: the share of rolls in which best play rerolls a die showing each face."""
        try:
            habits = reroll_habits(self._battle(), self.role.value, attacker_totals=self._attacker_totals())
        except ExplorerError as error:
            self.error.show(said(self.host, error))
            return
        rows = "".join(f"<tr><td>{html.escape(h.die)}</td><td>{face_label(h.face)}</td>"
                       f"<td>{percent_text(float(h.rerolled), 1)}</td></tr>" for h in habits)
        self.habits.value = ("<table class='aotg-summary-table'><tr><th>die</th><th>face</th>"
                             f"<th>rerolled by best play</th></tr>{rows}</table>")
