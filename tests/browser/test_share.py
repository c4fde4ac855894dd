"""Share links and exports in a real browser: copy a link, open it in a fresh page, get the same app.

The app is served as ``make run`` serves it (``scripts/serve.py``, a preheated kernel, the token
in the address). In headless Chromium:

1. the Assault of the Giants panel opens; one input is changed (attacker basic dice 4 -> 6) and
   the charts follow; **Copy link** (Scenario tab) puts a link in its field and on the clipboard;
2. the exports save files: the report as CSV (equal to ``explorer.resolve(...).to_frame()`` of the
   scenario in the box), a chart as PNG and as self-contained HTML, and the scenario file;
3. the link is opened in a **fresh browser context** (no cookie, nothing shared): the page opens
   on the scenario of step 1 (its scenario box), and every battle chart EQUALS the figures this
   process computes for that scenario;
4. a link made here for an Arcadia Quest encounter opens the Arcadia Quest tab on it, its charts
   equal to the encounter's;
5. a link that does not decode shows a message above the tabs and the default battle.

The pages take preheated kernels (``make run`` keeps one ready): the kernel had run the app before
the page asked, and learns the page's address when Voila hands it the request; the other path,
a kernel started for the page with the address in its environment, is what `tests/browser/test_binder.py`
opens (Voila as a Jupyter server extension, as on Binder).

No console error, uncaught page error or kernel traceback is allowed in any page. Writes
``build/screenshots/share-1400x900.png`` (the share and export rows) and ``build/share-timings.json``.
Run alone::

    .venv/bin/python -m pytest tests/browser/test_share.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from explorer import lessons
from explorer.resolver import resolve
from explorer.share import parse_query, share_query
from tests.browser.arcadia import Encounter
from tests.browser.support import (
    BUILD,
    CHROMIUM_ARGS,
    INIT_SCRIPT,
    SCREENSHOTS,
    Battle,
    PageLog,
    Server,
    app_server,
    attach,
    build_side_tab,
    figure_differences,
    snapshot,
    until,
)

pytestmark = pytest.mark.browser

RENDER_S = 150.0
CHANGE_S = 60.0
BOX = {"aotg": ".aotg-scenario-text textarea", "aq": ".aq-scenario-text textarea"}


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-share.log") as running:
        yield running


def until_right(what: str, problems: Callable[[], list[str]], timeout_s: float, server: Server) -> None:
    """Poll `problems` until it finds none; fail with the last ones it found."""
    found: list[str] = []

    def probe() -> bool:
        found[:] = problems()
        return not found

    try:
        until(what, probe, timeout_s, server)
    except AssertionError as error:
        raise AssertionError(f"{error}\nproblems:\n  " + "\n  ".join(found)) from None


def box_text(page: Any, panel: str) -> str | None:
    return page.evaluate("(s) => { const b = document.querySelector(s); return b ? b.value : null; }", BOX[panel])


def battle_problems(page: Any) -> list[str]:
    """How the visible battle charts differ from the battle in the Assault panel's scenario box."""
    text = box_text(page, "aotg")
    if not text:
        return ["no scenario box yet"]
    battle = Battle.from_text(text)
    charts = [c for c in snapshot(page) if c["group"] == "battle"]
    if len(charts) != 4 or any(c["state"] != "drawn" for c in charts):
        return [f"battle charts: {[(c['title'], c['state']) for c in charts]}"]
    found: list[str] = []
    for chart, expected in zip(charts, battle.battle_figures("exactly")):
        found += figure_differences(f"battle chart {chart['title']!r}", chart, expected)
    return found


def encounter_problems(page: Any) -> list[str]:
    text = box_text(page, "aq")
    if not text:
        return ["no Arcadia Quest scenario box yet"]
    encounter = Encounter.from_text(text)
    charts = [c for c in snapshot(page) if c["group"] == "aq"]
    if len(charts) != 4 or any(c["state"] != "drawn" for c in charts):
        return [f"encounter charts: {[(c['title'], c['state']) for c in charts]}"]
    found: list[str] = []
    for chart, expected in zip(charts, encounter.figures("exactly")):
        found += figure_differences(f"encounter chart {chart['title']!r}", chart, expected)
    return found


def new_page(browser: Any, logs: list[PageLog], **context: Any) -> Any:
    page = browser.new_context(viewport={"width": 1400, "height": 900}, accept_downloads=True, **context).new_page()
    # a page may find no warm kernel (its refill held while the machine was busy) and wait for a
    # kernel started for it: on a slow machine that is longer than playwright's 30 s default
    page.set_default_navigation_timeout(RENDER_S * 1000)
    page.add_init_script(INIT_SCRIPT)
    logs.append(attach(page))
    return page


def saved(page: Any, selector: str) -> tuple[str, bytes]:
    """Click `selector` and return the file the page saves (name, bytes)."""
    with page.expect_download(timeout=60_000) as info:
        page.locator(selector).first.click()
    download = info.value
    return download.suggested_filename, Path(download.path()).read_bytes()


