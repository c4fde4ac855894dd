"""What a side's final totals are worth to it, for best play (`best`): objectives as exact integers.

A side X that ends a battle with totals (hits, blocks), against an opponent Y with totals
(hits', blocks'), deals ``dealt = max(0, hits - blocks')`` damage and takes
``taken = max(0, hits' - blocks)`` (p.17). Its objective (`rules.model.OBJECTIVES`) reads:

* ``ordning-points``: the Ordning Points X earns for Y's units defeated by ``dealt``;
* ``net-ordning-points``: that, minus the Ordning Points Y earns for X's units defeated by ``taken``;
* ``damage``: ``dealt``;
* ``wipe-out``: 1 if every unit of Y is defeated by ``dealt`` (0 when Y has no units).

Casualties follow each side's casualty order, and points follow `battle.points_for` (NPC giants
earn nothing, giantslayers half), so the objectives score exactly what `resolve_battle` reports.

Ties. A side compares its choices by the *value tuple* (objective, net Ordning Points,
damage dealt - damage taken), lexicographically: the later entries only break exact ties of the
earlier ones. `Lex` packs such a tuple into one non-negative integer whose order is the tuple's
order, and which stays so under expectations (sums with non-negative integer weights up to a
known total), so the search compares plain integers.

The tables (`dealt_table`, `taken_table`) are plain tuples, read by both paths of best play; the
numpy path reads them as arrays (`dealt_terms`, `components`, `Lex.pack`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from explorer.core.optional import optional
from explorer.games.assault_of_the_giants.rules.model import Objective, Side, Status
from explorer.games.assault_of_the_giants.rules.outcome import casualty_table, points_for

if TYPE_CHECKING:
    import numpy as np
else:
    np = optional("numpy", "best play's numpy path")  # imported at first use (`explorer.core.optional`)

__all__ = ["Stakes", "stakes", "dealt_table", "taken_table", "components", "dealt_terms", "taken_terms", "value_tuple",
           "Lex", "INT64_SAFE"]

INT64_SAFE = 1 << 62
"""Integers below this fit numpy's int64 with room for one addition; beyond, arrays hold Python ints."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """What side X can win or lose in one battle, per damage.

    >>> s = Stakes("damage", earned=(0, 2), conceded=(0, 0, 3), wiped=(0, 1))
    >>> s.earned[1], s.conceded[2], s.wiped[1]
    (2, 3, 1)
    """

    objective: Objective
    """X's objective (`rules.model.Objective`)."""
    earned: tuple[int, ...]
    """Ordning Points X earns when Y takes damage d, d = 0..len - 1."""
    conceded: tuple[int, ...]
    """Ordning Points Y earns when X takes damage d."""
    wiped: tuple[int, ...]
    """1 when damage d defeats every unit of Y, else 0."""


def stakes(side: Side, opponent: Side, most_dealt: int, most_taken: int) -> Stakes:
    """Side's `Stakes` against `opponent`, for damage up to the given bounds.

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Unit
    >>> a = Side((), Modifiers(), (Unit("a", 2, 1, 3),))
    >>> b = Side((), Modifiers(), (Unit("b", 1, 1, 5), Unit("c", 1, 1, 1)))
    >>> stakes(a, b, 2, 2)
    Stakes(objective='ordning-points', earned=(0, 5, 6), conceded=(0, 0, 3), wiped=(0, 0, 1))
    """
    def earned(victim: Side, victor: Side, most: int) -> tuple[list[int], list[int]]:
        table = casualty_table(victim, victor, most)
        points = points_for(victim, victor)
        won = [sum(p for s, p in zip(c, points) if s is Status.DEFEATED) for c in table]
        wiped = [int(bool(c) and all(s is Status.DEFEATED for s in c)) for c in table]
        return won, wiped

    won, wiped = earned(opponent, side, most_dealt)
    lost, _ = earned(side, opponent, most_taken)
    return Stakes(side.objective, tuple(won), tuple(lost), tuple(wiped))


def dealt_table(stakes_: Stakes) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The part of the value tuple that depends on the damage dealt, per damage 0..len(earned) - 1.

    Row ``j`` holds entry ``j`` of the value tuple (objective, net Ordning Points, dealt - taken);
    a side's value tuple is ``dealt_table[j][dealt] + taken_table[j][taken]``.

    >>> s = Stakes("net-ordning-points", earned=(0, 2), conceded=(0, 3), wiped=(0, 1))
    >>> dealt_table(s), taken_table(s)
    (((0, 2), (0, 2), (0, 1)), ((0, -3), (0, -3), (0, -1)))
    """
    damage = range(len(stakes_.earned))
    objective = {"ordning-points": stakes_.earned, "net-ordning-points": stakes_.earned, "damage": tuple(damage),
                 "wipe-out": stakes_.wiped}[stakes_.objective]
    return tuple(objective), tuple(stakes_.earned), tuple(damage)


def taken_table(stakes_: Stakes) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The part of the value tuple that depends on the damage taken, per damage 0..len(conceded) - 1."""
    lost = tuple(-p for p in stakes_.conceded)
    objective = lost if stakes_.objective == "net-ordning-points" else tuple(0 for _ in lost)
    return objective, lost, tuple(-d for d in range(len(lost)))


