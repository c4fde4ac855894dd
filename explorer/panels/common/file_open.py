"""The scenario box's "Open file" button: ipywidgets' FileUpload, with a size cap checked in the page.

ipywidgets' FileUpload reads a file whole in the page and sends it to the kernel in one websocket
message; a file past the server's message limit (10 MiB in tornado) makes the server drop the
connection, and the page loses its kernel without a word. `FileOpener` keeps FileUpload's model
(the kernel reads ``value`` as FileUpload's) and swaps its view for the explorer's own
(``FileOpenerView`` in ``js/src/upload.js``), which looks at the file's size before reading it:
a file larger than `UPLOAD_LIMIT` bytes (the loader's `MAX_FILE_BYTES`) is never read nor sent;
the view writes a short note in ``error`` instead, which `refusal` turns into the message the
scenario box shows beside the button. The kernel checks the size again on what it receives.

>>> FileOpener().max_bytes == UPLOAD_LIMIT
True
>>> refusal('{"refused": "too big", "name": "big.json", "size": 12000000, "limit": 1000000}')
'scenario: big.json is too big: at most 1000000 bytes, got 12000000 (nothing was sent)'
"""

from __future__ import annotations

import json

import ipywidgets as widgets
import traitlets

from explorer.core.errors import ScenarioError
from explorer.panels.common.chart import FRONT_END, FRONT_END_VERSION
from explorer.scenario.loader import MAX_FILE_BYTES

__all__ = ["UPLOAD_LIMIT", "FileOpener", "refusal", "file_name"]

UPLOAD_LIMIT = MAX_FILE_BYTES
"""Largest file Open file sends to the kernel, in bytes (the loader reads no larger file)."""

_NAME = 60
"""Characters of a file's name kept in messages (the end, which holds the extension)."""


class FileOpener(widgets.FileUpload):
    """FileUpload drawn by the explorer's view, which refuses a file over `max_bytes` before reading it."""

    _view_name = traitlets.Unicode("FileOpenerView").tag(sync=True)
    _view_module = traitlets.Unicode(FRONT_END).tag(sync=True)
    _view_module_version = traitlets.Unicode(FRONT_END_VERSION).tag(sync=True)
    max_bytes = traitlets.Int(UPLOAD_LIMIT).tag(sync=True)
    """Largest file the page reads and sends, in bytes."""


def file_name(name: object) -> str:
    """A file name the page sent, for messages: text, at most `_NAME` characters (its end kept).

    >>> file_name("a" * 100 + ".json")[-8:], file_name(None)
    ('aaa.json', 'the file')
    """
    text = name if isinstance(name, str) and name.strip() else "the file"
    return text if len(text) <= _NAME else "..." + text[-(_NAME - 3):]


def refusal(note: str) -> str | None:
    """The message for what the page wrote in ``error`` ('' when nothing: None).

    The explorer's view writes JSON (``{"refused": "too big" | "unreadable", "name", "size",
    "limit"}``); ipywidgets' own view, a text of its own.

    >>> refusal(""), refusal('{"refused": "unreadable", "name": "s.json", "size": 5}')
    (None, 'scenario: the browser could not read s.json')
    """
    if not note:
        return None
    try:
        info = json.loads(note)
    except ValueError:
        info = None
    if not isinstance(info, dict):
        return str(ScenarioError("scenario", f"could not open the file ({note[:80]})"))
    name, size, limit = file_name(info.get("name")), info.get("size"), info.get("limit", UPLOAD_LIMIT)
    if info.get("refused") == "too big" and isinstance(size, int) and isinstance(limit, int):
        return str(ScenarioError("scenario", f"{name} is too big: at most {limit} bytes, got {size} (nothing was sent)"))
    return str(ScenarioError("scenario", f"the browser could not read {name}"))
