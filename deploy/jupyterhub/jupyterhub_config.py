"""JupyterHub configuration of the class hub on one machine: every person gets a server of their own
with the explorer, the app as the page they land on, the lessons one click away.

`make hub` (``scripts/hub.py``) installs what this needs (``.venv-hub/``, the npm proxy under
``deploy/jupyterhub/node_modules/``) and starts ``.venv-hub/bin/jupyterhub -f`` this file with
its settings in the environment; each has a default, so ``jupyterhub -f deploy/jupyterhub/jupyterhub_config.py``
run from ``.venv-hub`` works too:

- ``EXPLORER_HUB_PORT`` (8000): the address people open, ``http://127.0.0.1:PORT/``; only this
  machine's loopback address is listened on. ``EXPLORER_HUB_API_PORT`` and
  ``EXPLORER_HUB_PROXY_API_PORT``: the hub's and the proxy's own ports (free ones by default).
- ``EXPLORER_HUB_PASSWORD``: the shared password, at least 8 characters (no password, no login
  except the teacher's); ``EXPLORER_HUB_ADMIN_PASSWORD``: the teacher's, at least 32 characters
  (the name ``teacher``, an admin: the hub's admin page stops or starts anyone's server). Both are
  removed from the environment once read, so the proxy and the servers never see them.
- ``EXPLORER_HUB_STATE`` (``build/hub``): the hub's database, cookie secret and proxy pid file,
  and ``users/<name>/``, each person's home, where their own copy of ``notebooks/`` and
  ``examples/`` is put before their server starts (files already there are kept: saved work).
- ``EXPLORER_HUB_KERNELS`` (``/tmp/explorer-hub-<hash of the state folder>``): the people's
  kernel folders (connection files and sockets), kept short (see `runtime_dir`).
- ``EXPLORER_HUB_CULL_TIMEOUT`` (3600): seconds without activity after which the idle culler
  (the ``jupyterhub-idle-culler`` service) stops a person's server.
- ``EXPLORER_HUB_API_TOKEN`` (unset): when set, a service ``explorer-checks`` holding that token
  may create users and start, stop and read their servers through the REST API (the tests and
  ``make bench-hub`` use it; a teacher does not need it).

What the hub's defaults guard is left on: a person's server accepts only that person (or an
admin) through the hub's OAuth cookie, tokens are not taken from URLs, and every POST needs the
XSRF token; nothing here turns a check off. The spawner is JupyterHub's
``SimpleLocalProcessSpawner`` (stopping servers with SIGTERM: `ClassSpawner`): each server runs as the user that started the hub, in its own
home folder, so people are kept apart by the hub's login only, not by the system (fine for
trying the hub or a class on a network you trust; a real class hub runs each person in a
container: ``values.yaml`` for Zero to JupyterHub). Memory limits: local process spawners do
not enforce ``Spawner.mem_limit`` (it only reaches the server as ``MEM_LIMIT``); KubeSpawner
does (``singleuser.memory.limit`` in ``values.yaml``).
"""

import hashlib
import os
import shutil
import socket
import sys
import tempfile
from pathlib import Path

from jupyterhub.spawner import SimpleLocalProcessSpawner

c = get_config()  # noqa: F821 - JupyterHub defines it when it reads this file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STATE = Path(os.environ.get("EXPLORER_HUB_STATE") or ROOT / "build" / "hub").resolve()
HOMES = STATE / "users"
BIN = Path(sys.executable).parent
"""The hub's environment (``.venv-hub/bin``): the same one runs every person's server."""
COPIED = ("notebooks", "examples")
"""The folders of the repository each person gets a copy of in their home."""


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port(name: str, default: int | None) -> int:
    """The port in the environment variable `name`, else `default`, else a free one."""
    value = os.environ.get(name)
    return int(value) if value else default if default is not None else free_port()


def secret(name: str) -> str | None:
    """The value of the environment variable `name`, removed from the environment (children never see it)."""
    return os.environ.pop(name, None) or None


STATE.mkdir(parents=True, exist_ok=True)
HOMES.mkdir(exist_ok=True)
KERNELS = Path(os.environ.get("EXPLORER_HUB_KERNELS")
               or Path(tempfile.gettempdir()) / f"explorer-hub-{hashlib.sha256(str(STATE).encode()).hexdigest()[:12]}")
"""The people's kernel folders (`runtime_dir`), one short folder per hub."""
KERNELS.mkdir(mode=0o700, exist_ok=True)

