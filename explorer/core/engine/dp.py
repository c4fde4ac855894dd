"""The computation behind `explorer.core.engine.roll.roll_counts`, on a `explorer.core.engine.plan.Plan`.

1. *Groups* (`explorer.core.engine.parts`): each kind's first roll, summed over the counts of the
   faces the passes look at.
2. *Merge the kinds before those, in the policy's order.* A state is (dice taken by
   each pass so far, which passes are known to be full, code of key and capped-source totals).
   Pass 1, when unguarded, takes min(showing, rerolls left) at once. A later pass takes a kind's
   dice only if its capacity, known only at the end, allows; instead of guessing it, a state
   either takes all such dice (capacity not reached) or takes some and marks the pass full
   (capacity reached exactly). The fresh dice of a kind are multiplied in as its rerolls are set.
3. *The few dice around the Horner kind* (a suffix of the policy's order) join as pending first
   rolls: their decisions wait.
4. *Close with the Horner kind:* true capacities from the complete totals decide it and the
   pending kinds, and drop the states whose earlier choices disagree, so every roll is counted
   once, with its true decision. What is left of a state is what the result needs: kept reported
   key symbols (a shift), capped-source totals, and the Horner kind's plain dice m.
5. *Horner:* the Horner kind's plain faces' polynomial Q joins last: the sum over m of Q^m V_m is
   (...(V_n Q + V_(n-1)) Q + ...) + V_0, each step a few shifts and adds of one big integer.
6. *Conversions*, per value of the sources (before step 5 when Q shows no source).

Weights are exact integers over one common denominator: the fresh dice of a kind that rerolls r
of at most R dice carry the factor faces^(R - r).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from explorer.core.backstop import LIMIT
from explorer.core.dist import Dist
from explorer.core.engine import parts
from explorer.core.engine.cost import culprit
from explorer.core.engine.parts import Branch, Group, KeySpace, Meter, blocks, branches, digits
from explorer.core.engine.types import Plan, convert
from explorer.core.packed import times_small

__all__ = ["solve", "clear_caches"]

State = tuple[tuple[int, ...], tuple[bool, ...], int, tuple[tuple[int, ...], ...]]
"""(taken per pass, full per pass, code, pass counts of the pending kinds)."""

Move = tuple[tuple[int, ...], int, int]
"""A decided state at the close: (dice rerolled per kind, bit shift of kept key symbols, capped code)."""

_NOT_YET: Move = ((), -1, -1)
"""Marks a closing state not decided yet (compared by identity)."""

Key = TypeVar("Key")
Pick = TypeVar("Pick")


METER_LIMIT = LIMIT
"""CPU seconds after which a running request is refused (`explorer.core.engine.parts.Meter`, counted from
the start of the whole request when one is open: `explorer.core.backstop`): a backstop
for the few requests the cautious up-front estimate (`explorer.core.engine.cost.estimate`) misjudges.
The estimate refuses past 2 s and was never under a quarter of the measured time (2 x 4.5 = 9 s),
and a request the estimate accepts must not be cut short on a slow machine: at 3 s, a golden
case of 12 dice and 4 rerolls (about 2 s at this machine's usual speed) was refused when the
machine ran 30-50 % slower."""


def solve(plan: Plan) -> Dist[tuple[int, ...]]:
    """The exact distribution the plan describes (see the module docstring).

    >>> from explorer.core.engine.plan import plan
    >>> from explorer.core.engine.types import REROLL_BLANKS
    >>> coin = ((1,), (0,))
    >>> solve(plan(((coin, 2),), ("hit",), 1, REROLL_BLANKS, (), ("hit",))).probability((2,))
    Fraction(1, 2)
    """
    passes = len(plan.passes)
    if not plan.kinds:
        return _to_dist(plan, _convert(plan, 1, 0, (0,) * len(plan.capped)))
    if not passes and not plan.capped and plan.low == len(plan.work_dims):
        return _to_dist(plan, _product_of_kinds(plan))
    space = KeySpace(plan)
    meter = Meter(plan, METER_LIMIT, culprit)
    states: dict[State, int] = {((0,) * passes, (False,) * passes, 0, ()): 1}
    closing = len(plan.kinds) - 1 if plan.last is None else plan.last
    for kind in plan.kinds[:plan.split]:
        states = _merge(plan, space, states, parts.groups(plan, space, kind, False, meter),
                        parts.fresh(plan, space, kind), meter)
    together = plan.kinds[plan.split:]
    for i, kind in enumerate(together):
        if plan.split + i != closing:
            states = _pend(space, states, parts.groups(plan, space, kind, False, meter), meter)
    fresh = [parts.fresh(plan, space, k) for k in together]
    groups = parts.groups(plan, space, plan.kinds[closing], plan.last is not None, meter)
    stage = _Stage(plan, meter)
    final = _close(plan, space, states, groups, fresh, closing - plan.split, stage, meter)
    if stage.collapse:
        return _to_dist(plan, stage.result())
    return _to_dist(plan, stage.horner(_finish(plan, space, final), inputs_converted=plan.convert_early))


def _product_of_kinds(plan: Plan) -> int:
    """No decision and nothing for a conversion to take: the product of each kind's faces^n."""
    value = 1
    for kind in plan.kinds:
        terms = [(plan.out.offset([f[s] for s in plan.out_dims]), w) for f, w in kind.plain]
        power = 1
        for _ in range(kind.n):
            power = times_small(power, terms)
        value = power if value == 1 else value * power
    return value


class _Stage:
    """The last stage: Horner's rule over the Horner kind's plain dice, and the conversions.

    When the payload layout is the result's (no reported source), a state's sums are converted
    right away (shifts), so its payload meets them in one multiplication per plain-dice count m
    (`add`), or, when its payload is big, in a single one after a Horner run of its own.
    """

    def __init__(self, plan: Plan, meter: Meter) -> None:
        self.plan, self.meter = plan, meter
        self.collapse = plan.low == len(plan.work_dims)
        self.layout, dims = (plan.out, plan.out_dims) if plan.convert_early else (plan.top, plan.capped + plan.work_dims)
        q_kind = None if plan.last is None else plan.kinds[plan.last]
        self.n = q_kind.n if q_kind else 0
        self.terms = [(self.layout.offset([f[s] for s in dims]), w) for f, w in q_kind.plain] if q_kind else []
        self.fold = bool(plan.capped) and not plan.convert_early
        self.by_m: dict[int, int] = {}
        self.total = 0
        self.offsets: dict[tuple[int, tuple[int, ...]], int] = {}

    def place(self, shift: int, capped: tuple[int, ...], value: int) -> int:
        """A state's sum in the last stage's layout: converted (early) or with its capped sources on top."""
        if self.plan.convert_early and self.plan.low != len(self.plan.work_dims):
            return _convert(self.plan, value << shift, 0, capped)
        offset = self.offsets.get((shift, capped))
        if offset is None:
            if self.plan.convert_early:  # every symbol reported as is: converting shifts the value
                offset = _convert(self.plan, 1 << shift, 0, capped).bit_length() - 1
            else:
                offset = shift + self.plan.top.offset(list(capped) + [0] * len(self.plan.work_dims))
            self.offsets[(shift, capped)] = offset
        return value << offset

    def _folded(self, value: int) -> int:
        return self.layout.fold(value, self.plan.caps[0]) if self.fold else value

    def add(self, payload: int, by_m: dict[int, int]) -> None:
        """Add payload x (sums by m): by one Horner run and one product when the payload is big."""
        if payload.bit_length() > BIG_PAYLOAD_BITS and len(by_m) > 1 and not self.fold:
            self.total += self.meter.product(payload, self.horner(by_m))
            return
        for m, value in by_m.items():
            self.by_m[m] = self.by_m.get(m, 0) + self._folded(self.meter.product(payload, value))

    def horner(self, by_m: dict[int, int], *, inputs_converted: bool = True) -> int:
        """Sum over m of Q^m by_m[m] (Q: the Horner kind's plain faces), converted at the end unless
        the inputs already were."""
        acc = 0
        for m in range(self.n, -1, -1):
            if acc:
                self.meter.tick()
                acc = self._folded(times_small(acc, self.terms))
            acc += by_m.get(m, 0)
        if not inputs_converted:
            return _convert(self.plan, acc, len(self.plan.capped), ())
        return acc

    def result(self) -> int:
        """The converted result of everything added."""
        value = self.total + self.horner(self.by_m)
        return value if self.plan.convert_early else _convert(self.plan, value, len(self.plan.capped), ())


BIG_PAYLOAD_BITS = 8 * 2048
"""A state's payload above this size meets its sums after a Horner run of its own (one product)."""


# ----------------------------------------------------------------------------- merging
def _merge(plan: Plan, space: KeySpace, states: dict[State, int], groups: list[Group],
           fresh: list[list[tuple[int, int]]], meter: Meter) -> dict[State, int]:
    """States after one more kind: lazy decisions for passes of unknown capacity.

    Per state, group payloads are summed by (dice rerolled, slice of the fresh rolls, next
    state) before any multiplication, so a state's payload is multiplied once per next state.
    """
    options: dict[tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...]], list[Branch]] = {}
    plus = space.plus
    out: dict[State, int] = {}
    for (t, closed, code, _), payload in states.items():
        meter.tick()
        sums: dict[tuple[int, int, State], int] = {}
        for x, gcode, _, gpay in groups:
            both = plus(code, gcode)
            branch = options.get((t, closed, x))
            if branch is None:
                branch = options[(t, closed, x)] = branches(plan, t, closed, x)
            for nt, nc, r in branch:
                for j, (fcode, _) in enumerate(fresh[r]):
                    key = (r, j, (nt, nc, plus(both, fcode), ()))
                    sums[key] = sums.get(key, 0) + gpay
        _multiply(payload, sums, lambda r, j: fresh[r][j][1], out, meter)
    return out


