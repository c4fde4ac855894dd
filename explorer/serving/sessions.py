"""The server's sessions: kernels counted and capped, warm kernels refilled when the machine is quiet.

`SessionCap` is a kernel-manager mixin that `explorer.serving.server.ExplorerVoila` puts in front
of the class Voila builds (see that module for what the server changes and why): a *session* is a
kernel serving a page, or a page request admitted and still waiting for its kernel; warm kernels
take only the places no session uses. A page request holds a `Ticket` (in `TICKET`) from the cap
check until its kernel exists.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jupyter_core.utils import ensure_async
from voila.request_info_handler import RequestInfoSocketHandler

from explorer.panels.common.request_info import QUERY_KEY_ENV
from explorer.serving.checks import QUERY_KEYS

__all__ = ["RECLAIM_AFTER_S", "REFILL_HOLD_PER_PAGE_S", "REFILL_IDLE_SHARE", "REFILL_MAX_WAIT_S", "TICKET", "SessionCap", "Ticket",
           "cpu_sample", "idle_share"]

REFILL_HOLD_PER_PAGE_S = 3.0
"""How long a taken warm kernel's replacement may wait for a quiet machine, per page asked for in
the last minute: a room of ten opening the app together holds refills for up to 30 s (its pages
are drawn in about 18 s on a busy 2-CPU machine in `benchmarks/bench_room.py`, and their first
clicks answered soon after), while one person's reload finds a kernel ready a few seconds later
even on a machine kept busy."""
REFILL_MAX_WAIT_S = 120.0
"""The longest a replacement waits, however many pages were asked for."""
RECLAIM_AFTER_S = 15.0
"""When every place is taken, a session whose page has had no open websocket for this long (a tab
closed without its leaving beacon: a crashed browser, a killed tab, a laptop lid) is shut down to
make room for the new page at once, instead of holding its place until the culler's
``idle_timeout``. A page whose connection drops for a moment reconnects well within it."""
REFILL_IDLE_SHARE = 0.5
"""The machine is quiet when at least this share of its CPU time went idle over the last half second."""

@dataclass
class Ticket:
    """One page request's claim on a session place, from the cap check until its kernel exists.

    Attributes:
        kernel_id: The kernel the page got, once it has one.
    """

    kernel_id: str | None = None


TICKET: contextvars.ContextVar[Ticket | None] = contextvars.ContextVar("explorer_page_ticket", default=None)
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
        def notify_connect(self, kernel_id: str) -> None: ...
        def notify_disconnect(self, kernel_id: str) -> None: ...
        log: Any
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
        self._alone_since: dict[str, float] = {}  # sessions with no open websocket, since when
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
        if ticket.kernel_id and not self._connections(ticket.kernel_id):
            self._alone_since.setdefault(ticket.kernel_id, time.monotonic())  # page sent, socket not yet open

    def _connections(self, kernel_id: str) -> int:
        """Open websockets to `kernel_id` (jupyter_server counts them)."""
        return int(getattr(self, "_kernel_connections", {}).get(kernel_id, 0))

    def notify_connect(self, kernel_id: str) -> None:
        """A page's websocket opened: its session is not abandoned."""
        super().notify_connect(kernel_id)
        self._alone_since.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        """A page's websocket closed: the session is alone from now if it was the last."""
        super().notify_disconnect(kernel_id)
        if not self._connections(kernel_id):
            self._alone_since.setdefault(kernel_id, time.monotonic())

    def abandoned(self, now: float | None = None) -> list[str]:
        """Sessions alone for `RECLAIM_AFTER_S` or more, longest alone first (never one still loading)."""
        now = time.monotonic() if now is None else now
        sessions = self.session_ids()
        alone = [(since, k) for k, since in self._alone_since.items()
                 if k in sessions and k not in self._loading and not self._connections(k)
                 and now - since >= RECLAIM_AFTER_S]
        return [k for _, k in sorted(alone)]

    async def reclaim(self) -> bool:
        """Shut down the session longest abandoned (`abandoned`), if any, to free its place."""
        for kernel_id in self.abandoned():
            since = self._alone_since.pop(kernel_id)  # another request waiting now takes the next one
            self.log.info("Full: shutting down kernel %s, whose page has been gone for %.0f s",
                          kernel_id, time.monotonic() - since)
            await ensure_async(self.shutdown_kernel(kernel_id))
            return True
        return False

    def _claim(self, kernel_id: str) -> None:
        """Count `kernel_id` as a session; it takes the place its request reserved, if any."""
        self._sessions.add(kernel_id)
        ticket = TICKET.get()
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
            self._alone_since.pop(kernel_id, None)
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
