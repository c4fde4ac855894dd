"""The explorer's Voila server: kernels freed on leave, culled when abandoned, capped in number.

`scripts/serve.py` (``make run``) starts :class:`ExplorerVoila`, a small subclass of Voila's
application that changes these things:

* **Kernels are freed when a page is left.** Voila's page reads the ``_xsrf`` cookie and posts it
  to ``/voila/api/shutdown/<kernel_id>`` on ``beforeunload``; but Voila's page handler never
  issues that cookie, so the post carries an empty ``_xsrf`` and jupyter_server answers
  403 "'_xsrf' argument missing from POST", leaving one kernel behind per page view.
  :class:`ExplorerPageHandler` issues the cookie with the page, so the check passes as designed
  (XSRF protection stays on). :class:`ExplorerShutdownHandler` also answers 404 for a kernel
  that is unknown or still waiting in the warm pool, rather than a 500 or a lost warm kernel.
* **Abandoned kernels are culled**: a kernel with no open websocket and no activity for
  ``idle_timeout`` seconds is shut down (a crashed tab, a lost beacon); connected kernels stay,
  and so do kernels whose page is still being sent.
* **At most ``max_sessions`` kernels** (`explorer.serving.sessions.SessionCap`): the warm pool only fills free places, and a page asked for
  when every place is taken gets a short HTML message with status 503 instead of a kernel.
* **The warm pool refills when the machine is quiet**: a warm kernel taken by a page is replaced
  one at a time, once no page has been asked for during ``refill_quiet`` seconds and the machine's
  CPUs are at least half idle (or after `explorer.serving.sessions.REFILL_HOLD_PER_PAGE_S` per page asked for in the last
  minute in any case), and at once when a page arrives and finds no warm kernel ready. Voila refills straight away, so when a room of
  people opens the app together every kernel taken starts a new one (about 2 CPU-seconds each)
  while the pages being opened still need the CPU.
* **Host check restored**: Voila turns jupyter_server's ``allow_remote_access`` on; here only
  loopback addresses and ``localhost`` are accepted as the ``Host`` unless ``public`` is set, on
  every route, Voila's static files included; the query websocket of warm kernels answers only
  the kernel it serves, with its own key (`explorer.serving.checks`).
* **A page's notebook is run by** `explorer.serving.execute.ExplorerExecutor`: a kernel whose
  output goes quiet is nudged, a cell whose last output was lost is not waited for, and the
  cell that shows the app is run again if its output did not all arrive.

It builds on Voila 0.5's internals (its handler classes and `voila_kernel_manager_factory`); if a
Voila upgrade moves the handlers it replaces, :meth:`ExplorerVoila.init_handlers` stops the start
with a message rather than serve pages that leak kernels.
"""

from __future__ import annotations

import asyncio
import html
import re
from typing import Any

import tornado.web
from traitlets import Bool, Float, Integer
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.voila_kernel_manager import voila_kernel_manager_factory

from explorer.serving import execute
from explorer.serving.checks import guard_handlers
from explorer.serving.compression import CachedGZip
from explorer.serving.sessions import TICKET, SessionCap

PLACE_WAIT_S = 5.0
"""How long a page request waits for a place when all are taken before it is refused: on a reload,
the page left posts its kernel's shutdown at about the time the new page is asked for."""

FULL_MESSAGE = "The explorer is full: {n} sessions are open; close a tab or try again in a minute."
"""What a page asked for beyond the cap says (``n`` is the number of open sessions)."""


def full_page(open_sessions: int) -> str:
    """The HTML a page request gets when every session place is taken."""
    message = html.escape(FULL_MESSAGE.format(n=open_sessions))
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>Rules explorer: full</title></head>\n"
        '<body style="font-family: sans-serif; max-width: 40em; margin: 4em auto; line-height: 1.5">\n'
        "<h1>Rules explorer</h1>\n"
        f'<p class="explorer-full">{message}</p>\n'
        '<p><a href="">Try again</a></p>\n'
        "</body></html>\n"
    )


_CDN_STYLESHEET = re.compile(r'<link[^>]*href="https://cdn\.jsdelivr\.net/npm/@fortawesome/[^"]*"[^>]*>\s*')
"""Voila's lab template links Font Awesome from a CDN although its own bundle already carries
the icons; offline (a workshop room, this machine) each link is a failed request and a console
error on every page, so the page is sent without them."""


_STILL_SPINNER = "<style>#loading .spinner { animation: none; }</style>\n"
"""Voila's page turns its logo for as long as the app loads. A page that waits for the CPU (a room
opening the app at once on a small machine) then repaints it at every frame: about a fifth of
the page's CPU time in `benchmarks/bench_room.py`. The logo stands still; "Running explorer..."
below it says what is happening."""


