"""Page-open to first chart, as a user of `make run` sees it, with and without a 4x CPU throttle.

Starts ``scripts/serve.py`` (the server `make run` starts), opens the app in headless Chromium
several times one after another (a fresh page each time, closed after), and prints the median
time from navigation to the first chart drawn and to all four battle charts drawn, plus the
websocket bytes a page received. Figures, not pass/fail; the issue's targets are printed beside.

Usage: ``python benchmarks/bench_startup.py [--loads 10] [--throttled-loads 5] [--gap 8]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]
FIRST = "document.querySelectorAll('.explorer-chart[data-state=drawn]').length >= 1"
ALL_FOUR = "document.querySelectorAll('.explorer-charts .explorer-chart[data-state=drawn]').length >= 4"


def start_server(port: int) -> tuple[subprocess.Popen[str], str]:
    """The app's server on `port`, and the address (with its token) it prints."""
    process = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "serve.py"), "--port", str(port)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"http://127\.0\.0\.1:\d+/\S*", line)
        if found:
            url = found.group(0)
            break
    else:
        raise SystemExit("the server printed no address")
    for _ in range(120):
        try:
            urllib.request.urlopen(url.split("?")[0] + "voila/static/", timeout=2)
            break
        except OSError as error:
            if getattr(error, "code", None):
                break
            time.sleep(0.5)
    return process, url


def one_load(browser: object, url: str, throttle: float) -> tuple[float, float, int]:
    """Seconds to the first chart, to all four battle charts, and websocket bytes received."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    received = [0]
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.__setitem__(0, received[0] + len(f))))
    if throttle > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(FIRST, timeout=180_000, polling=50)
    first = time.perf_counter() - start
    page.wait_for_function(ALL_FOUR, timeout=180_000, polling=50)
    every = time.perf_counter() - start
    page.goto("about:blank")
    page.close()
    return first, every, received[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--throttled-loads", type=int, default=5)
    parser.add_argument("--gap", type=float, default=8.0, help="seconds between loads (a warm kernel refills)")
    parser.add_argument("--port", type=int, default=8871)
    args = parser.parse_args()
    server, url = start_server(args.port)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for label, count, throttle, target in (("unthrottled", args.loads, 1.0, 5.0),
                                                   ("CPU throttled 4x", args.throttled_loads, 4.0, 15.0)):
                rows = []
                for _ in range(count):
                    time.sleep(args.gap)
                    rows.append(one_load(browser, url, throttle))
                firsts, alls, sizes = zip(*rows)
                print(f"{label:17s} first chart median {statistics.median(firsts):5.2f} s "
                      f"(min {min(firsts):.2f}, max {max(firsts):.2f}; target <= {target:.0f} s) · "
                      f"all four battle charts {statistics.median(alls):5.2f} s · "
                      f"websocket {max(sizes) / 1e6:.2f} MB per page at most", flush=True)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
