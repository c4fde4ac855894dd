"""A whole challenges phase (Appendix I 4.1 to 4.4) and dominance (5.2), as pure functions.

The first player is active first and makes their challenges, then the other player (4.2, 4.3);
each challenge runs through `play_challenge`, with the listed defenders or the best defence.
Dominance follows: standing characters' STR plus gold, one power to the higher total.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.games.agot_lcg.challenge.board import Board, Declaration
from explorer.games.agot_lcg.challenge.model import ChallengeType
from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome, play_challenge
from explorer.games.agot_lcg.challenge.winning import GameEnd, victory
from explorer.games.agot_lcg.round.defence import DefenceChoice, Gain, best_defence, best_stealth

__all__ = [
    "ChallengeRecord", "DominanceResult", "PlannedChallenge", "Round", "RoundResult", "dominance", "play_round",
]


@dataclass(frozen=True, slots=True)
class PlannedChallenge:
    """A challenge as the scenario lists it, before the round has run.

    Attributes:
        attacker: key of the attacking player.
        type: the challenge type.
        attackers: indices of the listed attackers.
        defenders: indices of the listed defenders, None for the best defence.
        stealth: named stealth pairs, None to let the attacker pick them against the best defence.
        kill: military claim victims named by the scenario, None for the ruling's choice.
        intimidate: the character named for intimidate, None for the ruling's choice.
        str_modifiers: STR each side counts beyond its characters.
        where: scenario path, such as ``challenges[0]``.
    """

    attacker: str
    type: ChallengeType
    attackers: tuple[int, ...]
    defenders: tuple[int, ...] | None = None
    stealth: tuple[tuple[int, int], ...] | None = None
    kill: tuple[int, ...] | None = None
    intimidate: int | None = None
    str_modifiers: tuple[int, int] = (0, 0)
    where: str = "challenges[0]"


@dataclass(frozen=True, slots=True)
class Round:
    """A board, the first player's and then the other player's challenges, in the listed order."""

    board: Board
    challenges: tuple[PlannedChallenge, ...] = ()


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """What became of one listed challenge.

    Attributes:
        planned: the challenge as listed.
        outcome: the challenge resolved, None if it was not initiated (no attacker left).
        dropped: names of listed attackers or defenders no longer able to take part, with why.
        defence: the best defence and the options compared, when the defence was left to the rules.
        stealth_tried: (stealth pairs, attacker's gain) for each stealth choice compared.
    """

    planned: PlannedChallenge
    outcome: ChallengeOutcome | None
    dropped: tuple[str, ...] = ()
    defence: DefenceChoice | None = None
    stealth_tried: tuple[tuple[tuple[tuple[int, int], ...], Gain], ...] = ()


@dataclass(frozen=True, slots=True)
class DominanceResult:
    """Dominance (5.2): each player's count (standing STR plus gold) and the winner, if any."""

    strength: dict[str, int]
    gold: dict[str, int]
    winner: str | None
    after: Board
    game_end: GameEnd | None

    @property
    def counts(self) -> dict[str, int]:
        """Standing STR plus gold, per player."""
        return {k: self.strength[k] + self.gold[k] for k in self.strength}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A whole round: each challenge, dominance, the board after and the game's end, if any."""

    round: Round
    records: tuple[ChallengeRecord, ...]
    dominance: DominanceResult | None
    after: Board
    game_end: GameEnd | None
    start_end: GameEnd | None = None


def dominance(board: Board) -> DominanceResult:
    """Determine dominance: the higher standing STR plus gold gains 1 power for its faction; a tie, no one (5.2).

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("first", "second"), (PlayerState((Character("A", 3),), gold=1), PlayerState(gold=4)))
    >>> dominance(b).winner is None, dominance(b).counts
    (True, {'first': 4, 'second': 4})
    """
    strength = {k: p.standing_str() for k, p in zip(board.keys, board.players)}
    gold = {k: p.gold for k, p in zip(board.keys, board.players)}
    counts = {k: strength[k] + gold[k] for k in board.keys}
    top = max(counts.values())
    leaders = [k for k in board.keys if counts[k] == top]
    winner = leaders[0] if len(leaders) == 1 else None
    after = board
    if winner is not None:
        state = board.player(winner)
        after = board.with_player(winner, replace(state, faction=state.faction + 1))
    end = victory(after.totals(), after.decks(), after.first_player, "5.2")
    return DominanceResult(strength, gold, winner, after, end)


def _able(board: Board, key: str, indices: tuple[int, ...], role: str, start: Board | None = None
          ) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Split listed characters into those still able to take part and lines for the others.

    A kneeling character cannot be declared as an attacker or a defender (4.2, 4.2.1): it is
    dropped with a note saying whether it knelt before the round (`start`) or during it.

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("first", "second"), (PlayerState((Character("A", 1, standing=False),)), PlayerState()))
    >>> _able(b, "first", (0,), "attack", b)[1]
    ('A is kneeling at the start of the round (standing: false) and cannot attack (4.2, 4.2.1)',)
    """
    state = board.player(key)
    keep, dropped = [], []
    for i in indices:
        c = state.characters[i]
        if i in state.dead:
            dropped.append(f"{c.name} was killed earlier this round")
        elif not c.standing and start is not None and not start.player(key).characters[i].standing:
            dropped.append(f"{c.name} is kneeling at the start of the round (standing: false) and cannot {role} "
                           "(4.2, 4.2.1)")
        elif not c.standing:
            dropped.append(f"{c.name} is kneeling (knelt earlier this round)")
        else:
            keep.append(i)
    return tuple(keep), tuple(dropped)


def play_planned(board: Board, planned: PlannedChallenge, start: Board | None = None) -> ChallengeRecord:
    """One listed challenge on the board as it now is: drop who can no longer act, choose the defence, resolve.

    `start` is the board at the start of the round, to say why a kneeling character is dropped.
    """
    attackers, dropped = _able(board, planned.attacker, planned.attackers, "attack", start)
    if not attackers:
        return ChallengeRecord(planned, None, dropped)
    decl = Declaration(planned.attacker, planned.type, attackers, (), board.player(planned.attacker).claim,
                       planned.stealth or (), planned.kill, planned.intimidate, planned.str_modifiers, planned.where)
    decl = replace(decl, stealth=tuple(p for p in decl.stealth if p[0] in attackers))
    if planned.defenders is not None:
        defenders, more = _able(board, board.other(planned.attacker), planned.defenders, "defend", start)
        decl = replace(decl, defenders=defenders)
        return ChallengeRecord(planned, play_challenge(board, decl), dropped + more)
    tried: tuple[tuple[tuple[tuple[int, int], ...], Gain], ...] = ()
    if planned.stealth is None and any(board.player(planned.attacker).characters[i].has("stealth")
                                       for i in attackers):
        choice, tried = best_stealth(board, decl)
    else:
        choice = best_defence(board, decl)
    return ChallengeRecord(planned, choice.outcome, dropped, choice, tried)


def play_round(round_: Round) -> RoundResult:
    """Resolve the listed challenges in order, then dominance; stop at the first victory.

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> knight = Character("Knight", 3, ("renown",), ("power",))
    >>> b = Board(("first", "second"), (PlayerState((knight,), faction=5, claim=1), PlayerState(faction=3)), "first")
    >>> r = play_round(Round(b, (PlannedChallenge("first", "power", (0,)),)))
    >>> r.after.totals(), r.dominance.winner is None
    ({'first': 8, 'second': 2}, True)
    """
    board = round_.board
    start = victory(board.totals(), board.decks(), board.first_player, "start")
    if start is not None:
        return RoundResult(round_, (), None, board, start, start)
    records = []
    for planned in round_.challenges:
        record = play_planned(board, planned, round_.board)
        records.append(record)
        if record.outcome is None:
            continue
        board = record.outcome.after
        if record.outcome.game_end is not None:
            return RoundResult(round_, tuple(records), None, board, record.outcome.game_end)
    result = dominance(board)
    return RoundResult(round_, tuple(records), result, result.after, result.game_end)
