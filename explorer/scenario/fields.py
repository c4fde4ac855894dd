"""Strict reading of scenario mappings: every key typed, every unknown key an error.

`Fields` wraps one JSON/TOML object and the dotted path that leads to it, so that an error
names the exact key (``defender.units[2].wounded``) and the values it allows.

>>> f = Fields({"dice": 3}, "attack")
>>> f.whole("dice", minimum=0)
3
>>> f.done()
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar, overload

from explorer.core.errors import ScenarioError

__all__ = ["MAX_TEXT", "Fields", "check_option", "check_text", "check_whole", "describe", "join_path", "near_miss"]

T = TypeVar("T")

MAX_TEXT = 1000
"""Longest text value, in characters (a name, a note line, a title), wherever it comes from."""

_MISSING = object()
_NEAR = 0.8
"""How alike an unknown key and a known one must be (difflib ratio) to suggest the known one."""
_LISTED = 120
"""Characters of allowed keys listed in an unknown-key message before "..."."""
_PLAIN_KEY = re.compile("[^\\s.\\[\\]\"':\ud800-\udfff](?:[^.\\[\\]\"\x00-\x1f\x7f-\x9f\ud800-\udfff]*"
                        "[^\\s.\\[\\]\"':\ud800-\udfff])?")
_SURROGATE = re.compile("[\ud800-\udfff]")


def describe(value: Any) -> str:
    """A short rendering of a bad value for error messages (true, false and null as in JSON).

    Safe for any value: a huge whole number gives its size, a failing ``repr`` the type's name.

    >>> describe("x" * 50), describe(True), describe(None), describe(10**5000)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'", 'true', 'null', 'a whole number of about 5001 digits')
    """
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, int) and abs(value) >= 10**30:
        return f"a whole number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile object from Python; its type is enough
        return f"a {type(value).__name__}"
    return text if len(text) <= 32 else text[:31] + "...'"


def join_path(path: str, key: str) -> str:
    """The dotted path of `key` inside `path`; a key that would read ambiguously is quoted (JSON, ASCII).

    >>> join_path("defender.hand", "Ned Stark"), join_path("insight", " "), join_path("", "a.b")
    ('defender.hand.Ned Stark', 'insight." "', '"a.b"')
    >>> join_path("pool", "\\udc80")
    'pool."\\\\udc80"'
    """
    shown = key if _PLAIN_KEY.fullmatch(key) else json.dumps(key)
    return f"{path}.{shown}" if path else shown


def near_miss(word: str, candidates: Iterable[Any]) -> str | None:
    """The candidate that `word` most likely misspells (close enough to be a typo), or None.

    >>> near_miss("atacker", ["defender", "attacker"]), near_miss("colour", ["pool", "units"])
    ('attacker', None)
    """
    names = [c for c in candidates if isinstance(c, str)]
    found = difflib.get_close_matches(word, names, n=1, cutoff=_NEAR)
    if found:
        return found[0]
    return next((name for name in names if len(word) >= 3 and _one_edit(word, name)), None)


def check_text(value: str, path: str) -> str:
    """`value`, if it is text every output can write: at most `MAX_TEXT` characters, no lone surrogate.

    A Python string can hold a lone surrogate (U+D800 to U+DFFF: half of a UTF-16 pair, not a
    character; the JSON escape ``"\\ud800"`` reads as one). They are the only code points UTF-8
    cannot encode, so a name holding one could be neither printed, saved, shared in a link nor
    sent to the page: it is refused here, naming the field, wherever the text came from.

    >>> check_text("Hill giant", "attacker.units[0].name")
    'Hill giant'
    >>> check_text("Hill\\udc80", "attacker.units[0].name")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: attacker.units[0].name: cannot be written as UTF-8: character 5 is a lone surrogate (\\udc80), not a character; remove it

    Raises:
        ScenarioError: naming `path`.
    """
    if len(value) > MAX_TEXT:
        raise ScenarioError(path, f"text too long: at most {MAX_TEXT} characters, got {len(value)}")
    bad = _SURROGATE.search(value)
    if bad is not None:
        raise ScenarioError(path, f"cannot be written as UTF-8: character {bad.start() + 1} is a lone surrogate "
                                  f"(\\u{ord(bad.group()):04x}), not a character; remove it")
    return value


def _one_edit(a: str, b: str) -> bool:
    """True if `a` and `b` differ by one letter added, dropped, changed, or two neighbours swapped.

    >>> _one_edit("gmae", "game"), _one_edit("game", "name"), _one_edit("game", "gem")
    (True, True, False)
    """
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                   and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))


def _same(value: Any, choice: Any) -> bool:
    """Equal and of the same kind: true is not 1, 1.0 is not 1."""
    if isinstance(choice, str):
        return isinstance(value, str) and value == choice
    return type(value) is type(choice) and bool(value == choice)


class Fields:
    """Typed, path-aware access to one scenario object."""

    def __init__(self, data: Any, path: str, allowed: Sequence[str] | None = None) -> None:
        """Wrap `data` found at `path`.

        Args:
            data: the object; anything but a mapping is an error.
            path: dotted path used in error messages ("" for the top level).
            allowed: keys allowed in addition to the ones read (checked by `done`).

        Raises:
            ScenarioError: `data` is not a mapping.
        """
        if not isinstance(data, Mapping):
            raise ScenarioError(path or "scenario", f"must be an object (a table of keys), got {describe(data)}")
        self.data = data
        self.path = path
        self._seen: set[str] = set(allowed or ())

    def at(self, key: str) -> str:
        """Dotted path of `key` inside this object."""
        return join_path(self.path, str(key))

    def has(self, key: str) -> bool:
        """True if `key` is present (and marks it as known)."""
        self._seen.add(key)
        return key in self.data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        """The untyped value of `key`; a missing key without default is an error."""
        self._seen.add(key)
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            stray = near_miss(key, (k for k in self.data if k not in self._seen))
            if stray is not None:
                raise ScenarioError(self.at(stray), f'unknown key; did you mean "{key}"?')
            raise ScenarioError(self.at(key), "is required")
        return default

    @overload
    def whole(self, key: str, default: None, *, minimum: int = 0, maximum: int | None = None) -> int | None: ...

    @overload
    def whole(self, key: str, default: int = ..., *, minimum: int = 0, maximum: int | None = None) -> int: ...

    def whole(self, key: str, default: Any = _MISSING, *, minimum: int = 0, maximum: int | None = None) -> Any:
        """A whole number in [minimum, maximum]; a missing key gives `default` (None allowed)."""
        value = self.raw(key, default)
        if key not in self.data and default is None:
            return None
        return check_whole(value, self.at(key), minimum=minimum, maximum=maximum)

    def flag(self, key: str, default: Any = _MISSING) -> bool:
        """A boolean (``true`` / ``false``; 0 and 1 are refused)."""
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise ScenarioError(self.at(key), f"must be true or false, got {describe(value)}")
        return value

    def text(self, key: str, default: Any = _MISSING) -> str:
        """A non-empty string."""
        value = self.raw(key, default)
        if not isinstance(value, str) or not value.strip():
            raise ScenarioError(self.at(key), f"must be a non-empty text, got {describe(value)}")
        return check_text(value, self.at(key))

    def choice(self, key: str, choices: Sequence[T], default: Any = _MISSING) -> T:
        """One of `choices`, typed as they are (`check_option`): a ``Literal`` option set gives its ``Literal``.

        >>> Fields({"kind": "spell"}, "cards[0]").choice("kind", ("spell", "resource"))
        'spell'
        """
        return check_option(self.raw(key, default), choices, self.at(key))

    def string(self, key: str, default: Any = _MISSING) -> str:
        """Any text, empty allowed (a title, say)."""
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise ScenarioError(self.at(key), f"must be text, got {describe(value)}")
        return check_text(value, self.at(key))

    def strings(self, key: str, default: Any = _MISSING) -> tuple[str, ...]:
        """A list of texts (notes, say)."""
        values = self.items(key, default)
        for i, value in enumerate(values):
            if not isinstance(value, str):
                raise ScenarioError(f"{self.at(key)}[{i}]", f"must be text, got {describe(value)}")
            check_text(value, f"{self.at(key)}[{i}]")
        return tuple(values)

    def meta(self) -> tuple[str, tuple[str, ...]]:
        """The optional ``title`` (text) and ``notes`` (a list of texts) of a scenario.

        >>> Fields({"title": "Raid", "notes": ["p.17"]}, "").meta()
        ('Raid', ('p.17',))
        >>> Fields({"notes": "p.17"}, "").meta()
        Traceback (most recent call last):
        explorer.core.errors.ScenarioError: notes: must be a list, got 'p.17'
        """
        return self.string("title", ""), self.strings("notes", [])

    def items(self, key: str, default: Any = _MISSING) -> list[Any]:
        """A list (JSON array / TOML array)."""
        value = self.raw(key, default)
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise ScenarioError(self.at(key), f"must be a list, got {describe(value)}")
        return list(value)

    def child(self, key: str, allowed: Sequence[str] | None = None, default: Any = _MISSING) -> Fields:
        """The nested object under `key`."""
        return Fields(self.raw(key, default), self.at(key), allowed)

    def done(self) -> None:
        """Refuse any key that was never read.

        Raises:
            ScenarioError: naming the first unknown key, and the known key it likely misspells
                or else the keys allowed here.

        >>> f = Fields({"atacker": {}}, "")
        >>> f.raw("defender", None), f.has("attacker")
        (None, False)
        >>> f.done()
        Traceback (most recent call last):
        explorer.core.errors.ScenarioError: atacker: unknown key; did you mean "attacker"?
        """
        for key in self.data:
            if key not in self._seen:
                guess = near_miss(key, sorted(self._seen)) if isinstance(key, str) else None
                if guess is not None:
                    raise ScenarioError(self.at(str(key)), f'unknown key; did you mean "{guess}"?')
                known = ", ".join(sorted(self._seen)) or "none"
                if len(known) > _LISTED:
                    known = known[:known.rfind(", ", 0, _LISTED)] + ", ..."
                raise ScenarioError(self.at(str(key)), f"unknown key (allowed here: {known})")


def check_option(value: object, allowed: Sequence[T], path: str) -> T:
    """`value`, if it is one of `allowed` (of the same kind: true is not 1, 1.0 is not 1), as that option.

    The one check of an option set: each game keeps its options as a ``Literal`` type and its tuple
    of values (``typing.get_args`` of it), and its reader checks each option here, once, so that the
    rest of the game is typed with the ``Literal``.

    >>> check_option("ranged", ("melee", "ranged"), "attack.kind")
    'ranged'
    >>> check_option("magic", ("melee", "ranged"), "attack.kind")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: attack.kind: must be one of "melee", "ranged", got 'magic'

    Raises:
        ScenarioError: naming `path`, the values allowed and the value given.
    """
    for option in allowed:
        if _same(value, option):
            return option
    shown = ", ".join(json.dumps(option) for option in allowed)
    raise ScenarioError(path, f"must be one of {shown}, got {describe(value)}")


def check_whole(value: Any, path: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Check that `value` is an int within bounds (bools and floats are refused).

    >>> check_whole(2, "x")
    2
    >>> check_whole("2.5", "pool.basic", maximum=14)
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: pool.basic: must be a whole number >= 0 and <= 14, got '2.5'
    """
    upper = f" and <= {maximum}" if maximum is not None else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(path, f"must be a whole number >= {minimum}{upper}, got {describe(value)}")
    if value < minimum or (maximum is not None and value > maximum):
        raise ScenarioError(path, f"must be >= {minimum}{upper}, got {value}")
    return value
