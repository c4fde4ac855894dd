"""The server behind ``make run`` over many page views: open time and memory (figures, not a test).

Starts ``scripts/serve.py`` on a free port, then opens the explorer in headless Chromium and
leaves it (``beforeunload`` runs, as when a person closes the tab), VIEWS times one after another.
Prints, per view, the time from asking for the page to the first ``.explorer-app`` on screen and
to the first chart drawn; then the memory of the server and its children (kernels; RSS summed,
so pages shared between processes count more than once) at start, after the last view, and the
difference. Target: back within 200 MB of the start.

``--compare`` starts two servers, one without a warm kernel (``--warm 0``) and one with
(``--warm 1``), and alternates the views between them, so both see the same machine load.

Run with ``.venv/bin/python benchmarks/bench_server.py [--views 30] [--warm 1] [--pause 0]
[--compare]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TOKEN = "bench-token-0123456789"
TARGET_MB = 200.0
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
CHART_DRAWN = "() => [...document.querySelectorAll('.js-plotly-plot')].some((g) => (g.data || []).length > 0)"


def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate: Callable[[], Any], timeout: float, what: str) -> None:
    """Poll `predicate` every 0.25 s; stop with a message naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"error: {what} not within {timeout:.0f} s")
        time.sleep(0.25)


@dataclass
class Server:
    """A `scripts/serve.py` run by the benchmark, and what its views measured."""

    warm: int
    max_sessions: int
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    opened: list[float] = field(default_factory=list)
    charted: list[float] = field(default_factory=list)
    start_mb: float = 0.0
    peak_mb: float = 0.0

    @property
    def url(self) -> str:
        """The address to open, token included."""
        return f"http://127.0.0.1:{self.port}/?token={TOKEN}"

    def processes(self) -> list[psutil.Process]:
        """The server and every process under it."""
        try:
            root = psutil.Process(self.process.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def rss_mb(self) -> float:
        """The summed resident memory of the server and its children, in MB."""
        total = 0
        for process in self.processes():
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total / 2**20

    def kernel_lines(self) -> list[str]:
        """The command lines (joined) of the server's kernel processes."""
        lines = []
        for process in self.processes()[1:]:
            try:
                line = " ".join(process.cmdline())
            except psutil.NoSuchProcess:
                continue
            if "ipykernel_launcher" in line:
                lines.append(line)
        return lines

    def start(self) -> None:
        """Start the server; return once it answers and its warm kernels run."""
        (ROOT / "build").mkdir(exist_ok=True)
        log_path = ROOT / "build" / f"bench-server-warm{self.warm}.log"
        command = [sys.executable, str(ROOT / "scripts" / "serve.py"), f"--port={self.port}", f"--token={TOKEN}",
                   f"--warm={self.warm}", f"--max-sessions={self.max_sessions}"]
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)

        def answers() -> bool:
            if self.process.poll() is not None:
                raise SystemExit(f"error: serve.py exited; see {log_path}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/voila/static/voila.js", timeout=2).close()
            except urllib.error.HTTPError:
                return True
            except OSError:
                return False
            return True

        wait_until(answers, 60, "the server answering")
        print(f"server: {' '.join(command[1:])}", flush=True)

    def settle(self, quiet_s: float = 5.0) -> None:
        """Wait until only the warm kernels run, then `quiet_s` more seconds."""
        warm = min(self.warm, self.max_sessions)
        wait_until(lambda: len(self.kernel_lines()) == warm, 120, f"{warm} kernel process(es)")
        time.sleep(quiet_s)

    def view(self, context: Any, number: int) -> None:
        """Open the explorer in a new tab, time it, leave it, wait until its kernel is gone."""
        page = context.new_page()
        began = time.perf_counter()
        page.goto(self.url, wait_until="commit")
        page.locator(".explorer-app").first.wait_for(state="visible", timeout=180_000)
        self.opened.append(time.perf_counter() - began)
        page.wait_for_function(CHART_DRAWN, timeout=180_000)
        self.charted.append(time.perf_counter() - began)
        self.peak_mb = max(self.peak_mb, self.rss_mb())
        kernel_id = page.evaluate(KERNEL_ID)
        page.close(run_before_unload=True)
        wait_until(lambda: not any(kernel_id in line for line in self.kernel_lines()), 60,
                   f"view {number}: the left page's kernel freed")
        print(f"  warm={self.warm} view {number:2d}: app {self.opened[-1]:5.2f} s, first chart {self.charted[-1]:5.2f} s, "
              f"{len(self.kernel_lines())} kernel(s), {self.rss_mb():7.1f} MB", flush=True)

    def report(self) -> None:
        """Print the open times and the memory before and after (after letting the server settle)."""
        self.settle()
        end_mb = self.rss_mb()
        print(f"warm={self.warm}, {len(self.opened)} views:")
        for label, times in (("page open to .explorer-app", self.opened), ("page open to first chart", self.charted)):
            print(f"  {label:<27} median {statistics.median(times):5.2f} s "
                  f"(first {times[0]:.2f}, min {min(times):.2f}, max {max(times):.2f})")
        verdict = "within" if end_mb - self.start_mb <= TARGET_MB else "OVER"
        print(f"  memory (server + kernels): start {self.start_mb:.1f} MB, peak {self.peak_mb:.1f} MB, "
              f"after {end_mb:.1f} MB: {end_mb - self.start_mb:+.1f} MB ({verdict} the {TARGET_MB:.0f} MB target)")

    def stop(self) -> None:
        """SIGTERM the server's process group (it shuts its kernels down), SIGKILL if it hangs."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


def main(argv: list[str] | None = None) -> None:
    """Run the views and print the figures."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--views", type=int, default=30, help="page views per server (default 30)")
    parser.add_argument("--warm", type=int, default=1, help="warm kernels (scripts/serve.py --warm; default 1)")
    parser.add_argument("--max-sessions", type=int, default=8)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between views (default 0)")
    parser.add_argument("--compare", action="store_true", help="alternate views between --warm 0 and --warm 1")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    servers = [Server(0, args.max_sessions), Server(1, args.max_sessions)] if args.compare \
        else [Server(args.warm, args.max_sessions)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.settle()
            server.start_mb = server.peak_mb = server.rss_mb()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            contexts = [browser.new_context() for _ in servers]  # one browser cache per server
            for number in range(1, args.views + 1):
                for server, context in zip(servers, contexts):
                    server.view(context, number)
                    time.sleep(args.pause)
            browser.close()
        for server in servers:
            server.report()
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
