"""The pieces `explorer.core.engine.dp` merges: key codes, first-roll groups and fresh rolls of a kind.

A *group* is part of a kind's first roll: how many dice show each pass's face (capped where more
cannot change a decision), the code of its key totals (first-roll key symbols) and capped-source
totals, and its payload: the packed distribution of its other symbols, summed with multinomial
weights over everything else. For the Horner kind the payload is a plain weight, one group per
number m of its plain dice: their faces are multiplied in at the very end.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import product

from explorer.core.backstop import started
from explorer.core.engine.types import Kind, Plan, multinomial
from explorer.core.errors import ScenarioError
from explorer.core.packed import Packing, times_small

__all__ = ["Branch", "KeySpace", "Group", "Meter", "branches", "groups", "group_keys", "fresh", "fresh_codes", "blocks",
           "digits"]

Branch = tuple[tuple[int, ...], tuple[bool, ...], int]
"""A way to take a kind's pass dice: (new taken, new full flags, dice rerolled)."""

Group = tuple[tuple[int, ...], int, int, int]
"""(pass counts capped, code of key and capped-source totals, plain dice m of the Horner kind, payload)."""


class KeySpace:
    """Key totals and capped-source totals, coded as one number, with saturating sums.

    A code is a mixed-radix number over the key caps, then the capped-source caps.

    >>> space = KeySpace.of((3, 2))
    >>> space.values[space.plus(space.code((2, 1)), space.code((2, 2)))]
    (3, 2)
    """

    limits: tuple[int, ...]
    """The caps, one per total."""
    size: int
    """How many codes there are."""
    values: list[tuple[int, ...]]
    """The totals of each code."""
    sums: dict[int, int]
    """Saturating sums already worked out (a * size + b -> code)."""

    def __init__(self, plan: Plan) -> None:
        self.__dict__.update(KeySpace.of(tuple(plan.key_caps) + tuple(plan.caps)).__dict__)

    @classmethod
    def of(cls, limits: tuple[int, ...]) -> KeySpace:
        """A key space over the given caps."""
        space = cls.__new__(cls)
        space.limits = limits
        space.size = 1
        for c in limits:
            space.size *= c + 1
        space.values = [space._decode(code) for code in range(space.size)]
        space.sums = {}
        return space

    def code(self, values: Sequence[int]) -> int:
        """The code of totals already within their caps."""
        out = 0
        for c, v in zip(self.limits, values):
            out = out * (c + 1) + v
        return out

    def capped(self, values: Sequence[int]) -> int:
        """The code of totals that may exceed their caps (they saturate)."""
        return self.code([min(c, v) for c, v in zip(self.limits, values)])

    def plus(self, a: int, b: int) -> int:
        """Saturating sum of two codes (remembered)."""
        key = a * self.size + b
        total = self.sums.get(key)
        if total is None:
            total = self.sums[key] = self.capped([x + y for x, y in zip(self.values[a], self.values[b])])
        return total

    def _decode(self, code: int) -> tuple[int, ...]:
        out = []
        for c in reversed(self.limits):
            out.append(code % (c + 1))
            code //= c + 1
        return tuple(reversed(out))


def _configs(plan: Plan, kind: Kind) -> dict[tuple[int, tuple[int, ...], tuple[int, ...]], int]:
    """First-roll weights of the pass faces, by (plain dice, capped counts, key totals)."""
    unguarded_first = bool(plan.guards) and plan.guards[0] is None
    return _configs_cached(kind.n, kind.on_pass, plan.passes, plan.keys, plan.key_caps, plan.rerolls, unguarded_first)


