"""Winning a challenge and winning the game (Rules Reference p.23; Appendix I 4.2.2, p.28).

These are the seed page's rules, kept apart so that every procedure (one challenge, a round,
dominance) checks them the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from explorer.games.agot_lcg.challenge.model import VICTORY_POWER

__all__ = ["GameEnd", "challenge_winner", "is_unopposed", "opponent", "victory"]


def opponent(player: str) -> str:
    """The other player of a challenge.

    >>> opponent("attacker")
    'defender'
    """
    return "defender" if player == "attacker" else "attacker"


def challenge_winner(attacker_str: int, defender_str: int,
                     attacker_characters: int = 1, defender_characters: int = 1) -> str:
    """Who wins: ``"attacker"``, ``"defender"`` or ``"none"`` (Rules Reference p.23, 4.2.2 p.28).

    The higher total STR wins, a tie goes to the attacker; that side must count at least 1 STR
    and have at least 1 participating character, or no one wins: there is no fallback to the
    other side.

    >>> challenge_winner(2, 2), challenge_winner(1, 3), challenge_winner(0, 0)
    ('attacker', 'defender', 'none')
    >>> challenge_winner(1, 5, defender_characters=0)
    'none'
    """
    candidate = "attacker" if attacker_str >= defender_str else "defender"
    strength, count = ((attacker_str, attacker_characters) if candidate == "attacker"
                       else (defender_str, defender_characters))
    return candidate if strength >= 1 and count >= 1 else "none"


def is_unopposed(winner: str, defender_str: int) -> bool:
    """Unopposed: the attacker wins and the defending side counts 0 STR (p.23).

    >>> is_unopposed("attacker", 0), is_unopposed("attacker", 1), is_unopposed("none", 0)
    (True, False, False)
    """
    return winner == "attacker" and defender_str == 0


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the game ended (Rules Reference p.23, "Winning the Game").

    Attributes:
        winner: a player's key, or None (a tie the first player must decide, and none was given).
        reason: ``"power"`` (15 or more), ``"elimination"`` (the opponent's deck is empty) or
            ``"simultaneous"`` (both players meet a victory condition at once).
        step: ``"start"`` or the step after which the game ended.
        contenders: players meeting a victory condition.
        eliminated: players with an empty draw deck.
        decided_by: ``"rules"``, ``"first player"`` or ``"undecided"`` (no first player given).
    """

    winner: str | None
    reason: str
    step: str
    contenders: tuple[str, ...]
    eliminated: tuple[str, ...] = ()
    decided_by: str = "rules"


def victory(totals: Mapping[str, int], decks: Mapping[str, int | None] | None = None,
            first_player: str | None = None, step: str = "start") -> GameEnd | None:
    """The game's end, if any player meets a victory condition now (p.23).

    A player wins with 15 or more power, or when their opponent is eliminated (empty draw deck).
    If both meet a condition at once, the first player decides: they pick themselves (ruling);
    with no first player given the tie is reported undecided (winner None). The two players are
    the keys of `totals`, in order.

    >>> victory({"attacker": 15, "defender": 3}).winner
    'attacker'
    >>> victory({"attacker": 15, "defender": 16}).decided_by
    'undecided'
    >>> victory({"first": 15, "second": 16}, first_player="second").winner
    'second'
    >>> victory({"attacker": 14, "defender": 0}) is None
    True
    """
    players = tuple(totals)
    other = {players[0]: players[1], players[1]: players[0]}
    eliminated = tuple(p for p in players if decks is not None and decks.get(p) == 0)
    reached = {p for p in players if totals[p] >= VICTORY_POWER}
    contenders = tuple(p for p in players if p in reached or other[p] in eliminated)
    if not contenders:
        return None
    if len(contenders) == 1:
        reason = "power" if contenders[0] in reached else "elimination"
        return GameEnd(contenders[0], reason, step, contenders, eliminated)
    decided = "first player" if first_player else "undecided"
    return GameEnd(first_player, "simultaneous", step, contenders, eliminated, decided)
