"""Step 5 of a battle (rulebook p.17): a side assigns the damage it sustains to its units.

The side picks one unit at a time, and that unit absorbs as much of the remaining damage
as it can; damage is never spread out. Champions are always picked first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product
from typing import Any, assert_never

from explorer.core.optional import accelerator
from explorer.games.assault_of_the_giants.rules.model import CasualtyOrder, Status, Unit

__all__ = ["absorb", "assign_in_order", "best_order", "listed_order", "assign_damage", "casualties_by_damage", "best_orders",
           "Casualties"]

Casualties = tuple[Status, ...]
"""Status of each unit after the battle, in the side's listed order."""


def absorb(unit: Unit, status: Status, damage: int) -> tuple[Status, int]:
    """One unit absorbs as much of `damage` as it can (rulebook p.17).

    Returns the unit's new status and the damage left for the next unit.
    With F its current Fortitude: a champion shrugs off damage below F unharmed; any unit
    is defeated by damage of at least F, which then drops by F; a smaller damage wounds a
    healthy unit, or defeats a wounded one, and is used up either way.

    >>> giant = Unit("hill giant", fortitude=2, wounded_fortitude=1)
    >>> absorb(giant, Status.HEALTHY, 7)
    (<Status.DEFEATED: 'defeated'>, 5)
    >>> absorb(giant, Status.HEALTHY, 1)
    (<Status.WOUNDED: 'wounded'>, 0)
    >>> absorb(Unit("champion", 4, 4, champion=True), Status.HEALTHY, 3)
    (<Status.HEALTHY: 'healthy'>, 0)
    """
    fortitude = unit.wounded_fortitude if status is Status.WOUNDED else unit.fortitude
    if damage >= fortitude:
        return Status.DEFEATED, damage - fortitude
    if unit.champion:
        return status, 0
    return (Status.WOUNDED if status is Status.HEALTHY else Status.DEFEATED), 0


def _start(units: Sequence[Unit]) -> list[Status]:
    return [Status.WOUNDED if u.wounded else Status.HEALTHY for u in units]


def assign_in_order(units: Sequence[Unit], order: Sequence[int], damage: int) -> Casualties:
    """Assign `damage` to units picked in `order` (indices), until it is used up.

    >>> hill = [Unit("a", 2, 1), Unit("b", 3, 2), Unit("c", 3, 2)]
    >>> [s.value for s in assign_in_order(hill, [0, 1, 2], 7)]  # rulebook p.17-18 example
    ['defeated', 'defeated', 'wounded']
    """
    statuses = _start(units)
    for index in order:
        if damage <= 0:
            break
        statuses[index], damage = absorb(units[index], statuses[index], damage)
    return tuple(statuses)


def listed_order(units: Sequence[Unit]) -> tuple[int, ...]:
    """Champions first, then the other units, each in the order listed.

    >>> listed_order([Unit("a", 2, 1), Unit("c", 5, 5, champion=True)])
    (1, 0)
    """
    champions = [i for i, u in enumerate(units) if u.champion]
    return tuple(champions + [i for i, u in enumerate(units) if not u.champion])


def casualties_by_damage(units: Sequence[Unit], policy: CasualtyOrder, concede: Sequence[int], most: int) -> list[Casualties]:
    """`assign_damage` for every damage 0..most (one shared search for ``fewest-op``).

    >>> units = [Unit("big", 3, 2, 3), Unit("small", 1, 1, 1)]
    >>> [[s.value[0] for s in c] for c in casualties_by_damage(units, "fewest-op", [3, 1], 4)]
    [['h', 'h'], ['w', 'h'], ['w', 'h'], ['w', 'd'], ['d', 'd']]
    """
    if policy == "fewest-op":
        orders = best_orders(tuple(units), tuple(concede), most)
        return [assign_in_order(units, order, d) for d, order in enumerate(orders)]
    return [assign_damage(units, d, policy, concede) for d in range(most + 1)]


def assign_damage(units: Sequence[Unit], damage: int, policy: CasualtyOrder, concede: Sequence[int]) -> Casualties:
    """Casualties under a named policy.

    Args:
        units: the side's units, in listed order.
        damage: damage the side sustains.
        policy: ``"listed"`` (champions, then listed order) or ``"fewest-op"``
            (the order that concedes the fewest Ordning Points, then loses the fewest units;
            among equally good orders, the earliest by listed position).
        concede: Ordning Points the opponent earns for defeating each unit.

    >>> units = [Unit("big", 3, 2, 3), Unit("small", 1, 1, 1)]
    >>> [s.value for s in assign_damage(units, 1, "listed", [3, 1])]
    ['wounded', 'healthy']
    >>> [s.value for s in assign_damage(units, 3, "fewest-op", [3, 1])]
    ['wounded', 'defeated']
    """
    if policy == "listed":
        return assign_in_order(units, listed_order(units), damage)
    if policy == "fewest-op":
        return assign_in_order(units, best_order(tuple(units), damage, tuple(concede)), damage)
    assert_never(policy)


