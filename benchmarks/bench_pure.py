"""Benchmark of the pure-Python paths (the browser build has no numpy) against the numpy ones, under CPython.

One line per problem: the median cold time with numpy, the same without it (every cache cleared
before each run, the pure paths forced by `explorer.core.optional.pure_python`), their ratio, and
whether the two answers are the same (they must be: both are exact). Problems: Assault of the
Giants battles with best play (both sides, with two rounds of rerolls too, and the whole report with
its best-play summary), the
reroll advisor, the command-row advisor, a plan of battles with best play, and the fewest-op
casualty tables of 12-unit armies (all units different: the pure table's worst case; three kinds
of unit: its rows collapse). Results go to ``<out>/pure.csv``.

Usage: ``python benchmarks/bench_pure.py [--runs N] [--out build/bench]`` (about a minute).
The machine may be shared: times are medians, measured side by side in one process.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from collections.abc import Callable
from copy import deepcopy
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

import explorer  # noqa: E402
from explorer.core.engine import clear_caches as clear_engine  # noqa: E402
from explorer.core.optional import accelerator, pure_python  # noqa: E402
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle  # noqa: E402
from explorer.games.assault_of_the_giants.battle import best_summary  # noqa: E402
from explorer.games.assault_of_the_giants.best import play as best  # noqa: E402
from explorer.games.assault_of_the_giants.best.advice import (  # noqa: E402
    advise_conversion,
    advise_reroll,
    contexts_totals,
    reroll_habits,
)
from explorer.games.assault_of_the_giants.best.row_advisor import row_options  # noqa: E402
from explorer.games.assault_of_the_giants.rules import casualties, outcome  # noqa: E402
from explorer.games.assault_of_the_giants.rules.model import Unit  # noqa: E402


def clear_all() -> None:
    """Forget every cached result on the way, so that a call pays its full cost."""
    clear_engine()
    best.clear_caches()
    best_summary._summary.cache_clear()
    outcome._casualty_table.cache_clear()
    casualties._values.cache_clear()


def median_ms(function: Callable[[], object], runs: int, pure: bool) -> tuple[float, object]:
    """Median cold wall time of `function` in milliseconds, on the numpy or the pure paths, and its answer."""
    times, answer = [], None
    for _ in range(runs):
        clear_all()
        if pure:
            with pure_python():
                start = time.perf_counter()
                answer = function()
                times.append(time.perf_counter() - start)
        else:
            start = time.perf_counter()
            answer = function()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3, answer


def _scenario(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "examples" / name).read_text())
    return data


def problems() -> list[tuple[str, Callable[[], object]]]:
    """(name, computation) of each problem."""
    fire = _scenario("fire-vs-hill.json")
    both_best = deepcopy(fire)
    for role in ("attacker", "defender"):
        both_best[role].update(reroll_policy="best", objective="net-ordning-points")
    both = parse_battle(both_best)
    two_rounds = deepcopy(both_best)  # a card reroll each: a second round after the Command rerolls (p.16)
    for role in ("attacker", "defender"):
        two_rounds[role]["cards"] = [{"name": "Haste", "kind": "spell", "rerolls": 1}]
    both_two = parse_battle(two_rounds)
    attacker_best = parse_battle({**fire, "attacker": {**fire["attacker"], "reroll_policy": "best"}})
    roll = [("basic", (0, 0, 0)), ("basic", (0, 0, 1)), ("basic", (0, 1, 0)), ("basic", (1, 1, 0)),
            ("basic", (2, 0, 0)), ("fire", (1, 0, 1))]

    def reroll_advisor() -> object:
        totals = max(contexts_totals(both))
        dice = [(d.name, d.faces[i % 6]) for i, (d, n) in enumerate(both.defender.pool) for _ in range(n)]
        return (advise_reroll(attacker_best, "attacker", roll), advise_conversion(attacker_best, "attacker", (3, 2, 3)),
                reroll_habits(attacker_best, "attacker"),
                advise_reroll(both, "defender", dice, attacker_totals=totals), reroll_habits(both, "defender"))

    start = replace(both, attacker=replace(both.attacker, commands=("Move",)))
    plan = _scenario("aotg-plan.json")
    for fight in plan["plan"]:
        for role in ("attacker", "defender"):
            fight[role]["reroll_policy"] = "best"
    army = tuple(Unit(f"u{i}", 2 + i % 4, 1 + i % 3, i % 5, champion=i == 3, wounded=i % 4 == 1) for i in range(12))
    concede = tuple(u.ordning_value for u in army)
    kinds = tuple(Unit(f"u{i}", 2 + i % 3, 1 + i % 3, 1 + i % 3, wounded=i % 3 == 1) for i in range(12))
    return [
        ("AotG battle, fire-vs-hill, both sides best (net points)", lambda: resolve_battle(both)),
        ("AotG battle, both best, two rounds (a card reroll each)", lambda: resolve_battle(both_two)),
        ("AotG report, both sides best, with the best-play summary", lambda: explorer.resolve(both_best).to_dict()),
        ("reroll advisor: rerolls, split and habits, both sides", reroll_advisor),
        ("row advisor: hand of 4, up to 3 cards first, both best", lambda: row_options(start, ["Leader", "Magic",
                                                                                               "Trade", "Recruit"], most=3)),
        ("plan of 3 battles, every side best", lambda: explorer.resolve(plan).to_dict()),
        ("fewest-op casualties, 12 distinct units", lambda: casualties.best_orders(army, concede, 45)),
        ("fewest-op casualties, 12 units of 3 kinds", lambda: casualties.best_orders(kinds, (1, 2, 3) * 4, 40)),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs per problem and path (median)")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "bench")
    args = parser.parse_args(argv)
    if accelerator("numpy") is None:
        print("numpy is not installed here: nothing to compare the pure paths with", file=sys.stderr)
        return 2
    rows = []
    print(f"{'problem':<60} {'numpy':>10} {'pure':>10} {'ratio':>7}  answers")
    for name, compute in problems():
        median_ms(compute, 1, pure=False)  # imports and first-use costs out of the way
        fast, fast_answer = median_ms(compute, args.runs, pure=False)
        pure, pure_answer = median_ms(compute, args.runs, pure=True)
        same = "same" if fast_answer == pure_answer else "DIFFERENT"
        print(f"{name:<60} {fast:>8.1f}ms {pure:>8.1f}ms {pure / fast:>6.2f}x  {same}")
        rows.append({"problem": name, "numpy_ms": f"{fast:.2f}", "pure_ms": f"{pure:.2f}",
                     "ratio": f"{pure / fast:.2f}", "answers": same})
    args.out.mkdir(parents=True, exist_ok=True)
    with (args.out / "pure.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"written: {args.out / 'pure.csv'}")
    return 0 if all(r["answers"] == "same" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
