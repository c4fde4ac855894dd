"""The exact engine's value types: dice as count tuples, conversions, count policies, plans.

Every other module of the engine imports from here and nothing here imports them back:
`explorer.core.engine.plan` lays a request out as a `Plan`, `parts` and `dp` compute it, `cost`
weighs it, and `roll` is the entry point (`roll_counts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from explorer.core.backstop import MAX_SECONDS
from explorer.core.packed import Packing

__all__ = [
    "Conversion", "convert", "Pass", "CountPolicy", "by_worth", "NO_REROLLS", "REROLL_BLANKS",
    "Face", "Faces", "Kind", "MAX_WORK", "Plan", "multinomial", "symbol_values",
]

Face = tuple[int, ...]
"""A die face: how many of each symbol it shows, in the symbol order of its request (a blank is all 0).

The one form of a face in the package: the engine, the dice labs and the games' dice use it
(Assault of the Giants' `Symbols` is a `Face` in the order hit, block, arcane)."""

Faces = tuple[Face, ...]
"""A die: one `Face` per side (equally likely)."""

KindOrder = Callable[[tuple[Faces, ...], tuple[str, ...], tuple["Conversion", ...]], tuple[int, ...]]
"""Given the kinds' faces, the symbols and the conversions: the kinds, first visited first."""

MAX_WORK = int(MAX_SECONDS * 1e6)
"""Largest estimated cost (microseconds, about 2 s; `explorer.core.engine.cost.estimate`) accepted up front.

The estimate is a cautious one, weighed up within about 0.1 s; the engine's guard
(`explorer.core.engine.dp.Meter`) stops the rare request it let through that still computes after
`explorer.core.engine.dp.METER_LIMIT` seconds."""


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


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of die, as the engine sees it."""

    faces: Faces
    """All faces (after conversions folded into them)."""
    n: int
    """Dice of this kind."""
    on_pass: tuple[int, ...]
    """Per pass: how many faces of the die are that pass's face."""
    plain: tuple[tuple[tuple[int, ...], int], ...]
    """The other faces, each distinct face with its multiplicity."""
    most: int
    """Most dice of this kind rerolled: min(n, rerolls)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """Everything `explorer.core.engine.dp.solve` needs, decided up front."""

    symbols: tuple[str, ...]
    report: tuple[str, ...]
    kinds: tuple[Kind, ...]
    """In the order the policy visits them."""
    rerolls: int
    passes: tuple[tuple[int, ...], ...]
    """Pass faces as count vectors."""
    guards: tuple[int | None, ...]
    """Per pass: index of the guard symbol, or None."""
    need: tuple[int, ...]
    """Per symbol: how many of it the conversions can use (sum of their limits)."""
    keys: tuple[int, ...]
    """Key symbols: their first-roll totals are part of a state."""
    key_caps: tuple[int, ...]
    """Per key symbol: the cap of its first-roll total."""
    capped: tuple[int, ...]
    """Sources nobody reports: their other totals (fresh dice, plain faces) are part of a state too."""
    caps: tuple[int, ...]
    """Per capped source: the most the conversions can use."""
    conversions: tuple[Conversion, ...]
    work: Packing
    """Payload layout: one exact coordinate per symbol of `work_dims`."""
    work_dims: tuple[int, ...]
    out: Packing
    """Result layout: one coordinate per reported symbol (`out_dims`), low ones shared with `work`."""
    out_dims: tuple[int, ...]
    low: int
    """How many low coordinates `work` and `out` share (reported symbols no conversion takes)."""
    last: int | None
    """Index (in `kinds`) of the kind whose plain faces are multiplied in last, or None."""
    convert_early: bool
    """True when that kind's plain faces show no source of a conversion (conversions may come first)."""
    top: Packing
    """Layout of the last stage when conversions come after it: capped sources on top, then `work`."""
    split: int
    """Kinds from this index on are decided together at the close (the Horner kind and pending ones)."""
    cost: int = 0
    """Estimated microseconds of computing (`explorer.core.engine.cost.estimate`; 0 for a pool too small to weigh)."""


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
