"""Optional libraries, imported only when a computation asks for one (never when a module is imported).

numpy accelerates Assault of the Giants' best play and its casualty tables; the in-browser build
ships no numpy, and every computation has a pure-Python path giving the same exact answers.
`accelerator` is the one place that chooses: it gives the library where it imports (and is not
switched off by `pure_python`), else None, and the caller takes its pure-Python path.

`optional` gives a module a stand-in for a library whose first attribute read imports it (the
numpy paths read their ``np`` this way, so their modules import without numpy); where the library
is missing, that read raises a `ScenarioError` saying what needs it.

>>> accelerator("no_such_library_here") is None
True
>>> with pure_python():
...     accelerator("math") is None
True
>>> accelerator("math").sqrt(4.0)
2.0
>>> optional("no_such_library_here", "this example", "field").anything
Traceback (most recent call last):
explorer.core.errors.ScenarioError: field: this example needs the Python package 'no_such_library_here', which is not installed here
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import ModuleType
from typing import Any

from explorer.core.errors import ScenarioError

__all__ = ["accelerator", "pure_python", "optional"]

_PURE: ContextVar[bool] = ContextVar("explorer_pure_python", default=False)
_FOUND: dict[str, ModuleType | None] = {}


def accelerator(name: str) -> ModuleType | None:
    """Library `name` imported, or None where it is not installed or `pure_python` is in force.

    An accelerator changes how fast an answer comes, never the answer: a caller given None takes
    its pure-Python path. The import is tried once (a missing library stays missing).
    """
    if _PURE.get():
        return None
    if name not in _FOUND:
        try:
            _FOUND[name] = importlib.import_module(name)
        except ModuleNotFoundError:
            _FOUND[name] = None
    return _FOUND[name]


@contextmanager
def pure_python() -> Iterator[None]:
    """Take the pure-Python paths inside, even where the accelerators are installed (tests, benchmarks)."""
    token = _PURE.set(True)
    try:
        yield
    finally:
        _PURE.reset(token)


class _Deferred:
    """A library imported at its first attribute read (see the module)."""

    def __init__(self, name: str, needed_for: str, field: str) -> None:
        self._name, self._needed_for, self._field = name, needed_for, field
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        if self._module is None:
            try:
                self._module = importlib.import_module(self._name)
            except ImportError:
                raise ScenarioError(self._field, f"{self._needed_for} needs the Python package {self._name!r}, "
                                                 "which is not installed here") from None
        value = getattr(self._module, attribute)
        setattr(self, attribute, value)  # read once: later reads are plain attribute lookups (hot loops)
        return value


def optional(name: str, needed_for: str, field: str = "scenario") -> Any:
    """A stand-in for library `name`, imported when first used for `needed_for` (refused naming `field`)."""
    return _Deferred(name, needed_for, field)
