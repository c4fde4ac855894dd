"""What playing a round of challenges costs, weighed before it is played (for a sweep's grid).

A round is quick on its own (a challenge answered by the best defence compares at most
`defence.MAX_DEFENCE_OPTIONS` defences, each one challenge played), but a sweep plays it once per
cell: `round_seconds` bounds the work from the board before the round, so that the whole grid is
weighed before its first cell. Characters only kneel or die during a round, so the defences and
stealth choices open to a challenge are at most those the board shows at the start.
"""

from __future__ import annotations

from math import comb

from explorer.games.agot_lcg.challenge.keywords import stealth_targets_allowed
from explorer.games.agot_lcg.round.phase import PlannedChallenge, Round

__all__ = ["PLAY_SECONDS", "ROUND_SECONDS", "plays", "challenges_played", "round_seconds", "costliest_field"]

PLAY_SECONDS = 40e-6
"""Work of one challenge played while a defence is chosen: measured at 11 to 13 microseconds (a
thousand named cards in hand at the top), counted as 40."""

ROUND_SECONDS = 0.005
"""Work of a round beyond its challenges (reading it, dominance, the summary): about 2 ms, counted as 5."""


def plays(round_: Round, planned: PlannedChallenge) -> int:
    """At most how many challenges the listed challenge plays (its best defence and stealth choices)."""
    if planned.defenders is not None:
        return 1
    board = round_.board
    attacking, defending = board.player(planned.attacker), board.player(board.other(planned.attacker))
    eligible = defending.eligible(planned.type)
    defences: int = 2 ** len(eligible)
    sneaks = sum(1 for i in planned.attackers if attacking.characters[i].has("stealth"))
    if planned.stealth is not None or not sneaks:
        return defences
    targets = sum(1 for i in eligible if stealth_targets_allowed(defending.characters[i]))
    return defences * sum(comb(targets, k) for k in range(min(sneaks, targets) + 1))


def challenges_played(round_: Round) -> int:
    """At most how many challenges playing the round takes, counted from the board before it.

    >>> from explorer.games.agot_lcg.challenge.board import Board, PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> knight = Character("Knight", 3, (), ("power",))
    >>> board = Board(("first", "second"), (PlayerState((knight,)), PlayerState((knight, knight))), "first")
    >>> challenges_played(Round(board, (PlannedChallenge("first", "power", (0,)),)))
    4
    """
    return sum(plays(round_, planned) for planned in round_.challenges)


def round_seconds(round_: Round) -> float:
    """Estimated seconds of `phase.play_round` for the round (`PLAY_SECONDS` a challenge, `ROUND_SECONDS`)."""
    return ROUND_SECONDS + PLAY_SECONDS * challenges_played(round_)


def costliest_field(round_: Round) -> str:
    """The input to name when the round costs too much: the defenders of its costliest challenge
    (listing them plays the challenge once), or ``challenges`` for a round without any."""
    if not round_.challenges:
        return "challenges"
    planned = max(round_.challenges, key=lambda p: plays(round_, p))
    return f"{planned.where}.defenders"
