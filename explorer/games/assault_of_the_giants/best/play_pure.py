"""Best play's pure-Python engine: the two sides' searches (`solve_pure`) joined into a battle with dicts.

One of the two engines of `engine.Engine` (`play_numpy` is the other): the same integers, read off
sparse weight dicts instead of grids, so it runs where numpy is missing (the browser build).
`play` chooses and documents the rulings. A side's value is a term of the damage dealt plus one of
the damage taken (`values.dealt_table`), so the values are weighed by the other side's blocks and
hits apart, and the totals of both sides are joined only for `joint`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from operator import mul
from typing import TypeVar

from explorer.core import backstop
from explorer.core.dist import Dist
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
from explorer.games.assault_of_the_giants.best.roll_pure import PurePlan, roll_plan
from explorer.games.assault_of_the_giants.best.solve_pure import PureSolved, solve_roll
from explorer.games.assault_of_the_giants.best.two_rounds import TwoRounds, first_scale, two_rounds
from explorer.games.assault_of_the_giants.best.values import Lex, dealt_table, taken_table
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult, SideResult, losses, rewards

__all__ = ["defender_response", "attacker_solution", "attacker_totals", "joint", "damage_pairs", "best_result",
           "clear_caches"]

Weights = dict[tuple[int, int], int]
"""Weights of final (hits, blocks)."""

K = TypeVar("K", int, tuple[int, int])

Solved = PureSolved | TwoRounds
"""A side's search: one round of rerolls, or two (`two_rounds`)."""


def defender_response(battle: Battle) -> Response[Solved]:
    """The defender's best play against every attacker total (`engine.Engine`)."""
    return _response(neutral(battle))


@lru_cache(maxsize=4)
def _response(battle: Battle) -> Response[Solved]:
    atk, dfn = battle.attacker, battle.defender
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    classes = min(ba, hd)
    check_defender(battle)  # before anything is built: ha * classes contexts
    _, dfn_stakes = stakes_pair(battle)
    by_dealt, by_taken = dealt_table(dfn_stakes), taken_table(dfn_stakes)  # damage 0..hd - 1, 0..ha - 1
    plan, scale = _plan(dfn)
    lex = Lex.spanning(tuple(min(d) + min(t) for d, t in zip(by_dealt, by_taken)),
                       tuple(max(d) + max(t) for d, t in zip(by_dealt, by_taken)), scale)
    dealt = [_packed(lex, by_dealt, [max(0, h - c) for h in range(hd)]) for c in range(classes)]  # [class][hits]
    taken = [_packed(lex, by_taken, [max(0, a - b) for b in range(bd)]) for a in range(ha)]  # [attacker hits][blocks]
    values = [[[dealt[c][h] + taken[a][b] for a in range(ha) for c in range(classes)] for b in range(bd)]
              for h in range(hd)]
    return Response(_solve(plan, played(dfn), values, "defender"), lex, classes, (ha, ba))


def _packed(lex: Lex, table: tuple[tuple[int, ...], ...], damage: Iterable[int]) -> list[int]:
    """Packed terms of a damage table at each damage, each entry less its least (`Lex.pack_tuple`)."""
    lows = [min(row) for row in table]
    return [sum((row[d] - low) * place for row, low, place in zip(table, lows, lex.place)) for d in damage]


