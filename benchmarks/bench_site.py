"""The in-browser site on this machine: what a first visit costs, how fast it opens, a room (figures, not a test).

The built site (``make site``: ``build/site``) is served by a plain file server (``python -m
http.server``, as ``make serve-site`` serves it) and opened in headless Debian Chromium, each
measure in its own browser context; Chromium is given a proxy of its own that refuses everything
for another machine (`tests.browser.test_site.Sinkhole`), so nothing leaves. Measured:

- **a first visit's bytes**: every response the visit got (the page, its workers and service
  worker), summed as served (``http.server`` does not compress), and the same bodies gzip-compressed
  (level 6) where a static host compresses (HTML, JavaScript, CSS, JSON, WebAssembly, SVG; wheels,
  zips, fonts and images as they are);
- **first chart**: from navigation to the first chart drawn (the page's clock), on a cold cache
  (a fresh context) and on a warm one (the same context, the page opened again), unthrottled and
  with the CPU throttled 4x (``Emulation.setCPUThrottlingRate``); the requests that reached the
  server on the warm open are counted too (``http.server`` sends ``Last-Modified`` and no
  ``Cache-Control``: the browser keeps what it fetched by its own heuristic, or revalidates);
- **click to all charts redrawn**: the server test's Assault of the Giants changes
  (`tests.browser.test_app.CHANGES`), each checked equal to the engine here as in the test; the median;
- **the kernel against CPython**: an Assault of the Giants battle, the same with best play (and a
  larger one: both sides, 10 basic dice), an Arcadia Quest encounter and an A Game of Thrones round
  (``examples/``), each resolved by ``explorer.resolve`` in the page's own kernel (reached through
  the Voici page's ``window.jupyterapp``: no notebook is added to the site) and in CPython here, with numpy and
  pandas (the server's path) and without (``tests.blocked_imports``: the browser's path); median of
  a few runs, each after one untimed call, the engine's caches cleared before each;
- **a room**: 50 clients at once fetching every URL a first visit fetched (the HTML and assets: the
  computing happens in each person's browser), against the one file server: the wall time, each
  client's time, and the server process's CPU time per page (psutil).

The browser, the clients and the server share this machine's CPUs: figures on the pessimistic side.
Usage: ``python benchmarks/bench_site.py [--site build/site] [--room 50] [--repeats 3]``; prints a table
and writes ``build/bench/site.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gzip
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.support import CHROMIUM_ARGS, INIT_SCRIPT, attach, stop_server  # noqa: E402
from tests.browser.test_app import CHANGES, Load  # noqa: E402
from tests.browser.test_site import APP_PATH, PageKernel, Sinkhole, SiteDriver, StaticSite, serve_static  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
OUT = ROOT / "build" / "bench"
COMPRESSED = (".html", ".js", ".mjs", ".css", ".json", ".ipynb", ".wasm", ".svg", ".txt", ".map")
"""What a static host gzips (by the file's ending); the rest (wheels, zips, fonts, images) goes as it is."""
THROTTLE = 4

KERNEL_CODE = r'''
import functools, gc, json, statistics, sys, time
import explorer

CASES = json.loads(__CASES__)
REPEATS = __REPEATS__


def clear_caches():
    for obj in gc.get_objects():
        if isinstance(obj, functools._lru_cache_wrapper) and (getattr(obj, "__module__", "") or "").startswith("explorer"):
            obj.cache_clear()


out = {"platform": sys.platform, "python": sys.version.split()[0],
       "numpy": "numpy" in sys.modules, "cases": {}}
for name, scenario in CASES.items():
    explorer.resolve(scenario)  # imports what it needs
    runs = []
    for _ in range(REPEATS):
        clear_caches()
        start = time.perf_counter()
        explorer.resolve(scenario)
        runs.append(time.perf_counter() - start)
    out["cases"][name] = {"median_ms": round(statistics.median(runs) * 1000, 2),
                          "runs_ms": [round(r * 1000, 2) for r in runs]}
out["numpy"] = "numpy" in sys.modules
print("BENCH-JSON " + json.dumps(out))
'''
"""Times `explorer.resolve` of each case; the same text runs in the page's kernel and in CPython."""

EXECUTE_JS = r"""
async (code) => {
  // Run `code` in the Voici page's own kernel (the one the app runs in); its printed text back.
  const kernels = window.jupyterapp.serviceManager.kernels;
  if (kernels.refreshRunning) await kernels.refreshRunning();
  const models = [...kernels.running()];
  if (models.length !== 1) throw new Error('expected one running kernel, found ' + models.length);
  const kernel = kernels.connectTo({model: models[0]});
  const future = kernel.requestExecute({code, store_history: false});
  let out = '';
  future.onIOPub = (msg) => {
    const type = msg.header.msg_type;
    if (type === 'stream') out += msg.content.text;
    else if (type === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue + '\n';
  };
  await future.done;
  return out;
}
"""


def cases() -> dict[str, dict[str, Any]]:
    """The scenarios timed, from ``examples/``."""
    from explorer import lessons

    battle = lessons.example("fire-vs-hill.json")
    best = copy.deepcopy(battle)
    best["attacker"]["reroll_policy"] = "best"
    larger = copy.deepcopy(best)
    larger["defender"]["reroll_policy"] = "best"
    larger["attacker"]["pool"]["basic"] = 10
    return {"Assault of the Giants battle": battle, "Assault of the Giants, best play": best,
            "AotG, best play both sides, 10 basic dice": larger,
            "Arcadia Quest encounter": lessons.example("arcadia-encounter-guard.json"),
            "A Game of Thrones round": lessons.example("agot-round.json")}


def kernel_code(repeats: int) -> str:
    """`KERNEL_CODE` with the cases and the number of runs filled in."""
    return KERNEL_CODE.replace("__CASES__", repr(json.dumps(cases()))).replace("__REPEATS__", str(repeats))


def parse_bench(text: str) -> dict[str, Any]:
    """The ``BENCH-JSON`` line `KERNEL_CODE` prints."""
    for line in text.splitlines():
        if line.startswith("BENCH-JSON "):
            parsed: dict[str, Any] = json.loads(line.removeprefix("BENCH-JSON "))
            return parsed
    raise RuntimeError(f"no timing printed:\n{text[-3000:]}")


def cpython_times(repeats: int, without_numpy: bool) -> dict[str, Any]:
    """The kernel code in a fresh CPython here (with numpy and pandas blocked if asked)."""
    code = ("import tests.blocked_imports\n" if without_numpy else "") + kernel_code(repeats)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-3000:])
    return parse_bench(run.stdout)


