"""A pytest plugin that makes libraries unimportable, as they are in the browser build.

Run a test folder as the in-browser kernel would see the package (no numpy, no pandas)::

    .venv/bin/python -m pytest -p tests.blocked_imports tests/games

``EXPLORER_BLOCK`` names the blocked top-level packages, comma-separated (default
``numpy,pandas``). An import of one of them, or of anything inside it, raises
``ModuleNotFoundError`` exactly as a missing package does; modules already imported before the
plugin loads are dropped from ``sys.modules`` first. `tests/test_without_numpy_pandas.py` runs the
games' golden and oracle tests this way.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from types import ModuleType

BLOCKED = tuple(name.strip() for name in os.environ.get("EXPLORER_BLOCK", "numpy,pandas").split(",") if name.strip())


class _Blocker(importlib.abc.MetaPathFinder):
    """Finds the blocked packages first and refuses them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {fullname!r} (blocked by tests.blocked_imports)", name=fullname)
        return None


def _install() -> None:
    for name in list(sys.modules):
        if name.split(".")[0] in BLOCKED:
            del sys.modules[name]
    if not any(isinstance(finder, _Blocker) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Blocker())


_install()
