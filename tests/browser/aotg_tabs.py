"""The Assault of the Giants panel's decision tabs in the real-browser test (`tests/browser/test_app.py`).

Four tabs of the panel's lower tab bar compute only while open; each is opened by a click on its
title and what it shows must EQUAL what this process computes from what the page shows as inputs:

- "What should I reroll?": the chart equals `reroll_advice_figure` (the first 10 choices) of
  `advise_reroll` for the battle in the panel's scenario box (``.aotg-scenario-text``) and the roll
  read from the tab's drop-downs (a label back to its face through the die's faces in the
  scenario); then one die is set to another face on the page and it must follow.
- "Which row? (advisor)": if the attacker fights with giantslayers (the main steps tick them), the
  tab must say why it cannot advise, in the words `row_options` raises here, and its chart must not
  pass for current; the box is then unticked in the panel (the open tab must follow). The chart
  then equals `row_advice_figure` of `row_options` for the hand ticked on the page, and the "cards
  first" and objective shown; then one card is unticked and it must follow.
- "Plan of battles": the plan the tab writes into its box on first opening, resolved here by
  `explorer.resolve`, charted by `explorer.charts.aotg_plan.plan_figures`: the points, wins and
  armies charts must equal those figures.
- "Rules of the table": the tab's inputs are read from the page (players, NPC, Ordning Numbers,
  current player, pools, regions) and written as a ``table`` scenario, resolved here by
  `explorer.resolve`; the phase, every region's three answers, where each player may recruit and
  the Endgame turns shown must equal its report; then the current player changes and they follow.

A tab's own error message shown (other than the one expected) fails, as do all the page's errors
(`test_no_error_in_browser_or_kernel`). The panel is left on its "What if? (A vs B)" tab.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from tests.browser.support import (
    ACTED_JS,
    ARM_JS,
    LOG_JS,
    REDRAWN_JS,
    SCREENSHOTS,
    drawn_at,
    figure_differences,
    plain_figure,
    scenario_text,
    snapshot,
)

TABS = {"reroll": "What should I reroll?", "row": "Which row? (advisor)", "plan": "Plan of battles",
        "table": "Rules of the table"}
"""The tabs' titles in the panel's tab bar (above the results)."""
ROOTS = {"reroll": ".aotg-reroll-advisor", "row": ".aotg-row-advisor", "plan": ".aotg-plan-tab",
         "table": ".aotg-table-tab"}
ERRORS = {"reroll": ".aotg-reroll-advice-error", "row": ".aotg-row-advice-error", "plan": ".aotg-plan-error",
          "table": "[class*='aotg-table-error-']"}
"""Each tab's own error messages (hidden and empty when all is well)."""
HOME_TAB = "Results"
GIANTSLAYERS = ".aotg-army-attacker .widget-checkbox:has-text('giantslayers') input[type=checkbox]"

CHART_IDS_JS = """(root) => [...document.querySelectorAll(root + ' .explorer-chart')].map(
  (el) => window.__explorerTest.idOf(el))"""
"""Test ids (as in `snapshot`) of the charts under a tab's root, in page order."""