# ----------------------------------------------------------------------------- the browser
@dataclass
class Visit:
    """The responses a context got from the network (url, status), in order; those its service worker made up aside."""

    responses: list[tuple[str, int]] = field(default_factory=list)
    from_service_worker: int = 0

    def record(self, response: Any) -> None:
        """The context's response handler."""
        if response.from_service_worker:
            self.from_service_worker += 1
        elif urlsplit(response.url).scheme in ("http", "https"):
            self.responses.append((response.url, response.status))


def server_hits(site: StaticSite) -> int:
    """How many requests the file server has logged so far."""
    return sum(1 for line in site.log_path.read_text(errors="replace").splitlines() if '"GET ' in line)


def open_app(page: Any, site: StaticSite, label: str) -> float:
    """Open the app in `page` with a fresh `SiteDriver`; the first chart's time (page clock, ms)."""
    load = Load(0, 1, False)
    load.log = attach(page)
    driver = SiteDriver(page, load, PageKernel(load.log, site), {}, True)
    driver.open(site.url(APP_PATH))
    if load.first_chart_ms is None:
        raise RuntimeError(f"{label}: no first chart")
    return load.first_chart_ms


def browser_figures(site: StaticSite, repeats: int) -> dict[str, Any]:
    """First visit bytes, cold and warm first chart (1x and 4x), click to redrawn, kernel times."""
    from playwright.sync_api import sync_playwright

    figures: dict[str, Any] = {"first_chart_ms": {}, "warm_requests_reaching_server": {}}
    sinkhole = Sinkhole()
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"  # the service worker's fetches, too
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=CHROMIUM_ARGS + sinkhole.chromium_args())
            try:
                for throttle in (1, THROTTLE):
                    key = "unthrottled" if throttle == 1 else f"cpu/{throttle}"
                    cold, warm, hits = [], [], []
                    for attempt in range(repeats if throttle == 1 else 1):
                        context = browser.new_context(viewport={"width": 1400, "height": 900})
                        context.add_init_script(INIT_SCRIPT)
                        visit = Visit()
                        context.on("response", visit.record)
                        page = context.new_page()
                        session = context.new_cdp_session(page)
                        session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                        cold.append(open_app(page, site, f"{key} cold"))
                        if throttle == 1 and attempt == 0:
                            figures["first_visit"] = visit.responses[:]
                            figures["first_visit_from_service_worker"] = visit.from_service_worker
                        before = server_hits(site)
                        session.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
                        warm.append(open_app(page, site, f"{key} warm"))
                        time.sleep(1)
                        hits.append(server_hits(site) - before)
                        if throttle == 1 and attempt == 0:
                            figures["clicks"] = clicks(page, site)
                            figures["kernel"] = parse_bench(page.evaluate(EXECUTE_JS, kernel_code(repeats)))
                        context.close()
                        print(f"  {key}: cold {cold[-1] / 1000:.1f} s, warm {warm[-1] / 1000:.1f} s "
                              f"({hits[-1]} requests reached the server)", flush=True)
                    figures["first_chart_ms"][key] = {"cold": cold, "warm": warm}
                    figures["warm_requests_reaching_server"][key] = hits
            finally:
                browser.close()
    finally:
        sinkhole.close()
    figures["refused_by_the_proxy"] = dict(Counter(sinkhole.hosts()))
    return figures


