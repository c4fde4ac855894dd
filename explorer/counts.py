"""The exact engine on counts: pools of symbol dice, rerolls decided on counts, conversions.

A pool is a few *kinds* of dice, each rolled a number of times. What the roller decides after
the roll (which dice to reroll) is a `CountPolicy`: passes over faces, in order, each rerolling
the dice that show one face, kinds in the policy's order, while rerolls last; a pass may be
*guarded* by a symbol (reroll such dice only while that symbol is spare: more of it showing than
the conversions can use). Such a decision depends on how many dice show each face, never on
which, so the engine works on count vectors and never lists the multisets of faces.

`roll_counts` returns the exact distribution of the symbols a pool ends with, after rerolls and
conversions. How (see `explorer.count_dp`): every kind's roll is summed over the counts of the
faces a pass looks at (multinomial weights), the other faces ride along as packed polynomials
(`explorer.packed`), kinds are merged one by one in the policy's order (per-kind convolution),
and the largest kind's other faces are multiplied in last, once, by Horner's rule.

Cost: polynomial in the number of dice. For n dice with r rerolls and p passes, about n^p / p!
first-roll counts and (r + 2)^p decision states per kind, and n^3 big-integer word operations
for the Horner step (n steps over a table of about n^2 outcomes whose weights are about n words
wide); each kind adds one merge, so the cost does not grow exponentially with the number of
kinds. Measured (benchmarks/run.py): time ~ n^2 from 10 to 60 dice of one kind with 5 rerolls.
A request estimated too costly is refused up front (`MAX_WORK`); the engine also stops any
request still computing after `explorer.count_dp.METER_LIMIT` seconds.

A policy given as a Python function of the faces (`explorer.pools`) needs the faces, so it takes
the plain engine there, which lists every multiset of faces.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from explorer.dist import Dist

if TYPE_CHECKING:
    from explorer.count_plan import Plan

__all__ = [
    "Conversion", "convert", "Pass", "CountPolicy", "by_worth", "NO_REROLLS", "REROLL_BLANKS",
    "roll_counts", "roll_cost", "planned", "Faces", "MAX_WORK", "clear_caches",
]

Faces = tuple[tuple[int, ...], ...]
"""A die: one tuple of symbol counts per face (equally likely), in the engine's symbol order."""

KindOrder = Callable[[tuple[Faces, ...], tuple[str, ...], tuple["Conversion", ...]], tuple[int, ...]]
"""Given the kinds' faces, the symbols and the conversions: the kinds, first visited first."""

MAX_WORK = 2_000_000
"""Largest estimated cost (microseconds, about 2 s; `explorer.count_cost.estimate`) accepted up front.

The estimate is a cautious one, weighed up within about 0.1 s; the engine's guard
(`explorer.count_dp.Meter`) stops the rare request it let through that still computes after
`explorer.count_dp.METER_LIMIT` seconds."""


@dataclass(frozen=True, slots=True)
class Conversion:
    """Turn up to `limit` symbols `source` into what `gives` lists (each once per symbol).

    >>> Conversion("arcane", (("hit", 2),), limit=1)
    Conversion(source='arcane', gives=(('hit', 2),), limit=1)
    """

    source: str
    gives: tuple[tuple[str, int], ...]
    limit: int


def convert(counts: Mapping[str, int], conversions: Sequence[Conversion]) -> dict[str, int]:
    """Apply conversions in order, each on what the earlier ones left.

    >>> convert({"arcane": 3, "hit": 1}, [Conversion("arcane", (("hit", 2),), 1),
    ...                                   Conversion("arcane", (("block", 1),), 5)])
    {'arcane': 0, 'hit': 3, 'block': 2}
    """
    out = dict(counts)
    for c in conversions:
        used = min(out.get(c.source, 0), c.limit)
        out[c.source] = out.get(c.source, 0) - used
        for symbol, n in c.gives:
            out[symbol] = out.get(symbol, 0) + n * used
    return out


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of a count policy: reroll dice showing exactly `face`.

    Attributes:
        face: the face, as (symbol, count) pairs; ``()`` is a blank face.
        guard: a symbol of `face`; when set, a die is rerolled only while the symbols of it
            showing on the whole roll, less those already rerolled away, stay above what the
            conversions can use (the sum of their limits on that symbol).

    >>> Pass((("arcane", 1),), guard="arcane").face
    (('arcane', 1),)
    """

    face: tuple[tuple[str, int], ...] = ()
    guard: str | None = None

    def __post_init__(self) -> None:
        if self.guard is not None and not dict(self.face).get(self.guard):
            raise ValueError(f"a pass guarded by {self.guard!r} must take a face showing it")

    def vector(self, symbols: Sequence[str]) -> tuple[int, ...]:
        """The face as counts in `symbols` order (symbols outside the list count nothing)."""
        counts = dict(self.face)
        return tuple(counts.get(s, 0) for s in symbols)


@dataclass(frozen=True, slots=True)
class CountPolicy:
    """A reroll policy that looks at counts only: passes in order, kinds in `order`.

    Within a pass, the kinds are visited in the order `order` gives (the pool's order when
    None); each die is rerolled at most once and all rerolls happen at once.

    >>> REROLL_BLANKS.passes
    (Pass(face=(), guard=None),)
    """

    passes: tuple[Pass, ...] = ()
    order: KindOrder | None = None

    def __post_init__(self) -> None:
        faces = [tuple(sorted(p.face)) for p in self.passes]
        if len(set(faces)) != len(faces):
            raise ValueError("each pass of a count policy must take a different face")

    def kind_order(self, dice: tuple[Faces, ...], symbols: tuple[str, ...],
                   conversions: tuple[Conversion, ...]) -> tuple[int, ...]:
        """The kinds in the order the passes visit them."""
        return tuple(range(len(dice))) if self.order is None else tuple(self.order(dice, symbols, conversions))


NO_REROLLS = CountPolicy()
"""Keep every die."""

REROLL_BLANKS = CountPolicy((Pass(),))
"""Reroll dice showing a blank face, kinds in the pool's order, while rerolls last."""


