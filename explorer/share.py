"""Scenarios in a link: ``?scenario=v1.<data>`` in the app's address, and back.

A shared link carries data only, never code: the scenario as compact JSON, compressed with zlib
and written in URL-safe base64 (no padding) behind a version prefix, ``v1.``. Reading one is
guarded in this order, so that a hostile link costs little:

1. the text is at most `MAX_LINK_CHARS` characters, made of the base64url alphabet only;
2. it inflates to at most `MAX_JSON_BYTES` bytes (``zlib.decompressobj`` with ``max_length``,
   so a small "zip bomb" is stopped after that many bytes, never inflated whole), as exactly one
   whole zlib stream: a stream cut short, or any byte after its end (a second stream, say), is
   refused;
3. the bytes are UTF-8 JSON read by the hardened loader (`explorer.scenario.loader.read_scenario_text`:
   no duplicate keys, depth, sizes and numbers bounded, finite floats), naming a ``game`` the
   registry knows.

What the link holds is then an ordinary scenario: the app checks it as a loaded file is checked
(the game's own rules, through the one resolver) before it sets a single input.

The query of the app's address may also name just a game (``?game=arcadia-quest``) to open its
tab. Other parameters (a server's ``token``, say) are left alone.

>>> text = encode({"game": "aotg", "attacker": {"pool": {"basic": 3}}})
>>> text[:3], decode(text)
('v1.', {'game': 'aotg', 'attacker': {'pool': {'basic': 3}}})
>>> link = parse_query("token=abc&" + share_query({"game": "aq", "hero": {"preset": "Diva"}}))
>>> link.game, link.scenario["hero"]
('arcadia-quest', {'preset': 'Diva'})
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

from explorer.core.errors import ScenarioError
from explorer.games import find_game
from explorer.scenario.loader import check_shape, read_scenario_text

__all__ = [
    "VERSION", "MAX_LINK_CHARS", "MAX_JSON_BYTES", "SharedLink",
    "encode", "decode", "share_query", "parse_query", "binder_link",
]

VERSION = "v1"
"""The format of the data after ``scenario=``: compact JSON, zlib, base64url without padding."""
MAX_LINK_CHARS = 8192
"""The longest ``scenario=`` value read (a large battle is about 1,500 characters)."""
MAX_JSON_BYTES = 65536
"""The most bytes a link may inflate to (a large battle is about 4,000)."""

_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")
_FIELD = "link"


@dataclass(frozen=True, slots=True)
class SharedLink:
    """What an address asks the app to open.

    >>> SharedLink("agot-lcg")
    SharedLink(game='agot-lcg', scenario=None)
    """

    game: str | None = None
    """The registry name of the game whose tab to open (None: the app's first)."""
    scenario: dict[str, Any] | None = None
    """The scenario to load into that game's panel (None: its default)."""


def encode(scenario: Mapping[str, Any]) -> str:
    """The scenario as link data: ``v1.`` then base64url(zlib(compact JSON)), no padding.

    >>> encode({"game": "aotg"}).startswith("v1.eN")
    True
    >>> encode({"game": "aotg", "title": "\\udc80"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: title: cannot be written as UTF-8: character 1 is a lone surrogate (\\udc80), ...

    Raises:
        ScenarioError: the scenario breaks a limit of the loader (naming the field: what `decode`
            would refuse is never written), is not plain JSON data, or is too large for a link.
    """
    try:
        text = json.dumps(scenario, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise ScenarioError(_FIELD, f"the scenario is not plain JSON data ({error})") from None
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        check_shape(scenario)  # names the field holding the text
        raise ScenarioError(_FIELD, "the scenario holds text that cannot be written as UTF-8") from None
    data = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")
    if len(data) > MAX_LINK_CHARS or len(raw) > MAX_JSON_BYTES:
        raise ScenarioError(_FIELD, f"the scenario is too large for a link ({len(data)} characters; at most "
                                    f"{MAX_LINK_CHARS}): download it as a file instead")
    check_shape(scenario)
    return f"{VERSION}.{data}"


def _inflate(data: bytes) -> bytes:
    """Inflate zlib `data`, stopping past `MAX_JSON_BYTES` (never inflating a bomb whole)."""
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(data, MAX_JSON_BYTES + 1)
    except zlib.error:
        raise ScenarioError(_FIELD, "the link is damaged (its data does not unpack): copy the whole link again") from None
    if len(out) > MAX_JSON_BYTES or inflater.unconsumed_tail:
        raise ScenarioError(_FIELD, f"the scenario would be larger than {MAX_JSON_BYTES} bytes")
    if not inflater.eof:
        raise ScenarioError(_FIELD, "the data is cut short (was the whole link copied?)")
    if inflater.unused_data:
        raise ScenarioError(_FIELD, f"the link holds {len(inflater.unused_data)} bytes after the end of its scenario "
                                    "(was it changed, or two links joined?)")
    return out


def decode(text: str) -> dict[str, Any]:
    """The scenario in link data made by `encode` (checked as the module docstring says).

    >>> decode("v1.eNqrVkpPzE1VslJKzC9JV6oFACevBQA")
    {'game': 'aotg'}
    >>> decode("v2.abc")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: link: this link's format is 'v2'; this explorer reads 'v1' links
    >>> decode("v1." + "A" * 9000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: link: the link is too long (9003 characters; at most 8192)
    >>> packed = zlib.compress(b'{"game": "aotg"}')
    >>> decode("v1." + base64.urlsafe_b64encode(packed + packed).decode().rstrip("="))
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: link: the link holds 24 bytes after the end of its scenario (was it changed, or two links joined?)

    Raises:
        ScenarioError: with field ``link``, saying what is wrong (nothing is evaluated).
    """
    if not isinstance(text, str) or not text.strip():
        raise ScenarioError(_FIELD, "the link holds no scenario")
    text = text.strip()
    if len(text) > MAX_LINK_CHARS + len(VERSION) + 1:
        raise ScenarioError(_FIELD, f"the link is too long ({len(text)} characters; at most {MAX_LINK_CHARS})")
    version, dot, data = text.partition(".")
    if not dot or not re.fullmatch(r"v\d{1,3}", version):
        raise ScenarioError(_FIELD, "this is not a scenario link (it should start with 'v1.')")
    if version != VERSION:
        raise ScenarioError(_FIELD, f"this link's format is {version!r}; this explorer reads {VERSION!r} links")
    if not _ALPHABET.fullmatch(data):
        raise ScenarioError(_FIELD, "the link holds characters a scenario link never has (was it changed?)")
    try:
        packed = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except (binascii.Error, ValueError):
        raise ScenarioError(_FIELD, "the link is damaged or cut short (bad base64): copy the whole link again") from None
    raw = _inflate(packed)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScenarioError(_FIELD, "the scenario is not UTF-8 text") from None
    scenario = read_scenario_text(text, source="the link", kind="json")
    if "game" not in scenario:
        raise ScenarioError("game", "is required (the link's scenario names no game)")
    find_game(scenario["game"])
    return scenario


def share_query(scenario: Mapping[str, Any]) -> str:
    """The query (without ``?``) that opens the app on `scenario`: its game and the scenario.

    >>> share_query({"game": "aotg"})[:39]
    'game=assault-of-the-giants&scenario=v1.'

    Raises:
        ScenarioError: the scenario names no known game, or is too large for a link.
    """
    if "game" not in scenario:
        raise ScenarioError("game", "is required")
    return urlencode({"game": find_game(scenario["game"]).name, "scenario": encode(scenario)})


def parse_query(query: str | None) -> SharedLink:
    """What the app's query string asks for (an empty `SharedLink` when nothing).

    >>> parse_query(""), parse_query("token=x&game=AotG").game
    (SharedLink(game=None, scenario=None), 'assault-of-the-giants')
    >>> parse_query("game=agot&scenario=" + encode({"game": "aq"}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: game: the link names "agot-lcg" but its scenario is for "arcadia-quest"

    Raises:
        ScenarioError: an unknown game, a scenario that does not decode, or the two disagreeing.
    """
    if not query:
        return SharedLink()
    if len(query) > 4 * MAX_LINK_CHARS:
        raise ScenarioError(_FIELD, f"the address is too long ({len(query)} characters)")
    params = parse_qs(query.lstrip("?"), keep_blank_values=True, max_num_fields=64)
    games, scenarios = params.get("game", []), params.get("scenario", [])
    if len(games) > 1 or len(scenarios) > 1:
        raise ScenarioError(_FIELD, "the address names more than one game or scenario")
    game = find_game(games[0]).name if games else None
    scenario = decode(scenarios[0]) if scenarios else None
    if scenario is not None:
        own = find_game(scenario["game"]).name
        if game is not None and game != own:
            raise ScenarioError("game", f'the link names "{game}" but its scenario is for "{own}"')
        game = own
    return SharedLink(game, scenario)


def binder_link(launch_host: str, request: str, app_path: str, query: str) -> str:
    """A Binder launch link that opens a new session of the app at `app_path` with `query`.

    Binder gives its sessions ``BINDER_LAUNCH_HOST`` (``https://mybinder.org/``) and
    ``BINDER_PERSISTENT_REQUEST`` (``v2/gh/owner/repo/<commit>``); each person who opens the link
    gets a session of their own, at the same commit.

    >>> binder_link("https://mybinder.org/", "v2/gh/o/r/abc", "voila/render/notebooks/explorer.ipynb", "game=aq")
    'https://mybinder.org/v2/gh/o/r/abc?urlpath=voila%2Frender%2Fnotebooks%2Fexplorer.ipynb%3Fgame%3Daq'
    """
    target = f"{app_path}?{query}" if query else app_path
    return f"{launch_host.rstrip('/')}/{request.strip('/')}?urlpath={quote(target, safe='')}"
