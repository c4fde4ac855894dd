"""A round's steps as rows, for tables and charts: each challenge's steps, dropped challenges, dominance."""

from __future__ import annotations

from typing import Any

from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome
from explorer.games.agot_lcg.round.phase import RoundResult

__all__ = ["round_trace", "step_trace"]


def step_trace(outcome: ChallengeOutcome, label: str = "") -> list[dict[str, Any]]:
    """One challenge's steps as rows: challenge label, step, event, power of each player after it, rule.

    >>> from explorer.games.agot_lcg.challenge.board import Board, Declaration, PlayerState
    >>> from explorer.games.agot_lcg.challenge.steps import play_challenge
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("a", "d"), (PlayerState((Character("K", 2, (), ("power",)),)), PlayerState(faction=1)))
    >>> step_trace(play_challenge(b, Declaration("a", "power", (0,), claim=1)))[3]["step"]
    '4.2.3'
    """
    keys = outcome.before.keys
    return [{"challenge": label, "step": s.number, "event": s.event, "power": dict(zip(keys, s.totals)),
             "rule": s.rule} for s in outcome.steps]


def round_trace(result: RoundResult) -> list[dict[str, Any]]:
    """A whole round's steps as rows (see `step_trace`), dropped challenges and dominance included."""
    rows: list[dict[str, Any]] = []
    for record in result.records:
        label = f"{record.planned.where}: {record.planned.attacker} {record.planned.type}"
        for note in record.dropped:
            rows.append({"challenge": label, "step": "4.2", "event": f"dropped: {note}", "power": {}, "rule": ""})
        if record.outcome is not None:
            rows += step_trace(record.outcome, label)
    if result.dominance is not None:
        d = result.dominance
        who = f"{d.winner} gains 1 power" if d.winner else "a tie: no one gains power"
        rows.append({"challenge": "dominance", "step": "5.2",
                     "event": ", ".join(f"{k} {c}" for k, c in d.counts.items()) + f": {who}",
                     "power": d.after.totals(), "rule": "Rules Reference Appendix I 5.2"})
    return rows
