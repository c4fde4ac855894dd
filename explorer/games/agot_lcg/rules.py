"""The rules of one challenge as small pure functions, in framework-step order (4.2.2 to 4.2.5).

Page numbers refer to the 2015 Rules Reference; p.23 is the project's seed page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from explorer.dice import deal
from explorer.dist import Dist
from explorer.games.agot_lcg.model import (
    PLAYERS,
    RESOLUTION_KEYWORDS,
    VICTORY_POWER,
    Challenge,
    Character,
    Power,
    Side,
)

__all__ = [
    "ChallengeResult", "ClaimEffect", "GameEnd", "StepRecord", "challenge_winner", "claim_result",
    "is_unopposed", "opponent", "renown_gained", "resolve_challenge", "victory",
]

Hand = tuple[tuple[str, int], ...]


def opponent(player: str) -> str:
    """The other player.

    >>> opponent("attacker")
    'defender'
    """
    return "defender" if player == "attacker" else "attacker"


# ----------------------------------------------------------------------------- 4.2.2
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


# ----------------------------------------------------------------------------- 4.2.4
@dataclass(frozen=True, slots=True)
class ClaimEffect:
    """The claim result applied at step 4.2.4 (the attacker won).

    Attributes:
        type: the challenge type.
        claim: the attacker's claim value.
        power_moved: power claim: power moved from the defender's faction card to the attacker's.
        kills: military claim: characters the defender chooses and kills.
        discards: intrigue claim: cards discarded at random from the defender's hand.
        discard_dist: intrigue claim with a known hand: which cards are discarded, exactly.
        hand: intrigue claim: the defender's hand as (card, copies), if given.
        limit: what capped the claim below its value, if anything ("as much as possible").
        upper_bound: True when the number is the claim value only because the defender's
            characters (military) or hand (intrigue) were not given: fewer if they have fewer.
    """

    type: str
    claim: int
    power_moved: int = 0
    kills: int | None = None
    discards: int | None = None
    discard_dist: Dist[Hand] | None = None
    hand: Hand | None = None
    limit: str | None = None
    upper_bound: bool = False

    def discard_chance(self) -> dict[str, float]:
        """Card name -> chance that at least one copy is discarded (empty without a hand)."""
        if self.discard_dist is None or self.hand is None:
            return {}
        names = sorted({card for card, _ in self.hand})
        return {n: float(self.discard_dist.where(lambda o, n=n: any(c == n for c, _ in o))) for n in names}


def claim_result(challenge_type: str, claim: int, defender: Side) -> ClaimEffect:
    """The claim result against the losing defender (p.23 "Claim"; 4.2.4).

    Power: up to `claim` power leaves the defender's faction card, never more than it has.
    Military: the defender chooses and kills `claim` characters (fewer if they control fewer).
    Intrigue: `claim` cards are discarded at random from the defender's hand (exact odds of
    which ones with a known hand, drawn without replacement).

    >>> claim_result("power", 3, Side(power=Power(2, 4))).power_moved
    2
    >>> claim_result("intrigue", 1, Side(hand=(("Ned", 1), ("Robb", 3)))).discard_chance()
    {'Ned': 0.25, 'Robb': 0.75}
    """
    if challenge_type == "power":
        moved = min(claim, defender.power.faction)
        return ClaimEffect("power", claim, power_moved=moved,
                           limit="power on the defender's faction card" if moved < claim else None)
    if challenge_type == "military":
        kills = claim if defender.in_play is None else min(claim, defender.in_play)
        return ClaimEffect("military", claim, kills=kills, upper_bound=defender.in_play is None,
                           limit="characters the defender controls" if kills < claim else None)
    size = defender.hand_size
    discards = claim if size is None else min(claim, size)
    dist = None if defender.hand is None else deal(dict(defender.hand), discards)
    return ClaimEffect("intrigue", claim, discards=discards, discard_dist=dist, hand=defender.hand,
                       upper_bound=size is None,
                       limit="cards in the defender's hand" if discards < claim else None)


# ----------------------------------------------------------------------------- 4.2.5
def renown_gained(characters: tuple[Character, ...]) -> int:
    """Power the winner's participating characters gain from renown, 1 each (p.23 glossary).

    >>> renown_gained((Character("A", 2, ("renown",)), Character("B", 1)))
    1
    """
    return sum(1 for c in characters if c.has("renown"))


# ----------------------------------------------------------------------------- game end
@dataclass(frozen=True, slots=True)
class GameEnd:
    """How the game ended (Rules Reference p.23, "Winning the Game").

    Attributes:
        winner: ``"attacker"``, ``"defender"`` or None (a tie the first player must decide).
        reason: ``"power"`` (15 or more), ``"elimination"`` (the opponent's deck is empty) or
            ``"simultaneous"`` (both players meet a victory condition at once).
        step: ``"start"`` or the framework step after which the game ended.
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
    with no first player given the tie is reported undecided (winner None).

    >>> victory({"attacker": 15, "defender": 3}).winner
    'attacker'
    >>> victory({"attacker": 15, "defender": 16}).decided_by
    'undecided'
    >>> victory({"attacker": 15, "defender": 16}, first_player="defender").winner
    'defender'
    >>> victory({"attacker": 14, "defender": 0}) is None
    True
    """
    eliminated = tuple(p for p in PLAYERS if decks is not None and decks.get(p) == 0)
    reached = {p for p in PLAYERS if totals[p] >= VICTORY_POWER}
    contenders = tuple(p for p in PLAYERS if p in reached or opponent(p) in eliminated)
    if not contenders:
        return None
    if len(contenders) == 1:
        reason = "power" if contenders[0] in reached else "elimination"
        return GameEnd(contenders[0], reason, step, contenders, eliminated)
    decided = "first player" if first_player else "undecided"
    return GameEnd(first_player, "simultaneous", step, contenders, eliminated, decided)


# ----------------------------------------------------------------------------- the challenge
@dataclass(frozen=True, slots=True)
class StepRecord:
    """What one framework step did, and both power totals after it."""

    number: str
    event: str
    totals: tuple[int, int]


@dataclass(frozen=True, slots=True)
class ChallengeResult:
    """Everything one challenge resolves to (see `resolve_challenge`)."""

    challenge: Challenge
    winner: str
    unopposed: bool
    strength: tuple[int, int]
    bonus: int
    claim: ClaimEffect | None
    renown: tuple[int, int]
    power_after: tuple[Power, Power]
    game_end: GameEnd | None
    steps: tuple[StepRecord, ...]
    keywords_not_modeled: tuple[str, ...]

    @property
    def power_moved(self) -> int:
        """Power moved by a power claim."""
        return self.claim.power_moved if self.claim else 0

    def after(self, player: str) -> Power:
        """Power of ``"attacker"`` or ``"defender"`` after the challenge."""
        return self.power_after[PLAYERS.index(player)]


def resolve_challenge(challenge: Challenge) -> ChallengeResult:
    """Resolve one challenge step by step; the game ends at the first step meeting a victory.

    >>> c = Challenge("power", 1, Side((Character("Knight", 3, ("renown",)),), Power(5, 2)),
    ...               Side((Character("Guard", 2),), Power(3, 0)))
    >>> r = resolve_challenge(c)
    >>> r.winner, r.after("attacker").total, r.after("defender").total
    ('attacker', 9, 2)
    """
    att, dfn = challenge.attacker, challenge.defender
    power = {"attacker": att.power, "defender": dfn.power}
    decks = {"attacker": att.deck, "defender": dfn.deck}
    strength = (att.total_str, dfn.total_str)
    steps: list[StepRecord] = []
    winner, unopposed, bonus = "none", False, 0
    claim: ClaimEffect | None = None
    renown, not_modeled = (0, 0), ()

    def record(number: str, event: str) -> GameEnd | None:
        steps.append(StepRecord(number, event, (power["attacker"].total, power["defender"].total)))
        return victory({p: power[p].total for p in PLAYERS}, decks, challenge.first_player, number)

    def result(end: GameEnd | None) -> ChallengeResult:  # reads the variables as they are now
        return ChallengeResult(challenge, winner, unopposed, strength, bonus, claim, renown,
                               (power["attacker"], power["defender"]), end, tuple(steps), not_modeled)

    if end := record("start", "position before the challenge"):
        return result(end)
    # 4.2.2: determine the winner (and whether the challenge is unopposed)
    winner = challenge_winner(strength[0], strength[1], len(att.characters), len(dfn.characters))
    unopposed = is_unopposed(winner, strength[1])
    label = " (unopposed)" if unopposed else ""
    if end := record("4.2.2", f"STR {strength[0]} against {strength[1]}: winner {winner}{label}"):
        return result(end)
    # 4.2.3: challenge bonuses
    bonus = 1 if unopposed else 0
    power["attacker"] = power["attacker"].gain(faction=bonus)
    if end := record("4.2.3", "unopposed bonus: +1 power on the attacker's faction card" if bonus
                     else "no challenge bonus"):
        return result(end)
    # 4.2.4: claim, attacker only
    if winner == "attacker":
        claim = claim_result(challenge.type, challenge.claim, dfn)
        power["attacker"] = power["attacker"].gain(faction=claim.power_moved)
        power["defender"] = power["defender"].gain(faction=-claim.power_moved)
    if end := record("4.2.4", _claim_text(claim) if claim else "no claim (the attacker did not win)"):
        return result(end)
    # 4.2.5: challenge resolution keywords of the winner
    event = "no keywords (no winner)"
    if winner != "none":
        characters = challenge.side(winner).characters
        gained = renown_gained(characters)
        renown = (gained, 0) if winner == "attacker" else (0, gained)
        power[winner] = power[winner].gain(cards=gained)
        not_modeled = tuple(
            f"{c.name}: {k}" for c in characters for k in c.keywords
            if k in RESOLUTION_KEYWORDS and k != "renown" and (k != "intimidate" or winner == "attacker"))
        event = f"renown: +{gained} power on the {winner}'s characters"
    if end := record("4.2.5", event):
        return result(end)
    record("4.2.6", "challenge ends")
    return result(None)


def _claim_text(claim: ClaimEffect) -> str:
    if claim.type == "power":
        text = f"power claim {claim.claim}: {claim.power_moved} power moved to the attacker's faction card"
    elif claim.type == "military":
        text = f"military claim {claim.claim}: the defender chooses and kills {claim.kills} character(s)"

    else:
        text = f"intrigue claim {claim.claim}: {claim.discards} card(s) discarded at random from hand"
    if claim.upper_bound and claim.claim:
        text += " (fewer if they have fewer)"
    return text + (f" (limited by the {claim.limit})" if claim.limit else "")
