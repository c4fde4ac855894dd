"""Every page opens: 20 pages, opened two at a time, each draws its first chart within 60 s.

The app is served as ``make run`` serves it (``scripts/serve.py``: one preheated kernel, at most
8 sessions). Pages are opened in pairs, each in a fresh browser context, as two people of a room
open it together; the second of each pair finds no warm kernel and gets one started for it while
the first page's browser and kernel are busy. Half the pages are then left as a tab is closed (the
leaving beacon frees the kernel), the other half are dropped with no word (a crashed browser):
their places must come back when the server is full (`SessionCap.reclaim`), so page 9 and later
still open. The test fails on any page without a chart within 60 s, any error in a page, any
kernel traceback, and any "Timeout waiting for IOPub output" in the server's log (a page kept
waiting for output that `explorer.serving.iopub` and `explorer.serving.execute` must make come
or find lost). Writes ``build/pages-open.json`` (each page's first chart).

Run alone::

    .venv/bin/python -m pytest tests/browser/test_pages_open.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import (
    BUILD,
    CHROMIUM_ARGS,
    INIT_SCRIPT,
    Server,
    app_server,
    attach,
    page_kernel_id,
)

pytestmark = pytest.mark.browser

PAGES = 20
AT_ONCE = 2
CHART_S = 60.0


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-pages-open.log") as running:
        yield running


def open_one(chromium: str, url: str, index: int, results: dict[int, dict[str, Any]]) -> None:
    """Open the app in a fresh context; record when its first chart was drawn (page clock, s)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            page = context.new_page()
            page.add_init_script(INIT_SCRIPT)
            log = attach(page)
            started = time.monotonic()
            drawn: float | None = None
            problem = ""
            try:
                page.goto(url, wait_until="commit", timeout=CHART_S * 1000)
                left = max(1.0, CHART_S - (time.monotonic() - started))
                page.wait_for_function("window.__explorerTest && window.__explorerTest.firstDrawn !== null",
                                       timeout=left * 1000)
                drawn = page.evaluate("window.__explorerTest.firstDrawn") / 1000
            except Exception as error:  # a page with no chart in time: recorded, and fails below
                problem = f"{type(error).__name__}: {str(error).splitlines()[0]}"
                page.screenshot(path=str(BUILD / f"pages-open-{index}.png"))
                problem += " | " + describe(page)
            results[index] = {"drawn_s": drawn, "problem": problem, "errors": log.errors(),
                              "kernel": kernel_of(page)}
            if index % 2 == 0:
                page.close(run_before_unload=True)  # a tab closed: the beacon frees its kernel
            context.close()
        finally:
            browser.close()  # the odd pages: gone with no word, as a crashed browser


def kernel_of(page: Any) -> str:
    """The id of the page's kernel (`page_kernel_id`), "" when the page is gone or never loaded."""
    try:
        return page_kernel_id(page)
    except Exception:  # a page gone or never loaded: no kernel to name
        return ""


def describe(page: Any) -> str:
    """What a page without a chart shows: whether the app and its widgets came, and its first words."""
    try:
        seen = page.evaluate("""() => ({
            app: !!document.querySelector('.explorer-app'),
            widgets: document.querySelectorAll('.jupyter-widgets').length,
            charts: document.querySelectorAll('.js-plotly-plot').length,
            stuck: !!document.getElementById('explorer-stuck'),
            text: (document.body ? document.body.innerText : '').replace(/\\s+/g, ' ').slice(0, 300)})""")
    except Exception as error:  # the page itself is gone
        return f"page unreadable: {type(error).__name__}"
    return (f"app {seen['app']}, widgets {seen['widgets']}, charts {seen['charts']}, "
            f"stuck note {seen['stuck']}; text: {seen['text']!r}")


def kernel_lines(log: str, kernel: str) -> str:
    """The server log's lines that name `kernel` (its start, hand-over, connections, shutdown)."""
    return "\n".join(line for line in log.splitlines() if kernel and kernel in line)


def test_twenty_pages_opened_two_at_a_time_all_draw_their_chart(server: Server, chromium_path: Path) -> None:
    results: dict[int, dict[str, Any]] = {}
    for start in range(0, PAGES, AT_ONCE):
        threads = [threading.Thread(target=open_one, args=(str(chromium_path), server.url, i, results))
                   for i in range(start, min(PAGES, start + AT_ONCE))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=CHART_S + 60)
    (BUILD / "pages-open.json").write_text(json.dumps(results, indent=1, sort_keys=True), encoding="utf-8")
    log = server.log()
    failures = [f"page {i}: {r['problem'] or 'no chart'}; kernel {r['kernel'] or '(none)'}:\n"
                + kernel_lines(log, r["kernel"])
                for i, r in sorted(results.items()) if r["drawn_s"] is None]
    missing = [i for i in range(PAGES) if i not in results]
    errors = [f"page {i}: {e}" for i, r in sorted(results.items()) for e in r["errors"]]
    assert not missing, f"pages that never finished: {missing}"
    assert not failures, "\n".join(failures) + "\n" + server.log_tail(60)
    assert not errors, "\n".join(errors)
    assert not server.kernel_tracebacks(), server.kernel_tracebacks()
    assert "Timeout waiting for IOPub output" not in log, server.log_tail(60)
    drawn = sorted(r["drawn_s"] for r in results.values())
    print(f"\n{PAGES} pages, {AT_ONCE} at a time: first chart median {drawn[len(drawn) // 2]:.1f} s, "
          f"slowest {drawn[-1]:.1f} s; places reclaimed: {log.count('Full: shutting down kernel')}; "
          f"displays run again: {log.count('running it again')}")
