"""Claim results (framework step 4.2.4) as small pure functions.

Sources: Rules Reference, glossary "Claim", "Military Claim", "Intrigue Claim", "Power Claim",
"Kill", "Leaves Play", "Treasury" and "Prized" (pages not verified), Appendix I 4.2.4.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from explorer.core.dice import deal
from explorer.core.dist import Dist
from explorer.games.agot_lcg.challenge.model import Character

__all__ = [
    "MAX_DISCARD_NAMES", "MAX_DISCARD_OUTCOMES", "ClaimEffect", "discard_chance", "discard_outcomes",
    "least_power_kills",
]

Hand = tuple[tuple[str, int], ...]

MAX_DISCARD_OUTCOMES = 2000
"""Largest number of distinct discard outcomes listed one by one; beyond it only per-card odds are given."""

MAX_DISCARD_NAMES = 6000
"""Most card names the listed outcomes may hold in all (outcomes x names in each): a listing of
long outcomes stops there too, so that a report stays small (names are at most 100 characters)."""


@dataclass(frozen=True, slots=True)
class ClaimEffect:
    """The claim result applied at step 4.2.4 (the attacker won).

    Attributes:
        type: the challenge type.
        claim: the attacker's claim value.
        power_moved: power claim: power moved from the defender's faction card to the attacker's.
        kills: military claim: characters the defender chooses and kills (listed and unlisted).
        discards: intrigue claim: cards discarded at random from the defender's hand.
        discard_dist: intrigue claim with a known hand: which cards are discarded, exactly (None
            when the hand is unknown, or has more than `MAX_DISCARD_OUTCOMES` outcomes or
            `MAX_DISCARD_NAMES` names in them).
        hand: intrigue claim: the defender's named hand as (card, copies), if given.
        limit: what capped the claim below its value, if anything ("as much as possible").
        upper_bound: True when the number is the claim value only because the defender's
            characters (military) or hand (intrigue) were not given: fewer if they have fewer.
        killed: military claim: names of the listed characters killed.
        unlisted_killed: military claim: characters killed that the scenario only counts.
        chosen_by: military claim: "scenario" (named) or "least power" (the ruling's choice).
        power_returned: power on the killed characters, back to the treasury.
        prized_gained: power the attacker gains for their faction from killed prized characters.
        hand_size: intrigue claim: cards in hand before the claim, if known.
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
    killed: tuple[str, ...] = ()
    unlisted_killed: int = 0
    chosen_by: str = ""
    power_returned: int = 0
    prized_gained: int = 0
    hand_size: int | None = None
    chances: Mapping[str, Fraction] = field(default_factory=dict)

    def discard_chance(self) -> dict[str, float]:
        """Card name -> chance that at least one copy is discarded (empty without a hand)."""
        return {name: float(p) for name, p in self.chances.items()}


def discard_chance(hand_size: int, copies: int, discards: int) -> Fraction:
    """Chance that at least one of `copies` cards is among `discards` random cards of the hand.

    A formula (hypergeometric), never an enumeration, so any hand size answers at once.

    >>> discard_chance(100, 1, 4)
    Fraction(1, 25)
    >>> discard_chance(4, 3, 2)
    Fraction(1, 1)
    """
    if not 0 <= copies <= hand_size or not 0 <= discards <= hand_size:
        raise ValueError(f"need 0 <= copies, discards <= hand size, got {copies}, {discards}, {hand_size}")
    return 1 - Fraction(math.comb(hand_size - copies, discards), math.comb(hand_size, discards))


def discard_outcomes(copies: tuple[int, ...], discards: int, limit: int | None = None) -> int:
    """How many distinct outcomes (copies of each name discarded) an intrigue claim has.

    Counted name by name with a running window sum, O(names x discards); discarding d cards has
    as many outcomes as keeping d, so the smaller of the two is counted. With `limit`, counting
    stops as soon as the count is known to exceed it (the number returned is then only > limit).

    >>> discard_outcomes((1,) * 100, 4)
    3921225
    >>> discard_outcomes((1, 3), 2)
    2
    >>> discard_outcomes((1,) * 1000, 100, limit=2000) > 2000
    True
    """
    size = sum(copies)
    if not 0 <= discards <= size:
        return 0
    d = min(discards, size - discards)
    ways = [1] + [0] * d
    for n in copies:
        window, new = 0, []
        for t in range(d + 1):
            window += ways[t]
            if t > n:
                window -= ways[t - n - 1]
            new.append(window)
        ways = new
        if limit is not None and ways[d] > limit:
            break
    return ways[d]


def intrigue_odds(hand: Hand, extra: int, discards: int) -> tuple[dict[str, Fraction], Dist[Hand] | None]:
    """Per-card discard chances and, when small enough, the joint discard distribution.

    `extra` counts unnamed cards in hand (drawn earlier this round, say); they show as "other".

    >>> chances, dist = intrigue_odds((("Ned", 1), ("Robb", 3)), 0, 1)
    >>> chances["Ned"], dist.probability((("Robb", 1),))
    (Fraction(1, 4), Fraction(3, 4))
    """
    chances, dist = _intrigue_odds(hand, extra, discards)
    return dict(chances), dist


@lru_cache(maxsize=256)
def _intrigue_odds(hand: Hand, extra: int, discards: int) -> tuple[tuple[tuple[str, Fraction], ...], Dist[Hand] | None]:
    """`intrigue_odds`, remembered: a plan search meets the same hand and claim many times."""
    size = sum(n for _, n in hand) + extra
    by_copies: dict[int, Fraction] = {}  # the chance depends on the copies only
    chances = tuple((name, by_copies.get(n) or by_copies.setdefault(n, discard_chance(size, n, discards)))
                    for name, n in sorted(hand))
    cards = dict(hand) | ({"other": extra} if extra else {})
    outcomes = discard_outcomes(tuple(cards.values()), discards, MAX_DISCARD_OUTCOMES)
    if outcomes > MAX_DISCARD_OUTCOMES or outcomes * min(discards, len(cards)) > MAX_DISCARD_NAMES:
        return chances, None
    return chances, deal(cards, discards)


def _kill_key(character: Character, index: int) -> tuple[int, int, int, int, int]:
    return (character.power, character.prized, int(character.standing), character.strength, index)


def least_power_kills(candidates: tuple[tuple[int, Character], ...], unlisted: int, count: int
                      ) -> tuple[tuple[int, ...], int]:
    """The defender's choice of `count` characters to kill that loses the least power (ruling).

    Order of preference, each breaking ties of the one before: least power on the card (it goes
    back to the treasury), least prized X (the attacker would gain it), kneeling before standing
    (a standing character still defends and counts for dominance), lowest STR, first listed.
    Characters the scenario only counts (`unlisted`) carry no known power and count as standing
    with STR 0. A greedy pick by this key is optimal, since the key is compared term by term.

    Returns:
        (indices of listed characters killed, number of unlisted characters killed).

    >>> least_power_kills(((0, Character("Ned", 4, power=2)), (1, Character("Guard", 1))), 0, 1)
    ((1,), 0)
    >>> least_power_kills(((0, Character("Ned", 4, power=2)),), 2, 2)
    ((), 2)
    """
    pool = [(_kill_key(c, i), i) for i, c in candidates]
    pool += [((0, 0, 1, 0, -1), -1)] * unlisted
    chosen = sorted(pool)[:count]
    return tuple(sorted(i for _, i in chosen if i >= 0)), sum(1 for _, i in chosen if i < 0)
