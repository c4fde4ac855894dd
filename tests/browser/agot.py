"""The A Game of Thrones part of the real-browser test (`tests/browser/test_app.py`), in the Arcadia Quest style.

The tab is opened and its charts must draw; then a few inputs change. After EACH change the test
waits until every visible chart of the tab drew a newer revision, then checks that the round's
charts EQUAL the figures computed in this process for the round in the panel's scenario box
(``.agot-scenario-text textarea``), resolved by the one resolver (`explorer.resolve`) and charted
by `explorer.charts.agot_lcg`; the card-odds charts (their own inputs, untouched here) must equal
the figures of the odds panel's opening inputs.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.browser.support import (
    ARM_JS,
    REDRAWN_JS,
    SCREENSHOTS,
    VISIBLE_ERRORS_JS,
    build_side_tab,
    check_whatif,
    figure_differences,
    plain_figure,
    snapshot,
)

BOX = ".agot-scenario-text textarea"
"""The A Game of Thrones panel's scenario box."""

SCENARIO_JS = f"() => {{ const box = document.querySelector('{BOX}'); return box ? box.value : null; }}"

READY_JS = f"""() => {{
  const charts = [...document.querySelectorAll('.agot-panel .explorer-results .explorer-charts .explorer-chart')];
  const box = document.querySelector('{BOX}');
  return charts.length === 2 && charts.every((e) => e.dataset.state === 'drawn'
    && e.querySelector('.explorer-chart-plot').offsetWidth > 0) && box && box.value.length > 0;
}}"""


def _odds_figures() -> dict[str, dict[str, Any]]:
    """The odds charts of the odds panel's opening inputs, by title."""
    from explorer.games.agot_lcg.odds.scenario import parse_odds
    from explorer.panels.agot_lcg.odds import OddsPanel, odds_figures

    figures = odds_figures(parse_odds(OddsPanel().scenario()))
    out = {}
    for fig in figures.values():
        plain = plain_figure(fig)
        out[plain["layout"]["title"]["text"]] = plain
    return out


@dataclass
class Round:
    """One round resolved here, from the text of the panel's scenario box."""

    text: str
    scenario: dict[str, Any]
    report: Any
    _figures: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_text(cls, text: str) -> Round:
        import explorer

        scenario = json.loads(text)
        return cls(text, scenario, explorer.resolve(scenario))

    def figures(self) -> list[dict[str, Any]]:
        """The round's charts in page order, as plotly JSON."""
        if not self._figures:
            from explorer.charts.agot_lcg import ROUND_CHARTS, round_figures
            from explorer.panels.agot_lcg.results import grid_for

            figures = round_figures(self.report.result, grid_for(self.report))
            self._figures = [plain_figure(figures[name]) for name in ROUND_CHARTS]
        return self._figures


@dataclass(frozen=True)
class Change:
    """One input change of the A Game of Thrones tab."""

    name: str
    act: Callable[[Any], None]
    check: Callable[[dict[str, Any], dict[str, Any]], bool]


def _type(selector: str, value: int, nth: int = 0) -> Callable[[Any], None]:
    def act(page: Any) -> None:
        box = page.locator(selector).nth(nth)
        box.fill(str(value))
        box.press("Enter")
    return act


CHANGES: tuple[Change, ...] = (
    Change("second player's gold 2 -> 6 (typed)", _type(".agot-second-gold input", 6),
           check=lambda b, a: a["players"]["second"]["gold"] == 6),
    Change("first character's STR 4 -> 1 (typed)", _type(".agot-side-first .agot-character input[type=text]", 1, 1),
           check=lambda b, a: a["players"]["first"]["characters"][0]["str"] == 1),
    Change("swap the first player", lambda page: page.locator("button.agot-swap").click(),
           check=lambda b, a: a["players"]["first"] == b["players"]["second"]),
)


