"""The in-browser site in a real browser: built here, served by a plain file server, every number checked.

The site is built as ``make site`` builds it (``python -m explorer.site.build``, from the download
cache), into ``build/site-test/``, and served by ``python -m http.server`` on a free port of
127.0.0.1: nothing but static files, Python starts inside the page (Pyodide). Debian's Chromium
then opens it, each time in a fresh browser context (an empty cache, as a first visit):

1. **loads**: the app (``voici/render/explorer.html``) twice unthrottled and once with the CPU
   throttled 4x (Chrome DevTools ``Emulation.setCPUThrottlingRate``); the time from navigation to
   the first chart drawn is recorded per load into ``build/site-timings.json``. EVERY request of
   every page (its workers and service worker included: ``PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS``)
   is recorded through ``context.route``: one that is not for the site's origin (``data:`` and
   ``blob:`` aside) fails the test and is aborted; and Chromium is given a proxy of the test's own
   for every address other than this machine's, which records and refuses whatever reached it, so
   nothing leaves even past the routing (Chromium's own background calls to its services,
   `BROWSER_SERVICES`, arrive there too: refused and listed in the report; any other host fails).
   Any uncaught page error, console error, or console text
   with "anywidget" / "Failed to" / "Error" (`tests.browser.support.PageLog.errors`, as for the
   server's app) fails; nothing is filtered away;
2. **every game** (the first load): the server test's machinery (`tests.browser.test_app.Driver`,
   `ArcadiaSteps`, `AgotSteps`, the Dice lab) changes inputs of several kinds, and after each
   change every visible chart must EQUAL what the CPython engine in this process computes for the
   scenario the page shows in its scenario box: Assault of the Giants (best play for the attacker
   and back, a dice count, the view, a unit, command cards, giantslayers, the race, a bad input and
   its fix; the message beside a bad input shown, then gone; its reroll, row, plan and table
   tabs, `AotgTabsSteps`), Arcadia Quest, A Game of Thrones and the Dice lab (these first: a
   failure in one game leaves the others checked); the throttled load makes one change;
3. **Copy link** gives a plain static address, the site's origin + ``/voici/render/explorer.html``
   + ``?game=...&scenario=v1....`` (no token: there is no server to hold one), for the scenario in
   the box; opened in a fresh browser context it restores that scenario (the box equal) and its
   charts (equal to the engine's);
4. **a lesson** (``notebooks/00-start-here.ipynb``) opened in the site's lab
   (``lab/index.html?path=00-start-here.ipynb``) runs all its cells from the Run menu ("Run All
   Cells") without an error or stderr output, every code cell numbered 1..n; on that page an
   uncaught error or a console error fails (JupyterLab's own warnings are reported, not failed);
5. the app's header says that it runs in this browser (``.explorer-where``).

Writes ``build/site-timings.json``, ``build/screenshots/site-1400x900.png`` and ``site-1024x768.png``,
``site-failure-<page>-<step>.png`` on a failure, and ``build/site-test-server.log`` (the file server's log).
Run alone::

    .venv/bin/python -m pytest tests/browser/test_site.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from explorer.site.pages import APP_PATH
from tests.browser.agot import CHANGES as AGOT_CHANGES
from tests.browser.agot import AgotSteps
from tests.browser.aotg_tabs import TABS as AOTG_TABS
from tests.browser.aotg_tabs import AotgTabsSteps
from tests.browser.arcadia import CHANGES as ARCADIA_CHANGES
from tests.browser.arcadia import ArcadiaSteps
from tests.browser.support import (
    BUILD,
    CHROMIUM_ARGS,
    INIT_SCRIPT,
    SCREENSHOTS,
    VISIBLE_ERRORS_JS,
    PageLog,
    attach,
    free_port,
    scenario_text,
    snapshot,
    stop_server,
)
from tests.browser.test_app import BAD_FIELD, CHANGES, Change, Driver, Load, LoadFailure, choose, expect, type_into

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SITE = BUILD / "site-test"
"""Where the test builds the site (``make site`` builds ``build/site``; this one is the test's own)."""
LESSON = "00-start-here.ipynb"
TIMINGS = BUILD / "site-timings.json"

BUILD_S = 600.0
"""The build from the cache takes ~10 s; a clean cache downloads the pins first."""
RENDER_S = 240.0
"""From navigation to the first chart (Python starts in the page: ~12 s here unthrottled, ~20 s at CPU/4)."""
CHANGE_S = 60.0
"""From an input change to every chart redrawn (best play, throttled, in WebAssembly)."""
SETTLE_S = 30.0
"""From every chart redrawn to the charts equal to the engine's (or a message shown)."""
LESSON_S = 300.0
CHART_WAIT_S = 60.0
"""How long the lesson's charts may take to draw after its last cell ran."""
"""From opening the lesson to all its cells run."""
CPU_THROTTLE = 4
WHERE = "Runs in this browser"

REROLLS = ".aotg-army-attacker .widget-dropdown:has(> label:text-is('rerolls')) select"
"""The attacker's reroll policy (its options are labelled: ``best play (exact)`` is ``"best"``)."""
BEST_PLAY = Change(
    "attacker rerolls: best play (exact)",
    choose(REROLLS, "best play (exact)"),
    check=expect("attacker.reroll_policy == 'best'", lambda b, a: a["attacker"]["reroll_policy"] == "best"))
"""Best play: the whole reroll search runs in the page's Python (no numpy there)."""
BACK_TO_MISSES = Change(
    "attacker rerolls: best play -> misses",
    choose(REROLLS, "misses: blanks, then arcane it cannot convert"),
    check=expect("attacker.reroll_policy == 'misses'", lambda b, a: a["attacker"]["reroll_policy"] == "misses"))


BROWSER_SERVICES = frozenset({"accounts.google.com", "android.clients.google.com", "content-autofill.googleapis.com"})
"""Chromium's own services (sign-in, push messaging, form autofill) it asks in the background here, whatever
the page: they reach the test's proxy, which refuses them, and are listed in the report. The page's requests,
its workers' and its service worker's all go through the route (`Traffic`), which never saw these."""


# ----------------------------------------------------------------------------- serving the site
@dataclass
class StaticSite:
    """The built site served by ``python -m http.server`` (no server-side code of any kind)."""

    root: Path
    origin: str
    """``http://127.0.0.1:PORT``."""
    process: subprocess.Popen[bytes]
    log_path: Path
    build_seconds: float

    def url(self, path: str) -> str:
        """The address of `path` (from the site's root)."""
        return f"{self.origin}/{path}"

    def log_tail(self, lines: int = 20) -> str:
        """The file server's last log lines."""
        return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])


