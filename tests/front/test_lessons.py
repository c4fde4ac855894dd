"""The lesson notebooks as files: paired with jupytext, saved clean, thin; binder/ in step with pyproject.

`tests/front/test_notebooks.py` runs every notebook; this checks how they are kept:

- every lesson ``notebooks/NAME.ipynb`` has its jupytext twin ``notebooks/NAME.py`` (percent
  format) holding the same cells, so a review reads the ``.py`` and the two cannot drift;
- every notebook is saved without outputs or execution counts (the what-if notebook was once
  31 MB of outputs);
- lessons are thin: their code cells define nothing and loop over nothing (the logic is in
  `explorer.lessons` and the panels, where it is tested);
- the app notebook is the one exception to pairing: a ``notebooks/explorer.py`` would shadow the
  ``explorer`` package in every kernel, whose working folder is ``notebooks/``;
- ``binder/requirements.txt`` pins every dependency of ``pyproject.toml`` (and jupytext), each
  pin inside the range pyproject allows, so Binder builds what the tests run.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import jupytext
import nbformat
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
APP = NOTEBOOKS / "explorer.ipynb"
LESSONS = sorted(p for p in NOTEBOOKS.glob("*.ipynb") if p != APP)


def _cells(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    return [(cell.cell_type, cell.source.strip()) for cell in nb.cells]


def test_there_is_a_tour_a_what_if_and_a_lesson_and_a_workshop_per_game() -> None:
    names = {p.stem for p in LESSONS}
    assert {"00-start-here", "01-what-if"} <= names
    for game in ("assault-of-the-giants", "arcadia-quest", "a-game-of-thrones"):
        assert any(n.endswith(game) and not n.startswith("2") for n in names), f"no lesson for {game}"
        assert f"2{['assault-of-the-giants', 'arcadia-quest', 'a-game-of-thrones'].index(game)}-workshop-{game}" in names


@pytest.mark.parametrize("path", LESSONS, ids=[p.name for p in LESSONS])
def test_each_lesson_is_paired_with_its_py_file_and_in_sync(path: Path) -> None:
    twin = path.with_suffix(".py")
    assert twin.is_file(), f"{path.name} has no jupytext twin {twin.name} (jupytext --set-formats ipynb,py:percent)"
    notebook = nbformat.read(path, as_version=4)
    assert notebook.metadata.get("jupytext", {}).get("formats") == "ipynb,py:percent"
    text = jupytext.read(twin)
    assert _cells(text) == _cells(notebook), (
        f"{path.name} and {twin.name} hold different cells: run `jupytext --sync notebooks/{twin.name}`")
    assert text.metadata.get("kernelspec", {}).get("name") == "python3"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_each_notebook_is_saved_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    dirty = [i for i, cell in enumerate(notebook.cells)
             if cell.cell_type == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert dirty == [], f"{path.name}: outputs saved in cells {dirty} (clear them before saving)"
    assert path.stat().st_size < 40_000


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_each_notebook_is_thin(path: Path) -> None:
    """Prose and a few calls: no function, class, loop or comprehension in a code cell."""
    notebook = nbformat.read(path, as_version=4)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    prose = [cell.source for cell in notebook.cells if cell.cell_type == "markdown"]
    for source in code:
        for node in ast.walk(ast.parse(source)):
            assert not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.For | ast.While
                                  | ast.ListComp | ast.DictComp | ast.SetComp | ast.GeneratorExp | ast.Lambda), (
                f"{path.name}: logic in a cell ({type(node).__name__}):\n{source}")
        assert len(source.splitlines()) <= 14, f"{path.name}: a long code cell:\n{source}"
    if path != APP:
        assert len(prose) >= len(code) - 1, f"{path.name}: more code than prose"


def test_the_app_notebook_has_no_py_twin() -> None:
    assert not (NOTEBOOKS / "explorer.py").exists(), "notebooks/explorer.py would shadow the explorer package"


def _pins(path: Path) -> dict[str, Requirement]:
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line)
            pins[canonicalize_name(requirement.name)] = requirement
    return pins


def test_binder_requirements_pin_every_dependency_within_pyproject_s_ranges() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = _pins(ROOT / "binder" / "requirements.txt")
    wanted = [Requirement(d) for d in project["dependencies"]] + [Requirement("jupytext"), Requirement("ipykernel")]
    for requirement in wanted:
        name = canonicalize_name(requirement.name)
        assert name in pins, f"binder/requirements.txt does not pin {requirement.name} (pyproject needs it)"
        pin = pins[name]
        versions = [spec.version for spec in pin.specifier if spec.operator == "=="]
        assert len(versions) == 1, f"binder/requirements.txt: pin {pin} exactly (==), as Binder builds once"
        assert requirement.specifier.contains(versions[0], prereleases=True), (
            f"binder pins {pin}, outside pyproject's {requirement}")
    extra = set(pins) - {canonicalize_name(r.name) for r in wanted}
    assert not extra, f"binder/requirements.txt pins what pyproject does not name: {sorted(extra)}"
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    major, minor = map(int, re.fullmatch(r"python-(\d+)\.(\d+)", runtime).groups())
    floor = tuple(map(int, re.search(r">=\s*(\d+)\.(\d+)", project["requires-python"]).groups()))
    assert (major, minor) >= floor


def test_the_readme_links_to_binder_and_to_the_notebooks_that_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"https://mybinder\.org/v2/gh/[^\s)\"]+", readme)
    assert any("urlpath=voila" in link for link in links) and any("urlpath=lab" in link for link in links)
    for path in re.findall(r"urlpath=voila(?:%2F|/)render(?:%2F|/)([\w./%-]+\.ipynb)", readme):
        assert (ROOT / path.replace("%2F", "/")).is_file(), path
    for name in re.findall(r"`(notebooks/[\w.-]+\.ipynb)`", readme):
        assert (ROOT / name).is_file(), name
