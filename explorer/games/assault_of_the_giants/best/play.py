"""Best play, exact: a side rerolls and converts to maximise its objective (reroll policy ``best``).

A side playing ``best`` rerolls whichever of its dice it likes (at most its rerolls, each die once,
all at once, p.16), then splits its arcane between its conversions, so as to maximise its
``objective`` (`model.OBJECTIVES`, scored by `best_values`), given how the other side plays.
The search itself is `best_roll`. Rulings:

* Order of play (p.17): the attacker records its totals before the defender rolls, so a defender
  playing ``best`` answers knowing the attacker's final hits and blocks; an attacker playing
  ``best`` weighs each of its totals by what the defender will then do (its fixed policy, or its
  best answer to those totals). With a best defender the two sides' totals are no longer
  independent: the battle is resolved on their joint distribution (`best_joint`).
* Ties: a side indifferent between choices for its objective prefers, in order, the higher
  expected net Ordning Points (earned minus conceded), then the higher expected damage dealt minus
  damage taken, then the fewest dice rerolled, then the most (hits, blocks, arcane) kept, then
  rerolling dice of the kinds listed first; among equal arcane splits, the most arcane to hits,
  then the most to blocks. A side's later preferences matter to its opponent when the two
  objectives differ, so they are part of the rules of the search, not an accident of it.
* A side playing any other policy keeps it (`combat.side_totals`); only the sides playing
  ``best`` are searched.
* Cards (p.16-17): the search plays each side with its cards folded in (`cards.played`): their
  dice are rolled, their rerolls and conversions are used with the Commands', and their flat hits
  and blocks are added to every final total, so the values scored see the totals recorded.

Cost: everything is weighed before it is built (`costs`: the searches, the grids joining the two
sides, their memory) and refused past about 2 s or 200 MB; a side's value is a term of the damage
dealt plus one of the damage taken, so the two sides are joined through their marginals, never
through a grid of all four totals (`joint_grid` is built only for `best_joint`). The report's
best-play summary is `explorer.games.assault_of_the_giants.battle.best_summary`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from explorer.core import backstop
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.core.optional import optional
from explorer.games.assault_of_the_giants.best.costs import (
    MAX_SECONDS,
    battle_costs,
    check_costs,
    check_defender,
    check_search,
    final_bounds,
    kinds_of,
    search_seconds,
)
from explorer.games.assault_of_the_giants.best.roll import RollPlan, Solved, roll_plan, solve_roll
from explorer.games.assault_of_the_giants.best.values import (
    INT64_SAFE,
    Lex,
    Stakes,
    dealt_terms,
    stakes,
    taken_terms,
)
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult, SideResult, losses, rewards

if TYPE_CHECKING:
    import numpy as np
else:
    np = optional("numpy", "best play", "reroll_policy")  # imported when best play first runs (`explorer.core.optional`)

__all__ = ["Response", "Solution", "attacker_solution", "defender_response", "best_joint", "joint_grid",
           "best_result", "attacker_totals", "clear_caches",
           "best_joint_points", "MAX_SECONDS", "final_bounds", "kinds_of",
           "search_seconds"]

Totals4 = tuple[int, int, int, int]
"""(attacker hits, attacker blocks, defender hits, defender blocks)."""


@dataclass(frozen=True, eq=False)
class Response:
    """The defender's best answer to each attacker total it may face (p.17: it knows them).

    Context ``c`` answers the attacker's hits ``c // classes`` and blocks ``min(b, classes - 1)``:
    attacker blocks beyond the defender's most hits change nothing for it (`costs.defender_contexts`).
    """

    solved: Solved
    lex: Lex
    context: np.ndarray
    """Index into the solution's contexts of each attacker (hits, blocks), shape = attacker final grid."""
    classes: int
    """Attacker block totals the defender tells apart."""

    def totals(self, attacker: tuple[int, int]) -> np.ndarray:
        """Weights of the defender's final (hits, blocks) when the attacker recorded `attacker`."""
        return self.solved.final[self.context[attacker]]  # type: ignore[no-any-return]

    def hits_blocks(self) -> tuple[np.ndarray, np.ndarray]:
        """The attacker's (hits, blocks) each context stands for (blocks: the least of its class)."""
        contexts = self.solved.final.shape[0]
        return np.arange(contexts) // self.classes, np.arange(contexts) % self.classes


