"""Helpers of the real-browser test (`tests/browser/test_app.py`): the server, the page, the checks.

Nothing here filters an error away: the page's console, its uncaught errors and the kernel's
tracebacks are all recorded, and the test decides what fails.

The checks compare what the browser *drew* (the Plotly graph div's ``.data`` and ``.layout``
inside every ``.explorer-chart``) with figures built in the test process from the same battle:
the scenario the panel writes in its scenario box, resolved by the game package and charted by
`explorer.charts`. A chart that kept the previous battle fails, whatever its revision says.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
SCREENSHOTS = BUILD / "screenshots"
SERVE = ROOT / "scripts" / "serve.py"

TOLERANCE = 1e-9
"""Largest difference allowed between a drawn probability and the one computed here."""

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

ERROR_WORDS = ("anywidget", "Failed to", "Error")
"""A console message of any type containing one of these is an error (``anywidget`` in any case)."""

TRACEBACK_MARK = "EXPLORER-KERNEL-TRACEBACK"

KERNEL_STARTUP = f'''\
def _explorer_log_tracebacks():
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


_explorer_log_tracebacks()
del _explorer_log_tracebacks
'''
"""An IPython startup file for the kernels: every traceback the kernel shows (a failing cell, an
exception in a widget callback, which Voila shows nowhere) is copied to the server's log."""


# ----------------------------------------------------------------------------- the server
URL_PATTERN = re.compile(r"http://127\.0\.0\.1:(\d+)/[^\s'\"<>]*")


def free_port() -> int:
    """A free TCP port on localhost (bind to port 0 and let the system pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def address_in(text: str) -> str | None:
    """The first complete http://127.0.0.1:PORT/... address in `text` (Voila's own line ends in ``...``)."""
    for match in URL_PATTERN.finditer(text):
        if not match.group(0).endswith("..."):
            return match.group(0)
    return None


class ServerLog:
    """What a started server wrote (its kernels' output included), read by the tests: needs `log_path`."""

    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def kernel_tracebacks(self) -> list[str]:
        """Tracebacks any kernel showed (cell errors, exceptions in widget callbacks; `KERNEL_STARTUP`)."""
        parts = self.log().split(TRACEBACK_MARK + "\n")[1:]
        return [part.split(TRACEBACK_MARK + "-END")[0].strip() for part in parts]


@dataclass
class Server(ServerLog):
    """`scripts/serve.py` started by the test, as `make run` starts it."""

    url: str
    """The address it printed, token included."""
    base: str
    """``http://127.0.0.1:PORT/``."""
    process: subprocess.Popen[bytes]
    log_path: Path


def until(what: str, probe: Callable[[], Any], timeout_s: float, server: ServerLog | None = None) -> Any:
    """Poll `probe` until it returns something truthy; fail with the last value (and the server's log)."""
    deadline = time.monotonic() + timeout_s
    last: Any = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(0.25)
    raise AssertionError(f"{what}: not within {timeout_s:.0f} s (last seen: {str(last)[:2000]})"
                         + ("" if server is None else f"\nserver log:\n{server.log_tail(30)}"))


def _answers(base: str) -> bool:
    """True once the server answers HTTP at all (a static file; the page itself would take a kernel)."""
    try:
        urllib.request.urlopen(base + "voila/static/voila.js", timeout=3).close()
    except urllib.error.HTTPError:
        return True  # an HTTP answer, whatever its status
    except (urllib.error.URLError, OSError):
        return False
    return True