def build_site(output: Path, timeout_s: float = BUILD_S) -> float:
    """``python -m explorer.site.build --output OUTPUT`` as ``make site`` runs it; its time in seconds.

    It runs in a scratch folder, so that nothing the tools write lands in the checkout.
    """
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="explorer-site-build-") as scratch:
        run = subprocess.run([sys.executable, "-m", "explorer.site.build", "--output", str(output)], cwd=scratch,
                             capture_output=True, text=True, timeout=timeout_s,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    if run.returncode != 0:
        raise AssertionError(f"python -m explorer.site.build exited with {run.returncode}:\n{run.stdout[-3000:]}\n"
                             f"{run.stderr[-5000:]}")
    return time.monotonic() - start


def serve_static(root: Path, log_path: Path, build_seconds: float = 0.0) -> StaticSite:
    """``python -m http.server --bind 127.0.0.1 PORT --directory ROOT``, once it answers."""
    port = free_port()
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                                    "--directory", str(root)], stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    origin = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"http.server exited with {process.returncode}:\n{log_path.read_text()}")
        try:
            urllib.request.urlopen(origin + "/index.html", timeout=3).close()
            return StaticSite(root, origin, process, log_path, build_seconds)
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    stop_server(process)
    raise AssertionError(f"http.server did not answer at {origin} within 30 s:\n{log_path.read_text()}")


class Sinkhole:
    """An HTTP proxy on 127.0.0.1 for Chromium: whatever reaches it is recorded and refused (403).

    Chromium sends every request for another machine through its proxy (this machine's addresses
    go direct), so a request the page's routing did not see is recorded here and goes nowhere.
    """

    def __init__(self) -> None:
        self.seen: list[str] = []
        seen = self.seen

        class Refuse(BaseHTTPRequestHandler):
            def refuse(self) -> None:
                """Record the request and answer 403."""
                seen.append(f"{self.command} {self.path}")
                self.send_error(403, "the site test lets nothing leave this machine")

            do_GET = do_POST = do_PUT = do_HEAD = do_OPTIONS = do_DELETE = do_PATCH = do_CONNECT = refuse

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Refuse)
        self.address = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def hosts(self) -> list[str]:
        """The host of every request that reached the proxy, in order."""
        return [(urlsplit(target).hostname or "") if "://" in target else target.rsplit(":", 1)[0]
                for target in (line.split(" ", 1)[1] for line in self.seen)]

    def not_the_browsers_own(self) -> list[str]:
        """The requests that reached the proxy for hosts other than Chromium's own services (`BROWSER_SERVICES`)."""
        return [line for line, host in zip(self.seen, self.hosts()) if host not in BROWSER_SERVICES]

    def chromium_args(self) -> list[str]:
        """The arguments that send Chromium's traffic for other machines here."""
        return [f"--proxy-server={self.address}"]

    def close(self) -> None:
        """Stop the proxy."""
        self.server.shutdown()
        self.server.server_close()


STARTUP_FALLBACK = ('console warning: Failed to fetch ipywidgets through the "jupyter.widget.control" comm channel, '
                    'fallback to fetching individual model state. Reason: Control comm did not respond in time')
"""ipywidgets' warning when the kernel is still starting (see `SitePage.errors`)."""

@dataclass
class Traffic:
    """Every request one browser context made, recorded by its route; those for elsewhere aborted."""

    origin: str
    requests: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    websockets: list[str] = field(default_factory=list)

    def allowed(self, url: str) -> bool:
        """Whether `url` may be fetched: the site's origin, or ``data:`` / ``blob:``."""
        return url.startswith(self.origin + "/") or urlsplit(url).scheme in ("data", "blob")

    def route(self, route: Any) -> None:
        """The context's route handler: record, then let it through or abort it."""
        request = route.request
        self.requests.append(request.url)
        if self.allowed(request.url):
            route.continue_()
        else:
            self.foreign.append(f"{request.method} {request.url} ({request.resource_type})")
            route.abort("blockedbyclient")

    def websocket(self, ws: Any) -> None:
        """Record a websocket the page opened (one to another host counts as foreign)."""
        self.websockets.append(ws.url)
        host = urlsplit(ws.url).netloc
        if host != urlsplit(self.origin).netloc:
            self.foreign.append(f"websocket {ws.url}")

    def watch(self, context: Any) -> None:
        """Record (and keep to the site) everything `context`'s pages, workers and service workers ask for."""
        context.route("**/*", self.route)

    def summary(self) -> dict[str, Any]:
        """For the report: how many requests, and the foreign ones."""
        return {"requests": len(self.requests), "foreign": self.foreign, "websockets": self.websockets}