def clicks(page: Any, site: StaticSite) -> list[dict[str, Any]]:
    """The server test's changes in the open page, each checked against the engine; their times."""
    load = Load(0, 1, True)
    load.log = attach(page)
    driver = SiteDriver(page, load, PageKernel(load.log, site), {}, True)
    driver.view = "exactly"
    driver.battle, _ = driver.current_battle()
    for change in CHANGES:
        driver.change(change)
    return load.changes


# ----------------------------------------------------------------------------- bytes and the room
def body(url: str) -> bytes:
    """The body the file server sends for `url`."""
    with urllib.request.urlopen(url, timeout=60) as answer:
        data: bytes = answer.read()
        return data


def compressed_size(url: str, data: bytes) -> int:
    """The body's size as a static host serves it: gzip (level 6) for text and WebAssembly, else as is."""
    path = unquote(urlsplit(url).path)
    return len(gzip.compress(data, compresslevel=6)) if path.endswith(COMPRESSED) or path.endswith("/") else len(data)


def bytes_figures(responses: list[tuple[str, int]]) -> dict[str, Any]:
    """A first visit's bytes: as served and gzip-compressed, with the largest files."""
    bodies: dict[str, tuple[int, int]] = {}
    served = compressed = 0
    for url, status in responses:
        if status != 200:
            continue
        if url not in bodies:
            data = body(url)
            bodies[url] = (len(data), compressed_size(url, data))
        served += bodies[url][0]
        compressed += bodies[url][1]
    largest = sorted(bodies.items(), key=lambda item: -item[1][0])[:8]
    return {"responses": len(responses), "ok_responses": sum(1 for r in responses if r[1] == 200),
            "unique_urls": len(bodies), "bytes": served, "gzip_bytes": compressed,
            "largest": [{"path": urlsplit(u).path, "bytes": s, "gzip_bytes": g} for u, (s, g) in largest]}


def room(site: StaticSite, urls: list[str], people: int) -> dict[str, Any]:
    """`people` clients at once, each fetching every URL of a first visit; the server's CPU per page."""
    server = psutil.Process(site.process.pid)
    times: list[float] = []
    failures: list[str] = []
    received = [0]
    lock = threading.Lock()
    gate = threading.Barrier(people + 1)

    def person() -> None:
        """One first visit: every URL in turn, each body read to its end."""
        gate.wait()
        start = time.perf_counter()
        got = 0
        for url in urls:
            try:
                with urllib.request.urlopen(url, timeout=120) as answer:
                    while chunk := answer.read(1 << 16):
                        got += len(chunk)
            except OSError as error:
                with lock:
                    failures.append(f"{url}: {error}")
        with lock:
            times.append(time.perf_counter() - start)
            received[0] += got

    threads = [threading.Thread(target=person, daemon=True) for _ in range(people)]
    for thread in threads:
        thread.start()
    cpu = server.cpu_times()
    gate.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - start
    after = server.cpu_times()
    cpu_s = (after.user - cpu.user) + (after.system - cpu.system)
    return {"people": people, "requests_per_person": len(urls), "wall_s": round(wall, 2),
            "per_person_s": {"median": round(statistics.median(times), 2), "max": round(max(times), 2)},
            "server_cpu_s": round(cpu_s, 2), "server_cpu_ms_per_page": round(cpu_s * 1000 / people, 1),
            "mb_served": round(received[0] / 1e6, 1), "failures": failures[:10], "failed": len(failures)}


