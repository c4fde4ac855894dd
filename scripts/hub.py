"""Start the class hub (``make hub``): JupyterHub on 127.0.0.1, a server with the explorer for every person.

Usage: ``python scripts/hub.py [--port PORT] [--password PASSWORD] [--state DIR] [--cull-timeout SECONDS]
[--install-only]`` (``make hub`` runs it; ``make hub HUB_ARGS="--port 9000"`` passes options).

First it installs what the hub needs, in the project's own folders, each step only when its
inputs changed since the last time (a fingerprint of them is kept beside what it made):

1. ``.venv-hub/``: a virtual environment built as Binder builds its image (``binder/requirements.txt``
   and ``binder/postBuild``: the explorer, its chart extension and plotly.js), plus JupyterHub and
   the idle culler pinned in ``deploy/jupyterhub/requirements.txt``. The explorer is then put in as
   a copy (not the editable install ``postBuild`` makes), so that what a person exports goes to
   their own folder; with what ``deploy/jupyterhub/`` adds: the Voila page template (a link to the
   lessons above the app), JupyterLab's settings (no news fetched from the internet) and the
   servers' settings (``jupyter_server_config.json``).
2. ``deploy/jupyterhub/node_modules/``: the proxy, the npm package ``configurable-http-proxy``
   (``npm ci`` from the pinned ``package-lock.json``; it needs Node.js 20.19 or newer).

Then it prints the address and the passwords, and becomes the hub (``deploy/jupyterhub/jupyterhub_config.py``
with its settings in the environment). Ctrl-C stops the hub, its proxy and every person's server.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HUB = ROOT / "deploy" / "jupyterhub"
VENV = ROOT / ".venv-hub"
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MIN_PASSWORD = 8
"""JupyterHub's shared-password authenticator takes no shorter password (and 32 for the admin's)."""
MIN_ADMIN_PASSWORD = 32
NODE_AT_LEAST = (20, 19)
"""The proxy's pinned dependencies load an ES module with ``require`` (Node.js 20.19 or newer)."""
PASSWORD_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits that cannot be misread on a board (no i, l, o, 0, 1)."""

DEPENDENCY_INPUTS = [HUB / "requirements.txt", ROOT / "binder" / "requirements.txt", ROOT / "binder" / "postBuild"]
PROXY_INPUTS = [HUB / "package.json", HUB / "package-lock.json"]


def package_inputs() -> list[Path]:
    """The files the explorer's copy in ``.venv-hub`` and the servers' settings are made from."""
    sources = [p for p in (ROOT / "explorer").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return [ROOT / "pyproject.toml", HUB / "jupyter_server_config.json", *sorted(sources),
            *sorted(p for p in (HUB / "share").rglob("*") if p.is_file())]


def fingerprint(paths: Iterable[Path]) -> str:
    """A SHA-256 of the files' names (from the repository root) and contents."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def run(command: list[str], cwd: Path = ROOT, env: dict[str, str] | None = None) -> None:
    """Run an install step; on failure stop with its command and the end of its output."""
    done = subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"error: {' '.join(command)} failed (exit code {done.returncode}):\n"
                         f"{(done.stdout + done.stderr)[-4000:]}")


