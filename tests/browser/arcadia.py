"""The Arcadia Quest part of the real-browser test (`tests/browser/test_app.py`), in the same style.

The tab is opened, its charts must draw, then a few inputs change. After EACH change the test
waits until every visible chart of the tab drew a newer revision, then checks that every visible
chart's traces and title EQUAL the figures computed in this process for the encounter in the
panel's scenario box (``.aq-scenario-text textarea``), resolved by the one resolver
(`explorer.resolve`) and charted by `explorer.charts.arcadia_quest`; the summary table must agree
to the precision printed. Nothing is filtered away: errors fail the file's other tests.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tests.browser.support import (
    ACTED_JS,
    ARM_JS,
    LOG_JS,
    REDRAWN_JS,
    SCREENSHOTS,
    VISIBLE_ERRORS_JS,
    build_side_tab,
    check_whatif,
    drawn_at,
    figure_differences,
    plain_figure,
    printed_matches,
    snapshot,
)

BOX = ".aq-scenario-text textarea"
"""The Arcadia Quest panel's scenario box."""

SCENARIO_JS = f"() => {{ const box = document.querySelector('{BOX}'); return box ? box.value : null; }}"

SUMMARY_JS = r"""
() => {
  const box = document.querySelector('.aq-summary');
  const table = box && box.querySelector('table');
  if (!table) return null;
  return {stale: box.classList.contains('aq-stale'),
          rows: [...table.querySelectorAll('tbody tr')].map((tr) => [
            (tr.querySelector('th') || {}).textContent.trim(), (tr.querySelector('td') || {}).textContent.trim()])};
}
"""

READY_JS = f"""() => {{
  const charts = [...document.querySelectorAll('.aq-panel .explorer-charts .explorer-chart')];
  const box = document.querySelector('{BOX}');
  return charts.length === 4 && charts.every((e) => e.dataset.state === 'drawn'
    && e.querySelector('.explorer-chart-plot').offsetWidth > 0) && box && box.value.length > 0;
}}"""

COMPARE: dict[str, Callable[[Any], Any]] = {
    "Wounds dealt to the monster": lambda r: r.monster_wounds,
    "Wounds the hero takes": lambda r: r.hero_wounds,
    "Coins of the active guild": lambda r: r.coins_active,
    "Hits of the hero's attack": lambda r: r.hits,
    "Saves of the monster's defense roll": lambda r: r.saves,
}
"""The what-if chart by its title (the quantity compared, capitalised): the distribution it shows."""


@dataclass
class Encounter:
    """One encounter resolved here, from the text of the panel's scenario box."""

    text: str
    scenario: dict[str, Any]
    result: Any
    _figures: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @classmethod
    def from_text(cls, text: str) -> Encounter:
        import explorer

        scenario = json.loads(text)
        return cls(text, scenario, explorer.resolve(scenario).result)

    def figures(self, view: str) -> list[dict[str, Any]]:
        """The four charts for `view`, in page order, as plotly JSON."""
        if view not in self._figures:
            from explorer.charts.arcadia_quest import ENCOUNTER_CHARTS, encounter_figures

            figures = encounter_figures(self.result, view)
            self._figures[view] = [plain_figure(figures[name]) for name in ENCOUNTER_CHARTS]
        return self._figures[view]

    def compare_figure(self, title: str) -> dict[str, Any] | None:
        """The what-if chart with nothing pinned (this encounter alone), or None for an unknown title."""
        from explorer.charts.kit import compare_figure

        pick = COMPARE.get(title)
        if pick is None:
            return None
        dist = pick(self.result)
        return plain_figure(compare_figure(None, dist, title=title, x_title=title.split(" ")[0]))

    def summary_differences(self, table: Mapping[str, Any] | None) -> list[str]:
        """How the summary table differs from this encounter, to the precision printed."""
        from explorer.games.arcadia_quest.encounter.summary import summary_rows

        if table is None:
            return ["the summary table (.aq-summary table) is missing"]
        shown = dict(table["rows"])
        found = []
        for name, value in summary_rows(self.result).items():
            if name not in shown:
                found.append(f"summary: no row {name!r} (rows: {list(shown)})")
            elif not printed_matches(shown[name], float(value)):
                found.append(f"summary, {name}: shows {shown[name]}, the encounter gives {float(value):.6g}")
        return found


