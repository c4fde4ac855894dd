"""Benchmarks of the exact engine against the dice libraries, brute force and Monte Carlo (``make bench``).

One line per problem: our median time (cold: every cache of ours cleared first), each peer's
median (icepool, dyce; brute force where it finishes; a seeded numpy Monte Carlo at the sample
size that gives every probability a standard error of 1e-3), the ratio, the target, PASS/FAIL,
and whether the exact answers agree. Then a scaling table (time against pool size up to 60 dice
and against army size up to 12 units) with the measured growth exponent.

Usage: ``python benchmarks/run.py [--quick] [--check] [--out build/bench]``.
``--quick`` runs fewer repetitions and skips the slowest peers (under a minute); ``--check``
exits with status 1 when a target is missed or an exact answer disagrees. Results are written
to ``<out>/results.csv`` and ``<out>/scaling.csv``, and the scaling table is drawn in
``<out>/scaling.html`` (Plotly).

The machine may be shared: times are medians, and the ratios, measured side by side in one
process, are what count.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import problems as pb  # noqa: E402

from explorer.games.assault_of_the_giants import resolve_battle  # noqa: E402
from explorer.games.assault_of_the_giants.rules.casualties import casualties_by_damage  # noqa: E402
from explorer.games.assault_of_the_giants.rules.combat import side_totals  # noqa: E402
from explorer.sweep import sweep  # noqa: E402


@dataclass
class Line:
    """One problem's results."""

    problem: str
    ours_ms: float
    peers: dict[str, str] = field(default_factory=dict)
    ratio: str = ""
    target: str = ""
    passed: bool = True
    agree: str = ""


def median_ms(function: Callable[[], object], runs: int, cold: bool = True) -> float:
    """Median wall time of `function` in milliseconds (our caches cleared before each run when `cold`)."""
    times = []
    for _ in range(runs):
        if cold:
            pb.clear_all()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def fmt(ms: float) -> str:
    return f"{ms:.2f} ms" if ms < 100 else f"{ms / 1e3:.2f} s"