def components(stakes_: Stakes, hits: Any, blocks: Any, opp_hits: Any, opp_blocks: Any) -> np.ndarray:
    """The value tuple of final totals, as three numpy integer arrays (broadcasting the inputs).

    Returns an array of shape ``(3, *broadcast shape)``: objective, net Ordning Points, and
    damage dealt - damage taken. Each is a term of the damage dealt plus a term of the damage
    taken (`dealt_table` + `taken_table`), so an expectation needs only each damage's marginal.

    >>> import pytest; np = pytest.importorskip("numpy")  # the arrays of the numpy path
    >>> s = Stakes("damage", earned=(0, 2, 2), conceded=(0, 3, 3), wiped=(0, 0, 1))
    >>> components(s, np.array([2]), np.array([0]), np.array([1]), np.array([1])).ravel().tolist()
    [1, -1, 0]
    """
    dealt = np.maximum(0, np.asarray(hits) - np.asarray(opp_blocks))
    taken = np.maximum(0, np.asarray(opp_hits) - np.asarray(blocks))
    dealt, taken = np.broadcast_arrays(dealt, taken)
    return dealt_terms(stakes_, dealt) + taken_terms(stakes_, taken)  # type: ignore[no-any-return]


def dealt_terms(stakes_: Stakes, dealt: Any) -> np.ndarray:
    """`dealt_table` read at a numpy array of damages: shape ``(3, *dealt.shape)``, 64-bit integers.

    >>> import pytest; np = pytest.importorskip("numpy")  # the arrays of the numpy path
    >>> s = Stakes("net-ordning-points", earned=(0, 2), conceded=(0, 3), wiped=(0, 1))
    >>> dealt_terms(s, np.array(1)).tolist(), taken_terms(s, np.array(1)).tolist()
    ([2, 2, 1], [-3, -3, -1])
    """
    return np.asarray(dealt_table(stakes_), dtype=np.int64)[:, np.asarray(dealt)]


def taken_terms(stakes_: Stakes, taken: Any) -> np.ndarray:
    """`taken_table` read at a numpy array of damages: shape ``(3, *taken.shape)``, 64-bit integers."""
    return np.asarray(taken_table(stakes_), dtype=np.int64)[:, np.asarray(taken)]


def value_tuple(stakes_: Stakes, dealt: int, taken: int) -> tuple[int, int, int]:
    """The value tuple (objective, net Ordning Points, dealt - taken) for given damage dealt and taken.

    >>> value_tuple(Stakes("wipe-out", earned=(0, 2), conceded=(0, 3), wiped=(0, 1)), 1, 1)
    (1, -1, 0)
    """
    won, net = stakes_.earned[dealt], stakes_.earned[dealt] - stakes_.conceded[taken]
    objective = {"ordning-points": won, "net-ordning-points": net, "damage": dealt,
                 "wipe-out": stakes_.wiped[dealt]}[stakes_.objective]
    return objective, net, dealt - taken


@dataclass(frozen=True, slots=True)
class Lex:
    """Packs value tuples into integers that order as the tuples do, also after expectations.

    A tuple (v0, v1, v2) of integers with ``low[i] <= vi <= low[i] + spread[i]`` packs as
    ``sum((vi - low[i]) * place[i])``. A sum of packed values with non-negative integer weights
    totalling at most `scale` keeps each digit below ``spread[i] * scale + 1``, so it still orders
    lexicographically and `unpack` recovers each weighted sum.

    >>> lex = Lex.spanning((0, -1, 3), (2, 5, 3), scale=6)
    >>> lex.pack_tuple((0, 5, 3)) > lex.pack_tuple((2, -1, 3))
    False
    >>> lex.unpack(lex.pack_tuple((0, 5, 3)) * 6, 6)
    (Fraction(0, 1), Fraction(5, 1), Fraction(3, 1))
    """

    low: tuple[int, ...]
    place: tuple[int, ...]
    top: int
    """Largest packed value of a `scale`-weighted sum (for choosing int64 or Python ints)."""

    @classmethod
    def spanning(cls, low: tuple[int, ...], high: tuple[int, ...], scale: int) -> Lex:
        """A packing for tuples between `low` and `high` (entry by entry) and weighted sums up to `scale`."""
        place, size = [], 1
        for s in reversed([hi - lo for lo, hi in zip(low, high)]):
            place.append(size)
            size *= s * scale + 1
        return cls(tuple(low), tuple(reversed(place)), size - 1)

    @classmethod
    def fit(cls, values: np.ndarray, scale: int) -> Lex:
        """`spanning` every tuple in the numpy array `values` (shape ``(3, ...)``)."""
        return cls.spanning(tuple(int(v.min()) for v in values), tuple(int(v.max()) for v in values), scale)

    def pack_tuple(self, values: tuple[int, ...]) -> int:
        """The packed integer of one tuple."""
        return sum((v - lo) * place for v, lo, place in zip(values, self.low, self.place))

    def pack(self, values: np.ndarray) -> np.ndarray:
        """Packed integers of the tuples in the numpy array `values` (shape ``(3, ...)``); int64 when it fits.

        >>> import pytest; np = pytest.importorskip("numpy")  # the arrays of the numpy path
        >>> values = np.array([[0, 2], [5, -1], [3, 3]])
        >>> lex = Lex.fit(values, scale=6)
        >>> lex.pack(values).tolist() == [lex.pack_tuple((0, 5, 3)), lex.pack_tuple((2, -1, 3))]
        True
        """
        dtype: Any = np.int64 if self.top < INT64_SAFE else object
        out = np.zeros(values.shape[1:], dtype=dtype)
        for v, lo, place in zip(values, self.low, self.place):
            out = out + (v.astype(dtype) - lo) * place
        return out

    def unpack(self, packed: int, scale: int) -> tuple[Fraction, ...]:
        """The tuple whose `scale`-weighted sum (weights summing to exactly `scale`) packed to `packed`,
        divided by `scale`: the expected value tuple."""
        out = []
        for lo, place in zip(self.low, self.place):
            digit, packed = divmod(packed, place)
            out.append(Fraction(digit, scale) + lo)
        return tuple(out)
