"""The report of a round (``"question": "round"``): each challenge's steps, dominance, a best plan."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.agot_lcg.challenge.board import Board, PlayerState
from explorer.games.agot_lcg.challenge.report_parts import (
    claim_dict,
    claim_lines,
    end_dict,
    end_text,
    keyword_dicts,
    power_headline,
    rulings_lines,
    step_dicts,
)
from explorer.games.agot_lcg.challenge.rulings import CHALLENGE_RULINGS, PLAN_RULINGS, ROUND_RULINGS
from explorer.games.agot_lcg.round.defence import GAIN_TERMS
from explorer.games.agot_lcg.round.phase import ChallengeRecord, PlannedChallenge, Round, RoundResult, play_round
from explorer.games.agot_lcg.round.plan import PLAN_TERMS, Plan, PlanSearch
from explorer.games.agot_lcg.round.trace import challenge_title
from explorer.scenario.report import Cell, Rows
from explorer.scenario.stats import Headline

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RoundReport", "plan_round"]


def _names(state: PlayerState, indices: tuple[int, ...]) -> list[str]:
    return [state.characters[i].name for i in indices]


def _player(state: PlayerState) -> dict[str, Any]:
    return {"faction": state.faction, "cards": state.cards, "total": state.total, "deck": state.deck,
            "hand": state.hand, "gold": state.gold,
            "characters": [{"name": c.name, "str": c.strength, "standing": c.standing, "in_play": i not in state.dead,
                            "power": c.power} for i, c in enumerate(state.characters)]}


def _record_dict(record: ChallengeRecord, board: Board) -> dict[str, Any]:
    p, out = record.planned, record.outcome
    other = board.other(p.attacker)
    row: dict[str, Any] = {"where": p.where, "attacker": p.attacker, "type": p.type, "initiated": out is not None,
                           "dropped": list(record.dropped),
                           "defence": "listed" if p.defenders is not None else "best"}
    if out is None:
        return row
    decl, before = out.declaration, out.before
    row.update(attackers=_names(before.player(p.attacker), decl.attackers),
               defenders=_names(before.player(other), decl.defenders), bypassed=list(out.bypassed),
               winner=out.winner, winner_player=out.winner_key, unopposed=out.unopposed,
               str={"attacker": out.strength[0], "defender": out.strength[1]}, claim_effects=claim_dict(out.claim),
               keywords=keyword_dicts(out), keywords_not_acting=list(out.not_acting), steps=step_dicts(out),
               power_after=out.after.totals(), game_end=end_dict(out.game_end, before.first_player))
    if record.defence is not None:
        row["defence_options"] = [{"defenders": _names(before.player(other), option),
                                   "attacker_gain": dict(zip(GAIN_TERMS, gain))}
                                  for option, gain in record.defence.considered]
    if record.stealth_tried:
        row["stealth_options"] = [{"bypassed": _names(before.player(other), tuple(t for _, t in pairs)),
                                   "attacker_gain": dict(zip(GAIN_TERMS, gain))} for pairs, gain in record.stealth_tried]
    return row


def plan_round(search: PlanSearch, plan: Plan) -> RoundResult:
    """The round a plan makes, replayed with its choices so that its steps can be shown."""
    challenges = tuple(PlannedChallenge(search.player, c.type, c.attackers, c.outcome.declaration.defenders,
                                        c.stealth, where=f"best_plan[{i}]") for i, c in enumerate(plan.challenges))
    return play_round(Round(search.start, challenges))


def _plan_row(plan: Plan, player: str) -> dict[str, Any]:
    end = plan.game_end
    return {"plan": plan.label(player), "order": list(plan.order), "value": dict(zip(PLAN_TERMS, plan.value)),
            "power_after": plan.after.totals(), "dominance": plan.dominance.winner if plan.dominance else None,
            "game_winner": end.winner if end else None}


@dataclass(frozen=True, slots=True)
class RoundReport:
    """Exact answer to a round scenario: the round as listed, or the best plan and its round."""

    result: RoundResult
    plan: PlanSearch | None = None

    @property
    def headline_player(self) -> str:
        """Whose power the headline follows: the best plan's player, else the first player."""
        return self.plan.player if self.plan is not None else self.result.round.board.keys[0]

    def headline(self) -> Headline:
        """The headline numbers: the power `headline_player` gains in the round (challenges and dominance).

        One number, since a round has no chance in its power (the power after minus before).

        >>> from explorer.games.agot_lcg import resolve
        >>> rep = resolve({"players": {
        ...     "first": {"faction": 2, "claim": 1, "characters": [{"name": "Ned", "str": 4, "icons": ["power"]}]},
        ...     "second": {"faction": 3, "characters": []}},
        ...     "challenges": [{"attacker": "first", "type": "power", "attackers": ["Ned"]}]})
        >>> rep.headline().of, rep.headline().median
        ('power the first player gains in the round (challenges and dominance)', 2)
        """
        key, r = self.headline_player, self.result
        return power_headline(r.round.board.totals()[key], r.after.totals()[key],
                              f"power the {key} player gains in the round (challenges and dominance)")

    @property
    def rulings(self) -> tuple[str, ...]:
        """The rulings this report rests on."""
        return CHALLENGE_RULINGS + ROUND_RULINGS + (PLAN_RULINGS if self.plan else ())

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the board before and after, each challenge, dominance, the game's end, rulings."""
        r = self.result
        start = r.round.board
        end = r.game_end
        dom = r.dominance
        out: dict[str, Any] = {
            "format": 1, "game": "agot-lcg", "question": "round", "first_player": start.first_player,
            "power_before": start.totals(), "power_after": r.after.totals(),
            "game_winner": end.winner if end else None,
            "headline": self.headline().to_dict(),
            "board_before": {k: _player(start.player(k)) for k in start.keys},
            "board_after": {k: _player(r.after.player(k)) for k in start.keys},
            "challenges": [_record_dict(rec, start) for rec in r.records],
            "dominance": None if dom is None else {"str": dom.strength, "gold": dom.gold, "count": dom.counts,
                                                   "winner": dom.winner},
            "game_end": end_dict(end, start.first_player),
        }
        if self.plan is not None:
            s = self.plan
            out["best_plan"] = {"player": s.player, "plans_considered": s.considered, "terms": list(PLAN_TERMS),
                                "best": _plan_row(s.best, s.player),
                                "best_by_order": [_plan_row(p, s.player) for p in s.by_order],
                                "top": [_plan_row(p, s.player) for p in s.top]}
        out["rulings"] = list(self.rulings)
        return out

    def to_rows(self) -> Rows:
        """One row per challenge: who attacked, the type, the winner, the power after it.

        A challenge not initiated has no power columns (empty cells).
        """
        rows: list[dict[str, Cell]] = [
            {"challenge": c["where"], "attacker": c["attacker"], "type": c["type"], "winner": c.get("winner_player"),
             **{f"power_{k}": v for k, v in c.get("power_after", {}).items()}}
            for c in self.to_dict()["challenges"]]
        return Rows(tuple(dict.fromkeys(k for row in rows for k in row)), tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable account: the plan table if asked, each challenge's steps, dominance, the game."""
        r, lines = self.result, []
        start = r.round.board
        if self.plan is not None:
            lines += self._plan_lines()
        lines.append("ROUND (first player: first)  power " + ", ".join(f"{k} {v}" for k, v in start.totals().items()))
        lines += ["HEADLINE", *(f"  {line}" for line in self.headline().text_lines())]
        if r.start_end is not None:
            lines.append("  not resolved: the game was over before the round")
        for number, record in enumerate(r.records, 1):
            lines += self._challenge_lines(record, number)
        if r.dominance is not None:
            d = r.dominance
            counts = ", ".join(f"{k} {d.strength[k]} STR + {d.gold[k]} gold = {d.counts[k]}" for k in start.keys)
            who = f"{d.winner} gains 1 power" if d.winner else "a tie: no one gains power"
            lines.append(f"DOMINANCE (5.2): {counts}: {who}  [power "
                         + " / ".join(str(v) for v in d.after.totals().values()) + "]")
        end = r.game_end
        where = "" if end is None else ("before the round" if end.step == "start" else f"after step {end.step}")
        lines.append(end_text(end, where))
        lines += rulings_lines(self.rulings)
        return "\n".join(lines) + "\n"

    def _challenge_lines(self, record: ChallengeRecord, number: int) -> list[str]:
        p, out = record.planned, record.outcome
        head = f"{challenge_title(p.type, number).upper()}: the {p.attacker} player attacks"
        lines = [head + ("" if out else ": not initiated (no attacker left)")]
        lines += [f"  dropped: {d}" for d in record.dropped]
        if out is None:
            return lines
        if record.defence is not None:
            lines.append(f"  best defence: compared {len(record.defence.considered)} sets of defenders"
                         + (f" and {len(record.stealth_tried)} stealth choices" if record.stealth_tried else ""))
        lines += [f"  {s.number:<6} {s.event}  [power {s.totals[0]} / {s.totals[1]}]" for s in out.steps]
        lines += ["  " + line for line in claim_lines(out.claim)]
        lines += [f"  {line}" for line in out.not_acting]
        return lines

    def _plan_lines(self) -> list[str]:
        s = self.plan
        assert s is not None
        terms = ", ".join(PLAN_TERMS)
        lines = [f"BEST PLAN FOR {s.player.upper()}: {s.considered} plans compared, each against the best defence",
                 f"  value = ({terms})",
                 f"  best: {s.best.label(s.player)}  value {s.best.value}",
                 "  best plan for each order of challenge types:"]
        lines += [f"    {' > '.join(p.order) or 'no challenge':<28} {str(p.value):<24} {p.label(s.player)}"
                  for p in s.by_order]
        lines.append("  the best plan, step by step:")
        return lines
