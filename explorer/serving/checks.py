"""The same Host, Origin and key checks on every route the explorer's server answers.

jupyter_server's handlers (the page, kernels, login, labextensions, themes, files) check the
``Host`` header before anything else, so a page on another site that points a name of its own at
this machine (DNS rebinding) gets 403. Voila also mounts plain tornado handlers that skip it: its
static files (``/voila/static/``, ``/voila/templates/``) and the query websocket of preheated
kernels (``/voila/query/<kernel id>``), which needed no token at all and handed the page
request's details, its token included, to anyone who knew a kernel id. `guard_handlers` fixes
both in the handler list Voila builds:

* every handler that is not one of jupyter_server's gets the same Host check (`HostCheck`);
* the query websocket is replaced by `QueryHandler`: a local Host, no browser ``Origin`` (its
  only client is the kernel itself), and the key that kernel was started with
  (`explorer.panels.common.request_info`), compared in constant time. `QUERY_KEYS` holds one key
  per warm kernel, made by `explorer.serving.sessions.SessionCap` when it starts the kernel and dropped
  when the kernel shuts down.
"""

from __future__ import annotations

import hmac
import logging
import secrets
from typing import Any

import tornado.web
from jupyter_server.base.handlers import JupyterHandler
from tornado.log import app_log
from voila.request_info_handler import RequestInfoSocketHandler

from explorer.panels.common.request_info import QUERY_KEY_HEADER

__all__ = ["QUERY_KEYS", "HostCheck", "QueryHandler", "QueryKeys", "guard_handlers"]


class HostCheck(tornado.web.RequestHandler):
    """Mixin: refuse (403) a request whose ``Host`` is not this machine's, before the handler runs.

    The rule is jupyter_server's own (`JupyterHandler.check_host`: any Host with
    ``allow_remote_access``, else a loopback address or one of ``local_hostnames``), applied to
    this handler, so the two can never disagree.
    """

    @property
    def log(self) -> logging.Logger:
        """Where `JupyterHandler.check_host` reports a refused Host."""
        return app_log

    def prepare(self) -> Any:
        """Check the Host, then prepare as the handler would."""
        if not JupyterHandler.check_host(self):  # type: ignore[arg-type]  # it reads settings, request and log only
            raise tornado.web.HTTPError(403, "this server answers only to its own address")
        return super().prepare()


class QueryKeys:
    """The key of each warm kernel for the query websocket (see the module).

    >>> keys = QueryKeys()
    >>> key = keys.new()
    >>> keys.register("k1", key)
    >>> keys.matches("k1", key), keys.matches("k1", "guess"), keys.matches("k2", key)
    (True, False, False)
    >>> keys.forget("k1"); keys.matches("k1", key)
    False
    """

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}

    @staticmethod
    def new() -> str:
        """A fresh key (256 random bits)."""
        return secrets.token_urlsafe(32)

    def register(self, kernel_id: str, key: str) -> None:
        """`key` is `kernel_id`'s from now on."""
        self._keys[kernel_id] = key

    def forget(self, kernel_id: str) -> None:
        """The kernel is gone: no key opens its websocket any more."""
        self._keys.pop(kernel_id, None)

    def matches(self, kernel_id: str, key: str) -> bool:
        """Whether `key` is `kernel_id`'s (compared in constant time)."""
        wanted = self._keys.get(kernel_id)
        return wanted is not None and hmac.compare_digest(wanted.encode(), key.encode())


QUERY_KEYS = QueryKeys()
"""The server's one table of query keys."""


class QueryHandler(HostCheck, RequestInfoSocketHandler):  # type: ignore[misc]  # Voila is untyped
    """Voila's query websocket, answering only the kernel it serves (see the module)."""

    def prepare(self) -> Any:
        """A local Host, no browser Origin, and the kernel's own key; else 403 before any upgrade."""
        if self.request.headers.get("Origin") is not None:
            raise tornado.web.HTTPError(403, "not for pages")
        kernel_id = str(self.path_kwargs.get("kernel_id") or (self.path_args or [""])[0])
        key = self.request.headers.get(QUERY_KEY_HEADER, "")
        if not QUERY_KEYS.matches(kernel_id, key):
            raise tornado.web.HTTPError(403, "no such kernel, or not its key")
        return super().prepare()

    def check_origin(self, origin: str) -> bool:
        """No page may open this websocket, whatever its Origin (its client is a kernel)."""
        return False


_CHECKED: dict[type, type] = {}


def host_checked(handler: type) -> type:
    """`handler` behind `HostCheck` (the same class each time for the same handler)."""
    if handler not in _CHECKED:
        _CHECKED[handler] = type(f"HostChecked{handler.__name__}", (HostCheck, handler), {})
    return _CHECKED[handler]


def guard_handlers(handlers: list[Any]) -> list[Any]:
    """Voila's handler list with every route behind the checks (see the module).

    jupyter_server's own handlers are kept as they are (they check the Host in their
    ``prepare``); the query websocket becomes `QueryHandler`; any other tornado handler gets
    `HostCheck` in front.
    """
    guarded: list[Any] = []
    for spec in handlers:
        if isinstance(spec, tuple) and len(spec) >= 2 and isinstance(spec[1], type):
            handler = spec[1]
            if issubclass(handler, RequestInfoSocketHandler):
                spec = (spec[0], QueryHandler, *spec[2:])
            elif issubclass(handler, tornado.web.RequestHandler) and not issubclass(handler, JupyterHandler):
                spec = (spec[0], host_checked(handler), *spec[2:])
        guarded.append(spec)
    return guarded
