"""The class hub for the tests and ``make bench-hub``: started as ``make hub`` starts it, people logging in, every process stopped.

`running_hub` runs ``scripts/hub.py`` (first ``--install-only``: ``.venv-hub`` and the npm proxy,
quick once made) with a password, a state folder of its own and an API token for the
``explorer-checks`` service, and waits until the hub answers through its proxy. While it runs,
a watcher notes every process under the hub (the proxy, the idle culler, each person's server
and its kernels; they run in sessions of their own, so no process-group signal reaches them);
on the way out the hub is sent SIGTERM (it stops the servers and the proxy itself), and any
process it left, noted by the watcher or found working in the state folder, is killed and
named in `Hub.left_behind`.

`person` is one person in their own browser context: the hub's login form, the wait for their
server and the app's first chart, then (when told) a change and the wait for its charts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

from tests.browser.support import INIT_SCRIPT, KERNEL_STARTUP, ServerLog, attach, free_port

ROOT = Path(__file__).resolve().parents[2]
HUB_SCRIPT = ROOT / "scripts" / "hub.py"
PASSWORD = "class-" + secrets.token_hex(6)
"""The shared password of the hubs started here (new at every run)."""
APP_PATH = "voila/render/notebooks/explorer.ipynb"
LESSONS_PATH = "lab/tree/notebooks/00-start-here.ipynb"
INSTALL_TIMEOUT_S = 900
"""A fresh machine downloads JupyterHub and the explorer's environment (about 150 MB) once."""

BATTLE_CHARTS = ".aotg-panel .explorer-charts .explorer-chart"
REVISIONS_JS = f"() => [...document.querySelectorAll('{BATTLE_CHARTS}')].slice(0, 4).map((el) => Number(el.dataset.revision))"
"""The Assault of the Giants battle's four charts' revisions (the first four: other tabs hold charts too)."""
REDRAWN_JS = (f"(before) => {{ const els = [...document.querySelectorAll('{BATTLE_CHARTS}')].slice(0, 4);"
              " return els.length === before.length && els.every((el, i) => el.dataset.state === 'drawn'"
              " && Number(el.dataset.revision) > before[i]); }")
ALL_FOUR_JS = f"() => document.querySelectorAll('{BATTLE_CHARTS}[data-state=drawn]').length >= 4"
FIRST_DRAWN_JS = ("() => window.__explorerTest && window.__explorerTest.firstDrawn !== null"
                  " ? performance.timeOrigin + window.__explorerTest.firstDrawn : null")
"""When (epoch ms) the page drew its first chart (`INIT_SCRIPT` records it in the page's clock), or null."""
LAST_DRAWN_JS = ("() => { const log = window.__explorerTest.log; const drawn = log.filter((e) => e[2] === 'drawn');"
                 " return drawn.length ? performance.timeOrigin + drawn[drawn.length - 1][3] : null; }")
"""When (epoch ms) a chart last said "drawn"."""
LINKS_JS = "() => [...document.querySelectorAll('nav.explorer-hub-links a')].map((a) => [a.className, a.href])"
STAND_IN_ERROR = "uncaught error in the page: MathJax is not defined"
"""Voila's page calls MathJax, which comes from a CDN; offline, that request is answered empty (as in test_binder)."""
POLL_MS = 250


# ----------------------------------------------------------------------------- the hub
@dataclass
class Hub(ServerLog):
    """A hub started by `running_hub`."""

    base: str
    """``http://127.0.0.1:PORT/``, the address people open."""
    state: Path
    api_token: str
    process: subprocess.Popen[bytes]
    log_path: Path
    seen: dict[int, float] = field(default_factory=dict)
    """Every process noted under the hub: pid -> its start time (a pid reused later is another process)."""
    left_behind: list[str] = field(default_factory=list)
    """Processes still running after the hub's own shutdown (killed then), as text."""

    def api(self, method: str, path: str, body: Any = None, timeout_s: float = 30) -> Any:
        """A call of the hub's REST API (``/hub/api/PATH``) as the ``explorer-checks`` service."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}hub/api/{path}", data=data, method=method,
                                         headers={"Authorization": f"token {self.api_token}"})
        with urllib.request.urlopen(request, timeout=timeout_s) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def tree(self) -> list[psutil.Process]:
        """The hub and every process under it now."""
        try:
            root = psutil.Process(self.process.pid)
            return [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def note(self) -> None:
        """Note the processes under the hub now (`seen`)."""
        for process in self.tree():
            with contextlib.suppress(psutil.Error):
                self.seen.setdefault(process.pid, process.create_time())

    def home(self, name: str) -> Path:
        return self.state / "users" / name

    def person_processes(self, name: str) -> list[psutil.Process]:
        """`name`'s server and its kernels: the processes under the hub working in their home."""
        home, found = str(self.home(name)), []
        for process in self.tree()[1:]:
            with contextlib.suppress(psutil.Error):
                if process.cwd() == home or process.cwd().startswith(home + os.sep):
                    found.append(process)
        return found

    def still_running(self) -> list[psutil.Process]:
        """Processes noted under the hub, or working in its state folder, that still run."""
        alive: dict[int, psutil.Process] = {}
        for pid, started in self.seen.items():
            with contextlib.suppress(psutil.Error):
                process = psutil.Process(pid)
                if process.create_time() == started and process.status() != psutil.STATUS_ZOMBIE:
                    alive[pid] = process
        state = str(self.state)
        for process in psutil.process_iter(["cwd", "cmdline"]):
            with contextlib.suppress(psutil.Error):
                where = process.info["cwd"] or ""
                if (where == state or where.startswith(state + os.sep) or state in " ".join(process.info["cmdline"] or [])) \
                        and process.pid != os.getpid() and process.status() != psutil.STATUS_ZOMBIE:
                    alive[process.pid] = process
        return list(alive.values())