def _pend(space: KeySpace, states: dict[State, int], groups: list[Group], meter: Meter) -> dict[State, int]:
    """Add a kind's first roll to every state, its decision left for `_close`."""
    out: dict[State, int] = {}
    for (t, closed, code, xs), payload in states.items():
        for x, gcode, _, gpay in groups:
            key = (t, closed, space.plus(code, gcode), xs + (x,))
            out[key] = out.get(key, 0) + meter.product(payload, gpay)
    return out


def _multiply(payload: int, sums: dict[tuple[Pick, int, Key], int], slice_of: Callable[[Pick, int], int],
              out: dict[Key, int], meter: Meter) -> None:
    """Add payload x sum x fresh slice into `out`; `sums` are keyed (r, slice, next state)."""
    inner: dict[Key, int] = {}
    for (r, j, key), weight in sums.items():
        inner[key] = inner.get(key, 0) + meter.product(weight, slice_of(r, j))
    for key, value in inner.items():
        out[key] = out.get(key, 0) + meter.product(payload, value)


# ----------------------------------------------------------------------------- closing
def _close(plan: Plan, space: KeySpace, states: dict[State, int], groups: list[Group],
           fresh: list[list[list[tuple[int, int]]]], at: int, stage: _Stage,
           meter: Meter) -> dict[tuple[int, int, int], int]:
    """Decide the closing kind and the pending kinds from complete totals; keep what the result needs.

    The closing kind sits at position `at` among the kinds decided together (`fresh` is in that
    order; the pending kinds' pass counts are in the state, in the same order without it).

    Returns payloads keyed (bit shift of the kept reported key symbols, code of the final
    capped-source totals, plain dice m of the Horner kind).
    """
    keys = len(plan.keys)
    no_keys = (0,) * keys
    work_index = {s: d for d, s in enumerate(plan.work_dims)}
    kept_matters = [(s, work_index.get(s), plan.capped.index(s) if s in plan.capped else None)
                    for s in plan.keys if s in work_index or s in plan.capped]
    decided: dict[tuple[tuple[int, ...], tuple[bool, ...], tuple[int, ...], tuple[tuple[int, ...], ...], int],
                  Move | None] = {}
    after: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
    combined: dict[tuple[int, ...], list[tuple[int, int]]] = {}

    def final(t: tuple[int, ...], closed: tuple[bool, ...], xs: tuple[tuple[int, ...], ...], code: int) -> Move | None:
        values = space.values[code]
        decision = _decide(plan, t, closed, xs, values[:keys])
        if decision is None:
            return None
        taken, rerolled = decision
        if rerolled not in combined:
            combined[rerolled] = _fresh_product(space, [f[r] for f, r in zip(fresh, rerolled)])
        placed = after.get((taken, code))
        if placed is None:
            shift = [0] * len(plan.work_dims)
            sources = list(values[keys:])
            for s, d, c in kept_matters:
                kept = values[plan.keys.index(s)] - sum(tp * face[s] for tp, face in zip(taken, plan.passes))
                if d is not None:
                    shift[d] += kept
                if c is not None:
                    sources[c] += kept
            placed = after[(taken, code)] = (plan.work.offset(shift) if any(shift) else 0,
                                             space.capped(no_keys + tuple(sources)))
        return (rerolled, *placed)

    out: dict[tuple[int, int, int], int] = {}
    plus = space.plus
    for (t, closed, code, xs), payload in states.items():
        meter.tick()
        sums: dict[tuple[tuple[int, ...], int, tuple[int, int, int]], int] = {}
        for x, gcode, m, gpay in groups:
            both = plus(code, gcode)
            move = decided.get((t, closed, x, xs, both), _NOT_YET)
            if move is _NOT_YET:
                move = decided[(t, closed, x, xs, both)] = final(t, closed, (*xs[:at], x, *xs[at:]), both)
            if move is None:
                continue
            rerolled, shift, base = move
            for j, (fcode, _) in enumerate(combined[rerolled]):
                key = (rerolled, j, (shift, plus(base, fcode), m))
                sums[key] = sums.get(key, 0) + gpay
        if not stage.collapse:
            _multiply(payload, sums, lambda r, j: combined[r][j][1], out, meter)
            continue
        inner: dict[tuple[int, int, int], int] = {}
        for (r, j, slot), weight in sums.items():
            inner[slot] = inner.get(slot, 0) + meter.product(weight, combined[r][j][1])
        by_m: dict[int, int] = {}
        for (shift, code, m), value in inner.items():
            by_m[m] = by_m.get(m, 0) + stage.place(shift, space.values[code][keys:], value)
        stage.add(payload, by_m)
    return out