ERROR_TEXT_JS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((e) => e.offsetParent !== null && (e.innerText || '').trim()).map((e) => e.innerText.trim())"""

REROLL_INPUTS_JS = r"""() => {
  const root = document.querySelector('.aotg-reroll-advisor');
  if (!root) return null;
  const active = root.querySelector('.widget-toggle-buttons button.mod-active');
  return {
    role: active ? active.textContent.trim() : null,
    dice: [...root.querySelectorAll('.widget-dropdown')].map((w) => ({
      label: w.querySelector('label').textContent.trim(), value: w.querySelector('select').value,
      options: [...w.querySelector('select').options].map((o) => o.value)})),
    summary: ([...root.querySelectorAll('.widget-html-content')].map((e) => e.textContent)
      .find((t) => t.startsWith('Best:')) || ''),
  };
}"""

ROW_INPUTS_JS = r"""() => {
  const root = document.querySelector('.aotg-row-advisor');
  if (!root) return null;
  const select = root.querySelector('.widget-dropdown select');
  const readout = root.querySelector('.widget-slider .widget-readout');
  return {
    cards: [...root.querySelectorAll('.widget-checkbox')].map((w) => {
      const box = w.querySelector('input');
      return [w.querySelector('.widget-label-basic span').textContent.trim(), box.checked, box.disabled];
    }),
    most: readout ? readout.textContent.trim() : null,
    objective: select ? select.value : null,
  };
}"""

PLAN_TEXT_JS = "() => { const b = document.querySelector('.aotg-plan-text textarea'); return b ? b.value : null; }"

TABLE_PAGE_JS = r"""() => {
  // The "Rules of the table" tab: its inputs and its answers, as shown.
  const root = document.querySelector('.aotg-table-tab');
  if (!root) return null;
  const labelled = (kind, text) => [...root.querySelectorAll(kind)].find((w) => {
    const l = w.querySelector(':scope > label.widget-label, :scope > .widget-label');
    return l && l.textContent.trim() === text;
  });
  const tags = (text) => {
    const box = [...root.querySelectorAll('.widget-hbox')].find((h) => h.firstElementChild
      && h.firstElementChild.classList.contains('widget-label') && h.firstElementChild.textContent.trim() === text);
    return box ? [...box.querySelectorAll('div.jupyter-widget-tag')].map((t) => t.textContent.trim()) : null;
  };
  const value = (kind, text) => { const w = labelled(kind, text); const i = w && w.querySelector('input, select');
                                  return i ? {value: i.value, disabled: i.disabled} : null; };
  const numbers = {};
  for (const w of root.querySelectorAll('.widget-text')) {
    const l = w.querySelector(':scope > label.widget-label');
    const i = w.querySelector('input[type=number]');
    if (l && i && !w.closest('.aotg-table-region')) numbers[l.textContent.trim()] = i.value;
  }
  const regions = [...root.querySelectorAll('.aotg-table-region')].map((r) => {
    const selects = [...r.querySelectorAll('select')];
    return {name: r.querySelector('input[type=text]').value, kind: selects[0].value, home: selects[1].value,
            homeShown: getComputedStyle(selects[1].closest('.widget-dropdown')).visibility !== 'hidden',
            giants: selects[2].value, slayers: r.querySelector('.aotg-region-slayers input').value,
            units: r.querySelector('.aotg-region-units input').value,
            lyn: r.querySelector('input[type=checkbox]').checked};
  });
  const rank = [...root.querySelectorAll('.widget-checkbox')].find((w) => w.textContent.includes('final standings'));
  const cells = (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim());
  const rows = (selector) => { const t = root.querySelector(selector);
                               return t ? [...t.querySelectorAll('tr')].slice(1).map(cells) : null; };
  const phase = root.querySelector('.aotg-table-phase');
  const moves = root.querySelector('.aotg-table-moves');
  return {
    players: tags('players'), npc: tags('NPC'), numbers,
    current: value('.widget-dropdown', 'current player'),
    first: value('.widget-text', 'first pool'), second: value('.widget-text', 'second pool'),
    began: value('.widget-dropdown', 'second pool ran out on'),
    regions, rank: rank ? rank.querySelector('input').checked : null,
    phase: phase ? phase.textContent.trim() : null,
    movesHeading: moves ? moves.parentElement.querySelector('b').textContent.trim() : null,
    moves: rows('.aotg-table-moves'), recruit: rows('.aotg-table-recruit'),
    turns: [...root.querySelectorAll('.aotg-table-turns li')].map((li) => li.textContent.trim()),
    stale: Boolean(root.querySelector('.explorer-stale')),
  };
}"""

KINDS = {"Starting Region": "starting", "Small Folk Region": "small-folk"}
"""The region kind drop-down's labels (``table_inputs.RegionRow``) and the scenario's values."""
QUESTION_KEYS = ("pass_through", "end_move", "attack")


# ----------------------------------------------------------------------------- computed here
def _played(side: Any) -> Any:
    """The side as it plays (its Cards in battle folded in), where the game has such cards."""
    try:
        from explorer.games.assault_of_the_giants.rules.cards import played
    except ImportError:
        return side
    return played(side)


def reroll_expected(text: str, inputs: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str], Any]:
    """The reroll chart for the scenario `text` and the roll shown: (figure, problems reading the page, options)."""
    from explorer.charts.aotg_decisions import reroll_advice_figure
    from explorer.games.assault_of_the_giants import parse_battle
    from explorer.games.assault_of_the_giants.best.advice import advise_reroll
    from explorer.panels.assault_of_the_giants.reroll_advisor import SHOWN, face_label

    battle = parse_battle(json.loads(text))
    role = inputs.get("role")
    if role != "attacker":
        return None, [f"the side toggle shows {role!r}; this test reads the attacker's roll"], None
    side = _played(battle.attacker)
    dice = [(die.name, die.faces) for die, n in side.pool for _ in range(n)]
    shown = inputs["dice"]
    problems = []
    if len(shown) != len(dice):
        return None, [f"{len(shown)} dice drop-downs, the attacker rolls {len(dice)} dice: {[d for d, _ in dice]}"], None
    roll = []
    for i, (entry, (name, faces)) in enumerate(zip(shown, dice)):
        labels = {face_label(f): f for f in faces}
        if entry["label"] != f"{i + 1}. {name}":
            problems.append(f"die {i + 1}: labelled {entry['label']!r}, the pool's die {i + 1} is {name!r}")
        if entry["options"] != list(labels):
            problems.append(f"die {i + 1} ({name}): offers {entry['options']}, its faces are {list(labels)}")
        if entry["value"] not in labels:
            problems.append(f"die {i + 1} ({name}): shows {entry['value']!r}, not one of its faces")
            continue
        roll.append((name, labels[entry["value"]]))
    if problems:
        return None, problems, None
    options = advise_reroll(battle, "attacker", roll)
    figure = reroll_advice_figure(options[:SHOWN], [name for name, _ in dice], side.objective)
    return plain_figure(figure), [], options


def row_expected(text: str, inputs: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    """The row advisor's chart for the scenario `text` and the hand, "cards first" and objective shown."""
    from explorer.charts.aotg_decisions import OBJECTIVE_LABELS, row_advice_figure
    from explorer.games.assault_of_the_giants import parse_battle
    from explorer.games.assault_of_the_giants.best.row_advisor import row_options

    scenario = json.loads(text)
    row = {c.strip().lower() for c in scenario["attacker"].get("commands", [])}
    problems = [f"card {card}: {'offered' if disabled else 'not offered'} (greyed {disabled}) while the row is "
                f"{scenario['attacker'].get('commands')}" for card, _ticked, disabled in inputs["cards"]
                if disabled != (card.lower() in row)]
    objectives = {label: key for key, label in OBJECTIVE_LABELS.items()}
    if inputs["objective"] not in objectives:
        problems.append(f"objective {inputs['objective']!r} is none of {list(objectives)}")
    if not (inputs["most"] or "").isdigit():
        problems.append(f"'cards first' reads {inputs['most']!r}")
    if problems:
        return None, problems
    hand = [card for card, ticked, disabled in inputs["cards"] if ticked and not disabled]
    objective = objectives[inputs["objective"]]
    options = row_options(parse_battle(scenario), hand, objective=objective, most=int(inputs["most"]))
    return plain_figure(row_advice_figure(options, objective)), []


