"""The exact engine on counts: pools of symbol dice, rerolls decided on counts, conversions.

A pool is a few *kinds* of dice, each rolled a number of times. What the roller decides after
the roll (which dice to reroll) is a `CountPolicy`: passes over faces, in order, each rerolling
the dice that show one face, kinds in the policy's order, while rerolls last; a pass may be
*guarded* by a symbol (reroll such dice only while that symbol is spare: more of it showing than
the conversions can use). Such a decision depends on how many dice show each face, never on
which, so the engine works on count vectors and never lists the multisets of faces.

`roll_counts` returns the exact distribution of the symbols a pool ends with, after rerolls and
conversions. How (see `explorer.core.engine.dp`): every kind's roll is summed over the counts of the
faces a pass looks at (multinomial weights), the other faces ride along as packed polynomials
(`explorer.core.packed`), kinds are merged one by one in the policy's order (per-kind convolution),
and the largest kind's other faces are multiplied in last, once, by Horner's rule.

Cost: polynomial in the number of dice. For n dice with r rerolls and p passes, about n^p / p!
first-roll counts and (r + 2)^p decision states per kind, and n^3 big-integer word operations
for the Horner step (n steps over a table of about n^2 outcomes whose weights are about n words
wide); each kind adds one merge, so the cost does not grow exponentially with the number of
kinds. Measured (benchmarks/run.py): time ~ n^2 from 10 to 60 dice of one kind with 5 rerolls.
A request estimated too costly is refused up front (`MAX_WORK`); the engine also stops any
request still computing after `explorer.core.engine.dp.METER_LIMIT` seconds.

A policy given as a Python function of the faces (`tests.core.pool_oracle`) needs the faces, so it takes
the plain engine there, which lists every multiset of faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from explorer.core.dist import Dist
from explorer.core.engine import cost, dp, plan, rounds
from explorer.core.engine.types import (
    MAX_WORK,
    NO_REROLLS,
    REROLL_BLANKS,
    Conversion,
    CountPolicy,
    Faces,
    Pass,
    Plan,
    by_worth,
    convert,
)
from explorer.core.errors import ScenarioError

__all__ = [
    "Conversion", "convert", "Pass", "CountPolicy", "by_worth", "NO_REROLLS", "REROLL_BLANKS",
    "roll_counts", "roll_cost", "roll_weight", "planned", "Faces", "MAX_WORK", "clear_caches",
]

def roll_counts(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
                policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
                report: Sequence[str] | None = None, second_rerolls: int = 0) -> Dist[tuple[int, ...]]:
    """Exact distribution of the symbols a pool ends with, after rerolls and conversions.

    Args:
        pool: (faces, how many) per kind; faces are tuples of counts in `symbols` order.
        symbols: the symbol names.
        rerolls: how many dice the policy may roll again (each die once, all at once).
        policy: which dice to reroll (`CountPolicy`).
        conversions: applied in order after the rerolls (after both rounds).
        report: the symbols of the result's tuples, in this order (all of `symbols` if None).
        second_rerolls: dice a second round may roll again, after the first round's results are
            known; the policy reads the dice as they then lie, and may take a die rerolled in the
            first round (`explorer.core.engine.rounds`). With either round empty, one round.
        report: the symbols of the result's tuples, in this order (all of `symbols` if None).

    Returns:
        A `Dist` over tuples of the reported counts. Results are cached (inputs are immutable).

    Raises:
        ScenarioError: the request is too big for the exact engine (``pool`` or ``rerolls``).

    >>> coin = ((1,), (0,))
    >>> roll_counts([(coin, 2)], ["hit"], rerolls=1, policy=REROLL_BLANKS).probability((2,))
    Fraction(1, 2)
    >>> d6 = ((1, 0), (1, 0), (0, 1), (0, 0), (0, 0), (0, 0))  # hit, hit, crit, 3 blanks
    >>> crits_as_hits = Conversion("crit", (("hit", 2),), 1)
    >>> roll_counts([(d6, 3)], ["hit", "crit"], conversions=[crits_as_hits], report=["hit"]).marginal(0).mean()
    Fraction(199, 108)
    >>> roll_counts([(coin, 1)], ["hit"], rerolls=1, second_rerolls=1, policy=REROLL_BLANKS).probability((1,))
    Fraction(7, 8)
    """
    kinds = tuple((tuple(tuple(int(c) for c in f) for f in faces), int(n)) for faces, n in pool)
    names = tuple(symbols)
    shown = names if report is None else tuple(report)
    for s in shown:
        if s not in names:
            raise ValueError(f"report names {s!r}, which is not one of the symbols {names}")
    for faces, n in kinds:
        if n < 0 or not faces or any(len(f) != len(names) or min(f) < 0 for f in faces):
            raise ValueError("every kind needs faces of one count per symbol (>= 0) and a count >= 0")
    if rerolls < 0 or second_rerolls < 0 or any(c.limit < 0 for c in conversions):
        raise ValueError("rerolls and conversion limits must be >= 0")
    if _two_rounds(rerolls, second_rerolls, policy):
        return _roll_rounds(kinds, names, (int(rerolls), int(second_rerolls)), policy, tuple(conversions), shown)
    return _roll(kinds, names, int(rerolls) + int(second_rerolls), policy, tuple(conversions), shown)


def roll_cost(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
              policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
              report: Sequence[str] | None = None, second_rerolls: int = 0) -> int:
    """Estimated microseconds of `roll_counts` with the same arguments, before computing anything
    (0 for a pool too small to weigh); the plan is kept for the roll itself. Two rounds of rerolls
    are always weighed (`explorer.core.engine.rounds.estimate`).

    Raises:
        ScenarioError: the request is too big for the exact engine (``pool`` or ``rerolls``).

    >>> roll_cost([(((1,), (0,)), 2)], ["hit"], rerolls=1, policy=REROLL_BLANKS)
    0
    """
    names = tuple(symbols)
    kinds = tuple((tuple(tuple(int(c) for c in f) for f in faces), int(n)) for faces, n in pool)
    shown = names if report is None else tuple(report)
    if _two_rounds(rerolls, second_rerolls, policy):
        return _rounds_cost(kinds, names, (int(rerolls), int(second_rerolls)), policy, tuple(conversions), shown)
    return _planned(kinds, names, int(rerolls) + int(second_rerolls), policy, tuple(conversions), shown).cost


def planned(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
            policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
            report: Sequence[str] | None = None) -> Plan:
    """The layout `roll_counts` computes the same request on (cached; `explorer.core.engine.cost` weighs it).

    Raises:
        ScenarioError: the request is too big for the exact engine (``pool`` or ``rerolls``).
    """
    names = tuple(symbols)
    kinds = tuple((tuple(tuple(int(c) for c in f) for f in faces), int(n)) for faces, n in pool)
    shown = names if report is None else tuple(report)
    return _planned(kinds, names, int(rerolls), policy, tuple(conversions), shown)


def roll_weight(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
                policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
                report: Sequence[str] | None = None, second_rerolls: int = 0) -> int:
    """Estimated microseconds of `roll_counts`, also for a pool small enough to skip the check.

    `roll_cost` is 0 for a small pool (at most 16 dice, 8 rerolls, 3 kinds: always
    answered); this weighs its layout all the same, for a budget of many requests together (a
    sweep's grid), where small rolls add up (some take a second). Never refuses a small pool;
    `MAX_WORK` + 1 when weighing it passes the dry run's steps.

    Raises:
        ScenarioError: a pool that is not small and too big for the exact engine (``pool`` or ``rerolls``).

    >>> roll_weight([(((1,), (0,)), 2)], ["hit"], rerolls=1) < 100
    True
    """
    if _two_rounds(rerolls, second_rerolls, policy):
        return roll_cost(pool, symbols, rerolls=rerolls, policy=policy, conversions=conversions, report=report,
                         second_rerolls=second_rerolls)
    return cost.weight(planned(pool, symbols, rerolls=rerolls + second_rerolls, policy=policy,
                               conversions=conversions, report=report))


def _two_rounds(rerolls: int, second_rerolls: int, policy: CountPolicy) -> bool:
    """Whether a request needs two rounds: both take dice and the policy rerolls some (else one round
    of all the rerolls is the same roll)."""
    return bool(rerolls and second_rerolls and policy.passes)


@lru_cache(maxsize=512)
def _rounds_cost(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rounds_: tuple[int, int],
                 policy: CountPolicy, conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> int:
    """The weight of two rounds (`explorer.core.engine.rounds.estimate`), refused past `MAX_WORK`."""
    laid = rounds.layout(kinds, symbols, rounds_, policy, conversions, report)
    work = rounds.estimate(laid)
    if work > MAX_WORK:
        fewer = rounds.estimate(rounds.layout(kinds, symbols, (rounds_[0], 1), policy, conversions, report))
        field = "second_rerolls" if fewer <= MAX_WORK else "pool"
        raise ScenarioError(field, f"too big for the exact engine with two rounds of rerolls ({rounds_[0]} then "
                                   f"{rounds_[1]}; about {work / 1e6:.1f} s estimated, limit {MAX_WORK / 1e6:.0f} s): "
                                   "use fewer dice, kinds of dice or rerolls")
    return work


@lru_cache(maxsize=512)
def _roll_rounds(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rounds_: tuple[int, int],
                 policy: CountPolicy, conversions: tuple[Conversion, ...], report: tuple[str, ...]
                 ) -> Dist[tuple[int, ...]]:
    _rounds_cost(kinds, symbols, rounds_, policy, conversions, report)
    return rounds.solve(rounds.layout(kinds, symbols, rounds_, policy, conversions, report))


@lru_cache(maxsize=512)
def _planned(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rerolls: int, policy: CountPolicy,
             conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> Plan:
    return plan.plan(kinds, symbols, rerolls, policy, conversions, report)


@lru_cache(maxsize=512)
def _roll(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rerolls: int, policy: CountPolicy,
          conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> Dist[tuple[int, ...]]:
    return dp.solve(_planned(kinds, symbols, rerolls, policy, conversions, report))


def clear_caches() -> None:
    """Forget every cached result of the engine (for benchmarks that time a cold call)."""
    _roll.cache_clear()
    _planned.cache_clear()
    _roll_rounds.cache_clear()
    _rounds_cost.cache_clear()
    rounds.clear_caches()
    plan.clear_caches()
    dp.clear_caches()
    cost.clear_caches()