@lru_cache(maxsize=128)
def _configs_cached(n: int, on_pass: tuple[int, ...], passes: tuple[tuple[int, ...], ...], key_symbols: tuple[int, ...],
                    key_caps: tuple[int, ...], rerolls: int,
                    unguarded_first: bool) -> dict[tuple[int, tuple[int, ...], tuple[int, ...]], int]:
    active = [p for p, c in enumerate(on_pass) if c]
    out: dict[tuple[int, tuple[int, ...], tuple[int, ...]], int] = {}
    x = [0] * len(passes)
    limits = [rerolls if p == 0 and unguarded_first else rerolls + 1 for p in range(len(passes))]

    def walk(j: int, left: int) -> None:
        if j == len(active):
            weight = multinomial(n, x)
            for p in active:
                weight *= on_pass[p] ** x[p]
            keys = tuple(min(cap, sum(x[p] * passes[p][s] for p in active)) for cap, s in zip(key_caps, key_symbols))
            key = (left, tuple(min(c, limit) for c, limit in zip(x, limits)), keys)
            out[key] = out.get(key, 0) + weight
            return
        for c in range(left + 1):
            x[active[j]] = c
            walk(j + 1, left - c)
        x[active[j]] = 0

    walk(0, n)
    return out


def groups(plan: Plan, space: KeySpace, kind: Kind, horner: bool, meter=None) -> list[Group]:  # type: ignore[no-untyped-def]
    """A kind's first roll as groups; for the Horner kind, weights only (by plain dice m).

    `meter` (a `Meter`) watches the time, and refuses a runaway request.

    >>> from explorer.core.engine.plan import plan
    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> p = plan(((((1,), (0,)), 2),), ("hit",), 1, REROLL_BLANKS, (), ("hit",))
    >>> sorted((x, payload) for x, _, _, payload in groups(p, KeySpace(p), p.kinds[0], False))
    [((0,), 65536), ((1,), 513)]

    (8-bit slots by hits: no blank means 2 hits; "1 blank or more" is 2 ways to 1 hit, 1 to none.)
    """
    configs = _configs(plan, kind)
    if meter is not None:
        meter.tick()
    no_capped = (0,) * len(plan.capped)
    if horner:
        return [(x, space.code(keys + no_capped), m, w) for (m, x, keys), w in configs.items()]
    keyset = set(plan.keys)
    tops = [("key", i, s) for i, s in enumerate(plan.keys)] + \
           [("cap", i, s) for i, s in enumerate(plan.capped) if s not in keyset]
    tops = [t for t in tops if any(f[t[2]] for f, _ in kind.plain)]
    limits = [plan.key_caps[i] if what == "key" else plan.caps[i] for what, i, _ in tops]
    shape = [limits[0] + 1] + [kind.n * max(f[s] for f, _ in kind.plain) + 1 for _, _, s in tops[1:]] if tops else []
    layout = Packing(shape + list(plan.work.shape), plan.work.bits - 1)
    terms = [(layout.offset([f[s] for _, _, s in tops] + [0 if s in keyset else f[s] for s in plan.work_dims]), w)
             for f, w in kind.plain]
    by_m: dict[int, list[tuple[tuple[int, ...], tuple[int, ...], int]]] = {}
    for (m, x, keys), w in configs.items():
        by_m.setdefault(m, []).append((x, keys, w))
    out: dict[tuple[tuple[int, ...], int], int] = {}
    stack = plan.work.slots * plan.work.bits
    power = 1
    for m in range(kind.n + 1):
        if m:
            power = times_small(power, terms)
            if tops:
                power = layout.fold(power, limits[0])
        if meter is not None:
            meter.tick()
        for index, block in blocks(power, stack) if m in by_m else ():
            add_keys, add_caps = [0] * len(plan.keys), list(no_capped)
            for (what, i, _), v in zip(tops, digits(index, shape) if tops else []):
                (add_keys if what == "key" else add_caps)[i] = v
            for x, keys, w in by_m[m]:
                code = space.capped([a + b for a, b in zip(keys, add_keys)] + add_caps)
                out[(x, code)] = out.get((x, code), 0) + w * block
    return [(x, code, 0, payload) for (x, code), payload in out.items()]


