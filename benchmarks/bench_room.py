"""A room full of users: 1, 5 and 10 people open the app at once on one `make run` server.

Starts ``scripts/serve.py`` (the server ``make run`` starts) as docs/serving.md says to serve a room:
``--warm 10 --max-sessions 24`` (what ``--room 10`` sets), ten kernels kept ready with the app already built (``--warm 1``,
the default of ``make run``, measures one person's laptop instead). Then for each room size N it
opens N pages at the same moment in headless Chromium, each in its own browser context (nothing
shared, like N people), and measures:

- **first chart**: from asking for the page to the first chart drawn, per person (the moment the
  page drew it, recorded in the page: `RECORDER`);
- **click to chart**: once every page shows its charts, everyone clicks "Add unit" (attacker) at
  the same moment; the time until that page's four battle charts are redrawn;
- **memory**: each page's kernel alone (its unique memory, USS: what a person costs, since warm
  kernels are made before anyone arrives); and the server and its kernels (resident memory
  summed) with the N pages open, minus the same before the room came, divided by N.

Then every page is left and the server is given time to free their kernels before the next
room. Figures, not pass/fail; the issue's targets are printed beside (first chart <= 5 s for
one person, <= 20 s for the tenth). The browsers run on the same machine as the server here,
so they take CPU a real room's laptops would not: the figures are on the pessimistic side.

The CPU time each person cost, to the charts, is printed too: the server's (its process and the
page's kernel) and the browser's. The server's share is what a room of laptops would put on the
machine; the browser's is what this benchmark adds by running every page here.

Usage: ``python benchmarks/bench_room.py [--rooms 1 5 10] [--warm 10] [--max-sessions 24]``; writes
``build/bench/room.json`` (``room-warmN.json`` for another ``--warm``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import CHROMIUM, CHROMIUM_ARGS, ROOT, Server  # noqa: E402

RECORDER = """
window.__room = {firstDrawn: null};
new MutationObserver((changes) => {
  for (const change of changes) {
    const el = change.target;
    if (el.dataset && el.dataset.state === 'drawn') {
      el.__drawnAt = performance.timeOrigin + performance.now();
      if (window.__room.firstDrawn === null) window.__room.firstDrawn = el.__drawnAt;
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state', 'data-revision']});
"""
"""Put in every page before it loads: the moment (epoch ms) each chart is drawn, kept on the chart's
element, and the first chart's. The page's clock times the drawing, not the benchmark's polling,
which can then be slow (POLL_MS) and take next to no CPU from the ten pages it watches."""
POLL_MS = 250
FIRST_CHART = "window.__room && window.__room.firstDrawn !== null"
BATTLE_CHARTS = ".aotg-panel .explorer-charts .explorer-chart"
ALL_FOUR = f"document.querySelectorAll('{BATTLE_CHARTS}[data-state=drawn]').length >= 4"
REVISIONS = f"() => [...document.querySelectorAll('{BATTLE_CHARTS}')].slice(0, 4).map((el) => Number(el.dataset.revision))"
"""The four battle charts' revisions (the first four: other tabs hold charts of their own)."""
REDRAWN = (f"(before) => {{ const els = [...document.querySelectorAll('{BATTLE_CHARTS}')].slice(0, 4);"
           " return els.length === before.length && els.every((el, i) => el.dataset.state === 'drawn'"
           " && Number(el.dataset.revision) > before[i]); }")
DRAWN_AT = f"() => [...document.querySelectorAll('{BATTLE_CHARTS}')].slice(0, 4).map((el) => el.__drawnAt || 0)"
"""When (epoch ms) each of the four battle charts was last drawn (`RECORDER`)."""
TARGETS = {1: 5.0, 10: 20.0}
"""The issue's first-chart targets (seconds) by room size: the one person, the tenth."""


def memory(server: Server) -> tuple[float, list[float]]:
    """The server's and its children's summed RSS (MB), and each page kernel's USS (MB)."""
    total, kernels = 0, []
    for process in server.processes():
        try:
            total += process.memory_info().rss
            if "ipykernel_launcher" in " ".join(process.cmdline()):
                kernels.append(process.memory_full_info().uss / 2**20)
        except psutil.NoSuchProcess:
            continue
    return total / 2**20, kernels


def cpu_seconds(processes: list[psutil.Process]) -> float:
    """User + system CPU time of `processes` (and of their children that ended), in seconds."""
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
        except psutil.NoSuchProcess:
            continue
    return total


def browser_processes() -> list[psutil.Process]:
    """Chromium's processes (children of this benchmark)."""
    return [p for p in psutil.Process().children(recursive=True) if "chrom" in p.name().lower()]


def quiet(server: Server, timeout_s: float = 90.0) -> None:
    """Wait until the server and its kernels use under a tenth of a CPU (the warm kernel has run the app)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        processes = server.processes()
        for process in processes:
            try:
                process.cpu_percent(None)
            except psutil.NoSuchProcess:
                pass
        time.sleep(2.0)
        busy = 0.0
        for process in processes:
            try:
                busy += process.cpu_percent(None)
            except psutil.NoSuchProcess:
                pass
        if busy < 10.0:
            return


async def one_person(browser: Any, url: str, start: asyncio.Event, click: asyncio.Event,
                     ready: asyncio.Semaphore, timeout_s: float) -> dict[str, Any]:
    """Open the app when `start` is set; click when `click` is set; the page's timings (or why not)."""
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    await context.add_init_script(RECORDER)
    page = await context.new_page()
    person: dict[str, Any] = {"page": page, "context": context}
    await start.wait()
    began = time.time() * 1000  # epoch ms, the clock RECORDER's times are on
    try:
        await page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        await page.wait_for_function(FIRST_CHART, timeout=timeout_s * 1000, polling=POLL_MS)
        await page.wait_for_function(ALL_FOUR, timeout=timeout_s * 1000, polling=POLL_MS)
        person["first_chart_s"] = (await page.evaluate("window.__room.firstDrawn") - began) / 1000
        person["all_four_s"] = (max(await page.evaluate(DRAWN_AT)) - began) / 1000
    except Exception as error:  # noqa: BLE001 - a page that never showed its charts is a result too
        person["failed"] = f"no charts after {(time.time() * 1000 - began) / 1000:.0f} s ({type(error).__name__}): " + (
            (await page.inner_text("body"))[:200].replace("\n", " ") if not page.is_closed() else "")
        ready.release()
        return person
    ready.release()
    await click.wait()
    try:
        before = await page.evaluate(REVISIONS)
        clicked = time.time() * 1000
        await page.locator("button.aotg-add-unit.aotg-attacker").click()
        await page.wait_for_function(REDRAWN, arg=before, timeout=timeout_s * 1000, polling=POLL_MS)
        person["click_to_chart_s"] = (max(await page.evaluate(DRAWN_AT)) - clicked) / 1000
    except Exception as error:  # noqa: BLE001
        person["failed"] = f"no redraw after the click ({type(error).__name__})"
    return person


async def room(browser: Any, server: Server, size: int, baseline_mb: float, timeout_s: float) -> dict[str, Any]:
    """N people at once: their timings and the memory with their pages open."""
    start, click, ready = asyncio.Event(), asyncio.Event(), asyncio.Semaphore(0)
    tasks = [asyncio.create_task(one_person(browser, server.url, start, click, ready, timeout_s)) for _ in range(size)]
    await asyncio.sleep(1.0)
    server_cpu, browser_cpu = cpu_seconds(server.processes()), cpu_seconds(browser_processes())
    start.set()
    for _ in range(size):
        await ready.acquire()
    server_cpu = cpu_seconds(server.processes()) - server_cpu
    browser_cpu = cpu_seconds(browser_processes()) - browser_cpu
    await asyncio.sleep(2.0)  # let the kernels go quiet before measuring them
    open_mb, kernels = memory(server)
    click.set()
    people = await asyncio.gather(*tasks)
    for person in people:
        await person.pop("page").close(run_before_unload=True)
        await person.pop("context").close()
    failed = [p["failed"] for p in people if "failed" in p]
    firsts = sorted(p["first_chart_s"] for p in people if "first_chart_s" in p) or [float("nan")]
    clicks = sorted(p["click_to_chart_s"] for p in people if "click_to_chart_s" in p) or [float("nan")]
    page_kernels = sorted(kernels)[-size:] if kernels else []
    return {
        "people": size,
        "failed": failed,
        "first_chart_s": {"median": statistics.median(firsts), "slowest": firsts[-1], "all": firsts},
        "click_to_chart_s": {"median": statistics.median(clicks), "slowest": clicks[-1], "all": clicks},
        "cpu_s_per_person_to_charts": {"server_and_kernels": server_cpu / size, "browser": browser_cpu / size},
        "memory_mb": {"server_and_kernels": open_mb, "baseline": baseline_mb,
                      "per_person": (open_mb - baseline_mb) / size,
                      "kernel_uss_median": statistics.median(page_kernels) if page_kernels else None},
    }


async def run(rooms: list[int], server: Server, timeout_s: float) -> list[dict[str, Any]]:
    from playwright.async_api import async_playwright

    results = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for size in rooms:
            server.settle()
            quiet(server)
            baseline_mb, _ = memory(server)
            result = await room(browser, server, size, baseline_mb, timeout_s)
            results.append(result)
            print(line(result), flush=True)
        await browser.close()
    return results


def line(result: dict[str, Any]) -> str:
    """One room's figures on one line, with the target where there is one."""
    size, first, click, mem = result["people"], result["first_chart_s"], result["click_to_chart_s"], result["memory_mb"]
    target = TARGETS.get(size)
    met = first["slowest"] <= target if target is not None and not result["failed"] else False
    verdict = "" if target is None else f" (target <= {target:.0f} s: {'met' if met else 'MISSED'})"
    if result["failed"]:
        verdict += f"; {len(result['failed'])} of {size} FAILED: {result['failed'][0]}"
    return (f"{size:2d} at once: first chart median {first['median']:5.1f} s, slowest {first['slowest']:5.1f} s{verdict}; "
            f"click to chart median {click['median']:4.1f} s, slowest {click['slowest']:4.1f} s; "
            f"memory per person: the page's kernel {mem['kernel_uss_median'] or 0:.0f} MB USS (server + kernels "
            f"{mem['server_and_kernels']:.0f} MB, {mem['per_person']:+.0f} MB a person over the room's start, warm "
            f"kernels made before); CPU to the charts per person: server "
            f"{result['cpu_s_per_person_to_charts']['server_and_kernels']:.1f} s, browser "
            f"{result['cpu_s_per_person_to_charts']['browser']:.1f} s")


def main(argv: list[str] | None = None) -> None:
    """Run the rooms and print one line each; write build/bench/room.json."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 5, 10], help="room sizes (default 1 5 10)")
    parser.add_argument("--max-sessions", type=int, default=24, help="scripts/serve.py --max-sessions (default 24)")
    parser.add_argument("--warm", type=int, default=10,
                        help="scripts/serve.py --warm (default 10, docs/serving.md's advice for a room; make run's is 1)")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a page may take to show its charts")
    args = parser.parse_args(argv)
    if max(args.rooms) > args.max_sessions:
        raise SystemExit(f"error: --max-sessions {args.max_sessions} leaves no place for {max(args.rooms)} people")
    server = Server(args.warm, args.max_sessions)
    try:
        server.start()
        results = asyncio.run(run(args.rooms, server, args.timeout))
    finally:
        server.stop()
    out = ROOT / "build" / "bench"
    out.mkdir(parents=True, exist_ok=True)
    machine = {"cpus": psutil.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
               "load_average_1m": psutil.getloadavg()[0]}
    settings = {"warm": args.warm, "max_sessions": args.max_sessions}
    name = "room.json" if args.warm == 10 else f"room-warm{args.warm}.json"
    (out / name).write_text(json.dumps({"machine": machine, "server": settings, "rooms": results}, indent=1))
    print(f"machine: {machine['cpus']} CPUs, {machine['memory_gb']} GB; written to {out / name}")


if __name__ == "__main__":
    main()
