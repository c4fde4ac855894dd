"""Access for everyone: axe-core finds no serious or critical WCAG 2.2 A/AA violation in the app.

The app is served as ``make run`` serves it. Debian's Chromium opens it at 1400 x 900 and at a
phone's 390 x 844; on each game's tab (its Results, then every tool tab of the panel, each opened
once) and on the dice lab, axe-core runs over the page with the WCAG 2.0/2.1/2.2 A and AA rules.
axe-core is the npm package, pinned by its SHA-512 and kept in the project's download cache
(`explorer.panels.common.install.fetch_verified`); its script is put into the page by the test,
not fetched by the page. Any violation of impact "serious" or "critical" fails, listed with its
rule, its help text and the first elements it names; the others are written to
``build/access.json`` with the rest of the report.

Run alone::

    .venv/bin/python -m pytest tests/browser/test_access.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.panels.common.install import cache_dir, fetch_verified, members
from tests.browser.support import BUILD, CHROMIUM_ARGS, INIT_SCRIPT, Server, app_server, attach

pytestmark = pytest.mark.browser

AXE_URL = "https://registry.npmjs.org/axe-core/-/axe-core-4.10.3.tgz"
AXE_INTEGRITY = "sha512-Xm7bpRXnDSX2YE2YFfBk2FnF0ep6tmG7xPh8iHee8MIcrgq762Nkce856dYtJYLkuIoYZvGfTs/PbZhideTcEg=="
AXE_SCRIPT = "package/axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
FAILING = ("serious", "critical")
SIZES = ((1400, 900), (390, 844))
GAMES = {"Assault of the Giants": ".aotg-panel", "Arcadia Quest": ".aq-panel", "A Game of Thrones": ".agot-panel",
         "Dice lab": ".lab-root"}
"""Each tab of the app, and the element that shows its content is there."""
OPEN_S = 120.0

RUN_AXE_JS = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map((n) => ({target: n.target.join(' '), summary: (n.failureSummary || '').slice(0, 300)})),
    count: v.nodes.length}));
}"""

READY_JS = """(css) => {
  const root = [...document.querySelectorAll(css)].find((el) => el.offsetWidth > 0);
  if (!root) return false;
  const charts = [...root.querySelectorAll('.explorer-chart')].filter((el) => el.offsetWidth > 0);
  return charts.length > 0 && charts.every((el) => ['drawn', 'stale'].includes(el.dataset.state));
}"""

TOOL_TITLES_JS = """(css) => {
  const root = [...document.querySelectorAll(css)].find((el) => el.offsetWidth > 0);
  const bar = root && root.querySelector('.explorer-tools > .lm-TabBar');
  return bar ? [...bar.querySelectorAll('.lm-TabBar-tab')].map((t) => t.innerText.trim()) : [];
}"""


@pytest.fixture(scope="module")
def axe_script() -> str:
    data, _where = fetch_verified(AXE_URL, AXE_INTEGRITY, cache_dir())
    return members(data, (AXE_SCRIPT,))[AXE_SCRIPT].decode("utf-8")


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-access.log") as running:
        yield running


def _wait(page: Any, js: str, arg: Any, what: str, server: Server) -> None:
    deadline = time.monotonic() + OPEN_S
    while not page.evaluate(js, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {OPEN_S:.0f} s\n{server.log_tail()}")
        time.sleep(0.3)


def _scan(page: Any, axe: str, where: str, found: list[dict[str, Any]]) -> None:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    for violation in page.evaluate(RUN_AXE_JS, TAGS):
        found.append({"where": where, **violation})


def _tools(page: Any, css: str, title: str, axe: str, where: str, found: list[dict[str, Any]]) -> None:
    """Open each tool tab of the panel once, scan it, and go back to its Results."""
    titles = page.evaluate(TOOL_TITLES_JS, css)
    tabs = page.locator(f"{css} .explorer-tools > .lm-TabBar .lm-TabBar-tab")
    for tool in titles[1:]:
        tabs.filter(has_text=tool).first.click()
        page.wait_for_timeout(2500)
        _scan(page, axe, f"{where}, tab {tool!r}", found)
    if titles:
        tabs.filter(has_text=titles[0]).first.click()


def test_axe_finds_no_serious_or_critical_violation(server: Server, chromium_path: Path, axe_script: str) -> None:
    from playwright.sync_api import sync_playwright

    found: list[dict[str, Any]] = []
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            for width, height in SIZES:
                context = browser.new_context(viewport={"width": width, "height": height})
                context.add_init_script(INIT_SCRIPT)
                page = context.new_page()
                log = attach(page)
                page.goto(server.url, wait_until="commit", timeout=OPEN_S * 1000)
                for title, css in GAMES.items():
                    page.locator(".explorer-app .lm-TabBar-tab", has_text=title).first.click(timeout=OPEN_S * 1000)
                    _wait(page, READY_JS, css, f"{title} at {width} px: its charts drawn", server)
                    where = f"{title} at {width}x{height}"
                    _scan(page, axe_script, where, found)
                    if width == SIZES[0][0]:
                        _tools(page, css, title, axe_script, where, found)
                errors += [f"{width} px: {e}" for e in log.page_errors]
                context.close()
        finally:
            browser.close()
    BUILD.mkdir(exist_ok=True)
    (BUILD / "access.json").write_text(json.dumps(found, indent=1), encoding="utf-8")
    failing = [v for v in found if v["impact"] in FAILING]
    assert not errors, "errors in the page:\n" + "\n".join(errors)
    assert not failing, "axe-core finds serious or critical violations:\n" + "\n".join(
        f"- {v['where']}: {v['id']} ({v['impact']}, {v['count']} elements): {v['help']}\n    "
        + "\n    ".join(f"{n['target']}: {n['summary']}" for n in v["nodes"]) for v in failing)
