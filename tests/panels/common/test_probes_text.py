"""The panels' ways in, probed headless: no error of the Load box, Open file or a link changes an input.

For each game's real panel (Assault of the Giants, Arcadia Quest, A Game of Thrones):

* the Load box, for every kind of bad text (empty, not JSON or TOML, too deep, a key twice,
  another game, an unknown key, a bad number, a lone surrogate or overlong text in every text of
  the example, another type for a name): one error line beside the box, every input as it was,
  the box's text kept, and Copy link's query still the current scenario's;
* a failure while the inputs are being set (a part of the panel raising midway, a view failing
  after the resolve): the inputs the user had are put back, and the box says so;
* Open file: a file refused in the page (too big, unreadable), one too big that came anyway, one
  not UTF-8 or holding a lone surrogate: a message beside the button, every input as it was;
* links opened by the app (`Explorer.open_link`): cut, trailing data, a second stream, a bomb,
  the wrong game, bad base64, a lone surrogate in a name: the notice says why, every input is as
  it was, and Copy link shares what the panel shows.
"""

from __future__ import annotations

import html
import json
import zlib
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import pytest

from explorer import ScenarioError, resolve
from explorer.app import Explorer
from explorer.panels.agot_lcg.panel import AgotPanel
from explorer.panels.arcadia_quest.panel import ArcadiaPanel
from explorer.panels.assault_of_the_giants.panel import AssaultPanel
from explorer.scenario.fields import MAX_TEXT
from explorer.scenario.loader import MAX_FILE_BYTES
from explorer.share import encode, share_query
from tests.scenario.probes_support import SURROGATES, json_bytes, raw_link, replaced, texts
from tests.scenario.scenario_support import EXAMPLES, check_line

PANELS: dict[str, tuple[Callable[[], Any], str, Callable[[Any], tuple[Any, str]]]] = {
    "assault-of-the-giants": (AssaultPanel, "fire-vs-hill.json", lambda p: (p.commands["defender"], "set_commands")),
    "arcadia-quest": (ArcadiaPanel, "arcadia-encounter-guard.json", lambda p: (p.target, "load")),
    "agot-lcg": (AgotPanel, "agot-round.json", lambda p: (p.challenges, "load")),
}
"""Each game: its panel, an example it loads, and a part of it that `apply` sets late (to break midway)."""
OTHER = {"assault-of-the-giants": "arcadia-troll.json", "arcadia-quest": "agot-round.json", "agot-lcg": "fire-vs-hill.json"}


class Unchanged:
    """What a panel showed before an error: its scenario, its box's text and its Copy link."""

    def __init__(self, panel: Any) -> None:
        self.panel = panel
        self.scenario = panel.scenario()

    def check(self, message: str, text: str | None = None) -> None:
        """An error line shown, and nothing the user built lost; Copy link still shares what is shown."""
        box = self.panel.scenario_box
        check_line(message)
        assert self.panel.scenario() == self.scenario, message
        if text is not None:
            assert box.text.value == text
        assert box.share.share.link.query == share_query(self.scenario)


def loaded(game: str) -> Any:
    """A new panel of `game` holding its example, with a title the default has not (so a load shows)."""
    make, example, _part = PANELS[game]
    panel = make()
    panel.scenario_box.text.value = json.dumps({**EXAMPLES[example], "title": "what the user built"})
    panel.scenario_box.load.click()
    assert panel.scenario_box.error.text == "" and panel.scenario()["title"] == "what the user built"
    return panel


def bad_texts(game: str) -> list[str]:
    """Every kind of text the Load box must refuse for `game` (each one refused by the resolver too)."""
    example = EXAMPLES[PANELS[game][1]]
    out = ["", "   ", "{", "game = ", "[" * 100_000, '{"game": "aotg", "game": "aq"}', json.dumps(EXAMPLES[OTHER[game]]),
           json.dumps({**example, "atacker": 1}), json.dumps({**example, "format": 2}), "x = " + "1" * 5000]
    for i, text in enumerate(texts(example)):
        bad = SURROGATES[i % len(SURROGATES)]
        out.append(json.dumps(replaced(example, text, text.value + bad)))
        if not text.key:
            out.append(json.dumps(replaced(example, text, "x" * (MAX_TEXT + 1))))
            out.append(json.dumps(replaced(example, text, 7)))
    return out


@pytest.mark.parametrize("game", PANELS)
def test_the_load_box_keeps_every_input_on_every_kind_of_error(game: str) -> None:
    panel = loaded(game)
    box = panel.scenario_box
    kept = Unchanged(panel)
    tried = 0
    for text in bad_texts(game):
        try:
            resolve(json.loads(text))
        except (ValueError, RecursionError):
            pass  # ScenarioError, or not JSON at all
        else:
            if json.loads(text).get("game") in (game, None):
                continue  # another type for this text is fine in this game: not an error to probe
        box.text.value = text
        box.load.click()
        assert box.error.text, text[:200]
        assert not box.error.text.startswith("scenario: could not load it"), box.error.text
        kept.check(box.error.text, text)
        tried += 1
    assert tried > 30