# ----------------------------------------------------------------------------- the report
def _s(ms: float | None) -> str:
    """Milliseconds as seconds for the table."""
    return "n/a" if ms is None else f"{ms / 1000:.1f} s"


def table(report: dict[str, Any]) -> str:
    """The figures as lines of text."""
    b, f, r = report["first_visit"], report["first_chart_ms"], report["room"]
    lines = [f"{'measure':60} figure", "-" * 100,
             f"{'first visit: responses (unique URLs)':60} {b['responses']} ({b['unique_urls']})",
             f"{'first visit: bytes as served (no compression)':60} {b['bytes'] / 1e6:.1f} MB",
             f"{'first visit: bytes gzip-compressed as a host would':60} {b['gzip_bytes'] / 1e6:.1f} MB"]
    for key, runs in f.items():
        hits = report["warm_requests_reaching_server"][key]
        lines.append(f"{'first chart, cold cache, ' + key:60} "
                     + ", ".join(_s(v) for v in runs["cold"]) + f"  (median {_s(statistics.median(runs['cold']))})")
        lines.append(f"{'first chart, warm cache (same context), ' + key:60} "
                     + ", ".join(_s(v) for v in runs["warm"]) + f"  ({max(hits)} requests reached the server)")
    c = report["click_to_redrawn_ms"]
    lines.append(f"{'click to all charts redrawn (median / max)':60} {c['median']} ms / {c['max']} ms over {c['changes']}")
    for name, kernel in report["kernel"]["cases"].items():
        cp, bare = report["cpython"]["cases"][name], report["cpython_without_numpy"]["cases"][name]
        lines.append(f"{name + ' (browser / CPython / CPython no numpy)':60} {kernel['median_ms']} ms / "
                     f"{cp['median_ms']} ms / {bare['median_ms']} ms  (x{kernel['median_ms'] / max(bare['median_ms'], 1e-3):.1f})")
    lines.append(f"{'room: ' + str(r['people']) + ' first visits at once, wall time':60} {r['wall_s']} s "
                 f"(per person median {r['per_person_s']['median']} s, max {r['per_person_s']['max']} s; "
                 f"{r['failed']} failed)")
    lines.append(f"{'room: the file server CPU time per page':60} {r['server_cpu_ms_per_page']} ms "
                 f"({r['server_cpu_s']} s for {r['mb_served']} MB)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Serve the site, measure, print the table, write ``build/bench/site.json``."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "build" / "site", help="the built site (make site)")
    parser.add_argument("--room", type=int, default=50, help="clients fetching a first visit at once")
    parser.add_argument("--repeats", type=int, default=3, help="unthrottled loads; runs per kernel timing")
    args = parser.parse_args(argv)
    if not (args.site / APP_PATH).is_file():
        print(f"{args.site / APP_PATH} is missing: build the site first (make site)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    site = serve_static(args.site, OUT / "site-server.log")
    try:
        print(f"serving {args.site} at {site.origin}; the browser ...", flush=True)
        figures = browser_figures(site, args.repeats)
        visit = figures.pop("first_visit")
        print("bytes of the first visit ...", flush=True)
        report: dict[str, Any] = {"site": str(args.site), "first_visit": bytes_figures(visit)}
        report["first_visit"]["answered_by_the_service_worker"] = figures.pop("first_visit_from_service_worker")
        report["first_chart_ms"] = figures["first_chart_ms"]
        report["warm_requests_reaching_server"] = figures["warm_requests_reaching_server"]
        times = [c["click_to_redrawn_ms"] for c in figures["clicks"] if c["click_to_redrawn_ms"] is not None]
        report["click_to_redrawn_ms"] = {"median": round(statistics.median(times), 1), "max": max(times),
                                         "changes": len(times), "each": figures["clicks"]}
        report["kernel"] = figures["kernel"]
        print("CPython ...", flush=True)
        report["cpython"] = cpython_times(args.repeats, without_numpy=False)
        report["cpython_without_numpy"] = cpython_times(args.repeats, without_numpy=True)
        print(f"a room of {args.room} ...", flush=True)
        urls = [url for url, status in visit if status == 200]
        report["room"] = room(site, urls, args.room)
        report["refused_by_the_proxy"] = figures["refused_by_the_proxy"]
        report["machine"] = {"cpus": os.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30, 1)}
    finally:
        with contextlib.suppress(Exception):
            stop_server(site.process)
    print()
    print(table(report))
    (OUT / "site.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nmachine: {report['machine']['cpus']} CPUs; written to {OUT / 'site.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
