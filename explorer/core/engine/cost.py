"""What a request of `explorer.core.engine.roll.roll_counts` will cost, weighed before computing it.

`explorer.core.engine.plan.plan` lays a request out, then asks here what each way to close it costs
(`estimate_parts`), keeps the cheapest and refuses one above `explorer.core.engine.types.MAX_WORK`, naming
the input to change (`culprit`). The terms (`estimate_terms`) follow the computation of
`explorer.core.engine.dp.solve` step by step without its big integers: a dry run over the decision
states counts the merges exactly, and the sizes of the products come from the layouts.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache

from explorer.core.engine.parts import KeySpace, branches, fresh_codes, group_keys
from explorer.core.engine.types import MAX_WORK, Plan

__all__ = ["DRY_RUN_STEPS", "PYTHON_STEP", "TERM_WEIGHTS", "culprit", "estimate", "estimate_parts",
           "estimate_terms", "work_of", "weight", "clear_caches"]

DRY_RUN_STEPS = 20_000
"""Most merge steps the estimates' dry runs take for one request, together (about 0.07 s); beyond
it the merges alone would take more than `explorer.core.engine.types.MAX_WORK` (measured: some 30
microseconds a step when computed), and the request is refused."""

PYTHON_STEP = 2.0
"""Microseconds per Python step of the estimate (`estimate_terms`)."""

TERM_WEIGHTS = {"groups": 0.045, "merge_sums": 0.008, "merge_links": 0.0026, "pend": 0.0043, "close": 0.001}
"""Microseconds per unit of each kind of big-integer work (`estimate_terms`).

With `PYTHON_STEP`, fitted (least relative squares) on some 250 requests of 1 to 6 kinds of
dice, 8 to 60 dice and 1 to 10 rerolls timed one by one, then scaled by 3.3 so that the
estimate is a cautious one: measured times were at most the estimate for 9 requests in 10, and
never more than 4.5 times it; the engine's own guard (`explorer.core.engine.dp.METER_LIMIT`) stops
the rest."""


def culprit(plan: Plan) -> str:
    """The input to name in a refusal: the rerolls when fewer of them would make it cheap."""
    if plan.rerolls > 2:
        fewer = dataclasses.replace(plan, rerolls=2)
        if estimate(fewer, DRY_RUN_STEPS // 5) <= MAX_WORK:
            return "rerolls"
    return "pool"


def estimate(plan: Plan, dry_run_steps: int = 0) -> int:
    """Estimated cost in microseconds (`estimate_terms`, weighed by `PYTHON_STEP` and `TERM_WEIGHTS`).

    The states before the close are counted exactly by a dry run on keys only (no payloads); a
    dry run that passes `dry_run_steps` (`DRY_RUN_STEPS` by default) stops, and the cost is then
    reported as just above `explorer.core.engine.types.MAX_WORK`.

    >>> from explorer.core.engine.plan import plan
    >>> from explorer.core.engine.types import NO_REROLLS
    >>> estimate(plan(((((1,), (0,)), 2),), ("hit",), 0, NO_REROLLS, (), ("hit",))) < 100
    True
    """
    parts = estimate_parts(plan, dry_run_steps or DRY_RUN_STEPS)
    if parts is None:
        return MAX_WORK + 1  # so many states that the merges alone would take longer than the limit
    return work_of(*parts[:2])


@lru_cache(maxsize=512)
def weight(plan: Plan) -> int:
    """A plan's estimated microseconds, also for a pool small enough to skip the check (cached)."""
    return plan.cost or estimate(plan)


def clear_caches() -> None:
    """Forget the weights of small pools (`weight`)."""
    weight.cache_clear()


def work_of(python: int, big: int) -> int:
    """Microseconds of work from the estimate's terms (`estimate_parts`: Python steps, and the
    big-integer work already in microseconds)."""
    return int(python * PYTHON_STEP + big)


def estimate_parts(plan: Plan, dry_run_steps: int) -> tuple[int, int, int] | None:
    """The terms of `estimate`: (Python steps, microseconds of big-integer work weighed by
    `TERM_WEIGHTS`, merge pairs of the dry run); None when the dry run passes `dry_run_steps` pairs."""
    terms = estimate_terms(plan, dry_run_steps)
    if terms is None:
        return None
    big = sum(TERM_WEIGHTS[name] * value for name, value in terms.items() if name in TERM_WEIGHTS)
    return terms["python"], int(big), terms["pairs"]


