"""A round's steps as rows, for tables and charts: each challenge's steps, dropped challenges, dominance.

A challenge is named as the rules name it: by its type and its place in the round's declared
order ("Military challenge 1"), with the attacking player where that helps (4.2); the scenario
path (``challenges[0]``) is for error messages only.
"""

from __future__ import annotations

from typing import Any

from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome
from explorer.games.agot_lcg.round.phase import RoundResult

__all__ = ["challenge_label", "challenge_title", "round_trace", "step_trace"]


def challenge_title(kind: str, number: int) -> str:
    """A challenge's name: its type and its place (from 1) in the round's declared order.

    >>> challenge_title("military", 1), challenge_title("power", 3)
    ('Military challenge 1', 'Power challenge 3')
    """
    return f"{kind.capitalize()} challenge {number}"


def challenge_label(kind: str, number: int, attacker: str) -> str:
    """A challenge's name with the attacking player (``"first"`` or ``"second"``).

    >>> challenge_label("intrigue", 2, "second")
    'Intrigue challenge 2 (second player)'
    """
    return f"{challenge_title(kind, number)} ({attacker} player)"


def step_trace(outcome: ChallengeOutcome, label: str = "", title: str = "") -> list[dict[str, Any]]:
    """One challenge's steps as rows: the challenge's label (with the attacker) and title (without), step,
    event, power of each player after it, rule.

    >>> from explorer.games.agot_lcg.challenge.board import Board, Declaration, PlayerState
    >>> from explorer.games.agot_lcg.challenge.steps import play_challenge
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("a", "d"), (PlayerState((Character("K", 2, (), ("power",)),)), PlayerState(faction=1)))
    >>> step_trace(play_challenge(b, Declaration("a", "power", (0,), claim=1)))[3]["step"]
    '4.2.3'
    """
    keys = outcome.before.keys
    return [{"challenge": label, "title": title, "step": s.number, "event": s.event,
             "power": dict(zip(keys, s.totals)), "rule": s.rule} for s in outcome.steps]


def round_trace(result: RoundResult) -> list[dict[str, Any]]:
    """A whole round's steps as rows (see `step_trace`), dropped challenges and dominance included.

    >>> from explorer.games.agot_lcg.round.phase import play_round
    >>> from explorer.games.agot_lcg.round.scenario import parse_round
    >>> q = parse_round({"players": {"first": {"faction": 2, "claim": 1, "characters": [
    ...     {"name": "Ned", "str": 4, "icons": ["power"]}]}, "second": {"faction": 3, "characters": []}},
    ...     "challenges": [{"attacker": "first", "type": "power", "attackers": ["Ned"]}]})
    >>> rows = round_trace(play_round(q.round))
    >>> rows[0]["challenge"], rows[0]["title"], rows[-1]["challenge"]
    ('Power challenge 1 (first player)', 'Power challenge 1', 'Dominance')
    """
    rows: list[dict[str, Any]] = []
    for number, record in enumerate(result.records, 1):
        title = challenge_title(record.planned.type, number)
        label = challenge_label(record.planned.type, number, record.planned.attacker)
        for note in record.dropped:
            rows.append({"challenge": label, "title": title, "step": "4.2", "event": f"dropped: {note}",
                         "power": {}, "rule": ""})
        if record.outcome is not None:
            rows += step_trace(record.outcome, label, title)
    if result.dominance is not None:
        d = result.dominance
        who = f"{d.winner} gains 1 power" if d.winner else "a tie: no one gains power"
        rows.append({"challenge": "Dominance", "title": "Dominance", "step": "5.2",
                     "event": ", ".join(f"{k} {c}" for k, c in d.counts.items()) + f": {who}",
                     "power": d.after.totals(), "rule": "Rules Reference Appendix I 5.2"})
    return rows