def symbol_values(symbols: Sequence[str], conversions: Sequence[Conversion]) -> tuple[int, ...]:
    """What one symbol is worth when ranking dice: the most a conversion makes of it, else 1.

    A symbol that conversions may take is worth the largest total they give for one of it
    (0 when every such conversion has a limit of 0); any other symbol is worth 1.

    >>> symbol_values(("hit", "arcane"), [Conversion("arcane", (("hit", 2),), 1)])
    (1, 2)
    """
    values = []
    for s in symbols:
        takes = [c for c in conversions if c.source == s]
        values.append(max((sum(n for _, n in c.gives) for c in takes if c.limit > 0), default=0) if takes else 1)
    return tuple(values)


def by_worth(dice: tuple[Faces, ...], symbols: tuple[str, ...], conversions: tuple[Conversion, ...]) -> tuple[int, ...]:
    """Kinds by the worth of a fresh roll (`symbol_values`), best first; ties keep the pool's order.

    >>> by_worth((((0,), (0,)), ((1,), (0,))), ("hit",), ())
    (1, 0)
    """
    values = symbol_values(symbols, conversions)
    worth = [Fraction(sum(sum(v * c for v, c in zip(values, f)) for f in faces), len(faces)) for faces in dice]
    return tuple(sorted(range(len(dice)), key=lambda k: (-worth[k], k)))


def roll_counts(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
                policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
                report: Sequence[str] | None = None) -> Dist[tuple[int, ...]]:
    """Exact distribution of the symbols a pool ends with, after rerolls and conversions.

    Args:
        pool: (faces, how many) per kind; faces are tuples of counts in `symbols` order.
        symbols: the symbol names.
        rerolls: how many dice the policy may roll again (each die once, all at once).
        policy: which dice to reroll (`CountPolicy`).
        conversions: applied in order after the rerolls.
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
    if rerolls < 0 or any(c.limit < 0 for c in conversions):
        raise ValueError("rerolls and conversion limits must be >= 0")
    return _roll(kinds, names, int(rerolls), policy, tuple(conversions), shown)


def roll_cost(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
              policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
              report: Sequence[str] | None = None) -> int:
    """Estimated microseconds of `roll_counts` with the same arguments, before computing anything
    (0 for a pool too small to weigh); the plan is kept for the roll itself.

    Raises:
        ScenarioError: the request is too big for the exact engine (``pool`` or ``rerolls``).

    >>> roll_cost([(((1,), (0,)), 2)], ["hit"], rerolls=1, policy=REROLL_BLANKS)
    0
    """
    names = tuple(symbols)
    kinds = tuple((tuple(tuple(int(c) for c in f) for f in faces), int(n)) for faces, n in pool)
    shown = names if report is None else tuple(report)
    return _planned(kinds, names, int(rerolls), policy, tuple(conversions), shown).cost


def planned(pool: Sequence[tuple[Sequence[Sequence[int]], int]], symbols: Sequence[str], *, rerolls: int = 0,
            policy: CountPolicy = NO_REROLLS, conversions: Sequence[Conversion] = (),
            report: Sequence[str] | None = None) -> Plan:
    """The layout `roll_counts` computes the same request on (cached; `explorer.count_cost` weighs it).

    Raises:
        ScenarioError: the request is too big for the exact engine (``pool`` or ``rerolls``).
    """
    names = tuple(symbols)
    kinds = tuple((tuple(tuple(int(c) for c in f) for f in faces), int(n)) for faces, n in pool)
    shown = names if report is None else tuple(report)
    return _planned(kinds, names, int(rerolls), policy, tuple(conversions), shown)


@lru_cache(maxsize=512)
def _planned(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rerolls: int, policy: CountPolicy,
             conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> Plan:
    from explorer.count_plan import plan

    return plan(kinds, symbols, rerolls, policy, conversions, report)


@lru_cache(maxsize=512)
def _roll(kinds: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rerolls: int, policy: CountPolicy,
          conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> Dist[tuple[int, ...]]:
    from explorer.count_dp import solve

    return solve(_planned(kinds, symbols, rerolls, policy, conversions, report))


def clear_caches() -> None:
    """Forget every cached result of the engine (for benchmarks that time a cold call)."""
    from explorer import count_cost, count_dp, count_plan

    _roll.cache_clear()
    _planned.cache_clear()
    count_plan.clear_caches()
    count_dp.clear_caches()
    count_cost.clear_caches()


def multinomial(n: int, parts: Sequence[int]) -> int:
    """Ways to split `n` labelled dice into groups of the given sizes (the rest in one more group).

    >>> multinomial(4, [1, 2])
    12
    """
    ways = 1
    left = n
    for k in parts:
        ways *= math.comb(left, k)
        left -= k
    return ways