@dataclass
class PageKernel:
    """What `Driver` asks of a server (tracebacks, a log), for a page whose kernel runs inside it.

    The in-browser kernel has no log of its own: a traceback it prints reaches the page's console
    (its worker's messages are the page's), so the tracebacks are read there.
    """

    log: PageLog
    site: StaticSite

    def kernel_tracebacks(self) -> list[str]:
        """The tracebacks in the page's console so far."""
        return [m["text"] for m in self.log.console if "Traceback (most recent call last)" in m["text"]]

    def log_tail(self, lines: int = 40) -> str:
        """The page's last console messages and the file server's last log lines."""
        console = [f"console {m['type']}: {m['text'][:400]}" for m in self.log.console[-lines:]]
        return "\n".join(console) + f"\n\nfile server (tail):\n{self.site.log_tail(10)}"


class SiteDriver(Driver):
    """The server test's `Driver`, with the in-browser kernel's longer times."""

    render_timeout_s = RENDER_S
    change_timeout_s = CHANGE_S
    settle_timeout_s = SETTLE_S


# ----------------------------------------------------------------------------- one page
@dataclass
class SitePage:
    """One page opened in a fresh context, and everything it did."""

    name: str
    throttle: int
    load: Load
    traffic: Traffic
    seconds: float = 0.0
    link: str | None = None
    """The Copy link address (the first load)."""
    shared: dict[str, Any] | None = None
    """The scenario in the box when the link was copied."""
    header: str | None = None
    lesson: dict[str, Any] = field(default_factory=dict)
    screenshots: list[str] = field(default_factory=list)
    step_seconds: dict[str, float] = field(default_factory=dict)

    def failed(self, step: str) -> str | None:
        """Why `step` did not pass (it failed or never ran), or None."""
        status = self.load.steps.get(step)
        if status is None:
            return f"{self.name}: step {step!r} never ran"
        return None if status == "ok" else f"{self.name}, {step}: {status}"

    def errors(self) -> list[str]:
        """Errors this page showed (all of `PageLog.errors` for the app; see `lesson_errors` for the lab).

        One line is not an error, though `PageLog.errors` counts its words: ipywidgets' console
        *warning* that the kernel did not answer its first state request within 4 s and that it
        fetches each model's state instead (`STARTUP_FALLBACK`). A browser kernel takes about
        8 s to start, so the request made at page load always times out; the fallback is then
        taken, and every chart is checked right after it. It passes once per page at most, as a
        warning only; any other message, or the same text as an error, still fails.
        """
        if self.name == "lesson":
            return self.lesson_errors()
        found = self.load.log.errors()
        fallback = [e for e in found if e.startswith(STARTUP_FALLBACK)]  # the text, then " (from <script>)"
        if len(fallback) == 1:
            found.remove(fallback[0])
        return found + [f"kernel traceback:\n{t}" for t in self.load.kernel_tracebacks] + self.load.chart_errors

    def lesson_errors(self) -> list[str]:
        """On the lab page: uncaught errors and console errors (JupyterLab's own warnings are reported)."""
        log = self.load.log
        found = [f"uncaught error in the page: {e}" for e in log.page_errors]
        found += [f"console error: {m['text']}" + (f" (from {m['url']})" if m.get("url") else "")
                  for m in log.console if m["type"] == "error"]
        return found + [f"dialog: {d}" for d in log.dialogs]

    def report(self) -> dict[str, Any]:
        """What this page did and measured, for ``build/site-timings.json``."""
        ld = self.load
        return {
            "page": self.name, "cpu_throttle": self.throttle, "steps": ld.steps, "seconds": round(self.seconds, 1),
            "step_seconds": self.step_seconds,
            "first_chart_ms": ld.first_chart_ms, "first_chart_wall_ms": ld.first_chart_wall_ms,
            "all_visible_charts_drawn_ms": ld.all_charts_ms, "changes": ld.changes, "bad_input": ld.bad_input,
            "aotg_tabs": ld.aotg_tabs, "arcadia_quest": ld.arcadia, "agot_lcg": ld.agot, "dice_lab": ld.lab, "link": self.link,
            "header": self.header, "lesson": self.lesson, "traffic": self.traffic.summary(),
            "errors": self.errors(), "failed_requests": ld.log.failed_requests, "screenshots": self.screenshots,
            "console_warnings": [m["text"][:300] for m in ld.log.console if m["type"] == "warning"],
        }


