"""The one hardened way in for scenarios: files, pasted text and Python mappings alike.

Every entry point (``explorer.resolve`` with a path or a mapping, the command line, the app's
Load box) goes through this module, so a hostile or broken input meets the same limits and the
same one-line errors (field path first) wherever it comes from:

* files: regular files only (no FIFO, device or directory), at most `MAX_FILE_BYTES` bytes read,
  UTF-8 (a UTF-8 byte order mark is allowed; UTF-16 and binary files are refused by name);
* text: JSON or TOML; duplicate keys refused (TOML refuses them itself), nesting at most
  `MAX_DEPTH` deep (brackets, and the parts of a TOML dotted key), checked on the text before a
  parser sees it (they recurse, or slow down with the square of a dotted key's length);
* every value (`check_shape`, also run on mappings from Python): keys are text of at most
  `MAX_KEY` characters, lists and objects hold at most `MAX_ITEMS` entries, text at most
  `MAX_TEXT` characters, whole numbers at most `MAX_INT` either way, floats finite, no other
  types, at most `MAX_VALUES` values in all; then ``format`` is exactly the whole number 1;
* every text, key or value, can be written as UTF-8 (`explorer.scenario.fields.check_text`): a lone
  surrogate (the JSON escape ``"\\ud800"``, or one in a Python string) is refused naming its field,
  so that no name can break the command line's output, a share link or the page.

Each game's reader then checks its own keys and each number against the field's own range.

>>> read_scenario_text('{"game": "aotg", "attacker": {"pool": {"basic": 2}}}')["attacker"]
{'pool': {'basic': 2}}
>>> read_scenario_text('{"game": "aotg", "game": "aq"}')
Traceback (most recent call last):
explorer.core.errors.ScenarioError: game: is given twice (a key may appear once in an object)
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.scenario.fields import MAX_TEXT, check_text, describe, join_path

__all__ = [
    "MAX_DEPTH", "MAX_FILE_BYTES", "MAX_INT", "MAX_ITEMS", "MAX_KEY", "MAX_TEXT", "MAX_VALUES",
    "check_format", "check_shape", "decode_bytes", "read_scenario_file", "read_scenario_text",
]

MAX_FILE_BYTES = 1_000_000
"""Largest scenario file (bytes) or pasted text (characters); real scenarios take a few kB."""
MAX_DEPTH = 32
"""Deepest nesting of objects and lists (the top-level object is depth 1; real files reach about 20)."""
MAX_ITEMS = 1000
"""Most items in one list, and most keys in one object."""
MAX_KEY = 100
"""Longest key, in characters (keys name fields, dice, cards)."""
MAX_VALUES = 100_000
"""Most values in a whole scenario (every number, text, list and object counts one)."""
MAX_INT = 10**9
"""Largest whole number either way, before any game reads it (each field has its own, smaller range)."""

_SCENARIO = "scenario"
_NUMBER_DIGITS = 18
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?|#[^\n]*|[\[\]{}]')
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?|#[^\n]*')
_PART = r'(?:[A-Za-z0-9_-]++|"s")'
_DOTTED = re.compile(rf"(?<![A-Za-z0-9_-]){_PART}(?:[ \t]*+\.[ \t]*+{_PART}){{{MAX_DEPTH},}}")
"""A TOML dotted key of more than `MAX_DEPTH` parts (``a.b.c...``), strings replaced by ``"s"`` first:
tomllib's time and memory grow with the square of a dotted key's length."""


class _Duplicated(dict):  # type: ignore[type-arg]
    """A JSON object that named a key twice (refused by `check_shape`, with its path)."""

    duplicate = ""


class _LongNumber:
    """A JSON whole number too long to convert (refused by `check_shape`, with its path)."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    duplicate = None
    for key, value in pairs:
        if key in out and duplicate is None:
            duplicate = key
        out[key] = value
    if duplicate is None:
        return out
    marked = _Duplicated(out)
    marked.duplicate = duplicate
    return marked


def _json_int(text: str) -> int | _LongNumber:
    digits = len(text.lstrip("-"))
    return int(text) if digits <= _NUMBER_DIGITS else _LongNumber(digits)


def _short(name: str, limit: int = 60) -> str:
    """A file name for messages: at most `limit` characters, the end kept."""
    return name if len(name) <= limit else "..." + name[-(limit - 3):]


