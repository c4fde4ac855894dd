"""Build the in-browser site: ``python -m explorer.site.build [--output build/site]`` (``make site``).

The output folder is a static site, served by any plain file server:

- ``index.html``: forwards to the app (keeping a share link's ``?game=...&scenario=...``);
- ``voici/render/explorer.html``: the app, ``notebooks/explorer.ipynb`` run by Voici (Voila for
  JupyterLite) in a Python kernel inside the browser (Pyodide);
- ``lab/``: a JupyterLite lab on the lessons (``notebooks/*.ipynb``, with ``examples/``);
- ``static/pyodide/``: the Pyodide runtime and every wheel the kernel loads, with the lock file
  naming them (`explorer.site.wheels`); ``extensions/``: the widgets' and the chart's front ends,
  plotly.js included.

Nothing is fetched from anywhere else at run time. The build needs the pinned tools
(`explorer.site.pins.TOOLS`, in their own environment: ``make site`` makes ``.venv-site``) and the
downloads, taken from the cache when they are there and verified either way.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from explorer.panels.common import install
from explorer.site import wheels as wheel_kit
from explorer.site.pages import landing_page, loading_script
from explorer.site.pins import (
    FONTAWESOME_FILES,
    FONTAWESOME_INTEGRITY,
    FONTAWESOME_URL,
    PYODIDE_INTEGRITY,
    PYODIDE_URL,
    PYODIDE_VERSION,
    RUNTIME_FILES,
    TOOLS,
)

__all__ = ["KERNEL_PLUGIN", "ROOT", "Site", "build", "ensure_tools", "kernel_settings", "main"]

ROOT = Path(__file__).resolve().parents[2]
"""The repository (``notebooks/``, ``examples/``, ``explorer/``)."""
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
"""The pyodide kernel's settings key in ``jupyter-lite.json``."""
_KERNEL_WHEELS = "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
_FA5_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/"
_FA4_LINK = re.compile(r'<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/npm/font-awesome@4[^"]*" type="text/css" />')
_KERNEL_OWN = ("piplite", "pyodide_kernel", "ipykernel", "widgetsnbextension-4")


@dataclass(frozen=True)
class Site:
    """What a build made.

    Attributes:
        output: The site's folder.
        packages: The packages the kernel loads at start, by name.
        files: How many files the site holds.
        size: Their total size in bytes.
    """

    output: Path
    packages: tuple[str, ...]
    files: int
    size: int


def kernel_settings(packages: list[str]) -> dict[str, object]:
    """The pyodide kernel's settings: the runtime and every package from the site, no PyPI.

    >>> kernel_settings(["micropip"])["loadPyodideOptions"]
    {'packages': ['micropip']}
    """
    return {"pyodideUrl": "./static/pyodide/pyodide.js", "disablePyPIFallback": True, "pipliteUrls": [],
            "loadPyodideOptions": {"packages": packages}}


def _runtime(cache: Path) -> dict[str, bytes]:
    """The Pyodide runtime's files, from the pinned and verified npm tarball."""
    data, source = install.fetch_verified(PYODIDE_URL, PYODIDE_INTEGRITY, cache, limit=64 << 20, timeout=300.0)
    files = install.members(data, tuple(f"package/{name}" for name in RUNTIME_FILES))
    print(f"Pyodide {PYODIDE_VERSION}: {sum(map(len, files.values())) / 1e6:.1f} MB, {source}")
    return {name.removeprefix("package/"): body for name, body in files.items()}