def start_server(notebook: Path, ipython_dir: Path, log_path: Path, timeout_s: float) -> Server:
    """Run ``scripts/serve.py NOTEBOOK --port <free port>``; wait for its address and first answer."""
    command = [sys.executable, str(SERVE), str(notebook), "--port", str(free_port())]
    env = dict(os.environ, IPYTHONDIR=str(ipython_dir), PYTHONUNBUFFERED="1")
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + timeout_s
    url = None
    try:
        while time.monotonic() < deadline:
            text = log_path.read_text(encoding="utf-8", errors="replace")
            if process.poll() is not None:
                raise AssertionError(f"{' '.join(command)} exited with code {process.returncode}:\n{text}")
            url = url or address_in(text)
            if url is not None:
                port = URL_PATTERN.match(url).group(1)  # type: ignore[union-attr]
                base = f"http://127.0.0.1:{port}/"
                if _answers(base):
                    return Server(url, base, process, log_path)
            time.sleep(0.25)
        text = log_path.read_text(encoding="utf-8", errors="replace")
        raise AssertionError(
            f"{' '.join(command)} did not "
            + ("print an http://127.0.0.1:PORT/ address" if url is None else f"answer at {url}")
            + f" within {timeout_s:.0f} s:\n{text}")
    except BaseException:
        stop_server(process)
        raise


@contextlib.contextmanager
def app_server(notebook: Path, ipython_dir: Path, log_name: str, timeout_s: float = 90.0) -> Iterator[Server]:
    """The app served as ``make run`` serves it, with `KERNEL_STARTUP` in its kernels, for a test module.

    Args:
        notebook: the app notebook.
        ipython_dir: an empty folder for the kernels' IPython profile.
        log_name: the server log's file name under ``build/``.
        timeout_s: how long the server may take to answer.
    """
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-log-tracebacks.py").write_text(KERNEL_STARTUP, encoding="utf-8")
    BUILD.mkdir(exist_ok=True)
    running = start_server(notebook, ipython_dir, BUILD / log_name, timeout_s)
    try:
        yield running
    finally:
        stop_server(running.process)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group (it shuts its kernels down), SIGKILL if it hangs."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass


# ----------------------------------------------------------------------------- the page
INIT_SCRIPT = r"""
(() => {
  // Runs before any script of the page. Records, in the page's own clock (performance.now(),
  // 0 = navigation start): every change of a chart's data-state / data-revision, the first
  // chart drawn, and the moment of the test's action (click, key or change event).
  const ex = {firstDrawn: null, log: [], armed: false, actAt: null, nextId: 1};
  ex.idOf = (el) => el.__explorerTestId || (el.__explorerTestId = ex.nextId++);
  window.__explorerTest = ex;
  const seen = (el) => {
    if (!el.classList || !el.classList.contains('explorer-chart')) return;
    const t = performance.now();
    ex.log.push([ex.idOf(el), Number(el.dataset.revision), el.dataset.state || '', t]);
    if (ex.firstDrawn === null && el.dataset.state === 'drawn') ex.firstDrawn = t;
  };
  new MutationObserver((records) => {
    for (const r of records) if (r.type === 'attributes') seen(r.target);
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-state', 'data-revision']});
  const act = () => { if (ex.armed && ex.actAt === null) ex.actAt = performance.now(); };
  for (const type of ['click', 'keydown', 'change']) window.addEventListener(type, act, true);
})();
"""

