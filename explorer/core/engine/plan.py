"""How `explorer.core.engine.roll.roll_counts` lays a request out before computing it (no probabilities yet).

The plan simplifies what cannot change the answer, then decides what every symbol is for:

* a guarded pass whose guard the conversions always use up entirely never rerolls: dropped;
  so is a pass whose face no die shows, and every pass when there are no rerolls;
* a conversion that always takes every symbol of its source (its limit covers the most the
  pool can show) becomes part of the faces, when nothing else needs that symbol;
* *key* symbols (on a pass's face, or guarding one) are counted on the first roll apart from
  the rest, capped where more cannot change a decision or a conversion;
* *capped sources* (taken by a conversion, reported by nobody) are counted in the state too,
  capped at what the conversions can use;
* the other reported symbols, and sources that are reported, ride in the packed payload.

It also weighs the ways to close the computation (`_closings`: which kind's plain faces are
multiplied in last by Horner's rule) by their estimated cost (`explorer.core.engine.cost.estimate`), keeps the cheapest,
and refuses a request whose cost is too high.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from explorer.core.engine.cost import DRY_RUN_STEPS, culprit, estimate_parts, work_of
from explorer.core.engine.types import MAX_WORK, Conversion, CountPolicy, Faces, Kind, Plan
from explorer.core.errors import ScenarioError
from explorer.core.packed import Packing

__all__ = ["Kind", "Plan", "plan", "clear_caches", "PENDING_DICE"]

SMALL_POOL = 16
"""Pools of at most this many dice, half as many rerolls and three kinds skip the cost estimate:
always cheap."""

GOOD_ENOUGH = 200_000
"""An estimated cost (microseconds) low enough to take a layout without weighing the others."""

PENDING_DICE = 3
"""Most dice decided together with the Horner kind, besides its own (their decisions wait for it)."""


def _most(kinds: Sequence[tuple[Faces, int]], symbols: int) -> list[int]:
    """Per symbol: the most of it the pool can show (each die at its best face)."""
    out = [0] * symbols
    for faces, n in kinds:
        for s, best in enumerate(map(max, zip(*faces))):
            out[s] += n * best
    return out


def _fold_conversions(kinds: list[tuple[Faces, int]], symbols: tuple[str, ...], conversions: list[Conversion],
                      keep: set[int], shown: set[int]) -> list[Conversion]:
    """Turn conversions that always take every symbol of their source into face changes (in place).

    Only when nothing can tell the difference: the source is not reported, not a key symbol and
    not given by a conversion; the conversion gives no key symbol; no earlier conversion takes
    what it gives (folding moves it before all of them).
    """
    given = {s for c in conversions for s, _ in c.gives}
    most = _most(kinds, len(symbols))
    for source in dict.fromkeys(c.source for c in conversions):
        s = symbols.index(source)
        at = next(i for i, c in enumerate(conversions) if c.source == source)
        first = conversions[at]
        earlier = {c.source for c in conversions[:at]}
        gives = {name for name, _ in first.gives}
        if (source in given or s in keep or first.limit < most[s] or gives & earlier
                or any(symbols.index(name) in keep - shown for name in gives if name in symbols)):
            continue
        adds = [0] * len(symbols)
        for name, n in first.gives:
            if name in symbols:
                adds[symbols.index(name)] += n
        kinds[:] = [(tuple(tuple(0 if i == s else c + f[s] * adds[i] for i, c in enumerate(f)) for f in faces), n)
                    for faces, n in kinds]
        most = _most(kinds, len(symbols))
        conversions = [c for c in conversions if c.source != source]
    return conversions


def plan(kinds_in: tuple[tuple[Faces, int], ...], symbols: tuple[str, ...], rerolls: int, policy: CountPolicy,
         conversions_in: tuple[Conversion, ...], report: tuple[str, ...]) -> Plan:
    """Lay out one request (see the module docstring).

    Raises:
        ScenarioError: the estimated work exceeds `explorer.core.engine.types.MAX_WORK`.

    >>> from explorer.core.engine.types import REROLL_BLANKS, Conversion
    >>> coin = ((1, 0), (0, 1))  # a hit, or an arcane that a conversion makes 2 hits
    >>> p = plan(((coin, 3),), ("hit", "arcane"), 1, REROLL_BLANKS, (Conversion("arcane", (("hit", 2),), 9),), ("hit",))
    >>> p.passes, p.conversions, p.kinds[0].faces  # no blank face: no pass; the conversion is in the faces
    ((), (), ((1, 0), (2, 0)))
    """
    index = {s: i for i, s in enumerate(symbols)}
    conversions = [c for c in conversions_in if c.source in index and c.limit > 0]
    need = tuple(sum(c.limit for c in conversions if c.source == s) for s in symbols)
    order = policy.kind_order(tuple(f for f, _ in kinds_in), symbols, tuple(conversions_in))
    kinds = [kinds_in[k] for k in order if kinds_in[k][1]]
    rerolls = min(rerolls, sum(n for _, n in kinds))
    most = _most(kinds, len(symbols))
    passes: list[tuple[int, ...]] = []
    guards: list[int | None] = []
    for p in policy.passes if rerolls else ():
        vector, guard = p.vector(symbols), None if p.guard is None else index.get(p.guard)
        if any(vector in faces for faces, _ in kinds) and not (guard is not None and need[guard] >= most[guard]):
            passes.append(vector)
            guards.append(guard)
    if not passes:
        rerolls = 0
    shown = {index[s] for s in report}
    needed = shown | {index[c.source] for c in conversions}
    keys = sorted({i for v in passes for i, c in enumerate(v) if c and i in needed} | {g for g in guards if g is not None})
    folded = list(kinds)
    conversions = _fold_conversions(folded, symbols, conversions, set(keys) | shown, shown)
    sources = {index[c.source] for c in conversions}
    given = {index[s] for c in conversions for s, _ in c.gives if s in index}
    caps = dict(enumerate(_most(folded, len(symbols))))
    key_caps = tuple(caps[s] if s in shown or s in given else
                     min(caps[s], need[s] + rerolls * max(v[s] for v in passes)) for s in keys)
    built = [_kind(original, faces, n, passes, rerolls) for (original, n), (faces, _) in zip(kinds, folded)]
    return _layout(symbols, report, built, rerolls, passes, guards, need, keys, key_caps, conversions,
                   sources, given, caps)


def _kind(original: Faces, faces: Faces, n: int, passes: Sequence[tuple[int, ...]], rerolls: int) -> Kind:
    """A kind: pass membership read on the faces as rolled, symbols on the faces as converted."""
    on_pass = tuple(original.count(v) for v in passes)
    plain: dict[tuple[int, ...], int] = {}
    for before, after in zip(original, faces):
        if before not in passes:
            plain[after] = plain.get(after, 0) + 1
    return Kind(faces, n, on_pass, tuple(plain.items()), min(n, rerolls))


def _layout(symbols: tuple[str, ...], report: tuple[str, ...], kinds: list[Kind], rerolls: int,
            passes: list[tuple[int, ...]], guards: list[int | None], need: tuple[int, ...], keys: list[int],
            key_caps: tuple[int, ...], conversions: list[Conversion], sources: set[int], given: set[int],
            most: dict[int, int]) -> Plan:
    index = {s: i for i, s in enumerate(symbols)}
    shown = [index[s] for s in report]
    upper = dict(most)  # the most of each symbol at any point of the conversions
    for c in conversions:
        used = min(c.limit, upper[index[c.source]])
        for name, n in c.gives:
            if name in index:
                upper[index[name]] += n * used
    capped = [s for s in sorted(sources) if s not in shown and s not in given]
    exact_sources = [s for s in sorted(sources) if s not in capped]
    low = [s for s in dict.fromkeys(shown) if s not in sources]
    work_dims = tuple(exact_sources + low)
    total = 1
    for k in kinds:
        total *= len(k.faces) ** (k.n + k.most)
    width = total.bit_length() + 1
    work = Packing([upper[s] + 1 for s in work_dims], width)
    out_dims = tuple([s for s in dict.fromkeys(shown) if s in sources] + low)
    out = work if out_dims == work_dims else Packing([upper[s] + 1 for s in out_dims], width)
    caps = tuple(min(need[s], most[s]) for s in capped)
    top = Packing([caps[0] + 1] + [most[s] + 1 for s in capped[1:]] + list(work.shape), width) if capped else work
    closings = _closings(kinds, keys)
    small = sum(k.n for k in kinds) <= SMALL_POOL and rerolls <= SMALL_POOL // 2 and len(kinds) <= 3
    if small:
        closings = closings[-1:]  # small: no need to weigh the layouts (the last decides most at the close)
    options = []
    for last, split in closings:
        early = last is None or not any(f[s] for f, _ in kinds[last].plain for s in sources)
        options.append(Plan(symbols, report, tuple(kinds), rerolls, tuple(passes), tuple(guards), need, tuple(keys),
                            key_caps, tuple(capped), caps, tuple(conversions), work, work_dims, out, out_dims,
                            len(low), last, early, top, split))
    if small:
        return options[0]
    best: tuple[int, Plan] | None = None
    budget = DRY_RUN_STEPS  # shared by the layouts weighed, so that weighing stays within about 0.1 s
    for option in reversed(options):  # the layout deciding most at the close first: usually cheapest
        parts = estimate_parts(option, budget)
        if parts is None:  # this layout's states alone used up what was left of the budget
            break
        budget -= parts[2]
        cost = work_of(*parts[:2])
        if best is None or cost < best[0]:
            best = (cost, option)
        if cost < GOOD_ENOUGH:
            break
    if best is None:
        _refuse(options[-1], None)
    else:
        _check_work(best[1], best[0])
    assert best is not None
    return dataclasses.replace(best[1], cost=best[0])


def _closings(kinds: list[Kind], keys: list[int]) -> list[tuple[int | None, int]]:
    """The ways to close: (Horner kind, where the kinds decided with it start), cheapest found by `explorer.core.engine.cost`.

    A Horner kind's plain faces show no key symbol. Candidates: the largest such kind with at most
    `PENDING_DICE` dice after it, the suffix reaching back over as many kinds as that limit allows;
    the last kind alone; no Horner kind (the last kind closes alone).
    """
    options: list[tuple[int | None, int]] = [(None, max(0, len(kinds) - 1))]
    after = [sum(k.n for k in kinds[i + 1:]) for i in range(len(kinds))]
    eligible = [i for i, k in enumerate(kinds) if k.n and not any(f[s] for f, _ in k.plain for s in keys)]
    if kinds and len(kinds) - 1 in eligible:
        options.append((len(kinds) - 1, len(kinds) - 1))
    candidates = [i for i in eligible if after[i] <= PENDING_DICE]
    if candidates:
        last = max(candidates, key=lambda i: (kinds[i].n, i))
        split, pending = last, after[last]
        while split > 0 and pending + kinds[split - 1].n <= PENDING_DICE:
            split -= 1
            pending += kinds[split].n
        options.append((last, split))
    return list(dict.fromkeys(options))


def _check_work(plan: Plan, cost: int) -> None:
    """Refuse up front a request whose estimated cost (`explorer.core.engine.cost.estimate`) is above `MAX_WORK`."""
    if cost > MAX_WORK:
        _refuse(plan, cost)


def _refuse(plan: Plan, cost: int | None) -> None:
    """The refusal, naming the input to change (`culprit`) and the limit; `cost` None: the dry run
    alone passed `DRY_RUN_STEPS`, so the work is surely above the limit."""
    about = f"more than {MAX_WORK / 1e6:.0f} s" if cost is None else f"about {cost / 1e6:.1f} s"
    raise ScenarioError(culprit(plan), f"too big for the exact engine ({about} of work estimated, limit "
                                        f"{MAX_WORK / 1e6:.0f} s: {sum(k.n for k in plan.kinds)} dice of "
                                        f"{len(plan.kinds)} kinds, {plan.rerolls} rerolls); roll fewer dice or "
                                        "kinds of dice together, or use fewer rerolls")


def clear_caches() -> None:
    """Nothing is cached here (kept for symmetry with the other engine modules)."""
