"""A preheated kernel's wait for its page request's details, with the key the server asks for.

Voila starts warm kernels before anyone asks for a page; once a page takes one, the server sends
the kernel that page's request (its query string, which holds a share link's scenario) over the
websocket ``/voila/query/<kernel id>``. Voila's own client (`voila.utils.wait_for_request`)
connects with nothing but the kernel id, so Voila's route answered anyone who knew an id, from any
Host or Origin, with the page's token inside. The explorer's server (`explorer.serving.checks`)
therefore gives each warm kernel a key of its own in its environment (`QUERY_KEY_ENV`) and
answers only a connection carrying it in the `QUERY_KEY_HEADER` header, with a local Host and no
browser ``Origin``; this module is the kernel's side of that exchange.

>>> query_url({"VOILA_APP_PORT": "9000", "VOILA_KERNEL_ID": "abc"})
'ws://127.0.0.1:9000/voila/query/abc'
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Mapping, MutableMapping

__all__ = ["QUERY_KEY_ENV", "QUERY_KEY_HEADER", "query_url", "wait_for_request"]

QUERY_KEY_ENV = "EXPLORER_QUERY_KEY"
"""The environment variable holding a warm kernel's key for the query websocket."""

QUERY_KEY_HEADER = "X-Explorer-Query-Key"
"""The request header that carries the key (a header, so that no log line shows it)."""

OPEN_TIMEOUT_S = 60.0
"""How long the kernel waits for the websocket to open. Voila's own client waits 5 s, but a server
busy sending other pages (a room opening the app at once on a small machine) can take longer, and
a kernel that gives up shows its page the default battle instead of the shared link's."""


def query_url(env: Mapping[str, str]) -> str:
    """The query websocket of this kernel, built from Voila's environment as Voila's client does."""
    protocol = env.get("VOILA_WS_PROTOCOL", "ws")
    server_ip = env.get("VOILA_APP_IP", "127.0.0.1")
    port = env.get("VOILA_APP_PORT", "8866")
    base = env.get("VOILA_WS_BASE_URL", env.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{server_ip}:{port}{base}voila/query/{env.get('VOILA_KERNEL_ID', '')}"


async def _receive(url: str, key: str) -> str | None:
    """The one message the server sends on the query websocket, or None if it cannot be had."""
    import websockets  # Voila's dependency: only a kernel served by Voila gets here

    try:
        async with websockets.connect(url, additional_headers={QUERY_KEY_HEADER: key},
                                      open_timeout=OPEN_TIMEOUT_S) as socket:
            message = await socket.recv()
    except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
        return None
    return message if isinstance(message, str) else message.decode("utf-8", "replace")


def wait_for_request(env: MutableMapping[str, str] | None = None) -> None:
    """In a preheated kernel, wait for the page request's details and put them in `env`.

    Does nothing unless ``VOILA_PREHEAT`` is ``True``. The wait runs in a thread of its own with
    its own event loop: the kernel's loop is busy running the notebook cell that asked.

    Args:
        env: Where the details go (``os.environ`` by default, as Voila's client does).
    """
    target = os.environ if env is None else env
    if target.get("VOILA_PREHEAT") != "True":
        return
    url, key = query_url(target), target.get(QUERY_KEY_ENV, "")
    got: list[str | None] = [None]

    def run() -> None:
        got[0] = asyncio.run(_receive(url, key))

    thread = threading.Thread(target=run, name="voila-request-info", daemon=True)
    thread.start()
    thread.join()
    if got[0] is not None:
        details = json.loads(got[0])
        if isinstance(details, dict):
            target.update({str(k): str(v) for k, v in details.items()})