SNAPSHOT_JS = r"""
() => {
  // Every chart: where it is, its state, what it drew (traces and title), its overlay.
  const ex = window.__explorerTest;
  const plain = (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value);
  const charts = [...document.querySelectorAll('.explorer-chart')].map((el) => {
    const plot = el.querySelector('.explorer-chart-plot');
    const overlay = el.querySelector('.explorer-chart-overlay');
    const layout = (plot && plot.layout) || {};
    const title = layout.title && typeof layout.title === 'object' ? layout.title.text : layout.title;
    const aq = el.closest('.aq-panel');
    const agot = el.closest('.agot-panel');
    const group = aq ? (el.closest('.explorer-charts') ? 'aq' : 'aq-other')
      : agot ? (el.closest('.agot-odds') ? 'agot-odds' : el.closest('.explorer-results-tab') ? 'agot' : 'agot-other')
      : el.closest('.aotg-plan-tab') ? 'aotg-plan' : el.closest('.explorer-charts') ? 'battle'
      : el.closest('.lab-root') ? 'lab' : el.closest('.aotg-panel') ? 'assault' : 'other';
    return {
      id: ex.idOf(el), group,
      state: el.dataset.state || null,
      revision: el.dataset.revision === undefined ? null : Number(el.dataset.revision),
      visible: Boolean(plot && plot.offsetWidth > 0 && plot.offsetHeight > 0),
      plotly: Boolean(plot && plot.classList.contains('js-plotly-plot')),
      title: title === undefined ? null : title,
      overlay: overlay ? overlay.textContent : null,
      overlayShown: Boolean(overlay && overlay.style.display !== 'none' && overlay.textContent.trim()),
      traces: ((plot && plot.data) || []).map((t) => ({
        type: t.type ?? null, name: t.name ?? null, orientation: t.orientation ?? null,
        x: t.x ?? null, y: t.y ?? null, z: t.z ?? null})),
    };
  });
  return JSON.stringify(charts, plain);
}
"""

SCENARIO_JS = """
() => { const box = document.querySelector('.aotg-scenario-text textarea'); return box ? box.value : null; }
"""

SUMMARY_JS = r"""
() => {
  const box = document.querySelector('.aotg-summary');
  const table = box && box.querySelector('table');
  if (!table) return null;
  return {
    stale: box.classList.contains('aotg-stale'),
    headers: [...table.querySelectorAll('thead th')].map((th) => th.textContent.trim()),
    rows: [...table.querySelectorAll('tbody tr')].map((tr) => ({
      side: (tr.querySelector('th') || {}).textContent.trim(),
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())})),
  };
}
"""

VISIBLE_ERRORS_JS = r"""
() => {
  // Error text the app shows next to inputs (.aotg-error, .aq-error, .agot-error, .lab-error), and tracebacks or
  // "...Error" in output areas (a failing cell, ipywidgets' "Error displaying widget").
  const shown = (e) => (e.checkVisibility ? e.checkVisibility() : e.offsetParent !== null);
  const found = [];
  for (const e of document.querySelectorAll('.aotg-error, .aq-error, .agot-error, .lab-error')) {
    const text = (e.innerText || '').trim();
    if (text && shown(e)) found.push('message next to an input: ' + text);
  }
  const bad = /Traceback|\b\w*Error\b|There was an error/;
  const outputs = [...document.querySelectorAll('.jp-OutputArea-output')].filter((e) => bad.test(e.innerText || ''));
  for (const e of outputs) {
    if (!outputs.some((o) => o !== e && e.contains(o))) found.push('output area: ' + e.innerText.trim().slice(0, 2000));
  }
  return found;
}
"""

LAB_INPUTS_JS = r"""
() => {
  // The dice lab's inputs by their label: text / number boxes, drop-downs, toggle buttons.
  const root = document.querySelector('.lab-root');
  if (!root) return null;
  const found = {};
  for (const w of root.querySelectorAll('.widget-inline-hbox, .widget-toggle-buttons')) {
    const label = w.querySelector(':scope > label.widget-label');
    if (!label) continue;
    const name = label.textContent.trim();
    const active = w.querySelector('button.mod-active');
    const input = w.querySelector('input, select, textarea');
    if (active) found[name] = active.textContent.trim();
    else if (input) found[name] = input.value;
  }
  const heading = root.querySelector('.widget-html-content b');
  found['__heading'] = heading ? heading.textContent : '';
  return found;
}
"""

