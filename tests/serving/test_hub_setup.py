"""The class hub's files, without starting it: the hub's configuration, the launcher's checks, and the
Kubernetes files in step with what ``make hub`` runs (``tests/browser/test_hub.py`` starts the hub itself).
"""

from __future__ import annotations

import doctest
import importlib.util
import json
import re
import sys
import tempfile
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
import yaml
from traitlets.config import Config

ROOT = Path(__file__).resolve().parents[2]
HUB = ROOT / "deploy" / "jupyterhub"
SECRETS = {"EXPLORER_HUB_PASSWORD": "class-password-1", "EXPLORER_HUB_ADMIN_PASSWORD": "t" * 16 + "eacher-password-",
           "EXPLORER_HUB_API_TOKEN": "checks-token-0123"}


def load_config(monkeypatch: pytest.MonkeyPatch, state: Path, **env: str) -> tuple[Config, dict[str, Any]]:
    """Run jupyterhub_config.py as JupyterHub does (``c = get_config()``) with `env`; the config and its names."""
    defaults = {"EXPLORER_HUB_STATE": str(state), "EXPLORER_HUB_PORT": "8123", "EXPLORER_HUB_KERNELS": str(state / "k")}
    for name, value in {**SECRETS, **defaults, **env}.items():
        monkeypatch.setenv(name, value)
    # JupyterHub itself is in .venv-hub only: its spawner class, as far as the configuration uses it
    spawner_module = ModuleType("jupyterhub.spawner")
    spawner_module.SimpleLocalProcessSpawner = type("SimpleLocalProcessSpawner", (), {})  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "jupyterhub", ModuleType("jupyterhub"))
    monkeypatch.setitem(sys.modules, "jupyterhub.spawner", spawner_module)
    config = Config()
    names: dict[str, Any] = {"get_config": lambda: config, "__file__": str(HUB / "jupyterhub_config.py")}
    exec(compile((HUB / "jupyterhub_config.py").read_text(), str(HUB / "jupyterhub_config.py"), "exec"), names)
    return config, names


def launcher() -> ModuleType:
    """scripts/hub.py as a module."""
    spec = importlib.util.spec_from_file_location("hub_launcher", ROOT / "scripts" / "hub.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hub_launcher"] = module
    spec.loader.exec_module(module)
    return module


