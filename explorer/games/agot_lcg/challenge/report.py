"""The `resolve` report of one A Game of Thrones LCG challenge (scenario format v1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.agot_lcg.challenge.model import PLAYERS
from explorer.games.agot_lcg.challenge.report_parts import (
    claim_dict,
    claim_lines,
    end_dict,
    end_text,
    hand_label,
    keyword_dicts,
    power_headline,
    rulings_lines,
    step_dicts,
)
from explorer.games.agot_lcg.challenge.rules import ChallengeResult
from explorer.games.agot_lcg.challenge.rulings import CHALLENGE_RULINGS
from explorer.scenario.report import Cell, Rows
from explorer.scenario.stats import Headline

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["HEADLINE_OF", "ChallengeReport"]

HEADLINE_OF = "power the attacker gains in the challenge"
"""The challenge report's headline outcome: the attacker's power total after minus before (claim,
unopposed bonus, renown, prized), what a player asks of a challenge first."""


def _power(p: Any) -> dict[str, int]:
    return {"faction": p.faction, "cards": p.cards, "total": p.total}


@dataclass(frozen=True, slots=True)
class ChallengeReport:
    """Exact answer to one challenge scenario; `to_dict` is the spec's JSON."""

    result: ChallengeResult

    @property
    def game_winner(self) -> str | None:
        """``"attacker"``, ``"defender"`` or None (game goes on, or an undecided tie)."""
        return self.result.game_end.winner if self.result.game_end else None

    def headline(self) -> Headline:
        """The headline numbers of `HEADLINE_OF` (one number: a challenge has no chance in its power).

        >>> from explorer.games.agot_lcg import resolve
        >>> resolve({"challenge": {"type": "power", "claim": 1, "attackers": [{"name": "K", "str": 1}],
        ...          "defenders": []}, "power": {"attacker": {"faction": 0}, "defender": {"faction": 0}}}
        ...         ).headline().mean
        Fraction(1, 1)
        """
        r = self.result
        return power_headline(r.before("attacker").total, r.after("attacker").total, HEADLINE_OF)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the spec's keys, the headline, then STR, power detail, claim, keywords, steps and rulings.

        >>> from explorer.games.agot_lcg import resolve
        >>> resolve({"challenge": {"type": "power", "claim": 1, "attackers": [{"name": "K", "str": 1}],
        ...          "defenders": []}, "power": {"attacker": {"faction": 0}, "defender": {"faction": 0}}}
        ...         ).to_dict()["power_after"]
        {'attacker': 1, 'defender': 0}
        """
        r, c = self.result, self.result.challenge
        after = r.outcome.after
        return {
            "format": 1, "game": "agot-lcg", "question": "challenge",
            "winner": r.winner, "unopposed": r.unopposed,
            "power_after": {p: r.after(p).total for p in PLAYERS},
            "game_winner": self.game_winner,
            "headline": self.headline().to_dict(),
            "challenge_type": c.type, "claim": c.claim, "x": c.x,
            "str": dict(zip(PLAYERS, r.strength)),
            "participants": {p: len(c.side(p).characters) for p in PLAYERS},
            "power_before": {p: _power(r.before(p)) for p in PLAYERS},
            "power_after_detail": {p: _power(r.after(p)) for p in PLAYERS},
            "power_on_characters": {p: {ch.name: ch.power for i, ch in after.player(p).in_play() if ch.power}
                                    for p in PLAYERS},
            "unopposed_bonus": r.bonus,
            "power_moved": r.power_moved,
            "renown_gained": dict(zip(PLAYERS, r.renown)),
            "claim_effects": claim_dict(r.claim),
            "stealth_bypassed": list(r.outcome.bypassed),
            "keywords": keyword_dicts(r.outcome),
            "keywords_not_acting": list(r.outcome.not_acting),
            "deck_after": {p: after.player(p).deck for p in PLAYERS},
            "first_player": c.first_player,
            "keyword_order": list(c.keyword_order),
            "game_end": end_dict(r.game_end, c.first_player),
            "steps": step_dicts(r.outcome),
            "rulings": list(CHALLENGE_RULINGS),
        }

    def to_rows(self) -> Rows:
        """Long table: quantity, side, value, probability (1 except for intrigue discards)."""
        d, r = self.to_dict(), self.result
        rows: list[dict[str, Cell]] = [
            {"quantity": q, "side": "", "value": d[q], "probability": 1.0}
            for q in ("winner", "unopposed", "game_winner", "power_moved", "unopposed_bonus")
        ]
        for q in ("str", "power_after", "renown_gained"):
            rows += [{"quantity": q, "side": p, "value": d[q][p], "probability": 1.0} for p in PLAYERS]
        if r.claim and r.claim.discard_dist is not None:
            rows += [{"quantity": "discarded", "side": "defender", "value": hand_label(o), "probability": float(p)}
                     for o, p in r.claim.discard_dist.probabilities().items()]
        return Rows(("quantity", "side", "value", "probability"), tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable account for the command line: result, steps, power, claim odds, keywords, rulings."""
        r, c = self.result, self.result.challenge
        lines = [f"{c.type.upper()} CHALLENGE, claim {c.claim}" + (f", X = {c.x}" if c.x else "")]
        for p, strength in zip(PLAYERS, r.strength):
            side = c.side(p)
            names = ", ".join(f"{ch.name} ({ch.strength}{''.join(' ' + k for k in ch.keywords)})"
                              for ch in side.characters) or "no characters"
            mod = f" {side.str_modifier:+d} modifier" if side.str_modifier else ""
            lines.append(f"  {p:<9} STR {strength:>2}: {names}{mod}")
        if r.outcome.bypassed:
            lines.append(f"  bypassed by stealth: {', '.join(r.outcome.bypassed)}")
        if r.game_end is not None and r.game_end.step == "start":
            lines.append("  not resolved: the game was over before the challenge")
        else:
            lines.append(f"  winner: {r.winner}" + ("  (unopposed)" if r.unopposed else ""))
        lines += ["HEADLINE", *(f"  {line}" for line in self.headline().text_lines())]
        lines.append("STEPS (power attacker / defender after each)")
        lines += [f"  {s.number:<6} {s.event}  [power {s.totals[0]} / {s.totals[1]}]  ({s.rule})" for s in r.steps]
        lines.append("POWER (faction + other cards = total)")
        for p in PLAYERS:
            before, after = r.before(p), r.after(p)
            lines.append(f"  {p:<9} {before.faction} + {before.cards} = {before.total}  ->  "
                         f"{after.faction} + {after.cards} = {after.total}")
        lines += claim_lines(r.claim)
        if r.outcome.not_acting:
            lines.append("KEYWORDS THAT DO NOT ACT IN A CHALLENGE")
            lines += [f"  {line}" for line in r.outcome.not_acting]
        end = r.game_end
        where = "" if end is None else ("before the challenge" if end.step == "start" else f"after step {end.step}")
        lines.append(end_text(end, where))
        lines += rulings_lines(CHALLENGE_RULINGS)
        return "\n".join(lines) + "\n"
