"""Brute force for `explorer.core.engine.roll`: every die rolled one by one, the policy read die by die.

Written from the `CountPolicy` and `Conversion` docstrings, sharing no code with the engine
beyond those frozen types (and `convert`, itself checked by its doctest), so that the two can be
compared on many small random pools.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

from explorer.core.dist import Dist
from explorer.core.engine import Conversion, CountPolicy, convert

Kind = tuple[tuple[tuple[int, ...], ...], int]


def _chosen(policy: CountPolicy, symbols: Sequence[str], kinds_of_dice: list[int], faces: list[tuple[int, ...]],
            rank: dict[int, int], rerolls: int, conversions: Sequence[Conversion]) -> list[int]:
    """Indices of the dice rerolled: pass by pass, kinds by rank, dice by position."""
    need = {s: sum(c.limit for c in conversions if c.source == s) for s in symbols}
    spare = {s: max(0, sum(f[i] for f in faces) - need[s]) for i, s in enumerate(symbols)}
    chosen: list[int] = []
    for p in policy.passes:
        want = p.vector(symbols)
        candidates = sorted((i for i, f in enumerate(faces) if f == want), key=lambda i: (rank[kinds_of_dice[i]], i))
        for i in candidates:
            if len(chosen) == rerolls:
                break
            if p.guard is not None:
                amount = want[symbols.index(p.guard)]
                if spare[p.guard] < amount:
                    break
                spare[p.guard] -= amount
            chosen.append(i)
    return chosen


def brute_counts(pool: Sequence[Kind], symbols: Sequence[str], rerolls: int, policy: CountPolicy,
                 conversions: Sequence[Conversion], report: Sequence[str]) -> Dist[tuple[int, ...]]:
    """The distribution `roll_counts` must give, by rolling every die in every way."""
    kinds_of_dice = [k for k, (_, n) in enumerate(pool) for _ in range(n)]
    dice = [pool[k][0] for k in kinds_of_dice]
    order = policy.kind_order(tuple(f for f, _ in pool), tuple(symbols), tuple(conversions))
    rank = {k: i for i, k in enumerate(order)}
    most = {k: min(n, rerolls) if policy.passes else 0 for k, (_, n) in enumerate(pool)}
    out: Counter = Counter()
    for roll in itertools.product(*(range(len(d)) for d in dice)):
        faces = [d[j] for d, j in zip(dice, roll)]
        chosen = _chosen(policy, symbols, kinds_of_dice, faces, rank, rerolls, conversions)
        scale = 1
        for k, (kind_faces, _) in enumerate(pool):
            scale *= len(kind_faces) ** (most[k] - sum(1 for i in chosen if kinds_of_dice[i] == k))
        for fresh in itertools.product(*(range(len(dice[i])) for i in chosen)):
            final = list(faces)
            for i, j in zip(chosen, fresh):
                final[i] = dice[i][j]
            totals = convert({s: sum(f[i] for f in final) for i, s in enumerate(symbols)}, conversions)
            out[tuple(totals[s] for s in report)] += scale
    return Dist(dict(out))
