"""The package as the in-browser build sees it: no numpy, no pandas, and still every answer.

The browser build (Pyodide) ships neither library: pandas is an optional extra, used only by
``Report.to_frame`` (and the lessons' DataFrames where it is installed), and numpy only speeds up
best play. This runs, in a fresh interpreter with both made unimportable (`tests.blocked_imports`),
the games' golden and oracle tests, the scenario and core tests, the panels' headless tests, the
charts and every doctest of the package, and asserts they pass. Tests that need pandas by their
nature (checking ``to_frame`` against the pandas-free rows) skip themselves there and run here,
in the normal suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FOLDERS = ("tests/games", "tests/scenario", "tests/core", "tests/panels", "tests/charts", "explorer")
"""What runs without numpy and pandas (``explorer``: the doctests)."""

LEFT_OUT = ("tests/games/assault_of_the_giants/test_best_two_rounds.py",)
"""Left out here: each of its cases already runs both engines in the normal suite (numpy's and the
pure-Python paths, `explorer.core.optional.pure_python`) against a brute force, which here would
run the same pure path twice at the cost of a minute or more."""

TIMEOUT_S = 3600


def test_games_panels_and_doctests_pass_without_numpy_and_pandas() -> None:
    env = {**os.environ, "EXPLORER_BLOCK": "numpy,pandas"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.blocked_imports", *FOLDERS,
                          *(f"--ignore={path}" for path in LEFT_OUT), "-p", "no:cacheprovider", "-rfEs", "--tb=short"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-80:])
    assert run.returncode == 0, f"without numpy and pandas (python -m pytest -p tests.blocked_imports ...):\n{tail}"
    assert " passed" in tail
