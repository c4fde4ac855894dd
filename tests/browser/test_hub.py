"""A class on its own JupyterHub: five people log in at once, each app draws its charts and follows a change;
an idle server is culled.

The hub is the one ``make hub`` starts (``scripts/hub.py``: ``deploy/jupyterhub/jupyterhub_config.py``
on ``.venv-hub`` and the npm proxy, both installed on first use), with a state folder of its own.
Five people, each in their own headless Chromium context, fill the hub's login form with the
shared password and send it at the same moment; the hub starts a server for each, sends them to
the app (Voila on their own copy of ``notebooks/explorer.ipynb``), whose first chart must be
drawn, with the link to the lessons above it. Then everyone clicks *Add unit* at the same
moment and the battle's four charts must draw a newer revision. Also checked: a page asked for
without logging in goes to the hub's login, one person cannot open another's app (403), the
lessons open in JupyterLab, the first person's *Copy link* (the hub's ``user-redirect`` link)
opens the second person's own app on the first person's scenario, no page or kernel error; and, after the hub is stopped, that it stopped its
proxy, culler, servers and kernels itself, each server shutting its kernel down (the test kills
whatever was left, and fails).

A second hub, with the idle culler's shortest timeout (60 s), starts one person's server through
the REST API and must see the culler stop it once it has been idle that long.

Marked ``hub`` and ``browser``; ``make test`` runs them (about two and a half minutes once
``.venv-hub`` is made; the first run installs it, a minute or two more).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from explorer.share import parse_query
from tests.browser.hub import APP_PATH, FIRST_DRAWN_JS, LESSONS_PATH, STAND_IN_ERROR, Hub, running_hub
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


async def until(what: str, probe: Any, timeout_s: float = 60.0) -> Any:
    """Await `probe()` until it gives something truthy; fail naming `what` and the last value."""
    deadline, last = time.monotonic() + timeout_s, None
    while time.monotonic() < deadline:
        last = await probe()
        if last:
            return last
        await asyncio.sleep(0.25)
    raise AssertionError(f"{what}: not within {timeout_s:.0f} s (last: {str(last)[:500]})")


async def shared_link(sender: Any, opened: Any) -> dict[str, Any]:
    """The sender's Copy link (after their Add unit), opened by another person; what each side shows."""
    box = ".aotg-scenario-text textarea"
    text = "(s) => { const b = document.querySelector(s); return b ? b.value : null; }"
    await sender.get_by_role("tab", name=re.compile(r"^Scenario")).first.click()  # built when first opened
    sent = await until("the sender's scenario box", lambda: sender.evaluate(text, box))
    await sender.locator(".aotg-panel .explorer-share-copy").click()
    link = await until("a link in the Copy link field",
                       lambda: sender.locator(".aotg-panel .explorer-share-link").input_value())
    await opened.goto(link, wait_until="commit", timeout=TIMEOUT_S * 1000)
    await opened.wait_for_function(FIRST_DRAWN_JS, timeout=TIMEOUT_S * 1000, polling=250)
    await opened.get_by_role("tab", name=re.compile(r"^Scenario")).first.click()

    async def same() -> Any:
        received = await opened.evaluate(text, box)
        return received if received and json.loads(received) == json.loads(sent) else None

    try:
        received = await until("the linked scenario in the other person's app", same)
    except AssertionError as error:
        received = f"not shown: {error}"
    return {"link": link, "opened_at": opened.url, "sent": sent, "received": received}


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
            first, sender, context = visits[0]
            other = await context.request.get(f"{hub.base}user/{PEOPLE[1]}/{APP_PATH}")
            found["other"] = (other.status, other.url, (await other.text())[:2000])
            if not first.failed and not visits[1][0].failed:
                found["share"] = await shared_link(sender, await visits[1][2].new_page())
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
    share = found.get("share")
    if share is None:
        problems.append("no shared link tried (the first two people had no app)")
    else:
        print(f"  {PEOPLE[0]}'s Copy link: {share['link'][:110]}...")
        query = urlsplit(share["link"]).query
        if not share["link"].startswith(f"{hub.base}hub/user-redirect/{APP_PATH}?"):
            problems.append(f"the Copy link is not the hub's user-redirect link: {share['link']}")
        elif parse_query(query).scenario != json.loads(share["sent"]):
            problems.append(f"the Copy link does not hold the sender's scenario: {query}")
        if not share["opened_at"].startswith(f"{hub.base}user/{PEOPLE[1]}/{APP_PATH}?"):
            problems.append(f"{PEOPLE[1]} opening the link landed on {share['opened_at']}, not their own app")
        if share["received"].startswith("not shown"):
            problems.append(f"{PEOPLE[1]}'s app does not show the linked scenario: {share['received'][:300]}")
    status, url, text = found["other"]
    print(f"  {PEOPLE[0]} asking for {PEOPLE[1]}'s app: HTTP {status} at {url}")
    if status != 403:
        problems.append(f"{PEOPLE[0]} asking for {PEOPLE[1]}'s app got HTTP {status} at {url}, not 403: {text[:300]}")
    if tracebacks:
        problems.append("kernel tracebacks:\n" + "\n\n".join(tracebacks))
    if "notebooks run with explorer.serving.execute" not in hub.log():
        problems.append("the servers did not load the explorer's notebook runner (jupyter_server_config.json)")
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
