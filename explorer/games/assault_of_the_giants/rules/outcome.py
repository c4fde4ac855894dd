"""A battle's outcome, from damage on: casualties, Battle Rewards, and the result types.

Steps 5 and 6 of a battle (rulebook p.17): each side's damage becomes casualties by its casualty
order, and the victor earns the Ordning Points and Resource Cards of the units defeated. Both
`explorer.games.assault_of_the_giants.battle.battle` (independent totals) and best play
(`best.play`, totals that depend on each other) build their results from these pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from explorer.core.dist import Dist
from explorer.core.packed import Packing
from explorer.games.assault_of_the_giants.rules.casualties import Casualties, casualties_by_damage
from explorer.games.assault_of_the_giants.rules.model import Battle, CasualtyOrder, Side, Status, Unit

__all__ = ["BattleResult", "SideResult", "casualty_table", "damage", "earned", "losses", "points_for",
           "resource_cards_for", "rewards"]


def points_for(victim: Side, victor: Side) -> tuple[int, ...]:
    """Ordning Points the victor earns for defeating each of the victim's units.

    Full Ordning Value normally; half rounded up for a giantslayer attack (p.19-20);
    nothing when the victor is NPC giants (p.20) or the victims are giantslayers (p.19).

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Unit
    >>> giants = Side((), Modifiers(), (Unit("g", 3, 2, 3),))
    >>> slayers = Side((), Modifiers(), (), giantslayers=True)
    >>> points_for(giants, slayers)
    (2,)
    """
    if victor.npc or victim.giantslayers:
        return tuple(0 for _ in victim.units)
    if victor.giantslayers:
        return tuple(u.giantslayer_reward() for u in victim.units)
    return tuple(u.ordning_value for u in victim.units)


def resource_cards_for(victim: Side, victor: Side) -> tuple[int, ...]:
    """Resource Cards the victor draws per defeated unit: 1 per giantslayer, none for NPCs (p.19-20)."""
    if victim.giantslayers and not victor.npc:
        return tuple(1 for _ in victim.units)
    return tuple(0 for _ in victim.units)


def casualty_table(victim: Side, victor: Side, max_damage: int) -> list[Casualties]:
    """Casualties of `victim` for each damage 0..max_damage under its casualty order (cached)."""
    return list(_casualty_table(victim.units, victim.casualty_order, points_for(victim, victor), max_damage))


@lru_cache(maxsize=256)
def _casualty_table(units: tuple[Unit, ...], order: CasualtyOrder, concede: tuple[int, ...],
                    max_damage: int) -> tuple[Casualties, ...]:
    return tuple(casualties_by_damage(units, order, concede, max_damage))


@dataclass(frozen=True, slots=True)
class SideResult:
    """Exact outcome distributions for one side of a battle."""

    totals: Dist[tuple[int, int]]
    """Joint (hits, blocks) after rerolls and conversions."""
    damage_taken: Dist[int]
    """Damage this side sustains: max(0, opponent hits - own blocks)."""
    ordning_points: Dist[int]
    """Ordning Points this side earns in the battle."""
    resource_cards: Dist[int]
    """Resource Cards this side draws for defeated giantslayers."""
    casualties: Dist[Casualties]
    """Joint status of this side's units after the battle."""

    @property
    def hits(self) -> Dist[int]:
        """Final hits."""
        return self.totals.marginal(0)

    @property
    def blocks(self) -> Dist[int]:
        """Final blocks."""
        return self.totals.marginal(1)

    def unit_status(self, index: int) -> Dist[Status]:
        """Distribution of one unit's status after the battle."""
        return self.casualties.marginal(index)

    def wiped_out(self) -> Fraction:
        """Chance that every unit of the side is defeated (0 for a side with no units)."""
        return self.casualties.where(lambda c: bool(c) and all(s is Status.DEFEATED for s in c))


@dataclass(frozen=True, slots=True)
class BattleResult:
    """Both sides' outcomes of one battle."""

    battle: Battle
    attacker: SideResult
    defender: SideResult


def damage(hits: Dist[int], blocks: Dist[int]) -> Dist[int]:
    """max(0, hits - blocks) for independent hits and blocks, by one packed multiplication.

    With blocks reversed (slot top - b), the product's slot top + k holds P(hits - blocks = k).

    >>> damage(Dist({0: 1, 2: 1}), Dist({1: 1}))
    Dist({0: 1, 1: 1})
    """
    top = max(blocks)
    width = (hits.total * blocks.total).bit_length() + 1
    layout = Packing((max(hits) + top + 1,), width)
    product = layout.pack({(h,): w for h, w in hits.items()}) * layout.pack({(top - b,): w for b, w in blocks.items()})
    weights: dict[int, int] = {}
    for (slot,), w in layout.unpack(product).items():
        k = max(0, slot - top)
        weights[k] = weights.get(k, 0) + w
    return Dist(weights)


def losses(victim: Side, victor: Side, damage: Dist[int]) -> Dist[Casualties]:
    """The victim's casualties for each damage it may sustain."""
    table = casualty_table(victim, victor, max(damage))
    return damage.map(lambda d: table[d])


def earned(casualties: Casualties, per_unit: Sequence[int]) -> int:
    return sum(v for s, v in zip(casualties, per_unit) if s is Status.DEFEATED)


def rewards(losses: Dist[Casualties], victim: Side, victor: Side) -> tuple[Dist[int], Dist[int]]:
    """Ordning Points and Resource Cards the victor earns from the victim's losses."""
    points, cards = points_for(victim, victor), resource_cards_for(victim, victor)
    return losses.map(lambda c: earned(c, points)), losses.map(lambda c: earned(c, cards))


