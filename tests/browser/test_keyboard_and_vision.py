"""Keyboard alone, and colour-blind readers, in a real browser: the app as ``make run`` serves it.

Issue 22's access part, checked where the user is, in Debian's Chromium at 1400 x 900:

* **keyboard alone**: from the top of the page, Tab reaches the tool tabs in a few presses;
  every stop on the way, and on to the inputs, shows where the focus is (an outline of at least
  1 px, or the browser's own ring); the arrow keys and Enter open a tool (What if?), whose
  button works from the keyboard (Pin as A draws the pinned bars); Home and Enter go back to the
  results, where "Numbers of this chart" opens its table by key; Tab goes on to the attacker's
  basic dice box, and ArrowUp there redraws the charts; Shift+Tab goes back up to the game tabs,
  which switch to Arcadia Quest by the arrow keys and Enter. No mouse event is sent. In the other
  games and the dice lab, every focus stop Tab reaches shows where it is too.
* **colour blindness**: with Chrome's own vision-deficiency emulation (the DevTools protocol's
  ``Emulation.setEmulatedVisionDeficiency``), the colours Chrome draws for the casualty chart's
  healthy, wounded and defeated bars are read from screenshots. Without emulation they must be
  the palette's; under deuteranopia and protanopia they must have changed (the emulation took
  effect), match the Machado 2009 simulation of `tests/charts/test_colours.py`, and stay at least
  `MIN_DELTA` apart (CIE76) from each other.

Run alone::

    .venv/bin/python -m pytest tests/browser/test_keyboard_and_vision.py -q -s -p no:cacheprovider
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.charts.assault_of_the_giants import STATUS_COLORS
from tests.browser.pixels import commonest
from tests.browser.support import Server, app_server, opened_app, until
from tests.charts.colours import SIMULATIONS, delta, lab, rgb

pytestmark = pytest.mark.browser

OPEN_S = 120.0
STEP_S = 30.0
MIN_DELTA = 40.0
"""Smallest CIE76 difference two casualty outcomes may keep as Chrome draws them under its emulation."""
PREDICTED_WITHIN = 3.0
"""Largest CIE76 difference between a colour Chrome drew under emulation and the simulation's."""
TO_TOOLS = 10
"""Most Tab presses from the top of the page to the tool tabs."""
TO_INPUT = 120
"""Most Tab presses from the results to the attacker's basic dice box."""

FOCUS_JS = r"""
() => {
  // The focused element: what it is, where it is, and whether the focus shows.
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const width = parseFloat(s.outlineWidth) || 0;
  const ring = s.outlineStyle === 'auto' || (s.outlineStyle !== 'none' && width >= 1);
  const bar = e.closest('.lm-TabBar');
  return {
    tag: e.tagName, text: (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 50),
    shows: ring, outline: `${s.outlineStyle} ${s.outlineWidth}`,
    tab: e.classList.contains('lm-TabBar-tab'),
    bar: bar ? (bar.closest('.aotg-panel') ? 'tools' : 'games') : null,
    basic: Boolean(e.closest('.aotg-pool-basic-attacker')),
  };
}
"""

CURRENT_TOOL_JS = """
() => { const t = document.querySelector('.aotg-panel .lm-TabBar-tab.lm-mod-current'); return t ? t.innerText.trim() : null; }
"""

REVISIONS_JS = """
() => [...document.querySelectorAll('.aotg-panel .explorer-charts .explorer-chart')].map((c) => Number(c.dataset.revision))
"""

WHATIF_TRACES_JS = """
() => {
  const plot = [...document.querySelectorAll('.aotg-panel .explorer-chart-plot')]
    .find((p) => p.offsetWidth > 0 && p.closest('.explorer-chart') && !p.closest('.explorer-charts') && p.data);
  return plot ? plot.data.map((t) => t.name) : null;
}
"""