def _fontawesome(cache: Path, output: Path) -> None:
    """Font Awesome from the pinned tarball into ``static/fontawesome/``, and the pages pointed at it."""
    data, _ = install.fetch_verified(FONTAWESOME_URL, FONTAWESOME_INTEGRITY, cache, limit=16 << 20, timeout=120.0)
    files = install.members(data, tuple(f"package/{name}" for name in FONTAWESOME_FILES))
    for name, body in files.items():
        path = output / "static" / "fontawesome" / name.removeprefix("package/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    for page in (output / "voici").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        local = "../" * (len(page.relative_to(output).parts) - 1) + "static/fontawesome/"
        fixed = text.replace(_FA5_CDN, local)  # the render pages link Font Awesome 5
        fixed = _FA4_LINK.sub(f'<link rel="stylesheet" href="{local}css/all.min.css" type="text/css" />\n'
                              f'<link rel="stylesheet" href="{local}css/v4-shims.min.css" type="text/css" />', fixed)
        if fixed != text:  # the tree page links Font Awesome 4, which 5 with its v4 shims draws
            page.write_text(fixed, encoding="utf-8")


def _kernel_own(tools: Path) -> list[wheel_kit.Wheel]:
    """The wheels the pinned kernel ships (piplite, its kernel, its ipykernel/widgetsnbextension stand-ins)."""
    folder = tools / _KERNEL_WHEELS
    found = [p for p in sorted(folder.glob("*.whl")) if p.name.startswith(_KERNEL_OWN)]
    if len(found) != len(_KERNEL_OWN):
        raise FileNotFoundError(f"{folder}: expected the kernel's wheels {_KERNEL_OWN}, found {[p.name for p in found]}")
    return [wheel_kit.Wheel(*wheel_kit.wheel_name(p.name), p.name, p.read_bytes()) for p in found]


def ensure_tools(prefix: Path, python: str = sys.executable) -> Path:
    """The build tools' environment at `prefix`, made (a virtual environment with `TOOLS`) if missing.

    A stamp file names the pins installed; a changed pin reinstalls. The tools live apart from the
    project's environment: the lite kernel's extension must not reach the server's JupyterLab.
    """
    stamp = prefix / ".explorer-site-tools"
    wanted = "\n".join(TOOLS)
    if stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted and (prefix / "bin" / "voici").is_file():
        return prefix
    if not (prefix / "bin" / "python").is_file():
        subprocess.run([python, "-m", "venv", str(prefix)], check=True)
    subprocess.run([str(prefix / "bin" / "python"), "-m", "pip", "install", "-q", *TOOLS], check=True)
    stamp.write_text(wanted, encoding="utf-8")
    return prefix


def _all_wheels(tools: Path, cache: Path, repin: bool) -> list[wheel_kit.Wheel]:
    pip = [str(tools / "bin" / "python"), "-m", "pip"]
    fetched = wheel_kit.fetch_wheels(cache / "wheels", pip, repin=repin)
    chosen = [wheel_kit.trimmed(w, wheel_kit.TRIM[w.name]) if w.name in wheel_kit.TRIM else w for w in fetched]
    version = _project_version()
    return [*chosen, *_kernel_own(tools), wheel_kit.stub_wheel("sqlite3"),
            wheel_kit.explorer_wheel(ROOT / "explorer", version)]


def _project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("version"):
            return line.split("=", 1)[1].strip().strip('"')
    raise ValueError("pyproject.toml names no version")


def _contents(folder: Path) -> None:
    """The lessons and the app notebook, and the example scenarios they read.

    The notebooks name the ``python3`` kernel; the site's is ``python`` (Pyodide), so each copy
    names that one (the lab would otherwise ask which kernel to start).
    """
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        content = json.loads(notebook.read_text(encoding="utf-8"))
        content.setdefault("metadata", {})["kernelspec"] = {"name": "python", "display_name": "Python (Pyodide)",
                                                            "language": "python"}
        (folder / notebook.name).write_text(json.dumps(content, indent=1), encoding="utf-8")
    shutil.copytree(ROOT / "examples", folder / "examples")


def build(output: Path, tools: Path, cache: Path | None = None, repin: bool = False) -> Site:
    """Build the site into `output` (replaced), with the tools of the environment `tools`.

    Args:
        output: The site's folder (``build/site``).
        tools: The prefix of the environment holding `explorer.site.pins.TOOLS` (``.venv-site``).
        cache: The download cache (default: ``site/`` in `install.cache_dir`).
        repin: Print the hashes of fetched files instead of refusing new ones.
    """
    cache = cache or install.cache_dir() / "site"
    runtime = _runtime(cache)
    packages = _all_wheels(tools, cache, repin)
    install.install(tools, say=print)  # the chart's front end and plotly.js, where the build finds extensions
    with tempfile.TemporaryDirectory(prefix="explorer-site-") as work:
        lite, contents = Path(work) / "lite", Path(work) / "contents"
        lite.mkdir()
        contents.mkdir()
        _contents(contents)
        names = [w.name for w in packages]
        config = {"jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: kernel_settings(names)}}}
        (lite / "jupyter-lite.json").write_text(json.dumps(config, indent=1), encoding="utf-8")
        if output.exists():
            shutil.rmtree(output)
        subprocess.run([str(tools / "bin" / "voici"), "build", "--lite-dir", str(lite), "--contents", str(contents),
                        "--output-dir", str(output.resolve()), "--apps", "lab", "--no-sourcemaps"], check=True,
                       stdout=subprocess.DEVNULL, cwd=work)  # its task database (.jupyterlite.doit.db) stays in `work`
    target = output / "static" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name, body in runtime.items():
        (target / name).write_bytes(body)
    lock = {"info": {"arch": "wasm32", "platform": "emscripten_4_0_9", "python": "3.13.2",
                     "version": PYODIDE_VERSION, "abi_version": "2025_0"},
            "packages": {w.name: wheel_kit.lock_entry(w) for w in packages}}
    for w in packages:
        (target / w.file_name).write_bytes(w.data)
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    (output / "index.html").write_text(landing_page(), encoding="utf-8")
    _add_loading(output)
    _fontawesome(cache, output)
    files = [p for p in output.rglob("*") if p.is_file()]
    return Site(output, tuple(names), len(files), sum(p.stat().st_size for p in files))


def _add_loading(output: Path) -> None:
    """Put the start-up progress line into every Voici page (`explorer.site.pages.loading_script`)."""
    for page in (output / "voici" / "render").glob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(text.replace("</body>", loading_script() + "</body>", 1), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Command line: build, then print what was made."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--tools", type=Path, default=ROOT / ".venv-site", help="the build tools' environment")
    parser.add_argument("--repin", action="store_true", help="print new hashes instead of refusing them")
    args = parser.parse_args(argv)
    site = build(args.output, ensure_tools(args.tools), repin=args.repin)
    print(f"site built in {site.output}: {site.files} files, {site.size / 1e6:.1f} MB; "
          f"the kernel loads {len(site.packages)} packages at start")
    return 0


if __name__ == "__main__":
    sys.exit(main())
