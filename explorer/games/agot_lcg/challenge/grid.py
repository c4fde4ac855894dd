"""Who wins a challenge over a grid of strengths: the winner for each attacker and defender STR.

A teaching table: the rule of winning (Rules Reference p.23; Appendix I 4.2.2) applied to every
pair of totals, with the reason for each cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.games.agot_lcg.challenge.winning import challenge_winner, is_unopposed

__all__ = ["WinnerGrid", "winner_grid"]


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