def estimate_terms(plan: Plan, dry_run_steps: int) -> dict[str, int] | None:
    """The work of `plan`, term by term, without computing it (None when the dry run passes
    `dry_run_steps` merge pairs):

    * ``python``: Python-level steps; ``pairs``: the merges' (state, group, branch, fresh slice) steps;
    * ``groups``: words of each kind's first-roll groups;
    * ``merge_sums``: products of a group sum and a fresh slice, one per distinct (slice, next state)
      of each state; ``merge_links``: products of a state's payload and its sum for each next state;
    * ``pend``: products of the pending kinds' groups; ``close``: the close and the Horner steps.

    The states before the close are counted exactly by a dry run on keys only (no payloads);
    payload sizes grow with the dice merged so far, products like Karatsuba's.
    """
    terms = dict.fromkeys(("python", "pairs", "groups", "merge_sums", "merge_links", "pend", "close"), 0)
    if not plan.kinds:
        return terms
    passes, rerolls = len(plan.passes), plan.rerolls
    total_dice = sum(k.n for k in plan.kinds) + rerolls
    words = max(1, plan.out.slots * plan.out.bytes // 8)
    layers = plan.caps[0] + 1 if plan.capped and not plan.convert_early else 1
    space = KeySpace(plan)
    closing = len(plan.kinds) - 1 if plan.last is None else plan.last
    merged = 0
    states: set[tuple[tuple[int, ...], tuple[bool, ...], int, tuple[int, ...]]] = {
        ((0,) * passes, (False,) * passes, 0, ())}

    def share(dice: int) -> int:  # the top coordinate grows with the dice; the others span the layout
        return words * dice // total_dice + 1

    for i, kind in enumerate(plan.kinds):
        if i == closing:
            continue
        configs = _configs(kind.n, sum(1 for c in kind.on_pass if c))
        keys, sums = group_keys(plan, space, kind, False)
        terms["groups"] += (sums + kind.n * len(kind.plain)) * share(kind.n)
        terms["python"] += 2 * configs
        before = share(merged)
        merged += kind.n + kind.most
        if i >= plan.split:
            terms["python"] += len(states) * len(keys)
            terms["pend"] += len(states) * len(keys) * _product(before, share(kind.n))
            states = {(t, c, space.plus(code, g), x) for t, c, code, _ in states for x, g, _ in keys}
            continue
        codes = fresh_codes(plan, space, kind)
        nxt: set[tuple[tuple[int, ...], tuple[bool, ...], int, tuple[int, ...]]] = set()
        pairs = sum_keys = links = 0
        for t, closed, code, _ in states:
            local: set[tuple[tuple[int, ...], tuple[bool, ...], int, tuple[int, ...]]] = set()
            inner: set[tuple[int, int, tuple[int, ...], tuple[bool, ...], int]] = set()
            for x, gcode, _ in keys:
                both = space.plus(code, gcode)
                for nt, nc, r in branches(plan, t, closed, x):
                    pairs += len(codes[r])
                    for f in codes[r]:
                        after = space.plus(both, f)
                        local.add((nt, nc, after, ()))
                        inner.add((r, f, nt, nc, after))
            sum_keys += len(inner)
            links += len(local)
            nxt |= local
            if terms["pairs"] + pairs > dry_run_steps:
                return None
        terms["pairs"] += pairs
        terms["python"] += 2 * pairs + len(states)
        terms["merge_sums"] += sum_keys * _product(share(kind.n), share(kind.most))
        terms["merge_links"] += links * _product(before, share(kind.n + kind.most))
        states = nxt
    kind = plan.kinds[closing]
    keys, sums = group_keys(plan, space, kind, plan.last is not None)
    terms["groups"] += sums * share(kind.n)
    slices = sum(len(c) for c in fresh_codes(plan, space, kind)) // (kind.most + 1) + 1
    terms["python"] += 2 * len(states) * len(keys) * slices + 2 * _configs(kind.n, passes)
    before = share(merged)
    if plan.last is None:  # per state: every group sum meets every fresh slice, then the payload
        terms["close"] += len(states) * ((kind.most + 1) * slices * _product(share(kind.n), share(kind.most) * layers)
                                         + slices * _product(before, share(kind.n + kind.most) * layers))
    else:
        n = kind.n
        if before < 256 or layers > 1:  # a state's sums are placed (shifted) in the whole layout first
            per_state = (n + 1) * _product(before, max(share(kind.most), words // 2) * layers)
        else:
            per_state = n * len(kind.plain) * words + _product(before, words)
        terms["close"] += len(states) * per_state + (n + 1) * len(kind.plain) * words * layers
    return terms


def _product(a: int, b: int) -> int:
    """Cost of a big-integer product of a and b words, in word steps (Karatsuba: ~55 per microsecond)."""
    return int(max(a, b) * min(a, b) ** 0.585 * 200 / 55)


def _configs(n: int, parts: int) -> int:
    """Number of ways to choose `parts` counts with sum <= n."""
    return math.comb(n + parts, parts)