def open_page(browser: Any, site: StaticSite, name: str, index: int, throttle: int = 1,
              **context_options: Any) -> tuple[Any, Any, SitePage]:
    """A fresh context and page: routed, recorded, throttled if asked."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, **context_options)
    traffic = Traffic(site.origin)
    traffic.watch(context)
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    page.set_default_timeout(CHANGE_S * 1000)
    load = Load(index, throttle, True)
    load.log = attach(page)
    page.on("websocket", traffic.websocket)
    if throttle != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return context, page, SitePage(name, throttle, load, traffic)


Step = tuple[str, Callable[[], None], str]
"""A step: its name, what it does, its group (a failure skips the rest of its group; a failed load, everything)."""


def run_steps(page: Any, record: SitePage, steps: list[Step]) -> None:
    """Run `steps` in order, recording each; a failure (with a screenshot) skips the later steps of its group.

    The games are independent of one another (each has its own tab): a failure in one still lets
    the others be checked. A failed ``load`` skips everything.
    """
    from playwright.sync_api import Error as PlaywrightError

    failed: dict[str, str] = {}
    for name, step, group in steps:
        blocker = failed.get("load") or failed.get(group)
        if blocker is not None:
            record.load.steps[name] = f"not run: {blocker} failed"
            continue
        began = time.monotonic()
        try:
            step()
            record.load.steps[name] = "ok"
        except Exception as error:  # noqa: BLE001 - recorded: the step's test fails with it
            text = str(error) if isinstance(error, AssertionError | PlaywrightError) else "".join(
                traceback.format_exception(error))
            failed[group], record.load.steps[name] = name, f"FAILED: {text}"
            with contextlib.suppress(PlaywrightError):
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                path = SCREENSHOTS / f"site-failure-{record.name.split(' (')[0].replace(' ', '-')}-{name.replace(' ', '-')}.png"
                page.screenshot(path=str(path))
                record.screenshots.append(str(path.relative_to(ROOT)))
        record.step_seconds[name] = round(time.monotonic() - began, 1)
    with contextlib.suppress(PlaywrightError):
        record.load.chart_errors = [f"chart {c['title']!r}: {c['overlay']}" for c in snapshot(page)
                                    if c["state"] == "error"]


def close(context: Any, page: Any) -> None:
    """Close the page and its context, whatever state they are in."""
    from playwright.sync_api import Error as PlaywrightError

    with contextlib.suppress(PlaywrightError):
        page.close()
    with contextlib.suppress(PlaywrightError):
        context.close()


# ----------------------------------------------------------------------------- the app's steps
def header_says_in_browser(page: Any, record: SitePage) -> None:
    """The app's header says where it runs (`explorer.panels.common.share_view.where_it_runs`)."""
    record.header = page.locator(".explorer-header .explorer-where").first.inner_text().strip()
    assert record.header.startswith(WHERE), f"the header (.explorer-where) says {record.header!r}"


def screenshots(page: Any, record: SitePage) -> None:
    """The app at 1400x900 and 1024x768 (``build/screenshots/site-*.png``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in ((1400, 900), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(1500)  # Plotly follows the new width
        path = SCREENSHOTS / f"site-{width}x{height}.png"
        page.screenshot(path=str(path))
        record.screenshots.append(str(path.relative_to(ROOT)))
    page.set_viewport_size(size)
    page.wait_for_timeout(1000)


def copy_link(page: Any, site: StaticSite, record: SitePage) -> None:
    """Copy link in the Assault panel's Scenario tab: a static address holding the box's scenario."""
    from explorer.share import parse_query

    box = scenario_text(page)
    assert box, "no scenario in the box"
    record.shared = json.loads(box)
    page.locator(".aotg-panel .lm-TabBar-tab").filter(has_text="Scenario, share").first.click()
    page.locator(".aotg-panel .explorer-share-copy").click()
    field_ = page.locator(".aotg-panel .explorer-share-link")
    deadline = time.monotonic() + 30
    while not (link := field_.input_value()) and time.monotonic() < deadline:
        time.sleep(0.25)
    record.link = link
    assert link, "Copy link put no address in its field within 30 s"
    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}" == site.origin, f"the link {link!r} is not on the site's origin"
    assert parts.path == "/" + APP_PATH, f"the link {link!r} does not open {APP_PATH}"
    assert sorted(parse_qs(parts.query)) == ["game", "scenario"], f"the link's query holds more: {link!r}"
    assert "token" not in link and not parts.fragment, link
    assert parts.query.split("&")[1].startswith("scenario=v1."), link
    asked = parse_query(parts.query)
    assert asked.game == "assault-of-the-giants", asked
    assert asked.scenario == record.shared, "the link's scenario is not the one in the box"
    status = page.locator(".aotg-panel .explorer-share-status").inner_text()
    assert status == "copied", f"Copy link says {status!r}"
    assert page.evaluate("navigator.clipboard.readText()") == link, "the clipboard does not hold the link"
    page.locator(".aotg-panel .lm-TabBar-tab").filter(has_text="Results").first.click()


INPUT_MESSAGE_JS = r"""
([selector, word]) => {
  // The message beside an input: `word` in its text, and shown (true) or hidden (false).
  const box = document.querySelector(selector);
  if (!box) return null;
  const shown = box.checkVisibility ? box.checkVisibility() : box.offsetParent !== null;
  return {shown, text: (box.innerText || '').trim(), named: (box.textContent || '').includes(word)};
}
"""
POOL_MESSAGE = ".aotg-error-pool-attacker"
"""The message beside the attacker's dice boxes."""


