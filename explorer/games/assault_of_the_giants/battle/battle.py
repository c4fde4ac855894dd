"""A whole battle: both sides' totals, damage, casualties on both sides and Battle Rewards."""

from __future__ import annotations

from collections.abc import Sequence

from explorer.core.backstop import request
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.play import best_joint_points, best_result
from explorer.games.assault_of_the_giants.rules.combat import check_battle_cost, side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from explorer.games.assault_of_the_giants.rules.outcome import (
    BattleResult,
    SideResult,
    casualty_table,
    damage,
    earned,
    losses,
    points_for,
    resource_cards_for,
    rewards,
)

__all__ = ["SideResult", "BattleResult", "resolve_battle", "points_for", "resource_cards_for",
           "casualty_table", "joint_points", "plan_points"]


def resolve_battle(battle: Battle) -> BattleResult:
    """Resolve a battle exactly: both sides roll; each side sustains the other's unblocked hits.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> side = Side(((hit, 2),), Modifiers(), (Unit("g", 2, 1, 3),))
    >>> result = resolve_battle(Battle(side, side))
    >>> result.attacker.ordning_points.probability(3)
    Fraction(1, 1)

    A side playing ``best`` makes the two sides' totals dependent (`best.play.best_result`). The battle
    is a request of its own (`explorer.core.backstop`), or part of the one it is computed for.
    """
    with request():
        return _resolve(battle)


def _resolve(battle: Battle) -> BattleResult:
    if _plays_best(battle):
        return best_result(battle)
    atk, dfn = battle.attacker, battle.defender
    check_battle_cost(atk, dfn)  # both rolls weighed before either is computed (about 2 s together)
    atk_totals, dfn_totals = _totals(atk, "attacker"), _totals(dfn, "defender")
    to_defender = damage(atk_totals.marginal(0), dfn_totals.marginal(1))
    to_attacker = damage(dfn_totals.marginal(0), atk_totals.marginal(1))
    atk_losses = losses(atk, dfn, to_attacker)
    dfn_losses = losses(dfn, atk, to_defender)
    return BattleResult(
        battle,
        SideResult(atk_totals, to_attacker, *rewards(dfn_losses, dfn, atk), atk_losses),
        SideResult(dfn_totals, to_defender, *rewards(atk_losses, atk, dfn), dfn_losses),
    )


def _plays_best(battle: Battle) -> bool:
    return "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy)


def _totals(side: Side, role: str) -> Dist[tuple[int, int]]:
    """`side_totals`, with a computing limit reported against the side's own pool."""
    try:
        return side_totals(side)
    except ScenarioError as error:
        raise ScenarioError(f"{role}.{error.field}", error.problem) from None


def joint_points(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint distribution of (attacker's, defender's) Ordning Points in one battle.

    The two are correlated: each side's hits and blocks come from the same roll.
    """
    if _plays_best(battle):
        return best_joint_points(battle)
    atk, dfn = battle.attacker, battle.defender
    atk_totals, dfn_totals = side_totals(atk), side_totals(dfn)
    most = max(max(h for h, _ in atk_totals), max(h for h, _ in dfn_totals))
    atk_table = casualty_table(atk, dfn, most)
    dfn_table = casualty_table(dfn, atk, most)
    to_atk, to_dfn = points_for(dfn, atk), points_for(atk, dfn)

    def outcome(a: tuple[int, int], d: tuple[int, int]) -> tuple[int, int]:
        (ha, ba), (hd, bd) = a, d
        return (earned(dfn_table[max(0, ha - bd)], to_atk), earned(atk_table[max(0, hd - ba)], to_dfn))

    return atk_totals.combine(dfn_totals, outcome)


def plan_points(battles: Sequence[Battle], players: Sequence[str]) -> Dist[tuple[int, ...]]:
    """Joint Ordning Points earned by each named player over several independent battles.

    Each side's `player` names who earns its points; a side of another player
    (or of NPC giants) adds nothing to the listed players.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
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
            for side, gained in ((b.attacker, pair[0]), (b.defender, pair[1])):
                if side.player in players:
                    row[players.index(side.player)] += gained
            return tuple(row)

        total = total.combine(joint_points(battle).map(spread), lambda x, y: tuple(p + q for p, q in zip(x, y)))
    return total