def venv_env() -> dict[str, str]:
    """The environment of a command run in ``.venv-hub`` (as if it were activated)."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", VIRTUAL_ENV=str(VENV),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def step_needed(stamp: Path, inputs: str) -> bool:
    """Whether the step whose fingerprint is kept in `stamp` must run again for `inputs`."""
    return not stamp.is_file() or stamp.read_text().strip() != inputs


def node_problem(version: str) -> str:
    """Why Node.js `version` (``node --version``) cannot run the proxy, or ''.

    >>> node_problem("v20.20.2"), node_problem("v18.19.0")[:40]
    ('', 'Node.js v18.19.0 is too old for the prox')
    """
    numbers = tuple(int(n) for n in version.strip().lstrip("v").split(".")[:2])
    if numbers >= NODE_AT_LEAST:
        return ""
    return (f"Node.js {version.strip()} is too old for the proxy (configurable-http-proxy 5.3 needs "
            f"{'.'.join(map(str, NODE_AT_LEAST))} or newer)")


def install_proxy() -> Path:
    """``npm ci`` in deploy/jupyterhub if the pinned proxy is not there yet; the proxy's command."""
    proxy = HUB / "node_modules" / ".bin" / "configurable-http-proxy"
    stamp = HUB / "node_modules" / ".explorer-installed"
    wanted = fingerprint(PROXY_INPUTS)
    if proxy.is_file() and not step_needed(stamp, wanted):
        return proxy
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        raise SystemExit("error: the hub's proxy needs Node.js and npm (`make node` installs Debian's)")
    problem = node_problem(subprocess.run([node, "--version"], capture_output=True, text=True).stdout)
    if problem:
        raise SystemExit(f"error: {problem}")
    print("hub: installing the proxy (npm ci in deploy/jupyterhub) ...", flush=True)
    run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HUB)
    stamp.write_text(wanted + "\n")
    return proxy


def install_environment() -> None:
    """Make or update ``.venv-hub`` (see the module docstring, step 1)."""
    python = VENV / "bin" / "python"
    if not python.is_file():
        print(f"hub: creating {VENV.name}/ ...", flush=True)
        run([sys.executable, "-m", "venv", str(VENV)])
    env = venv_env()
    deps_stamp, package_stamp = VENV / ".explorer-dependencies", VENV / ".explorer-package"
    wanted = fingerprint(DEPENDENCY_INPUTS)
    if step_needed(deps_stamp, wanted):
        print("hub: installing JupyterHub and the explorer's environment (binder/) ...", flush=True)
        run([str(python), "-m", "pip", "install", "-q", "-r", str(HUB / "requirements.txt")], env=env)
        run(["bash", str(ROOT / "binder" / "postBuild")], env=env)
        deps_stamp.write_text(wanted + "\n")
        package_stamp.unlink(missing_ok=True)
    wanted = fingerprint(package_inputs())
    if step_needed(package_stamp, wanted):
        print("hub: copying the explorer into the hub's environment ...", flush=True)
        with tempfile.TemporaryDirectory() as tmp:  # a clean source tree: no build/ left in the repository
            source = Path(tmp) / "explorer-src"
            source.mkdir()
            for name in ("pyproject.toml", "README.md"):
                shutil.copy2(ROOT / name, source / name)
            shutil.copytree(ROOT / "explorer", source / "explorer", ignore=shutil.ignore_patterns("__pycache__"))
            run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", str(source)], env=env)
        run([str(python), "-m", "explorer.panels.common.install"], env=env)
        # the app's page template (voila/templates/explorer-hub) and JupyterLab's settings (lab/settings)
        shutil.copytree(HUB / "share" / "jupyter", VENV / "share" / "jupyter", dirs_exist_ok=True)
        # the environment's own server config (files in jupyter_server_config.d only enable extensions)
        shutil.copy2(HUB / "jupyter_server_config.json", VENV / "etc" / "jupyter" / "jupyter_server_config.json")
        package_stamp.write_text(wanted + "\n")


def install() -> None:
    """Everything the hub needs, in the project's folders (each step only when its inputs changed)."""
    install_proxy()
    install_environment()


def pick_port(wanted: int) -> int:
    """`wanted` if it is free on 127.0.0.1, else one the system picks."""
    for candidate in (wanted, 0):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((HOST, candidate))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise SystemExit(f"error: no free port on {HOST}")


def new_password() -> str:
    """A password to write on a board: three groups of four letters or digits (about 59 bits).

    >>> password = new_password()
    >>> len(password), password.count("-"), set(password) <= set(PASSWORD_LETTERS + "-")
    (14, 2, True)
    """
    return "-".join("".join(secrets.choice(PASSWORD_LETTERS) for _ in range(4)) for _ in range(3))


