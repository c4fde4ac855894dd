"""Helpers of the text and link probes (`tests/scenario/test_probes_text.py`): every text of a scenario, hand-made links.

`texts` finds every text value and every key of a scenario with the field path the loader names
(`explorer.scenario.fields.join_path`, ``[i]`` for list items), and `replaced` puts other text (or another
value) in its place. `raw_link` writes link data as `explorer.share.encode` does but without its
checks, so that a test can hand the reader what a hostile or broken sender would.
"""

from __future__ import annotations

import base64
import copy
import json
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from explorer.scenario.fields import join_path

SURROGATES = ("\ud800", "\udc80", "\udfff")
"""Lone surrogates: the high and low halves of a UTF-16 pair, which UTF-8 cannot encode."""
CONTROLS = ("\x00", "\x1b[2J", "\x07", "\r", "\u202e", "\x9b", "\t", "\ufffe")
"""Control characters, NUL, a bidirectional override, a noncharacter: all encodable, all hostile."""


@dataclass(frozen=True)
class Text:
    """One text of a scenario: a value or a key."""

    where: tuple[str | int, ...]
    """The keys and indexes leading to the value (for a key: to the object holding it)."""
    field: str
    """The path the loader names for it (`join_path` of the object's path and the key for a key)."""
    value: str
    """The text (the key itself, for a key)."""
    key: bool
    """True for a key, False for a text value."""
    parent: str = ""
    """The path of the object holding a key."""

    def field_with(self, text: str) -> str:
        """The path the loader names once this text is replaced by `text` (a key's path changes)."""
        return join_path(self.parent, text) if self.key else self.field


def texts(data: Any, where: tuple[str | int, ...] = (), path: str = "") -> Iterator[Text]:
    """Every text value and key of `data`, depth first, in the loader's order."""
    if isinstance(data, dict):
        for key, item in data.items():
            field = join_path(path, key)
            yield Text(where, field, key, True, path)
            yield from texts(item, (*where, key), field)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from texts(item, (*where, i), f"{path or 'scenario'}[{i}]")
    elif isinstance(data, str):
        yield Text(where, path, data, False)


def replaced(data: dict[str, Any], text: Text, new: Any) -> dict[str, Any]:
    """A deep copy of `data` with `text` replaced by `new` (for a key: renamed, its place kept)."""
    out = copy.deepcopy(data)
    holder: Any = out
    for step in text.where[:-1] if not text.key else text.where:
        holder = holder[step]
    if text.key:
        items = list(holder.items())
        holder.clear()
        holder.update((new if k == text.value else k, v) for k, v in items)
    else:
        holder[text.where[-1]] = new
    return out


def raw_link(payload: bytes, *, compress: bool = True) -> str:
    """Link data (``v1.`` + base64url, no padding) for `payload`, zlib-compressed unless told not to."""
    packed = zlib.compress(payload, 9) if compress else payload
    return "v1." + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def json_bytes(data: Any) -> bytes:
    """`data` as JSON bytes, every non-ASCII character escaped (a lone surrogate as ``\\ud800``)."""
    return json.dumps(data).encode("ascii")