# --- where it listens: the loopback address only
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = port("EXPLORER_HUB_PORT", 8000)
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{port('EXPLORER_HUB_API_PORT', None)}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{port('EXPLORER_HUB_PROXY_API_PORT', None)}"
# the npm package (scripts/hub.py runs `npm ci` here), not the PyPI program of the same name
c.ConfigurableHTTPProxy.command = [str(HERE / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.cleanup_servers = True  # stopping the hub stops every person's server (and the proxy)
c.JupyterHub.cleanup_proxy = True

# --- who logs in: any name with the shared password; "teacher" with the admin password
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = secret("EXPLORER_HUB_PASSWORD")
c.SharedPasswordAuthenticator.admin_password = secret("EXPLORER_HUB_ADMIN_PASSWORD")
c.Authenticator.admin_users = {"teacher"}
c.Authenticator.allow_all = True

# --- each person's server: the app first, the lessons one click away (a link above the app)
class ClassSpawner(SimpleLocalProcessSpawner):
    """JupyterHub's SimpleLocalProcessSpawner (no system account per person), stopping a server with SIGTERM.

    The spawner stops a server with SIGINT first; a server started without a terminal has no
    handler of its own for SIGINT, so it then exits at once and leaves its kernels to notice
    that on their own (their connection files stay behind). On SIGTERM it shuts its kernels down
    and exits cleanly; SIGKILL still follows after ``term_timeout``.
    """

    async def stop(self, now: bool = False) -> None:
        await super().stop(now=True)


c.JupyterHub.spawner_class = ClassSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.default_url = "/voila/render/notebooks/explorer.ipynb"
c.Spawner.args = ["--allow-root"] if os.geteuid() == 0 else []
c.Spawner.start_timeout = 180  # a room starting at once on a small machine: servers take a while
c.Spawner.http_timeout = 180
c.Spawner.mem_limit = "1G"  # not enforced by this spawner (see above); KubeSpawner enforces it
# Not PYTHONPATH nor VIRTUAL_ENV: the servers run on the hub's environment alone.
# EXPLORER_HUB_RUN marks every process of a test's hub (so the test can find them all);
# IPYTHONDIR lets a test give the kernels a startup file. Both are unset for a teacher.
c.Spawner.env_keep = ["PATH", "LANG", "LC_ALL", "JUPYTERHUB_SINGLEUSER_APP", "EXPLORER_HUB_RUN", "IPYTHONDIR"]


def runtime_dir(spawner) -> str:  # type: ignore[no-untyped-def]
    """A short folder of the person's own for their kernels' connection files and sockets.

    The kernels talk to their server over Unix sockets (``KernelManager.transport = "ipc"`` in
    jupyter_server_config.json): over TCP, servers starting kernels at the same moment pick free
    ports independently and now and then the same one ("Address already in use": a room of 10
    lost a kernel that way). A socket's path must stay under 108 characters, hence a short
    folder in /tmp rather than one in the person's home.
    """
    return str(KERNELS / hashlib.sha256(spawner.user.name.encode()).hexdigest()[:12])


c.Spawner.environment = {
    "JUPYTER_RUNTIME_DIR": runtime_dir,
    # the app's Copy link then opens on the server of whoever opens it (/hub/user-redirect/...),
    # not on the sender's, which the hub refuses to anyone else (explorer.panels.common.share_view)
    "JUPYTERHUB_PUBLIC_HUB_URL": f"http://127.0.0.1:{c.JupyterHub.port}/hub/",
}


def give_the_lessons(spawner) -> None:  # type: ignore[no-untyped-def]
    """Before a server starts: copy into the person's home the repository's files they lack,
    and make their kernels' folder (`runtime_dir`), for them alone."""
    Path(runtime_dir(spawner)).mkdir(mode=0o700, exist_ok=True)
    home = Path(spawner.home_dir)
    for folder in COPIED:
        for source in sorted((ROOT / folder).rglob("*")):
            target = home / source.relative_to(ROOT)
            if source.is_file() and ".ipynb_checkpoints" not in source.parts and not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)


c.Spawner.pre_spawn_hook = give_the_lessons

# --- servers left idle are stopped (the standard idle culler, run by the hub as a service)
CULL_TIMEOUT = int(os.environ.get("EXPLORER_HUB_CULL_TIMEOUT") or 3600)
c.JupyterHub.services = [
    {"name": "idle-culler",
     "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={CULL_TIMEOUT}",
                 f"--cull-every={max(30, min(600, CULL_TIMEOUT // 4))}"]},
]
c.JupyterHub.load_roles = [
    {"name": "idle-culler", "services": ["idle-culler"],
     "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]},
]
CHECKS_TOKEN = secret("EXPLORER_HUB_API_TOKEN")
if CHECKS_TOKEN:
    c.JupyterHub.services.append({"name": "explorer-checks", "api_token": CHECKS_TOKEN})
    c.JupyterHub.load_roles.append(
        {"name": "explorer-checks", "services": ["explorer-checks"],
         "scopes": ["admin:users", "admin:servers", "list:users", "read:users"]})
