"""Card odds and the race to 15: small input groups and their charts (exact, from the odds helpers).

The inputs are written as an odds scenario (``"question": "odds"``, read by
`explorer.games.agot_lcg.odds.scenario.parse_odds`), so a bad entry gets the resolver's message
naming the field; the charts then keep their last figures, dimmed and labelled.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import ipywidgets as widgets
import plotly.graph_objects as go

from explorer.charts.kit import distribution_figure
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg import (
    OddsQuestion,
    deck_out_dist,
    draw_round_dist,
    intrigue_survival_dist,
    parse_odds,
    power_race_dist,
    race_round_dist,
    race_winner_dist,
)
from explorer.panels.agot_lcg.labels import ODDS_LABELS
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, heading, note
from explorer.panels.common.number_box import NumberText

__all__ = ["ODDS_CHARTS", "OddsPanel", "odds_figures", "read_gains"]

ODDS_CHARTS = ("intrigue", "draw", "deck_out", "race")
"""The odds charts, in layout order."""


def read_gains(text: str) -> dict[str, int] | str:
    """Power gains a round typed as equally likely values (``"1, 2, 2, 3"``) -> weights; bad text as typed.

    >>> read_gains("1, 2, 2"), read_gains("1, x")
    ({'1': 1, '2': 2}, '1, x')
    """
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() for p in parts):
        return text
    return {str(k): n for k, n in sorted(Counter(int(p) for p in parts).items())}


def odds_figures(question: OddsQuestion) -> dict[str, go.Figure]:
    """The four odds charts of a parsed odds question with every section."""
    i, d, o, r = question.intrigue, question.draw, question.deck_out, question.power_race
    assert i is not None and d is not None and o is not None and r is not None
    race = power_race_dist(r.first, r.second, r.max_rounds)
    wins = race_winner_dist(race).probabilities()
    who = ", ".join(f"{label} {float(wins[k]):.0%}" for k, label in (("first", "first"), ("second", "second"),
                                                                       ("none", "no one")) if k in wins)
    return {
        "intrigue": distribution_figure(intrigue_survival_dist(i.hand, i.copies, i.claim),
                                        title=f"Copies left after an intrigue claim of {i.claim}",
                                        x_title="copies left"),
        "draw": distribution_figure(draw_round_dist(d.deck, d.copies, d.rounds),
                                    title=f"Round of the first copy (0: setup; {d.rounds + 1}: later)",
                                    x_title="round"),
        "deck_out": distribution_figure(deck_out_dist(o.deck, draws=o.draws, insight=o.insight, pillage=o.pillage,
                                                      max_rounds=o.max_rounds),
                                        title=f"Round the deck runs out (bar {o.max_rounds + 1}: not out by round "
                                              f"{o.max_rounds})",
                                        x_title="round"),
        "race": distribution_figure(race_round_dist(race), title=f"Round someone reaches 15 (wins: {who})",
                                    x_title="round"),
    }


class OddsPanel:
    """Input groups for the card odds and the power race, and their four charts."""

    def __init__(self) -> None:
        box = widgets.Layout(width="150px")
        style = {"description_width": "initial"}

        def number(value: int, label: str, css: str, tooltip: str) -> NumberText:
            w = NumberText(value, description=label, style=style, layout=box, tooltip=tooltip)
            w.add_class(f"agot-odds-{css}")
            w.observe(lambda _c: self.refresh(), "value")
            return w

        self.hand = number(7, "hand", "hand", "Intrigue claim: hand, the cards in the defender's hand")
        self.copies = number(1, "copies", "copies", "Intrigue claim: copies of the card in that hand")
        self.claim = number(1, "claim", "claim", "Intrigue claim: claim, the cards discarded at random")
        self.deck = number(60, "deck", "deck", "Finding a card: deck, the cards in the draw deck")
        self.deck_copies = number(3, "copies", "deck-copies", "Finding a card: copies of the card in that deck")
        self.rounds = number(5, "rounds", "rounds", "Finding a card: rounds, how many rounds to look over")
        self.out_deck = number(20, "deck", "out-deck", "Running out: deck, the cards left in the draw deck")
        self.insight = number(0, "insight a round", "insight", "Running out: insight a round, extra cards drawn")
        self.pillage = number(0, "pillage a round", "pillage",
                              "Running out: pillage a round, cards the opponent's pillage discards")
        self.first_power = number(8, "first power", "first-power", "Race to 15: the first player's power now")
        self.second_power = number(8, "second power", "second-power", "Race to 15: the second player's power now")
        self.first_gains = widgets.Text("1, 2, 3", description="first gains", style=style, continuous_update=False,
                                        tooltip="Race to 15: the first player's power gained in a round, "
                                                "equally likely values, comma-separated")
        self.second_gains = widgets.Text("0, 2, 3", description="second gains", style=style, continuous_update=False,
                                         tooltip="Race to 15: the second player's power gained in a round, "
                                                 "equally likely values, comma-separated")
        for w in (self.first_gains, self.second_gains):
            w.observe(lambda _c: self.refresh(), "value")
        self.error = ErrorMessage("agot-error", "agot-error-odds")
        self.valid = True
        self.question = parse_odds(self.scenario())
        self.figures = {k: Chart(f, height=280) for k, f in odds_figures(self.question).items()}
        grid = widgets.Box([self.figures[k] for k in ODDS_CHARTS])
        grid.add_class("explorer-charts")
        groups = widgets.VBox([
            note("Exact odds (fractions behind every bar). Intrigue: each card in hand is equally likely to go. "
                 "Draws: a setup hand of 7 with one mulligan, then 2 cards a round. Race: each round's gain is one "
                 "of the values typed, equally likely; the first player wins ties."),
            widgets.HBox([widgets.HTML("<b>Intrigue claim</b>", layout=box), self.hand, self.copies, self.claim]),
            widgets.HBox([widgets.HTML("<b>Finding a card</b>", layout=box), self.deck, self.deck_copies, self.rounds]),
            widgets.HBox([widgets.HTML("<b>Running out</b>", layout=box), self.out_deck, self.insight, self.pillage]),
            widgets.HBox([widgets.HTML("<b>Race to 15</b>", layout=box), self.first_power, self.second_power]),
            widgets.HBox([self.first_gains, self.second_gains]), self.error.widget])
        groups.add_class("agot-odds-inputs")
        self.widget = widgets.VBox([heading("Card odds and the race to 15"), groups, grid])
        self.widget.add_class("agot-odds")

    def scenario(self) -> dict[str, Any]:
        """The inputs as an odds scenario (as typed)."""
        return {"format": 1, "game": "agot-lcg", "question": "odds",
                "intrigue": {"hand": self.hand.value, "copies": self.copies.value, "claim": self.claim.value},
                "draw": {"deck": self.deck.value, "copies": self.deck_copies.value, "rounds": self.rounds.value},
                "deck_out": {"deck": self.out_deck.value, "insight": self.insight.value,
                             "pillage": self.pillage.value, "max_rounds": 30},
                "power_race": {"first": {"power": self.first_power.value, "gains": read_gains(self.first_gains.value)},
                               "second": {"power": self.second_power.value,
                                          "gains": read_gains(self.second_gains.value)},
                               "max_rounds": 20}}

    def refresh(self) -> bool:
        """Recompute the charts; on bad input name the box (its label, `labels.ODDS_LABELS`) and dim the charts.

        Returns:
            True if the charts show the current inputs.
        """
        self.error.clear()
        try:
            question = parse_odds(self.scenario())
            figures = odds_figures(question)
        except (ScenarioError, ValueError) as error:
            said = ODDS_LABELS.message(error) if isinstance(error, ScenarioError) else str(error)
            self.error.show(said)
            self.valid = False
            for chart in self.figures.values():
                chart.mark_stale(f"Not updated: {said}")
            return False
        self.question, self.valid = question, True
        for name, fig in figures.items():
            self.figures[name].show(fig)
        return True