REDRAWN_JS = r"""
([before, scenarioBefore, boxSelector]) => {
  // Every chart in `before` ({id: revision}) drew a newer revision and says "drawn"; and, if
  // `scenarioBefore` is a string, the scenario box (`boxSelector`, default the Assault panel's)
  // holds another text.
  const ex = window.__explorerTest;
  const waiting = new Set(Object.keys(before));
  for (const el of document.querySelectorAll('.explorer-chart')) {
    const id = String(ex.idOf(el));
    if (!waiting.has(id)) continue;
    if (el.dataset.state !== 'drawn' || !(Number(el.dataset.revision) > before[id])) return false;
    waiting.delete(id);
  }
  if (waiting.size) return false;
  if (typeof scenarioBefore === 'string') {
    const box = document.querySelector(boxSelector || '.aotg-scenario-text textarea');
    if (!box || box.value === scenarioBefore) return false;
  }
  return true;
}
"""

STALE_JS = r"""
([naming, others, word]) => {
  // Every chart of `naming` and `others` says "stale" with an overlay shown; those of `naming`
  // have `word` in it.
  const ex = window.__explorerTest;
  const want = new Map([...naming.map((id) => [String(id), true]), ...others.map((id) => [String(id), false])]);
  let count = 0;
  for (const el of document.querySelectorAll('.explorer-chart')) {
    const id = String(ex.idOf(el));
    if (!want.has(id)) continue;
    const overlay = el.querySelector('.explorer-chart-overlay');
    if (el.dataset.state !== 'stale' || !overlay || overlay.style.display === 'none' || !overlay.textContent.trim()
        || (want.get(id) && !overlay.textContent.includes(word))) return false;
    count += 1;
  }
  return count === want.size;
}
"""

ARM_JS = "() => { const ex = window.__explorerTest; ex.armed = true; ex.actAt = null; }"
ACTED_JS = "() => { const ex = window.__explorerTest; ex.armed = false; return ex.actAt; }"
LOG_JS = "() => window.__explorerTest.log"


@dataclass
class PageLog:
    """What one page reported: console, uncaught errors, failed requests, websocket traffic."""

    console: list[dict[str, str]] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    ws_bytes: int = 0
    ws_frames: int = 0
    ws_largest: int = 0

    def errors(self) -> list[str]:
        """Every message that counts as an error (nothing is filtered away)."""
        found = [f"uncaught error in the page: {e}" for e in self.page_errors]
        for msg in self.console:
            text = msg["text"]
            if msg["type"] == "error" or "anywidget" in text.lower() or any(w in text for w in ERROR_WORDS[1:]):
                where = f" (from {msg['url']})" if msg.get("url") else ""
                found.append(f"console {msg['type']}: {text}{where}")
        found += [f"dialog: {d}" for d in self.dialogs]
        return found


def attach(page: Any) -> PageLog:
    """Record everything `page` reports into a new `PageLog`."""
    log = PageLog()

    def console(msg: Any) -> None:
        location = msg.location or {}
        log.console.append({"type": msg.type, "text": msg.text, "url": location.get("url", "")})

    def frame(payload: str | bytes) -> None:
        size = len(payload) if isinstance(payload, bytes | bytearray) else len(payload.encode("utf-8"))
        log.ws_bytes += size
        log.ws_frames += 1
        log.ws_largest = max(log.ws_largest, size)
        if os.environ.get("EXPLORER_WS_DUMP"):  # a breakdown of the bytes, for whoever tunes them
            with open(os.environ["EXPLORER_WS_DUMP"], "ab") as dump:
                text = payload if isinstance(payload, bytes | bytearray) else payload.encode("utf-8")
                dump.write(len(text).to_bytes(4, "big") + bytes(text))

    def dialog(d: Any) -> None:
        if d.type != "beforeunload":
            log.dialogs.append(f"{d.type}: {d.message}")
        d.accept()

    page.on("console", console)
    page.on("pageerror", lambda error: log.page_errors.append(str(error)))
    page.on("requestfailed", lambda r: log.failed_requests.append(f"{r.url} ({r.failure})"))
    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    page.on("dialog", dialog)
    return log