def test_the_hub_listens_locally_with_the_shared_password_and_forgets_the_secrets(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    c, _ = load_config(monkeypatch, tmp_path)
    assert (c.JupyterHub.ip, c.JupyterHub.port) == ("127.0.0.1", 8123)
    assert c.JupyterHub.hub_bind_url.startswith("http://127.0.0.1:")
    assert c.ConfigurableHTTPProxy.api_url.startswith("http://127.0.0.1:")
    assert c.ConfigurableHTTPProxy.command == [str(HUB / "node_modules" / ".bin" / "configurable-http-proxy")]
    assert c.JupyterHub.authenticator_class == "shared-password"
    assert c.SharedPasswordAuthenticator.user_password == SECRETS["EXPLORER_HUB_PASSWORD"]
    assert c.SharedPasswordAuthenticator.admin_password == SECRETS["EXPLORER_HUB_ADMIN_PASSWORD"]
    assert set(c.Authenticator.admin_users) == {"teacher"}
    for name in SECRETS:  # the proxy and the servers inherit the hub's environment
        assert name not in os.environ, f"{name} left in the hub's environment"
    assert c.JupyterHub.db_url == f"sqlite:///{tmp_path.resolve() / 'jupyterhub.sqlite'}"
    assert c.JupyterHub.cleanup_servers is True and c.JupyterHub.cleanup_proxy is True


def test_each_server_opens_on_the_app_and_nothing_turns_a_check_off(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    c, _ = load_config(monkeypatch, tmp_path)
    assert [cls.__name__ for cls in c.JupyterHub.spawner_class.__mro__[:2]] == ["ClassSpawner", "SimpleLocalProcessSpawner"]
    assert c.Spawner.default_url == "/voila/render/notebooks/explorer.ipynb"
    assert c.SimpleLocalProcessSpawner.home_dir_template == str(tmp_path.resolve() / "users" / "{username}")
    assert "PYTHONPATH" not in c.Spawner.env_keep and "VIRTUAL_ENV" not in c.Spawner.env_keep
    turned_off = [f"{section}.{key}" for section in c for key in c[section]
                  if re.search(r"xsrf|token_in_url|allow_origin|disable_check", key, re.I)]
    assert turned_off == [], f"the hub's configuration changes a security default: {turned_off}"


def test_idle_servers_are_culled_by_the_standard_service(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    c, _ = load_config(monkeypatch, tmp_path, EXPLORER_HUB_CULL_TIMEOUT="1800")
    services = {s["name"]: s for s in c.JupyterHub.services}
    command = services["idle-culler"]["command"]
    assert command[1:3] == ["-m", "jupyterhub_idle_culler"] and "--timeout=1800" in command
    roles = {r["name"]: r for r in c.JupyterHub.load_roles}
    assert roles["idle-culler"]["services"] == ["idle-culler"]
    assert {"list:users", "read:users:activity", "read:servers", "delete:servers"} <= set(roles["idle-culler"]["scopes"])
    assert roles["explorer-checks"]["services"] == ["explorer-checks"]  # only because EXPLORER_HUB_API_TOKEN was set
    c, _ = load_config(monkeypatch, tmp_path, EXPLORER_HUB_API_TOKEN="")
    assert [s["name"] for s in c.JupyterHub.services] == ["idle-culler"]


def test_each_person_gets_the_lessons_and_keeps_what_they_saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _, names = load_config(monkeypatch, tmp_path / "state", EXPLORER_HUB_KERNELS=str(tmp_path / "kernels"))
    home = tmp_path / "home"
    spawner = SimpleNamespace(home_dir=str(home), user=SimpleNamespace(name="ada"))
    names["give_the_lessons"](spawner)
    app = home / "notebooks" / "explorer.ipynb"
    assert app.read_bytes() == (ROOT / "notebooks" / "explorer.ipynb").read_bytes()
    assert (home / "examples" / "fire-vs-hill.json").is_file()
    lesson = home / "notebooks" / "00-start-here.ipynb"
    lesson.write_text("{}")  # their own work
    app.unlink()
    names["give_the_lessons"](spawner)
    assert lesson.read_text() == "{}", "a person's saved lesson was overwritten"
    assert app.is_file(), "a file the person lacks is given again"
    kernels = Path(names["runtime_dir"](spawner))
    assert kernels.parent == tmp_path / "kernels" and kernels.stat().st_mode & 0o777 == 0o700


def test_kernels_talk_to_their_server_over_short_sockets_of_their_own(monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    settings = json.loads((HUB / "jupyter_server_config.json").read_text())
    assert settings["KernelManager"]["transport"] == "ipc"  # no two servers' kernels racing for one TCP port
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the default kernels' folder goes
    c, _ = load_config(monkeypatch, tmp_path / ("a-long-folder-name-" * 4), EXPLORER_HUB_KERNELS="")
    folders = {name: c.Spawner.environment["JUPYTER_RUNTIME_DIR"](SimpleNamespace(user=SimpleNamespace(name=name)))
               for name in ("ada", "a.very.long.name.of.a.student@school.example.org")}
    assert len(set(folders.values())) == 2, folders
    socket_path = "/kernel-01234567-89ab-cdef-0123-456789abcdef-ipc-5"  # jupyter_client's names in that folder
    long_tmp = len(tmp_path.as_posix()) - len("/tmp")  # this test's tmp_path stands for /tmp
    assert all(len(folder + socket_path) - long_tmp < 108 for folder in folders.values()), folders


def test_the_servers_settings_name_what_exists() -> None:
    settings = json.loads((HUB / "jupyter_server_config.json").read_text())
    template = settings["VoilaConfiguration"]["template"]
    assert (HUB / "share" / "jupyter" / "voila" / "templates" / template / "index.html.j2").is_file()
    module, name = settings["MappingKernelManager"]["kernel_manager_class"].rsplit(".", 1)
    assert hasattr(importlib.import_module(module), name)
    for extension, enabled in settings["ServerApp"]["jpserver_extensions"].items():
        assert enabled and hasattr(importlib.import_module(extension), "_load_jupyter_server_extension")
    page = (HUB / "share" / "jupyter" / "voila" / "templates" / template / "index.html.j2").read_text()
    assert "lab/tree/notebooks/00-start-here.ipynb" in page and (ROOT / "notebooks" / "00-start-here.ipynb").is_file()


def test_kubernetes_files_make_the_same_choices_as_the_local_hub(monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    c, names = load_config(monkeypatch, tmp_path)
    values = yaml.safe_load((HUB / "values.yaml").read_text())
    single = values["singleuser"]
    assert single["defaultUrl"] == c.Spawner.default_url
    assert single["extraEnv"]["JUPYTERHUB_PUBLIC_HUB_URL"].endswith("/hub/")
    assert c.Spawner.environment["JUPYTERHUB_PUBLIC_HUB_URL"] == "http://127.0.0.1:8123/hub/"
    assert single["memory"]["limit"] == c.Spawner.mem_limit
    assert values["cull"]["enabled"] is True and values["cull"]["timeout"] == names["CULL_TIMEOUT"]
    assert values["hub"]["config"]["JupyterHub"]["authenticator_class"] == c.JupyterHub.authenticator_class
    assert values["hub"]["config"]["Authenticator"]["admin_users"] == ["teacher"]
    assert values["hub"]["config"]["SharedPasswordAuthenticator"] == {"user_password": None, "admin_password": None}
    hook = " ".join(single["lifecycleHooks"]["postStart"]["exec"]["command"])
    assert all(f"/srv/explorer/{folder}" in hook for folder in names["COPIED"]) and "cp -rn" in hook
    dockerfile = (HUB / "Dockerfile").read_text()
    pins = dict(re.findall(r"^([\w-]+)==([\w.]+)", (HUB / "requirements.txt").read_text(), re.M))
    assert f"ARG JUPYTERHUB_VERSION={pins['jupyterhub']}" in dockerfile
    for step in ("bash binder/postBuild", "jupyter_server_config.json", "deploy/jupyterhub/share/jupyter/.",
                 "pip install -r binder/requirements.txt", "WORKDIR /srv/explorer"):
        assert step in dockerfile, f"the Dockerfile lacks {step!r}"


def test_the_proxy_is_the_pinned_npm_package() -> None:
    wanted = json.loads((HUB / "package.json").read_text())["dependencies"]["configurable-http-proxy"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", wanted), f"pin the proxy exactly, not {wanted!r}"
    lock = json.loads((HUB / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/configurable-http-proxy"]["version"] == wanted
    pinned = re.findall(r"^([\w.-]+)==", (HUB / "requirements.txt").read_text(), re.M)
    assert "configurable-http-proxy" not in pinned, "PyPI's configurable-http-proxy is another program"


def test_the_launcher_refuses_weak_passwords_and_prints_what_to_open(capsys: pytest.CaptureFixture[str]) -> None:
    hub = launcher()
    assert doctest.testmod(hub).failed == 0
    with pytest.raises(SystemExit):
        hub.parse_args(["--password", "short"])
    assert "--password: at least 8 characters, got 5" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        hub.parse_args(["--password", "class-password", "--admin-password", "too-short-for-a-teacher"])
    assert "--admin-password: at least 32 characters" in capsys.readouterr().err
    args = hub.parse_args(["--password", "class-password"])
    text = hub.banner("http://127.0.0.1:8000/", args)
    assert "http://127.0.0.1:8000/" in text and "class-password" in text and args.admin_password in text
    assert len(args.admin_password) >= 32
    assert hub.node_problem("v20.18.1") and not hub.node_problem("v22.1.0")


def test_the_launcher_redoes_a_step_only_when_its_inputs_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    hub = launcher()
    monkeypatch.setattr(hub, "ROOT", tmp_path)
    one, two = tmp_path / "a.txt", tmp_path / "b.txt"
    one.write_text("x")
    two.write_text("y")
    first = hub.fingerprint([one, two])
    stamp = tmp_path / "stamp"
    stamp.write_text(first + "\n")
    assert not hub.step_needed(stamp, hub.fingerprint([one, two]))
    two.write_text("z")
    assert hub.step_needed(stamp, hub.fingerprint([one, two]))
    assert hub.step_needed(tmp_path / "no-stamp", first)
