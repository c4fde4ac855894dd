"""Best responses to a declared attack: the defenders, and the attacker's stealth targets.

The defender compares every set of eligible defenders (standing, in play, with the icon, not
bypassed by stealth; Appendix I 4.2.1) and keeps the one that gives the attacker the least, as
measured by `challenge_gain`. With stealth attackers and no targets named, the attacker tries
every set of distinct targets against that best defence and keeps the best for them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, Declaration
from explorer.games.agot_lcg.challenge.keywords import stealth_targets_allowed
from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome, play_challenge

__all__ = [
    "GAIN_TERMS", "MAX_DEFENCE_OPTIONS", "DefenceChoice", "best_defence", "best_stealth", "challenge_gain",
    "defence_options", "stealth_options",
]

Gain = tuple[int, ...]

GAIN_TERMS = ("game", "power swing", "characters killed", "cards from hand", "cards from deck",
              "STR knelt", "characters knelt")
"""What `challenge_gain` measures, term by term, from the attacker's side (compared in this order)."""

MAX_DEFENCE_OPTIONS = 4096
"""Most defender sets (2 ** eligible characters) or stealth-and-defence pairs compared for one challenge."""


def challenge_gain(outcome: ChallengeOutcome) -> Gain:
    """What the attacker gets from one challenge, as a tuple compared term by term (`GAIN_TERMS`).

    Game: +1 if the attacker won the game, -1 if the defender did. Power swing: the attacker's
    power change minus the defender's. Then characters killed by claim, cards the defender lost
    from hand (intrigue claim) net of insight draws on both sides, cards pillaged net, and the
    STR and number of the defender's characters that knelt (defending or intimidated).

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> b = Board(("a", "d"), (PlayerState((Character("K", 3, (), ("power",)),)), PlayerState(faction=2)))
    >>> challenge_gain(play_challenge(b, Declaration("a", "power", (0,), (), claim=1)))
    (0, 3, 0, 0, 0, 0, 0)
    """
    decl, end = outcome.declaration, outcome.game_end
    a, d = decl.attacker, outcome.before.other(decl.attacker)
    game = 0 if end is None or end.winner is None else (1 if end.winner == a else -1)
    before, after = outcome.before.totals(), outcome.after.totals()
    swing = (after[a] - before[a]) - (after[d] - before[d])
    claim = outcome.claim
    killed = (claim.kills or 0) if claim and claim.type == "military" else 0
    discarded = (claim.discards or 0) if claim and claim.type == "intrigue" else 0
    drawn = sum(k.amount * (1 if k.player == a else -1) for k in outcome.keywords if k.keyword == "insight")
    pillaged = sum(k.amount * (1 if k.player == a else -1) for k in outcome.keywords if k.keyword == "pillage")
    d0, d1 = outcome.before.player(d), outcome.after.player(d)
    knelt = [c for c, c1 in zip(d0.characters, d1.characters) if c.standing and not c1.standing]
    return (game, swing, killed, discarded + drawn, pillaged, sum(c.strength for c in knelt), len(knelt))


def defence_options(board: Board, decl: Declaration) -> list[tuple[int, ...]]:
    """Every set of eligible defenders, the empty set first, smaller sets before larger ones.

    Raises:
        ScenarioError: more than `MAX_DEFENCE_OPTIONS` sets (naming the challenge's defenders).
    """
    bypassed = {t for _, t in decl.stealth}
    eligible = [i for i in board.player(board.other(decl.attacker)).eligible(decl.type) if i not in bypassed]
    if 2 ** len(eligible) > MAX_DEFENCE_OPTIONS:
        raise ScenarioError(f"{decl.where}.defenders", f"the best defence compares every set of the "
                                                       f"{len(eligible)} eligible characters: at most "
                                                       f"{MAX_DEFENCE_OPTIONS.bit_length() - 1} (list the defenders instead)")
    return [s for k in range(len(eligible) + 1) for s in combinations(eligible, k)]


@dataclass(frozen=True, slots=True)
class DefenceChoice:
    """The best defence to one declared attack, and every option it was chosen from.

    Attributes:
        defenders: the chosen defenders (indices).
        outcome: the challenge resolved with them.
        gain: the attacker's gain with them (`challenge_gain`).
        considered: (defenders, gain) for every option, in the order tried.
    """

    defenders: tuple[int, ...]
    outcome: ChallengeOutcome
    gain: Gain
    considered: tuple[tuple[tuple[int, ...], Gain], ...]


def best_defence(board: Board, decl: Declaration) -> DefenceChoice:
    """The defenders that minimise the attacker's gain (ties: the option tried first).

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> att = PlayerState((Character("K", 3, (), ("power",)),))
    >>> dfn = PlayerState((Character("Big", 4, (), ("power",)), Character("Small", 1, (), ("power",))), faction=2)
    >>> best_defence(Board(("a", "d"), (att, dfn)), Declaration("a", "power", (0,), claim=1)).defenders
    (0,)
    """
    best: tuple[Gain, tuple[int, ...], ChallengeOutcome] | None = None
    considered = []
    for option in defence_options(board, decl):
        outcome = play_challenge(board, replace(decl, defenders=option))
        gain = challenge_gain(outcome)
        considered.append((option, gain))
        if best is None or gain < best[0]:
            best = (gain, option, outcome)
    assert best is not None
    return DefenceChoice(best[1], best[2], best[0], tuple(considered))


def stealth_options(board: Board, decl: Declaration) -> list[tuple[tuple[int, int], ...]]:
    """Every way the stealth attackers may bypass distinct eligible characters, none first.

    Only characters that could defend (eligible, without stealth) are worth bypassing; each
    stealth attacker takes at most one, in the listed order.
    """
    att, dfn = board.player(decl.attacker), board.player(board.other(decl.attacker))
    sneaks = [i for i in decl.attackers if att.characters[i].has("stealth")]
    targets = [i for i in dfn.eligible(decl.type) if stealth_targets_allowed(dfn.characters[i])]
    return [tuple(zip(sneaks, chosen)) for k in range(min(len(sneaks), len(targets)) + 1)
            for chosen in combinations(targets, k)]


def best_stealth(board: Board, decl: Declaration) -> tuple[DefenceChoice, tuple[tuple[tuple[tuple[int, int], ...], Gain], ...]]:
    """The stealth targets best for the attacker against the best defence, and every set tried.

    Raises:
        ScenarioError: too many stealth-and-defence pairs to compare (naming the challenge's stealth).
    """
    options = stealth_options(board, decl)
    eligible = len(board.player(board.other(decl.attacker)).eligible(decl.type))
    if len(options) * 2 ** eligible > MAX_DEFENCE_OPTIONS:
        raise ScenarioError(f"{decl.where}.stealth", f"{len(options)} stealth choices, each against up to "
                                                     f"{2 ** eligible} defences: more than {MAX_DEFENCE_OPTIONS} "
                                                     "(name the stealth targets instead)")
    best: DefenceChoice | None = None
    tried = []
    for stealth in options:
        choice = best_defence(board, replace(decl, stealth=stealth))
        tried.append((stealth, choice.gain))
        if best is None or choice.gain > best.gain:
            best = choice
    assert best is not None
    return best, tuple(tried)
