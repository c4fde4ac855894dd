"""The explorer in a real browser: do the charts show the battle the inputs describe, every time?

The app is started as ``make run`` starts it (``scripts/serve.py NOTEBOOK --port <free port>``;
the address it prints, token included, is the one opened). Debian's Chromium opens it several
times, a fresh page each time, with the CPU throttled 4x (Chrome DevTools
``Emulation.setCPUThrottlingRate``). In every load:

1. the time from navigation to the first chart drawn (``data-state="drawn"``) is recorded;
2. inputs of several kinds are changed (a dice box, the view toggle, add a unit, move and play
   command cards, giantslayers, race). After EACH change the test waits until every visible chart
   drew a newer revision, then checks that every visible chart's traces (x, y, z as floats within
   1e-9, names) and title EQUAL the figures computed in this process for the battle in the
   panel's scenario box (`explorer.games.assault_of_the_giants` + `explorer.charts`), and that the
   summary table agrees to the precision printed. The scenario box must show each change;
3. a bad input (-1 dice): every battle chart must turn ``stale`` with an overlay naming the field
   and keep the last valid battle; a valid value brings them back, drawn and right;
3b. the panel's decision tabs (`tests/browser/aotg_tabs.py`): "What should I reroll?", "Which row?
   (advisor)", "Plan of battles" and "Rules of the table" opened one by one; each shows what is
   computed here from the inputs it shows (the roll, the hand, the plan's text, the table), before
   and after one change;
4. the Arcadia Quest tab (`tests/browser/arcadia.py`): its charts drawn, then a monster's Life,
   a Close Monster added, the view and the Payback's reach changed; after each, every visible chart
   EQUALS the figures computed here for the encounter in its scenario box (``.aq-scenario-text``),
   resolved by `explorer.resolve`, and the summary table agrees;
5. the A Game of Thrones tab (`tests/browser/agot.py`): its charts drawn, then a side's gold, a
   character's STR and the first player changed; after each, the round's charts EQUAL the figures
   computed here for the round in its scenario box (``.agot-scenario-text``), and the card-odds
   charts those of their opening inputs;
6. the Dice lab tab: both charts drawn, a dice count changed, the charts equal what the lab's
   engine computes here for the inputs shown.

Steps 1-3 run on every throttled load; the first runs 3b-6 as well, and later loads share them out
(even loads: 3b and 4; odd: 5 and 6), so that each is checked on two throttled loads (`Load.runs`).

Any uncaught error, console error, console text with "anywidget" / "Failed to" / "Error", kernel
traceback, or chart in ``error`` (or ``stale`` while the inputs are valid) fails a test; nothing
is filtered away. Each load's websocket traffic must stay within 6 MB.

Environment: ``EXPLORER_APP_NOTEBOOK`` serves another notebook; ``EXPLORER_BROWSER_LOADS``
(default 3) throttled loads; ``EXPLORER_BROWSER_UNTHROTTLED_LOADS`` (default 1) extra unthrottled
loads (first chart and first check only, for the unthrottled target); ``EXPLORER_RENDER_TIMEOUT``
(seconds, default 120) bounds a page's first render.

Writes under ``build/``: ``browser-timings.json`` (the measurements), ``screenshots/app-1400x900.png``,
``app-1024x768.png``, ``aq-1400x900.png``, ``aq-1024x768.png`` and ``aotg-<tab>-1400x900.png`` (first load, after its checks), ``screenshots/failure-load-N.png`` on a
failure, and ``voila-browser.log`` (the server and its kernels). Run alone::

    .venv/bin/python -m pytest tests/browser/test_app.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import statistics
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.browser.agot import CHANGES as AGOT_CHANGES
from tests.browser.agot import AgotSteps
from tests.browser.aotg_tabs import TABS as AOTG_TABS
from tests.browser.aotg_tabs import AotgTabsSteps
from tests.browser.arcadia import CHANGES as ARCADIA_CHANGES
from tests.browser.arcadia import ArcadiaSteps
from tests.browser.support import (
    ACTED_JS,
    ARM_JS,
    BATTLE_TITLES,
    BUILD,
    CHROMIUM_ARGS,
    INIT_SCRIPT,
    KERNEL_STARTUP,
    LAB_INPUTS_JS,
    LOG_JS,
    REDRAWN_JS,
    SCREENSHOTS,
    STALE_JS,
    SUMMARY_JS,
    VISIBLE_ERRORS_JS,
    Battle,
    PageLog,
    Server,
    attach,
    build_side_tab,
    check_whatif,
    drawn_at,
    figure_differences,
    lab_expected,
    scenario_text,
    snapshot,
    start_server,
    stop_server,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
REAL_APP = ROOT / "notebooks" / "explorer.ipynb"

THROTTLED_LOADS = max(1, int(os.environ.get("EXPLORER_BROWSER_LOADS") or 3))
UNTHROTTLED_LOADS = max(0, int(os.environ.get("EXPLORER_BROWSER_UNTHROTTLED_LOADS") or 1))
CPU_THROTTLE = 4
RENDER_TIMEOUT_S = float(os.environ.get("EXPLORER_RENDER_TIMEOUT") or 120)
"""From opening the page to the first charts drawn (the kernel runs the notebook then)."""
CHANGE_TIMEOUT_S = 60.0
"""From an input change to every chart redrawn."""
SETTLE_TIMEOUT_S = 15.0
"""From every chart redrawn to the charts equal to the battle computed here (a later redraw may be due)."""
SERVER_START_S = 90.0
WS_BUDGET_BYTES = 6_000_000
"""The issue's budget for widget messages per page (asserted: a size, not a time)."""
MIN_TIMED_CHANGES = 10
APP_CHARTS = 4
"""Charts in the real app as it opens: the 4 battle charts of its Results tab. The tools' tabs (what-if, sweep,
advisors, plan) and the other games' tabs and the dice lab are built when first opened (`explorer.panels.common.lazy`, `explorer.app.LazyTab`):
a page holds only what it shows."""
TARGETS = {"first_chart_unthrottled_median_s": 5.0, "first_chart_throttled_4x_median_s": 15.0,
           "websocket_mb_per_page": WS_BUDGET_BYTES / 1e6}
