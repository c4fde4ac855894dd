"""Best play's numpy engine: the two sides' searches (`roll`) joined into a battle on numpy arrays.

One of the two engines of `engine.Engine` (`play_pure` is the other, the same integers in plain
Python); `play` chooses and documents the rulings. Weights are 64-bit integers where every sum
fits them (`values.INT64_SAFE`), else Python integers in object arrays: exact either way.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from explorer.core import backstop
from explorer.core.dist import Dist
from explorer.core.optional import optional
from explorer.games.assault_of_the_giants.best.costs import (
    check_defender,
    check_search,
    final_bounds,
    kinds_of,
    rounds_of,
)
from explorer.games.assault_of_the_giants.best.engine import (
    Response,
    Solution,
    Totals4,
    neutral,
    searching,
    stakes_pair,
)
from explorer.games.assault_of_the_giants.best.roll import RollPlan, roll_plan, solve_roll
from explorer.games.assault_of_the_giants.best.roll import Solved as OneRound
from explorer.games.assault_of_the_giants.best.two_rounds import TwoRounds, first_scale, two_rounds
from explorer.games.assault_of_the_giants.best.values import INT64_SAFE, Lex, dealt_terms, taken_terms
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult, SideResult, losses, rewards

if TYPE_CHECKING:
    import numpy as np
else:
    np = optional("numpy", "best play's numpy path")  # imported at first use (`explorer.core.optional`)

Solved = OneRound | TwoRounds
"""A side's search: one round of rerolls, or two (`two_rounds`, its finals as a grid here)."""

__all__ = ["defender_response", "attacker_solution", "attacker_totals", "joint", "damage_pairs", "best_result",
           "clear_caches"]


def defender_response(battle: Battle) -> Response[Solved]:
    """The defender's best play against every attacker total (`engine.Engine`)."""
    return _response(neutral(battle))


def _contexts(response: Response[Solved]) -> np.ndarray:
    """Index of the context answering each attacker (hits, blocks), shape = the attacker's final grid."""
    (ha, ba), classes = response.bounds, response.classes
    return np.arange(ha)[:, None] * classes + np.minimum(np.arange(ba), classes - 1)[None, :]


def _hits_blocks(response: Response[Solved]) -> tuple[np.ndarray, np.ndarray]:
    """The attacker's (hits, blocks) each context stands for (blocks: the least of its class)."""
    contexts = response.solved.final.shape[0]
    return np.arange(contexts) // response.classes, np.arange(contexts) % response.classes


@lru_cache(maxsize=4)
def _response(battle: Battle) -> Response[Solved]:
    atk, dfn = battle.attacker, battle.defender
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    classes = min(ba, hd)
    check_defender(battle)  # before anything is built: ha * classes contexts
    _, dfn_stakes = stakes_pair(battle)
    dealt = np.maximum(0, np.arange(hd)[None, :] - np.arange(classes)[:, None])  # (classes, hd)
    taken = np.maximum(0, np.arange(ha)[:, None] - np.arange(bd)[None, :])  # (ha, bd)
    per_context = (dealt_terms(dfn_stakes, dealt)[:, None, :, :, None]
                   + taken_terms(dfn_stakes, taken)[:, :, None, None, :]).reshape(3, ha * classes, hd, bd)
    plan, scale = _plan(dfn)
    lex = Lex.fit(per_context, scale)
    solved = _solve(plan, played(dfn), lex.pack(per_context), "defender")
    return Response(solved, lex, classes, (ha, ba))


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
        return response.solved.final[_contexts(response)], response.solved.total_weight
    fixed = side_totals(dfn)
    grid = _dense(fixed, final_bounds(dfn))
    return np.broadcast_to(grid, bounds + grid.shape), fixed.total


def _weights(values: np.ndarray, bound: int) -> np.ndarray:
    """`values` as 64-bit integers when sums up to `bound` fit them, else as Python integers."""
    return values.astype(np.int64 if bound < INT64_SAFE else object)


@lru_cache(maxsize=4)
def attacker_solution(battle: Battle) -> Solution[Solved]:
    """The attacker's best play against the defender's play (`engine.Engine`).

    Each value is a term of the damage dealt plus one of the damage taken (`values.dealt_table`),
    so it is weighed by the defender's blocks and hits apart: no grid of all four totals is built.
    """
    atk, dfn = battle.attacker, battle.defender
    check_search(atk, "attacker", 1)
    atk_stakes, _ = stakes_pair(battle)
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    dealt = dealt_terms(atk_stakes, np.maximum(0, np.arange(ha)[:, None] - np.arange(bd)[None, :]))  # (3, ha, bd)
    taken = taken_terms(atk_stakes, np.maximum(0, np.arange(hd)[:, None] - np.arange(ba)[None, :]))  # (3, hd, ba)
    largest = max(1, int(np.abs(dealt).max())) + max(1, int(np.abs(taken).max()))
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        final, denominator = response.solved.final, response.solved.total_weight
        by_blocks, by_hits = _weights(final.sum(axis=1), denominator * largest), _weights(final.sum(axis=2),
                                                                                          denominator * largest)
        hits, blocks = _hits_blocks(response)
        per_context = ((dealt[:, hits, :] * by_blocks[None]).sum(axis=2)
                       + (taken[:, :, blocks].transpose(0, 2, 1) * by_hits[None]).sum(axis=2))  # (3, contexts)
        values = per_context[:, _contexts(response)]
    else:
        fixed = side_totals(dfn)
        grid, denominator = _dense(fixed, (hd, bd)), fixed.total
        by_blocks, by_hits = _weights(grid.sum(axis=0), denominator * largest), _weights(grid.sum(axis=1),
                                                                                         denominator * largest)
        values = ((dealt * by_blocks[None, None, :]).sum(axis=2)[:, :, None]
                  + (taken * by_hits[None, :, None]).sum(axis=1)[:, None, :])  # (3, ha, ba)
    plan, scale = _plan(atk)
    lex = Lex.fit(values[:, None], scale)
    solved = _solve(plan, played(atk), lex.pack(values[:, None]), "attacker")
    return Solution(solved, lex, denominator)


