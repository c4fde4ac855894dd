"""Exact finite distributions with integer weights.

A `Dist` maps outcomes to non-negative integer weights.
Probabilities are `Fraction`s of the total weight; floats appear only at the edge
(`Dist.floats`), where charts and tables need them.
A distribution may also carry `cut` weight: mass removed on purpose (say, the tail of an
endless chain of exploding dice), reported rather than silently renormalised away.

Every operation returns a new `Dist`; nothing is modified in place.

Why not icepool: icepool's exact pools are excellent for sums and keep/drop rules, but the
decisions a player takes after the roll (which dice to reroll, which arcane to convert, which
unit absorbs damage) are outside what it models, and on Python 3.11 only icepool < 2.2 installs.
The explorer's core is therefore its own, small and game-agnostic; icepool serves as an
independent oracle in the tests (plain sums, pools, the peers' benchmark problem).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar

__all__ = ["Dist", "add_vectors"]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)
V = TypeVar("V", bound=Hashable)


class Dist(Generic[T]):
    """An immutable finite distribution with exact integer weights.

    Weights are kept in lowest terms, so two equal distributions compare equal
    whatever their original denominators.

    >>> d6 = Dist.uniform(range(1, 7))
    >>> d6.probability(3)
    Fraction(1, 6)
    >>> (d6 + d6).mean()
    Fraction(7, 1)
    """

    __slots__ = ("_weights", "_cut", "_hash")

    def __init__(self, weights: Mapping[T, int], cut: int = 0) -> None:
        """Build a distribution from outcome weights.

        Args:
            weights: outcome -> non-negative integer weight; zero weights are dropped.
            cut: weight removed on purpose and reported by `cut_mass`.

        Raises:
            ValueError: a weight is negative or not an integer, or nothing is left.
        """
        clean: dict[T, int] = {}
        for outcome, weight in weights.items():
            if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
                raise ValueError(f"weight of {outcome!r} must be a whole number >= 0, got {weight!r}")
            if weight:
                clean[outcome] = weight
        if isinstance(cut, bool) or not isinstance(cut, int) or cut < 0:
            raise ValueError(f"cut must be a whole number >= 0, got {cut!r}")
        if not clean:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        divisor = math.gcd(cut, *clean.values())
        if divisor > 1:
            clean = {o: w // divisor for o, w in clean.items()}
            cut //= divisor
        self._weights = clean
        self._cut = cut
        self._hash: int | None = None

    # ----------------------------------------------------------------- constructors
    @classmethod
    def of_counts(cls, weights: dict[T, int]) -> Dist[T]:
        """A distribution from weights known to be whole numbers > 0 (engines' output): no checks,
        only the reduction to lowest terms. Takes ownership of `weights`.

        >>> Dist.of_counts({1: 2, 2: 4}) == Dist({1: 1, 2: 2})
        True
        """
        if not weights:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        divisor = math.gcd(*weights.values())
        out = cls.__new__(cls)
        out._weights = {o: w // divisor for o, w in weights.items()} if divisor > 1 else weights
        out._cut = 0
        out._hash = None
        return out

    @classmethod
    def single(cls, outcome: T) -> Dist[T]:
        """The distribution that always gives `outcome`.

        >>> Dist.single(0).probability(0)
        Fraction(1, 1)
        """
        return cls({outcome: 1})

    @classmethod
    def uniform(cls, outcomes: Iterable[T]) -> Dist[T]:
        """Each listed outcome equally likely; repeated outcomes count repeatedly.

        >>> Dist.uniform("aab").probability("a")
        Fraction(2, 3)
        """
        weights: dict[T, int] = {}
        for outcome in outcomes:
            weights[outcome] = weights.get(outcome, 0) + 1
        return cls(weights)

    @classmethod
    def mix(cls, parts: Iterable[tuple[Dist[T], int]]) -> Dist[T]:
        """A mixture: pick a part with the given integer weight, then draw from it.

        >>> Dist.mix([(Dist.single(0), 1), (Dist.uniform([1, 2]), 1)]).probability(0)
        Fraction(1, 2)
        """
        parts = [(d, w) for d, w in parts if w]
        scale = math.lcm(*(d.total for d, _ in parts))
        weights: dict[T, int] = {}
        cut = 0
        for dist, weight in parts:
            factor = weight * (scale // dist.total)
            for outcome, w in dist._weights.items():
                weights[outcome] = weights.get(outcome, 0) + w * factor
            cut += dist._cut * factor
        return cls(weights, cut)

    # ----------------------------------------------------------------- mapping-like
    def __iter__(self) -> Iterator[T]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def items(self) -> Iterable[tuple[T, int]]:
        """Pairs of outcome and integer weight."""
        return self._weights.items()

    def weight(self, outcome: T) -> int:
        """The integer weight of `outcome` (0 if absent)."""
        return self._weights.get(outcome, 0)

    @property
    def total(self) -> int:
        """Sum of all weights, the cut weight included."""
        return sum(self._weights.values()) + self._cut

    @property
    def cut(self) -> int:
        """The weight removed by truncation."""
        return self._cut

    def cut_mass(self) -> Fraction:
        """The probability removed by truncation (0 for an untruncated distribution).

        >>> Dist({1: 3}, cut=1).cut_mass()
        Fraction(1, 4)
        """
        return Fraction(self._cut, self.total)

    # ----------------------------------------------------------------- probabilities
    def probability(self, outcome: T) -> Fraction:
        """Exact probability of `outcome`."""
        return Fraction(self._weights.get(outcome, 0), self.total)

    def probabilities(self) -> dict[T, Fraction]:
        """All outcomes with their exact probabilities, sorted when outcomes allow it."""
        total = self.total
        return {o: Fraction(w, total) for o, w in self._sorted_items()}

    def floats(self) -> dict[T, float]:
        """All outcomes with float probabilities (for charts and JSON only)."""
        total = self.total
        return {o: w / total for o, w in self._sorted_items()}

    def _sorted_items(self) -> list[tuple[T, int]]:
        try:
            return sorted(self._weights.items(), key=lambda item: item[0])  # type: ignore[arg-type, return-value]
        except TypeError:
            return list(self._weights.items())

    def mean(self) -> Fraction:
        """Exact mean of a numeric distribution (cut mass counts as nothing).

        >>> Dist.uniform([0, 1, 1]).mean()
        Fraction(2, 3)
        """
        numbers: dict[Any, int] = self._weights  # numeric outcomes: the caller's promise
        return Fraction(sum(o * w for o, w in numbers.items()), self.total)

    def variance(self) -> Fraction:
        """Exact variance of a numeric distribution (cut mass counts as nothing, as in `mean`).

        >>> Dist.uniform(range(1, 7)).variance()
        Fraction(35, 12)
        """
        numbers: dict[Any, int] = self._weights
        total = self.total
        mean = Fraction(sum(o * w for o, w in numbers.items()), total)
        return Fraction(sum(o * o * w for o, w in numbers.items()), total) - mean * mean

    def median(self) -> Any:
        """The smallest outcome k with P(outcome <= k) >= 1/2 (None if the cut holds half or more).

        >>> Dist.uniform(range(1, 7)).median(), Dist({0: 1, 5: 3}).median()
        (3, 5)
        """
        running, total = 0, self.total
        for outcome, weight in self._sorted_items():
            running += weight
            if 2 * running >= total:
                return outcome
        return None

    def at_least(self, k: Any) -> Fraction:
        """P(outcome >= k).

        >>> Dist.uniform(range(1, 7)).at_least(5)
        Fraction(1, 3)
        """
        return Fraction(sum(w for o, w in self._weights.items() if o >= k), self.total)

    def at_most(self, k: Any) -> Fraction:
        """P(outcome <= k).

        >>> Dist.uniform(range(1, 7)).at_most(2)
        Fraction(1, 3)
        """
        return Fraction(sum(w for o, w in self._weights.items() if o <= k), self.total)

    def where(self, predicate: Callable[[T], bool]) -> Fraction:
        """P(predicate(outcome)).

        >>> Dist.uniform(range(1, 7)).where(lambda x: x % 2 == 0)
        Fraction(1, 2)
        """
        return Fraction(sum(w for o, w in self._weights.items() if predicate(o)), self.total)

    # ----------------------------------------------------------------- transforms
    def map(self, function: Callable[[T], U]) -> Dist[U]:
        """Apply `function` to every outcome, merging equal results.

        >>> Dist.uniform(range(1, 7)).map(lambda x: x >= 5).probability(True)
        Fraction(1, 3)
        """
        weights: dict[U, int] = {}
        for outcome, w in self._weights.items():
            new = function(outcome)
            weights[new] = weights.get(new, 0) + w
        return Dist(weights, self._cut)

    def bind(self, function: Callable[[T], Dist[U]]) -> Dist[U]:
        """Replace every outcome by a distribution (a dependent second step).

        Cut mass is kept, never renormalised away: the result's cut is this distribution's cut
        plus, for each outcome, its probability times the cut of the distribution it leads to.

        >>> Dist.uniform([1, 2]).bind(lambda n: Dist.uniform(range(n))).probability(0)
        Fraction(3, 4)
        >>> Dist({1: 3}, cut=1).bind(lambda n: Dist({n: 1}, cut=1)).cut_mass()
        Fraction(5, 8)
        """
        parts = [(function(o), w) for o, w in self._weights.items()]
        scale = math.lcm(*(d.total for d, _ in parts))
        weights: dict[U, int] = {}
        cut = self._cut * scale
        for dist, weight in parts:
            factor = weight * (scale // dist.total)
            for outcome, w in dist._weights.items():
                weights[outcome] = weights.get(outcome, 0) + w * factor
            cut += dist._cut * factor
        return Dist(weights, cut)

    def combine(self, other: Dist[U], function: Callable[[T, U], V]) -> Dist[V]:
        """Independent product of two distributions, reduced by `function`.

        >>> coin = Dist.uniform([0, 1])
        >>> coin.combine(coin, max).probability(1)
        Fraction(3, 4)
        """
        weights: dict[V, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = function(a, b)
                weights[key] = weights.get(key, 0) + wa * wb
        cut = self._cut * other.total + other._cut * (self.total - self._cut)
        return Dist(weights, cut)

    def __add__(self, other: Dist[Any]) -> Dist[Any]:
        """Sum of independent numeric outcomes (see `add_vectors` for tuples)."""
        return self.combine(other, lambda a, b: a + b)

    def repeat(self, n: int, function: Callable[[T, T], T]) -> Dist[T]:
        """Combine `n` independent copies with `function` (n >= 1), by doubling.

        >>> Dist.uniform([0, 1]).repeat(3, lambda a, b: a + b).probability(3)
        Fraction(1, 8)
        """
        if n < 1:
            raise ValueError("repeat needs n >= 1")
        result: Dist[T] | None = None
        power = self
        while n:
            if n & 1:
                result = power if result is None else result.combine(power, function)
            n >>= 1
            if n:
                power = power.combine(power, function)
        assert result is not None
        return result

    def marginal(self, index: int) -> Dist[Any]:
        """Marginal distribution of one coordinate of tuple outcomes.

        >>> Dist({(0, 1): 1, (1, 1): 3}).marginal(0).probability(1)
        Fraction(3, 4)
        """
        return self.map(lambda outcome: outcome[index])  # type: ignore[index]

    def sample(self, rng: random.Random) -> T:
        """Draw one outcome with `rng` (for traces and Monte Carlo cross-checks only)."""
        if self._cut:
            raise ValueError("cannot sample a truncated distribution")
        outcomes = list(self._weights)
        return rng.choices(outcomes, weights=[self._weights[o] for o in outcomes])[0]

    # ----------------------------------------------------------------- value semantics
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._cut == other._cut and self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((frozenset(self._weights.items()), self._cut))
        return self._hash

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {w}" for o, w in self._sorted_items())
        cut = f", cut={self._cut}" if self._cut else ""
        return f"Dist({{{body}}}{cut})"


def add_vectors(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Element-wise sum of two count vectors.

    >>> add_vectors((1, 0, 2), (0, 1, 1))
    (1, 1, 3)
    """
    return tuple(x + y for x, y in zip(a, b))