class AgotSteps:
    """The A Game of Thrones part of one load, run by the file's `Driver` (its page, waits and failures)."""

    def __init__(self, driver: Any, report: dict[str, Any], settle_s: float, change_s: float) -> None:
        self.driver, self.page, self.report = driver, driver.page, report
        self.settle_s, self.change_s = settle_s, change_s
        self.rounds: dict[str, Round] = {}
        self.round: Round | None = None
        self.odds = _odds_figures()

    def current(self) -> tuple[Round | None, str | None]:
        text = self.page.evaluate(SCENARIO_JS)
        if text is None:
            return None, f"no scenario box ({BOX}) on the page"
        if text not in self.rounds:
            try:
                self.rounds[text] = Round.from_text(text)
            except Exception as error:  # noqa: BLE001 - reported as what the box held
                return None, f"the scenario box does not hold a round the resolver takes: {error!r}\n{text[:2000]}"
        return self.rounds[text], None

    def problems(self, round_: Round) -> list[str]:
        """How the tab's visible charts differ from `round_` and the opening odds."""
        found, charts = [], []
        for chart in snapshot(self.page):
            where = f"chart #{chart['id']} ({chart['title']!r})"
            if chart["state"] in ("error", "stale"):
                found.append(f"{where} is in state {chart['state']}: {chart['overlay']!r}")
            if not chart["visible"]:
                continue
            if chart["state"] != "drawn" or chart["overlayShown"]:
                found.append(f"{where}: state {chart['state']!r}, overlay {chart['overlay']!r}")
            if chart["group"] == "agot":
                charts.append(chart)
            elif chart["group"] == "agot-odds" and chart["title"] in self.odds:
                found += figure_differences(f"odds chart {chart['title']!r}", chart, self.odds[chart["title"]])
            else:
                found.append(f"{where}: a visible chart of group {chart['group']!r} this test cannot check")
        if len(charts) != 2:
            found.append(f"{len(charts)} visible round charts, expected 2")
        else:
            for chart, expected in zip(charts, round_.figures()):
                found += figure_differences(f"round chart {chart['title']!r}", chart, expected)
        return found + self.page.evaluate(VISIBLE_ERRORS_JS)

    def settle(self, what: str, check: Callable[[dict[str, Any]], bool] | None = None) -> Round:
        """Wait until the visible charts equal the round in the scenario box (and `check` passes)."""
        deadline = time.monotonic() + self.settle_s
        agreed: tuple[str, dict[str, int]] | None = None
        while True:
            round_, problem = self.current()
            problems = [problem] if problem else []
            if round_ is not None and check is not None and not check(round_.scenario):
                problems.append("the scenario box does not show the change")
            if round_ is not None and not problems:
                revisions = self.ids()
                problems = self.problems(round_)
                if not problems:
                    if agreed == (round_.text, revisions):  # right twice, 0.3 s apart, no redraw between
                        return round_
                    agreed = (round_.text, revisions)
                    time.sleep(0.3)
                    continue
            agreed = None
            if time.monotonic() > deadline or self.driver.new_tracebacks():
                self.driver.fail(f"A Game of Thrones, {what}: the charts do not show the round in the scenario box:"
                                 "\n  " + "\n  ".join(problems) + f"\n\ncharts now:\n{self.driver.describe_charts()}")
            time.sleep(0.25)

    def ids(self, groups: tuple[str, ...] = ("agot",)) -> dict[str, int]:
        """{chart id: revision} of the visible charts in `groups`."""
        return {str(c["id"]): c["revision"] for c in snapshot(self.page) if c["visible"] and c["group"] in groups}

    def run(self, screenshots: bool = False) -> None:
        """Open the tab, check it, make every change and check again; screenshots if asked."""
        page = self.page
        page.evaluate(ARM_JS)
        start = time.perf_counter()
        page.locator(".explorer-app .lm-TabBar-tab", has_text="A Game of Thrones").first.click()
        build_side_tab(page, ".agot-panel", "Scenario, share", "Results", self.change_s)
        self.driver.wait(READY_JS, None, self.change_s, "A Game of Thrones tab: its 2 charts drawn, the box filled")
        self.report["tab_to_drawn_wall_ms"] = round((time.perf_counter() - start) * 1000, 1)
        self.round = self.settle("as opened")
        check_whatif(page, ".agot-panel", "agot-odds", self.odds.get, self.settle_s + self.change_s,
                     lambda why: self.driver.fail(f"A Game of Thrones, {why}"), title="Card odds, race to 15")
        self.round = self.settle("back on the Results tab")
        self.report["changes"] = []
        for change in CHANGES:
            before_scenario = self.round.scenario
            before = self.ids()
            text_before = page.evaluate(SCENARIO_JS)
            start = time.perf_counter()
            change.act(page)
            self.driver.wait(REDRAWN_JS, [before, text_before, BOX], self.change_s,
                             f"A Game of Thrones, {change.name}: every round chart redrawn")

            def check(after: dict[str, Any], test: Callable[..., bool] = change.check,
                      b: dict[str, Any] = before_scenario) -> bool:
                return test(b, after)

            self.round = self.settle(change.name, check)
            self.report["changes"].append({"change": change.name,
                                           "wall_ms": round((time.perf_counter() - start) * 1000, 1)})
        if screenshots:
            self.screenshots()

    def screenshots(self) -> None:
        """The tab at two window sizes (``build/screenshots/agot-*.png``)."""
        page = self.page
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        for width, height in ((1400, 900), (1024, 768)):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(1500)
            page.screenshot(path=str(SCREENSHOTS / f"agot-{width}x{height}.png"))
        page.set_viewport_size(size)
        page.wait_for_timeout(1000)
