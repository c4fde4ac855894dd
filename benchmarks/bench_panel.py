"""Responsiveness inside the kernel: one widget change to updated figures (median, ms).

A figure, not a test: run with ``.venv/bin/python benchmarks/bench_panel.py``.
The battle is the issue's size: 7 dice a side (6 basic + the special die).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explorer.panels.assault_of_the_giants.panel import AssaultPanel  # noqa: E402


def median_ms(action: Callable[[int], object], runs: int = 21) -> float:
    """Median wall time of `action(i)` in milliseconds."""
    times = []
    for i in range(runs):
        start = time.perf_counter()
        action(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    panel = AssaultPanel()
    for role in ("attacker", "defender"):
        panel.pools[role].basic.value = 6
        panel.pools[role].special.value = 1
    assert panel.refresh()
    row = panel.commands["attacker"]
    cases = {
        "move a command card": lambda i: row.move(0, "right"),
        "change the attacker's basic dice (6 <-> 5)": lambda i: setattr(panel.pools["attacker"].basic, "value", 6 - i % 2),
        "edit a unit's Fortitude": lambda i: setattr(panel.armies["defender"].rows[0].fortitude, "value", 2 + i % 2),
        "switch the chart view": lambda i: setattr(panel.results.view, "value", ("exactly", "at least")[i % 2]),
        "add a unit to the attacker": lambda i: panel.armies["attacker"].add_unit(),
    }
    print("One widget change to updated figures, 7 dice a side (median of 21) [bar: <= 100 ms]")
    for label, action in cases.items():
        print(f"  {label:<45} {median_ms(action):7.1f} ms")


if __name__ == "__main__":
    main()