@dataclass(frozen=True, eq=False)
class Solution:
    """The attacker's best play against the defender's play (fixed, or its best answer)."""

    solved: Solved
    lex: Lex
    denominator: int
    """The values are this many times the expected value tuples (the defender's total weight)."""


def _stakes_pair(battle: Battle) -> tuple[Stakes, Stakes]:
    """Both sides' stakes, for every damage either side can deal."""
    atk, dfn = battle.attacker, battle.defender
    most_atk, most_dfn = final_bounds(atk)[0] - 1, final_bounds(dfn)[0] - 1
    return stakes(atk, dfn, most_atk, most_dfn), stakes(dfn, atk, most_dfn, most_atk)


def defender_response(battle: Battle) -> Response:
    """The defender's best play against every attacker total (whatever policy the defender has).

    How the attacker rerolls changes nothing the defender answers (only its totals do), so the
    answer is shared by every attacker policy (a report's best-play summary asks for two).

    Raises:
        ScenarioError: the search is too big (``defender.pool`` or ``defender.rerolls``).
    """
    atk = battle.attacker
    return _response(battle if atk.reroll_policy == "none" else replace(battle, attacker=replace(atk, reroll_policy="none")))


@lru_cache(maxsize=4)
def _response(battle: Battle) -> Response:
    atk, dfn = battle.attacker, battle.defender
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    classes = min(ba, hd)
    check_defender(battle)  # before anything is built: ha * classes contexts
    _, dfn_stakes = _stakes_pair(battle)
    dealt = np.maximum(0, np.arange(hd)[None, :] - np.arange(classes)[:, None])  # (classes, hd)
    taken = np.maximum(0, np.arange(ha)[:, None] - np.arange(bd)[None, :])  # (ha, bd)
    per_context = (dealt_terms(dfn_stakes, dealt)[:, None, :, :, None]
                   + taken_terms(dfn_stakes, taken)[:, :, None, None, :]).reshape(3, ha * classes, hd, bd)
    dfn = played(dfn)
    plan = roll_plan(kinds_of(dfn), dfn.modifiers.rerolls)
    lex = Lex.fit(per_context, plan.scale)
    solved = _solve(plan, dfn, lex.pack(per_context), "defender")
    context = np.arange(ha)[:, None] * classes + np.minimum(np.arange(ba), classes - 1)[None, :]
    return Response(solved, lex, context, classes)


def _dense(dist: Dist[tuple[int, int]], bounds: tuple[int, int]) -> np.ndarray:
    """A (hits, blocks) distribution as a weight grid (Python ints)."""
    grid = np.zeros(bounds, dtype=object)
    for (h, b), w in dist.items():
        grid[h, b] = w
    return grid


def _defender_grids(battle: Battle) -> tuple[np.ndarray, int]:
    """Weights of the defender's final totals for each attacker total, shape (ha, ba, hd, bd), and their total."""
    atk, dfn = battle.attacker, battle.defender
    bounds = final_bounds(atk)
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        return response.solved.final[response.context], response.solved.plan.total * response.solved.plan.scale
    fixed = side_totals(dfn)
    grid = _dense(fixed, final_bounds(dfn))
    return np.broadcast_to(grid, bounds + grid.shape), fixed.total


def _weights(values: np.ndarray, bound: int) -> np.ndarray:
    """`values` as 64-bit integers when sums up to `bound` fit them, else as Python integers."""
    return values.astype(np.int64 if bound < INT64_SAFE else object)