class Meter:
    """The engine's guard: CPU time spent so far; a request running past `limit` seconds is refused.

    The up-front estimate (`explorer.core.engine.cost.estimate`) refuses what is clearly too big; this
    guard stops a request the estimate let through that would run for long, so nothing hangs.
    The clock is read every 16 calls (reading it costs about a microsecond). Inside a request
    (`explorer.core.backstop.request`) the time counts from the request's start, so a sweep's or a
    report's battles together stop at the limit, not each on its own.
    """

    def __init__(self, plan: Plan, limit: float, culprit: Callable[[Plan], str]) -> None:
        self.plan, self.limit, self.calls, self.culprit = plan, limit, 0, culprit
        request_start = started()
        self.start = time.process_time() if request_start is None else request_start

    def tick(self) -> None:
        """Note a step of work; check the clock now and then."""
        self.calls += 1
        if not self.calls & 15 and time.process_time() - self.start > self.limit:
            self._refuse()

    def product(self, a: int, b: int) -> int:
        """a * b, with the clock checked now and then."""
        self.tick()
        return a * b

    @property
    def spent(self) -> float:
        """CPU seconds since the start."""
        return time.process_time() - self.start

    def _refuse(self) -> None:
        raise ScenarioError(self.culprit(self.plan), f"too big for the exact engine (stopped after {self.limit:.0f} s of "
                                                f"computing: {sum(k.n for k in self.plan.kinds)} dice of "
                                                f"{len(self.plan.kinds)} kinds, {self.plan.rerolls} rerolls); "
                                                "roll fewer dice or kinds of dice together, or use fewer rerolls")


def branches(plan: Plan, t: tuple[int, ...], closed: tuple[bool, ...], x: tuple[int, ...]) -> list[Branch]:
    """Every way a kind's pass dice may be taken: (new taken, new full flags, dice rerolled).

    `explorer.core.engine.dp` merges along these, and `explorer.core.engine.cost` counts them."""
    r_max = plan.rerolls
    per_pass = []
    for p, (tp, cp, xp) in enumerate(zip(t, closed, x)):
        if p == 0 and plan.guards[0] is None:
            take = min(xp, r_max - tp)
            per_pass.append([(tp + take, False, take)])
        elif cp or not xp:
            per_pass.append([(tp, cp, 0)])
        else:
            choice = [(tp + xp, False, xp)] if tp + xp <= r_max else []
            choice += [(tp + j, True, j) for j in range(min(xp - 1, r_max - tp) + 1)]
            per_pass.append(choice)
    out = []
    for combo in product(*per_pass):
        taken = tuple(c[0] for c in combo)
        if sum(taken) <= r_max:
            out.append((taken, tuple(c[1] for c in combo), sum(c[2] for c in combo)))
    return out


def _reachable(vectors: Sequence[tuple[int, ...]], limits: Sequence[int], most: int) -> list[set[tuple[int, ...]]]:
    """Per number of dice 0..most: the saturated sums of `vectors` those dice can show."""
    out = [{tuple(0 for _ in limits)}]
    for _ in range(most):
        out.append({tuple(min(c, a + b) for c, a, b in zip(limits, v, f)) for v in out[-1] for f in vectors})
    return out


def group_keys(plan: Plan, space: KeySpace, kind: Kind,
               horner: bool) -> tuple[list[tuple[tuple[int, ...], int, int]], int]:
    """The keys `groups` gives (pass counts, code, m) without payloads, and how many payload sums
    building them takes: for estimating the work.

    >>> from explorer.core.engine.plan import plan
    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> p = plan(((((1,), (0,)), 3),), ("hit",), 1, REROLL_BLANKS, (), ("hit",))
    >>> sorted(group_keys(p, KeySpace(p), p.kinds[0], False)[0])  # blanks showing: 0, 1, more
    [((0,), 0, 0), ((1,), 0, 0)]
    """
    configs = _configs(plan, kind)
    no_capped = (0,) * len(plan.capped)
    if horner:
        return list({(x, space.code(keys + no_capped), m) for m, x, keys in configs}), 0
    limits = plan.key_caps + plan.caps
    symbols = plan.keys + tuple(s for s in plan.capped if s not in plan.keys)
    positions = list(range(len(plan.keys))) + [len(plan.keys) + i for i, s in enumerate(plan.capped)
                                               if s not in plan.keys]
    vectors = [tuple(f[s] for s in symbols) for f, _ in kind.plain]
    reach = _reachable(vectors, [limits[p] for p in positions], kind.n)
    out, sums = set(), 0
    for m, x, keys in configs:
        sums += len(reach[m])
        for extra in reach[m]:
            values = list(keys) + list(no_capped)
            for p, v in zip(positions, extra):
                values[p] += v
            out.add((x, space.capped(values), 0))
    return list(out), sums


