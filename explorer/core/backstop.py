"""The backstop of a whole request: CPU time since it started, refused past `LIMIT` seconds.

Every costly computation is weighed before it starts and refused when the estimate passes about
2 s (`MAX_SECONDS`, the engine's `explorer.core.engine.types.MAX_WORK`); estimates are cautious, not exact. The backstop stops the rare
request an estimate let through that still computes after `LIMIT` CPU seconds, whatever it is
made of: one battle, a report with its best-play summary, a sweep of many cells, the row
advisor's battles. A front end opens a request (`request`, re-entrant: a request inside another
is part of it); long loops call `check` now and then, and the count engine's own guard
(`explorer.core.engine.parts.Meter`) counts from the request's start.

>>> with request():
...     check("sweep")   # well within the limit: nothing happens
>>> started() is None
True
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from explorer.core.errors import ScenarioError

__all__ = ["LIMIT", "MAX_SECONDS", "GRID_SECONDS", "request", "started", "check", "spent", "grid_refusal", "check_grid"]

LIMIT = 10.0
"""CPU seconds after which a request still computing is refused (`explorer.core.engine.dp.METER_LIMIT`)."""

MAX_SECONDS = 2.0
"""The most work one request may be estimated at, in seconds (the engine's `MAX_WORK` is this in microseconds)."""

GRID_SECONDS = MAX_SECONDS
"""Most work a whole grid (a sweep) may be estimated at, in seconds: the limit of one request."""

_START: ContextVar[float | None] = ContextVar("explorer_request_start", default=None)


@contextmanager
def request() -> Iterator[float]:
    """Count the CPU time of what runs inside, from the outermost request's start.

    Yields:
        The CPU time (`time.process_time`) at which the outermost request started.
    """
    outer = _START.get()
    if outer is not None:
        yield outer
        return
    start = time.process_time()
    token = _START.set(start)
    try:
        yield start
    finally:
        _START.reset(token)


def started() -> float | None:
    """The CPU time at which the current request started, or None outside any request."""
    return _START.get()


def spent() -> float:
    """CPU seconds of the current request so far (0 outside any request)."""
    start = _START.get()
    return 0.0 if start is None else time.process_time() - start


def check(field: str, what: str = "this request", limit: float | None = None) -> None:
    """Refuse the current request once it has computed for more than `limit` CPU seconds.

    Args:
        field: the input to name in the refusal (the one to make smaller).
        what: what was being computed, for the message.
        limit: the backstop, `LIMIT` (read when called) by default.

    Raises:
        ScenarioError: the request has run past `limit` (outside a request: never).
    """
    start = _START.get()
    limit = LIMIT if limit is None else limit
    if start is not None and time.process_time() - start > limit:
        raise ScenarioError(field, f"too big to work out: {what} was stopped after {limit:.0f} s of computing "
                                   "(the estimate let it through); ask for less")


def grid_refusal(cells: int, seconds: float, change: str, x: str, y: str) -> str:
    """The message refusing a grid: its size, the work weighed so far, the inputs to change.

    >>> grid_refusal(77, 2.4, "lower attacker.pool", "attacker basic dice", "defender basic dice")
    '77 cells, over 2.4 s of work estimated (limit 2 s): lower attacker.pool or narrow the ranges of x (attacker basic dice) and y (defender basic dice)'
    """
    return (f"{cells} cells, over {seconds:.1f} s of work estimated (limit {GRID_SECONDS:.0f} s): {change} or "
            f"narrow the ranges of x ({x}) and y ({y})")


def check_grid(cells: int, seconds: float, change: str, x: str, y: str) -> None:
    """Refuse a grid whose work, weighed before its first cell, passes `GRID_SECONDS`.

    Args:
        cells: how many cells the grid has.
        seconds: the work estimated (so far: a caller may stop weighing once past the limit).
        change: what to change in the scenario to make the cells cheaper ("lower attacker.pool").
        x, y: the inputs the grid varies.

    Raises:
        ScenarioError: ``sweep``, naming the inputs to change.

    >>> check_grid(4, 0.5, "lower attack.dice", "attack dice", "monster Life")
    """
    if seconds > GRID_SECONDS:
        raise ScenarioError("sweep", grid_refusal(cells, seconds, change, x, y))