@lru_cache(maxsize=4)
def attacker_solution(battle: Battle) -> Solution:
    """The attacker's best play against the defender's play (whatever policy the attacker has).

    Each value is a term of the damage dealt plus one of the damage taken (`best_values.dealt_terms`),
    so it is weighed by the defender's blocks and hits apart: no grid of all four totals is built.

    Raises:
        ScenarioError: a search is too big (``attacker.pool``/``rerolls`` or the defender's).
    """
    atk, dfn = battle.attacker, battle.defender
    check_search(atk, "attacker", 1)
    atk_stakes, _ = _stakes_pair(battle)
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    dealt = dealt_terms(atk_stakes, np.maximum(0, np.arange(ha)[:, None] - np.arange(bd)[None, :]))  # (3, ha, bd)
    taken = taken_terms(atk_stakes, np.maximum(0, np.arange(hd)[:, None] - np.arange(ba)[None, :]))  # (3, hd, ba)
    largest = max(1, int(np.abs(dealt).max())) + max(1, int(np.abs(taken).max()))
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        final, denominator = response.solved.final, response.solved.plan.total * response.solved.plan.scale
        by_blocks, by_hits = _weights(final.sum(axis=1), denominator * largest), _weights(final.sum(axis=2),
                                                                                          denominator * largest)
        hits, blocks = response.hits_blocks()
        per_context = ((dealt[:, hits, :] * by_blocks[None]).sum(axis=2)
                       + (taken[:, :, blocks].transpose(0, 2, 1) * by_hits[None]).sum(axis=2))  # (3, contexts)
        values = per_context[:, response.context]
    else:
        fixed = side_totals(dfn)
        grid, denominator = _dense(fixed, (hd, bd)), fixed.total
        by_blocks, by_hits = _weights(grid.sum(axis=0), denominator * largest), _weights(grid.sum(axis=1),
                                                                                         denominator * largest)
        values = ((dealt * by_blocks[None, None, :]).sum(axis=2)[:, :, None]
                  + (taken * by_hits[None, :, None]).sum(axis=1)[:, None, :])  # (3, ha, ba)
    atk = played(atk)
    plan = roll_plan(kinds_of(atk), atk.modifiers.rerolls)
    lex = Lex.fit(values[:, None], plan.scale)
    solved = _solve(plan, atk, lex.pack(values[:, None]), "attacker")
    return Solution(solved, lex, denominator)


def _solve(plan: RollPlan, side: Side, values: np.ndarray, role: str) -> Solved:
    """`best_roll.solve_roll` for a side (cards played), a backstop's refusal naming the side's input."""
    try:
        backstop.check(f"{role}.pool", f"the {role}'s best play")
        return solve_roll(plan, side.modifiers.arcane_to_hits, side.modifiers.arcane_to_blocks, values, card_shift(side))
    except ScenarioError as error:
        raise ScenarioError(error.field if "." in error.field else f"{role}.{error.field}", error.problem) from None


def _attacker_grid(battle: Battle) -> tuple[np.ndarray, int]:
    """Weights of the attacker's final (hits, blocks) as it plays, and their total."""
    atk = battle.attacker
    if atk.reroll_policy == "best":
        solved = attacker_solution(battle).solved
        return solved.final[0], solved.plan.total * solved.plan.scale
    fixed = side_totals(atk)
    return _dense(fixed, final_bounds(atk)), fixed.total


def attacker_totals(battle: Battle) -> Dist[tuple[int, int]]:
    """The attacker's final (hits, blocks) as it plays (best play searched if its policy is ``best``)."""
    grid, _ = _attacker_grid(battle)
    return _dist_of(grid)


@lru_cache(maxsize=32)
def joint_grid(battle: Battle) -> np.ndarray:
    """Weights of (attacker hits, blocks, defender hits, blocks), a 4-d grid, with each side's play."""
    attacker, atk_total = _attacker_grid(battle)
    defender, dfn_total = _defender_grids(battle)
    kind: Any = np.int64 if atk_total * dfn_total < INT64_SAFE else object
    return attacker.astype(kind)[:, :, None, None] * defender.astype(kind)  # type: ignore[no-any-return]


def _dist_of(grid: np.ndarray) -> Dist[Any]:
    """The distribution of a weight grid's indices (a 1-d grid gives plain integers)."""
    where = np.nonzero(grid)
    keys = list(zip(*(w.tolist() for w in where))) if grid.ndim > 1 else where[0].tolist()
    return Dist.of_counts(dict(zip(keys, (int(w) for w in grid[where]))))


def _damage_grid(grid: np.ndarray) -> np.ndarray:
    """Weights of (damage to the defender, damage to the attacker) from the 4-d grid of totals."""
    ha, ba, hd, bd = (np.arange(n).reshape([-1 if j == i else 1 for j in range(4)]) for i, n in enumerate(grid.shape))
    to_dfn, to_atk = np.maximum(0, ha - bd), np.maximum(0, hd - ba)
    out = np.zeros((grid.shape[0], grid.shape[2]), dtype=grid.dtype)
    np.add.at(out, (np.broadcast_to(to_dfn, grid.shape), np.broadcast_to(to_atk, grid.shape)), grid)
    return out