def _plan(side: Side) -> tuple[RollPlan, int]:
    """The plan of a side's (last) round of rerolls, and the scale its values are packed for (both rounds')."""
    first, second = rounds_of(side)
    plan = roll_plan(kinds_of(side), second or first)
    return plan, plan.scale * (first_scale(kinds_of(side), first) if second else 1)


def _solve(plan: RollPlan, side: Side, values: np.ndarray, role: str) -> Solved:
    """`roll.solve_roll` for a side (cards played), a refusal naming the side's input (`engine.searching`);
    with two rounds of rerolls, that is the second round, and the first is chosen over it (`two_rounds`)."""
    mods = side.modifiers
    with searching(role):
        solved = solve_roll(plan, mods.arcane_to_hits, mods.arcane_to_blocks, values, card_shift(side))
        first, second = rounds_of(side)
        if not second:
            return solved
        two = two_rounds(kinds_of(side), first, solved, values.shape[0], mods.arcane_to_hits, mods.arcane_to_blocks)
    grid = np.zeros(solved.final.shape, dtype=object)
    for c, final in enumerate(two.finals):
        for (h, b), w in final.items():
            grid[c, h, b] = w
    return replace(two, final=grid.astype(np.int64) if two.total_weight < INT64_SAFE else grid)


def _attacker_grid(battle: Battle) -> tuple[np.ndarray, int]:
    """Weights of the attacker's final (hits, blocks) as it plays, and their total."""
    atk = battle.attacker
    if atk.reroll_policy == "best":
        solved = attacker_solution(battle).solved
        return solved.final[0], solved.total_weight
    fixed = side_totals(atk)
    return _dense(fixed, final_bounds(atk)), fixed.total


def attacker_totals(battle: Battle) -> Dist[tuple[int, int]]:
    """The attacker's final (hits, blocks) as it plays (`engine.Engine`)."""
    grid, _ = _attacker_grid(battle)
    return _dist_of(grid)


@lru_cache(maxsize=32)
def _joint_grid(battle: Battle) -> np.ndarray:
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


def joint(battle: Battle) -> Dist[Totals4]:
    """Joint distribution of both sides' final totals (`engine.Engine`)."""
    return _dist_of(_joint_grid(battle))


def damage_pairs(battle: Battle) -> Dist[tuple[int, int]]:
    """(damage to the defender, damage to the attacker) from the 4-d grid of totals (`engine.Engine`)."""
    grid = _joint_grid(battle)
    ha, ba, hd, bd = (np.arange(n).reshape([-1 if j == i else 1 for j in range(4)]) for i, n in enumerate(grid.shape))
    to_dfn, to_atk = np.maximum(0, ha - bd), np.maximum(0, hd - ba)
    out = np.zeros((grid.shape[0], grid.shape[2]), dtype=grid.dtype)
    np.add.at(out, (np.broadcast_to(to_dfn, grid.shape), np.broadcast_to(to_atk, grid.shape)), grid)
    return _dist_of(out)


def _damage(weights: np.ndarray, damage: np.ndarray, size: int) -> Dist[int]:
    """The distribution of `damage` (0 to size - 1) weighed by `weights` (same shape)."""
    out = np.zeros(size, dtype=weights.dtype)
    np.add.at(out, damage.ravel(), weights.ravel())
    return _dist_of(out)


@lru_cache(maxsize=16)
def best_result(battle: Battle) -> BattleResult:
    """The battle's result, a side playing ``best`` (`engine.Engine`).

    The defender's totals, and the damage each side takes, are read per attacker total the defender
    answers (or, against its fixed policy, from the two sides' marginals): no grid of all four
    totals is built.
    """
    atk, dfn = battle.attacker, battle.defender
    attacker, atk_total = _attacker_grid(battle)
    (ha, ba), (hd, bd) = attacker.shape, final_bounds(dfn)
    size = max(ha, hd)
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        final = response.solved.final
        dfn_total = response.solved.total_weight
        per_context = np.zeros(final.shape[0], dtype=object)
        np.add.at(per_context, _contexts(response).ravel(), attacker.astype(object).ravel())
        kind: Any = np.int64 if atk_total * dfn_total < INT64_SAFE else object
        per_context = per_context.astype(kind)
        backstop.check("defender.pool", "the battle's totals")
        defender = np.tensordot(per_context, final.astype(kind), axes=1)
        hits, blocks = _hits_blocks(response)
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


def clear_caches() -> None:
    """Forget every cached result of the numpy engine (`roll.roll_plan` included)."""
    for cached in (roll_plan, _response, attacker_solution, _joint_grid, best_result):
        cached.cache_clear()
