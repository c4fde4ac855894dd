"""The in-browser site as built (`explorer.site.build`): every file inside, locked, and importable.

The site is built once into a temporary folder (from the download cache; a clean cache fetches the
pinned files from npm and PyPI). Checked here, without a browser (`tests/browser/test_site.py`
opens it):

- the kernel's settings point at the site's own runtime, with no PyPI fallback, and preload
  every package of the lock file; each locked wheel is in the site with the lock's sha256;
- no page loads a stylesheet, script or font from another origin;
- the explorer's browser wheel leaves out the server and the builder, needs neither numpy nor
  pandas, and, unpacked with the trimmed plotly, builds the app and a chart of every game in a
  Python where numpy and pandas cannot be imported.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from explorer.site.build import KERNEL_PLUGIN, ROOT, build, ensure_tools


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    output = tmp_path_factory.mktemp("site") / "site"
    build(output, ensure_tools(ROOT / ".venv-site"))
    yield output


def _settings(site: Path) -> dict[str, object]:
    config = json.loads((site / "jupyter-lite.json").read_text(encoding="utf-8"))["jupyter-config-data"]
    settings: dict[str, object] = config["litePluginSettings"][KERNEL_PLUGIN]
    return settings


def test_the_kernel_loads_everything_from_the_site(site: Path) -> None:
    settings = _settings(site)
    assert settings["pyodideUrl"] == "./static/pyodide/pyodide.js"
    assert settings["disablePyPIFallback"] is True
    assert all(url.startswith("./") for url in settings["pipliteUrls"])  # type: ignore[attr-defined]
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    preloaded = settings["loadPyodideOptions"]["packages"]  # type: ignore[index]
    assert sorted(preloaded) == sorted(lock["packages"])
    # what the kernel would otherwise fetch from PyPI at start is all preloaded
    for needed in ("micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython",
                   "ipywidgets", "plotly", "explorer"):
        assert needed in lock["packages"], needed
    for name, entry in lock["packages"].items():
        wheel = site / "static" / "pyodide" / entry["file_name"]
        assert wheel.is_file(), name
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
    for runtime in ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"):
        assert (site / "static" / "pyodide" / runtime).stat().st_size > 10_000, runtime


_LOADED = re.compile(r"<(?:link|script)[^>]*(?:href|src)=[\"'](https?:)?//", re.IGNORECASE)


def test_no_page_loads_anything_from_elsewhere(site: Path) -> None:
    pages = list(site.rglob("*.html"))
    assert len(pages) > 5
    offenders = [str(p.relative_to(site)) for p in pages if _LOADED.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    assert (site / "static" / "fontawesome" / "css" / "all.min.css").is_file()
    assert (site / "static" / "fontawesome" / "webfonts" / "fa-solid-900.woff2").is_file()
    forward = (site / "index.html").read_text(encoding="utf-8")
    assert "voici/render/explorer.html' + location.search" in forward  # a share link to the root still opens


def test_the_site_holds_the_app_and_the_lessons(site: Path) -> None:
    assert (site / "voici" / "render" / "explorer.html").is_file()
    assert (site / "lab" / "index.html").is_file()
    lessons = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    served = {p.name for p in (site / "files").glob("*.ipynb")}
    assert lessons <= served
    assert {p.name for p in (ROOT / "examples").iterdir()} <= {p.name for p in (site / "files" / "examples").iterdir()}
    page = (site / "voici" / "render" / "explorer.html").read_text(encoding="utf-8")
    assert "explorer.site: what the page is doing while Python starts" in page


def _wheel(site: Path, name: str) -> Path:
    lock = json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return site / "static" / "pyodide" / lock["packages"][name]["file_name"]


def test_the_explorer_wheel_is_the_browser_one(site: Path) -> None:
    with zipfile.ZipFile(_wheel(site, "explorer")) as archive:
        names = archive.namelist()
        metadata = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "explorer/games/assault_of_the_giants/__init__.py" in names
    assert not [n for n in names if n.startswith(("explorer/serving/", "explorer/site/", "explorer/panels/common/labextension/"))]
    assert not [n for n in names if "__pycache__" in n]
    requires = re.findall(r"^Requires-Dist: (.*)$", metadata, re.MULTILINE)
    assert sorted(requires) == ["ipywidgets", "plotly"]


_IN_A_BROWSER_LIKE_PYTHON = """
import sys
sys.path.insert(0, {unpacked!r})
import tests.blocked_imports  # numpy and pandas cannot be imported, as in the browser
import explorer, plotly
assert explorer.__file__.startswith({unpacked!r}), explorer.__file__
assert plotly.__file__.startswith({unpacked!r}), plotly.__file__
from explorer.app import Explorer
app = Explorer()
from explorer.lessons import example
from explorer.resolver import resolve
from explorer.charts import assault_of_the_giants as aotg, arcadia_quest as aq
report = resolve(example("fire-vs-hill.json"))
print(len(report.to_text()) > 0, type(aotg).__name__, type(aq).__name__)
"""


def test_the_browser_wheels_run_without_numpy_or_pandas(site: Path, tmp_path: Path) -> None:
    unpacked = tmp_path / "site-packages"
    for name in ("explorer", "plotly", "narwhals"):
        with zipfile.ZipFile(_wheel(site, name)) as archive:
            archive.extractall(unpacked)
    assert not (unpacked / "plotly" / "package_data" / "plotly.min.js").exists()  # trimmed
    done = subprocess.run([sys.executable, "-c", _IN_A_BROWSER_LIKE_PYTHON.format(unpacked=str(unpacked))],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[0] == "True"