@contextlib.contextmanager
def opened_app(url: str, chromium_path: Path, timeout_s: float,
               viewport: tuple[int, int] = (1400, 900)) -> Iterator[tuple[Any, PageLog]]:
    """The app at `url` in a fresh headless Chromium (the test's init script in place, its log
    attached), once its first chart is drawn; the page and its log. Fails at the end if the page
    threw an uncaught error."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        context.add_init_script(INIT_SCRIPT)
        page = context.new_page()
        log = attach(page)
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        until("the first chart drawn", lambda: page.evaluate("window.__explorerTest.firstDrawn !== null"), timeout_s)
        yield page, log
        assert not log.page_errors, log.page_errors
        browser.close()


def build_side_tab(page: Any, panel_css: str, title: str, back_to: str, timeout_s: float) -> None:
    """Open a panel's side tab `title` once, so that it is built, then go back to tab `back_to`.

    The app builds a panel's side tabs (scenario box, sweep, advisors...) the first time each is
    opened (`explorer.panels.common.lazy`); the tests read the scenario box, so they open it first,
    as a person would to see the scenario.
    """
    tabs = page.locator(f"{panel_css} .lm-TabBar-tab")
    tabs.filter(has_text=title).first.click(timeout=timeout_s * 1000)
    tabs.filter(has_text=back_to).first.click(timeout=timeout_s * 1000)


def check_whatif(page: Any, panel_css: str, group: str, expected: Callable[[str], Any],
                 timeout_s: float, fail: Callable[[str], None], title: str = "What if? (A vs B)") -> None:
    """Open the panel's tab `title` (the what-if), wait until its charts equal `expected`, go back to "Results".

    Args:
        title: the tab's title (another tool whose charts this test knows: the card odds).
        group: the what-if charts' group (`SNAPSHOT_JS`).
        expected: chart title -> the figure computed here, or None for a title the test does not know.
        fail: called with what is wrong when the charts do not agree within `timeout_s`.
    """
    tabs = page.locator(f"{panel_css} .lm-TabBar-tab")
    tabs.filter(has_text=title).first.click(timeout=timeout_s * 1000)
    deadline = time.monotonic() + timeout_s
    while True:
        charts = [c for c in snapshot(page) if c["visible"] and c["group"] == group]
        found = [] if charts else ["no what-if chart visible"]
        for chart in charts:
            where = f"{title}: chart {chart['title']!r}"
            if chart["state"] != "drawn" or chart["overlayShown"]:
                found.append(f"{where}: state {chart['state']!r}, overlay {chart['overlay']!r}")
                continue
            figure = expected(chart["title"] or "")
            found += [f"{where}: a title this test cannot check"] if figure is None else figure_differences(where, chart, figure)
        if not found:
            break
        if time.monotonic() > deadline:
            fail(f"the tab {title!r} does not show what is computed here:\n  " + "\n  ".join(found))
            return
        time.sleep(0.25)
    tabs.filter(has_text="Results").first.click(timeout=timeout_s * 1000)


def snapshot(page: Any) -> list[dict[str, Any]]:
    """Every chart on the page (see `SNAPSHOT_JS`)."""
    return json.loads(page.evaluate(SNAPSHOT_JS))


def page_kernel_id(page: Any) -> str:
    """The id of the kernel Voila gave the page, read from its page config ("" before it is there)."""
    return str(page.evaluate("() => { const c = document.getElementById('jupyter-config-data');"
                             " return c ? (JSON.parse(c.textContent).kernelId || '') : ''; }"))


def scenario_text(page: Any) -> str | None:
    """The text of the Assault panel's scenario box (None: no such box)."""
    return page.evaluate(SCENARIO_JS)


def drawn_at(log: Sequence[Sequence[Any]], chart_id: int, revision: int) -> float | None:
    """When (page clock, ms) chart `chart_id` first said "drawn" at `revision`."""
    for entry_id, entry_revision, state, t in log:
        if entry_id == chart_id and entry_revision == revision and state == "drawn":
            return float(t)
    return None


# ----------------------------------------------------------------------------- comparing figures
def plain_figure(figure: Any) -> dict[str, Any]:
    """A plotly figure as the JSON plotly.js receives."""
    return json.loads(figure.to_json())


