"""The explorer in a real browser: Voila serves the app notebook, Debian's Chromium clicks it.

Run alone::

    .venv/bin/python -m pytest tests/test_browser.py -q -s

``EXPLORER_APP_NOTEBOOK=/path/to/other.ipynb`` serves another notebook (a stand-in app, say);
``EXPLORER_RENDER_TIMEOUT`` (seconds, default 120) bounds the first render.

Writes, under ``build/`` (ignored by git):

* ``screenshots/voila-app.png``: the page after the clicks (``voila-app-failure.png`` on failure);
* ``timings.json``: click-to-redraw times (a measurement, not an assertion);
* ``voila-browser.log``: what Voila and its kernel printed.

The click-to-redraw time is measured in the page's own clock: from the ``click`` event
(a capturing listener) to the first DOM change or animation frame at which the Plotly data
differs (Plotly draws synchronously once it has the new data).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
SCREENSHOTS = BUILD / "screenshots"

RENDER_TIMEOUT_S = float(os.environ.get("EXPLORER_RENDER_TIMEOUT") or 120)
"""From opening the page to widgets and charts on screen (Voila runs the notebook then)."""
CLICK_TIMEOUT_S = 60.0
"""From a click to the charts' new data."""
START_TIMEOUT_S = 60.0
"""From starting Voila to its first HTTP answer."""
TIMED_CLICKS = 10
APP_CHARTS = 8
"""Plotly FigureWidgets in the real app, hidden tabs included."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

ADD_UNIT = "button.aotg-add-unit.aotg-attacker"
"""The attacker's "add unit" button (`Button.add_class` puts the classes on the <button>)."""
CMD_RIGHT = "button.aotg-cmd-right"
CMD_LEFT = "button.aotg-cmd-left"
"""Move a command card one place. Every card has both buttons, in row order, attacker first:
the first "right" moves the attacker's first card right, the second "left" (on the card now
second) moves it back; the first "left" (first card) does nothing."""

TRACEBACK_MARK = "AOTG-KERNEL-TRACEBACK"

# Copies every traceback the kernel shows to the kernel's stderr, which is Voila's log:
# Voila shows exceptions raised in widget callbacks nowhere, so without this a broken click
# would only show up as "the chart did not change".
KERNEL_STARTUP = f'''\
def _aotg_log_tracebacks():
    import sys
    import traceback

    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        return
    original = shell.showtraceback

    def showtraceback(exc_tuple=None, *args, **kwargs):
        etype, value, tb = exc_tuple if exc_tuple is not None else sys.exc_info()
        if etype is not None:
            text = "".join(traceback.format_exception(etype, value, tb))
            sys.__stderr__.write("{TRACEBACK_MARK}\\n" + text + "{TRACEBACK_MARK}-END\\n")
            sys.__stderr__.flush()
        return original(exc_tuple, *args, **kwargs)

    shell.showtraceback = showtraceback


_aotg_log_tracebacks()
del _aotg_log_tracebacks
'''

# Installed in the page before any of its scripts runs.
PAGE_HELPERS = r"""
(() => {
  const plain = (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value);
  // The data of every Plotly chart: graph divs have class js-plotly-plot, .data is the trace list.
  window.__aotgCharts = () =>
    [...document.querySelectorAll('.js-plotly-plot')].map((g) =>
      JSON.stringify((g.data || []).map((t) => [t.type, t.name, t.x, t.y]), plain));
  window.__aotgClickAt = null;
  window.addEventListener('click', () => { window.__aotgClickAt = performance.now(); }, true);
  const visible = (e) => (e.checkVisibility ? e.checkVisibility() : e.offsetParent !== null);
  const bad = /Traceback|\b\w*Error\b|There was an error/;
  // Visible error text: the app's own error box, a traceback or an "...Error" in an output
  // area (Voila's cell outputs, and ipywidgets' "Error displaying widget"), Voila's messages.
  window.__aotgErrors = () => {
    const found = [];
    for (const e of document.querySelectorAll('.aotg-error')) {
      const text = (e.innerText || '').trim();
      if (text && visible(e)) found.push('.aotg-error: ' + text);
    }
    const outputs = [...document.querySelectorAll('.jp-OutputArea-output')]
      .filter((e) => bad.test(e.innerText || ''));
    for (const e of outputs) {  // innermost only: the app's own output area holds the others
      if (!outputs.some((o) => o !== e && e.contains(o))) {
        found.push('output [' + (e.dataset.mimeType || 'widget') + ']: ' + e.innerText.trim().slice(0, 3000));
      }
    }
    const body = document.body ? document.body.innerText : '';
    for (const m of ['Traceback (most recent call last)', 'There was an error when executing cell']) {
      if (body.includes(m) && !found.some((f) => f.includes(m))) found.push('page: ...' + m + '...');
    }
    return found;
  };
})();
"""

