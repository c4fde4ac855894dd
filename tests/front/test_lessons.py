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
from collections.abc import Callable
from pathlib import Path
from typing import Any

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
    # Binder installs the optional accelerators too (numpy for best play, pandas for to_frame)
    extras = project["optional-dependencies"]["fast"] + project["optional-dependencies"]["frames"]
    wanted = [Requirement(d) for d in project["dependencies"] + extras] + [Requirement("jupytext"), Requirement("ipykernel")]
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


# --- the lessons without pandas (JupyterLite's in-browser lab has none) ------------------------------

LESSON_PYS = [p.with_suffix(".py") for p in LESSONS]

RUN_BLOCKED = """
import runpy, sys
sys.path.insert(0, sys.argv[1])
import tests.blocked_imports  # numpy and pandas now fail to import, as in the in-browser build
runpy.run_path(sys.argv[2], run_name="__main__")
print("pandas" in sys.modules, "numpy" in sys.modules)
"""


@pytest.mark.parametrize("path", LESSON_PYS, ids=[p.name for p in LESSON_PYS])
def test_each_lesson_runs_without_numpy_or_pandas(path: Path) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-c", RUN_BLOCKED, str(ROOT), str(path)], cwd=NOTEBOOKS,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{path.name} fails without numpy and pandas:\n{run.stderr[-3000:]}"
    assert run.stdout.strip().splitlines()[-1] == "False False"


def _lesson_calls() -> dict[str, Callable[[], Any]]:
    """The calls the lessons make, each giving a table (run twice: with pandas and without)."""
    from explorer import lessons, resolve

    battle, troll = lessons.example("fire-vs-hill.json"), lessons.example("arcadia-troll.json")
    report, challenge = resolve(battle), lessons.example("agot-power-challenge.json")
    return {
        "compare": lambda: lessons.compare({"as is": battle, "one more die": lessons.changed(
            battle, {"attacker.pool.basic": 6})}, {"damage": "defender.means.damage_taken", "wiped": "defender.wiped_out"}),
        "vary": lambda: lessons.vary(troll, "attack.kind", ["melee", "ranged"], {"hits": "means.hits", "kill": "kill"}),
        "vary over a range": lambda: lessons.vary(challenge, "challenge.defenders[0].str", range(0, 3),
                                                  {"winner": "winner", "power": "power_after.attacker"}),
        "grid": lambda: lessons.grid(troll, "attack.dice", range(2, 4), "attack.rerolls", range(0, 2), "kill"),
        "distributions": lambda: lessons.distributions(report, {"A": "attacker.ordning_points",
                                                                "D": "defender.ordning_points"}),
        "fates": lambda: lessons.fates(report, "defender"),
        "records": lambda: lessons.records(resolve(lessons.example("agot-round.json")), "challenges",
                                           ["attacker", "type", "attackers", "winner_player", "dropped"]),
        "records with headers": lambda: lessons.records(resolve(lessons.example("agot-round.json")), "challenges",
                                                        {"challenge": "type", "winner": "winner_player"}),
        "chances": lambda: lessons.chances(resolve(troll), {"the troll dies": "kill", "overkilled": "overkill"}),
        "grid as percent": lambda: lessons.grid(troll, "attack.dice", range(2, 4), "attack.rerolls", range(0, 2),
                                                "kill", as_percent=True),
        "distributions with a cut": lambda: lessons.distributions(resolve(troll), {"hits": "hits"}, cut=0.01),
    }


@pytest.mark.parametrize("name", list(_lesson_calls()))
def test_without_pandas_a_lesson_table_reads_as_the_dataframe(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from explorer.lesson_table import Table

    pd = pytest.importorskip("pandas")
    call = _lesson_calls()[name]
    frame = call()
    with monkeypatch.context() as blocked:
        blocked.setitem(sys.modules, "pandas", None)  # import pandas now fails, as where it is not installed
        table = call()
    assert isinstance(frame, pd.DataFrame) and isinstance(table, Table)
    assert table.to_csv() == frame.to_csv() and table.round(3).to_csv() == frame.round(3).to_csv()
    assert list(table.columns) == list(frame.columns) and list(table.index) == list(frame.index)
    assert table.index_name == frame.index.name and table.shape == frame.shape
    first, label = frame.columns[0], frame.index[0]
    assert table.loc[label].to_dict() == {k: (None if v != v else v) for k, v in frame.loc[label].to_dict().items()}
    if name != "records":
        assert table.values == frame.values.tolist() and table.to_dict() == frame.to_dict()
    if all(isinstance(v, float) for v in table[first]):
        assert table[first].idxmax() == frame[first].idxmax() and table[first].idxmin() == frame[first].idxmin()
    assert "<table" in table._repr_html_() and str(label) in repr(table)


def test_a_lesson_table_escapes_what_it_shows() -> None:
    from explorer.lesson_table import Table

    table = Table((("<b>bold</b>", 0.5),), ("text", "p & q"), ("<i>",), index_name="a<b")
    shown = table._repr_html_()
    assert "<b>" not in shown and "&lt;b&gt;bold&lt;/b&gt;" in shown and "p &amp; q" in shown and "a&lt;b" in shown
    assert table["text"].tolist() == ["<b>bold</b>"] and table[["p & q"]].columns == ("p & q",)