STUCK_AFTER_S = 40
"""Seconds after which a page still without the app says so and offers to try again."""

_STUCK_WATCH = """<script>
(() => {
  // A page whose app has not appeared says so after a while, with a way to try again, rather
  // than leaving its visitor at a spinner; it steps aside if the app comes after all.
  const limit = %d * 1000, start = Date.now();
  const check = () => {
    const box = document.getElementById('explorer-stuck');
    if (document.querySelector('.explorer-app')) { if (box) box.remove(); return; }
    if (!box && Date.now() - start >= limit && document.body) {
      const note = document.createElement('div');
      note.id = 'explorer-stuck';
      note.setAttribute('role', 'alert');
      note.style.cssText = 'max-width:40em;margin:2em auto;padding:1em;border:2px solid #b35900;' +
        'background:#fff8f0;font:16px sans-serif;color:#222';
      note.innerHTML = '<p><b>The explorer has not started yet.</b> The server may be busy opening ' +
        'other pages, or the connection to it was lost.</p><p><button type="button">Try again</button> ' +
        'reloads this page; a shared link keeps its battle.</p>';
      note.querySelector('button').addEventListener('click', () => window.location.reload());
      document.body.prepend(note);
    }
    setTimeout(check, 1000);
  };
  setTimeout(check, 1000);
})();
</script>
""" % STUCK_AFTER_S
"""The page's watch for an app that never comes (`STUCK_AFTER_S`)."""


def page_chunk(chunk: str) -> str:
    """A piece of Voila's page as sent: no CDN stylesheet links (`_CDN_STYLESHEET`), a still logo.

    >>> page_chunk('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/'
    ...            '@fortawesome/fontawesome-free@^5/css/all.min.css" /> <b>')
    '<b>'
    >>> page = page_chunk("<style>x</style></head><body>")
    >>> page.startswith('<style>x</style><style>#loading .spinner { animation: none; }</style>')
    True
    >>> "explorer-stuck" in page, page.endswith("</script>\\n</head><body>")
    (True, True)
    """
    if "cdn.jsdelivr.net" in chunk:
        chunk = _CDN_STYLESHEET.sub("", chunk)
    return chunk.replace("</head>", _STILL_SPINNER + _STUCK_WATCH + "</head>", 1)


class ExplorerPageHandler(TornadoVoilaHandler):  # type: ignore[misc]  # Voila is untyped
    """Voila's page handler, plus the ``_xsrf`` cookie, the session cap, no CDN stylesheets and a still logo."""

    def write(self, chunk: str | bytes | dict[str, Any]) -> None:
        """Send a piece of the page as `page_chunk` makes it."""
        if isinstance(chunk, bytes) and (b"cdn.jsdelivr.net" in chunk or b"</head>" in chunk):
            chunk = page_chunk(chunk.decode("utf-8")).encode("utf-8")
        elif isinstance(chunk, str):
            chunk = page_chunk(chunk)
        super().write(chunk)

    async def prepare(self) -> None:
        """Check the Host and the user as Voila does, then issue the ``_xsrf`` cookie.

        The page posts this cookie's value back when it is left, to free its kernel; reading
        `xsrf_token` is what makes tornado set the cookie (before any byte of the page is sent).
        """
        await super().prepare()
        if not self._finished:
            _ = self.xsrf_token

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        """Serve the notebook's page if a session place is free, else the "full" message."""
        if path:  # not the notebook: Voila redirects to the file, and no kernel starts
            await super().get(path=path)
            return
        manager = self.kernel_manager
        ticket = manager.admit()
        waited = 0.0
        while ticket is None and waited < PLACE_WAIT_S:  # a reload: the old page's kernel is going
            if await manager.reclaim():  # a tab closed without saying so gives its place
                ticket = manager.admit()
                continue
            await asyncio.sleep(0.25)
            waited += 0.25
            ticket = manager.admit()
        if ticket is None:
            self.log.warning("Refusing a page: %d sessions open (the cap)", manager.open_sessions())
            self.set_status(503)
            self.set_header("Retry-After", "60")
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.finish(full_page(manager.open_sessions()))
            return
        token = TICKET.set(ticket)
        try:
            await super().get(path=path)
        finally:
            TICKET.reset(token)
            manager.release(ticket)