CASUALTY_BARS_JS = """
() => {
  // Each casualty trace's largest bar on screen, as a box in the page's pixels.
  const plot = [...document.querySelectorAll('.aotg-panel .explorer-chart-plot')]
    .find((p) => p.layout && p.offsetWidth > 0 && (p.layout.title.text || p.layout.title) === 'Casualties');
  if (!plot) return null;
  return [...plot.querySelectorAll('g.trace.bars')].map((g, i) => {
    const boxes = [...g.querySelectorAll('g.point path')].map((p) => p.getBoundingClientRect())
      .map((r) => [r.x, r.y, r.width, r.height]).sort((a, b) => b[2] * b[3] - a[2] * a[3]);
    return {name: plot.data[i].name, box: boxes[0] || null};
  });
}
"""


@pytest.fixture(scope="module")
def server(app_notebook: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with app_server(app_notebook, tmp_path_factory.mktemp("ipython"), "voila-keyboard.log") as running:
        yield running


@pytest.fixture()
def page(server: Server, chromium_path: Path) -> Iterator[Any]:
    with opened_app(server.url, chromium_path, OPEN_S) as (opened, log):
        until("the casualty chart drawn", lambda: opened.evaluate(CASUALTY_BARS_JS), OPEN_S)
        yield opened
        assert log.errors() == [], log.errors()


def _tab_until(page: Any, wanted: Any, most: int, stops: list[dict[str, Any]], key: str = "Tab") -> dict[str, Any]:
    """Press `key` until the focused element satisfies `wanted`, at most `most` times; every stop is kept."""
    for _ in range(most):
        page.keyboard.press(key)
        focus = page.evaluate(FOCUS_JS)
        if focus is not None:
            stops.append(focus)
            if wanted(focus):
                return dict(focus)
    raise AssertionError(f"not reached in {most} presses of {key}; the stops: {[s['text'] for s in stops[-15:]]}")


def _arrow_to(page: Any, label: str, most: int = 15) -> None:
    for _ in range(most):
        focus = page.evaluate(FOCUS_JS)
        if focus and focus["tab"] and focus["text"].startswith(label):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no tab '{label}' reached by ArrowRight")


def test_keyboard_alone_reaches_and_works_the_tools_and_the_inputs(page: Any) -> None:
    stops: list[dict[str, Any]] = []
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    _tab_until(page, lambda f: f["bar"] == "tools", TO_TOOLS, stops)

    _arrow_to(page, "What if?")
    page.keyboard.press("Enter")
    until("What if? open", lambda: (page.evaluate(CURRENT_TOOL_JS) or "").startswith("What if?"), STEP_S)
    until("the What if? chart", lambda: page.evaluate(WHATIF_TRACES_JS), STEP_S)
    _tab_until(page, lambda f: f["tag"] == "BUTTON" and f["text"].startswith("Pin as A"), 20, stops)
    page.keyboard.press("Enter")
    until("the pinned bars drawn", lambda: "A (pinned)" in (page.evaluate(WHATIF_TRACES_JS) or ()), STEP_S)

    _tab_until(page, lambda f: f["bar"] == "tools", 30, stops, key="Shift+Tab")
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    until("Results open again", lambda: page.evaluate(CURRENT_TOOL_JS) == "Results", STEP_S)
    _tab_until(page, lambda f: f["tag"] == "SUMMARY" and f["text"] == "Numbers of this chart", 20, stops)
    page.keyboard.press("Enter")
    rows = until("the chart's numbers shown", lambda: page.evaluate(
        "() => { const d = document.activeElement.closest('details');"
        " return d && d.open ? d.querySelectorAll('td').length : 0; }"), STEP_S)
    assert rows > 0

    focus = _tab_until(page, lambda f: f["basic"] and f["tag"] == "INPUT", TO_INPUT, stops)
    before = page.evaluate(REVISIONS_JS)
    value = int(page.evaluate("() => document.activeElement.value"))
    page.keyboard.press("ArrowUp")
    until("the charts redrawn after ArrowUp", lambda: all(a > b for a, b in zip(page.evaluate(REVISIONS_JS), before)),
          STEP_S)
    assert int(page.evaluate("() => document.activeElement.value")) == value + 1, focus

    hidden = [f for f in stops if not f["shows"]]
    assert hidden == [], f"{len(hidden)} of {len(stops)} focus stops show no focus: {hidden[:5]}"
    print(f"\nkeyboard: {len(stops)} focus stops, every one visible")

    _tab_until(page, lambda f: f["bar"] == "games", TO_INPUT + TO_TOOLS, stops, key="Shift+Tab")
    _arrow_to(page, "Arcadia Quest")
    page.keyboard.press("Enter")
    until("Arcadia Quest's charts drawn by keyboard alone", lambda: page.evaluate(
        "() => document.querySelector('.aq-panel .explorer-chart[data-state=drawn]') !== null"), OPEN_S)


def _bar_colours(page: Any, bars: list[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    colours = {}
    for bar in bars:
        x, y, width, height = bar["box"]
        assert width > 8 and height > 8, f"the {bar['name']} bar is too small to read: {bar}"
        png = page.screenshot(clip={"x": x + 2, "y": y + 2, "width": width - 4, "height": height - 4})
        colours[bar["name"]] = commonest(png)
    return colours


def test_chromes_colour_blindness_emulation_keeps_the_casualty_outcomes_apart(page: Any) -> None:
    palette = {status.value: rgb(colour) for status, colour in STATUS_COLORS.items()}
    bars = page.evaluate(CASUALTY_BARS_JS)
    assert sorted(bar["name"] for bar in bars) == sorted(palette) and all(bar["box"] for bar in bars), bars
    cdp = page.context.new_cdp_session(page)
    drawn = _bar_colours(page, bars)
    assert all(delta(lab(drawn[name]), lab(palette[name])) < PREDICTED_WITHIN for name in palette), drawn
    figures = []
    for simulation in sorted(SIMULATIONS):
        cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": simulation})
        seen = _bar_colours(page, bars)
        assert any(delta(lab(seen[n]), lab(drawn[n])) > 10 for n in palette), f"{simulation}: no colour changed"
        for name in palette:
            off = delta(lab(seen[name]), lab(palette[name], simulation))
            assert off < PREDICTED_WITHIN, f"{simulation}: {name} drawn {seen[name]}, {off:.1f} from the simulation"
        for a, b in itertools.combinations(sorted(palette), 2):
            apart = delta(lab(seen[a]), lab(seen[b]))
            figures.append(f"{simulation} {a}/{b} {apart:.0f}")
            assert apart >= MIN_DELTA, f"under {simulation}, {a} and {b} are {apart:.0f} apart as Chrome draws them"
    cdp.send("Emulation.setEmulatedVisionDeficiency", {"type": "none"})
    print("\ncasualty colours under Chrome's emulation, CIE76 apart: " + ", ".join(figures))


@pytest.mark.parametrize(("game", "panel"), [("Arcadia Quest", ".aq-panel"), ("A Game of Thrones", ".agot-panel"),
                                             ("Dice lab", ".lab-root")])
def test_every_focus_stop_of_the_other_games_shows_where_it_is(page: Any, game: str, panel: str) -> None:
    tab = page.locator(".explorer-app > .lm-TabBar .lm-TabBar-tab", has_text=game)
    tab.click()
    until(f"{game} drawn", lambda: page.evaluate(
        f"() => document.querySelector('{panel} .explorer-chart[data-state=drawn]') !== null"), OPEN_S)
    tab.focus()
    stops: list[dict[str, Any]] = []
    for _ in range(150):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_JS)
        if focus is None:  # past the last control of the page
            break
        stops.append(focus)
    hidden = [f for f in stops if not f["shows"]]
    assert len(stops) >= 20, f"{game}: only {len(stops)} focus stops"
    assert hidden == [], f"{game}: {len(hidden)} of {len(stops)} focus stops show no focus: {hidden[:5]}"