"""The issue's targets: reported against the measurements; only the websocket size is asserted."""

POOL = {role: f".aotg-pool-basic-{role} input" for role in ("attacker", "defender")}
BAD_FIELD = "Attacker, basic dice"
"""What the page calls the attacker's basic dice box (``attacker.pool.basic`` in a file): the overlay and the
message beside the box name it so (`explorer.panels.common.field_names`)."""


# ----------------------------------------------------------------------------- the changes
@dataclass(frozen=True)
class Change:
    """One input change: what to do, what the scenario must then say, which charts redraw.

    Attributes:
        name: for messages and the report.
        act: does it on the page.
        view: the battle view after it (None: as before).
        check: (scenario before, scenario after) -> why the scenario box does not show the change, or None.
        scenario_changes: False when the battle stays the same (the view toggle): only the battle charts redraw.
    """

    name: str
    act: Callable[[Any], None]
    view: str | None = None
    check: Callable[[dict[str, Any], dict[str, Any]], str | None] | None = None
    scenario_changes: bool = True


def type_into(selector: str, value: int | str) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        box = page.locator(selector)
        box.fill(str(value))
        box.press("Enter")
    return act


def click(selector: str, nth: int = 0) -> Callable[[Any], None]:
    return lambda page: page.locator(selector).nth(nth).click()


def view_button(view: str) -> Callable[[Any], None]:
    pattern = re.compile(f"^{re.escape(view)}$")
    return lambda page: page.locator(".aotg-panel .explorer-results .widget-toggle-buttons button",
                                     has_text=pattern).click()


def choose(selector: str, value: str) -> Callable[[Any], None]:
    return lambda page: page.locator(selector).select_option(value)


def expect(description: str, test: Callable[[dict[str, Any], dict[str, Any]], bool]) -> Callable[..., str | None]:
    def check(before: dict[str, Any], after: dict[str, Any]) -> str | None:
        try:
            ok, why = test(before, after), ""
        except (KeyError, IndexError, TypeError) as error:
            ok, why = False, f" ({error!r})"
        return None if ok else f"the scenario box does not show the change: {description}{why}"
    return check


def _swapped(before: list[str], after: list[str]) -> bool:
    return len(before) >= 2 and after == [before[1], before[0], *before[2:]]


CHANGES: tuple[Change, ...] = (
    Change("attacker basic dice 4 -> 5 (typed)", type_into(POOL["attacker"], 5),
           check=expect("attacker.pool.basic == 5", lambda b, a: a["attacker"]["pool"]["basic"] == 5)),
    Change("view: at least", view_button("at least"), view="at least", scenario_changes=False),
    Change("add an attacker unit", click("button.aotg-add-unit.aotg-attacker"),
           check=expect("one more attacker unit",
                        lambda b, a: len(a["attacker"]["units"]) == len(b["attacker"]["units"]) + 1)),
    Change("move the attacker's first command card right", click(".aotg-commands-attacker button.aotg-cmd-right"),
           check=expect("attacker's first two commands swapped",
                        lambda b, a: _swapped(b["attacker"]["commands"], a["attacker"]["commands"]))),
    Change("play a defender command card", click(".aotg-commands-defender button.aotg-cmd-play"),
           check=expect("one more defender command",
                        lambda b, a: len(a["defender"]["commands"]) == len(b["defender"]["commands"]) + 1)),
    Change("view: at most", view_button("at most"), view="at most", scenario_changes=False),
    Change("tick giantslayers (attacker)",
           click(".aotg-army-attacker .widget-checkbox:has-text('giantslayers') input[type=checkbox]"),
           check=expect("attacker.giantslayers is true", lambda b, a: a["attacker"]["giantslayers"] is True)),
    Change("defender race hill -> stone",
           choose(".aotg-army-defender .widget-dropdown:has(> label:text-is('race')) select", "stone"),
           check=expect("defender race stone with stone dice",
                        lambda b, a: a["defender"]["race"] == "stone" and "stone" in a["defender"]["pool"])),
    Change("view: exactly", view_button("exactly"), view="exactly", scenario_changes=False),
)


# ----------------------------------------------------------------------------- one load
class LoadFailure(AssertionError):
    """A check of one load failed; the message says what was seen."""


SHARED_STEPS = {"assault decision tabs": 0, "arcadia quest": 0, "a game of thrones": 1, "dice lab": 1}
"""The steps that loads after the first share out: each runs on the loads whose number has this parity."""