class ExplorerShutdownHandler(VoilaShutdownKernelHandler):  # type: ignore[misc]  # Voila is untyped
    """Voila's shutdown-on-leave endpoint, answering 404 for unknown and warm kernels."""

    @tornado.web.authenticated
    async def post(self, kernel_id: str) -> None:
        """Shut down the kernel of the page being left (XSRF, Origin and Host checked before)."""
        manager = self.kernel_manager
        if kernel_id not in manager or manager.is_warm(kernel_id):
            raise tornado.web.HTTPError(404, "no such page kernel")
        self.log.info("Page left: shutting down kernel %s", kernel_id)
        await super().post(kernel_id)


class ExplorerVoila(Voila):  # type: ignore[misc]  # Voila is untyped
    """Voila with the explorer's kernel lifetime, session cap and Host check (see the module)."""

    max_sessions = Integer(8, config=True, help="The most kernels at a time, warm ones included.")
    idle_timeout = Integer(
        120, config=True,
        help="Seconds after which a kernel with no open websocket and no activity is shut down.",
    )
    public = Bool(False, config=True, help="Accept any Host header (a token is still required).")
    refill_quiet = Float(
        2.0, config=True,
        help="Seconds without a page request (and the CPUs half idle) before a taken warm kernel is "
             "replaced, one at a time (0: at once, as Voila does); a page finding none ready starts one at once.",
    )
    kernel_manager: Any
    """Voila's kernel manager, then ours (`init_settings`)."""

    def init_settings(self) -> dict[str, Any]:
        """Voila's settings, with our kernel manager and the Host check back on."""
        conf = self.voila_configuration
        preheat = bool(conf.preheat_kernel)
        if preheat and conf.prelaunch_hook:
            raise ValueError("preheated kernels and a prelaunch hook do not go together")
        if preheat and conf.progressive_rendering:
            raise ValueError("preheated kernels and progressive rendering do not go together")
        execute.install()  # notebooks run with a nudge for quiet output and reruns of a lost display
        conf.preheat_kernel = False  # Voila then builds a plain manager, with no pool to start
        try:
            settings: dict[str, Any] = super().init_settings()
        finally:
            conf.preheat_kernel = preheat
        self.kernel_manager = self._capped_kernel_manager(preheat, self.kernel_manager.allowed_message_types)
        settings["kernel_manager"] = self.kernel_manager
        settings["allow_remote_access"] = self.public
        settings["local_hostnames"] = ["localhost"]
        # Responses gzipped (plotly.js 1.5 MB is 0.5 MB), each static file compressed once (`compression`).
        settings["compress_response"] = False
        settings["transforms"] = [CachedGZip]  # tornado.web.Application takes it as its `transforms`
        return settings

    def _capped_kernel_manager(self, preheat: bool, allowed_message_types: list[str]) -> Any:
        """Voila's kernel manager class (pooled if `preheat`) behind `SessionCap`, with culling."""
        conf = self.voila_configuration
        pool_size = max(0, int(conf.default_pool_size)) if preheat else 0
        voila_class = voila_kernel_manager_factory(
            conf.multi_kernel_manager_class, preheat, pool_size, page_config_hook=conf.page_config_hook
        )
        capped_class = type("ExplorerKernelManager", (SessionCap, voila_class), {})
        manager = capped_class(
            parent=self,
            connection_dir=self.connection_dir,
            kernel_spec_manager=self.kernel_spec_manager,
            allowed_message_types=list(allowed_message_types),
            max_sessions=self.max_sessions,
            warm_target=pool_size,
            refill_quiet=self.refill_quiet,
            cull_idle_timeout=self.idle_timeout,
            cull_interval=max(1, min(30, self.idle_timeout // 4)),
            cull_connected=False,
            cull_busy=False,
            kernel_manager_class="explorer.serving.iopub.ExplorerKernelManager",
        )
        return manager

    def init_handlers(self) -> list[Any]:
        """Voila's handlers, with our page and shutdown handlers in place of its own."""
        swaps = {TornadoVoilaHandler: ExplorerPageHandler, VoilaShutdownKernelHandler: ExplorerShutdownHandler}
        handlers: list[Any] = []
        swapped = set()
        for spec in super().init_handlers():
            if isinstance(spec, tuple) and len(spec) >= 2 and spec[1] in swaps:
                swapped.add(spec[1])
                spec = (spec[0], swaps[spec[1]], *spec[2:])
            handlers.append(spec)
        if swapped != set(swaps):
            missing = ", ".join(cls.__name__ for cls in swaps if cls not in swapped)
            raise RuntimeError(f"Voila's handlers changed: {missing} not found (explorer/serving/server.py)")
        return guard_handlers(handlers)


def main(argv: list[str] | None = None) -> None:
    """Run the server with Voila's command line (`scripts/serve.py` builds that line)."""
    ExplorerVoila.launch_instance(argv)
