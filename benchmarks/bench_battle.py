"""Benchmarks: figures to report, not tests. Run with ``make bench``.

1. The issue's battle: 7 dice a side (6 basic + 1 special), 3 rerolls, 2 conversions of each
   kind the side may use, 6 units a side, casualty order ``fewest-op``: median time, cold
   (every cache cleared before each call) and warm.
2. The same battle shrunk until the brute-force enumerator (tests/aotg_oracle.py) still
   finishes: both timed side by side, and their ratio.
3. The peers' benchmark problem (shared/research/peers.md, section 1): 10 dice with faces
   hit, hit, block, arcane, miss, miss (arcane = 2 hits); (a) plain, (b) up to 2 misses rerolled.
   Timed against icepool (< 2.2 on Python 3.11), results checked equal.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explorer.games.assault_of_the_giants import (  # noqa: E402  # noqa: E402
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Unit,
    casualties,
    combat,
    resolve_battle,
)
from explorer.games.assault_of_the_giants.data import DEFAULT_DICE  # noqa: E402


def clear_caches() -> None:
    """Forget every memoised table, so a call pays its full cost."""
    combat._kind_states.cache_clear()
    combat._fresh.cache_clear()
    casualties._best_order.cache_clear()


def median_ms(function: Callable[[], object], runs: int = 21, cold: bool = True) -> float:
    """Median wall time of `function` in milliseconds."""
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def army(n: int) -> tuple[Unit, ...]:
    """`n` varied units; the last is a champion."""
    return tuple(Unit(f"giant {i}", 2 + i % 3, 1 + i % 2, 1 + i % 4, champion=(i == n - 1 and n > 1))
                 for i in range(n))


def battle(basic: int, special: bool, units: int) -> Battle:
    """The issue's battle shape with `basic` basic dice (+ the special die) a side."""
    pool_a = ((DEFAULT_DICE["basic"], basic),) + (((DEFAULT_DICE["fire"], 1),) if special else ())
    pool_d = ((DEFAULT_DICE["basic"], basic),) + (((DEFAULT_DICE["hill"], 1),) if special else ())
    attacker = Side(pool_a, Modifiers(3, 2, 2), army(units), casualty_order="fewest-op")
    defender = Side(pool_d, Modifiers(3, 0, 2), army(units), casualty_order="fewest-op")
    return Battle(attacker, defender)


def issue_battle() -> None:
    full = battle(6, True, 6)
    cold = median_ms(lambda: resolve_battle(full))
    warm = median_ms(lambda: resolve_battle(full), cold=False)
    print("1. Issue battle: 7 dice a side, 3 rerolls, 2+2 conversions, 6 units a side, fewest-op")
    print(f"   median {cold:.2f} ms cold (caches cleared), {warm:.2f} ms warm   [bar: <= 10 ms]")


def versus_brute_force(limit_s: float = 20.0) -> None:
    from tests.aotg_oracle import brute_battle

    print("2. Against brute-force enumeration (same shape, fewer dice, 6 units a side)")
    print("   dice/side  brute force     fast path      ratio")
    for basic in range(0, 6):
        case = battle(basic, True, 6)
        start = time.perf_counter()
        brute_battle(case)
        slow = time.perf_counter() - start
        fast = median_ms(lambda: resolve_battle(case), runs=7) / 1e3
        print(f"   {basic + 1:>9}  {slow * 1e3:>10.1f} ms  {fast * 1e3:>9.2f} ms  {slow / fast:>9.0f}x")
        if slow > limit_s / 6:
            break


def versus_icepool() -> None:
    try:
        import icepool
    except ImportError:
        print("3. icepool not installed: skipped (pip install 'icepool<2.2')")
        return
    die = CombatDie("peer", ((1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (0, 0, 0)))
    plain = Side(((die, 10),), Modifiers(0, 10, 0), ())
    reroll = Side(((die, 10),), Modifiers(2, 10, 0), (), reroll_policy="blanks")

    def ours(side: Side) -> dict[int, Fraction]:
        return combat.side_totals(side).marginal(0).probabilities()

    def theirs_a() -> object:
        return icepool.Die([1, 1, 0, 2, 0, 0]).pool(10).sum()

    def theirs_b() -> object:
        face = icepool.Die([1, 1, -1, 2, 0, 0])
        return face.reroll_to_pool(10, [0], max_rerolls=2).keep_outcomes(lambda o: o > 0).sum()

    for label, side, peer in (("(a) 10 dice, no reroll", plain, theirs_a), ("(b) 10 dice, reroll <= 2 misses", reroll, theirs_b)):
        result = peer()
        same = ours(side) == {o: Fraction(result.quantity(o), result.denominator()) for o in result.outcomes()
                              if result.quantity(o)}
        t_ours = median_ms(lambda s=side: ours(s))
        t_peer = median_ms(peer, cold=False)
        print(f"3. {label}: ours {t_ours:.2f} ms (cold) vs icepool {icepool.__version__} {t_peer:.2f} ms"
              f" -> {t_peer / t_ours:.1f}x; identical: {same}")


if __name__ == "__main__":
    issue_battle()
    versus_brute_force()
    versus_icepool()
