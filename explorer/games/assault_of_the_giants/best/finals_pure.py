"""The final totals of the pure search (`solve_pure`), in every context: `roll._final` without numpy.

In each context, each whole roll weighs its ordered outcomes on the candidate it chooses; the
candidate's fresh dice spread that weight over the (hits, blocks, arcane) after the reroll, and the
best split there gives the final (hits, blocks). Contexts mostly choose alike, so the work is
shared: the *common* choice of each roll (the one most contexts make) and the common split of
each cell are followed once, and each context adds only where it differs (`finals`). A candidate's
spread over the cells after the reroll is worked out once per search (`_spread`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from operator import ne
from typing import TypeVar

from explorer.games.assault_of_the_giants.best.roll_pure import PurePlan

__all__ = ["finals"]

Weights = dict[tuple[int, int], int]
"""Weights of final (hits, blocks)."""

K = TypeVar("K", int, tuple[int, int])


def _common(vector: Sequence[int]) -> int:
    """The value most entries hold: the first entry's when it holds a majority, else the least of the most held."""
    first = vector[0]
    if vector.count(first) * 2 > len(vector):
        return first
    return max(sorted(set(vector)), key=vector.count)


def _after(plan: PurePlan, chosen: dict[int, int]) -> dict[int, int]:
    """Weights of the cells after the reroll, from weights on candidates (`roll._final`'s pushes)."""
    cells = plan.cells
    gathered: list[dict[int, int]] = [{} for _ in plan.moves]
    for g, weight in chosen.items():
        move, cell = divmod(g, cells)
        here = gathered[move]
        here[cell] = here.get(cell, 0) + weight * (plan.scale // plan.powers[move])
    for m in range(len(plan.moves) - 1, 0, -1):  # each move's weights, rolled out, onto its parent's
        parent, sources = gathered[plan.parents[m - 1][0]], plan.sources[m]
        for cell, weight in gathered[m].items():
            for at, copies in sources[cell]:
                parent[at] = parent.get(at, 0) + weight * copies
    return gathered[0]


def _spread(plan: PurePlan, memo: dict[int, list[tuple[K, int]]], g: int, to: Callable[[int], K]) -> list[tuple[K, int]]:
    """Weights of what `to` makes of the cells after the reroll (the cells, or the final totals), from one
    ordered outcome on candidate `g` (memoised)."""
    out = memo.get(g)
    if out is None:
        spread: dict[K, int] = {}
        for cell, w in _after(plan, {g: 1}).items():
            key = to(cell)
            spread[key] = spread.get(key, 0) + w
        out = memo[g] = list(spread.items())
    return out


def finals(plan: PurePlan, splits: tuple[tuple[int, int], ...], split: dict[int, list[int]],
           per_roll: Sequence[Sequence[int]], contexts: int, shift: tuple[int, int]) -> tuple[Weights, ...]:
    """Weights of the final (hits, blocks) in each context.

    Args:
        plan: the plan searched.
        splits: the arcane splits (`search.conversions`); split: each cell's best split, per context.
        per_roll: each whole roll's chosen candidate, per context.
        contexts: how many contexts.
        shift: flat (hits, blocks) added to every final total (the side's cards).
    """
    B, A = plan.dims[1:]
    dh, db = shift

    def totals(cell: int, index: int) -> tuple[int, int]:
        x, y = splits[index]
        rest = cell // A
        return rest // B + 2 * x + dh, rest % B + y + db

    common, moved = _choices(plan, per_roll, contexts)
    after = _after(plan, common)
    usual, unusual = _splits(split, contexts)
    base: Weights = {}
    for cell, weight in after.items():
        key = totals(cell, usual[cell])
        base[key] = base.get(key, 0) + weight
    if not any(unusual):  # every context splits alike: candidates spread straight onto final totals
        onto: dict[int, list[tuple[tuple[int, int], int]]] = {}
        return tuple(_moved(base, moved[c], lambda g: _spread(plan, onto, g, lambda cell: totals(cell, usual[cell])))
                     for c in range(contexts))
    cells: dict[int, list[tuple[int, int]]] = {}
    out = []
    for c in range(contexts):
        delta = _moved({}, moved[c], lambda g: _spread(plan, cells, g, lambda cell: cell))
        final = dict(base)
        for cell, weight in delta.items():
            key = totals(cell, usual[cell])
            final[key] = final.get(key, 0) + weight
        for cell, index in unusual[c]:
            weight = after.get(cell, 0) + delta.get(cell, 0)
            if weight:
                here, there = totals(cell, index), totals(cell, usual[cell])
                final[here] = final.get(here, 0) + weight
                final[there] -= weight
        out.append({k: w for k, w in sorted(final.items()) if w})
    return tuple(out)


def _choices(plan: PurePlan, per_roll: Sequence[Sequence[int]], contexts: int
             ) -> tuple[dict[int, int], list[dict[int, int]]]:
    """The weight on each candidate when every roll makes its common choice, and per context the
    weight it moves from that onto each candidate (+) or off it (-) where it chooses otherwise."""
    common: dict[int, int] = {}
    usual = []
    for column, weight in zip(per_roll, plan.weights):
        g = _common(column) if contexts > 1 else column[0]
        common[g] = common.get(g, 0) + weight
        usual.append(g)
    moved: list[dict[int, int]] = [{} for _ in range(contexts)]
    if contexts > 1:
        weights, rolls = plan.weights, range(len(usual))
        for c, choices in enumerate(zip(*per_roll)):
            gains = moved[c]
            for r in compress(rolls, map(ne, choices, usual)):  # only the rolls where the context differs
                other, g, weight = choices[r], usual[r], weights[r]
                gains[other] = gains.get(other, 0) + weight
                gains[g] = gains.get(g, 0) - weight
    return common, moved


def _splits(split: dict[int, list[int]], contexts: int) -> tuple[dict[int, int], list[list[tuple[int, int]]]]:
    """Each cell's common split, and per context the (cell, split) where it splits otherwise."""
    usual = {cell: _common(vector) if contexts > 1 else vector[0] for cell, vector in split.items()}
    unusual: list[list[tuple[int, int]]] = [[] for _ in range(contexts)]
    for cell, vector in split.items():
        if contexts > 1 and vector.count(usual[cell]) != contexts:
            for c in compress(range(contexts), map(usual[cell].__ne__, vector)):
                unusual[c].append((cell, vector[c]))
    return usual, unusual


def _moved(base: dict[K, int], moved: dict[int, int], spread: Callable[[int], list[tuple[K, int]]]) -> dict[K, int]:
    """`base` plus the weight each candidate gains (or loses) in a context, spread; zeros left out, in order."""
    out = dict(base)
    for g, weight in moved.items():
        if weight:
            for key, w in spread(g):
                out[key] = out.get(key, 0) + weight * w
    return {k: w for k, w in sorted(out.items()) if w}