READY_JS = f"""
() => {{
  const errors = window.__aotgErrors();
  if (errors.length) return {{errors}};
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const drawn = plots.some((g) => Array.isArray(g.data) && g.data.length > 0);
  const buttons = document.querySelector('{ADD_UNIT}') && document.querySelector('{CMD_RIGHT}');
  return drawn && buttons ? {{plots: plots.length}} : false;
}}
"""

ARM_JS = """
(beforeList) => {
  // Watch for new chart data from now on: at every DOM change (Plotly redraws synchronously
  // once it has the new data) and every animation frame, so the time does not depend on
  // when Playwright gets round to asking.
  const before = JSON.stringify(beforeList);
  const watch = {before, changedAt: null};
  window.__aotgWatch = watch;
  window.__aotgClickAt = null;
  const check = () => {
    if (watch.changedAt !== null || window.__aotgWatch !== watch) return true;
    if (JSON.stringify(window.__aotgCharts()) === watch.before) return false;
    watch.changedAt = performance.now();
    return true;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  const frame = () => { if (check()) observer.disconnect(); else requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  return JSON.stringify(window.__aotgCharts()) === before;  // false: not the data we start from
}
"""

CHANGED_JS = """
() => {
  const watch = window.__aotgWatch;
  return watch.changedAt !== null && {changedAt: watch.changedAt, clickAt: window.__aotgClickAt};
}
"""


def free_port() -> int:
    """A free TCP port on localhost (bind to port 0 and let the system pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Voila:
    """A Voila server started by the test."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def kernel_tracebacks(self) -> list[str]:
        """Tracebacks the kernel showed (cell errors, exceptions in widget callbacks)."""
        parts = self.log().split(TRACEBACK_MARK + "\n")[1:]
        return [part.split(TRACEBACK_MARK + "-END")[0].strip() for part in parts]


def _wait_until_answers(url: str, process: subprocess.Popen[bytes], log_path: Path) -> None:
    # Any HTTP answer will do; the page itself is not fetched, as that would start a kernel.
    probe = url + "voila/static/voila.js"
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"Voila exited with code {process.returncode}:\n{log_path.read_text(errors='replace')}")
        try:
            urllib.request.urlopen(probe, timeout=2).close()
            return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.25)
    log = log_path.read_text(errors="replace")
    pytest.fail(f"Voila did not answer at {url} within {START_TIMEOUT_S:.0f} s:\n{log}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM Voila's own process group (it shuts its kernels down), SIGKILL if it hangs."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="module")
def voila(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Voila]:
    """Voila serving the app notebook on a free localhost port, with the venv's Python."""
    BUILD.mkdir(exist_ok=True)
    ipython_dir = tmp_path_factory.mktemp("ipython")
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-log-tracebacks.py").write_text(KERNEL_STARTUP, encoding="utf-8")
    port = free_port()
    command = [
        sys.executable, "-m", "voila", str(app_notebook),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",  # the port we picked, or fail: never another one silently
        "--show_tracebacks=True",  # a cell's traceback on the page, where the test sees it
    ]
    env = dict(os.environ, IPYTHONDIR=str(ipython_dir), PYTHONUNBUFFERED="1")
    log_path = BUILD / "voila-browser.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait_until_answers(url, process, log_path)
        yield Voila(url, process, log_path)
    finally:
        _stop(process)