def input_message(driver: SiteDriver, page: Any, record: SitePage) -> None:
    """A bad dice count shows its message beside the input; a good one takes it away (and redraws, checked)."""
    pool = ".aotg-pool-basic-attacker input"
    box = page.locator(pool)
    box.fill("-1")
    box.press("Enter")
    missing: LoadFailure | None = None
    try:
        seen = driver.wait(f"""() => {{
            const m = ({INPUT_MESSAGE_JS})({json.dumps([POOL_MESSAGE, BAD_FIELD])});
            return m && m.named && m.shown ? m : false;
        }}""", None, SETTLE_S, f"-1 attacker basic dice: the message beside the input ({POOL_MESSAGE}) shown, naming "
            f"{BAD_FIELD}")
        record.load.bad_input["message"] = seen["text"]
    except LoadFailure as error:
        missing = error
        record.load.bad_input["message"] = page.evaluate(INPUT_MESSAGE_JS, [POOL_MESSAGE, BAD_FIELD])
    fixed = 7  # whatever was seen, the input is made good again: the later steps start from a valid battle
    driver.change(Change(f"attacker basic dice -1 -> {fixed} (the message goes)", type_into(pool, fixed),
                         check=expect(f"attacker.pool.basic == {fixed}", lambda b, a: a["attacker"]["pool"]["basic"] == fixed)))
    record.load.bad_input["message_fixed"] = record.load.changes.pop()
    if missing is not None:
        raise missing
    after = page.evaluate(INPUT_MESSAGE_JS, [POOL_MESSAGE, BAD_FIELD])
    assert after is not None and not after["shown"], f"the message stays after a good value: {after}"


def main_tab(page: Any, title: str) -> None:
    """Open the app's tab `title` (a game or the Dice lab)."""
    page.locator(".explorer-app .lm-TabBar-tab", has_text=title).first.click()


def app_steps(driver: SiteDriver, page: Any, site: StaticSite, record: SitePage) -> list[Step]:
    """The first load: the header, the other games first, then Assault of the Giants (Copy link among it), the screenshots."""
    tabs = AotgTabsSteps(driver, record.load.aotg_tabs, SETTLE_S, CHANGE_S)
    arcadia = ArcadiaSteps(driver, record.load.arcadia, SETTLE_S, CHANGE_S)
    agot = AgotSteps(driver, record.load.agot, SETTLE_S, CHANGE_S)
    return [
        ("load", lambda: driver.open(site.url(APP_PATH)), "load"),
        ("header", lambda: header_says_in_browser(page, record), "header"),
        ("arcadia quest", lambda: arcadia.run(screenshots=False), "arcadia quest"),
        ("a game of thrones", lambda: agot.run(screenshots=False), "a game of thrones"),
        ("dice lab", driver.dice_lab, "dice lab"),
        ("assault tab", lambda: main_tab(page, "Assault of the Giants"), "assault"),
        ("best play", lambda: [driver.change(c) for c in (BEST_PLAY, BACK_TO_MISSES)], "assault"),
        ("changes", lambda: [driver.change(c) for c in CHANGES], "assault"),
        ("bad input", driver.bad_input, "assault"),
        ("copy link", lambda: copy_link(page, site, record), "assault"),
        ("bad input message", lambda: input_message(driver, page, record), "input message"),
        ("assault decision tabs", lambda: tabs.run(screenshots=False), "assault"),
        ("screenshots", lambda: screenshots(page, record), "screenshots"),
    ]


def run_app(browser: Any, site: StaticSite, name: str, index: int, throttle: int, full: bool,
            battles: dict[str, Any]) -> SitePage:
    """Open the app in a fresh context and run its steps: all of them, or the load (and a change if throttled)."""
    start = time.monotonic()
    context, page, record = open_page(browser, site, name, index, throttle,
                                      permissions=["clipboard-read", "clipboard-write"])
    driver = SiteDriver(page, record.load, PageKernel(record.load.log, site), battles, True)
    try:
        if full:
            steps = app_steps(driver, page, site, record)
        else:
            steps = [("load", lambda: driver.open(site.url(APP_PATH)), "load"),
                     ("header", lambda: header_says_in_browser(page, record), "header")]
            if throttle != 1:
                steps.append(("changes", lambda: driver.change(CHANGES[0]), "assault"))
        run_steps(page, record, steps)
    finally:
        record.load.kernel_tracebacks = driver.new_tracebacks()
        close(context, page)
    record.seconds = time.monotonic() - start
    return record


def run_linked(browser: Any, site: StaticSite, index: int, link: str, shared: dict[str, Any],
               battles: dict[str, Any]) -> SitePage:
    """The copied link in a fresh context: the box shows the shared scenario, the charts equal the engine's."""
    start = time.monotonic()
    context, page, record = open_page(browser, site, "linked", index)
    record.link = link
    driver = SiteDriver(page, record.load, PageKernel(record.load.log, site), battles, True)

    def same_scenario() -> None:
        """The box holds the shared scenario; no notice about the link."""
        shown = json.loads(scenario_text(page) or "null")
        assert shown == shared, f"the linked page's box holds another scenario:\n{shown}\nshared:\n{shared}"
        assert not page.locator(".explorer-link-notice").is_visible(), \
            page.locator(".explorer-link-notice").inner_text()

    try:
        run_steps(page, record, [("load", lambda: driver.open(link), "load"),
                                 ("same scenario", same_scenario, "load")])
    finally:
        record.load.kernel_tracebacks = driver.new_tracebacks()
        close(context, page)
    record.seconds = time.monotonic() - start
    return record


