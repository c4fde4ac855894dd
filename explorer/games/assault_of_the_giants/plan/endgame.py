"""The end of the game (rulebook p.20): Final Ordning, Endgame turns, and who wins.

Winner: most Ordning Points; tied players compare Resource Cards, then regions occupied;
players still tied share the victory (p.20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from explorer.core.dist import Dist

__all__ = ["Phase", "Standing", "may_attack_starting_region", "endgame_turns", "win_chances", "win_chances_joint",
           "TIEBREAKS", "victory", "win_chances_final", "decided_by"]

TIEBREAKS = ("ordning_points", "resource_cards", "regions")
"""What decides the winner, in order (p.20); players equal on all three share the victory."""


class Phase(Enum):
    """Where the game stands with respect to the two pools of Ordning Point tokens (p.20)."""

    NORMAL = "normal"
    """Both pools hold tokens."""
    FINAL_ORDNING = "final ordning"
    """The first pool is empty: Starting Regions may be attacked and entered."""
    ENDGAME = "endgame"
    """The second pool is empty: the last turns are played; points are still earned."""


def may_attack_starting_region(phase: Phase) -> bool:
    """Starting Regions (NPC ones included) may be attacked only from the Final Ordning on (p.20).

    >>> may_attack_starting_region(Phase.NORMAL), may_attack_starting_region(Phase.ENDGAME)
    (False, True)
    """
    return phase is not Phase.NORMAL


def endgame_turns(turn_order: Sequence[str], ordning_numbers: Mapping[str, int], depleted_by: str) -> list[str]:
    """Turns still played after `depleted_by` empties the second pool (p.20).

    Play goes on until the player with the lowest Giant Race Token number has had a turn,
    then every player takes one final turn.

    >>> endgame_turns(["storm", "fire", "hill"], {"storm": 6, "fire": 4, "hill": 1}, "storm")
    ['fire', 'hill', 'storm', 'fire', 'hill']
    >>> endgame_turns(["storm", "fire", "hill"], {"storm": 6, "fire": 4, "hill": 1}, "hill")
    ['storm', 'fire', 'hill']
    """
    last = min(turn_order, key=lambda p: ordning_numbers[p])
    start = turn_order.index(depleted_by)
    turns: list[str] = []
    i = start
    while turn_order[i % len(turn_order)] != last:
        i += 1
        turns.append(turn_order[i % len(turn_order)])
    return turns + [turn_order[(i + 1 + k) % len(turn_order)] for k in range(len(turn_order))]


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final position: Ordning Points (a distribution) and the tiebreakers."""

    points: Dist[int]
    resource_cards: int = 0
    regions: int = 0

    @property
    def tiebreak(self) -> tuple[int, int]:
        """Resource Cards, then regions occupied (p.20)."""
        return (self.resource_cards, self.regions)


def win_chances(standings: Mapping[str, Standing]) -> dict[str, dict[str, Fraction]]:
    """Each player's chance to win alone or to share the victory, players independent.

    >>> d = Dist.uniform([0, 1])
    >>> chances = win_chances({"a": Standing(d, 1), "b": Standing(d, 0)})
    >>> chances["a"]["wins"], chances["b"]["wins"]
    (Fraction(3, 4), Fraction(1, 4))
    """
    result: dict[str, dict[str, Fraction]] = {}
    for name, me in standings.items():
        alone = among = Fraction(0)
        for value, p in me.points.probabilities().items():
            below = above_tb = Fraction(1)
            for other_name, other in standings.items():
                if other_name == name:
                    continue
                less = other.points.where(lambda v: v < value)
                tie = other.points.probability(value)
                below *= less + (tie if other.tiebreak < me.tiebreak else 0)
                above_tb *= less + (tie if other.tiebreak <= me.tiebreak else 0)
            alone += p * below
            among += p * above_tb
        result[name] = {"wins": alone, "shares": among - alone}
    return result


def win_chances_joint(points: Dist[tuple[int, ...]], standings: Sequence[tuple[str, int, int]]) -> dict[str, dict[str, Fraction]]:
    """Win chances from a joint distribution of everyone's points (say from `plan_points`).

    Args:
        points: joint Ordning Points, one coordinate per player.
        standings: per player, (name, Resource Cards, regions occupied).

    >>> win_chances_joint(Dist({(2, 2): 1}), [("a", 0, 1), ("b", 0, 1)])["a"]["shares"]
    Fraction(1, 1)
    """
    totals = {name: [Fraction(0), Fraction(0)] for name, _, _ in standings}
    for outcome, p in points.probabilities().items():
        keys = [(outcome[i], cards, regions) for i, (_, cards, regions) in enumerate(standings)]
        best = max(keys)
        winners = [standings[i][0] for i, k in enumerate(keys) if k == best]
        for name in winners:
            totals[name][0 if len(winners) == 1 else 1] += p
    return {name: {"wins": w, "shares": s} for name, (w, s) in totals.items()}


def victory(standings: Sequence[tuple[int, int, int]]) -> tuple[tuple[int, ...], str]:
    """Who wins, given each player's (Ordning Points, Resource Cards, regions occupied), and why.

    The most Ordning Points wins; among the players tied for the most, the most Resource Cards;
    among those still tied, the most regions occupied; players tied on all three share (p.20).

    Returns:
        The winners' positions, and what decided: one of `TIEBREAKS`, or ``"shared"``.

    >>> victory([(5, 1, 2), (5, 3, 0), (4, 9, 9)])
    ((1,), 'resource_cards')
    >>> victory([(5, 1, 2), (5, 1, 2), (3, 0, 0)])
    ((0, 1), 'shared')
    """
    contenders = list(range(len(standings)))
    for level, name in enumerate(TIEBREAKS):
        best = max(standings[i][level] for i in contenders)
        contenders = [i for i in contenders if standings[i][level] == best]
        if len(contenders) == 1:
            return (contenders[0],), name
    return tuple(contenders), "shared"


def win_chances_final(standings: Dist[tuple[tuple[int, int, int], ...]], players: Sequence[str]) -> dict[str, dict[str, Fraction]]:
    """Each player's chance to win alone and to share the victory, from joint final standings.

    Args:
        standings: joint distribution of every player's (Ordning Points, Resource Cards, regions).
        players: the players' names, in the order of the standings' coordinates.

    >>> even = Dist.uniform([((3, 1, 1), (3, 1, 1)), ((3, 2, 0), (3, 1, 5))])
    >>> win_chances_final(even, ["a", "b"])["a"]
    {'wins': Fraction(1, 2), 'shares': Fraction(1, 2)}
    """
    weights = {name: {"wins": 0, "shares": 0} for name in players}
    for outcome, w in standings.items():
        winners, _ = victory(outcome)
        for i in winners:
            weights[players[i]]["wins" if len(winners) == 1 else "shares"] += w
    return {name: {k: Fraction(w, standings.total) for k, w in row.items()} for name, row in weights.items()}


def decided_by(standings: Dist[tuple[tuple[int, int, int], ...]]) -> dict[str, Fraction]:
    """Chance that the game is decided by each of `TIEBREAKS`, or that the victory is shared.

    >>> decided_by(Dist.uniform([((3, 1, 1), (3, 1, 1)), ((3, 2, 0), (3, 1, 5))]))["shared"]
    Fraction(1, 2)
    """
    weights = dict.fromkeys(TIEBREAKS + ("shared",), 0)
    for outcome, w in standings.items():
        weights[victory(outcome)[1]] += w
    return {name: Fraction(w, standings.total) for name, w in weights.items()}
