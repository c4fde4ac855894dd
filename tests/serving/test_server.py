"""The server behind ``make run`` (`scripts/serve.py`, `explorer.serving.server`), from the outside.

Each test starts ``scripts/serve.py`` on a free port in its own process group and watches the
kernel processes it starts (children running ``ipykernel_launcher``; a kernel's process names its
``kernel-<id>.json``). Pages are opened in Debian's Chromium. Checked:

* a page left (tab closed, or navigated away) frees its kernel at once, page after page;
* a page that vanished without a word (no ``beforeunload``) has its kernel culled, while an open
  but idle page keeps its own;
* a wrong ``Host`` header, a missing or wrong token, a shutdown post without the XSRF value
  are refused;
* past the cap, a page gets the "explorer is full" message, and a place freed is usable again.

Run alone: ``.venv/bin/python -m pytest tests/serving/test_server.py -q -p no:cacheprovider``.
Server logs go to ``build/test-server-*.log``.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest

from tests.browser.support import page_kernel_id

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build"
SERVE = ROOT / "scripts" / "serve.py"
TOKEN = "test-token-0123456789"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
START_TIMEOUT_S = 60.0
RENDER_TIMEOUT_S = float(os.environ.get("EXPLORER_RENDER_TIMEOUT") or 120)
FREED_WITHIN_S = 20.0
"""A left page's kernel must be gone this soon: far below the 120 s culling of the default."""


def free_port() -> int:
    """A free TCP port on localhost."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(what: str, predicate: Callable[[], Any], timeout: float, log: Callable[[], str] | None = None) -> Any:
    """Poll `predicate` until it returns something true; fail naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f} s" + (f"\n\nserver log (tail):\n{log()}" if log else ""))
        time.sleep(0.25)


@dataclass
class Server:
    """A `scripts/serve.py` started by a test."""

    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def url(self) -> str:
        """The address to open, token included."""
        return f"http://127.0.0.1:{self.port}/?token={TOKEN}"

    def log_tail(self, lines: int = 40) -> str:
        """The end of what the server printed."""
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def kernels(self) -> dict[str, int]:
        """The server's kernel processes now, as {kernel id: pid}."""
        found = {}
        with contextlib.suppress(psutil.NoSuchProcess):
            for child in psutil.Process(self.process.pid).children(recursive=True):
                with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
                    line = child.cmdline()
                    if any("ipykernel_launcher" in part for part in line):
                        names = [Path(p).name for p in line if Path(p).name.startswith("kernel-")]
                        kernel_id = names[0][len("kernel-"):-len(".json")] if names else f"pid-{child.pid}"
                        found[kernel_id] = child.pid
        return found

    def wait_kernel_count(self, count: int, timeout: float = 60.0) -> None:
        """Wait until exactly `count` kernel processes run (the warm pool refills after a while)."""
        wait_for(f"{count} kernel process(es), have {len(self.kernels())}",
                 lambda: len(self.kernels()) == count, timeout, self.log_tail)


def start_server(name: str, *options: str) -> Server:
    """Start ``scripts/serve.py`` with `options` and wait until it answers."""
    BUILD.mkdir(exist_ok=True)
    port = free_port()
    log_path = BUILD / f"test-server-{name}.log"
    command = [sys.executable, str(SERVE), f"--port={port}", f"--token={TOKEN}", *options]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=dict(os.environ, PYTHONUNBUFFERED="1"), stdin=subprocess.DEVNULL,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = Server(port, process, log_path)
    probe = f"http://127.0.0.1:{port}/voila/static/voila.js"  # answers without starting a kernel

    def answers() -> bool:
        if process.poll() is not None:
            pytest.fail(f"serve.py exited with code {process.returncode}:\n{server.log_tail()}")
        try:
            urllib.request.urlopen(probe, timeout=2).close()
        except urllib.error.HTTPError:
            return True
        except OSError:
            return False
        return True

    wait_for("the server answering", answers, START_TIMEOUT_S, server.log_tail)
    return server