def peer_problem(dice: int, rerolls: int, runs: int, target_ratio: float, dyce: bool) -> Line:
    """The peers' problem against icepool and dyce: exact answers compared, ratio to icepool."""
    ours = pb.ours_peer(dice, rerolls)
    line = Line(f"peers: {dice} dice, {'no reroll' if not rerolls else f'<= {rerolls} misses rerolled'}",
                median_ms(lambda: pb.ours_peer(dice, rerolls), runs))
    same = []
    icepool_ms = median_ms(lambda: pb.icepool_peer(dice, rerolls), runs, cold=False)
    line.peers["icepool"] = fmt(icepool_ms)
    same.append(pb.as_fractions(pb.icepool_peer(dice, rerolls)) == pb.as_fractions(ours))
    if dyce:
        line.peers["dyce"] = fmt(median_ms(lambda: pb.dyce_peer(dice, rerolls), max(3, runs // 3), cold=False))
        same.append(pb.as_fractions(pb.dyce_peer(dice, rerolls)) == pb.as_fractions(ours))
    else:
        line.peers["dyce"] = "skipped (--quick)"
    start = time.perf_counter()
    gap = pb.mc_gap(pb.as_fractions(ours), pb.mc_peer(dice, rerolls))
    line.peers["monte carlo"] = f"{fmt((time.perf_counter() - start) * 1e3)} (n={pb.MC_SAMPLES:,}, gap {gap:.1e})"
    line.ratio = f"{icepool_ms / line.ours_ms:.1f}x icepool"
    line.target = f">= {target_ratio:g}x icepool"
    line.passed = icepool_ms / line.ours_ms >= target_ratio
    line.agree = "exact: same" if all(same) and gap <= pb.MC_TOLERANCE else "DIFFERENT"
    return line


def battle_problem(basic: int, rerolls: int, units: int, target_ms: float, runs: int) -> Line:
    """One Assault of the Giants battle, with a Monte Carlo check (brute force cannot finish it)."""
    battle = pb.aotg_battle_of(basic, rerolls, units)
    line = Line(f"AotG battle: {basic + 1} dice a side, {rerolls} rerolls, {units} units, fewest-op",
                median_ms(lambda: resolve_battle(battle), runs))
    start = time.perf_counter()
    estimate = pb.mc_battle(battle)
    mc_ms = (time.perf_counter() - start) * 1e3
    exact = pb.exact_battle(resolve_battle(battle))
    gap = max(pb.mc_gap(exact[k], estimate[k]) for k in exact)
    line.peers = {"icepool": "n/a (post-roll decisions)", "dyce": "n/a",
                  "brute force": f"6^{2 * (basic + 1 + rerolls)} rolls: not run",
                  "monte carlo": f"{fmt(mc_ms)} (n={pb.MC_SAMPLES:,}, gap {gap:.1e})"}
    line.ratio = f"{mc_ms / line.ours_ms:.0f}x monte carlo"
    line.target, line.passed = f"<= {target_ms:g} ms", line.ours_ms <= target_ms
    line.agree = "monte carlo: agrees" if gap <= pb.MC_TOLERANCE else "DIFFERENT"
    return line


_AQ_TIMER = """
import sys, time
sys.path.insert(0, {root!r})
import explorer
explorer.resolve({warm!r})
start = time.perf_counter()
report = explorer.resolve({case!r})
print((time.perf_counter() - start) * 1e3)
"""


def aq_problem(target_ms: float, runs: int) -> Line:
    """One Arcadia Quest attack through the public resolver, timed cold in fresh interpreters."""
    import explorer

    warm = pb.aq_scenario() | {"attack": {"dice": 1, "kind": "ranged"}, "defence": {"dice": 1}}
    code = _AQ_TIMER.format(root=str(ROOT), warm=warm, case=pb.aq_scenario())
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
             for _ in range(runs)]
    line = Line("Arcadia Quest: 10 dice, 3 rerolls vs 6 defence dice, 1 reroll", statistics.median(times))
    report = explorer.resolve(pb.aq_scenario()).to_dict()
    start = time.perf_counter()
    estimate = pb.mc_attack()
    mc_ms = (time.perf_counter() - start) * 1e3
    exact = {int(k): v for k, v in report["wounds"].items()}
    gap = max(abs(exact.get(k, 0.0) - estimate.get(k, 0.0)) for k in set(exact) | set(estimate))
    line.peers = {"icepool": "n/a (exploding chains with a shared reroll pool)", "dyce": "n/a",
                  "monte carlo": f"{fmt(mc_ms)} (n={pb.MC_SAMPLES:,}, gap {gap:.1e})"}
    line.ratio = f"{mc_ms / line.ours_ms:.0f}x monte carlo"
    line.target, line.passed = f"<= {target_ms:g} ms", line.ours_ms <= target_ms
    line.agree = "monte carlo: agrees" if gap <= pb.MC_TOLERANCE else "DIFFERENT"
    return line


def sweep_problem(target_s: float, runs: int) -> Line:
    """A 20 x 20 "what if?" heatmap: attacker basic dice by defender basic dice, fire against hill."""
    import json

    scenario = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())

    def heatmap() -> object:
        return sweep(scenario, "attacker basic dice", range(20), "defender basic dice", range(20),
                     "expected Ordning Points (attacker)")

    line = Line("AotG sweep: 20 x 20 battles (heatmap)", median_ms(heatmap, runs))
    line.target, line.passed = f"<= {target_s:g} s", line.ours_ms <= target_s * 1e3
    return line


def import_problem(target_s: float, runs: int) -> Line:
    """`import explorer` in a fresh interpreter (the core only)."""
    code = "import time; t = time.perf_counter(); import explorer; print((time.perf_counter() - t) * 1e3)"
    times = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                  check=True).stdout) for _ in range(runs)]
    line = Line("import explorer (fresh interpreter)", statistics.median(times))
    line.target, line.passed = f"<= {target_s:g} s", line.ours_ms <= target_s * 1e3
    return line


def scaling(quick: bool) -> list[dict[str, object]]:
    """Time against pool size and army size; icepool on the peers' problem side by side."""
    from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
    from explorer.games.assault_of_the_giants.rules.model import Modifiers, Side

    rows: list[dict[str, object]] = []
    for dice in (5, 10, 20, 30, 40, 50, 60):
        side = Side(((DEFAULT_DICE["basic"], dice - 1), (DEFAULT_DICE["fire"], 1)), Modifiers(5, 2, 2), ())
        row: dict[str, object] = {"axis": "dice", "size": dice,
                                  "aotg side, 5 rerolls (ms)": median_ms(lambda s=side: side_totals(s), 3),
                                  "peers, 5 rerolls (ms)": median_ms(lambda d=dice: pb.ours_peer(d, 5), 3)}
        if dice <= (40 if quick else 60):
            row["icepool peers (ms)"] = median_ms(lambda d=dice: pb.icepool_peer(d, 5), 1, cold=False)
        if dice <= 5:
            from tests.games.assault_of_the_giants.oracle import brute_totals

            small = Side(((DEFAULT_DICE["basic"], 2), (DEFAULT_DICE["fire"], 1)), Modifiers(2, 2, 2), ())
            row["brute force, 3 dice 2 rerolls (ms)"] = median_ms(lambda: brute_totals(small), 1, cold=False)
            row["ours, same 3 dice (ms)"] = median_ms(lambda: side_totals(small), 5)
        rows.append(row)
    for units in (2, 4, 6, 8, 10, 12):
        army = pb.army(units)
        concede = tuple(u.ordning_value for u in army)
        rows.append({"axis": "units", "size": units, "fewest-op casualties, damage 0..60 (ms)":
                     median_ms(lambda a=army, c=concede: casualties_by_damage(a, "fewest-op", c, 60), 3)})
    return rows


