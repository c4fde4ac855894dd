"""Share links and exports in the panels, headless: the app opens links, panels follow, files are sent.

What the browser does with these (copy to the clipboard, save files, open a link in a new page)
is checked in `tests/browser/test_share.py`; here the kernel's side: the query each panel
keeps, the app opening a link through the game's own checks, what a bad link shows, and the
files the export buttons send.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from explorer import lessons
from explorer.app import Explorer
from explorer.panels.common.exports import FileSaver
from explorer.panels.common.share_view import binder_href, hub_href, link_query
from explorer.resolver import resolve
from explorer.share import encode, parse_query, share_query

GAMES = {
    "assault-of-the-giants": "fire-vs-hill.json",
    "arcadia-quest": "arcadia-encounter-guard.json",
    "agot-lcg": "agot-round.json",
}


@pytest.fixture(scope="module")
def app() -> Explorer:
    return Explorer()


def _sent(widget: Any, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Collect what `widget.send` sends (no front end here)."""
    sent: list[dict[str, Any]] = []
    monkeypatch.setattr(widget, "send", lambda content, buffers=None: sent.append(content))
    return sent


@pytest.mark.parametrize("game, example", GAMES.items())
def test_a_link_opens_its_game_tab_with_its_scenario(app: Explorer, game: str, example: str) -> None:
    """The round trip a teacher relies on: the panel's scenario -> a link -> a new app shows it."""
    scenario = lessons.example(example)
    assert app.open_link("token=abc&" + share_query(scenario)) is True
    assert app.tabs.selected_index == app.names.index(game)
    panel = app.panel(game)
    shown = panel.scenario()
    assert resolve(shown).to_dict() == resolve(scenario).to_dict()
    assert panel.valid and app.notice.layout.display == "none"
    # and the panel's own Copy link now carries that scenario, ready to be sent on
    again = parse_query(panel.scenario_box.share.share.link.query)
    assert again.game == game and again.scenario == shown


def test_a_bad_link_shows_a_message_and_the_default_scenario() -> None:
    app = Explorer()
    before = app.panel("assault-of-the-giants").scenario()
    assert app.open_link("scenario=v1.AAAAAAAA") is False
    assert app.notice.layout.display == "" and "could not be opened" in app.notice.value
    assert app.panel("assault-of-the-giants").scenario() == before
    assert app.tabs.selected_index == 0


def test_a_link_the_game_refuses_changes_no_input_and_says_why() -> None:
    app = Explorer()
    panel = app.panel("arcadia-quest")
    before = panel.scenario()
    bad = {"game": "arcadia-quest", "question": "encounter", "hero": {"preset": "Nobody"},
           "attack": {"card": "Rusty Sword"}, "target": {"preset": "Orc Marauder"}}
    assert app.open_link(share_query(bad)) is False
    assert "hero" in app.notice.value and "default scenario" in app.notice.value
    assert panel.scenario() == before


def test_a_link_naming_only_a_game_opens_its_tab(app: Explorer) -> None:
    assert app.open_link("game=agot") is True
    assert app.tabs.selected_index == app.names.index("agot-lcg")
    assert app.open_link("") is False  # nothing asked: nothing changes, no message


def test_the_copy_link_follows_every_change() -> None:
    app = Explorer()
    panel = app.panel("assault-of-the-giants")
    link = panel.scenario_box.share.share.link
    before = link.query
    panel.apply({**panel.scenario(), "title": "changed"})
    assert link.query != before and parse_query(link.query).scenario["title"] == "changed"
    assert link.problem == "" and link.href == ""


def test_on_binder_the_link_launches_a_new_session(monkeypatch: pytest.MonkeyPatch) -> None:
    environ = {"BINDER_LAUNCH_HOST": "https://mybinder.org/", "BINDER_PERSISTENT_REQUEST": "v2/gh/o/r/abc"}
    href = binder_href("game=aq&scenario=v1.x", environ)
    assert href.startswith("https://mybinder.org/v2/gh/o/r/abc?urlpath=voila%2Frender%2Fnotebooks%2Fexplorer.ipynb")
    assert binder_href("game=aq", {"BINDER_LAUNCH_HOST": "javascript:alert(1)//", "BINDER_PERSISTENT_REQUEST": "x"}) == ""
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    app = Explorer()
    link = app.panel("arcadia-quest").scenario_box.share.share.link
    assert link.href.startswith("https://mybinder.org/v2/gh/o/r/abc?urlpath=")


