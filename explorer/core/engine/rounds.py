"""Rerolls in several rounds, exact: each round's policy reads the dice as the round before left them.

`explorer.core.engine.dp` decides one round of rerolls (each die at most once, all at once). A
game whose later modifiers reroll again, after the first round's results are known (Assault of the
Giants' Spell and Resource Cards after the Command Cards, rulebook p.16), needs the dice as they lie
between the rounds. That state is kept here per kind by face category:

* a *key* is (per kind: how many dice show each pass's face, the totals of every symbol on the
  other dice); every pass of a `explorer.core.engine.types.CountPolicy` looks only at it (the pass
  faces' counts, and for a guard the symbol's total showing), so equal keys decide alike;
* a round takes each key's decision (`decide`), keeps the dice not taken and rolls the taken ones
  again (`fresh`: the counts of m fresh dice of a kind);
* after the last round the totals are converted (`explorer.core.engine.types.convert`) and reported.

Weights are exact integers over one common denominator: the fresh dice of a kind that rerolls m of
at most R dice in a round carry the factor faces^(R - m). Distinct keys never outnumber the
multisets of faces the pool can show, which bounds the work up front (`estimate`).

>>> from explorer.core.engine.types import REROLL_BLANKS
>>> coin = ((1,), (0,))
>>> solve(layout(((coin, 1),), ("hit",), (1, 1), REROLL_BLANKS, (), ("hit",))).probability((1,))
Fraction(7, 8)
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from explorer.core.backstop import check
from explorer.core.dist import Dist
from explorer.core.engine.types import Conversion, CountPolicy, Faces, convert
from explorer.core.packed import Packing

__all__ = ["Rounds", "layout", "decide", "fresh", "solve", "estimate", "STEP", "clear_caches"]

STEP = 2.0
"""Microseconds of Python per step (one key meeting one fresh outcome), measured at about 1.5."""

PRODUCT = 0.004
"""Microseconds per word pair of a product of packed weights (`estimate`; Karatsuba's exponent)."""

UNPACK = 0.01
"""Microseconds per byte of a packed weight read back at the close."""

DECIDE = 15.0
"""Microseconds per key and round of its decision and kept dice (measured at about 8)."""

CAUTION = 2.0
"""`estimate`'s margin over the upper bounds it multiplies (measured: the estimate was 2 to 50 times
the time taken, never under it, over the pools of tests/core/test_rounds.py and benchmarks/)."""

Cats = tuple[tuple[int, ...], ...]
"""Per kind: how many dice show each pass's face."""
Key = tuple[Cats, tuple[int, ...]]
"""The dice as they lie: (per kind the pass faces' counts, totals of the other dice's symbols)."""


@dataclass(frozen=True, slots=True)
class Rounds:
    """A request of several rounds, laid out: kinds in the policy's order, passes as vectors."""

    symbols: tuple[str, ...]
    report: tuple[str, ...]
    kinds: tuple[tuple[Faces, int], ...]
    """(faces, dice) per kind rolled, in the order the passes visit them."""
    rounds: tuple[int, ...]
    """Dice each round may reroll, in order."""
    passes: tuple[tuple[int, ...], ...]
    """Each pass's face as counts in `symbols` order."""
    guards: tuple[int | None, ...]
    """Per pass: index of its guard symbol, or None."""
    need: tuple[int, ...]
    """Per symbol: how many of it the conversions can use (sum of their limits)."""
    conversions: tuple[Conversion, ...]
    keyed: tuple[int, ...]
    """The guard symbols: their totals on the other dice are part of a key."""
    carried: tuple[int, ...]
    """The other symbols: their totals on the other dice ride along, packed (`packing`)."""
    packing: Packing
    """Layout of the carried totals' weights in one big integer (`explorer.core.packed`)."""


def layout(kinds: Sequence[tuple[Faces, int]], symbols: tuple[str, ...], rounds: tuple[int, ...],
           policy: CountPolicy, conversions: tuple[Conversion, ...], report: tuple[str, ...]) -> Rounds:
    """Lay a request out (kinds in the policy's order, empty kinds dropped).

    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> layout((((((1,), (0,)), 2),)), ("hit",), (1, 1), REROLL_BLANKS, (), ("hit",)).passes
    ((0,),)
    """
    order = policy.kind_order(tuple(f for f, _ in kinds), symbols, conversions)
    laid = tuple(kinds[k] for k in order if kinds[k][1])
    need = tuple(sum(c.limit for c in conversions if c.source == s) for s in symbols)
    guards = tuple(None if p.guard is None else symbols.index(p.guard) for p in policy.passes)
    keyed = tuple(sorted({g for g in guards if g is not None}))
    carried = tuple(j for j in range(len(symbols)) if j not in keyed)
    shape = tuple(sum(n * max(f[j] for f in faces) for faces, n in laid) + 1 for j in carried)
    total = math.prod(len(faces) ** (n + sum(min(n, r) for r in rounds)) for faces, n in laid)
    return Rounds(symbols, report, laid, tuple(rounds), tuple(p.vector(symbols) for p in policy.passes), guards,
                  need, conversions, keyed, carried, Packing(shape, total.bit_length() + 1))


def _category(face: tuple[int, ...], passes: tuple[tuple[int, ...], ...]) -> int:
    """The pass whose face this is, or -1 (passes take different faces, so at most one)."""
    return next((p for p, vector in enumerate(passes) if vector == face), -1)


@lru_cache(maxsize=1024)
def fresh(faces: Faces, passes: tuple[tuple[int, ...], ...], m: int) -> dict[Key, int]:
    """The ways m fresh dice of one kind fall: {((pass faces' counts,), other dice's totals): ways}.

    >>> coin = ((1,), (0,))
    >>> fresh(coin, ((0,),), 2)
    {(((0,),), (2,)): 1, (((1,),), (1,)): 2, (((2,),), (0,)): 1}
    """
    width = len(faces[0])
    out: dict[Key, int] = {(((0,) * len(passes),), (0,) * width): 1}
    for _ in range(m):
        nxt: dict[Key, int] = defaultdict(int)
        for ((cats,), sums), ways in out.items():
            for face in faces:
                p = _category(face, passes)
                if p < 0:
                    nxt[((cats,), tuple(a + b for a, b in zip(sums, face)))] += ways
                else:
                    nxt[((cats[:p] + (cats[p] + 1,) + cats[p + 1:],), sums)] += ways
        out = dict(nxt)
    return out


Packed = dict[Key, int]
"""Keys (their second part the keyed totals only) to the packed weights of the carried totals."""


def _packed(rounds: Rounds, faces: Faces, m: int, pad: int) -> Packed:
    """`fresh`, the carried totals packed under each key, every weight times `pad`."""
    grouped: dict[Key, dict[tuple[int, ...], int]] = defaultdict(dict)
    for (cats, sums), ways in fresh(faces, rounds.passes, m).items():
        key = (cats, tuple(sums[j] for j in rounds.keyed))
        grouped[key][tuple(sums[j] for j in rounds.carried)] = ways * pad
    return {key: rounds.packing.pack(weights) for key, weights in grouped.items()}


def _showing(rounds: Rounds, cats: Cats, keyed: tuple[int, ...]) -> list[int]:
    """Each symbol's total on the dice as they lie: the keyed totals, plus every category's symbols."""
    showing = [0] * len(rounds.symbols)
    for j, total in zip(rounds.keyed, keyed):
        showing[j] = total
    for per_kind in cats:
        for count, vector in zip(per_kind, rounds.passes):
            for j, amount in enumerate(vector):
                showing[j] += count * amount
    return showing


def decide(rounds: Rounds, cats: Cats, keyed: tuple[int, ...], rerolls: int) -> Cats:
    """The dice a round takes per kind and pass, as `explorer.core.engine.dp` decides one round.

    Passes in order, kinds in the layout's order within each, while rerolls last; a guarded pass
    takes a die only while its guard symbol showing, less what earlier takes removed, stays at or
    above what the conversions can use after the die is gone. `keyed`: the guard symbols' totals
    on the dice that show no pass's face.

    >>> from explorer.core.engine.types import Pass
    >>> r = layout((), ("hit", "arcane"), (1,), CountPolicy((Pass(), Pass((("arcane", 1),), "arcane"))),
    ...            (Conversion("arcane", (("hit", 2),), 1),), ("hit",))
    >>> decide(r, ((1, 2),), (0,), 3)  # the blank, then 1 of the 2 arcane (1 is kept to convert)
    ((1, 1),)
    """
    showing = _showing(rounds, cats, keyed)
    taken = [[0] * len(rounds.passes) for _ in cats]
    left = rerolls
    for p, (vector, guard) in enumerate(zip(rounds.passes, rounds.guards)):
        for k, per_kind in enumerate(cats):
            if not left:
                break
            take = min(per_kind[p], left)
            if guard is not None:
                take = min(take, max(0, showing[guard] - rounds.need[guard]) // vector[guard])
            if take:
                taken[k][p] = take
                left -= take
                for j, amount in enumerate(vector):
                    showing[j] -= take * amount
    return tuple(tuple(t) for t in taken)


def _join(rounds: Rounds, parts: Sequence[Packed]) -> Packed:
    """Every way the kinds' dice fall together: keys joined kind by kind, packed weights multiplied."""
    out: Packed = {((), (0,) * len(rounds.keyed)): 1}
    for part in parts:
        nxt: Packed = defaultdict(int)
        for (cats, keyed), weight in out.items():
            for (fc, fk), fw in part.items():
                nxt[(cats + fc, tuple(a + b for a, b in zip(keyed, fk)))] += weight * fw
        out = dict(nxt)
    return out


def _round(rounds: Rounds, states: Packed, rerolls: int) -> Packed:
    """One round: every key's decision, its kept dice and the taken dice rolled again."""
    most = tuple(min(n, rerolls) for _, n in rounds.kinds)
    out: Packed = defaultdict(int)
    outcomes: dict[tuple[int, ...], Packed] = {}
    for i, ((cats, keyed), weight) in enumerate(states.items()):
        if not i & 63:
            check("rerolls", "the rounds of rerolls")  # the backstop (`explorer.core.backstop`)
        taken = decide(rounds, cats, keyed, rerolls)
        moved = tuple(sum(t) for t in taken)
        kept = tuple(tuple(c - t for c, t in zip(ck, tk)) for ck, tk in zip(cats, taken))
        if moved not in outcomes:
            outcomes[moved] = _join(rounds, [_packed(rounds, faces, m, len(faces) ** (top - m))
                                             for (faces, _), m, top in zip(rounds.kinds, moved, most)])
        for (fcats, fkeyed), fw in outcomes[moved].items():
            key = (tuple(tuple(a + b for a, b in zip(kc, fc)) for kc, fc in zip(kept, fcats)),
                   tuple(a + b for a, b in zip(keyed, fkeyed)))
            out[key] += weight * fw
    return dict(out)


def solve(rounds: Rounds) -> Dist[tuple[int, ...]]:
    """The exact distribution of the reported symbols after every round and the conversions."""
    states = _join(rounds, [_packed(rounds, faces, n, 1) for faces, n in rounds.kinds])  # the first roll
    for rerolls in rounds.rounds:
        states = _round(rounds, states, rerolls)
    where = [rounds.symbols.index(s) for s in rounds.report]
    out: dict[tuple[int, ...], int] = defaultdict(int)
    for (cats, keyed), weight in states.items():
        base = _showing(rounds, cats, keyed)
        for carried, ways in rounds.packing.unpack(weight).items():
            totals = list(base)
            for j, total in zip(rounds.carried, carried):
                totals[j] += total
            final = convert(dict(zip(rounds.symbols, totals)), rounds.conversions)
            out[tuple(final[rounds.symbols[j]] for j in where)] += ways
    return Dist.of_counts(dict(out))


def _multisets(n: int, faces: int) -> int:
    return math.comb(n + faces - 1, faces - 1)


def _keys(rounds: Rounds, faces: Faces, n: int) -> int:
    """Most distinct keys n dice of one kind can show: multisets of its faces as keys tell them apart
    (each pass face, else the keyed symbols), and never more than the pass counts times the keyed grid."""
    classes = {(p, ()) if p >= 0 else (p, tuple(f[j] for j in rounds.keyed))
               for f in faces for p in (_category(f, rounds.passes),)}
    passes = sum(1 for c in classes if c[0] >= 0)
    grid = math.prod(n * max(f[j] for f in faces) + 1 for j in rounds.keyed)
    return min(_multisets(n, len(classes)), _multisets(n, passes + 1) * grid)


def _words(rounds: Rounds, dice: Sequence[tuple[Faces, int]]) -> int:
    """64-bit words of a packed weight of these dice's carried totals."""
    slots = math.prod(sum(n * max(f[j] for f in faces) for faces, n in dice) + 1 for j in rounds.carried)
    return max(1, slots * rounds.packing.bytes // 8)


def _product(a: int, b: int) -> float:
    """Microseconds of a product of big integers of a and b words (`PRODUCT` per word pair, Karatsuba)."""
    return float(max(a, b) * min(a, b) ** 0.585 * PRODUCT)


def estimate(rounds: Rounds) -> int:
    """Estimated microseconds of `solve`, before computing: upper bounds on its steps, each a Python
    step (`STEP`) and a product of packed weights (`PRODUCT`), times `CAUTION`.

    Keys never outnumber the multisets of faces the pool can show as keys tell them apart (`_keys`),
    and a round's fresh outcomes never those of the most dice it may take.

    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> estimate(layout(((((1,), (0,)), 1),), ("hit",), (1, 1), REROLL_BLANKS, (), ("hit",))) < 1000
    True
    """
    work, keys = 0.0, 1
    merged: list[tuple[Faces, int]] = []
    for faces, n in rounds.kinds:  # the first roll, kind by kind (`fresh` lists its multisets first)
        work += sum(_multisets(m, len(set(faces))) for m in range(n + 1)) * len(faces) * STEP
        here = _keys(rounds, faces, n)
        work += keys * here * (STEP + _product(_words(rounds, merged), _words(rounds, ((faces, n),))))
        merged.append((faces, n))
        keys *= here
    grid = math.prod(sum(n * max(f[j] for f in faces) for faces, n in rounds.kinds) + 1 for j in rounds.keyed)
    keys = min(keys, math.prod(_multisets(n, len(rounds.passes) + 1) for _, n in rounds.kinds) * grid)
    whole = _words(rounds, rounds.kinds)
    for rerolls in rounds.rounds:
        best = [1] + [0] * rerolls  # the most fresh keys of any split of `rerolls` dice over the kinds
        for faces, n in rounds.kinds:
            best = [max((best[t - m] * _keys(rounds, faces, m) for m in range(min(n, t) + 1)), default=0)
                    for t in range(rerolls + 1)]
        most = tuple((faces, min(n, rerolls)) for faces, n in rounds.kinds)
        work += keys * (DECIDE + max(best) * (STEP + _product(whole, _words(rounds, most))))
    work += keys * (STEP + whole * 8 * rounds.packing.bytes * UNPACK)  # the close: every slot read
    return int(work * CAUTION)


def clear_caches() -> None:
    """Forget the cached fresh rolls."""
    fresh.cache_clear()
