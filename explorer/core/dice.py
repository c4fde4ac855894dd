"""Dice with symbol faces, pools, exploding chains and draws without replacement.

These are the game-agnostic building blocks every game module composes:

* `Face` and `Die`: a face is a count of named symbols (``hit: 2``, ``crit: 1``, blank = none).
* `pool_counts`: the distribution of how many dice of a pool show each outcome
  (multinomial weights), the state on which post-roll decisions such as rerolls are made.
* `explode`: a die that adds another die on some faces, chaining without limit,
  cut where the remaining mass falls below a threshold and the cut reported.
* `deal`: draws without replacement from a deck (card odds).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from explorer.core.dist import Dist

__all__ = ["Face", "Die", "pool_counts", "explode", "deal", "faces_from"]

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


def explode(
    die: Dist[T],
    explodes: Callable[[T], bool],
    add: Callable[[T, T], T],
    *,
    cut_below: float = 1e-12,
) -> Dist[T]:
    """Roll `die`; every outcome for which `explodes` is true adds one more roll, without limit.

    The chain is followed until the probability still pending is below `cut_below`;
    that pending mass is kept as the result's `cut` weight, so `cut_mass()` reports it
    (with any cut `die` already carried).

    Raises:
        ValueError: `cut_below` is not > 0, or every outcome of `die` explodes (no roll would end).

    >>> coin = Dist.uniform([(1, 0), (0, 1)])  # (success, crit)
    >>> chain = explode(coin, lambda o: o[1] > 0, lambda a, b: (a[0] + b[0], a[1] + b[1]))
    >>> float(chain.cut_mass()) < 1e-12
    True
    >>> explode(coin, lambda o: True, lambda a, b: a)
    Traceback (most recent call last):
    ...
    ValueError: every face of the die explodes, so no roll ever ends: at least one face must stop the chain
    """
    if cut_below <= 0:
        raise ValueError("cut_below must be > 0: an exploding chain never ends on its own")
    if all(explodes(outcome) for outcome in die):
        raise ValueError("every face of the die explodes, so no roll ever ends: at least one face must stop the chain")
    total = die.total
    done: dict[T, int] = {}
    pending: dict[T, int] = {}
    for outcome, w in die.items():
        (pending if explodes(outcome) else done)[outcome] = w
    scale = total
    while pending and Fraction(sum(pending.values()), scale) >= Fraction(cut_below):
        done = {o: w * total for o, w in done.items()}
        fresh: dict[T, int] = {}
        for acc, wa in pending.items():
            for outcome, wb in die.items():
                key = add(acc, outcome)
                target = fresh if explodes(outcome) else done
                target[key] = target.get(key, 0) + wa * wb
        pending = fresh
        scale *= total
    # Every weight is on the scale total**rolls: what `done` lacks is the pending chains plus any
    # cut the die itself carried, so both are reported.
    return Dist(done, scale - sum(done.values()))


def deal(deck: Mapping[T, int], n: int) -> Dist[tuple[tuple[T, int], ...]]:
    """Draw `n` cards without replacement from a deck of card -> copies.

    Only draws that can still be completed are followed, so the work grows with the number of
    outcomes (times the number of names), never with the 2^names ways to fail.

    >>> deal({"plot": 2, "other": 2}, 2).probability((("plot", 1), ("other", 1)))
    Fraction(2, 3)
    >>> len(deal({i: 1 for i in range(60)}, 60))  # one outcome: every card
    1
    """
    cards = list(deck.items())
    if n > sum(deck.values()):
        raise ValueError(f"cannot draw {n} cards from a deck of {sum(deck.values())}")
    behind = [0] * (len(cards) + 1)  # behind[i]: copies of the cards after the first i
    for i in range(len(cards) - 1, -1, -1):
        behind[i] = behind[i + 1] + cards[i][1]
    # Card by card (no recursion: a hand may name a thousand cards): each partial draw is
    # (cards taken so far, cards still to draw, weight); distinct choices never merge.
    partial: list[tuple[tuple[tuple[T, int], ...], int, int]] = [((), n, 1)]
    for i, (card, copies) in enumerate(cards):
        partial = [(acc + ((card, k),) if k else acc, left - k, weight * math.comb(copies, k))
                   for acc, left, weight in partial
                   for k in range(max(0, left - behind[i + 1]), min(copies, left) + 1)]
    states = {acc: weight for acc, _, weight in partial}
    return Dist(states)


def faces_from(counts: Iterable[Mapping[str, int]]) -> tuple[Face, ...]:
    """Faces from a list of mappings (the scenario's JSON form).

    >>> faces_from([{"hit": 1}, {}])[1].is_blank
    True
    """
    return tuple(Face.from_mapping(c) for c in counts)