def plan_expected(text: str) -> list[dict[str, Any]]:
    """The plan's three charts (points, wins, armies), resolved here from the plan's text."""
    import explorer
    from explorer.charts.aotg_plan import plan_figures

    figures = plan_figures(explorer.resolve(json.loads(text)).result)
    return [plain_figure(figures[name]) for name in ("points", "wins", "armies")]


def table_scenario(shown: dict[str, Any]) -> tuple[dict[str, Any] | None, list[str]]:
    """The ``table`` the tab's inputs describe, read from the page."""
    problems = []
    if shown["rank"]:
        problems.append("'final standings' is ticked: this test reads no standings")
    players, npc = shown["players"], shown["npc"]
    if players is None or npc is None:
        problems.append(f"players {players!r} / NPC {npc!r} tags not found")
    for key in ("current", "first", "second", "began"):
        if shown[key] is None:
            problems.append(f"no {key!r} input")
    if problems:
        return None, problems
    table: dict[str, Any] = {
        "players": [{"race": race, "ordning_number": int(shown["numbers"][race])} for race in players],
        "npc": list(npc),
        "regions": [],
        "pools": {"first": int(shown["first"]["value"]), "second": int(shown["second"]["value"])},
    }
    for region in shown["regions"]:
        kind = KINDS.get(region["kind"])
        if kind is None:
            problems.append(f"region {region['name']!r}: kind {region['kind']!r}")
            continue
        if region["homeShown"] != (kind == "starting"):
            problems.append(f"region {region['name']!r} ({kind}): its home race {'shown' if region['homeShown'] else 'hidden'}")
        entry: dict[str, Any] = {"name": region["name"], "kind": kind}
        if kind == "starting":
            entry["home"] = region["home"]
        if region["giants"] != "nobody":
            entry["occupied_by"] = region["giants"]
        if int(region["units"] or 0):
            entry["units"] = int(region["units"])
        if int(region["slayers"] or 0):
            entry["giantslayers"] = int(region["slayers"])
        if region["lyn"]:
            entry["lyn_armaal"] = True
        table["regions"].append(entry)
    if shown["current"]["value"]:
        table["current"] = shown["current"]["value"]
    began = shown["began"]
    if not began["disabled"] and began["value"] in players:
        table["endgame_began_with"] = began["value"]
    return (None, problems) if problems else (table, [])


