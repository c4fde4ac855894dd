"""A whole battle: both sides' totals, damage, casualties on both sides and Battle Rewards."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from explorer.backstop import request
from explorer.dist import Dist
from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants.casualties import Casualties, casualties_by_damage
from explorer.games.assault_of_the_giants.combat import check_battle_cost, side_totals
from explorer.games.assault_of_the_giants.model import Battle, Side, Status, Unit
from explorer.packed import Packing

__all__ = ["SideResult", "BattleResult", "resolve_battle", "points_for", "resource_cards_for",
           "casualty_table", "joint_points", "plan_points"]


def points_for(victim: Side, victor: Side) -> tuple[int, ...]:
    """Ordning Points the victor earns for defeating each of the victim's units.

    Full Ordning Value normally; half rounded up for a giantslayer attack (p.19-20);
    nothing when the victor is NPC giants (p.20) or the victims are giantslayers (p.19).

    >>> from explorer.games.assault_of_the_giants.model import Modifiers, Unit
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
def _casualty_table(units: tuple[Unit, ...], order: str, concede: tuple[int, ...],
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


def _damage(hits: Dist[int], blocks: Dist[int]) -> Dist[int]:
    """max(0, hits - blocks) for independent hits and blocks, by one packed multiplication.

    With blocks reversed (slot top - b), the product's slot top + k holds P(hits - blocks = k).

    >>> _damage(Dist({0: 1, 2: 1}), Dist({1: 1}))
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


def resolve_battle(battle: Battle) -> BattleResult:
    """Resolve a battle exactly: both sides roll; each side sustains the other's unblocked hits.

    >>> from explorer.games.assault_of_the_giants.model import CombatDie, Modifiers, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> side = Side(((hit, 2),), Modifiers(), (Unit("g", 2, 1, 3),))
    >>> result = resolve_battle(Battle(side, side))
    >>> result.attacker.ordning_points.probability(3)
    Fraction(1, 1)

    A side playing ``best`` makes the two sides' totals dependent (`best.best_result`). The battle
    is a request of its own (`explorer.backstop`), or part of the one it is computed for.
    """
    with request():
        return _resolve(battle)


def _resolve(battle: Battle) -> BattleResult:
    if _plays_best(battle):
        from explorer.games.assault_of_the_giants.best import best_result

        return best_result(battle)
    atk, dfn = battle.attacker, battle.defender
    check_battle_cost(atk, dfn)  # both rolls weighed before either is computed (about 2 s together)
    atk_totals, dfn_totals = _totals(atk, "attacker"), _totals(dfn, "defender")
    to_defender = _damage(atk_totals.marginal(0), dfn_totals.marginal(1))
    to_attacker = _damage(dfn_totals.marginal(0), atk_totals.marginal(1))
    atk_losses = _losses(atk, dfn, to_attacker)
    dfn_losses = _losses(dfn, atk, to_defender)
    return BattleResult(
        battle,
        SideResult(atk_totals, to_attacker, *_rewards(dfn_losses, dfn, atk), atk_losses),
        SideResult(dfn_totals, to_defender, *_rewards(atk_losses, atk, dfn), dfn_losses),
    )


def _plays_best(battle: Battle) -> bool:
    return "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy)


def _totals(side: Side, role: str) -> Dist[tuple[int, int]]:
    """`side_totals`, with a computing limit reported against the side's own pool."""
    try:
        return side_totals(side)
    except ScenarioError as error:
        raise ScenarioError(f"{role}.{error.field}", error.problem) from None


def _losses(victim: Side, victor: Side, damage: Dist[int]) -> Dist[Casualties]:
    """The victim's casualties for each damage it may sustain."""
    table = casualty_table(victim, victor, max(damage))
    return damage.map(lambda d: table[d])


def _earned(casualties: Casualties, per_unit: Sequence[int]) -> int:
    return sum(v for s, v in zip(casualties, per_unit) if s is Status.DEFEATED)


def _rewards(losses: Dist[Casualties], victim: Side, victor: Side) -> tuple[Dist[int], Dist[int]]:
    """Ordning Points and Resource Cards the victor earns from the victim's losses."""
    points, cards = points_for(victim, victor), resource_cards_for(victim, victor)
    return losses.map(lambda c: _earned(c, points)), losses.map(lambda c: _earned(c, cards))


def joint_points(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint distribution of (attacker's, defender's) Ordning Points in one battle.

    The two are correlated: each side's hits and blocks come from the same roll.
    """
    if _plays_best(battle):
        from explorer.games.assault_of_the_giants.best import best_joint_points

        return best_joint_points(battle)
    atk, dfn = battle.attacker, battle.defender
    atk_totals, dfn_totals = side_totals(atk), side_totals(dfn)
    most = max(max(h for h, _ in atk_totals), max(h for h, _ in dfn_totals))
    atk_table = casualty_table(atk, dfn, most)
    dfn_table = casualty_table(dfn, atk, most)
    to_atk, to_dfn = points_for(dfn, atk), points_for(atk, dfn)

    def outcome(a: tuple[int, int], d: tuple[int, int]) -> tuple[int, int]:
        (ha, ba), (hd, bd) = a, d
        return (_earned(dfn_table[max(0, ha - bd)], to_atk), _earned(atk_table[max(0, hd - ba)], to_dfn))

    return atk_totals.combine(dfn_totals, outcome)


def plan_points(battles: Sequence[Battle], players: Sequence[str]) -> Dist[tuple[int, ...]]:
    """Joint Ordning Points earned by each named player over several independent battles.

    Each side's `player` names who earns its points; a side of another player
    (or of NPC giants) adds nothing to the listed players.

    >>> from explorer.games.assault_of_the_giants.model import CombatDie, Modifiers, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> a = Side(((hit, 3),), Modifiers(), (), player="fire")
    >>> d = Side((), Modifiers(), (Unit("g", 2, 1, 2),), player="hill")
    >>> plan_points([Battle(a, d), Battle(a, d)], ["fire", "hill"]).probability((4, 0))
    Fraction(1, 1)
    """
    total: Dist[tuple[int, ...]] = Dist.single(tuple(0 for _ in players))
    for battle in battles:
        def spread(pair: tuple[int, int], b: Battle = battle) -> tuple[int, ...]:
            row = [0] * len(players)
            for side, earned in ((b.attacker, pair[0]), (b.defender, pair[1])):
                if side.player in players:
                    row[players.index(side.player)] += earned
            return tuple(row)

        total = total.combine(joint_points(battle).map(spread), lambda x, y: tuple(p + q for p, q in zip(x, y)))
    return total
