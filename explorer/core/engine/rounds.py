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

__all__ = ["Rounds", "layout", "decide", "fresh", "solve", "estimate", "STEP", "clear_caches"]

STEP = 1.5
"""Microseconds per step (one key meeting one fresh outcome), measured on this machine at about 1.2;
`estimate` multiplies it by an upper bound on the steps, which measured 2 to 8 times the steps taken."""

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
    return Rounds(symbols, report, laid, tuple(rounds), tuple(p.vector(symbols) for p in policy.passes), guards,
                  need, conversions)


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


def decide(rounds: Rounds, cats: Cats, sums: tuple[int, ...], rerolls: int) -> Cats:
    """The dice a round takes per kind and pass, as `explorer.core.engine.dp` decides one round.

    Passes in order, kinds in the layout's order within each, while rerolls last; a guarded pass
    takes a die only while its guard symbol showing, less what earlier takes removed, stays at or
    above what the conversions can use after the die is gone.

    >>> from explorer.core.engine.types import Pass
    >>> r = layout((), ("hit", "arcane"), (1,), CountPolicy((Pass(), Pass((("arcane", 1),), "arcane"))),
    ...            (Conversion("arcane", (("hit", 2),), 1),), ("hit",))
    >>> decide(r, ((1, 2),), (0, 0), 3)  # the blank, then 1 of the 2 arcane (1 is kept to convert)
    ((1, 1),)
    """
    showing = list(sums)
    for per_kind in cats:
        for count, vector in zip(per_kind, rounds.passes):
            for j, amount in enumerate(vector):
                showing[j] += count * amount
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


def _fresh_of(rounds: Rounds, moved: tuple[int, ...], most: tuple[int, ...]) -> list[tuple[Cats, tuple[int, ...], int]]:
    """Every way the taken dice fall, per kind, padded to the round's common denominator."""
    outs: list[tuple[Cats, tuple[int, ...], int]] = [((), (0,) * len(rounds.symbols), 1)]
    for (faces, _), m, top in zip(rounds.kinds, moved, most):
        pad = len(faces) ** (top - m)
        outs = [(cats + fc, tuple(a + b for a, b in zip(sums, fs)), w * fw * pad)
                for cats, sums, w in outs for (fc, fs), fw in fresh(faces, rounds.passes, m).items()]
    return outs


def _round(rounds: Rounds, states: dict[Key, int], rerolls: int) -> dict[Key, int]:
    """One round: every key's decision, its kept dice and the taken dice rolled again."""
    most = tuple(min(n, rerolls) for _, n in rounds.kinds)
    out: dict[Key, int] = defaultdict(int)
    outcomes: dict[tuple[int, ...], list[tuple[Cats, tuple[int, ...], int]]] = {}
    for i, ((cats, sums), weight) in enumerate(states.items()):
        if not i & 255:
            check("rerolls", "the rounds of rerolls")  # the backstop (`explorer.core.backstop`)
        taken = decide(rounds, cats, sums, rerolls)
        moved = tuple(sum(t) for t in taken)
        kept = tuple(tuple(c - t for c, t in zip(ck, tk)) for ck, tk in zip(cats, taken))
        if moved not in outcomes:
            outcomes[moved] = _fresh_of(rounds, moved, most)
        for fcats, fsums, fw in outcomes[moved]:
            key = (tuple(tuple(a + b for a, b in zip(kc, fc)) for kc, fc in zip(kept, fcats)),
                   tuple(a + b for a, b in zip(sums, fsums)))
            out[key] += weight * fw
    return dict(out)


def solve(rounds: Rounds) -> Dist[tuple[int, ...]]:
    """The exact distribution of the reported symbols after every round and the conversions."""
    states: dict[Key, int] = {((), (0,) * len(rounds.symbols)): 1}
    for faces, n in rounds.kinds:  # the first roll, kind by kind, equal keys merged as they come
        check("pool", "the first roll")
        first: dict[Key, int] = defaultdict(int)
        rolled = fresh(faces, rounds.passes, n).items()
        for (cats, sums), weight in states.items():
            for (fc, fs), ways in rolled:
                first[(cats + fc, tuple(a + b for a, b in zip(sums, fs)))] += weight * ways
        states = dict(first)
    for rerolls in rounds.rounds:
        states = _round(rounds, states, rerolls)
    where = [rounds.symbols.index(s) for s in rounds.report]
    out: dict[tuple[int, ...], int] = defaultdict(int)
    for (cats, sums), weight in states.items():
        totals = list(sums)
        for per_kind in cats:
            for count, vector in zip(per_kind, rounds.passes):
                for j, amount in enumerate(vector):
                    totals[j] += count * amount
        final = convert(dict(zip(rounds.symbols, totals)), rounds.conversions)
        out[tuple(final[rounds.symbols[j]] for j in where)] += weight
    return Dist.of_counts(dict(out))


def _multisets(n: int, faces: int) -> int:
    return math.comb(n + faces - 1, faces - 1)


def estimate(rounds: Rounds) -> int:
    """Estimated microseconds of `solve`, before computing: an upper bound on its steps times `STEP`.

    Keys never outnumber the multisets of faces the pool can show (nor the pass-face counts times
    the totals' grid), and a round's fresh outcomes never the multisets of the dice it may take.

    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> estimate(layout(((((1,), (0,)), 1),), ("hit",), (1, 1), REROLL_BLANKS, (), ("hit",)))
    15
    """
    distinct = [len(set(faces)) for faces, _ in rounds.kinds]
    keys, steps = 1, 0
    for j, ((faces, n), f) in enumerate(zip(rounds.kinds, distinct)):  # the first roll, kind by kind
        steps += keys * _multisets(n, f)
        upto = rounds.kinds[:j + 1]
        multisets = math.prod(_multisets(m, g) for (_, m), g in zip(upto, distinct))
        cats = math.prod(_multisets(m, sum(1 for p in rounds.passes if p in fs) + 1) for fs, m in upto)
        grid = math.prod(sum(m * max(face[i] for face in fs) for fs, m in upto) + 1
                         for i in range(len(rounds.symbols)))
        keys = min(multisets, cats * grid)
    for rerolls in rounds.rounds:
        best = [1] + [0] * rerolls  # the most fresh outcomes of any split of `rerolls` dice over the kinds
        for (_, n), f in zip(rounds.kinds, distinct):
            best = [max(best[t - m] * _multisets(m, f) for m in range(min(n, t) + 1) if best[t - m])
                    if any(best[t - m] for m in range(min(n, t) + 1)) else 0 for t in range(rerolls + 1)]
        steps += keys * max(best)
    return int(steps * STEP)


def clear_caches() -> None:
    """Forget the cached fresh rolls."""
    fresh.cache_clear()
