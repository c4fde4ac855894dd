"""Strict reading of scenario mappings: every key typed, every unknown key an error.

`Fields` wraps one JSON/TOML object and the dotted path that leads to it, so that an error
names the exact key (``defender.units[2].wounded``) and the values it allows.

>>> f = Fields({"dice": 3}, "attack")
>>> f.whole("dice", minimum=0)
3
>>> f.done()
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from explorer.errors import ScenarioError

__all__ = ["Fields", "describe"]

_MISSING = object()


def describe(value: Any) -> str:
    """A short rendering of a bad value for error messages.

    >>> describe("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'"
    """
    text = repr(value)
    return text if len(text) <= 32 else text[:31] + "...'"


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
        return f"{self.path}.{key}" if self.path else key

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
            raise ScenarioError(self.at(key), "is required")
        return default

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
        return value

    def choice(self, key: str, choices: Sequence[str], default: Any = _MISSING) -> str:
        """One of `choices`."""
        value = self.raw(key, default)
        if value not in choices:
            allowed = ", ".join(f'"{c}"' for c in choices)
            raise ScenarioError(self.at(key), f"must be one of {allowed}, got {describe(value)}")
        return str(value)

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
            ScenarioError: naming the first unknown key and the keys allowed here.
        """
        for key in self.data:
            if key not in self._seen:
                known = ", ".join(sorted(self._seen))
                raise ScenarioError(self.at(str(key)), f"unknown key (allowed here: {known})")


def check_whole(value: Any, path: str, *, minimum: int = 0, maximum: int | None = None) -> int:
    """Check that `value` is an int within bounds (bools and floats are refused).

    >>> check_whole(2, "x")
    2
    >>> check_whole("2.5", "pool.basic", maximum=14)
    Traceback (most recent call last):
    explorer.errors.ScenarioError: pool.basic: must be a whole number >= 0 and <= 14, got '2.5'
    """
    upper = f" and <= {maximum}" if maximum is not None else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(path, f"must be a whole number >= {minimum}{upper}, got {describe(value)}")
    if value < minimum or (maximum is not None and value > maximum):
        raise ScenarioError(path, f"must be >= {minimum}{upper}, got {value}")
    return value
