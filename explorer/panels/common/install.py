"""Install the chart widget's front end into this Python environment (``make setup`` does it).

The chart widget (`explorer.panels.common.chart.Chart`) is drawn by a small prebuilt JupyterLab
extension, ``explorer-chart``, built from ``js/`` into ``labextension/`` beside this module.
JupyterLab and Voila load every extension found under ``<prefix>/share/jupyter/labextensions``;
this copies ours there and puts plotly.js in its static folder as ``static/plotly.min.js`` (the
name ``js/src/index.js`` and the HTML export load), so the browser fetches it once over HTTP.

**Which plotly.js.** Every page loads and evaluates the whole file. Plotly's full bundle (the copy
inside the plotly Python package, 4.8 MB) costs about 0.9 CPU-seconds per fresh page; the app only
draws ``bar``, ``scatter`` and ``heatmap`` traces (``grep -rn '"type"' explorer/charts``), uses
``Plotly.react`` and ``Plotly.toImage`` (PNG export), all of which plotly's official partial
bundle ``plotly.js-cartesian-dist-min`` holds at 1.5 MB (about 0.35 CPU-seconds). So:

1. ``EXPLORER_PLOTLY=full`` in the environment installs plotly's full copy, for anyone drawing
   other trace types (pie, 3-D, maps...); unset or ``cartesian`` asks for the partial bundle.
2. The npm tarball of the pinned version (`CARTESIAN_VERSION`, `CARTESIAN_URL`) is taken from
   the cache folder (``$EXPLORER_CACHE``, else ``$XDG_CACHE_HOME/explorer``, else
   ``~/.cache/explorer``) or downloaded (about 0.5 MB, 30 s at most), and its SHA-512 is checked
   against the pinned npm ``integrity`` (`CARTESIAN_INTEGRITY`) before anything is read from it;
   a verified download is cached, so later runs stay offline, and the cache is checked again on
   every use (a damaged copy is dropped and fetched again).
3. Only two regular files are read from it, by exact name: ``package/plotly-cartesian.min.js``
   (installed as ``static/plotly.min.js``) and ``package/LICENSE`` (MIT, kept beside it as
   ``static/plotly-LICENSE.txt``). Nothing is extracted by a member's own name, so links and
   ``../`` paths cannot write anywhere; sizes are capped.
4. Any failure (offline, a wrong hash, a broken tarball, an unwritable cache is not one) falls
   back to plotly's full copy. Either way one line says which bundle went in and why.

**Versions.** The pin matches the plotly.js inside the plotly Python package this project was
built with (plotly 7.1.0 ships plotly.js 4.1.1). The figures reach the browser as plain JSON, so
the pinned bundle is used even when an upgraded plotly package ships another plotly.js; the line
printed then names both versions, and the pin should follow (``npm view
plotly.js-cartesian-dist-min@VERSION dist`` gives the new ``tarball`` and ``integrity``).

Usage: ``python -m explorer.panels.common.install [--prefix PREFIX]``.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import os
import shutil
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NamedTuple

__all__ = ["CARTESIAN_INTEGRITY", "CARTESIAN_URL", "CARTESIAN_VERSION", "NAME", "Bundle", "cache_dir",
           "fetch_verified", "install", "installed_at", "members", "plotly_bundle", "verified"]

NAME = "explorer-chart"
"""The extension's name (its folder under ``share/jupyter/labextensions``)."""

# The partial bundle with the cartesian trace types (bar, scatter, heatmap, histogram, box...):
# every trace our charts draw, at a third of the full bundle's size and load time.
CARTESIAN_VERSION = "4.1.1"
"""The pinned ``plotly.js-cartesian-dist-min`` version (the plotly.js inside plotly 7.1.0)."""
CARTESIAN_URL = ("https://registry.npmjs.org/plotly.js-cartesian-dist-min/-/"
                 f"plotly.js-cartesian-dist-min-{CARTESIAN_VERSION}.tgz")
"""Its npm tarball (``npm view plotly.js-cartesian-dist-min@4.1.1 dist.tarball``)."""
CARTESIAN_INTEGRITY = "sha512-o8GrFeusncwBIxbBynRJpY4pkgVB6caM+JLpwrLYbbsO7dZ8FJ+SVN2Fr+L7kiG/Z6w4P5O0Jus/Qr5EefHVeg=="
"""The tarball's npm ``integrity`` (SHA-512, base64), checked before the tarball is opened."""