@dataclass
class PageEvents:
    """What the page reported while the test ran."""

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def browser_page(chromium_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, PageEvents]]:
    """A page of Debian's Chromium (headless, fresh profile) and the events it reports."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            user_data_dir=str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(chromium_path),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            context.add_init_script(PAGE_HELPERS)
            page = context.pages[0] if context.pages else context.new_page()
            events = PageEvents()
            page.on("pageerror", lambda error: events.page_errors.append(str(error)))
            page.on("console", lambda msg: msg.type == "error" and events.console_errors.append(msg.text))
            page.on("requestfailed", lambda request: events.failed_requests.append(request.url))
            yield page, events
        finally:
            context.close()


def charts(page: Any) -> list[str]:
    """The data (x and y of every trace, as JSON) of every Plotly chart on the page."""
    return page.evaluate("() => window.__aotgCharts()")


ANYWIDGET_SLOW_INIT = "[anywidget] Failed to initialize model."
"""anywidget's front end rejects a model's `ready` promise when initialising it takes over 2 s
(a fixed timeout). On a loaded 2-core machine the first FigureWidgets can take that long while
plotly.js loads, and the charts still render and update, which this test checks on every chart.
So this one message is printed, not failed on; any other page error fails the test."""


def problems(page: Any, voila: Voila, events: PageEvents) -> list[str]:
    """Every error the page, the browser or the kernel showed (but anywidget's slow-start notice)."""
    found = list(page.evaluate("() => window.__aotgErrors()"))
    slow = [e for e in events.page_errors if str(e).strip() == ANYWIDGET_SLOW_INIT]
    if slow:
        print(f"note: anywidget reported a slow model start {len(slow)} time(s) (machine under load)")
    found += [f"page error: {error}" for error in events.page_errors if str(error).strip() != ANYWIDGET_SLOW_INIT]
    found += [f"kernel traceback:\n{tb}" for tb in voila.kernel_tracebacks()]
    return found


def assert_no_problems(page: Any, voila: Voila, events: PageEvents, when: str) -> None:
    found = problems(page, voila, events)
    assert not found, f"errors {when}:\n\n" + "\n\n".join(found)


def fail_with_context(message: str, page: Any, voila: Voila, events: PageEvents) -> None:
    details = problems(page, voila, events)
    pytest.fail(
        message
        + ("\n\nerrors:\n" + "\n\n".join(details) if details else "\n\n(no error shown on the page)")
        + ("\n\nbrowser console errors:\n" + "\n".join(events.console_errors[-10:]) if events.console_errors else "")
        + f"\n\nVoila log (tail):\n{voila.log_tail()}"
    )


def wait_until_stable(page: Any, quiet_s: float = 0.3, limit_s: float = 10.0) -> list[str]:
    """The chart data once it has not changed for `quiet_s` (a redraw may come in pieces)."""
    last, since = charts(page), time.monotonic()
    deadline = since + limit_s
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = charts(page)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            break
    return last


def click_and_wait_for_redraw(
    page: Any, selector: str, before: list[str], what: str, voila: Voila, events: PageEvents, nth: int = 0
) -> tuple[float, float, list[str]]:
    """Click the `nth` (from 0) `selector`, wait until the chart data differs from `before`.

    Returns (click-to-redraw ms in the page's clock, wall ms seen from Python, the new data).
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    button = page.locator(selector).nth(nth)
    try:
        button.wait_for(state="visible", timeout=CLICK_TIMEOUT_S * 1000)
    except PlaywrightTimeout:
        fail_with_context(f"{what}: no visible `{selector}` number {nth + 1} on the page", page, voila, events)
    if button.is_disabled():
        fail_with_context(f"{what}: `{selector}` number {nth + 1} is disabled", page, voila, events)
    known = len(problems(page, voila, events))
    assert page.evaluate(ARM_JS, before), f"{what}: the chart data changed before the click"
    start = time.perf_counter()
    button.click(timeout=CLICK_TIMEOUT_S * 1000)
    handle = None
    while handle is None:  # a second at a time, to stop at once on an error rather than wait it out
        try:
            handle = page.wait_for_function(CHANGED_JS, polling=20, timeout=1000)
        except PlaywrightTimeout:
            if len(problems(page, voila, events)) > known:
                fail_with_context(f"{what}: an error after clicking `{selector}`", page, voila, events)
            if time.perf_counter() - start > CLICK_TIMEOUT_S:
                fail_with_context(
                    f"{what}: the chart data did not change within {CLICK_TIMEOUT_S:.0f} s of clicking `{selector}`",
                    page, voila, events,
                )
    wall_ms = (time.perf_counter() - start) * 1000
    stamp = handle.json_value()
    page_ms = stamp["changedAt"] - stamp["clickAt"] if stamp.get("clickAt") is not None else wall_ms
    after = wait_until_stable(page)
    assert after != before, f"{what}: the chart data changed, then went back"
    return page_ms, wall_ms, after


def screenshot(page: Any, path: Path) -> None:
    """The whole app: Voila scrolls inside a panel, not the page, so grow the window to fit."""
    height = page.evaluate(
        "() => Math.max(0, ...[...document.querySelectorAll('.jp-OutputArea-output')]"
        ".map((e) => e.getBoundingClientRect().bottom))"
    )
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height) + 40, 10000))})
    page.wait_for_timeout(500)  # let Plotly resize
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(size)


def test_app_in_browser(
    browser_page: tuple[Any, PageEvents], voila: Voila, app_notebook: Path
) -> None:
    """Open the app, add an attacker unit, move a command card: the charts follow, no error."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page, events = browser_page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    test_start = time.monotonic()
    try:
        response = page.goto(voila.url, wait_until="commit", timeout=RENDER_TIMEOUT_S * 1000)
        assert response is not None and response.ok, f"Voila answered {response and response.status}"
        try:
            state = page.wait_for_function(
                READY_JS, polling=250, timeout=RENDER_TIMEOUT_S * 1000
            ).json_value()
        except PlaywrightTimeout:
            fail_with_context(
                f"the app did not render (Plotly chart with data, `{ADD_UNIT}`, `{CMD_RIGHT}`) "
                f"within {RENDER_TIMEOUT_S:.0f} s",
                page, voila, events,
            )
        if "errors" in state:
            fail_with_context("the app shows an error while loading", page, voila, events)
        initial = wait_until_stable(page, quiet_s=1.0)
        load_s = time.monotonic() - test_start
        print(f"\napp rendered in {load_s:.1f} s with {len(initial)} Plotly chart(s)")
        assert initial, "no Plotly chart (.js-plotly-plot) on the page"
        if app_notebook == ROOT / "notebooks" / "explorer.ipynb":
            # 4 battle charts, A/B overlay, sweep heatmap, 2 dice-lab charts: every FigureWidget drew.
            assert len(initial) == APP_CHARTS, f"{len(initial)} charts drawn, expected {APP_CHARTS}"
        assert_no_problems(page, voila, events, "after loading")

        add_ms, _, after_add = click_and_wait_for_redraw(page, ADD_UNIT, initial, "add unit", voila, events)
        assert after_add != initial, "adding an attacker unit did not change the charts"
        assert_no_problems(page, voila, events, "after adding an attacker unit")

        move_ms, _, after_move = click_and_wait_for_redraw(
            page, CMD_RIGHT, after_add, "move command card right", voila, events
        )
        assert after_move != after_add, "moving a command card did not change the charts"
        assert_no_problems(page, voila, events, "after moving a command card")

        page_ms: list[float] = []
        wall_ms: list[float] = []
        data = after_move
        for i in range(TIMED_CLICKS):  # the first card goes back (second "left") and forth (first "right")
            selector, nth = (CMD_LEFT, 1) if i % 2 == 0 else (CMD_RIGHT, 0)
            in_page, wall, data = click_and_wait_for_redraw(
                page, selector, data, f"timed click {i + 1} ({selector} number {nth + 1})", voila, events, nth
            )
            page_ms.append(in_page)
            wall_ms.append(wall)
        assert_no_problems(page, voila, events, "after the timed clicks")
        screenshot(page, SCREENSHOTS / "voila-app.png")
    except BaseException:
        with contextlib.suppress(PlaywrightError):
            screenshot(page, SCREENSHOTS / "voila-app-failure.png")
        raise

    timings = {
        "what": "ms from the click event to the first DOM change or frame with new Plotly data (page clock)",
        "notebook": str(app_notebook.relative_to(ROOT) if app_notebook.is_relative_to(ROOT) else app_notebook),
        "median_click_to_redraw_ms": round(statistics.median(page_ms), 1),
        "clicks_ms": [round(t, 1) for t in page_ms],
        "clicks_wall_ms": [round(t, 1) for t in wall_ms],
        "add_unit_ms": round(add_ms, 1),
        "first_card_move_ms": round(move_ms, 1),
        "page_render_s": round(load_s, 1),
        "browser_test_s": round(time.monotonic() - test_start, 1),
        "cpus": os.cpu_count(),
    }
    (BUILD / "timings.json").write_text(json.dumps(timings, indent=2) + "\n", encoding="utf-8")
    print(
        f"click-to-redraw median {timings['median_click_to_redraw_ms']} ms over {TIMED_CLICKS} clicks "
        f"(min {min(page_ms):.0f}, max {max(page_ms):.0f}); add unit {add_ms:.0f} ms; "
        f"first card move {move_ms:.0f} ms -> build/timings.json"
    )
    offline = sorted({url for url in events.failed_requests if not url.startswith(voila.url)})
    if offline:
        print("requests that failed (no network here, not an error of the app):\n  " + "\n  ".join(offline))
