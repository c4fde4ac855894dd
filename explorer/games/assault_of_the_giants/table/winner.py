"""Who wins from the final standings, and by which step of the tiebreak chain (p.20).

The chain itself is `endgame.victory` (the one implementation, shared with the plan of battles):
most Ordning Points; then, among the tied, most Resource Cards; then most regions occupied; players
still tied share the victory. A race with no forces left on the board is ranked like any other
(p.20): its regions are simply 0. Where a player's Ordning Points are still a distribution (a
battle to come, say), the players are taken as independent and every player gets a chance to win
alone and to share, and every step a chance to be the one that decided.

>>> from explorer.core.dist import Dist
>>> from explorer.games.assault_of_the_giants.plan.endgame import Standing
>>> result = winner({"hill": Standing(Dist.single(9), 2, 0), "storm": Standing(Dist.single(9), 1, 4)})
>>> result.winners, result.decided_by
(('hill',), 'resource_cards')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants.plan.endgame import (
    TIEBREAKS,
    Standing,
    decided_by,
    victory,
    win_chances_final,
)

__all__ = ["Victory", "winner", "STEP_LABELS", "MAX_JOINT_OUTCOMES"]

STEP_LABELS: Mapping[str, str] = dict(zip(TIEBREAKS + ("shared",), (
    "most Ordning Points",
    "tie on Ordning Points broken by the most Resource Cards",
    "tie on Ordning Points and Resource Cards broken by the most regions occupied",
    "tied on Ordning Points, Resource Cards and regions: the victory is shared",
), strict=True))
"""What each step of the chain (`endgame.TIEBREAKS`, then ``shared``) means, for people.

>>> STEP_LABELS["regions"][:40]
'tie on Ordning Points and Resource Cards'
"""

MAX_JOINT_OUTCOMES = 100_000
"""Most combinations of uncertain Ordning Points compared (a computing limit)."""

Line = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Victory:
    """The winner(s) and why; with uncertain points, each player's chances."""

    players: tuple[str, ...]
    winners: tuple[str, ...]
    """The winners when the standings are certain; empty while points are still random."""
    decided_by: str | None
    """The step that decided (`endgame.TIEBREAKS` or ``"shared"``); None while points are random."""
    chances: Mapping[str, Mapping[str, Fraction]]
    """Per player, ``wins`` (alone) and ``shares`` (the victory), exact."""
    steps: Mapping[str, Fraction]
    """Per step of the chain, the chance that it decides."""

    @property
    def reason(self) -> str:
        """The outcome in words, citing p.20."""
        if self.decided_by is None:
            return "Ordning Points are still random: chances to win alone or to share (p.20)"
        who = " and ".join(self.winners)
        verb = "share the victory" if len(self.winners) > 1 else "wins"
        return f"{who} {verb}: {STEP_LABELS[self.decided_by]} (p.20)"


def winner(standings: Mapping[str, Standing]) -> Victory:
    """The winner(s) from each player's final Ordning Points, Resource Cards and regions occupied (p.20).

    Args:
        standings: player -> `endgame.Standing`; its points may be one value (`Dist.single`) or a
            distribution, independent of the other players'.

    Raises:
        ValueError: no players, or more than `MAX_JOINT_OUTCOMES` combinations of random points.

    >>> from explorer.games.assault_of_the_giants.plan.endgame import Standing
    >>> tied = Standing(Dist.single(5), 1, 1)
    >>> winner({"a": tied, "b": tied, "c": Standing(Dist.single(4), 9, 9)}).reason
    'a and b share the victory: tied on Ordning Points, Resource Cards and regions: the victory is shared (p.20)'
    >>> coin = winner({"a": Standing(Dist.uniform([4, 6])), "b": Standing(Dist.single(5))})
    >>> coin.winners, coin.chances["a"]["wins"]
    ((), Fraction(1, 2))
    """
    players = tuple(standings)
    if not players:
        raise ValueError("winner needs at least one player")
    size = 1
    for standing in standings.values():
        size *= len(standing.points)
    if size > MAX_JOINT_OUTCOMES:
        raise ValueError(f"at most {MAX_JOINT_OUTCOMES} combinations of random Ordning Points, got {size}")
    joint: Dist[tuple[Line, ...]] = Dist.single(())
    for name in players:
        joint = joint.combine(standings[name].points, _appender(standings[name]))
    chances = win_chances_final(joint, players)
    steps = decided_by(joint)
    if len(joint) == 1:
        (lines,) = tuple(joint)
        positions, step = victory(lines)
        return Victory(players, tuple(players[i] for i in positions), step, chances, steps)
    return Victory(players, (), None, chances, steps)


def _appender(standing: Standing) -> Callable[[tuple[Line, ...], int], tuple[Line, ...]]:
    """Adds one player's line (points, Resource Cards, regions) to the lines so far."""
    def add(lines: tuple[Line, ...], points: int) -> tuple[Line, ...]:
        return lines + ((points, standing.resource_cards, standing.regions),)
    return add
