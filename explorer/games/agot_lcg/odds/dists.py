"""Card odds as distributions a chart can draw: copies left, the round of a first draw, the race to 15.

Each is built from the exact odds of `explorer.games.agot_lcg.odds.cards`.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any

from explorer.core.dist import Dist
from explorer.games.agot_lcg.odds.cards import copies_discarded, deck_out, draw_odds, power_race, race_round

__all__ = ["deck_out_dist", "draw_round_dist", "intrigue_survival_dist", "power_race_dist", "race_round_dist",
           "race_winner_dist"]


def intrigue_survival_dist(hand: int, copies: int, claim: int) -> Dist[int]:
    """Copies of a card left in hand after an intrigue claim (a distribution over 0..copies).

    >>> intrigue_survival_dist(7, 1, 2).probability(1)
    Fraction(5, 7)
    """
    return copies_discarded(hand, copies, claim).map(lambda gone: copies - gone)


def draw_round_dist(deck: int, copies: int, rounds: int, **options: Any) -> Dist[int]:
    """The round by which at least one copy (or `at_least`) has been drawn; ``rounds + 1`` is "later".

    Round 0 is the setup hand. Built from `draw_odds` (same options), whose chances never
    decrease from one round to the next.

    >>> draw_round_dist(10, 1, 1).probabilities()
    {0: Fraction(91, 100), 1: Fraction(3, 50), 2: Fraction(3, 100)}
    """
    chances = draw_odds(deck, copies, rounds, **options)
    previous = Fraction(0)
    masses: dict[int, Fraction] = {}
    for r, p in enumerate(chances):
        masses[r], previous = p - previous, p
    masses[rounds + 1] = 1 - previous
    scale = lcm(*(p.denominator for p in masses.values()))
    return Dist({r: int(p * scale) for r, p in masses.items()})


def power_race_dist(first: tuple[int, Dist[int]], second: tuple[int, Dist[int]], max_rounds: int = 30
                    ) -> Dist[tuple[int, str]]:
    """The race to 15: ``(round, winner)`` (see `explorer.games.agot_lcg.odds.cards.power_race`)."""
    return power_race(first, second, max_rounds)


def race_winner_dist(race: Dist[tuple[int, str]]) -> Dist[str]:
    """Who wins the race (``"first"``, ``"second"`` or ``"none"`` within the rounds followed).

    >>> race_winner_dist(Dist({(1, "first"): 1, (2, "second"): 3})).probability("second")
    Fraction(3, 4)
    """
    return race.map(lambda outcome: outcome[1])


deck_out_dist = deck_out
"""The round a deck runs out (`explorer.games.agot_lcg.odds.cards.deck_out`), a `Dist` over rounds."""

race_round_dist = race_round
"""The round someone reaches 15 (`explorer.games.agot_lcg.odds.cards.race_round`)."""