def test_the_query_comes_from_voila_s_environment() -> None:
    assert link_query({"QUERY_STRING": "game=aq"}) == "game=aq"
    assert link_query({}) == ""


def test_csv_export_sends_the_report_table(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Explorer()
    panel = app.panel("assault-of-the-giants")
    exports = panel.scenario_box.share.exports
    sent = _sent(exports.saver, monkeypatch)
    exports.csv.click()
    assert len(sent) == 1 and sent[0]["action"] == "save" and sent[0]["filename"] == "battle-report.csv"
    rows = list(csv.DictReader(io.StringIO(sent[0]["text"])))
    expected = resolve(panel.scenario()).to_rows()  # no pandas needed (tests/scenario/test_report_rows.py: the same bytes)
    assert len(rows) == len(expected) and tuple(rows[0]) == expected.columns
    assert sent[0]["text"] == expected.to_csv()
    total = sum(float(r["probability"]) for r in rows if r["side"] == "attacker" and r["quantity"] == "hits")
    assert total == pytest.approx(1.0)


def test_csv_export_is_refused_while_the_inputs_are(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Explorer()
    panel = app.panel("assault-of-the-giants")
    exports = panel.scenario_box.share.exports
    sent = _sent(exports.saver, monkeypatch)
    panel.pools["attacker"].basic.value = "-1"
    assert not panel.valid
    exports.csv.click()
    assert sent == [] and "refused" in exports.error.text


@pytest.mark.parametrize("game", GAMES)
def test_every_chart_can_be_saved_as_png_and_html(app: Explorer, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = app.panel(game)
    exports = panel.scenario_box.share.exports
    assert [key for _label, key in exports.chart.options] == list(panel.results.figures)
    for _label, key in exports.chart.options:
        sent = _sent(panel.results.figures[key], monkeypatch)
        exports.chart.value = key
        exports.png.click()
        exports.html.click()
        assert [m["format"] for m in sent] == ["png", "html"]
        assert all(m["action"] == "download" and m["filename"].endswith(key.replace("_", "-")) for m in sent)


def test_the_scenario_download_looks_like_a_button_and_holds_the_scenario(app: Explorer) -> None:
    import base64
    import re

    box = app.panel("arcadia-quest").scenario_box
    html = box.download.value
    assert "jupyter-button" in html and "Download encounter.json" in html
    payload = re.search(r"base64,([A-Za-z0-9+/=]+)", html).group(1)
    assert json.loads(base64.b64decode(payload)) == app.panel("arcadia-quest").scenario()


def test_file_saver_sends_text_or_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    saver = FileSaver()
    sent = _sent(saver, monkeypatch)
    saver.save("a.csv", "text/csv", "x\n")
    saver.save("a.bin", "application/octet-stream", b"\x00\xff")
    assert sent[0]["text"] == "x\n" and sent[1]["base64"] == "AP8="


def test_links_stay_short_for_every_panel(app: Explorer) -> None:
    for game in GAMES:
        query = app.panel(game).scenario_box.share.share.link.query
        assert query.startswith(f"game={game}&scenario=v1.") and len(query) < 2000
        assert len(encode(app.panel(game).scenario())) < 2000


def test_on_a_hub_the_link_opens_each_person_s_own_server(monkeypatch: pytest.MonkeyPatch) -> None:
    href = hub_href("game=aq&scenario=v1.x", {"JUPYTERHUB_PUBLIC_HUB_URL": "http://127.0.0.1:8000/hub/"})
    assert href == "http://127.0.0.1:8000/hub/user-redirect/voila/render/notebooks/explorer.ipynb?game=aq&scenario=v1.x"
    assert hub_href("game=aq", {"JUPYTERHUB_PUBLIC_HUB_URL": ""}) == ""  # a hub without public_url: the page's own address
    monkeypatch.setenv("JUPYTERHUB_PUBLIC_HUB_URL", "https://class.example.org/hub/")
    link = Explorer().panel("arcadia-quest").scenario_box.share.share.link
    assert link.href == f"https://class.example.org/hub/user-redirect/voila/render/notebooks/explorer.ipynb?{link.query}"
