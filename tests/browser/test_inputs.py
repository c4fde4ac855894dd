"""Inputs behave as people expect, in a real browser: number boxes, toggles and icon buttons.

The app is served as ``make run`` serves it and opened in Debian's Chromium. In the Assault of the
Giants panel:

* typing a whole number into the attacker's basic dice box, with no Enter and no Tab, applies it
  (the scenario box shows it, the charts redraw) within a few seconds;
* the arrow keys step the box (Up +1, Shift+Up +5, Down -1) and each step is applied;
* text that is not a whole number ("2.5") is not applied while typed; on Enter the message beside
  the box names the box as the page labels it, and the charts say they are not current;
* the view toggle's buttons say which one is pressed (``aria-pressed``), and it follows a click;
* every icon-only button is named (``aria-label``), and no Font Awesome glyph is read aloud.

Run alone::

    .venv/bin/python -m pytest tests/browser/test_inputs.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import Server, app_server, build_side_tab, opened_app, scenario_text, until

pytestmark = pytest.mark.browser

OPEN_S = 120.0
APPLY_S = 20.0
BASIC = ".aotg-pool-basic-attacker input"
MESSAGE = ".aotg-panel .aotg-error-pool-attacker"


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-inputs.log") as running:
        yield running


def basic_dice(page: Any) -> Any:
    text = scenario_text(page)
    return json.loads(text)["attacker"]["pool"]["basic"] if text else None


@pytest.fixture(scope="module")
def page(server: Server, chromium_path: Path) -> Iterator[Any]:
    with opened_app(server.url, chromium_path, OPEN_S) as (opened, _log):
        build_side_tab(opened, ".aotg-panel", "Scenario, share", "Results", OPEN_S)
        until("the scenario box filled", lambda: basic_dice(opened) is not None, OPEN_S)
        yield opened


def test_a_typed_whole_number_applies_without_enter(page: Any) -> None:
    box = page.locator(BASIC)
    box.click()
    box.press("Control+a")
    box.type("6")  # no Enter, no Tab: the box keeps the focus
    until("6 basic dice applied while the box has the focus", lambda: basic_dice(page) == 6, APPLY_S)
    assert page.evaluate("document.activeElement && document.activeElement.matches(arguments[0])".replace(
        "arguments[0]", json.dumps(BASIC)))


def test_arrow_keys_step_the_box(page: Any) -> None:
    box = page.locator(BASIC)
    start = until("a number in the box", lambda: basic_dice(page), APPLY_S)
    box.press("ArrowUp")
    until(f"ArrowUp: {start + 1}", lambda: basic_dice(page) == start + 1, APPLY_S)
    box.press("Shift+ArrowUp")
    until(f"Shift+ArrowUp: {start + 6}", lambda: basic_dice(page) == start + 6, APPLY_S)
    box.press("ArrowDown")
    until(f"ArrowDown: {start + 5}", lambda: basic_dice(page) == start + 5, APPLY_S)
    assert box.input_value() == str(start + 5)


def test_text_that_is_no_whole_number_waits_for_enter_and_is_named_by_its_label(page: Any) -> None:
    box = page.locator(BASIC)
    before = basic_dice(page)
    box.click()
    box.press("Control+a")
    box.type("2.5")
    time.sleep(2.0)
    assert basic_dice(page) == before, "a box's text that is no whole number was applied while typed"
    box.press("Enter")
    text = until("the message beside the box", lambda: page.locator(MESSAGE).first.inner_text().strip(), APPLY_S)
    assert "basic dice" in text and "attacker.pool" not in text, text
    box.press("Control+a")
    box.type("5")
    until("5 applied, the message gone", lambda: basic_dice(page) == 5
          and not page.locator(MESSAGE).first.inner_text().strip(), APPLY_S)


def test_toggles_say_which_is_pressed(page: Any) -> None:
    buttons = page.locator(".aotg-panel .explorer-results .widget-toggle-buttons button")
    states = buttons.evaluate_all("(bs) => bs.map((b) => [b.innerText.trim(), b.getAttribute('aria-pressed')])")
    assert [s for _, s in states].count("true") == 1 and all(s in ("true", "false") for _, s in states), states
    buttons.filter(has_text="at least").first.click()
    until("at least pressed", lambda: buttons.filter(has_text="at least").first.get_attribute("aria-pressed") == "true",
          APPLY_S)
    assert buttons.filter(has_text="exactly").first.get_attribute("aria-pressed") == "false"


def test_icon_buttons_are_named_and_glyphs_are_hidden(page: Any) -> None:
    found = page.evaluate("""() => {
        const buttons = [...document.querySelectorAll('.aotg-panel button.jupyter-button')].filter((b) => b.offsetWidth > 0);
        const iconOnly = buttons.filter((b) => !b.textContent.trim());
        return {iconOnly: iconOnly.length, unnamed: iconOnly.filter((b) => !b.getAttribute('aria-label')).map((b) => b.outerHTML.slice(0, 120)),
                glyphs: [...document.querySelectorAll('.aotg-panel button i.fa')].filter((i) => i.getAttribute('aria-hidden') !== 'true').length};
    }""")
    assert found["iconOnly"] > 0, "no icon-only button found (the unit rows' arrows and bins)"
    assert found["unnamed"] == [] and found["glyphs"] == 0, found
