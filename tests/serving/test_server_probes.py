"""Probes an attacker could send to the server ``make run`` starts, kept so that no change reopens them.

Each probe goes to a real `scripts/serve.py` (one warm kernel) over loopback:

* **a foreign Host on every route**: each of the routes Voila and jupyter_server mount (static
  files, templates, labextensions, themes, files, kernels and their websocket, the shutdown post,
  login, the page, the query websocket) answers 403 to ``Host: evil.example`` (a DNS-rebinding
  page sends one), with the token or without;
* **the query websocket** (``/voila/query/<kernel id>``, where a warm kernel learns its page's
  request, token included) opens only for the kernel's own key, with a local Host and no
  browser ``Origin``: no key, a wrong key, another kernel's key, a browser Origin or a foreign
  Host all get 403 and no byte of the request;
* **dropped downloads**: a client that asks for Voila's largest script gzipped and resets the
  connection after the first bytes, again and again (and HEAD requests between), leaves every
  later response whole;
* **weak tokens**: ``serve.py --public --token WORKSHOP`` (or any token under 16 characters, or
  guessable) stops with one line before anything starts.

Run alone: ``.venv/bin/python -m pytest tests/serving/test_server_probes.py -q -p no:cacheprovider``.
"""

from __future__ import annotations

import gzip
import http.client
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from explorer.panels.common.request_info import QUERY_KEY_ENV, QUERY_KEY_HEADER
from tests.serving.test_server import TOKEN, Server, fetch, start_server, stop_server

pytestmark = pytest.mark.browser

FOREIGN = "evil.example"
ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(sys.prefix) / "share" / "jupyter" / "voila" / "templates" / "base" / "static"
"""Where Voila's ``/voila/static/`` files come from in this environment."""
ANSWER_S = 90.0
"""How long a probe waits for the server's answer. These probes check what is answered, not how
fast: a slow machine whose server is busy rendering a warm kernel's page may take many seconds."""


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The server as ``make run`` starts it, with one warm kernel."""
    running = start_server("probes", "--max-sessions=3", "--warm=1")
    try:
        running.wait_kernel_count(1)
        yield running
    finally:
        stop_server(running)


def raw_request(port: int, path: str, host: str, extra: str = "", method: str = "GET") -> tuple[int, bytes]:
    """One HTTP/1.1 request with exactly the Host given: (status, the bytes of the answer read)."""
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_S) as sock:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            piece = sock.recv(65536)
            if not piece:
                break
            answer += piece
    return int(answer.split(b" ", 2)[1]), answer


def upgrade_headers(extra: str = "") -> str:
    """The headers of a websocket upgrade."""
    return ("Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" + extra)


def kernel_keys(server: Server) -> dict[str, str]:
    """Each running kernel's query key, read from its process's environment."""
    keys = {}
    for kernel_id, pid in server.kernels().items():
        key = psutil.Process(pid).environ().get(QUERY_KEY_ENV)
        if key:
            keys[kernel_id] = key
    return keys


def test_a_foreign_host_is_refused_on_every_route(server: Server) -> None:
    kernel_id = next(iter(server.kernels()))
    routes = [
        "/voila/static/voila.js", "/voila/templates/lab/static/voila.js",
        "/voila/labextensions/@jupyter-widgets/jupyterlab-manager/package.json",
        "/voila/api/themes/theme-light-extension/index.css", "/voila/files/explorer.ipynb",
        f"/api/kernels/{kernel_id}", "/login", "/logout", "/", "/static/base/images/favicon.ico",
        "/voila/render/explorer.ipynb", "/voila/tree",
    ]
    for path in routes:
        for query in ("", f"?token={TOKEN}"):
            status, _ = raw_request(server.port, path + query, FOREIGN)
            assert status == 403, f"GET {path}{query} with Host {FOREIGN}: {status}"
            status, _ = raw_request(server.port, path + query, f"{FOREIGN}:{server.port}", method="HEAD")
            assert status == 403, f"HEAD {path}{query} with a foreign Host: {status}"
    for path in (f"/api/kernels/{kernel_id}/channels?token={TOKEN}", f"/voila/query/{kernel_id}"):
        key = kernel_keys(server).get(kernel_id, "")
        status, _ = raw_request(server.port, path, FOREIGN, upgrade_headers(f"{QUERY_KEY_HEADER}: {key}\r\n"))
        assert status == 403, f"websocket {path} with Host {FOREIGN}: {status}"
    status, _ = raw_request(server.port, f"/voila/api/shutdown/{kernel_id}?token={TOKEN}", FOREIGN,
                            "Content-Length: 0\r\n", method="POST")
    assert status == 403
    assert kernel_id in server.kernels()
    # the same routes from this machine's own address answer (the refusals above are the Host's doing)
    status, _ = raw_request(server.port, "/voila/static/voila.js", f"127.0.0.1:{server.port}")
    assert status == 200
    status, _ = raw_request(server.port, "/voila/static/voila.js", f"localhost:{server.port}")
    assert status == 200


def query_status(server: Server, kernel_id: str, key: str | None, origin: str | None = None) -> int | str:
    """Open the query websocket: the refusal's status, or the first message if it opens."""
    headers = {QUERY_KEY_HEADER: key} if key is not None else {}
    try:
        with connect(f"ws://127.0.0.1:{server.port}/voila/query/{kernel_id}", additional_headers=headers,
                     origin=origin, open_timeout=ANSWER_S) as ws:  # type: ignore[arg-type]
            try:
                return str(ws.recv(timeout=1))
            except TimeoutError:
                return "open"
    except InvalidStatus as refusal:
        return refusal.response.status_code


