"""Kernel connections whose IOPub queue never drops a message (the root of "Timeout waiting for IOPub output").

A kernel publishes its output on a ZeroMQ PUB socket, which *drops* messages once the queue to a
subscriber holds its high-water mark (1,000 messages on each side by default). The explorer's app
cell publishes about 1,100 messages (a comm_open per widget, then their state), so a server busy
with another page (two pages opened close together on a 2-core machine) can fall far enough behind
for the queue to fill: the cell's last messages, its "idle" status among them, are lost, nbclient
waits its whole ``iopub_timeout`` and then logs "Timeout waiting for IOPub output", and the page
is sent without its app, a spinner that never ends. Measured on this machine: a reader pausing
for 15 s lost 7 of 3,003 messages, the final idle status among them; with these sockets, none.

`UnboundedIOPub` gives the server's IOPub subscribers (the one that runs the notebook for a page
and the one behind each page's websocket) no receive limit: ZeroMQ's own I/O thread, which runs
whatever the Python thread is doing, then keeps emptying the kernel's queue into the server's
memory. The kernel's output is bounded by the app itself (a few MB), so the queue cannot grow
without end. `ExplorerKernelManager` and `ExplorerKernelClient` are the classes the server uses.
"""

from __future__ import annotations

from typing import Any

import zmq
from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_server.services.kernels.kernelmanager import ServerKernelManager
from traitlets import DottedObjectName, Type

__all__ = ["ExplorerKernelClient", "ExplorerKernelManager", "UnboundedIOPub", "unbounded_subscriber"]


def unbounded_subscriber(context: zmq.Context[Any], url: str, identity: bytes | None = None,
                         curve: tuple[bytes, bytes] | None = None) -> Any:
    """A SUB socket with no receive limit, connected to `url` (the limit is set before connecting:
    ZeroMQ applies it only to connections made afterwards).

    Args:
        context: The ZeroMQ context.
        url: The kernel's IOPub address.
        identity: The socket identity, if any.
        curve: (secret key, public key) when the connection is encrypted with CurveZMQ.

    >>> ctx = zmq.Context()
    >>> sock = unbounded_subscriber(ctx, "tcp://127.0.0.1:1")
    >>> sock.rcvhwm, sock.type == zmq.SUB
    (0, True)
    >>> sock.close(); ctx.term()
    """
    sock = context.socket(zmq.SUB)
    sock.linger = 1000
    sock.rcvhwm = 0
    if identity:
        sock.identity = identity
    if curve is not None:
        sock.curve_secretkey, sock.curve_publickey = curve
        sock.curve_serverkey = curve[1]
    sock.connect(url)
    return sock


class UnboundedIOPub:
    """Mixin for a jupyter_client connection (a kernel manager or client): IOPub sockets with no
    receive limit (`unbounded_subscriber`); every other channel as jupyter_client makes it."""

    context: Any
    log: Any

    def _create_connected_socket(self, channel: str, identity: bytes | None = None) -> Any:
        if channel != "iopub":
            return super()._create_connected_socket(channel, identity)  # type: ignore[misc]
        url = self._make_url(channel)  # type: ignore[attr-defined]
        public = getattr(self, "curve_publickey", None)
        curve = (self.curve_secretkey, public) if public is not None else None  # type: ignore[attr-defined]
        self.log.debug("Connecting to: %s (no receive limit)", url)
        return unbounded_subscriber(self.context, url, identity, curve)


class ExplorerKernelClient(UnboundedIOPub, AsyncKernelClient):
    """The async kernel client nbclient runs a page's notebook with."""


class ExplorerKernelManager(UnboundedIOPub, ServerKernelManager):
    """jupyter_server's kernel manager, whose websocket IOPub and clients have no receive limit."""

    client_class = DottedObjectName("explorer.serving.iopub.ExplorerKernelClient")
    client_factory = Type(klass=ExplorerKernelClient)
