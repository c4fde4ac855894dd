"""The Python packages of the in-browser kernel: fetched and verified, trimmed, written, locked.

Pyodide loads the packages named in its lock file (``pyodide-lock.json``) at start, in parallel
and without resolving anything, each checked against the lock's sha256. The site's lock holds
exactly what the app needs, every file served from the site itself:

- the pinned wheels of `explorer.site.pins.BROWSER_WHEELS` (fetched with ``pip download`` for
  Python 3.13 on any platform, checked against their pinned sha256, kept in the cache);
- the wheels the pinned Pyodide kernel ships (``piplite``, ``pyodide_kernel`` and its ``ipykernel``
  and ``widgetsnbextension`` stand-ins), taken from the kernel's labextension;
- ``sqlite3`` as an empty wheel (the kernel asks for it; IPython works without the module);
- the explorer itself, written here from the source tree without the parts no browser runs (the
  Voila server, this builder, the chart extension's JavaScript, which the site serves as an
  extension).

Wheels are trimmed of what is never imported in the browser (`TRIM`): plotly's own copy of
plotly.js and its example datasets (the charts are drawn by the chart extension's plotly.js).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import subprocess
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from explorer.site.pins import BROWSER_WHEELS, PYTHON_VERSION

__all__ = ["SKIPPED_SOURCES", "TRIM", "Wheel", "explorer_wheel", "fetch_wheels", "lock_entry", "stub_wheel",
           "trimmed", "wheel_name"]

TRIM = {
    # plotly: its own plotly.js copies and FigureWidget's front end (the chart extension draws),
    # sample data, and the modules the explorer never imports (express, figure_factory, matplotlylib)
    "plotly": ("plotly/package_data/plotly.min.js", "plotly/package_data/widgetbundle.js", "plotly/package_data/datasets/",
               "plotly/labextension/", "plotly-7.1.0.data/", "plotly/express/", "plotly/figure_factory/",
               "plotly/matplotlylib/"),
    # jedi (completion in the lessons' lab): the type stubs of third-party packages and Django
    # (the standard library's stubs stay: jedi cannot complete without those of builtins)
    "jedi": ("jedi/third_party/django-stubs/", "jedi/third_party/typeshed/stubs/"),
}
"""Per distribution, the paths (file or folder prefixes) dropped from its wheel."""

SKIPPED_SOURCES = ("serving/", "site/", "panels/common/labextension/")
"""Folders of the ``explorer`` package left out of its browser wheel (server, builder, JavaScript)."""

_EPOCH = (2026, 1, 1, 0, 0, 0)  # one date for every member: the same source gives the same wheel


@dataclass(frozen=True)
class Wheel:
    """One wheel for the site's lock.

    Attributes:
        name: The distribution's normalised name (``ipython``, ``prompt-toolkit``).
        version: Its version.
        file_name: The wheel's file name.
        data: The wheel's bytes.
    """

    name: str
    version: str
    file_name: str
    data: bytes


def wheel_name(file_name: str) -> tuple[str, str]:
    """The normalised distribution name and the version in a wheel's file name.

    >>> wheel_name("prompt_toolkit-3.0.53-py3-none-any.whl")
    ('prompt-toolkit', '3.0.53')
    """
    name, version = file_name.split("-")[:2]
    return re.sub(r"[-_.]+", "-", name).lower(), version


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch_wheels(cache: Path, pip: Sequence[str], pins: Iterable[tuple[str, str]] = BROWSER_WHEELS,
                 repin: bool = False) -> list[Wheel]:
    """The pinned wheels, from `cache` or fetched with `pip` (``pip download``), each verified.

    Args:
        cache: The folder the verified wheels are kept in.
        pip: The command that runs pip (``[python, "-m", "pip"]``).
        pins: (file name, sha256) pairs.
        repin: Accept any hash (and print it), to move pins (`explorer.site.pins`).

    Raises:
        ValueError: a wheel's sha256 is not its pin.
        subprocess.CalledProcessError: pip could not fetch a wheel.
    """
    cache.mkdir(parents=True, exist_ok=True)
    pins = list(pins)
    missing = [(f, h) for f, h in pins if not ((cache / f).is_file() and _sha256((cache / f).read_bytes()) == h)]
    if missing:
        wanted = ["==".join(wheel_name(f)) for f, _ in missing]
        subprocess.run([*pip, "download", "-q", "--no-deps", "--only-binary=:all:", "--platform", "any",
                        "--python-version", PYTHON_VERSION, "--implementation", "py", "--abi", "none",
                        "-d", str(cache), *wanted], check=True)
    wheels = []
    for file_name, pinned in pins:
        data = (cache / file_name).read_bytes()
        if _sha256(data) != pinned:
            if not repin:
                (cache / file_name).unlink()
                raise ValueError(f"{file_name}: sha256 {_sha256(data)} is not the pinned {pinned}")
            print(f'    ("{file_name}", "{_sha256(data)}"),')
        wheels.append(Wheel(*wheel_name(file_name), file_name, data))
    return wheels


def trimmed(wheel: Wheel, drop: Sequence[str]) -> Wheel:
    """`wheel` without the members whose path is or starts with one of `drop` (RECORD rewritten).

    >>> w = Wheel("w", "1", "w-1-py3-none-any.whl", _write_zip({"w/a.py": b"", "w/big/x": b"1"}))
    >>> sorted(zipfile.ZipFile(io.BytesIO(trimmed(w, ("w/big/",)).data)).namelist())
    ['w/a.py']
    """
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as source:
        kept = {info.filename: source.read(info) for info in source.infolist()
                if not info.is_dir() and not any(info.filename.startswith(d) for d in drop)}
    for path in [p for p in kept if p.endswith(".dist-info/RECORD")]:
        lines = kept[path].decode("utf-8").splitlines()
        kept[path] = "".join(line + "\n" for line in lines if line.split(",")[0] in kept).encode("utf-8")
    return Wheel(wheel.name, wheel.version, wheel.file_name, _write_zip(kept))


def _write_zip(files: dict[str, bytes]) -> bytes:
    """A deflated zip of `files` (path -> bytes), members in the given order, with one fixed date."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in files.items():
            info = zipfile.ZipInfo(path, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return out.getvalue()


def _with_metadata(name: str, version: str, files: dict[str, bytes], requires: Sequence[str] = ()) -> Wheel:
    """A pure-Python wheel of `files`, with its METADATA, WHEEL and RECORD."""
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires)
    files = {**files, f"{info}/METADATA": metadata.encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: explorer.site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = "".join(f"{p},sha256={_b64(hashlib.sha256(d).digest())},{len(d)}\n" for p, d in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    return Wheel(name, version, f"{name.replace('-', '_')}-{version}-py3-none-any.whl", _write_zip(files))


def _b64(digest: bytes) -> str:
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def stub_wheel(name: str, version: str = "1.0.0") -> Wheel:
    """An empty wheel that satisfies a request for `name` (and installs no module).

    >>> zipfile.ZipFile(io.BytesIO(stub_wheel("sqlite3").data)).namelist()[0]
    'sqlite3-1.0.0.dist-info/METADATA'
    """
    return _with_metadata(name, version, {})


def explorer_wheel(package: Path, version: str, requires: Sequence[str] = ("ipywidgets", "plotly")) -> Wheel:
    """The ``explorer`` package at `package` as a wheel for the browser (`SKIPPED_SOURCES` left out).

    Args:
        package: The ``explorer/`` source folder.
        version: The wheel's version.
        requires: What its metadata says it needs (the browser's set: no numpy, pandas, Voila).
    """
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(package).as_posix()
        if (not path.is_file() or "__pycache__" in relative or relative.endswith((".pyc", ".pyo"))
                or relative.startswith(SKIPPED_SOURCES)):
            continue
        files[f"explorer/{relative}"] = path.read_bytes()
    return _with_metadata("explorer", version, files, requires)


def _imports(wheel: Wheel) -> list[str]:
    """The top-level modules a wheel installs."""
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    return sorted(t.removesuffix(".py") for t in tops if ".dist-info" not in t and not t.endswith(".data"))


def lock_entry(wheel: Wheel) -> dict[str, object]:
    """The wheel's entry in Pyodide's lock file (no dependencies: the site names every package to load)."""
    return {"name": wheel.name, "version": wheel.version, "file_name": wheel.file_name, "install_dir": "site",
            "sha256": _sha256(wheel.data), "package_type": "package", "imports": _imports(wheel),
            "depends": [], "unvendored_tests": False, "shared_library": False}
