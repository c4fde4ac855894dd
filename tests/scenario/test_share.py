"""Scenario links (`explorer.share`): they round-trip every example, and a hostile link costs little.

A link is data only: these tests feed `decode` what a stranger could put in an address (too long,
not base64, a zip bomb, deep nesting, duplicate keys, NaN, another version, another game) and
check that each is refused with a one-line `ScenarioError`, quickly and without inflating more
than the cap.
"""

from __future__ import annotations

import base64
import json
import random
import time
import zlib
from pathlib import Path

import pytest

from explorer.core.errors import ScenarioError
from explorer.resolver import load_scenario
from explorer.share import (
    MAX_JSON_BYTES,
    MAX_LINK_CHARS,
    SharedLink,
    binder_link,
    decode,
    encode,
    parse_query,
    share_query,
)

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.*"))


def _pack(raw: bytes) -> str:
    return "v1." + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_round_trips_through_a_link(path: Path) -> None:
    scenario = load_scenario(path)
    query = share_query(scenario)
    assert len(query) < 2000, "an example's link should stay short enough for any chat or e-mail"
    link = parse_query("token=abc&" + query)
    assert link.scenario == scenario
    assert link.game is not None and link.game == parse_query(f"game={scenario['game']}").game


def test_link_data_is_url_safe_and_versioned() -> None:
    text = encode({"game": "aq", "notes": ["é ü ✓ <script>", "a/b+c=d"]})
    assert text.startswith("v1.")
    assert set(text[3:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert decode(text)["notes"][0] == "é ü ✓ <script>"


def test_an_empty_query_asks_for_nothing_and_a_game_alone_opens_its_tab() -> None:
    assert parse_query(None) == SharedLink() == parse_query("") == parse_query("token=x")
    assert parse_query("?game=AQ") == SharedLink("arcadia-quest", None)


@pytest.mark.parametrize("text, words", [
    ("", "no scenario"),
    ("hello", "not a scenario link"),
    ("v2.abcd", "format is 'v2'"),
    ("v1.ab+cd", "characters a scenario link never has"),
    ("v1.abcde", "damaged"),
    ("v1." + "A" * (MAX_LINK_CHARS + 10), "too long"),
    (_pack(b"[1, 2]"), "object"),
    (_pack(b"{\"game\": 1, \"game\": 2}"), "twice"),
    (_pack(b"{\"game\": \"aotg\", \"x\": NaN}"), "NaN"),
    (_pack(b"{\"game\": \"chess\"}"), "chess"),
    (_pack(b"{\"title\": \"no game\"}"), "game"),
    (_pack(b"\xff\xfe{}"), "UTF-8"),
    (_pack(b"{\"game\": \"aotg\", \"a\": " + b"[" * 200 + b"]" * 200 + b"}"), "deep"),
])
def test_a_bad_link_is_refused_with_a_message(text: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        decode(text)
    assert words.lower() in str(caught.value).lower(), str(caught.value)


def test_a_cut_link_is_refused() -> None:
    text = encode({"game": "aotg", "title": "x" * 200})
    with pytest.raises(ScenarioError, match="cut short|damaged"):
        decode(text[:-12])


def test_a_zip_bomb_is_stopped_at_the_cap_without_inflating_it() -> None:
    bomb = zlib.compress(b'{"game": "aotg", "t": "' + b"x" * 200_000_000 + b'"}', 9)
    text = "v1." + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    assert len(text) > MAX_LINK_CHARS  # 200 MB compress to more than a link may hold...
    small = zlib.compress(b'{"game": "aotg", "t": "' + b"x" * (MAX_JSON_BYTES * 8) + b'"}', 9)
    text = "v1." + base64.urlsafe_b64encode(small).decode().rstrip("=")
    assert len(text) < MAX_LINK_CHARS  # ...but half a megabyte fits in a few hundred characters
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="larger than"):
        decode(text)
    assert time.perf_counter() - start < 0.5


def test_a_scenario_too_large_for_a_link_says_so() -> None:
    noise = base64.b64encode(random.Random(7).randbytes(8000)).decode()  # does not compress
    with pytest.raises(ScenarioError, match="too large for a link"):
        encode({"game": "aotg", "notes": [noise]})


def test_the_query_names_one_game_and_one_scenario() -> None:
    one = encode({"game": "aq"})
    with pytest.raises(ScenarioError, match="more than one"):
        parse_query(f"scenario={one}&scenario={one}")
    with pytest.raises(ScenarioError, match='names "agot-lcg" but its scenario is for "arcadia-quest"'):
        parse_query(f"game=agot&scenario={one}")
    with pytest.raises(ScenarioError, match="chess"):
        parse_query("game=chess")


def test_a_binder_link_opens_the_app_with_the_query_on_binder() -> None:
    link = binder_link("https://mybinder.org/", "v2/gh/owner/repo/abc123", "voila/render/notebooks/explorer.ipynb",
                       "game=aq&scenario=v1.xyz")
    assert link.startswith("https://mybinder.org/v2/gh/owner/repo/abc123?urlpath=voila%2Frender%2F")
    from urllib.parse import parse_qs, urlsplit

    urlpath = parse_qs(urlsplit(link).query)["urlpath"][0]
    assert urlpath == "voila/render/notebooks/explorer.ipynb?game=aq&scenario=v1.xyz"


def test_encode_refuses_what_is_not_json_data() -> None:
    with pytest.raises(ScenarioError, match="plain JSON"):
        encode({"game": "aq", "x": float("nan")})
    with pytest.raises(ScenarioError, match="plain JSON"):
        encode({"game": "aq", "x": object()})
    assert json.loads(json.dumps(decode(encode({"game": "aq", "x": 1.5}))))["x"] == 1.5