def _answers(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "hub/api/", timeout=3) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _watch(hub: Hub, stop: threading.Event) -> None:
    while not stop.wait(0.5):
        hub.note()


@contextlib.contextmanager
def running_hub(state: Path, log_path: Path, *, cull_timeout: int = 3600, ipython_dir: Path | None = None,
                timeout_s: float = 60.0) -> Iterator[Hub]:
    """``scripts/hub.py`` installed and started on a free port, for the block; every process stopped after.

    Args:
        state: an empty folder for the hub's database and the people's homes.
        log_path: where the hub's output goes (its servers' and kernels' too).
        cull_timeout: the idle culler's timeout (seconds).
        ipython_dir: an IPython folder for the kernels; one holding `KERNEL_STARTUP` is made in
            `state` when None (kernel tracebacks then reach the log: `Hub.kernel_tracebacks`).
        timeout_s: how long the hub may take to answer once installed.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    installed = subprocess.run([sys.executable, str(HUB_SCRIPT), "--install-only"], cwd=ROOT, capture_output=True,
                               text=True, timeout=INSTALL_TIMEOUT_S, stdin=subprocess.DEVNULL)
    assert installed.returncode == 0, f"scripts/hub.py --install-only failed:\n{installed.stdout}\n{installed.stderr}"
    if ipython_dir is None:
        ipython_dir = state / "ipython"
        startup = ipython_dir / "profile_default" / "startup"
        startup.mkdir(parents=True)
        (startup / "00-log-tracebacks.py").write_text(KERNEL_STARTUP, encoding="utf-8")
    token = secrets.token_hex(24)
    kernels = Path(tempfile.mkdtemp(prefix="hub-kernels-"))  # short: the kernels' socket paths are in it
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "HUB_PASSWORD")}
    env.update(EXPLORER_HUB_API_TOKEN=token, IPYTHONDIR=str(ipython_dir), PYTHONUNBUFFERED="1",
               EXPLORER_HUB_KERNELS=str(kernels))
    command = [sys.executable, str(HUB_SCRIPT), "--port", str(free_port()), "--password", PASSWORD,
               "--state", str(state), "--cull-timeout", str(cull_timeout)]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    hub = Hub("", state.resolve(), token, process, log_path)
    stop = threading.Event()
    watcher = threading.Thread(target=_watch, args=(hub, stop), daemon=True)
    watcher.start()
    try:
        deadline = time.monotonic() + timeout_s
        while not hub.base:
            match = re.search(r"Open\s+(http://127\.0\.0\.1:\d+/)", hub.log())
            if match:
                hub.base = match.group(1)
            elif process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the hub printed no address:\n{hub.log_tail()}")
            time.sleep(0.2)
        while not _answers(hub.base):
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the hub did not answer at {hub.base}hub/api/ within {timeout_s:.0f} s:\n"
                                     f"{hub.log_tail()}")
            time.sleep(0.25)
        hub.note()
        yield hub
    finally:
        stop_hub(hub)
        stop.set()
        watcher.join(timeout=5)
        shutil.rmtree(kernels, ignore_errors=True)


def stop_hub(hub: Hub, timeout_s: float = 60.0) -> None:
    """SIGTERM the hub (it stops every server and the proxy); kill whatever it left (`Hub.left_behind`)."""
    hub.note()
    if hub.process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(hub.process.pid, signal.SIGTERM)
        try:
            hub.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            hub.left_behind.append(f"the hub itself (pid {hub.process.pid}) after {timeout_s:.0f} s")
    deadline = time.monotonic() + 10
    while (alive := hub.still_running()) and time.monotonic() < deadline:
        time.sleep(0.5)  # the servers' kernels go a moment after their server
    for process in alive:
        with contextlib.suppress(psutil.Error):
            hub.left_behind.append(f"pid {process.pid}: {' '.join(process.cmdline())[:200]}")
            process.kill()
    with contextlib.suppress(psutil.Error):
        psutil.wait_procs(alive, timeout=10)
    if hub.process.poll() is None:
        hub.process.kill()
        hub.process.wait(timeout=10)


# ----------------------------------------------------------------------------- one person
@dataclass
class Visit:
    """What one person's page gave: epoch ms of each moment, and what went wrong."""

    name: str
    asked_at: float = 0.0
    """When the login form was sent."""
    server_at: float | None = None
    """When the hub sent the browser to the person's server (it was ready)."""
    first_chart_at: float | None = None
    all_four_at: float | None = None
    url: str = ""
    links: list[list[str]] = field(default_factory=list)
    click_to_chart_s: float | None = None
    failed: str | None = None
    log: Any = None

    @property
    def server_start_s(self) -> float | None:
        return None if self.server_at is None else (self.server_at - self.asked_at) / 1000

    @property
    def first_chart_s(self) -> float | None:
        return None if self.first_chart_at is None else (self.first_chart_at - self.asked_at) / 1000