# ----------------------------------------------------------------------------- the lesson in the lab
LESSON_STATE_JS = r"""
() => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  if (!panel) return null;
  const cells = [...panel.querySelectorAll('.jp-CodeCell')];
  const indicator = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const bad = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], '
    + '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.error"], .jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]';
  return {
    prompts: cells.map((c) => (c.querySelector('.jp-InputArea-prompt') || {}).textContent || ''),
    status: indicator ? indicator.getAttribute('data-status') : null,
    kernel: ((panel.querySelector('.jp-KernelName') || {}).textContent || '').trim(),
    errors: [...panel.querySelectorAll(bad)].map((e) => e.innerText.slice(0, 3000)),
    dialog: [...document.querySelectorAll('.jp-Dialog')].map((d) => d.innerText.slice(0, 300)),
  };
}
"""


def _count(prompt: str) -> int | None:
    """The execution count in a prompt (``[3]:`` -> 3; ``[ ]:``, ``[*]:`` -> None).

    >>> _count("[3]:"), _count("[ ]:"), _count("[*]:")
    (3, None, None)
    """
    body = prompt.strip().removeprefix("[").removesuffix(":").removesuffix("]")
    return int(body) if body.isdigit() else None


def run_lesson(browser: Any, site: StaticSite, index: int) -> SitePage:
    """Open `LESSON` in the site's lab and run all its cells from the Run menu."""
    start = time.monotonic()
    context, page, record = open_page(browser, site, "lesson", index)
    info = record.lesson

    def state() -> dict[str, Any]:
        """The lesson's prompts, kernel, error outputs and dialogs (`LESSON_STATE_JS`)."""
        return page.evaluate(LESSON_STATE_JS) or {}

    def until(what: str, test: Callable[[dict[str, Any]], bool], timeout_s: float) -> dict[str, Any]:
        """Poll `state` until `test` holds; fail at once on an error output or a page error."""
        deadline = time.monotonic() + timeout_s
        while True:
            now = state()
            if now and now["errors"]:
                raise AssertionError(f"{what}: an error output in the lesson:\n" + "\n---\n".join(now["errors"]))
            if now and test(now):
                return now
            if time.monotonic() > deadline or record.load.log.page_errors:
                raise AssertionError(f"{what}: not within {timeout_s:.0f} s (now: {now}); page errors: "
                                     f"{record.load.log.page_errors}")
            time.sleep(0.5)

    def opened() -> None:
        """Open the lesson; answer the kernel dialog if the lab asks; wait for the kernel idle."""
        page.goto(site.url(f"lab/index.html?path={LESSON}"), timeout=RENDER_S * 1000)
        deadline, ready_since = time.monotonic() + RENDER_S, None
        while True:  # the notebook shown, its kernel started and idle, for 2 s in a row
            now = until("the lesson open", lambda s: bool(s["prompts"]), RENDER_S)
            if now["dialog"]:  # the lesson names a kernel ("python3") the lab calls otherwise: it asks which
                info.setdefault("kernel_dialog", now["dialog"])
                page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept").click(timeout=30_000)
                ready_since = None
            elif now["status"] == "idle" and now["kernel"] and now["kernel"] != "No Kernel":
                ready_since = ready_since or time.monotonic()
                if time.monotonic() - ready_since >= 2:
                    break
            else:
                ready_since = None
            if time.monotonic() > deadline:
                raise AssertionError(f"the lesson's kernel not ready within {RENDER_S:.0f} s (now: {now})")
            time.sleep(0.5)
        info["code_cells"], info["kernel"] = len(now["prompts"]), now["kernel"]
        info["open_s"] = round(time.monotonic() - start, 1)

    def run_all() -> None:
        """Run > Run All Cells; every cell numbered, no error output, every chart drawn."""
        begun = time.monotonic()
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).first.click(timeout=30_000)
        page.locator(".lm-Menu-item:visible .lm-Menu-itemLabel", has_text="Run All Cells").first.click(timeout=30_000)
        now = until("every cell run", lambda s: all(_count(p) is not None for p in s["prompts"])
                    and s["status"] == "idle", LESSON_S)
        info["run_all_s"] = round(time.monotonic() - begun, 1)
        counts = [_count(p) for p in now["prompts"]]
        info["execution_counts"] = counts
        assert counts == list(range(1, len(counts) + 1)), f"execution counts {counts}"
        shown = page.evaluate(VISIBLE_ERRORS_JS)
        assert not shown, "errors shown in the lesson:\n" + "\n".join(shown)
        # The last cell shows the app: its charts draw once the page has loaded the chart library,
        # which may end after the kernel went idle. Wait for that, within a bound.
        deadline = time.monotonic() + CHART_WAIT_S
        while True:
            charts = [c for c in snapshot(page) if c["visible"]]
            if (charts and all(c["state"] == "drawn" for c in charts)) or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        info["charts_drawn"] = sum(c["state"] == "drawn" for c in charts)
        info["charts_drawn_after_idle_s"] = round(time.monotonic() - begun - info["run_all_s"], 1)
        assert charts and all(c["state"] == "drawn" for c in charts), \
            [(c["title"], c["state"], c["overlay"]) for c in charts]

    try:
        run_steps(page, record, [("open", opened, "load"), ("run all cells", run_all, "load")])
    finally:
        close(context, page)
    record.seconds = time.monotonic() - start
    return record