def _fresh_product(space: KeySpace, parts: list[list[tuple[int, int]]]) -> list[tuple[int, int]]:
    """Fresh rolls of several kinds together, sliced by capped-source code."""
    out = {0: 1}
    for slices in parts:
        nxt: dict[int, int] = {}
        for code, poly in out.items():
            for fcode, fpoly in slices:
                key = space.plus(code, fcode)
                nxt[key] = nxt.get(key, 0) + poly * fpoly
        out = nxt
    return list(out.items())


def _decide(plan: Plan, t: tuple[int, ...], closed: tuple[bool, ...], xs: Sequence[tuple[int, ...]],
            total: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Dice each pass takes in all, and dice rerolled of each kind in `xs` (visited in that order).

    Returns None when the state's earlier choices (full or not) disagree with the true capacities.
    """
    budget = plan.rerolls
    spare = {s: max(0, v - plan.need[s]) for s, v in zip(plan.keys, total)}
    taken = []
    rerolled = [0] * len(xs)
    for p, (tp, cp) in enumerate(zip(t, closed)):
        guard = plan.guards[p]
        capacity = budget if guard is None else min(budget, spare[guard] // plan.passes[p][guard])
        if capacity < tp or (cp and capacity != tp):
            return None
        done = tp
        for k, x in enumerate(xs):
            take = min(x[p], capacity - done)
            done += take
            rerolled[k] += take
        taken.append(done)
        budget -= done
        if guard is not None:
            spare[guard] -= plan.passes[p][guard] * done
    return tuple(taken), tuple(rerolled)


# ----------------------------------------------------------------------------- finishing
def _finish(plan: Plan, space: KeySpace, final: dict[tuple[int, int, int], int]) -> dict[int, int]:
    """Final payloads by Horner dice m: shifted by kept key symbols, capped sources placed.

    Converted now (`out` layout) when conversions may come before the Horner step; otherwise the
    capped sources go on top of the `top` layout, converted after it.
    """
    keys = len(plan.keys)
    by_m: dict[int, int] = {}
    for (shift, code, m), value in final.items():
        sources = space.values[code][keys:]
        value <<= shift
        if plan.convert_early:
            value = _convert(plan, value, 0, sources)
        else:
            value <<= plan.top.offset(list(sources) + [0] * len(plan.work_dims))
        by_m[m] = by_m.get(m, 0) + value
    return by_m


def _convert(plan: Plan, value: int, on_top: int, fixed: Sequence[int]) -> int:
    """Apply the conversions, one block per value of the sources, into the `out` layout.

    Args:
        plan: the plan.
        value: packed in `top` (`on_top` capped sources above `work`) or in `work` (`on_top` 0).
        on_top: how many capped sources sit above the work coordinates.
        fixed: values of the capped sources when they are not in `value` (`on_top` 0).
    """
    high = on_top + len(plan.work_dims) - plan.low
    if not high and not plan.conversions:
        return value
    layout = plan.top if on_top else plan.work
    block_bits = (layout.strides[high - 1] if high else layout.slots) * layout.bits
    names = plan.symbols
    high_symbols = (plan.capped if on_top else ()) + plan.work_dims[:high - on_top]
    base = dict(zip((names[s] for s in plan.capped), fixed)) if not on_top else {}
    result = 0
    for index, block in blocks(value, block_bits):
        counts = dict(base)
        counts.update(zip((names[s] for s in high_symbols), digits(index, layout.shape[:high]) if high else ()))
        after = convert(counts, plan.conversions)
        result += block << plan.out.offset([after.get(names[s], 0) for s in plan.out_dims])
    return result


def _to_dist(plan: Plan, value: int) -> Dist[tuple[int, ...]]:
    """Unpack the result into a `Dist` over tuples in the report's order."""
    if not value:
        raise AssertionError("the engine lost every outcome")
    where = [plan.out_dims.index(plan.symbols.index(s)) for s in plan.report]
    weights = plan.out.unpack(value)
    if where != list(range(len(plan.out_dims))):
        weights = {tuple(v[i] for i in where): w for v, w in weights.items()}
    return Dist.of_counts(weights)


def clear_caches() -> None:
    """Forget the cached fresh rolls."""
    parts.clear_caches()