def test_the_query_websocket_answers_only_its_kernel(server: Server) -> None:
    keys = kernel_keys(server)
    assert keys, f"no kernel carries {QUERY_KEY_ENV} in its environment: {server.kernels()}"
    kernel_id, key = next(iter(keys.items()))
    other = "00000000-0000-4000-8000-000000000000"
    assert query_status(server, kernel_id, None) == 403
    assert query_status(server, kernel_id, "a-guess") == 403
    assert query_status(server, kernel_id, key[:-1]) == 403
    assert query_status(server, other, key) == 403  # a key opens only its own kernel's socket
    for origin in (f"http://127.0.0.1:{server.port}", "http://evil.example"):
        assert query_status(server, kernel_id, key, origin=origin) == 403, origin  # no page may open it
    status, _ = raw_request(server.port, f"/voila/query/{kernel_id}", f"{FOREIGN}:{server.port}",
                            upgrade_headers(f"{QUERY_KEY_HEADER}: {key}\r\n"))
    assert status == 403
    # the kernel's own key, from this machine, with no Origin: open (the way the kernel itself connects)
    answer = query_status(server, kernel_id, key)
    assert answer != 403 and not isinstance(answer, int), answer
    # a page that takes the warm kernel still works: the kernel learns its request through the key
    status, _, body = fetch(f"http://127.0.0.1:{server.port}/?token={TOKEN}&game=aq")
    assert status == 200 and "kernelId" in body


def drop_download(port: int, path: str, method: str = "GET", keep: int = 1, wait: float = 0.0) -> None:
    """Ask for `path` gzipped with a tiny receive buffer, read `keep` bytes, wait, reset the connection.

    A reset within a few milliseconds of the first bytes catches the server mid-file (seen: a
    body cut at 327,680 of 368,575 bytes kept by the old cache); later ones find it done.
    """
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # the server's writes back up at once
    sock.settimeout(ANSWER_S)
    sock.connect(("127.0.0.1", port))
    try:
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: gzip\r\n\r\n".encode())
        got = b""
        try:
            while len(got) < keep:
                piece = sock.recv(keep - len(got))
                if not piece:
                    break
                got += piece
        except TimeoutError:
            pass
        time.sleep(wait)
    finally:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close = RST
        sock.close()


def test_dropped_downloads_leave_every_later_response_whole(server: Server) -> None:
    biggest = max(STATIC.glob("*.js"), key=lambda p: p.stat().st_size)
    content = biggest.read_bytes()
    assert len(content) > 200_000, f"{biggest} is small ({len(content)} bytes): the probe needs a big file"
    path = f"/voila/static/{biggest.name}"
    for method, keep, wait in (("GET", 1, 0.0), ("HEAD", 1, 0.0), ("GET", 100, 0.0), ("GET", 1, 0.002),
                               ("GET", 4096, 0.01), ("GET", 1, 0.0)):
        drop_download(server.port, path, method, keep, wait)
    time.sleep(0.5)
    for _ in range(3):  # the first compressed as it is sent (chunked), the next from the cache
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=ANSWER_S)
        try:
            connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            body = response.read()  # a short body raises IncompleteRead here
        finally:
            connection.close()
        assert response.status == 200
        if response.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        assert len(body) == len(content) and body == content, f"{path}: {len(body)} bytes of {len(content)}"


@pytest.mark.parametrize("token", ["WORKSHOP", "short-token", "aaaaaaaaaaaaaaaaaaaaaa", "sixteen-chars-ok!", "tökentökentökentöken"])
def test_a_weak_or_odd_token_is_refused_before_anything_starts(token: str) -> None:
    """`serve.py` refuses a token shorter than 16 characters, guessable, or of other characters, in one line."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "serve.py"), "--public", f"--token={token}",
                           "--port=1"], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --token: "), done.stderr
    assert "Open" not in done.stdout  # no address printed, nothing started