def offline(route: Any) -> Any:
    """A request for another machine (Voila's page asks CDNs for MathJax and Font Awesome): answered empty."""
    css = ".css" in route.request.url
    return route.fulfill(status=200, content_type="text/css" if css else "application/javascript", body="")


async def person(browser: Any, hub: Hub, name: str, go: asyncio.Event, change: asyncio.Event,
                 filled: asyncio.Semaphore, ready: asyncio.Semaphore, timeout_s: float) -> tuple[Visit, Any, Any]:
    """`name` fills the hub's login form (then releases `filled`) and sends it when `go` is set, waits
    for the app's charts (then releases `ready`), and changes the battle when `change` is set.

    Returns:
        The visit, the page and its context (the caller closes them).
    """
    visit = Visit(name)
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    await context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), offline)
    await context.add_init_script(INIT_SCRIPT)
    page = await context.new_page()
    visit.log = attach(page)
    prefix = f"{hub.base}user/{name}/"

    def on_request(request: Any) -> None:
        if visit.server_at is None and request.url.startswith(prefix):
            visit.server_at = time.time() * 1000

    page.on("request", on_request)
    try:
        await page.goto(f"{hub.base}hub/login", timeout=timeout_s * 1000)
        await page.fill("#username_input", name)
        await page.fill("#password_input", PASSWORD)
    except Exception as error:  # noqa: BLE001 - a page that never showed is a result too
        visit.failed = f"no login form ({type(error).__name__}: {error})"
        filled.release()
        ready.release()
        return visit, page, context
    filled.release()
    await go.wait()
    visit.asked_at = time.time() * 1000
    try:
        await page.click("#login_submit")
        await page.wait_for_function(FIRST_DRAWN_JS, timeout=timeout_s * 1000, polling=POLL_MS)
        visit.first_chart_at = await page.evaluate(FIRST_DRAWN_JS)
        await page.wait_for_function(ALL_FOUR_JS, timeout=timeout_s * 1000, polling=POLL_MS)
        visit.all_four_at = await page.evaluate(LAST_DRAWN_JS)
        visit.url = page.url
        visit.links = await page.evaluate(LINKS_JS)
    except Exception as error:  # noqa: BLE001
        body = "" if page.is_closed() else (await page.inner_text("body"))[:300].replace("\n", " ")
        visit.failed = f"no charts {(time.time() * 1000 - visit.asked_at) / 1000:.0f} s after logging in " \
                       f"({type(error).__name__}) at {page.url}: {body}"
        ready.release()
        return visit, page, context
    ready.release()
    await change.wait()
    try:
        before = await page.evaluate(REVISIONS_JS)
        clicked = time.time() * 1000
        await page.locator("button.aotg-add-unit.aotg-attacker").click()
        await page.wait_for_function(REDRAWN_JS, arg=before, timeout=timeout_s * 1000, polling=POLL_MS)
        visit.click_to_chart_s = (await page.evaluate(LAST_DRAWN_JS) - clicked) / 1000
    except Exception as error:  # noqa: BLE001
        visit.failed = f"no redrawn charts after Add unit ({type(error).__name__}: {error})"
    return visit, page, context


async def room(browser: Any, hub: Hub, names: list[str], timeout_s: float,
               between: Any = None) -> list[tuple[Visit, Any, Any]]:
    """Everyone in `names` logs in at the same moment (once all have the form filled); once all have
    charts, `between()` (if given) is awaited, then everyone changes their battle at the same moment."""
    go, change, filled, ready = asyncio.Event(), asyncio.Event(), asyncio.Semaphore(0), asyncio.Semaphore(0)
    tasks = [asyncio.create_task(person(browser, hub, name, go, change, filled, ready, timeout_s)) for name in names]
    for _ in names:
        await filled.acquire()
    go.set()
    for _ in names:
        await ready.acquire()
    if between is not None:
        await between()
    change.set()
    return list(await asyncio.gather(*tasks))