def table_differences(shown: dict[str, Any], report: dict[str, Any]) -> list[str]:
    """How the tab's answers differ from the table report computed here (`TableReport.table_dict`)."""
    found = []
    phase = report["phase"]
    text = shown["phase"] or ""
    if phase["phase"].lower() not in text.lower() or phase["reason"] not in text:
        found.append(f"phase shows {text!r}; the report: {phase['phase']!r}, {phase['reason']!r}")
    if report["current"] not in (shown["movesHeading"] or "").split():
        found.append(f"the moves are headed {shown['movesHeading']!r}; the current player is {report['current']!r}")
    moves = shown["moves"] or []
    if [row[0] if row else None for row in moves] != [r["region"] for r in report["regions"]]:
        found.append(f"moves: regions {[row[:1] for row in moves]}, the report's {[r['region'] for r in report['regions']]}")
    else:
        for row, region in zip(moves, report["regions"]):
            for cell, key in zip(row[1:], QUESTION_KEYS):
                answer = region[key]
                verdict = "✔ yes" if answer["allowed"] else "✘ no"
                parts = [verdict, answer["reason"], f"({answer['page']})"]
                if answer["costs"]:
                    parts.append("costs: " + " or ".join(answer["costs"]))
                if not cell.startswith(verdict) or any(p not in cell for p in parts):
                    found.append(f"{region['region']}, {key}: shows {cell!r}; the report: {answer}")
            if len(row) != 1 + len(QUESTION_KEYS):
                found.append(f"{region['region']}: {len(row)} cells {row}")
    recruit = shown["recruit"] or []
    if [row[0] if row else None for row in recruit] != list(report["recruit"]):
        found.append(f"recruit: races {[row[:1] for row in recruit]}, the report's {list(report['recruit'])}")
    else:
        for row, (race, answer) in zip(recruit, report["recruit"].items()):
            places = ("✔ " + ", ".join(answer["places"])) if answer["allowed"] else "✘ nowhere"
            if len(row) != 3 or row[1] != places or answer["reason"] not in row[2] or f"({answer['page']})" not in row[2]:
                found.append(f"recruit, {race}: shows {row}; the report: {answer}")
    turns = [re.sub(r"\s*\(final round\)$", "", t) for t in shown["turns"]]
    if turns != report["endgame_turns"]["turns"]:
        found.append(f"Endgame turns {turns}, the report's {report['endgame_turns']['turns']}")
    if shown["stale"]:
        found.append("the answers are marked not updated")
    return found