def stop_server(server: Server) -> None:
    """SIGTERM the server's process group (it shuts its kernels down), SIGKILL if it hangs."""
    if server.process.poll() is None:
        try:
            os.killpg(server.process.pid, signal.SIGTERM)
            server.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=10)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The server as ``make run`` starts it (one warm kernel), capped at 2 sessions."""
    server = start_server("main", "--max-sessions=2")
    try:
        server.wait_kernel_count(1)  # the warm kernel
        yield server
    finally:
        stop_server(server)


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    """Debian's Chromium, headless."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium_path), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_app(context: Any, server: Server, charts: bool = False) -> tuple[Any, str]:
    """Open the explorer in a new tab; return the tab and its kernel id once the app is on screen.

    The app's widgets come from the kernel over the page's websocket, so once they show, the page
    is connected. With `charts`, also wait for a Plotly chart holding data.
    """
    page = context.new_page()
    page.goto(server.url, wait_until="commit")
    page.locator(".explorer-app").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_S * 1000)
    if charts:
        page.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')].some((g) => (g.data || []).length > 0)",
            timeout=RENDER_TIMEOUT_S * 1000,
        )
    kernel_id = page_kernel_id(page)
    assert kernel_id in server.kernels(), f"the page's kernel {kernel_id} is not among the server's kernels"
    return page, kernel_id


def leave_all(context: Any) -> None:
    """Leave every tab of `context` as a person closing them would (``beforeunload`` runs)."""
    for page in list(context.pages):
        if not page.is_closed():
            page.close(run_before_unload=True)


def test_leaving_a_page_frees_its_kernel(server: Server, browser: Any) -> None:
    """Open and leave the explorer three times: each page's kernel ends at once, none is left."""
    context = browser.new_context()
    try:
        for visit in range(3):
            page, kernel_id = open_app(context, server, charts=True)  # preheated pages draw, every time
            if visit % 2:
                page.goto("about:blank")  # navigating away also fires beforeunload
            else:
                page.close(run_before_unload=True)
            wait_for(f"visit {visit + 1}: kernel {kernel_id} shut down after the page was left",
                     lambda kernel_id=kernel_id: kernel_id not in server.kernels(), FREED_WITHIN_S, server.log_tail)
            if not page.is_closed():
                page.close()
        server.wait_kernel_count(1)  # the warm kernel again, and nothing else
    finally:
        context.close()