def figure_title(figure: Mapping[str, Any]) -> str | None:
    title = figure.get("layout", {}).get("title")
    return title.get("text") if isinstance(title, dict) else title


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 300 else text[:300] + "..."


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def difference(actual: Any, expected: Any) -> str | None:
    """Why `actual` (drawn) is not `expected` (computed), or None; numbers within `TOLERANCE`."""
    if _number(actual) and _number(expected):
        ok = math.isfinite(actual) and abs(actual - expected) <= TOLERANCE
        return None if ok else f"{actual!r} != {expected!r}"
    if isinstance(actual, list) and isinstance(expected, list):
        if len(actual) != len(expected):
            return f"{len(actual)} values {_short(actual)}, expected {len(expected)} {_short(expected)}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            why = difference(a, e)
            if why is not None:
                return f"[{i}]: {why} (drawn {_short(actual)}, expected {_short(expected)})"
        return None
    return None if actual == expected else f"{_short(actual)} != {_short(expected)}"


def figure_differences(label: str, chart: Mapping[str, Any], expected: Mapping[str, Any]) -> list[str]:
    """How a drawn chart differs from an expected figure: title, traces (type, name, x, y, z)."""
    found = []
    want_title = figure_title(expected)
    if chart["title"] != want_title:
        found.append(f"{label}: title {chart['title']!r}, expected {want_title!r}")
    drawn, wanted = chart["traces"], expected.get("data", [])
    if len(drawn) != len(wanted):
        return found + [f"{label}: {len(drawn)} traces {[t['name'] for t in drawn]}, expected {len(wanted)} "
                        f"{[t.get('name') for t in wanted]}"]
    for i, (a, e) in enumerate(zip(drawn, wanted)):
        trace = f"{label}, trace {i + 1} ({e.get('name') or e.get('type')})"
        for key in ("type", "name", "orientation"):
            if a.get(key) != e.get(key):
                found.append(f"{trace}: {key} {a.get(key)!r}, expected {e.get(key)!r}")
        for key in ("x", "y", "z"):
            why = difference(a.get(key), e.get(key))
            if why is not None:
                found.append(f"{trace}: {key} {why}")
    return found


# ----------------------------------------------------------------------------- the kernel's result, here
BATTLE_CHARTS = ("hits", "damage", "casualties", "ordning_points")
"""The battle charts in page order (the keys of `explorer.charts.battle_figures`)."""

BATTLE_TITLES = ("Hits after rerolls and conversions", "Damage taken", "Casualties", "Ordning Points earned")

COMPARE_QUANTITIES: dict[str, Callable[[Any], Any]] = {
    "Damage to the defender": lambda r: r.defender.damage_taken,
    "Damage to the attacker": lambda r: r.attacker.damage_taken,
    "Ordning points earned by the attacker": lambda r: r.attacker.ordning_points,
    "Ordning points earned by the defender": lambda r: r.defender.ordning_points,
    "Attacker hits": lambda r: r.attacker.hits,
    "Defender hits": lambda r: r.defender.hits,
}
"""The what-if chart by its title (the quantity compared, capitalised): the distribution it shows."""