def fresh_codes(plan: Plan, space: KeySpace, kind: Kind) -> list[set[int]]:
    """Per number of fresh dice r: the codes of their capped-source totals (for estimating the work).

    >>> from explorer.core.engine.plan import plan
    >>> from explorer.core.engine.types import REROLL_BLANKS, Conversion
    >>> p = plan(((((0, 1), (0, 0)), 3),), ("hit", "crit"), 2, REROLL_BLANKS, (Conversion("crit", (("hit", 2),), 1),),
    ...          ("hit",))
    >>> [sorted(KeySpace(p).values[c] for c in codes) for codes in fresh_codes(p, KeySpace(p), p.kinds[0])]
    [[(0,)], [(0,), (1,)], [(0,), (1,)]]
    """
    vectors = [tuple(f[s] for s in plan.capped) for f in set(kind.faces)]
    no_keys = (0,) * len(plan.keys)
    return [{space.code(no_keys + v) for v in values} for values in _reachable(vectors, plan.caps, kind.most)]


def fresh(plan: Plan, space: KeySpace, kind: Kind) -> list[list[tuple[int, int]]]:
    """Per number of dice r: the fresh rolls as (code of their capped-source totals, packed rest)."""
    no_keys = (0,) * len(plan.keys)
    if not kind.most:
        return [[(0, 1)]]
    slices = _fresh_slices(kind.faces, kind.most, plan.capped, plan.caps, plan.work.shape, plan.work.bits,
                           plan.work_dims)
    return [[(space.code(no_keys + capped), poly) for capped, poly in per_r] for per_r in slices]


@lru_cache(maxsize=256)
def _fresh_slices(faces: tuple[tuple[int, ...], ...], most: int, capped: tuple[int, ...], caps: tuple[int, ...],
                  shape: tuple[int, ...], bits: int, dims: tuple[int, ...]) -> list[list[tuple[tuple[int, ...], int]]]:
    """Fresh rolls of 0..most dice sliced by capped sources, scaled by faces^(most - r)."""
    tops = [(c, s) for c, s in zip(caps, capped) if any(f[s] for f in faces)]
    top_shape = [tops[0][0] + 1] + [most * max(f[s] for f in faces) + 1 for _, s in tops[1:]] if tops else []
    layout = Packing(top_shape + list(shape), bits - 1)
    counts: dict[int, int] = {}
    for f in faces:
        offset = layout.offset([f[s] for _, s in tops] + [f[s] for s in dims])
        counts[offset] = counts.get(offset, 0) + 1
    terms = list(counts.items())
    block_bits = Packing(shape, bits - 1).slots * layout.bits
    power, out = 1, []
    for r in range(most + 1):
        if r:
            power = times_small(power, terms)
            if tops:
                power = layout.fold(power, tops[0][0])
        slices = []
        for index, block in blocks(power, block_bits):
            values = dict(zip([s for _, s in tops], digits(index, top_shape))) if tops else {}
            slices.append((tuple(min(c, values.get(s, 0)) for c, s in zip(caps, capped)),
                           block * len(faces) ** (most - r)))
        out.append(slices)
    return out


def blocks(value: int, bits: int) -> Iterable[tuple[int, int]]:
    """Pairs of block number and block, for the non-empty blocks of `bits` bits.

    >>> list(blocks(0x0300_0001, 16))
    [(0, 1), (1, 768)]
    """
    mask = (1 << bits) - 1
    index = 0
    while value:
        block = value & mask
        if block:
            yield index, block
        value >>= bits
        index += 1


def digits(index: int, shape: Sequence[int]) -> list[int]:
    """Mixed-radix digits of a block number, most significant first (the first may run over).

    >>> digits(7, [3, 4])
    [1, 3]
    """
    out = []
    for extent in reversed(shape[1:]):
        out.append(index % extent)
        index //= extent
    out.append(index)
    return list(reversed(out))


def clear_caches() -> None:
    """Forget the cached fresh rolls and first-roll configurations."""
    _fresh_slices.cache_clear()
    _configs_cached.cache_clear()