def password_problem(password: str, least: int, label: str) -> str:
    """Why `password` cannot be the hub's `label` password, or ''.

    >>> password_problem("short", 8, "--password")
    '--password: at least 8 characters, got 5'
    >>> password_problem("long enough", 8, "--password")
    ''
    """
    if len(password) < least:
        return f"{label}: at least {least} characters, got {len(password)}"
    return ""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port people open, if free (default {DEFAULT_PORT})")
    parser.add_argument("--password", default=os.environ.get("HUB_PASSWORD") or None,
                        help=f"the shared password, at least {MIN_PASSWORD} characters (default: $HUB_PASSWORD, "
                             "else a new one at every start)")
    parser.add_argument("--admin-password", default=os.environ.get("HUB_ADMIN_PASSWORD") or None,
                        help=f"the teacher's password, at least {MIN_ADMIN_PASSWORD} characters "
                             "(default: $HUB_ADMIN_PASSWORD, else a new one)")
    parser.add_argument("--state", type=Path, default=ROOT / "build" / "hub",
                        help="the hub's database and the people's homes (default build/hub)")
    parser.add_argument("--cull-timeout", type=int, default=3600,
                        help="seconds without activity before a person's server is stopped (default 3600)")
    parser.add_argument("--install-only", action="store_true", help="install what the hub needs, start nothing")
    args = parser.parse_args(argv)
    args.password = args.password or new_password()
    args.admin_password = args.admin_password or secrets.token_urlsafe(32)
    for problem in (password_problem(args.password, MIN_PASSWORD, "--password"),
                    password_problem(args.admin_password, MIN_ADMIN_PASSWORD, "--admin-password")):
        if problem:
            parser.error(problem)
    if args.password == args.admin_password:
        parser.error("--password and --admin-password must differ")
    if args.cull_timeout < 60:
        parser.error(f"--cull-timeout: at least 60 seconds, got {args.cull_timeout}")
    return args


def banner(address: str, args: argparse.Namespace) -> str:
    """The lines printed before the hub starts."""
    rule = "=" * (len(address) + 12)
    return (
        f"\n{rule}\n  Open  {address}\n{rule}\n"
        f"  Log in with any name and the shared password:  {args.password}\n"
        f"  The teacher (admin: {address}hub/admin) logs in as  teacher  with:  {args.admin_password}\n"
        "  Each person gets a server of their own with the app; the lessons are linked above it.\n"
        "  Anyone with the shared password can log in under any name but teacher's: a hub to try,\n"
        "  or for a class on a network you trust (docs/serving.md, \"A class on JupyterHub\").\n"
        f"  A server idle for {args.cull_timeout} s is stopped; its person's files stay in {args.state}/users.\n"
        "  Ctrl-C stops the hub, its proxy and every person's server.\n"
    )


def main(argv: list[str] | None = None) -> None:
    """Install, print the address and passwords, then become the hub."""
    args = parse_args(argv)
    install()
    if args.install_only:
        print(f"hub: installed ({VENV.name}/, deploy/jupyterhub/node_modules/)")
        return
    port = pick_port(args.port)
    address = f"http://{HOST}:{port}/"
    state = args.state.resolve()
    state.mkdir(parents=True, exist_ok=True)
    env = venv_env()
    env.update(EXPLORER_HUB_PORT=str(port), EXPLORER_HUB_STATE=str(state), EXPLORER_HUB_PASSWORD=args.password,
               EXPLORER_HUB_ADMIN_PASSWORD=args.admin_password, EXPLORER_HUB_CULL_TIMEOUT=str(args.cull_timeout),
               EXPLORER_HUB_API_PORT=str(pick_port(0)), EXPLORER_HUB_PROXY_API_PORT=str(pick_port(0)))
    print(banner(address, args), flush=True)
    hub = VENV / "bin" / "jupyterhub"
    os.chdir(state)
    # Ctrl-C reaches the hub and what it starts even when this was started where SIGINT is ignored
    # (a background job of a script): JupyterHub stops its services with SIGINT first.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execve(hub, [str(hub), "-f", str(HUB / "jupyterhub_config.py")], env)


if __name__ == "__main__":
    main()