@dataclass
class Battle:
    """One battle resolved here, from the text of the panel's scenario box."""

    text: str
    scenario: dict[str, Any]
    result: Any
    _figures: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def from_text(cls, text: str) -> Battle:
        from explorer.games.assault_of_the_giants import parse_battle, resolve_battle

        scenario = json.loads(text)
        return cls(text, scenario, resolve_battle(parse_battle(scenario)))

    def battle_figures(self, view: str) -> list[dict[str, Any]]:
        """The four battle charts for `view`, in page order, as plotly JSON."""
        if view not in self._figures:
            from explorer import charts

            figures = charts.battle_figures(self.result, view)
            self._figures[view] = [plain_figure(figures[name]) for name in BATTLE_CHARTS]
        return self._figures[view]

    def compare_figure(self, title: str) -> dict[str, Any] | None:
        """The what-if chart with nothing pinned (the current battle alone), or None for an unknown title."""
        from explorer import charts

        pick = COMPARE_QUANTITIES.get(title)
        if pick is None:
            return None
        dist = pick(self.result)
        return plain_figure(charts.compare_figure(None, dist, title=title, x_title=title.split(" ")[0]))

    def summary_differences(self, table: Mapping[str, Any] | None) -> list[str]:
        """How the summary table differs from this battle, to the precision printed."""
        from explorer.games.assault_of_the_giants.battle.summary import summary_rows

        if table is None:
            return ["the summary table (.aotg-summary table) is missing"]
        headers = table["headers"][1:]
        ks = [int(m.group(1)) for h in headers if (m := re.search(r"≥ (\d+)\)", h))]
        rows = summary_rows(self.result, ks[0] if ks else 3)
        found = []
        shown = {row["side"]: dict(zip(headers, row["cells"])) for row in table["rows"]}
        for side, values in rows.items():
            if side not in shown:
                found.append(f"summary: no row for {side} (rows: {list(shown)})")
                continue
            for quantity, value in values.items():
                text = shown[side].get(quantity)
                if text is None:
                    found.append(f"summary: no column {quantity!r} (columns: {headers})")
                elif not printed_matches(text, float(value)):
                    found.append(f"summary, {side}, {quantity}: shows {text}, the battle gives {float(value):.6g}")
        return found


def printed_matches(text: str, value: float) -> bool:
    """Whether `text` ("6.585", "28.60%") is `value` to the precision printed.

    >>> printed_matches("28.60%", 0.28604), printed_matches("6.585", 6.5862)
    (True, False)
    """
    body, scale = (text[:-1], 100.0) if text.endswith("%") else (text, 1.0)
    match = re.fullmatch(r"-?\d+(?:\.(\d+))?", body.strip())
    if match is None:
        return False
    half_unit = 0.5 * 10.0 ** -len(match.group(1) or "")
    return abs(float(body) - value * scale) <= half_unit + 1e-9


def lab_engines() -> list[Any]:
    """Every dice-lab engine, from the game registry (``GameDef.lab_engine``)."""
    from explorer.games import find_game, labs

    return [find_game(name).lab_engine() for name in labs()]


def lab_expected(inputs: Mapping[str, str]) -> tuple[list[dict[str, Any]], str | None]:
    """The dice lab's two charts (distribution, hits x blocks) for the inputs shown, computed here.

    Returns:
        The two figures as plotly JSON, and a problem reading the inputs (or None).
    """
    from explorer import charts
    from explorer.scenario.lab import CUSTOM, JOINT, parse_custom_die

    engines = [e for e in lab_engines() if e.title in inputs.get("__heading", "")]
    if len(engines) != 1:
        return [], f"no single lab engine for the heading {inputs.get('__heading')!r}"
    engine = engines[0]
    try:
        pool = {name: int(inputs[f"{name} dice"]) for name in engine.dice()}
        pool[CUSTOM] = int(inputs["custom dice"])
        custom = parse_custom_die(inputs["custom die faces"], engine.symbols, engine.face_limits, engine.faces_per_die)
        mods = {m.name: int(inputs[m.label]) for m in engine.modifiers()}
        policy, view, outcome = inputs["reroll policy"], inputs["show"], inputs["outcome"]
    except (KeyError, ValueError) as error:
        return [], f"cannot read the lab's inputs {dict(inputs)}: {error!r}"
    result = engine.compute(pool, {CUSTOM: custom}, mods, policy)
    distribution = charts.distribution_figure(
        result[outcome], title=f"{outcome.capitalize()} after rerolls and conversions", x_title=outcome,
        view=view, name=outcome)
    return [plain_figure(distribution), plain_figure(charts.symbols_figure(result[JOINT]))], None
