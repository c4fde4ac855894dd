"""Game-agnostic exact pools: several kinds of symbol dice, rerolls under a named policy, conversions.

`roll_pool` is the entry point. A policy is either

* a `CountPolicy` (`explorer.core.engine.roll`): it decides on how many dice show each face, so the fast
  count engine (`explorer.core.engine.roll.roll_counts`) resolves the pool, in time polynomial in the
  number of dice; or
* a Python function of the roll (`RerollPolicy`): it says it needs the faces, so the pool takes
  the plain engine, `roll_multisets`, which walks every multiset of faces the pool can show
  (exponential in the number of kinds; fine for small pools).

Games register their policies by name in `REROLL_POLICIES`. `roll_multisets` also reads a
`CountPolicy` die by die (`on_faces`): the tests check that both engines agree.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

from explorer.core.dist import Dist
from explorer.core.engine import NO_REROLLS, REROLL_BLANKS, Conversion, CountPolicy, Pass, convert, roll_counts
from tests.core.dice_oracle import Die, Face, pool_counts

__all__ = [
    "Conversion", "CountPolicy", "Pass", "PoolRoll", "RerollPolicy", "REROLL_POLICIES", "register_policy",
    "roll_pool", "roll_multisets", "on_faces", "convert",
]

KindState = tuple[tuple[Face, int], ...]
"""How many dice of one kind show each face (faces with a zero count left out)."""


@dataclass(frozen=True, slots=True)
class PoolRoll:
    """What a reroll policy sees: the dice, the roll, the budget, the conversions to come, the symbols."""

    dice: tuple[Die, ...]
    state: tuple[KindState, ...]
    rerolls: int
    conversions: tuple[Conversion, ...]
    symbols: tuple[str, ...] = ()


RerollPolicy = Callable[[PoolRoll], tuple[KindState, ...]]
"""Given a roll, the faces to roll again per kind (a sub-multiset of the roll)."""

REROLL_POLICIES: dict[str, Union[RerollPolicy, CountPolicy]] = {"none": NO_REROLLS, "blanks": REROLL_BLANKS}
"""Reroll policies by name; games add theirs with `register_policy`."""


def register_policy(name: str, policy: Union[RerollPolicy, CountPolicy]) -> None:
    """Make `policy` available to `roll_pool` under `name`."""
    REROLL_POLICIES[name] = policy


def _vectors(die: Die, symbols: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(face.count(s) for s in symbols) for face in die.faces)


def roll_pool(pool: Sequence[tuple[Die, int]], symbols: Sequence[str], *, rerolls: int = 0,
              policy: Union[str, RerollPolicy, CountPolicy] = "none",
              conversions: Sequence[Conversion] = ()) -> Dist[tuple[int, ...]]:
    """Exact distribution of the symbol counts a pool ends with.

    Args:
        pool: (die, how many) per kind.
        symbols: the symbols to count, in the order of the result's tuples.
        rerolls: how many dice the policy may roll again (each once, all at once).
        policy: a name in `REROLL_POLICIES`, a `CountPolicy` or a policy function.
        conversions: applied in order after the rerolls.

    Raises:
        ScenarioError: a count policy's pool is too big for the exact engine.

    >>> coin = Die("coin", (Face.of(hit=1), Face()))
    >>> roll_pool([(coin, 2)], ["hit"], rerolls=1, policy="blanks").probability((2,))
    Fraction(1, 2)
    """
    chosen = REROLL_POLICIES[policy] if isinstance(policy, str) else policy
    if isinstance(chosen, CountPolicy):
        kinds = [(_vectors(die, symbols), n) for die, n in pool]
        return roll_counts(kinds, symbols, rerolls=rerolls, policy=chosen, conversions=conversions)
    return roll_multisets(pool, symbols, rerolls=rerolls, policy=chosen, conversions=conversions)


def on_faces(policy: CountPolicy) -> RerollPolicy:
    """A count policy read on a roll's faces, die by die (the plain engine's way).

    >>> coin = Die("coin", (Face.of(hit=1), Face()))
    >>> roll = PoolRoll((coin,), (((Face(), 2),),), 1, (), ("hit",))
    >>> on_faces(REROLL_BLANKS)(roll)
    (((Face(symbols=()), 1),),)
    """
    def choose(roll: PoolRoll) -> tuple[KindState, ...]:
        symbols = roll.symbols
        order = policy.kind_order(tuple(_vectors(d, symbols) for d in roll.dice), symbols, roll.conversions)
        counts = [dict() for _ in roll.state]  # type: list[dict[tuple[int, ...], int]]
        showing: dict[str, int] = {}
        for k, state in enumerate(roll.state):
            for face, n in state:
                vector = tuple(face.count(s) for s in symbols)
                counts[k][vector] = counts[k].get(vector, 0) + n
                for s, c in zip(symbols, vector):
                    showing[s] = showing.get(s, 0) + c * n
        spare = {s: max(0, showing.get(s, 0) - sum(c.limit for c in roll.conversions if c.source == s)) for s in symbols}
        left = roll.rerolls
        taken: list[dict[tuple[int, ...], int]] = [dict() for _ in roll.state]
        for p in policy.passes:
            vector = p.vector(symbols)
            for k in order:
                take = min(counts[k].get(vector, 0) - taken[k].get(vector, 0), left)
                if p.guard is not None:
                    amount = vector[symbols.index(p.guard)]
                    take = min(take, spare[p.guard] // amount)
                    spare[p.guard] -= take * amount
                taken[k][vector] = taken[k].get(vector, 0) + take
                left -= take
        return tuple(_faces_taken(state, want, symbols) for state, want in zip(roll.state, taken))

    return choose


def _faces_taken(state: KindState, want: dict[tuple[int, ...], int], symbols: Sequence[str]) -> KindState:
    """Faces of `state` matching the wanted vectors (as many as wanted of each)."""
    left = dict(want)
    out = []
    for face, n in state:
        vector = tuple(face.count(s) for s in symbols)
        take = min(n, left.get(vector, 0))
        if take:
            out.append((face, take))
            left[vector] -= take
    return tuple(out)


def _vector(faces: Sequence[tuple[Face, int]], symbols: Sequence[str]) -> tuple[int, ...]:
    return tuple(sum(face.count(s) * n for face, n in faces) for s in symbols)


def _minus(state: KindState, taken: KindState) -> KindState:
    removed = dict(taken)
    return tuple((face, n - removed.get(face, 0)) for face, n in state if n - removed.get(face, 0))


def roll_multisets(pool: Sequence[tuple[Die, int]], symbols: Sequence[str], *, rerolls: int = 0,
                   policy: Union[str, RerollPolicy, CountPolicy] = NO_REROLLS,
                   conversions: Sequence[Conversion] = ()) -> Dist[tuple[int, ...]]:
    """The plain engine: every multiset of faces the pool can show, the policy asked on each.

    Its cost grows with the number of multisets (exponentially with the number of kinds); it is
    the way for policies that need the faces, and the reference the count engine is tested against.

    >>> coin = Die("coin", (Face.of(hit=1), Face()))
    >>> roll_multisets([(coin, 2)], ["hit"], rerolls=1, policy=REROLL_BLANKS).probability((2,))
    Fraction(1, 2)
    """
    chosen = REROLL_POLICIES[policy] if isinstance(policy, str) else policy
    choose = on_faces(chosen) if isinstance(chosen, CountPolicy) else chosen
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
        taken = choose(PoolRoll(dice, state, rerolls, tuple(conversions), tuple(symbols)))
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