def test_a_copied_link_opens_the_same_scenario_in_a_fresh_page(server: Server, chromium_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    logs: list[PageLog] = []
    timings: dict[str, float] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            # 1. build a scenario, copy its link
            origin = server.base.rstrip("/")
            page = new_page(browser, logs, permissions=["clipboard-read", "clipboard-write"])
            start = time.monotonic()
            page.goto(server.url)
            build_side_tab(page, ".aotg-panel", "Scenario, share", "Results", RENDER_S)  # built when opened
            until_right("the battle charts drawn and right", lambda: battle_problems(page), RENDER_S, server)
            timings["first page: charts right (s)"] = time.monotonic() - start
            default_text = box_text(page, "aotg")
            box = page.locator(".aotg-pool-basic-attacker input")
            box.fill("6")
            box.press("Enter")
            until("the scenario box shows 6 attacker basic dice",
                  lambda: json.loads(box_text(page, "aotg") or "{}").get("attacker", {}).get("pool", {}).get("basic") == 6,
                  CHANGE_S, server)
            until_right("the charts follow the change", lambda: battle_problems(page), CHANGE_S, server)
            built = box_text(page, "aotg")
            page.get_by_role("tab", name=re.compile(r"^Scenario")).first.click()
            page.locator(".aotg-panel .explorer-share-copy").click()
            link = until("a link in the Copy link field",
                         lambda: page.locator(".aotg-panel .explorer-share-link").input_value(), 30, server)
            assert link.startswith(origin + "/?") and "token=" in link
            asked = parse_query(urlsplit(link).query)
            assert asked.game == "assault-of-the-giants" and asked.scenario == json.loads(built)
            status = page.locator(".aotg-panel .explorer-share-status").inner_text()
            assert status == "copied", status
            assert page.evaluate("navigator.clipboard.readText()") == link
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.locator(".aotg-panel .explorer-share-export").scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / "share-1400x900.png"))

            # 2. the exports
            name, data = saved(page, ".aotg-panel .explorer-export-csv")
            assert name == "battle-report.csv"
            assert data.decode() == resolve(json.loads(built)).to_frame().to_csv(index=False)
            assert next(csv.reader(io.StringIO(data.decode())))[-1] == "probability"
            name, data = saved(page, ".aotg-panel .explorer-export-png")
            assert name == "battle-hits.png" and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
            name, data = saved(page, ".aotg-panel .explorer-export-html")
            text = data.decode()
            assert name == "battle-hits.html" and "Plotly.newPlot" in text and "cdn." not in text[:2000]
            assert len(text) > 1_000_000  # plotly.js inside: the file opens offline
            name, data = saved(page, ".aotg-panel .explorer-download")
            assert name == "battle.json" and json.loads(data) == json.loads(built)

            # 3. the link in a fresh context: no cookie, nothing shared with the first page
            fresh = new_page(browser, logs)
            start = time.monotonic()
            fresh.goto(link)
            until_right("the linked battle's charts drawn and right", lambda: battle_problems(fresh), RENDER_S, server)
            timings["linked page: charts right (s)"] = time.monotonic() - start
            assert json.loads(box_text(fresh, "aotg")) == json.loads(built)
            assert not fresh.locator(".explorer-link-notice").is_visible()

            # 4. an Arcadia Quest encounter: its tab opens on it
            encounter = lessons.example("arcadia-encounter-guard.json")
            other = new_page(browser, logs)
            other.goto(server.url + "&" + share_query(encounter))
            until_right("the linked encounter's charts drawn and right", lambda: encounter_problems(other), RENDER_S, server)
            shown = json.loads(box_text(other, "aq"))
            assert resolve(shown).to_dict() == resolve(encounter).to_dict()
            selected = other.locator(".explorer-app > .lm-TabBar .lm-mod-current, .explorer-app .lm-TabBar-tab.lm-mod-current")
            assert "Arcadia Quest" in selected.first.inner_text()

            # 5. a damaged link: a message, and the default battle
            broken = new_page(browser, logs)
            broken.goto(link[:-40])  # a link cut short, as a careless copy does
            build_side_tab(broken, ".aotg-panel", "Scenario, share", "Results", RENDER_S)
            until_right("the default battle's charts", lambda: battle_problems(broken), RENDER_S, server)
            notice = until("the message about the link",
                           lambda: broken.locator(".explorer-link-notice").is_visible()
                           and broken.locator(".explorer-link-notice").inner_text(), 60, server)
            assert "could not be opened" in notice and "default" in notice
            assert box_text(broken, "aotg") == default_text
        finally:
            browser.close()
    errors = [error for log in logs for error in log.errors()]
    assert errors == [], "\n".join(errors)
    assert server.kernel_tracebacks() == []
    # the pages took preheated kernels, which had run the app before the link's page asked for one:
    # the path where the kernel waits for Voila to hand it the request (voila.utils.wait_for_request)
    assert server.log().count("Using pre-heated kernel") >= 2, server.log_tail(40)
    (BUILD / "share-timings.json").write_text(json.dumps(timings, indent=1))