# ----------------------------------------------------------------------------- the run
@dataclass
class SiteRun:
    """Everything the run saw: the site, each page, the proxy, the report."""

    site: StaticSite
    pages: list[SitePage]
    sinkhole: Sinkhole
    report: dict[str, Any]

    def page(self, name: str) -> SitePage:
        """The page named `name` (``load 1``, ``linked``, ``lesson``...)."""
        return next(p for p in self.pages if p.name == name)

    def loads(self) -> list[SitePage]:
        """The app's three loads."""
        return [p for p in self.pages if p.name.startswith("load")]


@pytest.fixture(scope="module")
def site() -> Iterator[StaticSite]:
    """The site built from the cache into ``build/site-test`` and served by a plain file server."""
    BUILD.mkdir(exist_ok=True)
    seconds = build_site(SITE)
    served = serve_static(SITE, BUILD / "site-test-server.log", seconds)
    try:
        yield served
    finally:
        stop_server(served.process)


@pytest.fixture(scope="module")
def run(site: StaticSite, chromium_path: Path) -> Iterator[SiteRun]:
    """Every page of the test, one after the other in one Chromium; the report written."""
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    for old in SCREENSHOTS.glob("site-failure-*.png"):
        old.unlink()
    sinkhole = Sinkhole()
    pages: list[SitePage] = []
    battles: dict[str, Any] = {}
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")  # route the service worker's too
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(chromium_path), headless=True,
                                                     args=CHROMIUM_ARGS + sinkhole.chromium_args())
                try:
                    first = run_app(browser, site, "load 1", 1, 1, True, battles)
                    pages.append(first)
                    pages.append(run_app(browser, site, "load 2", 2, 1, False, battles))
                    pages.append(run_app(browser, site, "load 3 (CPU/4)", 3, CPU_THROTTLE, False, battles))
                    if first.link and first.shared is not None:
                        pages.append(run_linked(browser, site, 4, first.link, first.shared, battles))
                    pages.append(run_lesson(browser, site, 5))
                finally:
                    browser.close()
    finally:
        sinkhole.close()
    report = write_report(site, pages, sinkhole, time.monotonic() - start)
    yield SiteRun(site, pages, sinkhole, report)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def write_report(site: StaticSite, pages: list[SitePage], sinkhole: Sinkhole, seconds: float) -> dict[str, Any]:
    """``build/site-timings.json``: the first chart of each load, the changes' times, every page's record."""
    loads = [p for p in pages if p.name.startswith("load")]
    first = {kind: [p.load.first_chart_ms for p in loads if (p.throttle != 1) == throttled and p.load.first_chart_ms]
             for kind, throttled in (("unthrottled", False), ("throttled_4x", True))}
    clicks = [c["click_to_redrawn_ms"] for p in loads for c in p.load.changes if c["click_to_redrawn_ms"] is not None]
    report = {
        "what": ("page-clock ms (0 = navigation start) in a fresh browser context (a first visit): first chart = "
                 "first .explorer-chart with data-state=drawn; click_to_redrawn = from the change event to the last "
                 "chart drawing the revision then checked equal to the engine's figures"),
        "site": str(site.root.relative_to(ROOT)), "build_seconds": round(site.build_seconds, 1),
        "summary": {
            "first_chart_ms_unthrottled": first["unthrottled"],
            "first_chart_ms_throttled_4x": first["throttled_4x"],
            "first_chart_ms_median_unthrottled": _median(first["unthrottled"]),
            "click_to_redrawn_ms_median": _median(clicks),
            "timed_changes": len(clicks),
            "requests": sum(len(p.traffic.requests) for p in pages),
            "foreign_requests": [f for p in pages for f in p.traffic.foreign] + sinkhole.not_the_browsers_own(),
            "browser_background_requests_refused": dict(Counter(h for h in sinkhole.hosts() if h in BROWSER_SERVICES)),
            "test_seconds": round(seconds, 1), "cpus": os.cpu_count(),
        },
        "pages": [p.report() for p in pages],
    }
    TIMINGS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


# ----------------------------------------------------------------------------- the tests
def test_every_load_draws_its_first_chart_equal_to_the_engine(run: SiteRun) -> None:
    """Each load (2 unthrottled, 1 at CPU/4): the first chart draws, and the first charts equal the engine's."""
    failures = [f for p in run.loads() for f in [p.failed("load")] if f]
    assert not failures, "\n\n".join(failures)
    assert len(run.loads()) == 3 and all(p.load.first_chart_ms for p in run.loads())
    assert any(p.throttle == CPU_THROTTLE for p in run.loads())


def test_no_request_leaves_the_site(run: SiteRun) -> None:
    """Every request of every page (workers, service worker) is for the site's origin; nothing reached elsewhere."""
    found = [f"{p.name}: {f}" for p in run.pages for f in p.traffic.foreign]
    found += [f"the proxy for other machines was asked: {s}" for s in run.sinkhole.not_the_browsers_own()]
    assert not found, "requests not for the site's origin (aborted):\n  " + "\n  ".join(found)
    # the routing saw the kernel's own fetches (in its worker), not just the page's
    first = run.page("load 1").traffic.requests
    for needed in (APP_PATH, "static/pyodide/pyodide.asm.wasm", "static/pyodide/explorer-", "static/pyodide/plotly-"):
        assert any(url.startswith(run.site.url(needed)) for url in first), f"no request for {needed} was recorded"


