"""The report of an odds scenario (``"question": "odds"``): exact fractions, floats for JSON."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from explorer.core.dist import Dist
from explorer.games.agot_lcg.challenge.report_parts import rulings_lines
from explorer.games.agot_lcg.challenge.rulings import ODDS_RULINGS
from explorer.games.agot_lcg.odds.cards import copies_discarded, deck_out, draw_odds, power_race, race_round
from explorer.games.agot_lcg.odds.cost import check_odds
from explorer.games.agot_lcg.odds.scenario import OddsQuestion
from explorer.scenario.report import Cell, Rows, dist_exact, dist_json, fmt_percent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["OddsAnswer", "OddsReport", "answer_odds", "deck_out_labels", "not_out_label"]


@dataclass(frozen=True, slots=True)
class OddsAnswer:
    """The exact answers: copies discarded, survival, draw chances, deck-out round, power race."""

    question: OddsQuestion
    discarded: Dist[int] | None = None
    survival: Fraction | None = None
    draws: tuple[Fraction, ...] | None = None
    deck_out: Dist[int] | None = None
    race: Dist[tuple[int, str]] | None = None


def answer_odds(question: OddsQuestion) -> OddsAnswer:
    """Answer every section asked, once their work is weighed (`odds_cost.check_odds`).

    Raises:
        ScenarioError: the deck-out and the race estimated above about 2 s together.

    >>> from explorer.games.agot_lcg.odds.scenario import IntrigueOdds
    >>> answer_odds(OddsQuestion(intrigue=IntrigueOdds(100, 1, 4))).survival
    Fraction(24, 25)
    """
    q = question
    check_odds(q)  # the deck-out and the race weighed before either is followed
    parts: dict[str, Any] = {}
    if q.intrigue:
        i = q.intrigue
        parts["discarded"] = copies_discarded(i.hand, i.copies, i.claim)
        parts["survival"] = parts["discarded"].at_most(i.copies - i.at_least)
    if q.draw:
        d = q.draw
        parts["draws"] = draw_odds(d.deck, d.copies, d.rounds, at_least=d.at_least, mulligan=d.mulligan,
                                   setup_cards=d.setup_cards, draws=d.draws)
    if q.deck_out:
        o = q.deck_out
        parts["deck_out"] = deck_out(o.deck, draws=o.draws, insight=o.insight, pillage=o.pillage,
                                     max_rounds=o.max_rounds)
    if q.power_race:
        parts["race"] = power_race(q.power_race.first, q.power_race.second, q.power_race.max_rounds)
    return OddsAnswer(q, **parts)


def not_out_label(max_rounds: int) -> str:
    """The outcome "the deck still has cards after `max_rounds` rounds", in words (its key in the report).

    >>> not_out_label(3)
    'not out by round 3'
    """
    return f"not out by round {max_rounds}"


def deck_out_labels(dist: Dist[int], max_rounds: int) -> Dist[int | str]:
    """The deck-out rounds with the "not out" outcome (``max_rounds + 1`` in `cards.deck_out`) named in words.

    >>> deck_out_labels(Dist({2: 1, 4: 1}), 3).probabilities()
    {2: Fraction(1, 2), 'not out by round 3': Fraction(1, 2)}
    """
    return dist.map(lambda r: r if r <= max_rounds else not_out_label(max_rounds))


def _race_dict(race: Dist[tuple[int, str]], max_rounds: int) -> dict[str, Any]:
    labels = race.map(lambda o: f"{o[1]} in round {o[0]}" if o[1] != "none" else f"no one by round {max_rounds}")
    return {"outcomes": dist_json(labels), "outcomes_exact": dist_exact(labels),
            "winner": dist_json(race.map(lambda o: o[1])),
            "round": dist_json(race_round(race).map(lambda r: r if r <= max_rounds else "later")),
            "mean_round_if_decided": None if race.where(lambda o: o[1] != "none") == 0 else float(
                sum(p * o[0] for o, p in race.probabilities().items() if o[1] != "none")
                / race.where(lambda o: o[1] != "none"))}


@dataclass(frozen=True, slots=True)
class OddsReport:
    """Exact answers to an odds scenario."""

    answer: OddsAnswer

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: one entry per section asked, and the rulings."""
        a, q = self.answer, self.answer.question
        out: dict[str, Any] = {"format": 1, "game": "agot-lcg", "question": "odds"}
        if q.intrigue and a.discarded is not None and a.survival is not None:
            i = q.intrigue
            out["intrigue"] = {"card": i.card, "hand": i.hand, "copies": i.copies, "claim": i.claim,
                               "at_least": i.at_least, "copies_discarded": dist_json(a.discarded),
                               "copies_discarded_exact": dist_exact(a.discarded),
                               "survives": float(a.survival), "survives_exact": str(a.survival)}
        if q.draw and a.draws is not None:
            out["draw"] = {"deck": q.draw.deck, "copies": q.draw.copies, "at_least": q.draw.at_least,
                           "mulligan": q.draw.mulligan,
                           "by_round": {str(r): float(p) for r, p in enumerate(a.draws)},
                           "by_round_exact": {str(r): str(p) for r, p in enumerate(a.draws)}}
        if q.deck_out and a.deck_out is not None:
            n = q.deck_out.max_rounds
            labelled = deck_out_labels(a.deck_out, n)
            not_out = a.deck_out.probability(n + 1)
            out["deck_out"] = {"deck": q.deck_out.deck, "draws": q.deck_out.draws, "max_rounds": n,
                               "round": dist_json(labelled), "round_exact": dist_exact(labelled),
                               "runs_out_by_max_rounds": float(1 - not_out),
                               "not_out_by_max_rounds": float(not_out),
                               "not_out_by_max_rounds_exact": str(not_out)}
        if q.power_race and a.race is not None:
            out["power_race"] = _race_dict(a.race, q.power_race.max_rounds)
        out["rulings"] = list(ODDS_RULINGS)
        return out

    def to_rows(self) -> Rows:
        """Long table: section, outcome, probability."""
        rows: list[dict[str, Cell]] = []
        for section, body in self.to_dict().items():
            if isinstance(body, dict):
                for key in ("copies_discarded", "by_round", "round", "outcomes"):
                    rows += [{"section": section, "outcome": o, "probability": p} for o, p in body.get(key, {}).items()]
        return Rows(("section", "outcome", "probability"), tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable account of every section asked."""
        a, q, lines = self.answer, self.answer.question, []
        if q.intrigue and a.survival is not None:
            i = q.intrigue
            lines.append(f"INTRIGUE CLAIM {i.claim} against a hand of {i.hand} with {i.copies} x {i.card}: at least "
                         f"{i.at_least} stays with chance {fmt_percent(a.survival)} ({a.survival})")
        if q.draw and a.draws is not None:
            lines.append(f"DRAWS: at least {q.draw.at_least} of {q.draw.copies} copies in a deck of {q.draw.deck} "
                         f"({'with' if q.draw.mulligan else 'without'} a mulligan)")
            lines += [f"  by round {r:>3}: {fmt_percent(p):>8}" for r, p in enumerate(a.draws)]
        if q.deck_out and a.deck_out is not None:
            n = q.deck_out.max_rounds
            lines.append(f"DECK OUT: a deck of {q.deck_out.deck}, drawing {q.deck_out.draws} a round: the round it "
                         f"runs out, followed for {n} rounds")
            for r, p in a.deck_out.probabilities().items():
                label = f"runs out in round {r}" if r <= n else f"{not_out_label(n)} (cards left after round {n})"
                lines.append(f"  {label:<44} {fmt_percent(p):>8}")
        if q.power_race and a.race is not None:
            lines.append("POWER RACE to 15 (the first player decides ties)")
            for (r, who), p in a.race.probabilities().items():
                label = f"{who} in round {r}" if who != "none" else f"no one by round {q.power_race.max_rounds}"
                lines.append(f"  {label:<24} {fmt_percent(p):>8}")
        lines += rulings_lines(ODDS_RULINGS)
        return "\n".join(lines) + "\n"
