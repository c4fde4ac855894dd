"""A class on its own JupyterHub: five people log in at once, each app draws its charts and follows a change;
an idle server is culled.

The hub is the one ``make hub`` starts (``scripts/hub.py``: ``deploy/jupyterhub/jupyterhub_config.py``
on ``.venv-hub`` and the npm proxy, both installed on first use), with a state folder of its own.
Five people, each in their own headless Chromium context, fill the hub's login form with the
shared password and send it at the same moment; the hub starts a server for each, sends them to
the app (Voila on their own copy of ``notebooks/explorer.ipynb``), whose first chart must be
drawn, with the link to the lessons above it. Then everyone clicks *Add unit* at the same
moment and the battle's four charts must draw a newer revision. Also checked: a page asked for
without logging in goes to the hub's login, one person cannot open another's app, the lessons
open in JupyterLab, no page or kernel error; and, after the hub is stopped, that it stopped its
proxy, culler, servers and kernels itself, each server shutting its kernel down (the test kills
whatever was left, and fails).

A second hub, with the idle culler's shortest timeout (60 s), starts one person's server through
the REST API and must see the culler stop it once it has been idle that long.

Marked ``hub`` and ``browser``; ``make test`` runs them (about two and a half minutes once
``.venv-hub`` is made; the first run installs it, a minute or two more).
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.hub import APP_PATH, LESSONS_PATH, STAND_IN_ERROR, Hub, running_hub
from tests.browser.hub import room as hub_room
from tests.browser.support import BUILD, CHROMIUM_ARGS

pytestmark = [pytest.mark.hub, pytest.mark.browser]

PEOPLE = [f"player{i}" for i in range(1, 6)]
TIMEOUT_S = 240
"""Seconds a person may wait for their charts: five servers and kernels start together on 2 shared CPUs."""


def landing(url: str) -> tuple[str, str]:
    """Where a GET of `url` without a login ends (redirects followed), and the page's text there."""
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.url, answer.read().decode("utf-8", errors="replace")


async def five_people(hub: Hub, chromium: Path) -> dict[str, Any]:
    """The room, the cross-person and lessons checks; what each page gave."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS)
        try:
            visits = await hub_room(browser, hub, PEOPLE, TIMEOUT_S)
            found: dict[str, Any] = {"visits": [v for v, _, _ in visits], "lessons": {}, "other": None}
            for visit, page, context in visits:
                lessons = dict(visit.links).get("explorer-hub-lessons")
                if lessons:
                    answer = await context.request.get(lessons)
                    found["lessons"][visit.name] = (lessons, answer.status, "JupyterLab" in await answer.text())
            first, _, context = visits[0]
            other = await context.request.get(f"{hub.base}user/{PEOPLE[1]}/{APP_PATH}")
            found["other"] = (other.status, other.url, (await other.text())[:2000])
            for _, page, context in visits:
                await page.close()
                await context.close()
        finally:
            await browser.close()
    return found


def test_five_people_log_in_at_once_and_each_app_follows_a_change(chromium_path: Path, tmp_path: Path) -> None:
    started = time.monotonic()
    with running_hub(tmp_path / "hub", BUILD / "hub-test.log") as hub:
        where, text = landing(f"{hub.base}user/{PEOPLE[0]}/{APP_PATH}")
        assert where.startswith(f"{hub.base}hub/login") and 'id="password_input"' in text, where
        found = asyncio.run(five_people(hub, chromium_path))
        users = {user["name"]: user for user in hub.api("GET", "users")}
        tracebacks = hub.kernel_tracebacks()
        log_tail = hub.log_tail(60)
    print(f"\nhub test: {time.monotonic() - started:.0f} s in all")
    problems = []
    for visit in found["visits"]:
        print(f"  {visit.name}: server {visit.server_start_s or float('nan'):.1f} s, first chart "
              f"{visit.first_chart_s or float('nan'):.1f} s after logging in; Add unit redrawn in "
              f"{visit.click_to_chart_s or float('nan'):.1f} s")
        if visit.failed:
            problems.append(f"{visit.name}: {visit.failed}")
            continue
        if visit.url != f"{hub.base}user/{visit.name}/{APP_PATH}":
            problems.append(f"{visit.name}: the app at {visit.url}, not on their own server")
        lessons = found["lessons"].get(visit.name)
        if lessons is None:
            problems.append(f"{visit.name}: no link to the lessons above the app ({visit.links})")
        elif lessons[0] != f"{hub.base}user/{visit.name}/{LESSONS_PATH}" or lessons[1] != 200 or not lessons[2]:
            problems.append(f"{visit.name}: the lessons' link {lessons[0]} gave {lessons[1]} (JupyterLab: {lessons[2]})")
        errors = [e for e in visit.log.errors() if e != STAND_IN_ERROR]
        if errors:
            problems.append(f"{visit.name}: errors in the page: {errors}")
        server = users.get(visit.name, {}).get("servers", {}).get("", {})
        if not server.get("ready"):
            problems.append(f"{visit.name}: the hub does not list a ready server ({server})")
    status, url, text = found["other"]
    print(f"  {PEOPLE[0]} asking for {PEOPLE[1]}'s app: HTTP {status} at {url}")
    if status != 403:
        problems.append(f"{PEOPLE[0]} asking for {PEOPLE[1]}'s app got HTTP {status} at {url}, not 403: {text[:300]}")
    if tracebacks:
        problems.append("kernel tracebacks:\n" + "\n\n".join(tracebacks))
    if "Parent appears to have exited" in hub.log():  # a server that went without shutting its kernels down
        problems.append("a kernel outlived its server: the servers were not stopped cleanly")
    if hub.left_behind:
        problems.append("processes the hub left running when stopped (killed by the test): "
                        + "; ".join(hub.left_behind))
    assert not problems, "\n".join(problems) + f"\n--- the hub's log (end):\n{log_tail}"


def test_a_server_left_idle_is_stopped_by_the_idle_culler(tmp_path: Path) -> None:
    """The hub's jupyterhub-idle-culler service with its shortest timeout (60 s; an hour by default)."""
    with running_hub(tmp_path / "hub", BUILD / "hub-cull-test.log", cull_timeout=60) as hub:
        hub.api("POST", "users/idle-person")
        hub.api("POST", "users/idle-person/server")
        deadline = time.monotonic() + 120
        while not hub.api("GET", "users/idle-person")["servers"].get("", {}).get("ready"):
            assert time.monotonic() < deadline, f"the server did not start:\n{hub.log_tail()}"
            time.sleep(1)
        ready = time.monotonic()
        while hub.api("GET", "users/idle-person")["servers"]:
            waited = time.monotonic() - ready
            assert waited < 180, f"a server idle for {waited:.0f} s is still running:\n{hub.log_tail()}"
            time.sleep(2)
        culled_after = time.monotonic() - ready
        log = hub.log()
    print(f"\nidle culler: the server stopped {culled_after:.0f} s after it started (timeout 60 s)")
    assert "Culling server idle-person" in log, "the server stopped, but not by the culler"
    assert culled_after >= 55, f"culled after {culled_after:.0f} s, before its 60 s of idleness"
    assert not hub.left_behind, hub.left_behind
