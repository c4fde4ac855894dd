"""Install the chart widget's front end into this Python environment (``make`` does it).

The chart widget (`explorer.panels.common.chart.Chart`) is drawn by a small prebuilt JupyterLab
extension, ``explorer-chart``, built from ``js/`` into ``labextension/`` beside this module.
JupyterLab and Voila load every extension found under ``<prefix>/share/jupyter/labextensions``;
this copies ours there and puts plotly's own ``plotly.min.js`` (from the installed plotly
package) in its static folder, so the browser fetches plotly.js once over HTTP and caches it.

Usage: ``python -m explorer.panels.common.install [--prefix PREFIX]``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

__all__ = ["NAME", "install", "installed_at"]

NAME = "explorer-chart"
"""The extension's name (its folder under ``share/jupyter/labextensions``)."""

_BUILT = Path(__file__).resolve().parent / "labextension"


def installed_at(prefix: str | Path = sys.prefix) -> Path:
    """Where the extension lives under `prefix`.

    >>> installed_at("/opt/env").as_posix()
    '/opt/env/share/jupyter/labextensions/explorer-chart'
    """
    return Path(prefix) / "share" / "jupyter" / "labextensions" / NAME


def install(prefix: str | Path = sys.prefix) -> Path:
    """Copy the built extension and plotly.js under `prefix`, replacing an older copy.

    Returns:
        The installed extension's folder.

    Raises:
        FileNotFoundError: the built extension is missing (rebuild it with ``make labextension``).
    """
    from plotly.offline import get_plotlyjs

    if not (_BUILT / "package.json").is_file():
        raise FileNotFoundError(f"{_BUILT} holds no built extension; run `make labextension`")
    target = installed_at(prefix)
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(_BUILT, target)
    (target / "static" / "plotly.min.js").write_text(get_plotlyjs(), encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> None:
    """Command line: install, then print where."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", default=sys.prefix, help="environment prefix (default: this Python's)")
    args = parser.parse_args(argv)
    print(f"chart widget installed in {install(args.prefix)}")


if __name__ == "__main__":
    main()
