"""Benchmark: one Arcadia Quest encounter (issue 7, target <= 10 ms median). Figures, not pass/fail.

The encounter: the hero's 10 attack dice with 3 rerolls against the target's 6 defence dice with
1 reroll, then the target's Payback of 4 dice and two Guard attacks of 3 dice, each against the
hero's 2 Defense dice (his 3 rerolls serve every roll). Timed:

1. cold: every memoised table cleared before each call (the figure the target is about);
2. warm: tables kept (a panel recomputing after a change elsewhere);
3. the whole scenario: parse the mapping, resolve, write the JSON report (cold);
4. the sequence example (examples/arcadia-sequence-minotaur.json), cold, for scale.

Run: ``.venv/bin/python benchmarks/bench_arcadia.py``.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import explorer  # noqa: E402
from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
from explorer.games.arcadia_quest.attack import chains
from explorer.games.arcadia_quest.encounter import fighters, sequence  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ENCOUNTER = {
    "game": "arcadia-quest", "question": "encounter",
    "hero": {"name": "Hero", "defence": 2, "life": 5, "rerolls": 3},
    "attack": {"name": "Big attack", "dice": 10, "kind": "melee"},
    "target": {"name": "Target", "attack": {"dice": 4, "kind": "melee"}, "defence": 6, "rerolls": 1,
               "life": 8, "overkill": 10, "reward": 3},
    "close_monsters": [{"name": "Guard A", "attack": {"dice": 3, "kind": "melee"}, "life": 2, "overkill": 3},
                       {"name": "Guard B", "attack": {"dice": 3, "kind": "ranged"}, "life": 2, "overkill": 3}],
}


def clear_caches() -> None:
    """Forget every memoised roll and attack table, so that a call pays its full cost."""
    chains.chain_successes.cache_clear()
    fighters.strike.cache_clear()
    fighters._trial.cache_clear()
    sequence._on_monster.cache_clear()
    sequence._on_hero.cache_clear()


def median_ms(function: Callable[[], object], runs: int = 51, cold: bool = True) -> float:
    """Median wall time of `function` in milliseconds."""
    times = []
    for _ in range(runs):
        if cold:
            clear_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    """Print the figures."""
    enc = parse_encounter(ENCOUNTER)
    result = resolve_encounter(enc)
    print("Arcadia Quest encounter: 10 dice + 3 rerolls vs 6 defence dice + 1 reroll, Payback 4 dice, 2 Guards of 3")
    print(f"  P(kill) {float(result.kill):.4f}  P(overkill) {float(result.overkill):.4f}  "
          f"P(hero killed) {float(result.hero_killed):.4f}  cut {float(result.cut):.1e}")
    cold = median_ms(lambda: resolve_encounter(enc))
    print(f"  encounter, cold (caches cleared):     {cold:7.2f} ms median (target <= 10 ms)")
    print(f"  encounter, warm (tables memoised):    {median_ms(lambda: resolve_encounter(enc), cold=False):7.2f} ms median")
    print(f"  parse + resolve + JSON report, cold:  {median_ms(lambda: explorer.resolve(ENCOUNTER).to_dict()):7.2f} ms median")
    example = ROOT / "examples" / "arcadia-sequence-minotaur.json"
    print(f"  sequence example (3 heroes, cold):    {median_ms(lambda: explorer.resolve(example), runs=5):7.1f} ms median")


if __name__ == "__main__":
    main()
