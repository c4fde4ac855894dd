"""The explorer's Voila server: kernels freed on leave, culled when abandoned, capped in number.

`scripts/serve.py` (``make run``) starts :class:`ExplorerVoila`, a small subclass of Voila's
application that changes four things:

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
* **At most ``max_sessions`` kernels**: the warm pool only fills free places, and a page asked for
  when every place is taken gets a short HTML message with status 503 instead of a kernel.
* **The warm pool refills when the machine is quiet**: a warm kernel taken by a page is replaced
  one at a time, once no page has been asked for during ``refill_quiet`` seconds and the machine's
  CPUs are at least half idle (or after ``REFILL_HOLD_PER_PAGE_S`` per page asked for in the last
  minute in any case), and at once when a page arrives and finds no warm kernel ready. Voila refills straight away, so when a room of
  people opens the app together every kernel taken starts a new one (about 2 CPU-seconds each)
  while the pages being opened still need the CPU.
* **Host check restored**: Voila turns jupyter_server's ``allow_remote_access`` on; here only
  loopback addresses and ``localhost`` are accepted as the ``Host`` unless ``public`` is set, on
  every route, Voila's static files included; the query websocket of warm kernels answers only
  the kernel it serves, with its own key (`explorer.serving.checks`).

It builds on Voila 0.5's internals (its handler classes and `voila_kernel_manager_factory`); if a
Voila upgrade moves the handlers it replaces, :meth:`ExplorerVoila.init_handlers` stops the start
with a message rather than serve pages that leak kernels.
"""

from __future__ import annotations

import asyncio
import contextvars
import html
import re
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import tornado.web
from jupyter_core.utils import ensure_async
from traitlets import Bool, Float, Integer
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.voila_kernel_manager import voila_kernel_manager_factory

from explorer.panels.common.request_info import QUERY_KEY_ENV
from explorer.serving.checks import QUERY_KEYS, guard_handlers
from explorer.serving.compression import CachedGZip

PLACE_WAIT_S = 5.0
"""How long a page request waits for a place when all are taken before it is refused: on a reload,
the page left posts its kernel's shutdown at about the time the new page is asked for."""

REFILL_HOLD_PER_PAGE_S = 3.0
"""How long a taken warm kernel's replacement may wait for a quiet machine, per page asked for in
the last minute: a room of ten opening the app together holds refills for up to 30 s (its pages
are drawn in about 18 s on a busy 2-CPU machine in `benchmarks/bench_room.py`, and their first
clicks answered soon after), while one person's reload finds a kernel ready a few seconds later
even on a machine kept busy."""
REFILL_MAX_WAIT_S = 120.0
"""The longest a replacement waits, however many pages were asked for."""
REFILL_IDLE_SHARE = 0.5
"""The machine is quiet when at least this share of its CPU time went idle over the last half second."""

FULL_MESSAGE = "The explorer is full: {n} sessions are open; close a tab or try again in a minute."
"""What a page asked for beyond the cap says (``n`` is the number of open sessions)."""


@dataclass
class Ticket:
    """One page request's claim on a session place, from the cap check until its kernel exists.

    Attributes:
        kernel_id: The kernel the page got, once it has one.
    """

    kernel_id: str | None = None


_TICKET: contextvars.ContextVar[Ticket | None] = contextvars.ContextVar("explorer_page_ticket", default=None)
"""The ticket of the page request being served (the kernel manager is called inside it)."""


if TYPE_CHECKING:
    class _VoilaKernelManager:
        """What `SessionCap` uses of the kernel manager it is mixed into (for the type checker only:
        Voila's classes are untyped, and the class itself is only known when the server starts)."""

        kernel_pools_config: dict[str, Any]
        _pools: dict[str, list[asyncio.Task[Any]]]

        def __init__(self, **kwargs: Any) -> None: ...
        def __contains__(self, kernel_id: str) -> bool: ...
        def list_kernel_ids(self) -> list[str]: ...
        def start_kernel(self, *args: Any, **kwargs: Any) -> Any: ...
        def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any: ...
        def _initialize(self, notebook_name: str, kernel_id: str | None = None,
                        **kwargs: Any) -> Coroutine[Any, Any, Any]: ...
        def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None,
                           **kwargs: Any) -> None: ...
        def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any: ...
        def cull_kernel_if_idle(self, kernel_id: str) -> Any: ...
        def shutdown_all(self, *args: Any, **kwargs: Any) -> Any: ...
else:
    _VoilaKernelManager = object