def decode_bytes(raw: bytes, source: str = "the file") -> str:
    """The text of a scenario file's bytes: UTF-8 (a leading byte order mark is dropped).

    >>> decode_bytes(b'\\xef\\xbb\\xbf{"game": "aq"}')
    '{"game": "aq"}'
    >>> decode_bytes(b"\\xff\\xfe{\\x00}\\x00", "s.json")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: scenario: s.json is UTF-16 text; save it as UTF-8 (JSON or TOML)

    Raises:
        ScenarioError: too big, UTF-16, NUL bytes, or not UTF-8.
    """
    if len(raw) > MAX_FILE_BYTES:
        raise ScenarioError(_SCENARIO, f"{source} is too big: at most {MAX_FILE_BYTES} bytes")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ScenarioError(_SCENARIO, f"{source} is UTF-16 text; save it as UTF-8 (JSON or TOML)")
    if b"\x00" in raw:
        raise ScenarioError(_SCENARIO, f"{source} is not a text file (it holds NUL bytes); save it as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ScenarioError(_SCENARIO, f"{source} is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset "
                                       f"{error.start}); save it as UTF-8 (JSON or TOML)") from None
    return text.removeprefix("\ufeff")


def _check_regular(mode: int, name: str) -> None:
    if stat.S_ISREG(mode):
        return
    kind = ("a directory" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a special file")
    raise ScenarioError(_SCENARIO, f"cannot read {name}: it is {kind}, not a regular file")


def read_scenario_file(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read a scenario file safely: TOML if it ends in ``.toml``, JSON if ``.json``, else whichever parses.

    Only regular files are opened (a FIFO or a device is refused before any read, and the open
    never blocks); at most `MAX_FILE_BYTES` + 1 bytes are read.

    Raises:
        ScenarioError: field ``scenario`` for a file that cannot be read or parsed, else the bad key's path.
    """
    name = _short(os.fspath(path))
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ScenarioError(_SCENARIO, f"cannot read {name}: {reason}") from None
    _check_regular(mode, name)  # a ScenarioError of its own, said once
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ScenarioError(_SCENARIO, f"cannot read {name}: {reason}") from None
    with open(fd, "rb") as file:
        info = os.fstat(file.fileno())
        _check_regular(info.st_mode, name)
        if info.st_size > MAX_FILE_BYTES:
            raise ScenarioError(_SCENARIO, f"{name} is too big: at most {MAX_FILE_BYTES} bytes, got {info.st_size}")
        try:
            raw = file.read(MAX_FILE_BYTES + 1)
        except OSError as error:
            raise ScenarioError(_SCENARIO, f"cannot read {name}: {error.strerror or error}") from None
    kind = {".toml": "toml", ".json": "json"}.get(Path(os.fspath(path)).suffix.lower())
    return read_scenario_text(decode_bytes(raw, name), source=name, kind=kind)


def _too_deep(text: str) -> int | None:
    """The line where brackets, or a TOML dotted key, nest deeper than `MAX_DEPTH`, or None.

    Strings and comments are skipped; a float such as ``1.5`` is not a dotted key of note.

    >>> _too_deep("[" * 40), _too_deep('["[[[["]'), _too_deep("x = 1\\n" + "a." * 40 + "b = 1")
    (1, None, 2)
    """
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()
        if mark in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, token.start()) + 1
        elif mark in ("]", "}"):
            depth = max(0, depth - 1)
    if "." in text:
        stripped = _QUOTED.sub('"s"', text)
        chain = _DOTTED.search(stripped)
        if chain is not None:
            return stripped.count("\n", 0, chain.start()) + 1
    return None


def _parse_json(text: str, where: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_json_object, parse_int=_json_int)
    except json.JSONDecodeError as error:
        raise ScenarioError(_SCENARIO, f"not valid JSON{where} ({error.msg}, line {error.lineno} "
                                       f"column {error.colno})") from None
    except RecursionError:
        raise ScenarioError(_SCENARIO, f"nested more than {MAX_DEPTH} deep{where}") from None


def _parse_toml(text: str, where: str, lead: str = "not valid TOML") -> Any:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(_SCENARIO, f"{lead}{where} ({error})") from None
    except RecursionError:
        raise ScenarioError(_SCENARIO, f"nested more than {MAX_DEPTH} deep{where}") from None
    except ValueError:  # an integer too long for Python's int-from-text limit
        raise ScenarioError(_SCENARIO, f"not valid TOML{where} (a number with too many digits: whole numbers "
                                       f"are at most {MAX_INT} either way)") from None


def read_scenario_text(text: str, *, source: str = "", kind: str | None = None) -> dict[str, Any]:
    """A checked scenario from the text of a JSON or TOML file.

    Args:
        text: the file's text.
        source: a name for messages (a file name), or "" for pasted text.
        kind: ``"json"``, ``"toml"`` or None (whichever parses: JSON first, then TOML).

    >>> read_scenario_text('game = "aq"\\n[attack]\\ndice = 3')
    {'game': 'aq', 'attack': {'dice': 3}}

    Raises:
        ScenarioError: field ``scenario`` for text that is too big, too deep or does not parse;
            else the path of the bad key (`check_shape`).
    """
    where = f" in {source}" if source else ""
    if len(text) > MAX_FILE_BYTES:
        raise ScenarioError(_SCENARIO, f"too big{where}: at most {MAX_FILE_BYTES} characters, got {len(text)}")
    line = _too_deep(text)
    if line is not None:
        raise ScenarioError(_SCENARIO, f"nested more than {MAX_DEPTH} deep{where} (line {line})")
    if kind == "json":
        data = _parse_json(text, where)
    elif kind == "toml":
        data = _parse_toml(text, where)
    else:
        try:
            data = _parse_json(text, where)
        except ScenarioError as json_error:
            try:
                data = _parse_toml(text, where, "neither JSON nor valid TOML")
            except ScenarioError as toml_error:
                raise (json_error if text.lstrip().startswith("{") else toml_error) from None
    check_shape(data)
    return data  # type: ignore[no-any-return]


def _bad_number(value: int | _LongNumber) -> str:
    digits = value.digits if isinstance(value, _LongNumber) else int(abs(value).bit_length() * 0.30103) + 1
    return f"must be a whole number from -{MAX_INT} to {MAX_INT}, got one of about {digits} digits"


class _Walk:
    """One walk of `check_shape`: the values seen so far."""

    def __init__(self) -> None:
        self.values = 0

    def check(self, value: Any, path: str, depth: int) -> None:
        self.values += 1
        where = path or _SCENARIO
        if self.values > MAX_VALUES:
            raise ScenarioError(where, f"too many values: at most {MAX_VALUES} in a scenario")
        if isinstance(value, (bool, str)) or value is None:
            if isinstance(value, str):
                check_text(value, where)
            return
        if isinstance(value, (int, _LongNumber)):
            if isinstance(value, _LongNumber) or abs(value) > MAX_INT:
                raise ScenarioError(where, _bad_number(value))
            return
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ScenarioError(where, f"must be a finite number, got {value}")
            return
        if isinstance(value, Mapping) or isinstance(value, (list, tuple)):
            if depth >= MAX_DEPTH:
                raise ScenarioError(where, f"nested too deep: at most {MAX_DEPTH} levels of objects and lists")
            if len(value) > MAX_ITEMS:
                noun = "keys" if isinstance(value, Mapping) else "items"
                raise ScenarioError(where, f"too many {noun}: at most {MAX_ITEMS}, got {len(value)}")
            if isinstance(value, Mapping):
                self.mapping(value, path, depth + 1)
            else:
                for i, item in enumerate(value):
                    self.check(item, f"{where}[{i}]", depth + 1)
            return
        raise ScenarioError(where, f"must be text, a number, true/false, a list or an object, got "
                                   f"{type(value).__name__}")

    def mapping(self, value: Mapping[Any, Any], path: str, depth: int) -> None:
        if isinstance(value, _Duplicated):
            raise ScenarioError(join_path(path, value.duplicate), "is given twice (a key may appear once in an object)")
        for key, item in value.items():
            if not isinstance(key, str):
                raise ScenarioError(path or _SCENARIO, f"keys must be text, got {describe(key)}")
            if len(key) > MAX_KEY:
                raise ScenarioError(join_path(path, key[:20] + "..."), f"key too long: at most {MAX_KEY} characters")
            check_text(key, join_path(path, key))
            self.check(item, join_path(path, key), depth)


def check_shape(data: Any) -> None:
    """Check a whole scenario against the limits of this module, whatever its source.

    >>> check_shape({"attacker": {"units": [{"fortitude": 10**12}]}})
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: attacker.units[0].fortitude: must be a whole number from -1000000000 to 1000000000, got one of about 13 digits
    >>> check_shape([1])
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: scenario: must be an object (a table of keys) at the top level, got list
    >>> check_shape({"attacker": {"units": [{"name": "Orc\\ud800"}]}})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: attacker.units[0].name: cannot be written as UTF-8: character 4 is a lone surrogate (\\ud800), ...

    Raises:
        ScenarioError: naming the path of the first value out of bounds.
    """
    if not isinstance(data, Mapping):
        raise ScenarioError(_SCENARIO, f"must be an object (a table of keys) at the top level, got "
                                       f"{type(data).__name__}")
    _Walk().check(data, "", 0)


def check_format(data: Mapping[str, Any]) -> None:
    """``format``, when given, must be exactly the whole number 1 (not ``true``, not ``1.0``).

    >>> check_format({"format": 1})
    >>> check_format({"format": True})
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: format: must be the whole number 1 (scenario format version 1), got true
    """
    if "format" in data and not (type(data["format"]) is int and data["format"] == 1):
        raise ScenarioError("format", f"must be the whole number 1 (scenario format version 1), "
                                      f"got {describe(data['format'])}")