@dataclass(frozen=True)
class Change:
    """One input change of the Arcadia Quest tab (as `test_browser.Change`)."""

    name: str
    act: Callable[[Any], None]
    view: str | None = None
    check: Callable[[dict[str, Any], dict[str, Any]], bool] | None = None


def _type(selector: str, value: int) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        box = page.locator(selector)
        box.fill(str(value))
        box.press("Enter")
    return act


def _view(view: str) -> Callable[[Any], None]:
    return lambda page: page.locator(".aq-view button", has_text=re.compile(f"^{re.escape(view)}$")).click()


CHANGES: tuple[Change, ...] = (
    Change("monster Life 3 -> 4 (typed)", _type(".aq-monster-life input", 4),
           check=lambda b, a: a["target"]["life"] == 4),
    Change("add a Close Monster", lambda page: page.locator("button.aq-add-close").click(),
           check=lambda b, a: len(a["close_monsters"]) == len(b["close_monsters"]) + 1),
    Change("view: at least", _view("at least"), view="at least"),
    Change("untick: the Payback can reach the hero", lambda page: page.locator(".aq-reaches input").click(),
           check=lambda b, a: a["target"]["reaches"] is False),
)


class ArcadiaSteps:
    """The Arcadia Quest part of one load, run by the file's `Driver` (its page, waits and failures)."""

    def __init__(self, driver: Any, report: dict[str, Any], settle_s: float, change_s: float) -> None:
        self.driver, self.page, self.report = driver, driver.page, report
        self.settle_s, self.change_s = settle_s, change_s
        self.encounters: dict[str, Encounter] = {}
        self.view = "exactly"
        self.encounter: Encounter | None = None

    def current(self) -> tuple[Encounter | None, str | None]:
        text = self.page.evaluate(SCENARIO_JS)
        if text is None:
            return None, f"no scenario box ({BOX}) on the page"
        if text not in self.encounters:
            try:
                self.encounters[text] = Encounter.from_text(text)
            except Exception as error:  # noqa: BLE001 - reported as what the box held
                return None, f"the scenario box does not hold an encounter the resolver takes: {error!r}\n{text[:2000]}"
        return self.encounters[text], None

    def problems(self, encounter: Encounter, view: str) -> list[str]:
        """How the tab's visible charts and table differ from `encounter` (every visible chart is checked)."""
        found, charts = [], []
        for chart in snapshot(self.page):
            where = f"chart #{chart['id']} ({chart['title']!r})"
            if chart["state"] in ("error", "stale"):
                found.append(f"{where} is in state {chart['state']}: {chart['overlay']!r}")
            if not chart["visible"]:
                continue
            if chart["state"] != "drawn" or chart["overlayShown"]:
                found.append(f"{where}: state {chart['state']!r}, overlay {chart['overlay']!r}")
            if chart["group"] == "aq":
                charts.append(chart)
            elif chart["group"] == "aq-other":
                expected = encounter.compare_figure(chart["title"] or "")
                found += ([f"{where}: a visible chart this test cannot check"] if expected is None
                          else figure_differences(f"what-if chart {chart['title']!r}", chart, expected))
            else:
                found.append(f"{where}: visible in the Arcadia Quest tab but in group {chart['group']!r}")
        if len(charts) != 4:
            found.append(f"{len(charts)} visible encounter charts, expected 4")
        else:
            for chart, expected in zip(charts, encounter.figures(view)):
                found += figure_differences(f"encounter chart {chart['title']!r} (view {view})", chart, expected)
        summary = self.page.evaluate(SUMMARY_JS)
        found += encounter.summary_differences(summary)
        if summary is not None and summary["stale"]:
            found.append("summary table: marked stale with valid inputs")
        return found + self.page.evaluate(VISIBLE_ERRORS_JS)

    def settle(self, what: str, view: str, check: Callable[[dict[str, Any]], bool] | None = None) -> Encounter:
        """Wait until the visible charts equal the encounter in the scenario box (and `check` passes)."""
        deadline = time.monotonic() + self.settle_s
        agreed: tuple[str, dict[str, int]] | None = None
        while True:
            encounter, problem = self.current()
            problems = [problem] if problem else []
            if encounter is not None and check is not None and not check(encounter.scenario):
                problems.append("the scenario box does not show the change")
            if encounter is not None and not problems:
                revisions = self.ids()
                problems = self.problems(encounter, view)
                if not problems:
                    if agreed == (encounter.text, revisions):  # right twice, 0.3 s apart, no redraw between
                        return encounter
                    agreed = (encounter.text, revisions)
                    time.sleep(0.3)
                    continue
            agreed = None
            if time.monotonic() > deadline or self.driver.new_tracebacks():
                self.driver.fail(f"Arcadia Quest, {what}: the charts do not show the encounter in the scenario box:\n  "
                                 + "\n  ".join(problems) + f"\n\ncharts now:\n{self.driver.describe_charts()}")
            time.sleep(0.25)

    def ids(self, groups: tuple[str, ...] = ("aq", "aq-other")) -> dict[str, int]:
        """{chart id: revision} of the visible charts in `groups`."""
        return {str(c["id"]): c["revision"] for c in snapshot(self.page) if c["visible"] and c["group"] in groups}

    def run(self, screenshots: bool) -> None:
        """Open the tab, check it, make every change and check again; screenshots on the first load."""
        page = self.page
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        page.locator(".explorer-app .lm-TabBar-tab", has_text="Arcadia Quest").first.click()
        build_side_tab(page, ".aq-panel", "Scenario, share", "Results", self.change_s)
        self.driver.wait(READY_JS, None, self.change_s, "Arcadia Quest tab: its 4 charts drawn and the scenario box filled")
        self.report["tab_to_drawn_wall_ms"] = round((time.perf_counter() - start) * 1000, 1)
        self.encounter = self.settle("as opened", self.view)
        encounter = self.encounter
        check_whatif(page, ".aq-panel", "aq-other", encounter.compare_figure, self.settle_s + self.change_s,
                     lambda why: self.driver.fail(f"Arcadia Quest, {why}"))
        self.encounter = self.settle("back on the Results tab", self.view)
        self.report["changes"] = []
        for change in CHANGES:
            self.change(change)
        if screenshots:
            self.screenshots()

    def change(self, change: Change) -> None:
        page, before_scenario = self.page, self.encounter.scenario if self.encounter else {}
        before = self.ids(("aq",) if change.view else ("aq", "aq-other"))  # a view redraws the wound charts only
        text_before = None if change.view else page.evaluate(SCENARIO_JS)
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        change.act(page)
        self.driver.wait(REDRAWN_JS, [before, text_before, BOX], self.change_s,
                         f"Arcadia Quest, {change.name}: every visible chart redrawn")
        wall_ms = (time.perf_counter() - start) * 1000
        acted_at = page.evaluate(ACTED_JS)
        view = change.view or self.view
        if change.check is not None:
            def check(after: dict[str, Any], test: Callable[..., bool] = change.check) -> bool:
                return test(before_scenario, after)
        else:
            def check(after: dict[str, Any]) -> bool:
                return after == before_scenario
        self.encounter = self.settle(change.name, view, check)
        self.view = view
        log, charts = page.evaluate(LOG_JS), snapshot(page)
        times = [drawn_at(log, c["id"], c["revision"]) for c in charts if str(c["id"]) in before]
        page_ms = (max(times) - acted_at) if acted_at is not None and all(t is not None for t in times) else None
        self.report["changes"].append({"change": change.name, "wall_ms": round(wall_ms, 1), "charts": len(before),
                                       "click_to_redrawn_ms": None if page_ms is None else round(page_ms, 1)})

    def screenshots(self) -> None:
        page = self.page
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        for width, height in ((1400, 900), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(1500)
            page.screenshot(path=str(SCREENSHOTS / f"aq-{width}x{height}.png"))
        page.set_viewport_size(size)
        page.wait_for_timeout(1000)
