"""Fixtures shared by the notebook and browser tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# A shared 2-core CI machine is slow at times: property tests are judged on their examples, not on time.
settings.register_profile("explorer", deadline=None)
settings.load_profile("explorer")

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (the folder holding pyproject.toml)."""

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium: Playwright cannot download its own browsers here (`make chromium` installs it)."""


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository root."""
    return ROOT


@pytest.fixture(scope="session")
def app_notebook() -> Path:
    """The notebook the browser test serves with Voila.

    `notebooks/explorer.ipynb` unless the environment variable ``EXPLORER_APP_NOTEBOOK``
    names another one (a stand-in app while the real one is being written, say).
    """
    path = Path(os.environ.get("EXPLORER_APP_NOTEBOOK") or ROOT / "notebooks" / "explorer.ipynb").resolve()
    if not path.is_file():
        pytest.fail(f"the app notebook {path} does not exist (EXPLORER_APP_NOTEBOOK names another one)")
    return path


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Debian's Chromium; a missing browser FAILS the test (it must not be skipped silently)."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's Chromium "
            "(Playwright cannot download browsers here). Install it with `make chromium` "
            "(`make test` does this first)."
        )
    return CHROMIUM


# tests/blocked_imports.py makes numpy and pandas unimportable as soon as it is imported: it is a
# plugin for runs that ask for it (``-p tests.blocked_imports``) and for subprocesses, and must
# never be imported by the doctest collection of a normal run (it would block them for every
# later test).
collect_ignore = ["blocked_imports.py"]