_SCRIPT = "package/plotly-cartesian.min.js"
_LICENSE = "package/LICENSE"
_MAX_TARBALL = 8 << 20  # the real one is 0.5 MB
_MAX_SCRIPT = 16 << 20  # 1.5 MB
_MAX_WALK = 64 << 20  # uncompressed bytes of all members, so a broken archive cannot run on
_TIMEOUT = 30.0
_BUILT = Path(__file__).resolve().parent / "labextension"


class Bundle(NamedTuple):
    """The plotly.js chosen for the page, and why."""

    kind: str
    """``"cartesian"`` or ``"full"``."""
    script: bytes
    """The contents of ``static/plotly.min.js``."""
    license: bytes | None
    """The licence text to keep beside it (``static/plotly-LICENSE.txt``), if any."""
    note: str
    """One line for the person installing: which bundle and why."""


def installed_at(prefix: str | Path = sys.prefix) -> Path:
    """Where the extension lives under `prefix`.

    >>> installed_at("/opt/env").as_posix()
    '/opt/env/share/jupyter/labextensions/explorer-chart'
    """
    return Path(prefix) / "share" / "jupyter" / "labextensions" / NAME


def cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The folder the verified tarball is kept in: ``$EXPLORER_CACHE``, else the user's cache.

    >>> cache_dir({"EXPLORER_CACHE": "/somewhere"}).as_posix()
    '/somewhere'
    >>> cache_dir({"XDG_CACHE_HOME": "/cache"}).as_posix()
    '/cache/explorer'
    """
    if environ.get("EXPLORER_CACHE"):
        return Path(environ["EXPLORER_CACHE"])
    return Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "explorer"


def verified(data: bytes, integrity: str) -> bool:
    """Whether `data` has the npm ``integrity`` string's SHA-512 (``sha512-<base64>``).

    >>> verified(b"", "sha512-" + base64.b64encode(hashlib.sha512(b"").digest()).decode())
    True
    >>> verified(b"x", "sha512-" + base64.b64encode(hashlib.sha512(b"").digest()).decode())
    False
    >>> verified(b"", "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=")  # only SHA-512 is trusted
    False
    """
    algorithm, _, digest = integrity.partition("-")
    return algorithm == "sha512" and base64.b64encode(hashlib.sha512(data).digest()).decode() == digest


def _download(url: str, timeout: float = _TIMEOUT, limit: int = _MAX_TARBALL) -> bytes:
    """The body at `url`, in `timeout` seconds overall and `limit` bytes at most."""
    deadline = time.monotonic() + timeout
    chunks: list[bytes] = []
    size = 0
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 (a constant https URL)
        while chunk := response.read(1 << 16):
            size += len(chunk)
            if size > limit:
                raise ValueError(f"download larger than {limit} bytes")
            if time.monotonic() > deadline:
                raise TimeoutError(f"download took over {timeout:.0f} s")
            chunks.append(chunk)
    return b"".join(chunks)


def fetch_verified(url: str, integrity: str, cache: Path, limit: int = _MAX_TARBALL,
                   timeout: float = _TIMEOUT) -> tuple[bytes, str]:
    """The file at `url` whose SHA-512 is `integrity`, from `cache` or downloaded (then cached).

    A cached copy is checked on every use (a damaged one is dropped and fetched again); an
    unwritable cache costs only a download next time.

    Returns:
        The verified bytes, and where they came from (for the one line printed).

    Raises:
        ValueError: the download is larger than `limit` or its SHA-512 is not the pinned one.
        OSError: the download failed (offline, refused, timed out).
    """
    cached = cache / url.rsplit("/", 1)[1]
    if cached.is_file() and cached.stat().st_size <= limit:
        data = cached.read_bytes()
        if verified(data, integrity):
            return data, f"from the cache {cached.parent}"
    cached.unlink(missing_ok=True)  # damaged or absent: fetch again
    data = _download(url, timeout, limit)
    if not verified(data, integrity):
        raise ValueError(f"the download's SHA-512 is not the pinned {integrity[:20]}...")
    partial: Path | None = None
    try:  # keep it for the next run
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cache, prefix=".download-", delete=False) as out:
            partial = Path(out.name)
            out.write(data)
        os.replace(partial, cached)
    except OSError:
        if partial is not None:
            partial.unlink(missing_ok=True)
    return data, "downloaded and verified"


def _tarball(cache: Path) -> tuple[bytes, str]:
    """The verified plotly.js tarball and where it came from (`fetch_verified`)."""
    return fetch_verified(CARTESIAN_URL, CARTESIAN_INTEGRITY, cache)


def members(data: bytes, wanted: tuple[str, ...] = (_SCRIPT, _LICENSE)) -> dict[str, bytes]:
    """The regular files named exactly `wanted` in the gzipped tarball `data`, read into memory.

    Other members (links, folders, ``../`` or absolute paths, anything not asked for) are skipped
    unread, never written anywhere; a wanted name given twice or over the size cap is refused.

    Raises:
        ValueError: a wanted file is missing, duplicated or too large.
        tarfile.TarError: `data` is no gzipped tarball.
    """
    found: dict[str, bytes] = {}
    walked = 0
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive:
            walked += max(member.size, 0)
            if walked > _MAX_WALK:
                raise ValueError(f"the tarball holds over {_MAX_WALK} bytes")
            if member.name not in wanted or not member.isreg():
                continue
            if member.name in found:
                raise ValueError(f"{member.name} is in the tarball twice")
            if member.size > _MAX_SCRIPT:
                raise ValueError(f"{member.name} is larger than {_MAX_SCRIPT} bytes")
            stream = archive.extractfile(member)
            assert stream is not None  # a regular file
            found[member.name] = stream.read(_MAX_SCRIPT + 1)[:_MAX_SCRIPT]
    missing = [name for name in wanted if name not in found]
    if missing:
        raise ValueError(f"the tarball lacks {', '.join(missing)}")
    return found


def _one_line(error: BaseException) -> str:
    """An exception as one short line.

    >>> _one_line(ValueError("bad\\n  hash"))
    'ValueError: bad hash'
    """
    return f"{type(error).__name__}: {' '.join(str(error).split())}"[:200]


def plotly_bundle(choice: str | None = None) -> Bundle:
    """The plotly.js to install: the pinned cartesian bundle when it can be had, else the full one.

    Args:
        choice: ``"cartesian"`` or ``"full"``; by default ``$EXPLORER_PLOTLY``, else cartesian.
            Any other value installs the full bundle (it draws everything) and says so.
    """
    from plotly.offline import get_plotlyjs, get_plotlyjs_version

    choice = (os.environ.get("EXPLORER_PLOTLY", "") if choice is None else choice).strip().lower()
    shipped = get_plotlyjs_version()

    def full(why: str) -> Bundle:
        script = get_plotlyjs().encode("utf-8")
        return Bundle("full", script, None, f"plotly.js: plotly's full bundle {shipped} "
                                            f"({len(script) / 1e6:.1f} MB) because {why}")

    if choice == "full":
        return full("EXPLORER_PLOTLY=full")
    if choice not in ("", "cartesian"):
        return full(f"EXPLORER_PLOTLY={choice!r} is neither 'cartesian' nor 'full'")
    try:
        data, source = _tarball(cache_dir())
        files = members(data)
        script = files[_SCRIPT]
        if f"v{CARTESIAN_VERSION}".encode() not in script[:400]:
            raise ValueError(f"{_SCRIPT} does not announce plotly.js v{CARTESIAN_VERSION}")
    except Exception as error:  # offline, a wrong hash, a broken tarball: the full copy always works
        return full(f"the cartesian bundle {CARTESIAN_VERSION} could not be had ({_one_line(error)})")
    versions = "" if shipped == CARTESIAN_VERSION else f"; the plotly package ships plotly.js {shipped}"
    return Bundle("cartesian", script, files[_LICENSE],
                  f"plotly.js: cartesian bundle {CARTESIAN_VERSION} ({len(script) / 1e6:.1f} MB, "
                  f"bar/scatter/heatmap; EXPLORER_PLOTLY=full for all trace types), {source}{versions}")


def install(prefix: str | Path = sys.prefix, *, say: Callable[[str], object] = print) -> Path:
    """Copy the built extension and plotly.js under `prefix`, replacing an older copy.

    Args:
        prefix: the environment's prefix.
        say: gets the one line naming the plotly.js bundle installed and why (`plotly_bundle`).

    Returns:
        The installed extension's folder.

    Raises:
        FileNotFoundError: the built extension is missing (rebuild it with ``make labextension``).
    """
    if not (_BUILT / "package.json").is_file():
        raise FileNotFoundError(f"{_BUILT} holds no built extension; run `make labextension`")
    bundle = plotly_bundle()
    target = installed_at(prefix)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(_BUILT, target)
    (target / "static" / "plotly.min.js").write_bytes(bundle.script)
    if bundle.license is not None:
        (target / "static" / "plotly-LICENSE.txt").write_bytes(bundle.license)
    say(bundle.note)
    return target


def main(argv: list[str] | None = None) -> None:
    """Command line: install, then print which plotly.js and where."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", default=sys.prefix, help="environment prefix (default: this Python's)")
    args = parser.parse_args(argv)
    print(f"chart widget installed in {install(args.prefix)}")


if __name__ == "__main__":
    main()