@pytest.mark.parametrize("game", PANELS)
def test_a_failure_while_the_inputs_are_set_puts_them_back(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = loaded(game)
    box = panel.scenario_box
    kept = Unchanged(panel)
    other = json.dumps({**EXAMPLES[PANELS[game][1]], "title": "a file that breaks a widget"})
    part, method = PANELS[game][2](panel)
    real = getattr(part, method)
    calls: list[int] = []

    def breaks_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("a widget refused the value")
        return real(*args, **kwargs)

    monkeypatch.setattr(part, method, breaks_once)
    box.text.value = other
    box.load.click()
    assert len(calls) == 2  # broken once, then called again to put the user's inputs back
    assert "could not load it (RuntimeError: a widget refused the value); every input is as it was" in box.error.text
    kept.check(box.error.text, other)

    failures: list[int] = []

    def view_fails_once(_update: Any) -> None:
        failures.append(1)
        if len(failures) == 2:  # 1: told at once when added; 2: the load's resolve
            raise RuntimeError("a view failed")

    panel.on_update(view_fails_once)
    box.load.click()
    assert "(RuntimeError: a view failed); every input is as it was" in box.error.text
    kept.check(box.error.text, other)
    box.load.click()  # nothing breaks now: the file loads
    assert box.error.text == "" and panel.scenario()["title"] == "a file that breaks a widget"


def _file(content: bytes, name: str = "s.json") -> dict[str, Any]:
    """What the page sends for an opened file (ipywidgets' FileUpload value)."""
    return {"name": name, "type": "application/json", "size": len(content), "content": memoryview(content),
            "last_modified": datetime.now(timezone.utc)}


@pytest.mark.parametrize("game", PANELS)
def test_open_file_refusals_keep_every_input(game: str) -> None:
    panel = loaded(game)
    box = panel.scenario_box
    kept = Unchanged(panel)
    assert box.upload.max_bytes == MAX_FILE_BYTES and box.upload._view_name == "FileOpenerView"
    notes = [({"refused": "too big", "name": "big.json", "size": 12_000_000, "limit": MAX_FILE_BYTES},
              "scenario: big.json is too big: at most 1000000 bytes, got 12000000 (nothing was sent)"),
             ({"refused": "unreadable", "name": "gone.json", "size": 10, "limit": MAX_FILE_BYTES},
              "scenario: the browser could not read gone.json")]
    for note, message in notes:
        box.upload.set_state({"error": json.dumps(note)})  # as the page writes it
        assert box.error.text == message and box.upload.error == ""
        kept.check(box.error.text)
    example = EXAMPLES[PANELS[game][1]]
    name = next(t for t in texts(example) if not t.key and t.field != "game")
    for content, words in [(b" " * (MAX_FILE_BYTES + 1), "too big"), (b"\xff\xfe{\x00}\x00", "UTF-16"),
                           (b"\x89PNG\r\n\x1a\n\x00", "NUL bytes"), (b"\xc3(", "not UTF-8"), (b"", "empty"),
                           (json_bytes(replaced(example, name, "\udc80")), "lone surrogate")]:
        box.upload.value = (_file(content),)
        assert words in box.error.text, box.error.text
        kept.check(box.error.text)
    box.upload.value = (_file(json.dumps({**example, "title": "opened"}).encode()),)
    assert box.error.text == "" and panel.scenario()["title"] == "opened"


def _bad_links() -> list[tuple[str, str]]:
    """(query, words of the notice) for every kind of broken link."""
    example = EXAMPLES["fire-vs-hill.json"]
    good = encode(example)
    stream = zlib.compress(json_bytes(example), 9)
    named = {**example, "attacker": {**example["attacker"], "units": [{**example["attacker"]["units"][0],
                                                                        "name": "Fire giant\ud800"}]}}
    titled = {**EXAMPLES["arcadia-encounter-guard.json"], "title": "\udc80"}
    return [(f"game=aotg&scenario={good[:-30]}", "cut short"),
            (f"scenario={raw_link(stream + b'x', compress=False)}", "after the end"),
            (f"scenario={raw_link(stream + stream, compress=False)}", "after the end"),
            (f"scenario={raw_link(b' ' * 5_000_000)}", "larger than"),
            (f"game=agot&scenario={good}", 'names "agot-lcg"'),
            ("game=chess", "chess"),
            ("scenario=v1.abc$", "characters a scenario link never has"),
            ("scenario=v1.AAAAA", "bad base64"),
            (f"game=aotg&scenario={raw_link(json_bytes(named))}", "attacker.units[0].name: cannot be written as UTF-8"),
            (f"game=aq&scenario={raw_link(json_bytes(titled))}", "title: cannot be written as UTF-8")]


def test_a_broken_link_changes_no_input_and_copy_link_shares_what_is_shown() -> None:
    app = Explorer()
    panels = {game: app.panel(game) for game in PANELS}
    kept = {game: Unchanged(panel) for game, panel in panels.items()}
    for query, words in _bad_links():
        assert app.open_link("token=abc&" + query) is False
        notice = html.unescape(app.notice.value)
        assert app.notice.layout.display == "" and words in notice, (query[:80], notice)
        assert "could not be opened" in notice and "default scenario" in notice
        for game, panel in panels.items():
            kept[game].check(f"link: {words}")
    with pytest.raises(ScenarioError):
        share_query(panels["assault-of-the-giants"].scenario() | {"title": "\udfff"})