class SessionCap(_VoilaKernelManager):
    """Kernel-manager mixin: counts the kernels that serve pages and keeps the total under a cap.

    It is put in front of the class Voila builds (`voila_kernel_manager_factory`), so it sees
    kernels started for a page (``start_kernel``), taken from the warm pool
    (``get_rendered_notebook``) and shut down (``shutdown_kernel``, also used by the culler).
    A *session* is a kernel serving a page, or a page request admitted and still waiting for its
    kernel. Warm kernels only take places no session uses, so the kernels never exceed the cap.
    """

    def __init__(self, *, max_sessions: int, warm_target: int = 0, refill_quiet: float = 0.0,
                 **kwargs: Any) -> None:
        """Set the cap, then let the kernel manager start (it may fill the warm pool at once).

        Args:
            max_sessions: The most kernels at a time, warm ones included.
            warm_target: The warm kernels wanted when places are free (0 without preheating).
            refill_quiet: Seconds without a page request before a taken warm kernel is replaced
                (0: at once, as Voila does); a page finding no warm kernel ready starts one at once.
            **kwargs: The kernel manager's own arguments.
        """
        self.max_sessions = max_sessions
        self.warm_target = warm_target
        self.refill_quiet = refill_quiet
        self._last_request = -float("inf")  # time.monotonic() of the newest page request
        self._gates: deque[asyncio.Event] = deque()  # warm kernels waiting for quiet, oldest first
        self._refilling = 0  # held refills starting now (one at a time)
        self._requests: deque[float] = deque()  # times of the page requests of the last minute
        self._sessions: set[str] = set()
        self._loading: set[str] = set()  # kernels whose page is still being sent
        self._waiting = 0
        self._closing = False
        super().__init__(**kwargs)

    # -- counting -------------------------------------------------------------------------------

    def session_ids(self) -> set[str]:
        """The kernels serving pages now (a kernel that died on its own is dropped here)."""
        self._sessions &= set(self.list_kernel_ids())
        return set(self._sessions)

    def open_sessions(self) -> int:
        """Kernels serving pages, plus admitted page requests still waiting for one."""
        return len(self.session_ids()) + self._waiting

    def warm_count(self) -> int:
        """Warm kernels: started or starting for the pool, not yet given to a page."""
        return sum(len(pool) for pool in getattr(self, "_pools", {}).values())

    def is_warm(self, kernel_id: str) -> bool:
        """Whether `kernel_id` is a started kernel still waiting in the warm pool."""
        for pool in getattr(self, "_pools", {}).values():
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    if task.result().get("kernel_id") == kernel_id:
                        return True
        return False

    def admit(self) -> Ticket | None:
        """Reserve a place for a page request: a ticket, or None when every place is taken."""
        self._last_request = time.monotonic()
        self._requests.append(self._last_request)
        if self._closing or self.open_sessions() >= self.max_sessions:
            return None
        self._waiting += 1
        return Ticket()

    def release(self, ticket: Ticket) -> None:
        """End a page request: a ticket that never got a kernel gives its place back."""
        if ticket.kernel_id is None:
            ticket.kernel_id = ""
            self._waiting -= 1
        self._loading.discard(ticket.kernel_id)

    def _claim(self, kernel_id: str) -> None:
        """Count `kernel_id` as a session; it takes the place its request reserved, if any."""
        self._sessions.add(kernel_id)
        ticket = _TICKET.get()
        if ticket is not None and ticket.kernel_id is None:
            ticket.kernel_id = kernel_id
            self._waiting -= 1
            self._loading.add(kernel_id)

    # -- the kernel manager's methods -------------------------------------------------------------

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        """Start a kernel for a page (warm kernels are started by Voila's pool, past this method)."""
        kernel_id: str = await ensure_async(super().start_kernel(*args, **kwargs))
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") != "True":
            self._claim(kernel_id)
        return kernel_id

    def hold_limit(self) -> float:
        """How long a refill may still be held: `REFILL_HOLD_PER_PAGE_S` per page asked for in the last minute."""
        now = time.monotonic()
        while self._requests and now - self._requests[0] > 60.0:
            self._requests.popleft()
        return min(REFILL_MAX_WAIT_S, REFILL_HOLD_PER_PAGE_S * len(self._requests))

    def quiet(self) -> bool:
        """Whether no page was asked for during the last ``refill_quiet`` seconds."""
        return time.monotonic() - self._last_request >= self.refill_quiet

    def _initialize(self, notebook_name: str, kernel_id: str | None = None, **kwargs: Any) -> Coroutine[Any, Any, Any]:
        """Voila's start of a warm kernel (a coroutine), held back until the machine is quiet.

        Voila's pool calls this when it fills (``kernel_id`` None); a restart passes its kernel
        and is not held, nor is the first fill before any page was asked for. The gate is made here, when the pool adds its task, so that the gates
        are in the pool's order and `get_rendered_notebook` can open the oldest.
        """
        if kernel_id is None:  # a new warm kernel: its own key for the query websocket (`server_checks`)
            start = self._keyed_start(notebook_name, kwargs)
        else:
            start = super()._initialize(notebook_name, kernel_id, **kwargs)
        if kernel_id is not None or self.refill_quiet <= 0 or self._last_request == -float("inf"):
            return start  # a restart, no holding asked for, or the pool's first fill at server start
        gate = asyncio.Event()
        self._gates.append(gate)
        return self._after_quiet(gate, start)

    async def _keyed_start(self, notebook_name: str, kwargs: dict[str, Any]) -> Any:
        """Start a warm kernel with a query key of its own in its environment, then register the key
        (before its notebook runs: the render task Voila made is only scheduled, and runs after this returns)."""
        key = QUERY_KEYS.new()
        kwargs["env"] = {**kwargs.get("env", {}), QUERY_KEY_ENV: key}
        started = await super()._initialize(notebook_name, None, **kwargs)
        QUERY_KEYS.register(started["kernel_id"], key)
        return started

    async def _after_quiet(self, gate: asyncio.Event, start: Coroutine[Any, Any, Any]) -> Any:
        """Run `start` when a page with no warm kernel opens `gate`, or when the machine is quiet.

        Quiet: no page asked for during ``refill_quiet`` seconds, the CPUs at least half idle over
        the last half second, and no other held refill starting; or `hold_limit` passed.
        """
        created = time.monotonic()
        before = cpu_sample()
        try:
            while not gate.is_set():
                try:
                    await asyncio.wait_for(gate.wait(), timeout=0.5)
                    break
                except asyncio.TimeoutError:
                    pass
                now = cpu_sample()
                idle = idle_share(before, now)
                before = now
                waited = time.monotonic() - created
                if not self._refilling and ((self.quiet() and idle >= REFILL_IDLE_SHARE) or waited > self.hold_limit()):
                    break
        except BaseException:
            start.close()  # cancelled (the server stops): the start never ran
            raise
        finally:
            if gate in self._gates:
                self._gates.remove(gate)
        if gate.is_set():  # a page is waiting for this kernel
            return await start
        self._refilling += 1
        try:
            return await start
        finally:
            self._refilling -= 1

    def _open_gate_for(self, notebook_name: str | None) -> None:
        """A page is about to take the pool's first kernel: start it now if it is held back."""
        pool = getattr(self, "_pools", {}).get(notebook_name, [])
        if pool and not pool[0].done() and self._gates:
            self._gates[0].set()

    async def get_rendered_notebook(self, *args: Any, **kwargs: Any) -> Any:
        """Give a page a warm kernel (preheating only): that kernel becomes a session."""
        self._open_gate_for(kwargs.get("notebook_name", args[0] if args else None))
        render_task, rendered, kernel_id = await super().get_rendered_notebook(*args, **kwargs)
        self._claim(kernel_id)
        return render_task, rendered, kernel_id

    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
        """Top the warm pool up, but only into places that no session uses (preheating only)."""
        if self._closing:
            return
        target = max(0, min(self.warm_target, self.max_sessions - self.open_sessions()))
        saved = self.kernel_pools_config
        default = dict(saved.get("default", {}), pool_size=target)
        self.kernel_pools_config = {"default": default}  # Voila's fill reads the size from here
        try:
            super().fill_if_needed(delay=delay, notebook_name=notebook_name, **kwargs)
        finally:
            self.kernel_pools_config = saved

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        """Shut a kernel down (page left, culled, or server stopping); refill the pool if warm."""
        try:
            return await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))
        finally:
            self._sessions.discard(kernel_id)
            QUERY_KEYS.forget(kernel_id)
            getattr(RequestInfoSocketHandler, "_cache", {}).pop(kernel_id, None)  # Voila keeps it forever
            if self.warm_target and not self._closing:
                self.fill_if_needed(notebook_name=getattr(self, "notebook_path", None))

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """Cull as jupyter_server does, but never a kernel whose page is still being sent."""
        if kernel_id in self._loading:
            return
        await ensure_async(super().cull_kernel_if_idle(kernel_id))

    async def shutdown_all(self, *args: Any, **kwargs: Any) -> None:
        """Shut every kernel down, without refilling the pool meanwhile."""
        self._closing = True
        await ensure_async(super().shutdown_all(*args, **kwargs))