@dataclass
class Load:
    """One page load and what was measured and seen in it."""

    index: int
    throttle: int
    full: bool
    """False: the first chart and the first check only (an unthrottled load for the report)."""
    log: PageLog = field(default_factory=PageLog)
    first_chart_ms: float | None = None
    first_chart_wall_ms: float | None = None
    all_charts_ms: float | None = None
    changes: list[dict[str, Any]] = field(default_factory=list)
    bad_input: dict[str, Any] = field(default_factory=dict)
    lab: dict[str, Any] = field(default_factory=dict)
    arcadia: dict[str, Any] = field(default_factory=dict)
    agot: dict[str, Any] = field(default_factory=dict)
    aotg_tabs: dict[str, Any] = field(default_factory=dict)
    steps: dict[str, str] = field(default_factory=dict)
    """Step name -> "ok", "FAILED: ...", or "not run: ..."."""
    kernel_tracebacks: list[str] = field(default_factory=list)
    chart_errors: list[str] = field(default_factory=list)
    screenshots: list[str] = field(default_factory=list)

    def runs(self, step: str) -> bool:
        """Whether this load has `step`: every full load has the Assault changes and the bad input;
        the first has every game, later ones share the other games out (`SHARED_STEPS`)."""
        if not self.full:
            return False
        if step in ("changes", "bad input") or self.index == 1:
            return True
        return self.index % 2 == SHARED_STEPS[step]

    def failed(self, step: str) -> str | None:
        status = self.steps.get(step)
        if status is None:
            return f"load {self.index}: step {step!r} never ran"
        return None if status == "ok" else f"load {self.index}, {step}: {status}"