def fetch(url: str, host: str | None = None, cookies: http.cookiejar.CookieJar | None = None,
          data: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    """One request, redirects not followed: (status, headers, body)."""

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    handlers: list[Any] = [NoRedirect()]
    if cookies is not None:
        handlers.append(urllib.request.HTTPCookieProcessor(cookies))
    opener = urllib.request.build_opener(*handlers)
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body)
    if host is not None:
        request.add_unredirected_header("Host", host)
    if data is not None:
        request.add_header("Origin", "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url)))
    try:
        with opener.open(request, timeout=RENDER_TIMEOUT_S) as response:
            return response.status, dict(response.headers), response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8", "replace")


def test_wrong_host_is_refused(server: Server) -> None:
    """A Host that is not this machine's gets 403 (a DNS-rebinding page would send one)."""
    before = set(server.kernels())
    for host in ("evil.example", f"evil.example:{server.port}", f"192.0.2.1:{server.port}"):
        status, _, _ = fetch(server.url, host=host)
        assert status == 403, f"Host {host!r}: status {status}, expected 403"
    status, headers, _ = fetch(f"http://127.0.0.1:{server.port}/", host=f"localhost:{server.port}")
    assert status == 302, f"Host localhost: status {status}, expected the login redirect (302)"
    assert set(server.kernels()) == before, "a refused request started a kernel"


def test_missing_or_wrong_token_is_refused(server: Server) -> None:
    """No token or a wrong one: sent to the login page, no kernel; the right one gets the app."""
    before = set(server.kernels())
    for query in ("", "?token=wrong-token"):
        status, headers, body = fetch(f"http://127.0.0.1:{server.port}/{query}")
        assert status == 302 and "/login" in headers.get("Location", ""), f"{query or 'no token'}: status {status}"
        assert "kernelId" not in body
    assert set(server.kernels()) == before, "a request without the token started a kernel"
    status, _, body = fetch(f"http://127.0.0.1:{server.port}/voila/api/shutdown/{next(iter(before))}", data={})
    assert status == 403, f"shutdown post without the token: status {status}"
    assert set(server.kernels()) == before


def test_page_carries_the_xsrf_cookie_its_shutdown_needs(server: Server) -> None:
    """The root of the old 403: the page must set ``_xsrf``; the shutdown post needs its value."""
    jar = http.cookiejar.CookieJar()
    status, _, body = fetch(server.url, cookies=jar)
    assert status == 200, f"the page with the token: status {status}"
    kernel_id = json.loads(body.split('id="jupyter-config-data" type="application/json">', 1)[1]
                           .split("</script>", 1)[0])["kernelId"]
    xsrf = next((c.value for c in jar if c.name == "_xsrf"), None)
    assert xsrf, f"the page set no _xsrf cookie (cookies: {[c.name for c in jar]})"
    shutdown = f"http://127.0.0.1:{server.port}/voila/api/shutdown/{kernel_id}"
    status, _, _ = fetch(shutdown, cookies=jar, data={"_xsrf": ""})
    assert status == 403, f"shutdown post with an empty _xsrf: status {status}, expected 403"
    assert kernel_id in server.kernels()
    status, _, body = fetch(shutdown, cookies=jar, data={"_xsrf": xsrf})
    assert status == 204, f"shutdown post with the page's _xsrf: status {status} {body}"
    wait_for(f"kernel {kernel_id} shut down", lambda: kernel_id not in server.kernels(), FREED_WITHIN_S, server.log_tail)
    server.wait_kernel_count(1)


def test_cap_gives_the_full_message(server: Server, browser: Any) -> None:
    """Two sessions open (the cap): a third tab says so, a reload still works, a closed tab frees a place."""
    context = browser.new_context()
    try:
        first, first_kernel = open_app(context, server)
        second, _ = open_app(context, server)
        third = context.new_page()
        response = third.goto(server.url)
        assert response is not None and response.status == 503, f"third page: status {response and response.status}"
        text = third.locator(".explorer-full").inner_text(timeout=10_000)
        assert text == "The explorer is full: 2 sessions are open; close a tab or try again in a minute.", text
        assert len(server.kernels()) == 2, f"kernels past the cap: {server.kernels()}"
        second.reload(wait_until="commit")  # its own place is freed as it reloads: not "full"
        second.locator(".explorer-app, .explorer-full").first.wait_for(state="visible", timeout=RENDER_TIMEOUT_S * 1000)
        assert second.locator(".explorer-full").count() == 0, "a reload at the cap got the 'full' message"
        assert len(server.kernels()) == 2, f"kernels past the cap after a reload: {server.kernels()}"
        first.close(run_before_unload=True)
        wait_for("the first tab's kernel shut down", lambda: first_kernel not in server.kernels(),
                 FREED_WITHIN_S, server.log_tail)
        third.close()
        open_app(context, server)  # a place is free again
        leave_all(context)
        server.wait_kernel_count(1)  # both tabs' kernels gone, the warm one back
    finally:
        context.close()


def test_abandoned_kernel_is_culled_but_an_open_page_is_kept(browser: Any) -> None:
    """A tab gone without ``beforeunload`` loses its kernel to the culler; an idle open tab does not."""
    idle_timeout = 15  # the least serve.py takes: a page's kernel must outlive the page's loading
    server = start_server("cull", "--warm=0", f"--idle-timeout={idle_timeout}")
    context = browser.new_context()
    try:
        kept, kept_kernel = open_app(context, server)
        gone, gone_kernel = open_app(context, server)
        gone.close()  # Playwright's default: no beforeunload, so no shutdown post; the websocket closes
        started = time.monotonic()
        time.sleep(1.0)
        assert gone_kernel in server.kernels(), "the kernel went at once: the culler is not what this test checks"
        wait_for("the abandoned kernel culled", lambda: gone_kernel not in server.kernels(),
                 idle_timeout + 20, server.log_tail)
        waited = time.monotonic() - started
        time.sleep(max(0.0, idle_timeout + 3 - waited))
        assert kept_kernel in server.kernels(), "the open (connected, idle) page's kernel was culled"
        assert kept.locator(".explorer-app").first.is_visible()
    finally:
        context.close()
        stop_server(server)
