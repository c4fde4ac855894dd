"""Optional libraries, imported only when a computation asks for one (never when a module is imported).

numpy accelerates Assault of the Giants' best play; the in-browser build ships no numpy, and
everything else runs without it. `optional` gives a module a stand-in for the library whose
first attribute read imports it; where the library is missing, that read raises a
`ScenarioError` saying what needs it, so a front end shows one line instead of a traceback.

>>> math = optional("math", "this example")
>>> math.sqrt(4.0)
2.0
>>> optional("no_such_library_here", "best play", "reroll_policy").anything
Traceback (most recent call last):
explorer.core.errors.ScenarioError: reroll_policy: best play needs the Python package 'no_such_library_here', which is not installed here
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from explorer.core.errors import ScenarioError

__all__ = ["optional"]


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