def growth(rows: list[dict[str, object]], axis: str, column: str) -> str:
    """The measured growth: exponent of a power law in dice (log-log slope), base of an exponential
    in units (slope of log(time) against units: every subset of the army is considered)."""
    power = axis == "dice"
    points = [(math.log(float(r["size"])) if power else float(r["size"]), math.log(float(r[column]))) for r in rows
              if r["axis"] == axis and column in r and float(r[column]) > 0 and float(r["size"]) >= (20 if power else 4)]
    if max(math.exp(y) for _, y in points) < 5:
        return "too fast to tell (fixed costs dominate below 5 ms)"
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sum((x - mx) ** 2 for x, _ in points)
    return f"time ~ {axis}^{slope:.2f}" if power else f"time ~ {math.exp(slope):.2f}^{axis}"


def write(out: Path, lines: list[Line], rows: list[dict[str, object]]) -> None:
    """results.csv, scaling.csv and scaling.html under `out`."""
    out.mkdir(parents=True, exist_ok=True)
    with (out / "results.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["problem", "ours_ms", "peers", "ratio", "target", "verdict", "exact"])
        for ln in lines:
            peers = "; ".join(f"{k}: {v}" for k, v in ln.peers.items())
            writer.writerow([ln.problem, f"{ln.ours_ms:.3f}", peers, ln.ratio, ln.target,
                             "PASS" if ln.passed else "FAIL", ln.agree])
    columns = list(dict.fromkeys(k for r in rows for k in r))
    with (out / "scaling.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, columns)
        writer.writeheader()
        writer.writerows(rows)
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    figure = make_subplots(rows=1, cols=2, subplot_titles=("time against dice (log-log)", "time against units"))
    for column in columns[2:]:
        for col, axis in ((1, "dice"), (2, "units")):
            points = [(r["size"], r[column]) for r in rows if r["axis"] == axis and column in r]
            if points:
                figure.add_trace(go.Scatter(x=[p[0] for p in points], y=[p[1] for p in points], name=column,
                                            mode="lines+markers"), row=1, col=col)
    figure.update_xaxes(type="log", title="dice", row=1, col=1)
    figure.update_yaxes(type="log", title="ms", row=1, col=1)
    figure.update_xaxes(title="units", row=1, col=2)
    figure.update_yaxes(type="log", title="ms", row=1, col=2)
    figure.update_layout(title="Exact engine: scaling (medians, cold)", height=480)
    figure.write_html(out / "scaling.html", include_plotlyjs="cdn")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs, slowest peers skipped (< 60 s)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--out", default=str(ROOT / "build" / "bench"), help="directory for the CSV and HTML")
    args = parser.parse_args(argv)
    runs = 5 if args.quick else 15
    started = time.perf_counter()
    lines = [
        peer_problem(10, 0, runs, 1, dyce=True),
        peer_problem(10, 2, runs, 1, dyce=True),
        peer_problem(40, 5, runs, 10, dyce=not args.quick),
        battle_problem(6, 3, 6, 5, runs * 3),
        battle_problem(13, 5, 12, 50, runs),
        aq_problem(5, 5 if args.quick else 9),
        sweep_problem(2, 3 if args.quick else 5),
        import_problem(0.3, 5 if args.quick else 9),
    ]
    rows = scaling(args.quick)
    print(f"{'problem':64} {'ours':>10}  {'ratio':>20}  {'target':>16}  verdict  peers")
    for ln in lines:
        peers = "; ".join(f"{k}: {v}" for k, v in ln.peers.items())
        print(f"{ln.problem:64} {fmt(ln.ours_ms):>10}  {ln.ratio:>20}  {ln.target:>16}  "
              f"{'PASS' if ln.passed else 'FAIL':7}  {peers}{'  [' + ln.agree + ']' if ln.agree else ''}")
    print("\nscaling (ms, medians, cold):")
    columns = list(dict.fromkeys(k for r in rows for k in r))
    for axis in ("dice", "units"):
        used = [c for c in columns[2:] if any(r["axis"] == axis and c in r for r in rows)]
        print(f"  {axis:>6}  " + "  ".join(f"{c:>38}" for c in used))
        for r in (r for r in rows if r["axis"] == axis):
            print(f"  {r['size']:>6}  " + "  ".join(f"{r[c]:>38.2f}" if c in r else f"{'':>38}" for c in used))
        for c in used:
            if sum(1 for r in rows if r["axis"] == axis and c in r and float(r["size"]) >= (20 if axis == "dice" else 4)) >= 3:
                print(f"  growth of {c}: {growth(rows, axis, c)}")
    write(Path(args.out), lines, rows)
    failed = [ln.problem for ln in lines if not ln.passed or ln.agree == "DIFFERENT"]
    print(f"\n{len(lines) - len(failed)}/{len(lines)} targets met in {time.perf_counter() - started:.0f} s; "
          f"CSV and chart in {args.out}")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
