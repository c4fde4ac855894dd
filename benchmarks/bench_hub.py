"""A class on its own JupyterHub beside ``make run --room N`` and the static site: 1, 5 and 10 people at once.

For each way of serving a room and each room size N, N people open the app at the same moment,
each in their own headless Chromium context; once all show their charts, all click *Add unit*
(attacker) at the same moment. Measured, per way and room:

- **server start**: the hub (``make hub``, `tests.browser.hub.running_hub`): from sending the login
  form to the hub sending the browser on to the person's own server (it had started); ``make run
  --room N`` (`bench_server.Server` with ``--warm N --max-sessions 2N+4``, started anew for each
  N): from starting the server to its answering, and to its N warm kernels having run the app
  (the machine quiet again); the static site (``python -m http.server``, as ``make serve-site``):
  to its answering;
- **first chart**: from asking (the login form sent; the page asked for) to the page's first chart
  drawn, in the page's own clock; median and slowest;
- **click to chart**: from the click to the battle's four charts redrawn; median and slowest;
- **memory per person**, on the server: the hub, the unique memory (USS) of each person's server and
  kernel, their resident memory (RSS) and the kernel's USS alone; ``make run``, the page kernel's USS (its kernels are
  made before the room comes, `bench_room.memory`) and the server's RSS growth over the room;
  the site, the file server's RSS growth (the Python runs in each browser);
- the CPU time each person cost the server, to the charts.

The hub's and ``make run``'s rooms are those of `tests.browser.hub.room` and `bench_room.room`
(the test's and ``make bench-room``'s code); the site's is `bench_room.room` against the file
server. Every process started is stopped after each way. The browsers share the machine's CPUs
with the servers, so every figure is on the pessimistic side for a room of laptops.

Usage: ``python benchmarks/bench_hub.py [--rooms 1 5 10] [--ways hub room site] [--site build/site]``;
prints a table and writes ``build/bench/hub.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "benchmarks"))

import bench_room  # noqa: E402
from bench_server import Server  # noqa: E402

from tests.browser.hub import Hub, running_hub  # noqa: E402
from tests.browser.hub import room as hub_room  # noqa: E402
from tests.browser.support import CHROMIUM_ARGS, stop_server  # noqa: E402
from tests.browser.test_site import APP_PATH as SITE_APP_PATH  # noqa: E402
from tests.browser.test_site import serve_static  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
OUT = ROOT / "build" / "bench"
WAYS = ("hub", "room", "site")


def spread(values: list[float]) -> dict[str, Any]:
    """Median, slowest and every value (seconds), or NaNs when there is none."""
    ordered = sorted(values) or [float("nan")]
    return {"median": round(statistics.median(ordered), 2), "slowest": round(ordered[-1], 2),
            "all": [round(v, 2) for v in ordered]}


def uss_rss(processes: list[psutil.Process]) -> tuple[float, float]:
    """The summed unique and resident memory of `processes`, MB."""
    uss = rss = 0
    for process in processes:
        with contextlib.suppress(psutil.Error):
            info = process.memory_full_info()
            uss += info.uss
            rss += info.rss
    return uss / 2**20, rss / 2**20


def is_kernel(process: psutil.Process) -> bool:
    """Whether `process` is a Python kernel (`bench_room.memory`'s test)."""
    with contextlib.suppress(psutil.Error):
        return "ipykernel_launcher" in " ".join(process.cmdline())
    return False


# ----------------------------------------------------------------------------- the hub
async def hub_rooms(hub: Hub, rooms: list[int], timeout_s: float) -> list[dict[str, Any]]:
    """Each room of new people on the running hub; their servers stopped before the next room."""
    from playwright.async_api import async_playwright

    results = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for size in rooms:
            names = [f"room{size}-person{i}" for i in range(1, size + 1)]
            bench_room_quiet(hub)
            hub_mb = uss_rss(hub.tree())
            cpu_before = bench_room.cpu_seconds(hub.tree())
            memory: dict[str, Any] = {}

            async def measure() -> None:
                memory["cpu_s"] = bench_room.cpu_seconds(hub.tree()) - cpu_before
                await asyncio.sleep(2.0)  # the kernels go quiet after drawing
                people = [hub.person_processes(name) for name in names]
                each = [uss_rss(processes) for processes in people]
                memory["uss"] = [u for u, _ in each]
                memory["rss"] = [r for _, r in each]
                memory["kernel_uss"] = [uss_rss([p for p in processes if is_kernel(p)])[0] for processes in people]
                memory["total_rss"] = uss_rss(hub.tree())[1]

            visits = await hub_room(browser, hub, names, timeout_s, between=measure)
            for _, page, context in visits:
                await page.close()
                await context.close()
            done = [v for v, _, _ in visits]
            result = {
                "way": "hub", "people": size, "failed": [f"{v.name}: {v.failed}" for v in done if v.failed],
                "server_start_s": spread([v.server_start_s for v in done if v.server_start_s is not None]),
                "first_chart_s": spread([v.first_chart_s for v in done if v.first_chart_s is not None]),
                "click_to_chart_s": spread([v.click_to_chart_s for v in done if v.click_to_chart_s is not None]),
                "memory_mb": {"per_person_uss": round(statistics.median(memory["uss"]), 1),
                              "per_person_rss": round(statistics.median(memory["rss"]), 1),
                              "kernel_uss": round(statistics.median(memory["kernel_uss"]), 1),
                              "hub_and_proxy_rss_before": round(hub_mb[1], 1),
                              "all_rss_with_the_room": round(memory["total_rss"], 1)},
                "cpu_s_per_person_to_charts": round(memory["cpu_s"] / size, 2),
            }
            results.append(result)
            print(line(result), flush=True)
            stop_servers(hub, names)
        await browser.close()
    return results


def bench_room_quiet(hub: Hub, timeout_s: float = 90.0) -> None:
    """Wait until the hub and what runs under it use under a tenth of a CPU (`bench_room.quiet`'s rule)."""
    class Tree:
        def processes(self) -> list[psutil.Process]:
            return hub.tree()
    bench_room.quiet(Tree(), timeout_s)  # type: ignore[arg-type]


def stop_servers(hub: Hub, names: list[str], timeout_s: float = 120.0) -> None:
    """Stop the people's servers through the REST API; wait until their processes are gone."""
    for name in names:
        with contextlib.suppress(Exception):
            hub.api("DELETE", f"users/{name}/server")
    deadline = time.monotonic() + timeout_s
    while any(hub.person_processes(name) for name in names) and time.monotonic() < deadline:
        time.sleep(1.0)


def run_hub(rooms: list[int], timeout_s: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="bench-hub-") as tmp:
        began = time.monotonic()
        with running_hub(Path(tmp) / "hub", OUT / "bench-hub.log", timeout_s=120) as hub:
            hub_start = time.monotonic() - began
            results = asyncio.run(hub_rooms(hub, rooms, timeout_s))
        left = hub.left_behind
    print(f"hub: started (installed already) and answering in {hub_start:.1f} s"
          + (f"; LEFT BEHIND when stopped: {left}" if left else "; every process stopped with it"), flush=True)
    return {"hub_start_s": round(hub_start, 2), "left_behind": left, "rooms": results}


# ----------------------------------------------------------------------------- make run --room N, the site
class Files:
    """The static site's file server, as `bench_room.room` sees a server."""

    def __init__(self, site: Any) -> None:
        self.site = site
        self.url = site.url(SITE_APP_PATH)

    def processes(self) -> list[psutil.Process]:
        with contextlib.suppress(psutil.Error):
            return [psutil.Process(self.site.process.pid)]
        return []


def from_bench_room(way: str, result: dict[str, Any], start: dict[str, float]) -> dict[str, Any]:
    """`bench_room.room`'s result in this benchmark's terms."""
    memory = result["memory_mb"]
    return {
        "way": way, "people": result["people"], "failed": result["failed"], "server_start_s": start,
        "first_chart_s": {k: round(v, 2) if isinstance(v, float) else v for k, v in result["first_chart_s"].items()},
        "click_to_chart_s": {k: round(v, 2) if isinstance(v, float) else v
                             for k, v in result["click_to_chart_s"].items()},
        "memory_mb": {"per_person_uss": None if memory["kernel_uss_median"] is None
                      else round(memory["kernel_uss_median"], 1),
                      "server_growth_per_person": round(memory["per_person"], 1),
                      "all_rss_with_the_room": round(memory["server_and_kernels"], 1)},
        "cpu_s_per_person_to_charts": round(result["cpu_s_per_person_to_charts"]["server_and_kernels"], 2),
    }


async def one_room(server: Any, size: int, timeout_s: float) -> dict[str, Any]:
    """`bench_room.room` for one room size, in a browser of its own."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            baseline, _ = bench_room.memory(server)
            return await bench_room.room(browser, server, size, baseline, timeout_s)
        finally:
            await browser.close()


def run_room(rooms: list[int], timeout_s: float) -> dict[str, Any]:
    """``make run --room N``: a new server for each N (``--warm N --max-sessions 2N+4``)."""
    results = []
    for size in rooms:
        server = Server(size, 2 * size + 4)
        began = time.monotonic()
        try:
            server.start()
            answers = time.monotonic() - began
            server.settle(quiet_s=0.0)
            bench_room.quiet(server)
            start = {"answers": round(answers, 2), "warm_kernels_ready": round(time.monotonic() - began, 2)}
            result = from_bench_room("room", asyncio.run(one_room(server, size, timeout_s)), start)
        finally:
            server.stop()
        results.append(result)
        print(line(result), flush=True)
    return {"rooms": results}


def run_site(site_root: Path, rooms: list[int], timeout_s: float) -> dict[str, Any]:
    """The static site: one file server, each room in turn."""
    began = time.monotonic()
    site = serve_static(site_root, OUT / "bench-hub-site.log")
    start = {"answers": round(time.monotonic() - began, 2)}
    results = []
    try:
        for size in rooms:
            result = from_bench_room("site", asyncio.run(one_room(Files(site), size, timeout_s)), start)
            results.append(result)
            print(line(result), flush=True)
    finally:
        stop_server(site.process)
    return {"rooms": results}


# ----------------------------------------------------------------------------- the report
LABELS = {"hub": "JupyterHub (make hub)", "room": "make run --room N", "site": "static site"}


def start_text(result: dict[str, Any]) -> str:
    start = result["server_start_s"]
    if result["way"] == "hub":
        return f"{start['median']:.1f} s / {start['slowest']:.1f} s (each person's)"
    if "warm_kernels_ready" in start:
        return f"{start['answers']:.1f} s, ready {start['warm_kernels_ready']:.0f} s"
    return f"{start['answers']:.1f} s"


def memory_text(result: dict[str, Any]) -> str:
    memory = result["memory_mb"]
    if result["way"] == "hub":
        return (f"{memory['per_person_uss']:.0f} MB USS: server and kernel ({memory['per_person_rss']:.0f} MB RSS; "
                f"the kernel {memory['kernel_uss']:.0f} MB)")
    if result["way"] == "room":
        return f"{memory['per_person_uss']:.0f} MB USS (kernel made before)"
    return f"{memory['server_growth_per_person']:+.0f} MB (Python runs in the browser)"


def line(result: dict[str, Any]) -> str:
    """One way's room on one line."""
    first, click = result["first_chart_s"], result["click_to_chart_s"]
    failed = f"; {len(result['failed'])} FAILED: {result['failed'][0]}" if result["failed"] else ""
    return (f"{LABELS[result['way']]:22} {result['people']:2d} at once: server start {start_text(result)}; "
            f"first chart {first['median']:.1f} s / {first['slowest']:.1f} s; click to chart "
            f"{click['median']:.1f} s / {click['slowest']:.1f} s; memory per person {memory_text(result)}; "
            f"server CPU per person {result['cpu_s_per_person_to_charts']:.1f} s{failed}")


def table(report: dict[str, Any]) -> str:
    """The rooms as a Markdown table (median / slowest)."""
    rows = ["| way | people | server start | first chart | click to chart | memory per person (server) "
            "| server CPU per person | measured |", "|---|---|---|---|---|---|---|---|"]
    for way in WAYS:
        for result in report.get(way, {}).get("rooms", []):
            first, click = result["first_chart_s"], result["click_to_chart_s"]
            failed = f" ({len(result['failed'])} failed)" if result["failed"] else ""
            rows.append(f"| {LABELS[way]} | {result['people']}{failed} | {start_text(result)} | {first['median']:.1f} s / "
                        f"{first['slowest']:.1f} s | {click['median']:.1f} s / {click['slowest']:.1f} s | "
                        f"{memory_text(result)} | {result['cpu_s_per_person_to_charts']:.1f} s | "
                        f"{report[way].get('measured_at', '')} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    """Run the ways asked for, print the table, write build/bench/hub.json."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 5, 10], help="room sizes (default 1 5 10)")
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS), help="which ways (default all)")
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="the built site (make site)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds a page may take to show its charts")
    args = parser.parse_args(argv)
    if "site" in args.ways and not (args.site / SITE_APP_PATH).is_file():
        print(f"{args.site / SITE_APP_PATH} is missing: build the site first (make site)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    saved = OUT / "hub.json"
    report: dict[str, Any] = json.loads(saved.read_text()) if saved.is_file() else {}
    report["machine"] = {"cpus": psutil.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30, 1)}
    runs = {"hub": lambda: run_hub(args.rooms, args.timeout), "room": lambda: run_room(args.rooms, args.timeout),
            "site": lambda: run_site(args.site, args.rooms, args.timeout)}
    for way in args.ways:  # the ways not asked for keep their last figures (each says when it was measured)
        load = psutil.getloadavg()[0]
        report[way] = {"measured_at": time.strftime("%Y-%m-%d %H:%M"), "load_average_1m_at_start": load,
                       **runs[way]()}
    print()
    print(table(report))
    saved.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"\nmachine: {report['machine']['cpus']} CPUs, {report['machine']['memory_gb']} GB; "
          f"written to {saved}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