class Driver:
    """Runs the checks of one load on one page.

    `server` is read for `Server.kernel_tracebacks` and `Server.log_tail` only (the in-browser site's
    test, `tests/browser/test_site.py`, hands in its own); the timeouts are class attributes, which
    that test raises for a kernel that starts inside the browser.
    """

    render_timeout_s = RENDER_TIMEOUT_S
    change_timeout_s = CHANGE_TIMEOUT_S
    settle_timeout_s = SETTLE_TIMEOUT_S

    def __init__(self, page: Any, load: Load, server: Server, battles: dict[str, Battle], real_app: bool) -> None:
        self.page, self.load, self.server, self.battles = page, load, server, battles
        self.real_app = real_app
        """True for notebooks/explorer.ipynb (a stand-in app may hold other charts)."""
        self.view = "exactly"
        self.battle: Battle | None = None
        self.known_tracebacks = len(server.kernel_tracebacks())

    # -- failing with everything seen ------------------------------------------------------------
    def fail(self, message: str) -> None:
        from playwright.sync_api import Error as PlaywrightError

        extra = []
        with contextlib.suppress(PlaywrightError):
            shown = self.page.evaluate(VISIBLE_ERRORS_JS)
            if shown:
                extra.append("shown on the page:\n  " + "\n  ".join(shown))
        if self.load.log.errors():
            extra.append("browser errors so far:\n  " + "\n  ".join(self.load.log.errors()[-8:]))
        tracebacks = self.new_tracebacks()
        if tracebacks:
            extra.append("kernel tracebacks:\n" + "\n\n".join(tracebacks))
        raise LoadFailure(message + ("\n\n" + "\n\n".join(extra) if extra else "")
                          + f"\n\nserver log (tail):\n{self.server.log_tail(25)}")

    def new_tracebacks(self) -> list[str]:
        return self.server.kernel_tracebacks()[self.known_tracebacks:]

    def wait(self, js: str, arg: Any, timeout_s: float, what: str) -> Any:
        """Wait for `js` to be truthy, a second at a time; stop at once on a kernel traceback.

        Errors in the page do not stop the wait (they fail `test_no_error_in_browser_or_kernel`):
        whether the charts still follow after one is worth knowing.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        start = time.monotonic()
        while True:
            try:
                return self.page.wait_for_function(js, arg=arg, polling=100, timeout=1000).json_value()
            except PlaywrightTimeout:
                if self.new_tracebacks():
                    self.fail(f"{what}: a kernel traceback while waiting")
                if time.monotonic() - start > timeout_s:
                    self.fail(f"{what}: not within {timeout_s:.0f} s\n\ncharts now:\n{self.describe_charts()}")

    def describe_charts(self) -> str:
        return "\n".join(f"  #{c['id']} {c['group']:8} state={c['state']} revision={c['revision']} "
                         f"visible={c['visible']} title={c['title']!r} overlay={c['overlay']!r}"
                         for c in snapshot(self.page))

    # -- what the page shows against what the battle gives ---------------------------------------
    def current_battle(self) -> tuple[Battle | None, str | None]:
        text = scenario_text(self.page)
        if text is None:
            return None, "no scenario box (.aotg-scenario-text textarea) on the page"
        if text not in self.battles:
            try:
                self.battles[text] = Battle.from_text(text)
            except Exception as error:  # noqa: BLE001 - reported as what the box held
                return None, f"the scenario box does not hold a battle the resolver takes: {error!r}\n{text[:2000]}"
        return self.battles[text], None

    def chart_problems(self, battle: Battle, view: str, state: str = "drawn",
                       overlay_word: str | None = None) -> list[str]:
        """How the Assault tab's visible charts differ from `battle` (every visible chart is checked)."""
        found, battle_charts = [], []
        for chart in snapshot(self.page):
            where = f"chart #{chart['id']} ({chart['title']!r})"
            if chart["state"] == "error":
                found.append(f"{where} is in state error: {chart['overlay']!r}")
            if chart["state"] == "stale" and state != "stale":
                found.append(f"{where} is stale with valid inputs: {chart['overlay']!r}")
            if not chart["visible"]:
                continue
            if not chart["plotly"]:
                found.append(f"{where}: no Plotly graph (.explorer-chart-plot.js-plotly-plot)")
            if chart["state"] != state:
                found.append(f"{where}: state {chart['state']!r}, expected {state!r}")
            if state == "drawn" and chart["overlayShown"]:
                found.append(f"{where}: shows an overlay {chart['overlay']!r}")
            if state == "stale" and not chart["overlayShown"]:
                found.append(f"{where}: stale but shows no overlay saying why")
            if overlay_word is not None and chart["group"] == "battle" and overlay_word not in (chart["overlay"] or ""):
                found.append(f"{where}: overlay {chart['overlay']!r} does not name {overlay_word!r}")
            if chart["group"] == "battle":
                battle_charts.append(chart)
            elif chart["group"] == "assault":
                expected = battle.compare_figure(chart["title"] or "")
                if expected is None:
                    found.append(f"{where}: a visible chart this test cannot check (unknown title)")
                else:
                    found += figure_differences(f"what-if chart {chart['title']!r}", chart, expected)
            else:
                found.append(f"{where}: visible in the Assault tab but in group {chart['group']!r}")
        if len(battle_charts) != len(BATTLE_TITLES):
            found.append(f"{len(battle_charts)} visible battle charts, expected {len(BATTLE_TITLES)}")
        else:
            for chart, expected in zip(battle_charts, battle.battle_figures(view)):
                found += figure_differences(f"battle chart {chart['title']!r} (view {view})", chart, expected)
        summary = self.page.evaluate(SUMMARY_JS)
        found += battle.summary_differences(summary)
        if summary is not None and summary["stale"] != (state == "stale"):
            found.append(f"summary table: stale mark {summary['stale']}, expected {state == 'stale'}")
        if state == "drawn":
            found += self.page.evaluate(VISIBLE_ERRORS_JS)
        return found

    def settle(self, what: str, view: str, check: Callable[[dict[str, Any]], str | None] | None = None) -> Battle:
        """Wait until the visible charts equal the battle in the scenario box (and `check` passes)."""
        deadline = time.monotonic() + self.settle_timeout_s
        agreed: tuple[str, dict[str, int]] | None = None
        while True:
            battle, problem = self.current_battle()
            problems = [problem] if problem else []
            if battle is not None and check is not None:
                why = check(battle.scenario)
                problems += [why] if why else []
            if battle is not None and not problems:
                revisions = self.ids(("battle", "assault"))
                problems = self.chart_problems(battle, view)
                if not problems:
                    # Right twice in a row, 0.3 s apart, with no redraw between: a redraw still on
                    # its way would otherwise count as the next change's.
                    if agreed == (battle.text, revisions):
                        return battle
                    agreed = (battle.text, revisions)
                    time.sleep(0.3)
                    continue
            agreed = None
            if time.monotonic() > deadline or self.new_tracebacks():
                self.fail(f"{what}: the charts do not show the battle in the scenario box "
                          f"({self.settle_timeout_s:.0f} s after every chart redrew):\n  " + "\n  ".join(problems)
                          + f"\n\ncharts now:\n{self.describe_charts()}")
            time.sleep(0.25)

    def ids(self, groups: tuple[str, ...]) -> dict[str, int]:
        """{chart id: revision} of the visible charts in `groups`."""
        return {str(c["id"]): c["revision"] for c in snapshot(self.page) if c["visible"] and c["group"] in groups}

    # -- the steps --------------------------------------------------------------------------------
    def open(self, url: str) -> None:
        page = self.page
        start = time.perf_counter()
        response = page.goto(url, wait_until="commit", timeout=self.render_timeout_s * 1000)
        if response is None or not response.ok:
            self.fail(f"the server answered {response and response.status} for {url}")
        self.wait("() => window.__explorerTest.firstDrawn !== null", None, self.render_timeout_s,
                  "the first chart drawn (data-state=drawn)")
        self.load.first_chart_wall_ms = round((time.perf_counter() - start) * 1000, 1)
        self.load.first_chart_ms = round(page.evaluate("() => window.__explorerTest.firstDrawn"), 1)
        self.wait(f"""() => {{
            const charts = [...document.querySelectorAll('.aotg-panel .explorer-results .explorer-charts .explorer-chart')];
            return charts.length === {len(BATTLE_TITLES)} && charts.every((e) => e.dataset.state === 'drawn');
        }}""", None, self.render_timeout_s, f"{len(BATTLE_TITLES)} battle charts drawn")
        if page.locator(".aotg-scenario-text").count() == 0:  # the app builds its side tabs when first opened
            build_side_tab(page, ".aotg-panel", "Scenario, share", "Results", self.change_timeout_s)
        self.wait("""() => {
            const box = document.querySelector('.aotg-scenario-text textarea');
            return box && box.value.length > 0;
        }""", None, self.render_timeout_s, "the scenario box filled")
        self.battle = self.settle("after loading", self.view)
        charts = snapshot(page)
        log = page.evaluate(LOG_JS)
        times = [drawn_at(log, c["id"], c["revision"]) for c in charts if c["visible"]]
        self.load.all_charts_ms = round(max(t for t in times if t is not None), 1) if all(times) else None
        if self.real_app and len(charts) != APP_CHARTS:
            self.fail(f"{len(charts)} charts (.explorer-chart) on the page, expected {APP_CHARTS}:\n"
                      + self.describe_charts())
        battle = self.battle
        check_whatif(page, ".aotg-panel", "assault", battle.compare_figure, self.settle_timeout_s + self.change_timeout_s,
                     self.fail)
        self.battle = self.settle("back on the Results tab", self.view)


    def change(self, change: Change) -> None:
        page = self.page
        groups = ("battle", "assault") if change.scenario_changes else ("battle",)
        before = self.ids(groups)
        text_before = scenario_text(page) if change.scenario_changes else None
        scenario_before = self.battle.scenario if self.battle is not None else {}
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        change.act(page)
        self.wait(REDRAWN_JS, [before, text_before], self.change_timeout_s,
                  f"{change.name}: every visible chart redrawn" + (" and the scenario box updated"
                                                                   if change.scenario_changes else ""))
        wall_ms = (time.perf_counter() - start) * 1000
        acted_at = page.evaluate(ACTED_JS)
        view = change.view or self.view
        check = None
        if change.check is not None:
            def check(after: dict[str, Any], test: Callable[..., str | None] = change.check) -> str | None:
                return test(scenario_before, after)
        elif not change.scenario_changes:
            def check(after: dict[str, Any]) -> str | None:
                return None if after == scenario_before else "the scenario changed, but only the view should have"
        self.battle = self.settle(change.name, view, check)
        self.view = view
        active = page.locator(".aotg-panel .explorer-results .widget-toggle-buttons button.mod-active").inner_text()
        if active.strip() != view:
            self.fail(f"{change.name}: the view toggle shows {active.strip()!r}, the test chose {view!r}")
        log, charts = page.evaluate(LOG_JS), snapshot(page)
        times = [drawn_at(log, c["id"], c["revision"]) for c in charts if str(c["id"]) in before]
        page_ms = (max(times) - acted_at) if acted_at is not None and all(t is not None for t in times) else None
        self.load.changes.append({"change": change.name, "click_to_redrawn_ms": _round(page_ms),
                                  "wall_ms": round(wall_ms, 1), "charts": len(before)})

    def bad_input(self) -> None:
        page = self.page
        last = self.battle
        assert last is not None
        before = self.ids(("battle", "assault"))
        battle_ids, other_ids = list(self.ids(("battle",))), list(self.ids(("assault",)))
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        type_into(POOL["attacker"], -1)(page)
        self.wait(STALE_JS, [battle_ids, other_ids, BAD_FIELD], self.change_timeout_s,
                  f"-1 attacker basic dice: every visible chart stale with an overlay, the battle charts' naming "
                  f"{BAD_FIELD}")
        stale_wall = (time.perf_counter() - start) * 1000
        acted_at = page.evaluate(ACTED_JS)
        problems = self.chart_problems(last, self.view, state="stale", overlay_word=BAD_FIELD)
        now = self.ids(("battle", "assault"))
        if now != before:
            problems.append(f"revisions changed while the input was bad: {before} -> {now}")
        if problems:
            self.fail("-1 attacker basic dice: the charts must keep the last valid battle, marked stale:\n  "
                      + "\n  ".join(problems) + f"\n\ncharts now:\n{self.describe_charts()}")
        log = page.evaluate(LOG_JS)
        after = acted_at if acted_at is not None else 0.0
        stale_at = [min((t for i, _r, s, t in log if str(i) == cid and s == "stale" and t >= after), default=None)
                    for cid in before]
        stale_ms = (max(stale_at) - acted_at) if acted_at is not None and all(t is not None for t in stale_at) else None
        self.load.bad_input = {"stale_ms": _round(stale_ms), "stale_wall_ms": round(stale_wall, 1),
                               "overlays": sorted({c["overlay"] for c in snapshot(page) if str(c["id"]) in before})}
        fixed = 6
        self.change(Change(f"attacker basic dice -1 -> {fixed} (fixing the bad input)", type_into(POOL["attacker"], fixed),
                           check=expect(f"attacker.pool.basic == {fixed}",
                                        lambda b, a: a["attacker"]["pool"]["basic"] == fixed)))
        self.load.bad_input["fixed"] = self.load.changes.pop()

    def screenshots(self) -> None:
        page = self.page
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        for width, height in ((1400, 900), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(1500)  # the charts follow the new width (Plotly's resize)
            path = SCREENSHOTS / f"app-{width}x{height}.png"
            page.screenshot(path=str(path))
            self.load.screenshots.append(str(path.relative_to(ROOT)))
        page.set_viewport_size(size)
        page.wait_for_timeout(1000)
        problems = [p for c in snapshot(page) if c["state"] == "error" for p in [f"chart {c['title']!r}: {c['overlay']}"]]
        if problems:
            self.fail("a chart failed after resizing the window:\n  " + "\n  ".join(problems))

    def dice_lab(self) -> None:
        page = self.page
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        page.locator(".explorer-app .lm-TabBar-tab", has_text="Dice lab").first.click()
        lab_ready = """() => {
            const charts = [...document.querySelectorAll('.lab-root .explorer-chart')];
            return charts.length === 2 && charts.every((e) => e.dataset.state === 'drawn'
              && Number(e.dataset.revision) >= 1 && e.querySelector('.explorer-chart-plot').offsetWidth > 0);
        }"""
        self.wait(lab_ready, None, self.change_timeout_s, "Dice lab: its 2 charts drawn")
        self.load.lab["tab_to_drawn_wall_ms"] = round((time.perf_counter() - start) * 1000, 1)
        acted_at = page.evaluate(ACTED_JS)
        log = page.evaluate(LOG_JS)
        lab = [c for c in snapshot(page) if c["group"] == "lab"]
        times = [drawn_at(log, c["id"], c["revision"]) for c in lab]
        # A hidden chart draws when its tab is shown: the first draw of its current revision.
        if acted_at is not None and all(t is not None for t in times):
            self.load.lab["tab_to_drawn_ms"] = _round(max(times) - acted_at)
        self.lab_settle("Dice lab, as opened", None)
        before = {str(c["id"]): c["revision"] for c in lab}
        box = page.locator(".lab-root .widget-inline-hbox:has(> label:text-is('basic dice')) input")
        old = box.input_value()
        new = str(int(old) + 2)
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        box.fill(new)
        box.press("Enter")
        self.wait(REDRAWN_JS, [before, None], self.change_timeout_s, f"Dice lab, basic dice {old} -> {new}: both charts redrawn")
        wall_ms = (time.perf_counter() - start) * 1000
        acted_at = page.evaluate(ACTED_JS)
        self.lab_settle(f"Dice lab, basic dice {old} -> {new}", new)
        log, lab = page.evaluate(LOG_JS), [c for c in snapshot(page) if c["group"] == "lab"]
        times = [drawn_at(log, c["id"], c["revision"]) for c in lab]
        page_ms = (max(times) - acted_at) if acted_at is not None and all(t is not None for t in times) else None
        self.load.lab["change"] = {"change": f"lab basic dice {old} -> {new}", "click_to_redrawn_ms": _round(page_ms),
                                   "wall_ms": round(wall_ms, 1)}

    def lab_settle(self, what: str, basic: str | None) -> None:
        deadline = time.monotonic() + self.settle_timeout_s
        while True:
            inputs = self.page.evaluate(LAB_INPUTS_JS) or {}
            expected, problem = lab_expected(inputs)
            problems = [problem] if problem else []
            if basic is not None and inputs.get("basic dice") != basic:
                problems.append(f"the lab's basic dice box shows {inputs.get('basic dice')!r}, typed {basic!r}")
            if not problems:
                charts = [c for c in snapshot(self.page) if c["visible"]]
                if [c["group"] for c in charts] != ["lab", "lab"]:
                    problems.append(f"visible charts {[(c['group'], c['title']) for c in charts]}, expected the lab's 2")
                else:
                    for chart, figure in zip(charts, expected):
                        if chart["state"] != "drawn" or chart["overlayShown"]:
                            problems.append(f"lab chart {chart['title']!r}: state {chart['state']}, overlay {chart['overlay']!r}")
                        problems += figure_differences(f"lab chart {chart['title']!r}", chart, figure)
                problems += self.page.evaluate(VISIBLE_ERRORS_JS)
            if not problems:
                return
            if time.monotonic() > deadline or self.new_tracebacks():
                self.fail(f"{what}: the lab's charts do not show what its engine computes for the inputs shown:\n  "
                          + "\n  ".join(problems) + f"\n\ninputs: {inputs}\n\ncharts now:\n{self.describe_charts()}")
            time.sleep(0.25)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def run_load(browser: Any, server: Server, load: Load, battles: dict[str, Battle], real_app: bool) -> None:
    """Open the app in a fresh page, run the steps, record everything; a failed step skips the rest."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.add_init_script(INIT_SCRIPT)
    page = context.new_page()
    load.log = attach(page)
    if load.throttle != 1:
        session = context.new_cdp_session(page)
        session.send("Emulation.setCPUThrottlingRate", {"rate": load.throttle})
    driver = Driver(page, load, server, battles, real_app)
    steps: list[tuple[str, Callable[[], None]]] = [("load", lambda: driver.open(server.url))]
    if load.full:
        steps += [("changes", lambda: [driver.change(c) for c in CHANGES]), ("bad input", driver.bad_input)]
        if load.index == 1:
            steps.append(("screenshots", driver.screenshots))
        # The first load runs every game's steps; later loads share them out (`Load.runs`), so that
        # each is checked on two loads at least.
        first = load.index == 1
        tabs = AotgTabsSteps(driver, load.aotg_tabs, SETTLE_TIMEOUT_S, CHANGE_TIMEOUT_S)
        arcadia = ArcadiaSteps(driver, load.arcadia, SETTLE_TIMEOUT_S, CHANGE_TIMEOUT_S)
        agot = AgotSteps(driver, load.agot, SETTLE_TIMEOUT_S, CHANGE_TIMEOUT_S)
        games: list[tuple[str, Callable[[], None]]] = [
            ("assault decision tabs", lambda: tabs.run(screenshots=first)),
            ("arcadia quest", lambda: arcadia.run(screenshots=first)),
            ("a game of thrones", lambda: agot.run(screenshots=first)),
            ("dice lab", driver.dice_lab)]
        steps += [(name, step) for name, step in games if load.runs(name)]
    failed = None
    try:
        for name, step in steps:
            if failed is not None:
                load.steps[name] = f"not run: {failed} failed"
                continue
            try:
                step()
                load.steps[name] = "ok"
            except Exception as error:  # noqa: BLE001 - recorded: the step's test fails with it
                text = str(error) if isinstance(error, AssertionError | PlaywrightError) else "".join(
                    traceback.format_exception(error))
                failed, load.steps[name] = name, f"FAILED: {text}"
                with contextlib.suppress(PlaywrightError):
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    path = SCREENSHOTS / f"failure-load-{load.index}.png"
                    page.screenshot(path=str(path))
                    load.screenshots.append(str(path.relative_to(ROOT)))
        with contextlib.suppress(PlaywrightError):
            load.chart_errors = [f"chart {c['title']!r}: {c['overlay']}" for c in snapshot(page) if c["state"] == "error"]
    finally:
        load.kernel_tracebacks = driver.new_tracebacks()
        with contextlib.suppress(PlaywrightError):
            page.goto("about:blank", timeout=30_000)  # leaving the page frees its kernel
        page.close()
        context.close()


# ----------------------------------------------------------------------------- the run, shared by the tests
@dataclass
class Run:
    loads: list[Load]
    notebook: Path
    report: dict[str, Any]
    seconds: float


@pytest.fixture(scope="module")
def run(app_notebook: Path, chromium_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """Serve the app, open it THROTTLED_LOADS times throttled (then UNTHROTTLED_LOADS times not), record all."""
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    BUILD.mkdir(exist_ok=True)
    for old in SCREENSHOTS.glob("failure-load-*.png"):  # from an earlier run: not this run's failures
        old.unlink()
    ipython_dir = tmp_path_factory.mktemp("ipython")
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-log-tracebacks.py").write_text(KERNEL_STARTUP, encoding="utf-8")
    server = start_server(app_notebook, ipython_dir, BUILD / "voila-browser.log", SERVER_START_S)
    loads = [Load(i + 1, CPU_THROTTLE, True) for i in range(THROTTLED_LOADS)]
    loads += [Load(THROTTLED_LOADS + i + 1, 1, False) for i in range(UNTHROTTLED_LOADS)]
    battles: dict[str, Battle] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(chromium_path), headless=True, args=CHROMIUM_ARGS)
            try:
                for load in loads:
                    run_load(browser, server, load, battles, app_notebook.resolve() == REAL_APP)
            finally:
                browser.close()
    finally:
        stop_server(server.process)
    seconds = time.monotonic() - start
    report = write_report(loads, app_notebook, seconds)
    yield Run(loads, app_notebook, report, seconds)


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def write_report(loads: list[Load], notebook: Path, seconds: float) -> dict[str, Any]:
    throttled = [ld for ld in loads if ld.throttle != 1]
    unthrottled = [ld for ld in loads if ld.throttle == 1]
    clicks = [c["click_to_redrawn_ms"] for ld in loads for c in ld.changes if c["click_to_redrawn_ms"] is not None]
    aq_clicks = [c["click_to_redrawn_ms"] for ld in loads for c in ld.arcadia.get("changes", [])
                 if c["click_to_redrawn_ms"] is not None]
    first = {kind: [ld.first_chart_ms for ld in group if ld.first_chart_ms is not None]
             for kind, group in (("throttled", throttled), ("unthrottled", unthrottled))}
    summary = {
        "first_chart_ms_median_throttled_4x": _median(first["throttled"]),
        "first_chart_ms_median_unthrottled": _median(first["unthrottled"]),
        "click_to_redrawn_ms_median": _median(clicks),
        "click_to_redrawn_ms_max": max(clicks) if clicks else None,
        "timed_changes": len(clicks),
        "arcadia_click_to_redrawn_ms_median": _median(aq_clicks),
        "arcadia_tab_to_drawn_wall_ms_median": _median([ld.arcadia["tab_to_drawn_wall_ms"] for ld in loads
                                                        if "tab_to_drawn_wall_ms" in ld.arcadia]),
        "websocket_mb_per_page_max": round(max((ld.log.ws_bytes for ld in loads), default=0) / 1e6, 3),
        "websocket_largest_frame_bytes": max((ld.log.ws_largest for ld in loads), default=0),
        "test_seconds": round(seconds, 1),
        "cpus": os.cpu_count(),
    }
    report = {
        "what": ("page-clock ms (0 = navigation start): first chart = first .explorer-chart with data-state=drawn; "
                 "click_to_redrawn = from the click / Enter / change event to the last visible chart drawing the "
                 "revision that was then checked equal to the battle in the scenario box"),
        "notebook": str(notebook.relative_to(ROOT) if notebook.is_relative_to(ROOT) else notebook),
        "targets": TARGETS,
        "summary": summary,
        "loads": [{
            "load": ld.index, "cpu_throttle": ld.throttle, "steps": ld.steps,
            "first_chart_ms": ld.first_chart_ms, "first_chart_wall_ms": ld.first_chart_wall_ms,
            "all_visible_charts_drawn_ms": ld.all_charts_ms,
            "changes": ld.changes, "bad_input": ld.bad_input, "arcadia_quest": ld.arcadia, "agot_lcg": ld.agot, "aotg_tabs": ld.aotg_tabs, "dice_lab": ld.lab,
            "websocket_bytes": ld.log.ws_bytes, "websocket_frames": ld.log.ws_frames,
            "websocket_largest_frame_bytes": ld.log.ws_largest,
            "errors": ld.log.errors() + [f"kernel traceback: {t}" for t in ld.kernel_tracebacks] + ld.chart_errors,
            "failed_requests": ld.log.failed_requests, "screenshots": ld.screenshots,
        } for ld in loads],
    }
    (BUILD / "browser-timings.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


# ----------------------------------------------------------------------------- the tests
def assert_checked_on(run: Run, step: str) -> None:
    """`step` ran on two throttled loads at least (on every one when there are fewer)."""
    loads = [ld.index for ld in run.loads if ld.runs(step)]
    assert len(loads) >= min(2, THROTTLED_LOADS), f"{step}: checked on loads {loads} only"


def test_app_loads_and_charts_draw(run: Run) -> None:
    """Every load (throttled or not): the first chart draws, and the first charts equal the battle shown."""
    failures = [f for ld in run.loads if (f := ld.failed("load"))]
    assert not failures, "\n\n".join(failures)


def test_charts_equal_the_kernel_result_after_every_change(run: Run) -> None:
    """After each change of each throttled load, every visible chart equals the battle in the scenario box."""
    failures = [f for ld in run.loads if ld.runs("changes") for f in [ld.failed("changes")] if f]
    assert_checked_on(run, "changes")
    assert not failures, "\n\n".join(failures)
    for ld in run.loads:
        if ld.runs("changes"):
            assert len(ld.changes) == len(CHANGES), f"load {ld.index}: {len(ld.changes)} changes checked"


def test_bad_input_marks_charts_stale_then_recovers(run: Run) -> None:
    """-1 dice: every chart stale, naming the field, keeping the last valid battle; a valid value redraws them."""
    failures = [f for ld in run.loads if ld.runs("bad input") for f in [ld.failed("bad input")] if f]
    assert_checked_on(run, "bad input")
    assert not failures, "\n\n".join(failures)


def test_arcadia_quest_charts_equal_the_resolver_after_every_change(run: Run) -> None:
    """The Arcadia Quest tab's charts draw, and after each change equal the encounter in its scenario box."""
    failures = [f for ld in run.loads if ld.runs("arcadia quest") for f in [ld.failed("arcadia quest")] if f]
    assert_checked_on(run, "arcadia quest")
    assert not failures, "\n\n".join(failures)
    for ld in run.loads:
        if ld.runs("arcadia quest"):
            assert len(ld.arcadia.get("changes", [])) == len(ARCADIA_CHANGES), f"load {ld.index}: {ld.arcadia}"


def test_agot_charts_equal_the_resolver_after_every_change(run: Run) -> None:
    """The A Game of Thrones tab's charts draw, and after each change equal the round in its scenario box."""
    failures = [f for ld in run.loads if ld.runs("a game of thrones") for f in [ld.failed("a game of thrones")] if f]
    assert_checked_on(run, "a game of thrones")
    assert not failures, "\n\n".join(failures)
    for ld in run.loads:
        if ld.runs("a game of thrones"):
            assert len(ld.agot.get("changes", [])) == len(AGOT_CHANGES), f"load {ld.index}: {ld.agot}"


def test_aotg_tabs_equal_what_is_computed_from_their_inputs(run: Run) -> None:
    """The Assault panel's reroll, row, plan and table tabs draw and equal what is computed here, before and after a change."""
    failures = [f for ld in run.loads if ld.runs("assault decision tabs") for f in [ld.failed("assault decision tabs")] if f]
    assert_checked_on(run, "assault decision tabs")
    assert not failures, "\n\n".join(failures)
    for ld in run.loads:
        if ld.runs("assault decision tabs"):
            assert sorted(ld.aotg_tabs.get("tab_to_drawn_wall_ms", {})) == sorted(AOTG_TABS), f"load {ld.index}: {ld.aotg_tabs}"


def test_dice_lab_draws_and_follows_its_inputs(run: Run) -> None:
    """The Dice lab's two charts draw in Voila and equal its engine's result after a dice change."""
    failures = [f for ld in run.loads if ld.runs("dice lab") for f in [ld.failed("dice lab")] if f]
    assert_checked_on(run, "dice lab")
    assert not failures, "\n\n".join(failures)


def test_no_error_in_browser_or_kernel(run: Run) -> None:
    """No uncaught error, console error or error text, kernel traceback or chart in state error, in any load."""
    found = []
    for ld in run.loads:
        errors = ld.log.errors() + [f"kernel traceback:\n{t}" for t in ld.kernel_tracebacks] + ld.chart_errors
        if ld.steps.get("screenshots", "ok") != "ok":
            errors.append(f"screenshots: {ld.steps['screenshots']}")
        if errors:
            failed = "".join(f"\n    failed request: {r}" for r in ld.log.failed_requests)
            found.append(f"load {ld.index}:\n  " + "\n  ".join(dict.fromkeys(errors)) + failed)
    assert not found, "errors in the browser or the kernel:\n" + "\n".join(found)


def test_websocket_messages_within_budget(run: Run) -> None:
    """Each page receives at most 6 MB over its websockets (plotly.js once, gzipped, and whole figures)."""
    for ld in run.loads:
        assert ld.log.ws_frames > 0, f"load {ld.index}: no websocket frame received"
        assert ld.log.ws_bytes <= WS_BUDGET_BYTES, (
            f"load {ld.index}: {ld.log.ws_bytes / 1e6:.2f} MB received over websockets "
            f"(budget {WS_BUDGET_BYTES / 1e6:.0f} MB; largest frame {ld.log.ws_largest / 1e6:.2f} MB)")


def test_timings_reported(run: Run) -> None:
    """The report is written with enough timed changes; the one-line summary is printed (figures, not pass/fail)."""
    summary = run.report["summary"]
    line = (f"\nbrowser: first chart median {_s(summary['first_chart_ms_median_throttled_4x'])} throttled 4x "
            f"(target {TARGETS['first_chart_throttled_4x_median_s']:.0f} s), "
            f"{_s(summary['first_chart_ms_median_unthrottled'])} unthrottled "
            f"(target {TARGETS['first_chart_unthrottled_median_s']:.0f} s); click-to-redrawn median "
            f"{summary['click_to_redrawn_ms_median']} ms over {summary['timed_changes']} changes (Arcadia Quest "
            f"{summary['arcadia_click_to_redrawn_ms_median']} ms, its tab drawn in "
            f"{summary['arcadia_tab_to_drawn_wall_ms_median']} ms); websocket max "
            f"{summary['websocket_mb_per_page_max']} MB/page, largest frame "
            f"{summary['websocket_largest_frame_bytes'] / 1e6:.2f} MB; {summary['test_seconds']:.0f} s "
            "-> build/browser-timings.json")
    print(line)
    assert (BUILD / "browser-timings.json").is_file()
    assert summary["timed_changes"] >= MIN_TIMED_CHANGES, (
        f"only {summary['timed_changes']} changes were timed (>= {MIN_TIMED_CHANGES} wanted): see the other failures")
    assert summary["first_chart_ms_median_throttled_4x"] is not None, "no throttled load drew a chart"


def _s(ms: float | None) -> str:
    return "n/a" if ms is None else f"{ms / 1000:.1f} s"