def cpu_sample() -> tuple[float, float]:
    """(all CPU time, idle CPU time) of the machine so far, in clock ticks; (0, 0) where unknown.

    Read from Linux's ``/proc/stat`` (idle and iowait count as idle); elsewhere the refill only
    waits for the quiet time.
    """
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = [float(x) for x in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return (0.0, 0.0)
    return (sum(fields), sum(fields[3:5]))


def idle_share(before: tuple[float, float], after: tuple[float, float]) -> float:
    """The share of CPU time that went idle between two `cpu_sample` readings (1.0 when unknown).

    >>> idle_share((100.0, 40.0), (200.0, 115.0))
    0.75
    >>> idle_share((0.0, 0.0), (0.0, 0.0))
    1.0
    """
    total = after[0] - before[0]
    return 1.0 if total <= 0 else (after[1] - before[1]) / total


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


def page_chunk(chunk: str) -> str:
    """A piece of Voila's page as sent: no CDN stylesheet links (`_CDN_STYLESHEET`), a still logo.

    >>> page_chunk('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/'
    ...            '@fortawesome/fontawesome-free@^5/css/all.min.css" /> <b>')
    '<b>'
    >>> page_chunk("<style>x</style></head><body>")
    '<style>x</style><style>#loading .spinner { animation: none; }</style>\\n</head><body>'
    """
    if "cdn.jsdelivr.net" in chunk:
        chunk = _CDN_STYLESHEET.sub("", chunk)
    return chunk.replace("</head>", _STILL_SPINNER + "</head>", 1)


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
        token = _TICKET.set(ticket)
        try:
            await super().get(path=path)
        finally:
            _TICKET.reset(token)
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
