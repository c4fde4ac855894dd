"""One challenge as the scenario format describes it: already declared, resolved from 4.2.2 on.

The scenario's `Challenge` becomes a `Board` and a `Declaration`, and the shared challenge
procedure (`explorer.games.agot_lcg.challenge.steps`) resolves it. Page numbers refer to the 2015
Rules Reference; p.23 is the project's seed page.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, Declaration, PlayerState
from explorer.games.agot_lcg.challenge.claims import ClaimEffect
from explorer.games.agot_lcg.challenge.model import PLAYERS, Challenge, ChallengeType, Character, Player, Power, Side
from explorer.games.agot_lcg.challenge.steps import (
    ChallengeOutcome,
    KeywordEffect,
    StepRecord,
    apply_claim,
    play_challenge,
)
from explorer.games.agot_lcg.challenge.winning import GameEnd, challenge_winner, is_unopposed, opponent, victory

__all__ = [
    "ChallengeResult", "ClaimEffect", "GameEnd", "StepRecord", "challenge_winner", "claim_result",
    "is_unopposed", "opponent", "renown_gained", "resolve_challenge", "to_board", "victory",
]


def renown_gained(characters: tuple[Character, ...]) -> int:
    """Power the winner's participating characters gain from renown, 1 each (glossary "Renown").

    >>> renown_gained((Character("A", 2, ("renown",)), Character("B", 1)))
    1
    """
    return sum(1 for c in characters if c.has("renown"))


def _state(side: Side, defender: bool) -> PlayerState:
    """A side as a board state; its participating characters knelt when they were declared."""
    chars = tuple(replace(c, standing=False) for c in side.characters) + side.others
    if side.in_play is not None:
        unlisted: int | None = side.in_play - len(side.characters) - len(side.others)
    else:
        unlisted = 0 if side.others else None
    return PlayerState(chars, side.power.faction, side.power.cards, side.deck, side.hand_size, side.hand,
                       unlisted if defender else None)


def _index(side: Side, name: str, field: str) -> int:
    chars = side.characters + side.others
    found = [i for i, c in enumerate(chars) if c.name == name]
    if len(found) != 1:
        listed = ", ".join(repr(c.name) for c in chars) or "none"
        problem = "names two characters" if found else "is not a listed character"
        raise ScenarioError(field, f"{name!r} {problem} of that side (listed: {listed})")
    return found[0]


def to_board(challenge: Challenge) -> tuple[Board, Declaration]:
    """The board and the declaration a one-challenge scenario describes.

    >>> board, decl = to_board(Challenge("power", 1, Side((Character("K", 3),)), Side()))
    >>> decl.attackers, board.player("attacker").characters[0].standing
    ((0,), False)
    """
    att, dfn = challenge.attacker, challenge.defender
    stealth = tuple((_index(att, a, f"challenge.stealth.{a}"), _index(dfn, t, f"challenge.stealth.{a}"))
                    for a, t in challenge.stealth)
    kill = None if challenge.kill is None else tuple(
        _index(dfn, name, f"challenge.kill[{i}]") for i, name in enumerate(challenge.kill))
    intimidate = None if challenge.intimidate is None else _index(dfn, challenge.intimidate, "challenge.intimidate")
    decl = Declaration("attacker", challenge.type, tuple(range(len(att.characters))),
                       tuple(range(len(dfn.characters))), challenge.claim, stealth, kill, intimidate,
                       (att.str_modifier, dfn.str_modifier))
    board = Board(PLAYERS, (_state(att, False), _state(dfn, True)), challenge.first_player, challenge.keyword_order)
    return board, decl


def claim_result(challenge_type: ChallengeType, claim: int, defender: Side) -> ClaimEffect:
    """The claim result against the losing defender (glossary "Claim"; 4.2.4).

    Power: up to `claim` power leaves the defender's faction card, never more than it has.
    Military: the defender chooses and kills `claim` characters (fewer if they control fewer).
    Intrigue: `claim` cards are discarded at random from the defender's hand (exact odds of
    which ones with a known hand, drawn without replacement).

    >>> claim_result("power", 3, Side(power=Power(2, 4))).power_moved
    2
    >>> claim_result("intrigue", 1, Side(hand=(("Ned", 1), ("Robb", 3)))).discard_chance()
    {'Ned': 0.25, 'Robb': 0.75}
    """
    board, decl = to_board(Challenge(challenge_type, claim, Side((Character("attacker", 1),)), defender))
    return apply_claim(board, decl)[1]


@dataclass(frozen=True, slots=True)
class ChallengeResult:
    """One challenge scenario and what it resolved to."""

    challenge: Challenge
    outcome: ChallengeOutcome

    @property
    def winner(self) -> str:
        """``"attacker"``, ``"defender"`` or ``"none"``."""
        return self.outcome.winner

    @property
    def unopposed(self) -> bool:
        """The attacker won with the defending side counting 0 STR (p.23)."""
        return self.outcome.unopposed

    @property
    def strength(self) -> tuple[int, int]:
        """Total STR of the attacker and of the defender."""
        return self.outcome.strength

    @property
    def bonus(self) -> int:
        """The unopposed bonus gained (0 or 1)."""
        return self.outcome.bonus

    @property
    def claim(self) -> ClaimEffect | None:
        """The claim result, None unless the attacker won."""
        return self.outcome.claim

    @property
    def game_end(self) -> GameEnd | None:
        """How the game ended, None if it goes on."""
        return self.outcome.game_end

    @property
    def steps(self) -> tuple[StepRecord, ...]:
        """Each step and the power totals after it."""
        return self.outcome.steps

    @property
    def keywords(self) -> tuple[KeywordEffect, ...]:
        """The keywords that acted, in the order they were processed."""
        return self.outcome.keywords

    @property
    def renown(self) -> tuple[int, int]:
        """Renown power gained by the attacker's and by the defender's characters."""
        gained = {p: sum(k.amount for k in self.keywords if k.keyword == "renown" and k.player == p) for p in PLAYERS}
        return gained["attacker"], gained["defender"]

    @property
    def power_moved(self) -> int:
        """Power moved by a power claim."""
        return self.claim.power_moved if self.claim else 0

    def after(self, player: Player) -> Power:
        """Power of ``"attacker"`` or ``"defender"`` after the challenge; ``cards`` counts every card
        but the faction card."""
        state = self.outcome.after.player(player)
        return Power(state.faction, state.total - state.faction)

    def before(self, player: Player) -> Power:
        """Power before the challenge, in the same form as `after`."""
        return Power(self.challenge.side(player).power.faction,
                     self.challenge.side(player).total_power - self.challenge.side(player).power.faction)


def resolve_challenge(challenge: Challenge) -> ChallengeResult:
    """Resolve one challenge step by step; the game ends at the first step meeting a victory.

    >>> c = Challenge("power", 1, Side((Character("Knight", 3, ("renown",)),), Power(5, 2)),
    ...               Side((Character("Guard", 2),), Power(3, 0)))
    >>> r = resolve_challenge(c)
    >>> r.winner, r.after("attacker").total, r.after("defender").total
    ('attacker', 9, 2)
    """
    board, decl = to_board(challenge)
    return ChallengeResult(challenge, play_challenge(board, decl, declare=False, check_start=True))
