"""Game-agnostic exact pools: several kinds of symbol dice, rerolls under a named policy, conversions.

`roll_pool` is the general, plain engine: it walks every multiset of faces the pool can show,
asks a reroll policy which dice to roll again, adds the fresh rolls, then applies conversions
in order. Games register their own policies by name in `REROLL_POLICIES`; a game may also
bring a faster special-purpose path (Assault of the Giants does), checked against this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Union

from explorer.dice import Die, Face, pool_counts
from explorer.dist import Dist

__all__ = ["Conversion", "PoolRoll", "RerollPolicy", "REROLL_POLICIES", "register_policy", "roll_pool", "convert"]

KindState = tuple[tuple[Face, int], ...]
"""How many dice of one kind show each face (faces with a zero count left out)."""


@dataclass(frozen=True, slots=True)
class Conversion:
    """Turn up to `limit` symbols `source` into what `gives` lists (each once per symbol).

    >>> Conversion("arcane", (("hit", 2),), limit=1)
    Conversion(source='arcane', gives=(('hit', 2),), limit=1)
    """

    source: str
    gives: tuple[tuple[str, int], ...]
    limit: int


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """What a reroll policy sees: the dice, the roll, the budget and the conversions to come."""

    dice: tuple[Die, ...]
    state: tuple[KindState, ...]
    rerolls: int
    conversions: tuple[Conversion, ...]


RerollPolicy = Callable[[PoolRoll], tuple[KindState, ...]]
"""Given a roll, the faces to roll again per kind (a sub-multiset of the roll)."""


def _no_reroll(roll: PoolRoll) -> tuple[KindState, ...]:
    return tuple(() for _ in roll.dice)


def _blanks(roll: PoolRoll) -> tuple[KindState, ...]:
    """Reroll blank faces, kinds in the order given, up to the budget."""
    left = roll.rerolls
    chosen = []
    for state in roll.state:
        blanks = sum(n for face, n in state if face.is_blank)
        take = min(blanks, left)
        left -= take
        chosen.append(((Face(), take),) if take else ())
    return tuple(chosen)


REROLL_POLICIES: dict[str, RerollPolicy] = {"none": _no_reroll, "blanks": _blanks}
"""Reroll policies by name; games add theirs with `register_policy`."""


def register_policy(name: str, policy: RerollPolicy) -> None:
    """Make `policy` available to `roll_pool` under `name`."""
    REROLL_POLICIES[name] = policy


def convert(counts: Mapping[str, int], conversions: Sequence[Conversion]) -> dict[str, int]:
    """Apply conversions in order, each on what the earlier ones left.

    >>> convert({"arcane": 3, "hit": 1}, [Conversion("arcane", (("hit", 2),), 1),
    ...                                   Conversion("arcane", (("block", 1),), 5)])
    {'arcane': 0, 'hit': 3, 'block': 2}
    """
    out = dict(counts)
    for c in conversions:
        used = min(out.get(c.source, 0), c.limit)
        out[c.source] = out.get(c.source, 0) - used
        for symbol, n in c.gives:
            out[symbol] = out.get(symbol, 0) + n * used
    return out


def _vector(faces: Sequence[tuple[Face, int]], symbols: Sequence[str]) -> tuple[int, ...]:
    return tuple(sum(face.count(s) * n for face, n in faces) for s in symbols)


def _minus(state: KindState, taken: KindState) -> KindState:
    removed = dict(taken)
    return tuple((face, n - removed.get(face, 0)) for face, n in state if n - removed.get(face, 0))


def roll_pool(pool: Sequence[tuple[Die, int]], symbols: Sequence[str], *, rerolls: int = 0,
              policy: Union[str, RerollPolicy] = "none", conversions: Sequence[Conversion] = ()) -> Dist[tuple[int, ...]]:
    """Exact distribution of the symbol counts a pool ends with.

    Args:
        pool: (die, how many) per kind.
        symbols: the symbols to count, in the order of the result's tuples.
        rerolls: how many dice the policy may roll again (each once, all at once).
        policy: a name in `REROLL_POLICIES` or a policy function.
        conversions: applied in order after the rerolls.

    >>> coin = Die("coin", (Face.of(hit=1), Face()))
    >>> roll_pool([(coin, 2)], ["hit"], rerolls=1, policy="blanks").probability((2,))
    Fraction(1, 2)
    """
    choose = REROLL_POLICIES[policy] if isinstance(policy, str) else policy
    dice = tuple(die for die, _ in pool)
    joint: Dist[tuple[KindState, ...]] = Dist.single(())
    for die, n in pool:
        joint = joint.combine(pool_counts(die.dist(), n), lambda a, b: a + (b,))
    fresh_cache: dict[tuple[int, int], Dist[tuple[int, ...]]] = {}

    def fresh(kind: int, n: int) -> Dist[tuple[int, ...]]:
        if (kind, n) not in fresh_cache:
            fresh_cache[kind, n] = pool_counts(dice[kind].dist(), n).map(lambda s: _vector(s, symbols))
        return fresh_cache[kind, n]

    def outcome(state: tuple[KindState, ...]) -> Dist[tuple[int, ...]]:
        taken = choose(PoolRoll(dice, state, rerolls, tuple(conversions)))
        kept = [_vector(_minus(s, t), symbols) for s, t in zip(state, taken)]
        total = Dist.single(tuple(map(sum, zip(*kept))) if kept else tuple(0 for _ in symbols))
        for kind, t in enumerate(taken):
            count = sum(n for _, n in t)
            if count:
                total = total.combine(fresh(kind, count), lambda a, b: tuple(x + y for x, y in zip(a, b)))
        return total

    def finish(vector: tuple[int, ...]) -> tuple[int, ...]:
        converted = convert(dict(zip(symbols, vector)), conversions)
        return tuple(converted[s] for s in symbols)

    return joint.bind(outcome).map(finish)