def test_no_error_in_any_page(run: SiteRun) -> None:
    """No uncaught error, console error or error text, traceback or chart in state error, in any page."""
    found = [f"{p.name}:\n  " + "\n  ".join(dict.fromkeys(errors)) for p in run.pages if (errors := p.errors())]
    assert not found, "errors in the browser:\n" + "\n".join(found)


def test_header_says_it_runs_in_this_browser(run: SiteRun) -> None:
    """Every load's header (``.explorer-where``) says the app runs in this browser, in the app's own words."""
    failures = [f for p in run.loads() for f in [p.failed("header")] if f]
    assert not failures, "\n\n".join(failures)
    from explorer.panels.common.share_view import where_it_runs

    assert run.page("load 1").header == where_it_runs("emscripten")


def test_assault_of_the_giants_follows_every_change_best_play_included(run: SiteRun) -> None:
    """Best play and back, then every change of the server test and a bad input: charts equal the engine's."""
    first = run.page("load 1")
    failures = [f for step in ("best play", "changes", "bad input", "bad input message") for f in [first.failed(step)] if f]
    throttled = run.page("load 3 (CPU/4)")
    failures += [f for f in [throttled.failed("changes")] if f]
    assert not failures, "\n\n".join(failures)
    assert [c["change"] for c in first.load.changes] == [c.name for c in (BEST_PLAY, BACK_TO_MISSES, *CHANGES)]
    assert len(throttled.load.changes) == 1


def test_assault_decision_tabs_equal_what_is_computed_here(run: SiteRun) -> None:
    """The reroll, row, plan and table tabs: what each shows equals what is computed here, before and after a change."""
    first = run.page("load 1")
    failures = [f for f in [first.failed("assault decision tabs")] if f]
    assert not failures, "\n\n".join(failures)
    assert sorted(first.load.aotg_tabs.get("tab_to_drawn_wall_ms", {})) == sorted(AOTG_TABS), first.load.aotg_tabs


def test_arcadia_quest_follows_every_change(run: SiteRun) -> None:
    """Arcadia Quest: after each change the charts equal the encounter in its scenario box, resolved here."""
    failures = [f for f in [run.page("load 1").failed("arcadia quest")] if f]
    assert not failures, "\n\n".join(failures)
    assert len(run.page("load 1").load.arcadia["changes"]) == len(ARCADIA_CHANGES)


def test_agot_follows_every_change(run: SiteRun) -> None:
    """A Game of Thrones: after each change the round's charts equal the round in its scenario box, resolved here."""
    failures = [f for f in [run.page("load 1").failed("a game of thrones")] if f]
    assert not failures, "\n\n".join(failures)
    assert len(run.page("load 1").load.agot["changes"]) == len(AGOT_CHANGES)


def test_dice_lab_follows_its_inputs(run: SiteRun) -> None:
    """The Dice lab: its two charts equal its engine's result here, as opened and after a dice change."""
    failures = [f for f in [run.page("load 1").failed("dice lab")] if f]
    assert not failures, "\n\n".join(failures)
    assert run.page("load 1").load.lab["change"]["click_to_redrawn_ms"] is not None


def test_copy_link_is_static_and_opens_the_same_scenario(run: SiteRun) -> None:
    """Copy link: origin + /voici/render/explorer.html?game=...&scenario=v1...; a fresh context restores it."""
    first = run.page("load 1")
    failures = [f for f in [first.failed("copy link")] if f]
    assert not failures, "\n\n".join(failures)
    linked = run.page("linked")
    failures = [f for step in ("load", "same scenario") for f in [linked.failed(step)] if f]
    assert not failures, "\n\n".join(failures)
    assert first.shared is not None and first.shared["attacker"]["pool"]["basic"] == 6, \
        "the link was copied after the changes: 6 attacker basic dice (the bad input's fix)"


def test_a_lesson_runs_all_its_cells_in_the_lab(run: SiteRun) -> None:
    """00-start-here in the site's lab: Run All Cells numbers every cell, with no error or stderr output."""
    lesson = run.page("lesson")
    failures = [f for step in ("open", "run all cells") for f in [lesson.failed(step)] if f]
    assert not failures, "\n\n".join(failures)
    assert lesson.lesson["execution_counts"] == list(range(1, lesson.lesson["code_cells"] + 1))


def test_screenshots_and_timings_written(run: SiteRun) -> None:
    """The screenshots and build/site-timings.json exist; the figures are printed."""
    for name in ("site-1400x900.png", "site-1024x768.png"):
        assert (SCREENSHOTS / name).is_file(), name
    summary = run.report["summary"]
    print(f"\nsite: built in {run.report['build_seconds']} s; first chart {summary['first_chart_ms_unthrottled']} ms "
          f"unthrottled, {summary['first_chart_ms_throttled_4x']} ms at CPU/4; click-to-redrawn median "
          f"{summary['click_to_redrawn_ms_median']} ms over {summary['timed_changes']} changes; "
          f"{summary['requests']} requests, {len(summary['foreign_requests'])} not for the site; "
          f"{summary['test_seconds']} s -> {TIMINGS.relative_to(ROOT)}")
    assert json.loads(TIMINGS.read_text(encoding="utf-8"))["summary"] == summary
