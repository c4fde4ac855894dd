"""Dice with named symbol faces and pools of them, rolled face by face: the tests' plain oracle.

`Face` is a multiset of named symbols (``hit: 2``, ``crit: 1``, blank = none), `Die` a tuple of
equally likely faces, `pool_counts` how many dice of a pool show each outcome. The package's
engine works on count tuples instead (`explorer.core.engine`); these slower, plainer forms are
what its results are checked against (`tests/core/pool_oracle.py`, `tests/core/test_engine.py`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from explorer.core.dist import Dist

__all__ = ["Face", "Die", "pool_counts", "faces_from"]

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a die: how many of each named symbol it shows.

    >>> Face.of(hit=2).count("hit")
    2
    >>> Face.of().is_blank
    True
    """

    symbols: tuple[tuple[str, int], ...] = ()
    """Pairs of symbol name and count, sorted by name, counts > 0."""

    @classmethod
    def of(cls, **counts: int) -> Face:
        """Build a face from keyword counts; zero counts are dropped."""
        return cls.from_mapping(counts)

    @classmethod
    def from_mapping(cls, counts: Mapping[str, int]) -> Face:
        """Build a face from a mapping of symbol name to count."""
        return cls(tuple(sorted((k, v) for k, v in counts.items() if v)))

    def count(self, symbol: str) -> int:
        """How many `symbol`s the face shows."""
        return dict(self.symbols).get(symbol, 0)

    @property
    def is_blank(self) -> bool:
        """True for a face with no symbol at all (a miss)."""
        return not self.symbols

    def as_dict(self) -> dict[str, int]:
        """The face as a plain mapping (the scenario format)."""
        return dict(self.symbols)

    def label(self) -> str:
        """Short text such as ``2 hit + 1 block`` or ``blank``."""
        if self.is_blank:
            return "blank"
        return " + ".join(f"{n} {s}" for s, n in self.symbols)


@dataclass(frozen=True, slots=True)
class Die:
    """A named die: a tuple of equally likely faces.

    >>> d = Die("coin", (Face.of(hit=1), Face.of()))
    >>> d.dist().probability(Face.of(hit=1))
    Fraction(1, 2)
    """

    name: str
    faces: tuple[Face, ...]

    def dist(self) -> Dist[Face]:
        """The distribution of the face rolled."""
        return Dist.uniform(self.faces)

    def symbol_dist(self, symbols: tuple[str, ...]) -> Dist[tuple[int, ...]]:
        """The distribution of the count vector of `symbols` on one roll.

        >>> Die("d", (Face.of(hit=1), Face.of(block=2))).symbol_dist(("hit", "block")).probability((0, 2))
        Fraction(1, 2)
        """
        return self.dist().map(lambda face: tuple(face.count(s) for s in symbols))

    def mean(self, symbol: str) -> Fraction:
        """Expected count of `symbol` on one roll."""
        return Fraction(sum(f.count(symbol) for f in self.faces), len(self.faces))


def pool_counts(die: Dist[T], n: int) -> Dist[tuple[tuple[T, int], ...]]:
    """How many of `n` independent rolls show each outcome (a multiset), exactly.

    Each state lists ``(outcome, count)`` for the outcomes present, in the die's order.

    >>> coin = Dist.uniform("ht")
    >>> pool_counts(coin, 2).probability((("h", 1), ("t", 1)))
    Fraction(1, 2)
    """
    outcomes = list(die.items())
    states: dict[tuple[tuple[T, int], ...], int] = {}

    def walk(i: int, left: int, acc: tuple[tuple[T, int], ...], weight: int) -> None:
        outcome, w = outcomes[i]
        if i == len(outcomes) - 1:
            key = acc + ((outcome, left),) if left else acc
            states[key] = states.get(key, 0) + weight * w**left
            return
        for c in range(left + 1):
            key = acc + ((outcome, c),) if c else acc
            walk(i + 1, left - c, key, weight * math.comb(left, c) * w**c)

    if n == 0:
        return Dist.single(())
    walk(0, n, (), 1)
    return Dist(states)


def faces_from(counts: Iterable[Mapping[str, int]]) -> tuple[Face, ...]:
    """Faces from a list of mappings (the scenario's JSON form).

    >>> faces_from([{"hit": 1}, {}])[1].is_blank
    True
    """
    return tuple(Face.from_mapping(c) for c in counts)