@lru_cache(maxsize=4)
def attacker_solution(battle: Battle) -> Solution[Solved]:
    """The attacker's best play against the defender's play (`engine.Engine`)."""
    atk, dfn = battle.attacker, battle.defender
    check_search(atk, "attacker", 1)
    atk_stakes, _ = stakes_pair(battle)
    by_dealt, by_taken = dealt_table(atk_stakes), taken_table(atk_stakes)  # damage 0..ha - 1, 0..hd - 1
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        solved = response.solved
        denominator = solved.total_weight
        marginals = [_marginals(final, hd, bd) for final in solved.finals]  # per group of contexts
        per_context = [_weighed(by_dealt, by_taken, *marginals[g], c // response.classes, c % response.classes)
                       for c, g in enumerate(solved.group)]
        values = [[per_context[response.context_of(a, b)] for b in range(ba)] for a in range(ha)]
    else:
        fixed = side_totals(dfn)
        denominator = fixed.total
        by_hits, by_blocks = _marginals(dict(fixed.items()), hd, bd)
        dealt = [_weighed(by_dealt, by_taken, [0] * hd, by_blocks, a, 0) for a in range(ha)]
        taken = [_weighed(by_dealt, by_taken, by_hits, [0] * bd, 0, b) for b in range(ba)]
        values = [[tuple(x + y for x, y in zip(dealt[a], taken[b])) for b in range(ba)] for a in range(ha)]
    flat = [v for row in values for v in row]
    plan, scale = _plan(atk)
    lex = Lex.spanning(tuple(min(v[j] for v in flat) for j in range(3)), tuple(max(v[j] for v in flat) for j in range(3)),
                       scale)
    packed = [[[lex.pack_tuple(v)] for v in row] for row in values]
    return Solution(_solve(plan, played(atk), packed, "attacker"), lex, denominator)


def _plan(side: Side) -> tuple[PurePlan, int]:
    """The plan of a side's (last) round of rerolls, and the scale its values are packed for (both rounds')."""
    first, second = rounds_of(side)
    plan = roll_plan(kinds_of(side), second or first)
    return plan, plan.scale * (first_scale(kinds_of(side), first) if second else 1)


def _marginals(final: Weights, hits: int, blocks: int) -> tuple[list[int], list[int]]:
    """Weights of each final hits, and of each final blocks."""
    by_hits, by_blocks = [0] * hits, [0] * blocks
    for (h, b), w in final.items():
        by_hits[h] += w
        by_blocks[b] += w
    return by_hits, by_blocks


def _weighed(by_dealt: tuple[tuple[int, ...], ...], by_taken: tuple[tuple[int, ...], ...], their_hits: list[int],
             their_blocks: list[int], hits: int, blocks: int) -> tuple[int, ...]:
    """A side's value tuple with its (hits, blocks), weighed by the other side's hits and blocks."""
    dealt = [hits - b if hits > b else 0 for b in range(len(their_blocks))]  # damage dealt against each blocks
    taken = [h - blocks if h > blocks else 0 for h in range(len(their_hits))]
    return tuple(sum(map(mul, map(row.__getitem__, dealt), their_blocks))
                 + sum(map(mul, map(other.__getitem__, taken), their_hits)) for row, other in zip(by_dealt, by_taken))


def _solve(plan: PurePlan, side: Side, values: list[list[list[int]]], role: str) -> Solved:
    """`solve_pure.solve_roll` for a side (cards played), a refusal naming the side's input (`engine.searching`);
    with two rounds of rerolls, that is the second round, and the first is chosen over it (`two_rounds`)."""
    mods = side.modifiers
    with searching(role):
        solved = solve_roll(plan, mods.arcane_to_hits, mods.arcane_to_blocks, values, card_shift(side))
        first, second = rounds_of(side)
        if not second:
            return solved
        return two_rounds(kinds_of(side), first, solved, len(values[0][0]), mods.arcane_to_hits, mods.arcane_to_blocks)


def _attacker_weights(battle: Battle) -> tuple[Weights, int]:
    """Weights of the attacker's final (hits, blocks) as it plays, and their total."""
    atk = battle.attacker
    if atk.reroll_policy == "best":
        solved = attacker_solution(battle).solved
        return solved.final[0], solved.total_weight
    fixed = side_totals(atk)
    return dict(fixed.items()), fixed.total


def attacker_totals(battle: Battle) -> Dist[tuple[int, int]]:
    """The attacker's final (hits, blocks) as it plays (`engine.Engine`)."""
    return Dist.of_counts(dict(sorted(_attacker_weights(battle)[0].items())))


def _defender_weights(battle: Battle) -> tuple[Response[Solved] | None, Weights]:
    """The defender's answers when it plays best, else its fixed totals."""
    if battle.defender.reroll_policy == "best":
        return defender_response(battle), {}
    return None, dict(side_totals(battle.defender).items())


@lru_cache(maxsize=32)
def joint(battle: Battle) -> Dist[Totals4]:
    """Joint distribution of both sides' final totals (`engine.Engine`)."""
    attacker, _ = _attacker_weights(battle)
    response, fixed = _defender_weights(battle)
    out: dict[Totals4, int] = {}
    for (ha, ba), w in sorted(attacker.items()):
        answer = fixed if response is None else response.solved.final[response.context_of(ha, ba)]
        for (hd, bd), v in sorted(answer.items()):
            out[ha, ba, hd, bd] = w * v
    return Dist.of_counts(out)


def damage_pairs(battle: Battle) -> Dist[tuple[int, int]]:
    """(damage to the defender, damage to the attacker) (`engine.Engine`)."""
    out: dict[tuple[int, int], int] = {}
    for (ha, ba, hd, bd), w in joint(battle).items():
        key = (max(0, ha - bd), max(0, hd - ba))
        out[key] = out.get(key, 0) + w
    return Dist.of_counts(dict(sorted(out.items())))


def _add(out: dict[int, int], key: int, weight: int) -> None:
    out[key] = out.get(key, 0) + weight


def _dist(weights: dict[K, int]) -> Dist[K]:
    """A distribution of the positive weights, outcomes in order (as the numpy engine lists them)."""
    return Dist.of_counts({k: w for k, w in sorted(weights.items()) if w})


@lru_cache(maxsize=16)
def best_result(battle: Battle) -> BattleResult:
    """The battle's result, a side playing ``best`` (`engine.Engine`); as `play_numpy.best_result`."""
    atk, dfn = battle.attacker, battle.defender
    attacker, _ = _attacker_weights(battle)
    (ha, ba), (hd, bd) = final_bounds(atk), final_bounds(dfn)
    to_dfn: dict[int, int] = {}
    to_atk: dict[int, int] = {}
    response, defender = _defender_weights(battle)
    if response is not None:
        solved = response.solved
        per_context, per_group = [0] * len(solved.group), [0] * len(solved.finals)
        for (h, b), w in attacker.items():
            per_context[response.context_of(h, b)] += w
            per_group[solved.group[response.context_of(h, b)]] += w
        backstop.check("defender.pool", "the battle's totals")
        for final, weight in zip(solved.finals, per_group):
            for key, w in final.items() if weight else ():
                defender[key] = defender.get(key, 0) + weight * w
        marginals = [_marginals(final, hd, bd) for final in solved.finals]
        for c, weight in enumerate(per_context):
            if weight:
                hits, blocks = c // response.classes, c % response.classes
                by_hits, by_blocks = marginals[solved.group[c]]
                for b, w in enumerate(by_blocks):
                    _add(to_dfn, max(0, hits - b), weight * w)
                for h, w in enumerate(by_hits):
                    _add(to_atk, max(0, h - blocks), weight * w)
    else:
        a_hits, a_blocks = _marginals(attacker, ha, ba)
        d_hits, d_blocks = _marginals(defender, hd, bd)
        for h, w in enumerate(a_hits):
            for b, v in enumerate(d_blocks):
                _add(to_dfn, max(0, h - b), w * v)
        for h, w in enumerate(d_hits):
            for b, v in enumerate(a_blocks):
                _add(to_atk, max(0, h - b), w * v)
    damage_atk, damage_dfn = _dist(to_atk), _dist(to_dfn)
    atk_losses, dfn_losses = losses(atk, dfn, damage_atk), losses(dfn, atk, damage_dfn)
    return BattleResult(
        battle,
        SideResult(_dist(attacker), damage_atk, *rewards(dfn_losses, dfn, atk), atk_losses),
        SideResult(_dist(defender), damage_dfn, *rewards(atk_losses, atk, dfn), dfn_losses),
    )


def clear_caches() -> None:
    """Forget every cached result of the pure engine (`roll_pure.roll_plan` included)."""
    for cached in (roll_plan, _response, attacker_solution, joint, best_result):
        cached.cache_clear()