def best_order(units: tuple[Unit, ...], damage: int, concede: tuple[int, ...]) -> tuple[int, ...]:
    """The earliest order (by listed index) minimising (points conceded, units defeated).

    A greedy walk: at each step, the unit of least listed index among those the rules allow
    (champions first) that starts an optimal way to absorb the rest. The optimal values come
    from `_values`, shared by every damage for the same army.
    """
    return best_orders(units, concede, damage)[damage]


def best_orders(units: tuple[Unit, ...], concede: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    """`best_order` for every damage 0..most, sharing one table of optimal values."""
    value = _values(units, concede, _numpy())
    champions = sum(1 << i for i, u in enumerate(units) if u.champion)
    fortitude = [_fortitude(u) for u in units]
    everyone = (1 << len(units)) - 1
    orders = []
    for damage in range(most + 1):
        order: list[int] = []
        remaining, left = everyone, damage
        while left > 0 and remaining:
            pool = remaining & champions or remaining
            target = value(remaining, left)
            for i in range(len(units)):
                if pool >> i & 1 and _score(units, concede, value, i, remaining, left) == target:
                    break
            order.append(i)
            left = max(0, left - fortitude[i])
            remaining &= ~(1 << i)
        orders.append(tuple(order))
    return orders


def _fortitude(unit: Unit) -> int:
    return unit.current_fortitude


def _score(units: tuple[Unit, ...], concede: tuple[int, ...], value: Callable[[int, int], int], i: int,
           remaining: int, left: int) -> int:
    """Coded (points, defeated) of picking unit i now, then the best of the rest."""
    unit = units[i]
    fortitude = _fortitude(unit)
    if left >= fortitude:
        return concede[i] * _CODE + 1 + value(remaining & ~(1 << i), left - fortitude)
    return concede[i] * _CODE + 1 if unit.wounded and not unit.champion else 0


_CODE = 16
"""(points, defeated) is coded as points * 16 + defeated: at most 12 units, so the order is kept."""

TABLE_FROM = 8
"""Armies of this many units or more get their values from a whole table (faster to build than the memo)."""

TABLE_DAMAGE = 2000
"""The table covers damage up to the army's total Fortitude: only when that is at most this (and the
points fit easily in 64-bit integers); otherwise the memo serves, slower but unbounded."""

PURE_TABLE_CELLS = 2_000_000
"""Without numpy the table holds one row per distinct army left (`_kinds`): only up to this many cells."""


def _numpy() -> str | None:
    """Whether the numpy table serves (`explorer.core.optional.accelerator`): its name, else None."""
    numpy = accelerator("numpy")
    return None if numpy is None else numpy.__name__


@lru_cache(maxsize=64)
def _values(units: tuple[Unit, ...], concede: tuple[int, ...], numpy: str | None) -> Callable[[int, int], int]:
    """value(remaining units as a bit mask, damage left) -> best coded (points, defeated).

    Small armies: a memo filled on demand. From `TABLE_FROM` units: the whole table at once, every
    damage at once (damage beyond the army's total Fortitude acts alike), with `numpy` where it
    imports (`_table`), else in plain Python (`_pure_table`): the same values either way.
    """
    small_table = sum(_fortitude(u) for u in units) <= TABLE_DAMAGE and max(concede, default=0) < 2**40
    if len(units) >= TABLE_FROM and small_table:
        if numpy is not None:
            table = _table(units, concede)
            top = table.shape[1] - 1
            return lambda remaining, left: int(table.item(remaining, min(left, top)))
        kinds, counts = _kinds(units, concede)
        if math.prod(c + 1 for c in counts) * (sum(_fortitude(u) for u in units) + 1) <= PURE_TABLE_CELLS:
            return _pure_table(units, concede, kinds, counts)
    memo: dict[tuple[int, int], int] = {}
    champions = sum(1 << i for i, u in enumerate(units) if u.champion)

    def value(remaining: int, left: int) -> int:
        if left <= 0 or not remaining:
            return 0
        key = (remaining, left)
        best = memo.get(key)
        if best is None:
            pool = remaining & champions or remaining
            best = memo[key] = min(_score(units, concede, value, i, remaining, left)
                                   for i in range(len(units)) if pool >> i & 1)
        return best

    return value


def _kinds(units: tuple[Unit, ...], concede: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each unit's kind (units of one kind are interchangeable for `_values`), and each kind's count.

    A unit's kind is what `_score` reads of it: its Fortitude, whether it is a Champion, whether a
    smaller damage defeats it (wounded, not a Champion), and the points it concedes.

    >>> _kinds((Unit("a", 2, 1), Unit("b", 3, 2), Unit("c", 2, 1)), (1, 2, 1))
    ((0, 1, 0), (2, 1))
    """
    seen: dict[tuple[int, bool, bool, int], int] = {}
    kind = tuple(seen.setdefault((_fortitude(u), u.champion, u.wounded and not u.champion, p), len(seen))
                 for u, p in zip(units, concede))
    return kind, tuple(kind.count(k) for k in range(len(seen)))


def _pure_table(units: tuple[Unit, ...], concede: tuple[int, ...], kind: tuple[int, ...],
                counts: tuple[int, ...]) -> Callable[[int, int], int]:
    """`_table` without numpy: one row per army left, given as how many units of each kind remain.

    Rows are built by units left, fewest first, each over every damage at once (lists). A row stops
    at its own army's total Fortitude: more damage defeats every unit whatever the order, so it acts
    alike. A bit mask of units is read as its kinds' counts.
    """
    fortitude = [_fortitude(units[kind.index(k)]) for k in range(len(counts))]
    first = [units[kind.index(k)] for k in range(len(counts))]
    defeat = [concede[kind.index(k)] * _CODE + 1 for k in range(len(counts))]
    last = [[d if u.wounded and not u.champion else 0] * f for u, d, f in zip(first, defeat, fortitude)]
    radix = [math.prod(c + 1 for c in counts[k + 1:]) for k in range(len(counts))]
    rows: list[list[int]] = [[]] * math.prod(c + 1 for c in counts)
    rows[0] = [0]
    for left in sorted(product(*(range(c + 1) for c in counts)), key=sum)[1:]:
        row = sum(n * r for n, r in zip(left, radix))
        pool = [k for k, n in enumerate(left) if n and first[k].champion] or [k for k, n in enumerate(left) if n]
        scores = [last[k] + list(map(defeat[k].__add__, rows[row - radix[k]])) for k in pool]
        best = list(map(min, *scores)) if len(scores) > 1 else scores[0]
        best[0] = 0
        rows[row] = best
    weight = [radix[k] for k in kind]
    masks: dict[int, list[int]] = {}

    def value(remaining: int, left: int) -> int:
        row = masks.get(remaining)
        if row is None:
            row = masks[remaining] = rows[sum(w for i, w in enumerate(weight) if remaining >> i & 1)]
        return row[min(left, len(row) - 1)] if left > 0 else 0

    return value


def _table(units: tuple[Unit, ...], concede: tuple[int, ...]) -> Any:
    """The numpy table of `_values`: row = remaining units (bit mask), column = damage left."""
    import numpy as np

    count = len(units)
    fortitude = [_fortitude(u) for u in units]
    top = sum(fortitude)
    champions = sum(1 << i for i, u in enumerate(units) if u.champion)
    table = np.zeros((1 << count, top + 1), dtype=np.int64)
    masks = np.arange(1 << count, dtype=np.int64)
    sizes = np.array([bin(m).count("1") for m in range(1 << count)])
    for size in range(1, count + 1):
        rows = masks[sizes == size]
        best = np.full((len(rows), top + 1), np.iinfo(np.int64).max, dtype=np.int64)
        has_champion = (rows & champions) != 0
        for i, unit in enumerate(units):
            allowed = ((rows >> i) & 1).astype(bool) & (unit.champion | ~has_champion)
            if not allowed.any():
                continue
            picked = np.nonzero(allowed)[0]
            rest = table[rows[picked] ^ (1 << i)]
            defeat = concede[i] * _CODE + 1
            last = defeat if unit.wounded and not unit.champion else 0
            f = fortitude[i]
            score = np.full((len(picked), top + 1), last, dtype=np.int64)
            score[:, f:] = defeat + rest[:, :top + 1 - f]
            best[picked] = np.minimum(best[picked], score)
        best[:, 0] = 0
        table[rows] = best
    return table
