"""The shared panel parts import no game: every import of `explorer.panels.common` is scanned."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import explorer.panels.common

COMMON = Path(explorer.panels.common.__file__).resolve().parent
ROOT = COMMON.parents[2]
MODULES = sorted(COMMON.glob("*.py"))

GAME_LAYERS = ("explorer.games", "explorer.panels", "explorer.charts")
"""Packages with one subpackage or module per game: the shared parts may use only their ``common``
(the chart kit, ``explorer.charts.kit``, and the game registry, ``explorer.games`` itself)."""


def is_module(name: str) -> bool:
    """True if `name` is a module or package of this repository (not a function or class in one)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imported_modules(path: Path) -> list[str]:
    """Every module the file imports (``from a import b`` gives ``a.b`` when ``b`` is a module, else ``a``)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            for alias in node.names:
                full = f"{base}.{alias.name}"
                names.append(full if is_module(full) else base)
    return names


def refused(name: str) -> str | None:
    """Why the shared parts may not import module `name` (None if they may)."""
    if name.startswith("."):
        return "relative import (write the full path)"
    if "assault_of_the_giants" in name:
        return "Assault of the Giants code"
    for layer in GAME_LAYERS:
        if name.startswith(layer + ".") and not name.startswith((f"{layer}.common", "explorer.games.__",
                                                                  "explorer.charts.kit")):
            return f"a game's module: the shared parts use only the registry, {layer}.common and the chart kit"
    if name == "explorer.charts":
        return "import explorer.charts.kit (the package re-exports game figures)"
    return None


def test_the_scan_sees_the_shared_modules() -> None:
    names = {p.stem for p in MODULES}
    assert {"host", "whatif", "sweep", "scenario_io", "trace_view", "chart", "display", "number_box",
            "dice_lab"} <= names
    assert "explorer.games" in imported_modules(COMMON / "scenario_io.py")
    assert "explorer.panels.common.host" in imported_modules(COMMON / "whatif.py")


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_shared_module_imports_no_game(path: Path) -> None:
    problems = {name: why for name in imported_modules(path) if (why := refused(name))}
    assert problems == {}, f"{path.name} imports game code: {problems}"


def test_the_scan_catches_a_game_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from explorer.games.assault_of_the_giants import parse_battle\n"
                   "import explorer.panels.assault_of_the_giants.panel\nfrom explorer import charts\n"
                   "from explorer.charts import assault_of_the_giants\n")
    found = {name for name in imported_modules(bad) if refused(name)}
    assert found >= {"explorer.games.assault_of_the_giants", "explorer.panels.assault_of_the_giants.panel",
                     "explorer.charts.assault_of_the_giants"}


def test_shared_parts_and_a_fake_game_load_no_game_module() -> None:
    """In a fresh interpreter: import every shared module, run the made-up game, no game package loaded."""
    modules = ", ".join(f'"explorer.panels.common.{p.stem}"' for p in MODULES if p.stem != "__init__")
    code = f"""
import importlib, sys
for name in [{modules}]:
    importlib.import_module(name)
from tests.panels.common.fake_game import build
panel = build()
panel.whatif.pin.click(); panel.host.set(coins=3); panel.trace.roll.click(); panel.sweep.run.click()
panel.box.load.click()
loaded = sorted(m for m in sys.modules if m.startswith(("explorer.games.", "explorer.charts.", "explorer.panels."))
                and not m.startswith(("explorer.panels.common", "explorer.charts.kit")))
print(loaded)
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]", done.stdout
