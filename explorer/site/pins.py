"""What the in-browser site is built from, pinned: the Pyodide runtime, the build tools, the wheels.

Every download is checked against the hash written here before it is used, and kept in the cache
folder (`explorer.panels.common.install.cache_dir`, under ``site/``), so a second build is offline
and a clean cache builds from the registries alone (npm for Pyodide, PyPI for the rest).

To move a pin: change the version, run ``make site`` once with ``EXPLORER_SITE_REPIN=1`` (it
prints the hashes of what it fetched instead of refusing them), check them against the
registry (``npm view pyodide@VERSION dist.integrity``, PyPI's file page), and write them here.
"""

from __future__ import annotations

__all__ = ["BROWSER_WHEELS", "FONTAWESOME_FILES", "FONTAWESOME_INTEGRITY", "FONTAWESOME_URL", "FONTAWESOME_VERSION",
           "PYODIDE_INTEGRITY", "PYODIDE_URL", "PYODIDE_VERSION", "PYTHON_VERSION",
           "RUNTIME_FILES", "TOOLS"]

PYODIDE_VERSION = "0.29.3"
"""The Pyodide runtime (CPython 3.13 in WebAssembly) the pinned kernel expects (0.29.x)."""
PYODIDE_URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
"""Its npm tarball (the runtime only: no package wheels are in it)."""
PYODIDE_INTEGRITY = ("sha512-22UBuhOJawj7vKUnS7/F3xK+515LJdjiMAHoCfuS6/PbHiOrSQVnYwDe+2sbVwiOZ3sMMexdXICew6NqOMQGgA==")
"""The tarball's npm ``integrity`` (``npm view pyodide@0.29.3 dist.integrity``)."""
RUNTIME_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "package.json")
"""The files of the tarball's ``package/`` folder the site serves (the lock file is written anew)."""
PYTHON_VERSION = "3.13"
"""The Python inside that Pyodide: the wheels are fetched for it (``--python-version``)."""

FONTAWESOME_VERSION = "5.15.4"
"""Font Awesome, for the widgets' icons: the Voici page links it from a CDN; the site serves it."""
FONTAWESOME_URL = f"https://registry.npmjs.org/@fortawesome/fontawesome-free/-/fontawesome-free-{FONTAWESOME_VERSION}.tgz"
"""Its npm tarball."""
FONTAWESOME_INTEGRITY = "sha512-eYm8vijH/hpzr/6/1CJ/V/Eb1xQFW2nnUKArb3z+yUWv7HTwj6M7SP957oMjfZjAHU6qpoNc2wQvIxBLWYa/Jg=="
"""The tarball's npm ``integrity``."""
FONTAWESOME_FILES = ("css/all.min.css", "css/v4-shims.min.css", "LICENSE.txt") + tuple(
    f"webfonts/fa-{face}.{kind}" for face in ("brands-400", "regular-400", "solid-900") for kind in ("woff2", "woff"))
"""What the site keeps of it (the stylesheets and the fonts browsers use; older formats left out)."""

TOOLS = ("voici-core==0.10.0", "jupyterlite-core==0.7.0", "jupyterlite-pyodide-kernel==0.7.0",
         "jupyterlab_widgets==3.0.17", "plotly==7.1.0")
"""The build tools, installed in a virtual environment of their own (``.venv-site``). Known to
work together: the 0.7.2 kernel leaves the page at "No kernel available". ``jupyterlab_widgets``
and ``plotly`` are there for their labextensions, which the build copies into the site (the
widgets' front end; plotly's renderer of figures shown in the lessons' lab)."""

BROWSER_WHEELS = (
    # (file name on PyPI, sha256): the kernel's own needs (IPython and what it imports, comm,
    # micropip) and the app's (ipywidgets, plotly); pure-Python wheels for any platform.
    ("asttokens-3.0.2-py3-none-any.whl", "9da13157f5b28becde0bd374fc677dcd3c290614264eff096f167c469cd9f933"),
    ("comm-0.2.3-py3-none-any.whl", "c615d91d75f7f04f095b30d1c1711babd43bdc6419c1be9886a85f2f4e489417"),
    ("decorator-5.3.1-py3-none-any.whl", "f47fe6fdbd2edd623ecfe36875d37aba411624e2670dd395dddae1358689bb3c"),
    ("executing-2.3.0-py3-none-any.whl", "736e859c9f8701f11fcf516856f26f562e04776387824b43a35a1dfe21c84122"),
    ("ipython-9.12.0-py3-none-any.whl", "0f2701e8ee86e117e37f50563205d36feaa259d2e08d4a6bc6b6d74b18ce128d"),
    ("ipython_pygments_lexers-1.1.1-py3-none-any.whl", "a9462224a505ade19a605f71f8fa63c2048833ce50abc86768a0d81d876dc81c"),
    ("ipywidgets-8.1.9-py3-none-any.whl", "f2b8cbcaae10252b809fbe4d7470db75c09b769a32cbf816d20e5ca6d3c5a79d"),
    ("jedi-0.20.1-py2.py3-none-any.whl", "0fb16d86c4a4c73c37ba518c77419975e30fcc620658a8d14fbb5720cdd34142"),
    ("jupyterlab_widgets-3.0.17-py3-none-any.whl", "40ac1e9955acf116c4d995d9bfa082d86ad9ec6d91c4f134827cf5e0a5eb75e0"),
    ("matplotlib_inline-0.2.2-py3-none-any.whl", "3c821cf1c209f59fb2d2d64abbf5b23b67bcb2210d663f9918dd851c6da1fcf6"),
    ("micropip-0.11.0-py3-none-any.whl", "467568ffe26c3aa5b53bad7a4722ebd91b0427cfd664efbe1b571530ded4a84b"),
    ("narwhals-2.29.0-py3-none-any.whl", "1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc"),
    ("packaging-26.4-py3-none-any.whl", "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2"),
    ("parso-0.8.7-py2.py3-none-any.whl", "a8926eb2a1b915486941fdbd31e86a4baf88fe8c210f25f2f35ecec5b574ca1c"),
    ("plotly-7.1.0-py3-none-any.whl", "dbb7fa18afce40d0a8e80d1bf162eceb3faa0ce5a77fe741ad09a74cf78f53f3"),
    ("prompt_toolkit-3.0.53-py3-none-any.whl", "01c0891d7f9237d5e339f7d3e42cdae80b7534abb1c7c0e3352efba6231492f2"),
    ("pure_eval-0.2.4-py3-none-any.whl", "96cae060a313cfaad51bb761278bfb0e62dc0248d9315a81173752dc546cd37a"),
    ("pygments-2.21.0-py3-none-any.whl", "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"),
    ("stack_data-0.6.3-py3-none-any.whl", "d5558e0c25a4cb0853cddad3d77da9891a08cb85dd9f9f91b9f8cd66e511e695"),
    ("traitlets-5.16.1-py3-none-any.whl", "f775618166caa0396c8e337099240f2bd3e5e917d203b2e6fbe21a58d3cb1f6b"),
    ("wcwidth-0.9.4-py3-none-any.whl", "901eace6d2dd25ebb917d0ce5db18e5c537e1504c905cf32f0d006c12098b05d"),
)
