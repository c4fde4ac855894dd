"""What Binder does, here: a fresh environment from ``binder/`` only, the lessons run, the app opened.

mybinder.org (repo2docker) builds an image from ``binder/``: Python from ``runtime.txt``, then
``pip install -r binder/requirements.txt``, then ``binder/postBuild``; it then runs a Jupyter
server at the repository's root, with Voila as a server extension, and sends people to
``/voila/render/notebooks/explorer.ipynb`` (the app) or ``/lab/tree/notebooks`` (the lessons).
This test does the same on this machine, with nothing from the project's ``.venv``:

1. a new virtual environment in a temporary folder; ``pip install -r binder/requirements.txt``
   (pip's cache makes a second run quick); ``binder/postBuild`` run as repo2docker runs it;
2. every notebook under ``notebooks/`` executed with that environment's Python (nbconvert);
3. that environment's ``jupyter server`` started at the repository's root, with the variables
   Binder sets (``BINDER_LAUNCH_HOST``, ``BINDER_PERSISTENT_REQUEST``); JupyterLab answers on
   ``/lab/tree/notebooks``; Chromium opens the Voila app with a shared link to an Arcadia Quest
   encounter: the tab opens on it, its charts equal the encounter's, and its Copy link gives a
   Binder launch link that carries the scenario.

What Voila's page asks of a CDN (Font Awesome, MathJax) is answered empty here: Binder is
online, this machine is not. The only error allowed in the page is the one that empty MathJax
stand-in causes (`STAND_IN_ERROR`). Marked ``binder``; ``make test`` runs it (a few minutes).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from explorer import lessons
from explorer.resolver import resolve
from explorer.share import parse_query, share_query
from tests.browser.support import CHROMIUM_ARGS, INIT_SCRIPT, attach, free_port, stop_server
from tests.browser.test_share import box_text, encounter_problems, until, until_right

pytestmark = [pytest.mark.binder, pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
BINDER = {"BINDER_LAUNCH_HOST": "https://mybinder.org/", "BINDER_PERSISTENT_REQUEST": "v2/gh/OWNER/REPO/abc1234"}
TOKEN = "binder-test-token"
STAND_IN_ERROR = "uncaught error in the page: MathJax is not defined"
"""The one error the empty stand-in for the MathJax CDN script causes (Binder loads the real one)."""


def run(command: list[str], env: dict[str, str], timeout: float, cwd: Path = ROOT) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A fresh venv built as Binder builds its image; the environment to run its programs in."""
    venv = tmp_path_factory.mktemp("binder") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(PATH=f"{venv / 'bin'}:{os.environ.get('PATH', '')}", VIRTUAL_ENV=str(venv),
               JUPYTER_CONFIG_DIR=str(venv / "jupyter-config"), JUPYTER_DATA_DIR=str(venv / "jupyter-data"),
               JUPYTER_RUNTIME_DIR=str(venv / "jupyter-runtime"), IPYTHONDIR=str(venv / "ipython"),
               JUPYTER_PLATFORM_DIRS="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    run([str(venv / "bin" / "pip"), "install", "-q", "-r", "binder/requirements.txt"], env, 600)
    run(["bash", "binder/postBuild"], env, 300)
    env["BINDER_VENV"] = str(venv)
    return env


def test_the_binder_environment_is_built_from_binder_only(binder_env: dict[str, str]) -> None:
    python = Path(binder_env["BINDER_VENV"]) / "bin" / "python"
    where = run([str(python), "-c", "import explorer, sys; print(explorer.__file__); print(sys.prefix)"], binder_env, 60)
    package, prefix = where.split()
    assert Path(package).is_relative_to(ROOT) and prefix == binder_env["BINDER_VENV"]
    assert (Path(prefix) / "share/jupyter/labextensions/explorer-chart/static/plotly.min.js").is_file()
    assert "jupyterlab-jupytext" in (Path(prefix) / "etc/jupyter/voila.json").read_text()


def test_every_notebook_runs_in_the_binder_environment(binder_env: dict[str, str], tmp_path: Path) -> None:
    jupyter = Path(binder_env["BINDER_VENV"]) / "bin" / "jupyter"
    notebooks = sorted((ROOT / "notebooks").glob("*.ipynb"))
    run([str(jupyter), "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.kernel_name=python3",
         "--ExecutePreprocessor.timeout=600", f"--output-dir={tmp_path}", *map(str, notebooks)], binder_env, 600)
    for path in notebooks:
        executed = json.loads((tmp_path / path.name).read_text())
        errors = [o for c in executed["cells"] for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert errors == [], f"{path.name}: {errors}"


def test_the_app_opens_a_shared_link_as_on_binder(binder_env: dict[str, str], chromium_path: Path,
                                                   tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = dict(binder_env, **BINDER)
    log_path = tmp_path / "jupyter-server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(Path(binder_env["BINDER_VENV"]) / "bin" / "jupyter"), "server", "--no-browser", f"--port={port}",
             "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={TOKEN}", f"--ServerApp.root_dir={ROOT}",
             *(["--allow-root"] if os.geteuid() == 0 else [])],  # Binder runs as a user; CI may run as root
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/"

    class Log:
        def log_tail(self, lines: int = 30) -> str:
            return "\n".join(log_path.read_text(errors="replace").splitlines()[-lines:])

    server = Log()

    def online(route: Any) -> None:
        """What a CDN would send (an empty stylesheet or script): Binder is online, this machine is not."""
        css = ".css" in route.request.url
        route.fulfill(status=200, content_type="text/css" if css else "application/javascript", body="")

    try:
        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"{base}lab/tree/notebooks?token={TOKEN}", timeout=5) as reply:
                    return reply.status == 200 and b"JupyterLab" in reply.read()
            except OSError:
                return process.poll() is not None  # stop waiting if it died
        until("JupyterLab answering on /lab/tree/notebooks", answers, 120, server)  # type: ignore[arg-type]
        assert process.poll() is None, server.log_tail()
        encounter = lessons.example("arcadia-encounter-guard.json")
        url = f"{base}voila/render/notebooks/explorer.ipynb?token={TOKEN}&{share_query(encounter)}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(chromium_path), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
                page.route(re.compile(r"^https://(cdn\.jsdelivr\.net|cdnjs\.cloudflare\.com)/"), online)
                page.add_init_script(INIT_SCRIPT)
                log = attach(page)
                start = time.monotonic()
                page.goto(url, timeout=180_000)  # a kernel started for the page, on a slow machine
                until_right("the linked encounter's charts drawn and right", lambda: encounter_problems(page),
                            180, server)  # type: ignore[arg-type]
                opened_s = time.monotonic() - start
                assert resolve(json.loads(box_text(page, "aq"))).to_dict() == resolve(encounter).to_dict()
                page.get_by_role("tab", name=re.compile(r"^Scenario")).last.click()
                page.locator(".aq-panel .explorer-share-copy").click()
                link = until("a link in the Copy link field",
                             lambda: page.locator(".aq-panel .explorer-share-link").input_value(), 30, server)  # type: ignore[arg-type]
            finally:
                browser.close()
        assert link.startswith("https://mybinder.org/v2/gh/OWNER/REPO/abc1234?urlpath=voila%2Frender%2Fnotebooks")
        urlpath = parse_qs(urlsplit(link).query)["urlpath"][0]
        assert urlpath.startswith("voila/render/notebooks/explorer.ipynb?")
        assert resolve(parse_query(urlsplit(urlpath).query).scenario).to_dict() == resolve(encounter).to_dict()
        errors = [e for e in log.errors() if e != STAND_IN_ERROR]
        assert errors == [], "\n".join(errors)
        assert "notebooks run with explorer.serving.execute" in log_path.read_text(errors="replace"), \
            "postBuild's server extension (the explorer's notebook runner) was not loaded"
        print(f"\nBinder-like app: the linked encounter's charts right {opened_s:.1f} s after opening")
    finally:
        stop_server(process)
