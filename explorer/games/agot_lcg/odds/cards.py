"""Odds from cards, exact: intrigue claims, draws, running out of cards, and the race to 15 power.

Every answer is an `explorer.core.dist.Dist` (integer weights) or a `Fraction`, computed by formulas
(hypergeometric counts) or small dynamic programmes, never by dealing every hand; sizes are
capped by the scenario reader (`explorer.games.agot_lcg.odds.scenario`). Sources: Rules
Reference "Intrigue Claim", "Setup", "Mulligan", 2.2 Draw, "Insight", "Pillage", p.23.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from explorer.core.dist import Dist
from explorer.games.agot_lcg.challenge.model import VICTORY_POWER

__all__ = [
    "DRAW_PHASE_CARDS", "SETUP_HAND", "copies_discarded", "deck_out", "draw_odds", "hypergeometric",
    "power_race", "race_round", "survives_intrigue",
]

SETUP_HAND = 7
"""Cards in a setup hand, and the hand size refilled to after setup (glossary "Setup")."""

DRAW_PHASE_CARDS = 2
"""Cards each player draws in the draw phase (Appendix I 2.2)."""


def hypergeometric(population: int, successes: int, draws: int) -> Dist[int]:
    """How many of `successes` marked cards are among `draws` cards dealt from `population`.

    >>> hypergeometric(10, 3, 2)
    Dist({0: 7, 1: 7, 2: 1})
    """
    if not (0 <= successes <= population and 0 <= draws <= population):
        raise ValueError(f"need 0 <= successes, draws <= population, got {successes}, {draws}, {population}")
    return Dist({k: comb(successes, k) * comb(population - successes, draws - k)
                 for k in range(max(0, draws - population + successes), min(successes, draws) + 1)})


def copies_discarded(hand: int, copies: int, claim: int) -> Dist[int]:
    """Copies of a card discarded by an intrigue claim of `claim` from a hand of `hand` cards.

    The claim takes as many cards as it can (glossary "Intrigue Claim"), at random.

    >>> copies_discarded(100, 1, 4).probability(1)
    Fraction(1, 25)
    """
    return hypergeometric(hand, copies, min(claim, hand))


def survives_intrigue(hand: int, copies: int, claim: int, at_least: int = 1) -> Fraction:
    """Chance that at least `at_least` of the `copies` stay in hand after the intrigue claim.

    >>> survives_intrigue(7, 1, 2)
    Fraction(5, 7)
    >>> survives_intrigue(7, 2, 2, at_least=2)
    Fraction(10, 21)
    """
    return copies_discarded(hand, copies, claim).at_most(copies - at_least)


def _at_least(population: int, successes: int, draws: int, k: int) -> Fraction:
    if k <= 0:
        return Fraction(1)
    return hypergeometric(population, successes, min(draws, population)).at_least(k)


def draw_odds(deck: int, copies: int, rounds: int, *, at_least: int = 1, mulligan: bool = True,
              setup_cards: int = 0, draws: int = DRAW_PHASE_CARDS) -> tuple[Fraction, ...]:
    """Chance of having drawn at least `at_least` copies by the end of each round's draw phase.

    Entry 0 is after setup: a hand of 7, one mulligan (taken only when it raises the chance for
    that round: the best choice for each entry), `setup_cards` placed and refilled to 7. Each
    round r then adds `draws` cards. Cards beyond the deck are not drawn.

    Args:
        deck: cards in the draw deck before the setup hand is drawn.
        copies: copies of the card in the deck.
        rounds: last round asked (entries 0 to `rounds`).

    >>> [str(p) for p in draw_odds(10, 1, 1)]
    ['91/100', '97/100']
    >>> draw_odds(60, 3, 0, mulligan=False)[0] == 1 - Fraction(comb(57, 7), comb(60, 7))
    True
    """
    first = hypergeometric(deck, copies, min(SETUP_HAND, deck))
    out = []
    for r in range(rounds + 1):
        later = setup_cards + draws * r
        fresh = _at_least(deck, copies, SETUP_HAND + later, at_least) if mulligan else Fraction(0)
        total = Fraction(0)
        for j, p in first.probabilities().items():
            if j >= at_least:
                total += p
                continue
            keep = _at_least(deck - SETUP_HAND, copies - j, later, at_least - j) if deck > SETUP_HAND else Fraction(0)
            total += p * max(keep, fresh)
        out.append(total)
    return tuple(out)


def deck_out(deck: int, *, draws: int = DRAW_PHASE_CARDS, insight: Dist[int] | None = None,
             pillage: Dist[int] | None = None, max_rounds: int = 50) -> Dist[int]:
    """The round in which the draw deck runs out (the player is eliminated, p.23).

    Each round: the draw phase draws `draws` cards, then the player's insight draws (never the
    last card: insight is a "may"), then the opponent's pillage discards; the amounts of
    insight and pillage are drawn afresh each round from their distributions. The outcome
    ``max_rounds + 1`` stands for "not out by round `max_rounds`".

    >>> deck_out(5)
    Dist({3: 1})
    >>> deck_out(5, pillage=Dist.uniform([0, 1])).probabilities()
    {2: Fraction(3, 4), 3: Fraction(1, 4)}
    """
    insight = insight or Dist.single(0)
    pillage = pillage or Dist.single(0)
    weights: dict[int, int] = {}
    alive: dict[int, int] = {deck: 1}
    for r in range(1, max_rounds + 1):
        factor = insight.total * pillage.total
        for k in weights:
            weights[k] *= factor
        nxt: dict[int, int] = {}
        for d, w in alive.items():
            d -= min(draws, d)
            if d == 0:
                weights[r] = weights.get(r, 0) + w * factor
                continue
            for i, wi in insight.items():
                after_insight = d - min(i, d - 1)
                for p, wp in pillage.items():
                    left = after_insight - min(p, after_insight)
                    if left == 0:
                        weights[r] = weights.get(r, 0) + w * wi * wp
                    else:
                        nxt[left] = nxt.get(left, 0) + w * wi * wp
        alive = nxt
        if not alive:
            break
    if alive:
        weights[max_rounds + 1] = sum(alive.values())
    return Dist(weights)


def power_race(first: tuple[int, Dist[int]], second: tuple[int, Dist[int]], max_rounds: int = 30
               ) -> Dist[tuple[int, str]]:
    """The round in which a player reaches 15 power, and who: ``(round, "first" | "second")``.

    Each player starts with the power given and gains an amount drawn from their distribution
    each round, independently. Both reaching 15 in the same round is a tie the first player
    decides, picking themselves (p.23). ``(max_rounds + 1, "none")`` stands for "no one by
    round `max_rounds`"; a player already at 15 wins in round 0.

    >>> race = power_race((13, Dist.single(1)), (12, Dist.uniform([0, 3])))
    >>> race.probabilities()
    {(1, 'second'): Fraction(1, 2), (2, 'first'): Fraction(1, 2)}
    """
    (a0, ga), (b0, gb) = first, second
    if a0 >= VICTORY_POWER or b0 >= VICTORY_POWER:
        return Dist.single((0, "first" if a0 >= VICTORY_POWER else "second"))
    weights: dict[tuple[int, str], int] = {}
    alive: dict[tuple[int, int], int] = {(a0, b0): 1}
    factor = ga.total * gb.total
    for r in range(1, max_rounds + 1):
        for k in weights:
            weights[k] *= factor
        nxt: dict[tuple[int, int], int] = {}
        for (a, b), w in alive.items():
            for x, wx in ga.items():
                for y, wy in gb.items():
                    na, nb, weight = a + x, b + y, w * wx * wy
                    if na >= VICTORY_POWER or nb >= VICTORY_POWER:
                        key = (r, "first" if na >= VICTORY_POWER else "second")
                        weights[key] = weights.get(key, 0) + weight
                    else:
                        nxt[(na, nb)] = nxt.get((na, nb), 0) + weight
        alive = nxt
        if not alive:
            break
    if alive:
        weights[(max_rounds + 1, "none")] = sum(alive.values())
    return Dist(weights)


def race_round(race: Dist[tuple[int, str]]) -> Dist[int]:
    """The round in which someone reaches 15, whoever it is.

    >>> race_round(Dist({(1, "first"): 1, (1, "second"): 1, (2, "first"): 2})).probability(1)
    Fraction(1, 2)
    """
    return race.map(lambda outcome: outcome[0])
