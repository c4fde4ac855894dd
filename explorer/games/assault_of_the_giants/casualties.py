"""Step 5 of a battle (rulebook p.17): a side assigns the damage it sustains to its units.

The side picks one unit at a time, and that unit absorbs as much of the remaining damage
as it can; damage is never spread out. Champions are always picked first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from explorer.games.assault_of_the_giants.model import Status, Unit

__all__ = ["absorb", "assign_in_order", "listed_order", "assign_damage", "Casualties"]

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


def assign_damage(units: Sequence[Unit], damage: int, policy: str, concede: Sequence[int]) -> Casualties:
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
        return assign_in_order(units, _best_order(tuple(units), damage, tuple(concede)), damage)
    raise ValueError(f"unknown casualty order {policy!r}")


@lru_cache(maxsize=4096)
def _best_order(units: tuple[Unit, ...], damage: int, concede: tuple[int, ...]) -> tuple[int, ...]:
    """The earliest order (by listed index) minimising (points conceded, units defeated)."""
    champions = frozenset(i for i, u in enumerate(units) if u.champion)
    statuses = tuple(_start(units))

    @lru_cache(maxsize=None)
    def best(remaining: frozenset[int], left: int) -> tuple[int, int]:
        if left <= 0 or not remaining:
            return (0, 0)
        pool = (remaining & champions) or remaining
        return min(_score(i, remaining, left) for i in pool)

    def _score(i: int, remaining: frozenset[int], left: int) -> tuple[int, int]:
        # Each unit is picked once, so its status when picked is its starting status.
        status, rest = absorb(units[i], statuses[i], left)
        defeated = status is Status.DEFEATED
        later = best(remaining - {i}, rest)
        return (later[0] + (concede[i] if defeated else 0), later[1] + defeated)

    order: list[int] = []
    remaining = frozenset(range(len(units)))
    left = damage
    while left > 0 and remaining:
        pool = (remaining & champions) or remaining
        target = best(remaining, left)
        pick = min(i for i in pool if _score(i, remaining, left) == target)
        order.append(pick)
        _, left = absorb(units[pick], statuses[pick], left)
        remaining = remaining - {pick}
    return tuple(order)