def best_joint(battle: Battle) -> Dist[Totals4]:
    """Joint distribution of (attacker hits, blocks, defender hits, blocks) with each side's play.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> atk = Side(((coin, 1),), Modifiers(rerolls=1), (), reroll_policy="best")
    >>> dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> best_joint(Battle(atk, dfn))
    Dist({(0, 0, 0, 0): 1, (1, 0, 0, 0): 3})
    """
    return _dist_of(joint_grid(battle))


def _damage_pairs(battle: Battle) -> Dist[tuple[int, int]]:
    """(damage to the defender, damage to the attacker) as the battle is played."""
    if "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy):
        return _dist_of(_damage_grid(joint_grid(battle)))
    return side_totals(battle.attacker).combine(side_totals(battle.defender),
                                                lambda a, d: (max(0, a[0] - d[1]), max(0, d[0] - a[1])))


def _damage(weights: np.ndarray, damage: np.ndarray, size: int) -> Dist[int]:
    """The distribution of `damage` (0 to size - 1) weighed by `weights` (same shape)."""
    out = np.zeros(size, dtype=weights.dtype)
    np.add.at(out, damage.ravel(), weights.ravel())
    return _dist_of(out)


@lru_cache(maxsize=16)
def best_result(battle: Battle) -> BattleResult:
    """`resolve_battle` for a battle where a side plays best: every result from the two sides' totals.

    The whole battle is weighed first (`costs.battle_costs`, refused past `MAX_SECONDS`). The
    defender's totals, and the damage each side takes, are read per attacker total the defender
    answers (or, against its fixed policy, from the two sides' marginals): no grid of all four
    totals is built.

    Raises:
        ScenarioError: the battle is estimated too costly (naming the side's ``pool`` or ``rerolls``).
    """
    check_costs(battle_costs(battle), "best play")
    atk, dfn = battle.attacker, battle.defender
    attacker, atk_total = _attacker_grid(battle)
    (ha, ba), (hd, bd) = attacker.shape, final_bounds(dfn)
    size = max(ha, hd)
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        final = response.solved.final
        dfn_total = response.solved.plan.total * response.solved.plan.scale
        per_context = np.zeros(final.shape[0], dtype=object)
        np.add.at(per_context, response.context.ravel(), attacker.astype(object).ravel())
        kind: Any = np.int64 if atk_total * dfn_total < INT64_SAFE else object
        per_context = per_context.astype(kind)
        backstop.check("defender.pool", "the battle's totals")
        defender = np.tensordot(per_context, final.astype(kind), axes=1)
        hits, blocks = response.hits_blocks()
        to_dfn = _damage(per_context[:, None] * final.sum(axis=1).astype(kind),
                         np.maximum(0, hits[:, None] - np.arange(bd)[None, :]), size)
        to_atk = _damage(per_context[:, None] * final.sum(axis=2).astype(kind),
                         np.maximum(0, np.arange(hd)[None, :] - blocks[:, None]), size)
    else:
        fixed = side_totals(dfn)
        defender, dfn_total = _dense(fixed, (hd, bd)), fixed.total
        kind = np.int64 if atk_total * dfn_total < INT64_SAFE else object
        a, d = attacker.astype(kind), defender.astype(kind)
        to_dfn = _damage(a.sum(axis=1)[:, None] * d.sum(axis=0)[None, :],
                         np.maximum(0, np.arange(ha)[:, None] - np.arange(bd)[None, :]), size)
        to_atk = _damage(d.sum(axis=1)[:, None] * a.sum(axis=0)[None, :],
                         np.maximum(0, np.arange(hd)[:, None] - np.arange(ba)[None, :]), size)
    atk_losses, dfn_losses = losses(atk, dfn, to_atk), losses(dfn, atk, to_dfn)
    return BattleResult(
        battle,
        SideResult(_dist_of(attacker), to_atk, *rewards(dfn_losses, dfn, atk), atk_losses),
        SideResult(_dist_of(defender), to_dfn, *rewards(atk_losses, atk, dfn), dfn_losses),
    )


def best_joint_points(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint (attacker's, defender's) Ordning Points when a side plays best (`battle.joint_points`)."""
    atk_stakes, dfn_stakes = _stakes_pair(battle)
    return _damage_pairs(battle).map(lambda d: (atk_stakes.earned[d[0]], dfn_stakes.earned[d[1]]))


def clear_caches() -> None:
    """Forget every cached result of best play (for benchmarks that time a cold call)."""
    for cached in (roll_plan, _response, attacker_solution, joint_grid, best_result):
        cached.cache_clear()
