"""A full server gives an abandoned page's place to a new page (`SessionCap.reclaim`).

A tab closed without its leaving beacon (a crashed or killed browser, a closed laptop) keeps its
kernel until the culler's ``idle_timeout`` (120 s by default). When every place is taken, a page
asked for now takes the place of the session longest without an open websocket, once it has
been alone for `RECLAIM_AFTER_S`; a connected page, a page still being sent and a page alone
for a moment (a dropped connection reconnecting) keep theirs. The base below stands in for
jupyter_server's kernel manager: kernels, their websocket counts and shutdown.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from explorer.serving.sessions import RECLAIM_AFTER_S, TICKET, SessionCap


class StandInKernels:
    """jupyter_server's kernel manager, reduced to what `SessionCap.reclaim` touches."""

    def __init__(self, **kwargs: Any) -> None:
        self.kernels: list[str] = []
        self._kernel_connections: dict[str, int] = {}
        self.shut: list[str] = []
        self.log = logging.getLogger("stand-in")

    def list_kernel_ids(self) -> list[str]:
        return list(self.kernels)

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:
        kernel_id = f"k{len(self.kernels) + len(self.shut) + 1}"
        self.kernels.append(kernel_id)
        self._kernel_connections[kernel_id] = 0
        return kernel_id

    async def shutdown_kernel(self, kernel_id: str, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0.01)  # a real shutdown takes a while: other requests run meanwhile
        self.kernels.remove(kernel_id)
        self._kernel_connections.pop(kernel_id, None)
        self.shut.append(kernel_id)

    def notify_connect(self, kernel_id: str) -> None:
        self._kernel_connections[kernel_id] += 1

    def notify_disconnect(self, kernel_id: str) -> None:
        self._kernel_connections[kernel_id] -= 1


class Manager(SessionCap, StandInKernels):
    """`SessionCap` in front of the stand-in."""


async def open_page(manager: Manager) -> str | None:
    """A page request as the server makes it: a ticket, a kernel, the page sent (None: refused)."""
    ticket = manager.admit()
    if ticket is None and await manager.reclaim():
        ticket = manager.admit()
    if ticket is None:
        return None
    token = TICKET.set(ticket)
    try:
        kernel_id = await manager.start_kernel()
    finally:
        TICKET.reset(token)
        manager.release(ticket)
    return kernel_id


def full_room(connected: list[bool]) -> tuple[Manager, list[str]]:
    """A manager whose every place is taken by a page, connected or not as `connected` says."""
    manager = Manager(max_sessions=len(connected))
    kernels = [asyncio.run(open_page(manager)) for _ in connected]
    ids = [k for k in kernels if k is not None]
    for kernel_id, is_connected in zip(ids, connected):
        manager.notify_connect(kernel_id)
        if not is_connected:
            manager.notify_disconnect(kernel_id)
    return manager, ids


def age(manager: Manager, kernel_id: str, seconds: float) -> None:
    """Make `kernel_id` alone for `seconds` already."""
    manager._alone_since[kernel_id] = time.monotonic() - seconds


def test_a_page_abandoned_long_enough_gives_its_place() -> None:
    manager, ids = full_room([True, False, True])
    age(manager, ids[1], RECLAIM_AFTER_S + 1)
    new = asyncio.run(open_page(manager))
    assert new is not None and manager.shut == [ids[1]]
    assert manager.session_ids() == {ids[0], ids[2], new}


def test_connected_or_recently_left_pages_keep_their_places() -> None:
    manager, ids = full_room([True, False])
    age(manager, ids[1], RECLAIM_AFTER_S - 5)  # a dropped connection, reconnecting
    assert asyncio.run(open_page(manager)) is None
    assert manager.shut == [] and manager.abandoned() == []


def test_a_page_still_being_sent_is_never_reclaimed() -> None:
    manager, ids = full_room([False])
    age(manager, ids[0], RECLAIM_AFTER_S + 60)
    manager._loading.add(ids[0])
    assert manager.abandoned() == []


def test_a_page_whose_websocket_never_opened_counts_as_alone_from_when_it_was_sent() -> None:
    manager = Manager(max_sessions=1)
    kernel_id = asyncio.run(open_page(manager))
    assert kernel_id in manager._alone_since  # sent, no websocket yet
    manager.notify_connect(kernel_id)
    assert kernel_id not in manager._alone_since


def test_two_requests_at_once_reclaim_two_different_pages_longest_alone_first() -> None:
    manager, ids = full_room([False, False, False])
    for kernel_id, seconds in zip(ids, (RECLAIM_AFTER_S + 5, RECLAIM_AFTER_S + 50, 1)):
        age(manager, kernel_id, seconds)

    async def two() -> list[str | None]:
        return list(await asyncio.gather(open_page(manager), open_page(manager)))

    first, second = asyncio.run(two())
    assert manager.shut == [ids[1], ids[0]]  # the longest alone first, each once
    assert first is not None and second is not None
    assert manager.session_ids() == {ids[2], first, second}
