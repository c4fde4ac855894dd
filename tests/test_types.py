"""The package keeps its type promises: ``mypy --strict`` finds nothing in ``explorer/``.

The configuration is ``[tool.mypy]`` in pyproject.toml: strict, on the whole package, the widget
panels and the app included; the panels may subclass ipywidgets' untyped classes (the one
relaxation), and untyped third-party libraries (plotly, voila, ipywidgets, icepool) are read as
``Any``. mypy runs in a subprocess, as ``make test`` would run it by hand, and its whole report is
the failure message.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_strict_finds_no_error_in_the_package() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    report = (run.stdout + run.stderr).strip()
    assert run.returncode == 0, f"mypy --strict (pyproject.toml [tool.mypy]) reports:\n{report}"


def test_no_file_is_left_out_and_one_rule_is_relaxed_for_the_widgets() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["explorer"]
    assert "exclude" not in config
    ours = [o for o in config["overrides"] if any(m.startswith("explorer") for m in o["module"])]
    assert ours == [{"module": ["explorer.panels.*"], "disallow_subclassing_any": False}]
