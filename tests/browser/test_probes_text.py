"""Hostile text and an oversize file in a real browser: a message, nothing changed, Copy link shares what is shown.

The app served as ``make run`` serves it (``scripts/serve.py``), in headless Chromium:

1. a share link whose battle names a unit with a lone surrogate (``"\\ud800"``, made without
   `explorer.share.encode`'s checks, as a hostile sender would) opens on the default battle, the
   notice above the tabs names the field; the scenario box holds the default battle, and Copy
   link then gives a link to exactly the battle the page shows (not the linked one);
2. Open file with a 12 MB file: the page refuses it before reading it (the explorer's view of
   the upload button), the message appears beside the button, and the kernel still answers (a
   scenario pasted in the box loads), where ipywidgets' own button sent it whole and the server
   dropped the page's websocket.

No console error, uncaught page error or kernel traceback is allowed. Run alone::

    .venv/bin/python -m pytest tests/browser/test_probes_text.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.share import parse_query
from tests.browser.support import (
    CHROMIUM_ARGS,
    INIT_SCRIPT,
    PageLog,
    Server,
    app_server,
    attach,
    build_side_tab,
    until,
)
from tests.scenario.probes_support import json_bytes, raw_link
from tests.scenario.scenario_support import EXAMPLES

pytestmark = pytest.mark.browser

RENDER_S = 150.0
BOX = ".aotg-panel .aotg-scenario-text textarea"


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-probes-text.log") as running:
        yield running


def box_text(page: Any) -> str | None:
    return page.evaluate("(s) => { const b = document.querySelector(s); return b ? b.value : null; }", BOX)


def scenario_error(page: Any) -> str:
    box = page.locator(".aotg-panel .aotg-error-scenario")
    return box.first.inner_text() if box.count() and box.first.is_visible() else ""


def test_a_bad_name_in_a_link_and_an_oversize_file_change_nothing(server: Server, chromium_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    example = EXAMPLES["fire-vs-hill.json"]
    named = json.loads(json.dumps(example))
    named["attacker"]["units"][0]["name"] = "Fire giant\ud800"
    default = AssaultPanel().scenario()
    logs: list[PageLog] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            page.set_default_navigation_timeout(RENDER_S * 1000)  # a kernel may be started for the page
            page.add_init_script(INIT_SCRIPT)
            logs.append(attach(page))
            # 1. the link: a message naming the field, the default battle, Copy link on what is shown
            page.goto(server.url + "&game=assault-of-the-giants&scenario=" + raw_link(json_bytes(named)))
            build_side_tab(page, ".aotg-panel", "Scenario, share", "Results", RENDER_S)
            notice = until("the message about the link", lambda: page.locator(".explorer-link-notice").is_visible()
                           and page.locator(".explorer-link-notice").inner_text(), RENDER_S, server)
            assert "could not be opened" in notice and "attacker.units[0].name: cannot be written as UTF-8" in notice
            shown = json.loads(until("the scenario box", lambda: box_text(page), RENDER_S, server))
            assert shown == default and shown != example
            page.get_by_role("tab", name=re.compile(r"^Scenario")).first.click()
            page.locator(".aotg-panel .explorer-share-copy").click()
            link = until("a link in the Copy link field",
                         lambda: page.locator(".aotg-panel .explorer-share-link").input_value(), 30, server)
            assert parse_query(urlsplit(link).query).scenario == shown

            # 2. a 12 MB file: refused in the page, the message beside the button, the kernel still there
            with page.expect_file_chooser() as chooser:
                page.locator(".aotg-panel .widget-upload").click()
            chooser.value.set_files({"name": "huge.json", "mimeType": "application/json", "buffer": b" " * 12_000_000})
            message = until("the message beside Open file", lambda: scenario_error(page), 60, server)
            assert message.endswith("scenario: huge.json is too big: at most 1000000 bytes, got 12000000 (nothing was sent)")
            page.locator(BOX).fill(json.dumps({**example, "title": "loaded after the big file"}))
            page.locator(".aotg-panel .aotg-scenario-load").click()
            until("the kernel loads a pasted scenario after the big file",
                  lambda: json.loads(box_text(page) or "{}").get("title") == "loaded after the big file", 60, server)
            until("the message beside Open file cleared by the good load",  # box and message are two updates
                  lambda: scenario_error(page) == "", 30, server)
        finally:
            browser.close()
    errors = [error for log in logs for error in log.errors()]
    assert errors == [], "\n".join(errors)
    assert server.kernel_tracebacks() == []
