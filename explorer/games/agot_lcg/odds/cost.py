"""What the card odds cost, weighed before any is computed: the deck-out and the race to 15.

Both follow every state a round can leave (the cards left in the deck; both players' power),
and every state meets every amount of the round's insight and pillage (or both players'
gains). The states a round can hold lie between the least and the most the amounts allow, so
counting them round by round bounds the steps without taking any (`deck_out_steps`,
`power_race_steps`); `check_odds` refuses an odds scenario estimated above about 2 s in all.
"""

from __future__ import annotations

from explorer.core.dist import Dist
from explorer.core.engine import MAX_WORK
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.model import VICTORY_POWER
from explorer.games.agot_lcg.odds.scenario import OddsQuestion

__all__ = ["STEP_SECONDS", "deck_out_steps", "power_race_steps", "odds_seconds", "check_odds"]

STEP_SECONDS = 0.3e-6
"""Work of one step (a state meeting one amount): measured at 0.17 to 0.26 microseconds, weights of
any size (they grow every round), counted as 0.3."""


def deck_out_steps(deck: int, draws: int, insight: Dist[int], pillage: Dist[int], max_rounds: int) -> int:
    """At most how many steps `odds.deck_out` takes: per round, the deck sizes left times the amounts.

    >>> deck_out_steps(5, 2, Dist.single(0), Dist.single(0), 50)
    3
    """
    most, least = deck, deck
    steps = 0
    amounts = len(insight) * len(pillage)
    for _ in range(max_rounds):
        if most <= 0:
            break
        steps += (most - max(least, 1) + 1) * amounts
        most = _after(most, draws, min(insight), min(pillage))
        least = _after(max(least, 1), draws, max(insight), max(pillage))
    return steps


def _after(left: int, draws: int, insight: int, pillage: int) -> int:
    """Cards left after a round of draws, insight (never the last card) and pillage (`odds.deck_out`)."""
    left -= min(draws, left)
    if left == 0:
        return 0
    left -= min(insight, left - 1)
    return left - min(pillage, left)


def power_race_steps(first: tuple[int, Dist[int]], second: tuple[int, Dist[int]], max_rounds: int) -> int:
    """At most how many steps `odds.power_race` takes: per round, both players' powers below 15 times
    both players' gains.

    >>> power_race_steps((13, Dist.single(1)), (12, Dist.uniform([0, 3])), 30)
    8
    """
    (a, gains_a), (b, gains_b) = first, second
    low, high = [a, b], [a, b]
    steps = 0
    amounts = len(gains_a) * len(gains_b)
    for _ in range(max_rounds):
        if max(low) >= VICTORY_POWER:
            break
        steps += (min(high[0], VICTORY_POWER - 1) - low[0] + 1) * (min(high[1], VICTORY_POWER - 1) - low[1] + 1) * amounts
        low = [low[0] + min(gains_a), low[1] + min(gains_b)]
        high = [high[0] + max(gains_a), high[1] + max(gains_b)]
    return steps


def odds_seconds(question: OddsQuestion) -> dict[str, float]:
    """Estimated seconds of the costly sections asked (``deck_out``, ``power_race``)."""
    out = {}
    if question.deck_out:
        o = question.deck_out
        out["deck_out"] = STEP_SECONDS * deck_out_steps(o.deck, o.draws, o.insight, o.pillage, o.max_rounds)
    if question.power_race:
        r = question.power_race
        out["power_race"] = STEP_SECONDS * power_race_steps(r.first, r.second, r.max_rounds)
    return out


def check_odds(question: OddsQuestion) -> float:
    """Refuse, before any is computed, odds estimated above about 2 s in all; else their seconds.

    Raises:
        ScenarioError: naming the costlier section's ``max_rounds``.
    """
    seconds = odds_seconds(question)
    spent = sum(seconds.values())
    if spent > MAX_WORK / 1e6:
        section = max(seconds, key=lambda k: seconds[k])
        hint = ("fewer amounts of insight and pillage, more draws or a smaller deck" if section == "deck_out"
                else "fewer gains a round")
        raise ScenarioError(f"{section}.max_rounds", f"too big to follow exactly (about {spent:.1f} s of work "
                                                     f"estimated, limit {MAX_WORK / 1e6:.0f} s): fewer max_rounds, "
                                                     f"or {hint}")
    return spent
