"""Pure helpers for the A Game of Thrones panel: grids, traces, tables and distributions as data.

Nothing here imports a UI library; each function turns a rule or a result into plain values
or `explorer.dist.Dist` objects that a chart or a table can show as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from explorer.dist import Dist
from explorer.games.agot_lcg.challenge import ChallengeOutcome
from explorer.games.agot_lcg.defence import GAIN_TERMS, DefenceChoice
from explorer.games.agot_lcg.odds import copies_discarded, deck_out, draw_odds, power_race, race_round
from explorer.games.agot_lcg.phase import RoundResult
from explorer.games.agot_lcg.plan import PLAN_TERMS, PlanSearch
from explorer.games.agot_lcg.winning import challenge_winner, is_unopposed

__all__ = [
    "WinnerGrid", "deck_out_dist", "defence_table", "draw_round_dist", "intrigue_survival_dist", "plan_table",
    "power_race_dist", "race_round_dist", "race_winner_dist", "round_trace", "step_trace", "winner_grid",
]


@dataclass(frozen=True, slots=True)
class WinnerGrid:
    """Who wins a challenge for each attacker STR (rows) and defender STR (columns).

    Attributes:
        attacker_str: the row values.
        defender_str: the column values.
        winners: ``"attacker"``, ``"defender"`` or ``"none"`` per cell.
        codes: 1 attacker, -1 defender, 0 no one (for a heatmap's colour).
        reasons: why, in words: ``higher STR``, ``tie: attacker``, ``unopposed``, ``0 STR: no winner``,
            ``no participant: no winner``.
    """

    attacker_str: tuple[int, ...]
    defender_str: tuple[int, ...]
    winners: tuple[tuple[str, ...], ...]
    codes: tuple[tuple[int, ...], ...]
    reasons: tuple[tuple[str, ...], ...]


def _reason(a: int, d: int, winner: str, attackers: int, defenders: int) -> str:
    if winner == "none":
        side_count = attackers if a >= d else defenders
        return "no participant: no winner" if side_count < 1 and max(a, d) >= 1 else "0 STR: no winner"
    if is_unopposed(winner, d):
        return "unopposed"
    return "tie: attacker" if a == d else "higher STR"


def winner_grid(max_attacker_str: int = 10, max_defender_str: int = 10, *, attackers: int = 1,
                defenders: int = 1) -> WinnerGrid:
    """The winner over attacker STR x defender STR, showing the tie and zero-STR rules (p.23).

    `attackers` and `defenders` count the participating characters on each side (0 shows the
    "at least 1 participating character" rule). Each axis holds every STR from 0 while the STR
    asked for is at most `GRID_STEPS`; beyond, at most `GRID_STEPS` + 3 values from 0 to it (0, 1
    and 2 always among them), so the grid's size never follows the STR.

    >>> g = winner_grid(2, 2)
    >>> g.winners[0], g.reasons[1][1], g.reasons[1][0]
    (('none', 'defender', 'defender'), 'tie: attacker', 'unopposed')
    >>> big = winner_grid(10**6, 5)
    >>> len(big.attacker_str), big.attacker_str[:3], big.attacker_str[-1], big.defender_str
    (33, (0, 1, 2), 1000000, (0, 1, 2, 3, 4, 5))
    """
    rows, cols = _grid_axis(max_attacker_str), _grid_axis(max_defender_str)
    winners = tuple(tuple(challenge_winner(a, d, attackers, defenders) for d in cols) for a in rows)
    codes = tuple(tuple({"attacker": 1, "defender": -1, "none": 0}[w] for w in row) for row in winners)
    reasons = tuple(tuple(_reason(a, d, w, attackers, defenders) for d, w in zip(cols, row))
                    for a, row in zip(rows, winners))
    return WinnerGrid(rows, cols, winners, codes, reasons)


GRID_STEPS = 30
"""Most steps along one axis of the winner grid (a chart stays small whatever the STR)."""


def _grid_axis(top: int) -> tuple[int, ...]:
    """STR values 0..top, every one up to `GRID_STEPS`, else evenly spread (0, 1, 2 kept).

    >>> _grid_axis(3), _grid_axis(300)[:4], len(_grid_axis(300))
    ((0, 1, 2, 3), (0, 1, 2, 10), 33)
    """
    if top <= GRID_STEPS:
        return tuple(range(top + 1))
    return tuple(sorted({0, 1, 2} | {top * i // GRID_STEPS for i in range(GRID_STEPS + 1)}))


def step_trace(outcome: ChallengeOutcome, label: str = "") -> list[dict[str, Any]]:
    """One challenge's steps as rows: challenge label, step, event, power of each player after it, rule.

    >>> from explorer.games.agot_lcg.board import Board, Declaration, PlayerState
    >>> from explorer.games.agot_lcg.challenge import play_challenge
    >>> from explorer.games.agot_lcg.model import Character
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


def defence_table(choice: DefenceChoice, outcome: ChallengeOutcome | None = None) -> list[dict[str, Any]]:
    """Every defence compared, with the attacker's gain term by term; the chosen one flagged."""
    board = (outcome or choice.outcome).before
    defender = board.player(board.other(choice.outcome.declaration.attacker))
    return [{"defenders": [defender.characters[i].name for i in option], "chosen": option == choice.defenders,
             **dict(zip(GAIN_TERMS, gain))} for option, gain in choice.considered]


def plan_table(search: PlanSearch) -> list[dict[str, Any]]:
    """The best plan for each order of challenge types, best first, with its value term by term."""
    return [{"order": " > ".join(p.order) or "no challenge", "plan": p.label(search.player),
             "best": p.index == search.best.index, **dict(zip(PLAN_TERMS, p.value))}
            for p in search.by_order]


def intrigue_survival_dist(hand: int, copies: int, claim: int) -> Dist[int]:
    """Copies of a card left in hand after an intrigue claim (a distribution over 0..copies).

    >>> intrigue_survival_dist(7, 1, 2).probability(1)
    Fraction(5, 7)
    """
    return copies_discarded(hand, copies, claim).map(lambda gone: copies - gone)


def draw_round_dist(deck: int, copies: int, rounds: int, **options: Any) -> Dist[int]:
    """The round by which at least one copy (or `at_least`) has been drawn; ``rounds + 1`` is "later".

    Round 0 is the setup hand. Built from `draw_odds` (same options), whose chances never
    decrease from one round to the next.

    >>> draw_round_dist(10, 1, 1).probabilities()
    {0: Fraction(91, 100), 1: Fraction(3, 50), 2: Fraction(3, 100)}
    """
    chances = draw_odds(deck, copies, rounds, **options)
    previous = Fraction(0)
    masses: dict[int, Fraction] = {}
    for r, p in enumerate(chances):
        masses[r], previous = p - previous, p
    masses[rounds + 1] = 1 - previous
    scale = lcm(*(p.denominator for p in masses.values()))
    return Dist({r: int(p * scale) for r, p in masses.items()})


def power_race_dist(first: tuple[int, Dist[int]], second: tuple[int, Dist[int]], max_rounds: int = 30
                    ) -> Dist[tuple[int, str]]:
    """The race to 15: ``(round, winner)`` (see `explorer.games.agot_lcg.odds.power_race`)."""
    return power_race(first, second, max_rounds)


def race_winner_dist(race: Dist[tuple[int, str]]) -> Dist[str]:
    """Who wins the race (``"first"``, ``"second"`` or ``"none"`` within the rounds followed).

    >>> race_winner_dist(Dist({(1, "first"): 1, (2, "second"): 3})).probability("second")
    Fraction(3, 4)
    """
    return race.map(lambda outcome: outcome[1])


deck_out_dist = deck_out
"""The round a deck runs out (`explorer.games.agot_lcg.odds.deck_out`), a `Dist` over rounds."""

race_round_dist = race_round
"""The round someone reaches 15 (`explorer.games.agot_lcg.odds.race_round`)."""