# ----------------------------------------------------------------------------- the steps
class AotgTabsSteps:
    """The panel's four decision tabs in one load, run by `test_browser.Driver` (its page, waits and failures)."""

    def __init__(self, driver: Any, report: dict[str, Any], settle_s: float, change_s: float) -> None:
        self.driver, self.page, self.report = driver, driver.page, report
        self.settle_s, self.change_s = settle_s, change_s
        self._cache: dict[Any, Any] = {}

    # -- helpers ----------------------------------------------------------------------------------
    def open_tab(self, title: str) -> None:
        pattern = re.compile(f"^{re.escape(title)}$")
        self.page.locator(".aotg-panel .lm-TabBar-tab", has_text=pattern).first.click()

    def charts(self, tab: str) -> list[dict[str, Any]]:
        """The tab's charts (as `snapshot` gives them), in page order."""
        ids = self.page.evaluate(CHART_IDS_JS, ROOTS[tab])
        by_id = {c["id"]: c for c in snapshot(self.page)}
        return [by_id[i] for i in ids if i in by_id]

    def revisions(self, tab: str) -> dict[str, int]:
        return {str(c["id"]): c["revision"] for c in self.charts(tab)}

    def shown_errors(self, tab: str) -> list[str]:
        return [f"{TABS[tab]}: message shown: {m}" for m in self.page.evaluate(ERROR_TEXT_JS, ERRORS[tab])]

    def chart_problems(self, tab: str, expected: list[dict[str, Any]]) -> list[str]:
        """How the tab's charts differ from `expected` (drawn, visible, no overlay, equal figures)."""
        charts = self.charts(tab)
        if len(charts) != len(expected):
            return [f"{len(charts)} charts in the tab, expected {len(expected)}"]
        found = []
        for chart, figure in zip(charts, expected):
            where = f"{TABS[tab]}, chart {chart['title']!r}"
            if chart["state"] != "drawn" or chart["overlayShown"] or not chart["visible"]:
                found.append(f"{where}: state {chart['state']!r}, visible {chart['visible']}, "
                             f"overlay {chart['overlay']!r}")
            else:
                found += figure_differences(where, chart, figure)
        return found

    def settle(self, tab: str, what: str, problems_now: Callable[[], list[str]], timeout_s: float | None = None) -> None:
        """Wait until `problems_now` finds none twice, 0.3 s apart, with no redraw of the tab's charts between."""
        deadline = time.monotonic() + (timeout_s or self.settle_s)
        agreed = None
        while True:
            revisions = self.revisions(tab)
            problems = problems_now()
            if not problems:
                if agreed == revisions:
                    return
                agreed = revisions
                time.sleep(0.3)
                continue
            agreed = None
            if time.monotonic() > deadline or self.driver.new_tracebacks():
                self.driver.fail(f"{TABS[tab]}, {what}: the tab does not show what is computed here from its inputs:"
                                 "\n  " + "\n  ".join(problems) + f"\n\ncharts now:\n{self.driver.describe_charts()}")
            time.sleep(0.25)

    def cached(self, key: Any, compute: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def redrawn(self, tab: str, before: dict[str, int], what: str, start: float) -> None:
        """Wait for every chart of `before` to draw a newer revision; record the times."""
        self.driver.wait(REDRAWN_JS, [before, None], self.change_s, f"{TABS[tab]}, {what}: its chart redrawn")
        acted_at = self.page.evaluate(ACTED_JS)
        log = self.page.evaluate(LOG_JS)
        times = [drawn_at(log, int(cid), rev) for cid, rev in self.revisions(tab).items() if cid in before]
        page_ms = (max(times) - acted_at) if acted_at is not None and times and all(t is not None for t in times) else None
        self.report.setdefault("changes", []).append({
            "change": f"{TABS[tab]}: {what}", "wall_ms": round((time.perf_counter() - start) * 1000, 1),
            "click_to_redrawn_ms": None if page_ms is None else round(page_ms, 1)})

    def opened(self, tab: str, ready: str) -> float:
        """Click the tab's title and wait for `ready` (JS); returns the wall ms."""
        self.page.evaluate(ARM_JS)
        start = time.perf_counter()
        self.open_tab(TABS[tab])
        self.driver.wait(ready, ROOTS[tab], self.change_s, f"{TABS[tab]}: opened and drawn")
        ms = round((time.perf_counter() - start) * 1000, 1)
        self.page.evaluate(ACTED_JS)
        self.report.setdefault("tab_to_drawn_wall_ms", {})[tab] = ms
        return ms

    def screenshot(self, tab: str) -> None:
        """The tab at 1400x900, its tab bar at the top of the window (``build/screenshots/aotg-<tab>-1400x900.png``)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        size = self.page.viewport_size
        self.page.set_viewport_size({"width": 1400, "height": 900})
        self.page.evaluate("""(root) => { const el = document.querySelector(root);
            const bar = el && el.closest('.widget-tab') && el.closest('.widget-tab').querySelector('.lm-TabBar');
            (bar || el).scrollIntoView({block: 'start'}); }""", ROOTS[tab])
        self.page.wait_for_timeout(1000)
        path = SCREENSHOTS / f"aotg-{tab}-1400x900.png"
        self.page.screenshot(path=str(path))
        self.driver.load.screenshots.append(str(path.relative_to(SCREENSHOTS.parent.parent)))
        if size != {"width": 1400, "height": 900}:
            self.page.set_viewport_size(size)
            self.page.wait_for_timeout(1000)

    # -- the tabs ---------------------------------------------------------------------------------
    def run(self, screenshots: bool = False) -> None:
        """Open each tab, check it, change one input and check again; leave the panel on its what-if tab."""
        for tab, step in (("reroll", self.reroll), ("row", self.row), ("plan", self.plan), ("table", self.table)):
            step()
            if screenshots:
                self.screenshot(tab)
        self.open_tab(HOME_TAB)

    def reroll(self) -> None:
        drawn = """(root) => { const el = document.querySelector(root + ' .explorer-chart');
            return el && el.dataset.state === 'drawn' && el.querySelector('.explorer-chart-plot').offsetWidth > 0
              && document.querySelectorAll(root + ' .widget-dropdown select').length > 0; }"""
        self.opened("reroll", drawn)

        def problems() -> list[str]:
            text, inputs = scenario_text(self.page), self.page.evaluate(REROLL_INPUTS_JS)
            if text is None or inputs is None:
                return ["no scenario box or no reroll tab on the page"]
            key = ("reroll", text, json.dumps(inputs["dice"]), inputs["role"])
            figure, found, options = self.cached(key, lambda: reroll_expected(text, inputs))
            if figure is None:
                return found
            found = self.chart_problems("reroll", [figure]) + self.shown_errors("reroll")
            best = f"{float(options[0].value):.4f}"
            if best not in inputs["summary"] or f"({len(options)} choices" not in inputs["summary"]:
                found.append(f"summary {inputs['summary']!r}: the best value here is {best}, of {len(options)} choices")
            return found

        self.settle("reroll", "as opened", problems, self.change_s)
        first = self.page.evaluate(REROLL_INPUTS_JS)["dice"][0]
        other = next(o for o in first["options"] if o != first["value"])
        before = self.revisions("reroll")
        self.page.evaluate(ARM_JS)
        start = time.perf_counter()
        self.page.locator(".aotg-reroll-advisor .widget-dropdown select").first.select_option(other)
        what = f"die 1 {first['value']} -> {other}"
        self.redrawn("reroll", before, what, start)

        def changed() -> list[str]:
            shown = self.page.evaluate(REROLL_INPUTS_JS)["dice"][0]["value"]
            return [f"die 1 shows {shown!r}, set to {other!r}"] if shown != other else problems()

        self.settle("reroll", what, changed)

    def row(self) -> None:
        visible = """(root) => { const el = document.querySelector(root + ' .explorer-chart');
            return el && ['drawn', 'stale'].includes(el.dataset.state)
              && el.querySelector('.explorer-chart-plot').offsetWidth > 0; }"""
        self.opened("row", visible)

        def problems() -> list[str]:
            text, inputs = scenario_text(self.page), self.page.evaluate(ROW_INPUTS_JS)
            if text is None or inputs is None:
                return ["no scenario box or no row advisor on the page"]
            key = ("row", text, json.dumps(inputs))
            figure, found = self.cached(key, lambda: row_expected(text, inputs))
            if figure is None:
                return found
            return self.chart_problems("row", [figure]) + self.shown_errors("row")

        text = scenario_text(self.page) or "{}"
        if json.loads(text).get("attacker", {}).get("giantslayers"):
            self.refused_for_giantslayers(text)
            before = self.revisions("row")
            self.page.evaluate(ARM_JS)
            start = time.perf_counter()
            self.page.locator(GIANTSLAYERS).click()
            self.redrawn("row", before, "untick giantslayers in the panel (the tab open)", start)

            def unticked() -> list[str]:
                scenario = json.loads(scenario_text(self.page) or "{}")
                if scenario.get("attacker", {}).get("giantslayers") is not False:
                    return ["the scenario box does not show giantslayers unticked"]
                return problems()

            self.settle("row", "giantslayers unticked", unticked)
        else:
            self.settle("row", "as opened", problems, self.change_s)
        inputs = self.page.evaluate(ROW_INPUTS_JS)
        card = next(c for c, ticked, disabled in inputs["cards"] if ticked and not disabled)
        before = self.revisions("row")
        self.page.evaluate(ARM_JS)
        start = time.perf_counter()
        self.page.locator(f".aotg-row-advisor .widget-checkbox:has(span[title={json.dumps(card)}]) input").click()
        what = f"untick {card}"
        self.redrawn("row", before, what, start)

        def changed() -> list[str]:
            cards = {c: t for c, t, _d in self.page.evaluate(ROW_INPUTS_JS)["cards"]}
            return [f"{card} still ticked"] if cards.get(card) else problems()

        self.settle("row", what, changed)

    def refused_for_giantslayers(self, text: str) -> None:
        """With giantslayers the advisor cannot advise: the tab must say why (as `row_options` does here)."""
        from explorer.core.errors import ExplorerError

        inputs = self.page.evaluate(ROW_INPUTS_JS)
        try:
            row_expected(text, inputs)
        except ExplorerError as error:  # the page names the input by its label, not its field path
            expected = getattr(error, "problem", str(error))
            path = f"{error.field}: " if getattr(error, "field", "") else None
        else:
            self.driver.fail("Which row?: the attacker fights with giantslayers, yet the advisor computes rows here")

        def problems() -> list[str]:
            found = []
            shown = self.page.evaluate(ERROR_TEXT_JS, ERRORS["row"])
            if not any(expected in m for m in shown):
                found.append(f"the tab shows {shown}, expected the message {expected!r}")
            if path is not None and any(path in m for m in shown):
                found.append(f"the tab shows {shown}: a field path ({path!r}), not the label on screen")
            for chart in self.charts("row"):
                if chart["state"] != "stale" or expected not in (chart["overlay"] or ""):
                    found.append(f"chart {chart['title']!r}: state {chart['state']!r}, overlay {chart['overlay']!r}: "
                                 f"it must say it is not updated, and why ({expected!r})")
            return found

        self.settle("row", "giantslayers attack (no row to advise)", problems, self.change_s)

    def plan(self) -> None:
        drawn = """(root) => { const charts = [...document.querySelectorAll(root + ' .explorer-chart')];
            const box = document.querySelector(root + ' .aotg-plan-text textarea');
            return charts.length === 3 && charts.every((e) => e.dataset.state === 'drawn'
              && e.querySelector('.explorer-chart-plot').offsetWidth > 0) && box && box.value.length > 0; }"""
        self.opened("plan", drawn)

        def problems() -> list[str]:
            text = self.page.evaluate(PLAN_TEXT_JS)
            if not text:
                return ["the plan's box (.aotg-plan-text textarea) is empty"]
            try:
                expected = self.cached(("plan", text), lambda: plan_expected(text))
            except Exception as error:  # noqa: BLE001 - reported as what the box held
                return [f"the plan's box does not hold a plan the resolver takes: {error!r}\n{text[:1500]}"]
            return self.chart_problems("plan", expected) + self.shown_errors("plan")

        self.settle("plan", "as opened (the panel's battle fought twice)", problems, self.change_s)

    def table(self) -> None:
        ready = """(root) => { const el = document.querySelector(root);
            return Boolean(el && el.querySelector('.aotg-table-phase') && el.querySelector('.aotg-table-moves tr td')
              && el.offsetWidth > 0); }"""
        self.opened("table", ready)

        def problems(current: str | None = None) -> list[str]:
            import explorer

            shown = self.page.evaluate(TABLE_PAGE_JS)
            if shown is None:
                return ["no .aotg-table-tab on the page"]
            table, found = table_scenario(shown)
            if table is None:
                return found
            if current is not None and table.get("current") != current:
                return [f"current player {table.get('current')!r}, set to {current!r}"]
            key = ("table", json.dumps(table, sort_keys=True))
            try:
                report = self.cached(key, lambda: explorer.resolve(
                    {"format": 1, "game": "assault-of-the-giants", "table": table}).table_dict())
            except Exception as error:  # noqa: BLE001 - reported with the table read
                return [f"the table read from the page is refused here: {error!r}\n{json.dumps(table)[:1500]}"]
            return table_differences(shown, report) + self.shown_errors("table")

        self.settle("table", "as opened", problems, self.change_s)
        shown = self.page.evaluate(TABLE_PAGE_JS)
        now = shown["current"]["value"]
        other = next(p for p in shown["players"] if p != now)
        heading_before = shown["movesHeading"]
        self.page.evaluate(ARM_JS)
        start = time.perf_counter()
        select = self.page.locator(".aotg-table-tab .widget-dropdown:has(> label:text-is('current player')) select")
        select.select_option(other)
        self.driver.wait("""([root, before]) => { const t = document.querySelector(root + ' .aotg-table-moves');
            return Boolean(t && t.parentElement.querySelector('b').textContent.trim() !== before); }""",
                         [ROOTS["table"], heading_before], self.change_s, f"Rules of the table, current player -> {other}")
        self.page.evaluate(ACTED_JS)
        self.report.setdefault("changes", []).append({
            "change": f"{TABS['table']}: current player {now} -> {other}",
            "wall_ms": round((time.perf_counter() - start) * 1000, 1), "click_to_redrawn_ms": None})
        self.settle("table", f"current player {now} -> {other}", lambda: problems(other))
