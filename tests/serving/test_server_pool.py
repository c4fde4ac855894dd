"""The warm pool's refill (`explorer.serving.sessions.SessionCap`), on a stand-in for Voila's pooled manager.

Voila refills its pool the moment a page takes a warm kernel; `SessionCap` holds each refill back
until no page has been asked for during ``refill_quiet`` seconds and the CPUs are half idle (one
refill at a time), and starts it at once when a page finds no warm kernel ready. The machine's
CPU readings are replaced by a stand-in (`machine`) so that the tests decide how busy it is. The stand-in below pools as Voila 0.5 does (a list of tasks per
notebook, each the start of a kernel; a page pops the first), so these tests check the gate
without starting real kernels; ``tests/serving/test_server.py`` checks the real server.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

import explorer.serving.sessions as server
from explorer.serving.sessions import SessionCap

NOTEBOOK = "explorer.ipynb"


class StandInPool:
    """Voila's pooled kernel manager, reduced to what `SessionCap` touches."""

    def __init__(self, **kwargs: Any) -> None:
        self.started: list[float] = []  # time.monotonic() of each kernel start
        self._pools: dict[str, list[asyncio.Task[Any]]] = {}
        self.kernel_pools_config = {"default": {"pool_size": 1}}
        self.counter = 0

    def list_kernel_ids(self) -> list[str]:
        return []

    async def _initialize(self, notebook_name: str, kernel_id: str | None = None, **kwargs: Any) -> dict[str, Any]:
        self.started.append(time.monotonic())
        self.counter += 1
        return {"kernel_id": kernel_id or f"k{self.counter}", "renderer": None, "task": None}

    def fill_if_needed(self, delay: float | None = None, notebook_name: str | None = None, **kwargs: Any) -> None:
        size = self.kernel_pools_config["default"]["pool_size"]
        pool = self._pools.setdefault(str(notebook_name), [])
        for _ in range(size - len(pool)):
            pool.append(asyncio.get_running_loop().create_task(self._initialize(str(notebook_name))))

    async def get_rendered_notebook(self, notebook_name: str, **kwargs: Any) -> tuple[Any, list[str], str]:
        content = await self._pools[notebook_name].pop(0)
        self.fill_if_needed(notebook_name=notebook_name)
        return None, [], content["kernel_id"]


class Manager(SessionCap, StandInPool):
    """`SessionCap` in front of the stand-in, as the server puts it in front of Voila's class."""


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


class Machine:
    """Stand-in CPU readings: each sample adds 100 ticks, idle or busy as `busy` says."""

    def __init__(self) -> None:
        self.busy = False
        self.total = self.idle = 0.0

    def sample(self) -> tuple[float, float]:
        self.total += 100.0
        self.idle += 10.0 if self.busy else 90.0
        return (self.total, self.idle)


@pytest.fixture(autouse=True)
def machine(monkeypatch: pytest.MonkeyPatch) -> Machine:
    stand_in = Machine()
    monkeypatch.setattr(server, "cpu_sample", stand_in.sample)
    return stand_in


def test_a_taken_kernel_is_replaced_only_once_the_room_is_quiet() -> None:
    async def scenario() -> list[float]:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=0.6)
        manager.fill_if_needed(notebook_name=NOTEBOOK)  # the pool at server start: not held back
        await asyncio.sleep(0.05)
        assert len(manager.started) == 1
        ticket = manager.admit()  # a page is asked for ...
        assert ticket is not None
        asked = time.monotonic()
        await manager.get_rendered_notebook(notebook_name=NOTEBOOK)  # ... and takes the warm kernel
        await asyncio.sleep(0.3)
        assert len(manager.started) == 1, "the refill started while the room was busy"
        await asyncio.sleep(0.8)
        assert len(manager.started) == 2, "the refill never started once the room was quiet"
        return [manager.started[1] - asked]

    (waited,) = run(scenario())
    assert waited >= 0.6


def test_a_page_finding_no_warm_kernel_starts_one_at_once() -> None:
    async def scenario() -> float:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=30.0)
        manager.fill_if_needed(notebook_name=NOTEBOOK)
        await asyncio.sleep(0.05)
        manager.admit()
        await manager.get_rendered_notebook(notebook_name=NOTEBOOK)  # takes the warm kernel; refill held
        manager.admit()
        began = time.monotonic()
        _render, _cells, kernel_id = await asyncio.wait_for(
            manager.get_rendered_notebook(notebook_name=NOTEBOOK), timeout=5)  # would wait 30 s unheld
        assert kernel_id == "k2"
        return time.monotonic() - began

    assert run(scenario()) < 1.0


def test_without_a_quiet_time_the_pool_refills_at_once() -> None:
    async def scenario() -> int:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=0.0)
        manager.fill_if_needed(notebook_name=NOTEBOOK)
        await asyncio.sleep(0.05)
        manager.admit()
        await manager.get_rendered_notebook(notebook_name=NOTEBOOK)
        await asyncio.sleep(0.05)
        return len(manager.started)

    assert run(scenario()) == 2


def test_a_restart_is_never_held_back() -> None:
    async def scenario() -> str:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=30.0)
        manager.admit()  # the room is busy
        result = await asyncio.wait_for(manager._initialize(NOTEBOOK, "kernel-7"), timeout=1)
        return str(result["kernel_id"])

    assert run(scenario()) == "kernel-7"


def test_a_held_refill_cancelled_at_shutdown_never_starts() -> None:
    async def scenario() -> int:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=30.0)
        manager.admit()
        manager.fill_if_needed(notebook_name=NOTEBOOK)  # held: the room is busy
        task = manager._pools[NOTEBOOK][0]
        await asyncio.sleep(0.1)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return len(manager.started)

    assert run(scenario()) == 0


def test_a_busy_machine_holds_the_refill_until_it_is_idle(machine: Machine) -> None:
    async def scenario() -> None:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=0.1)
        manager.fill_if_needed(notebook_name=NOTEBOOK)
        await asyncio.sleep(0.05)
        machine.busy = True  # the pages being opened use the CPUs
        manager.admit()
        await manager.get_rendered_notebook(notebook_name=NOTEBOOK)
        await asyncio.sleep(1.6)
        assert len(manager.started) == 1, "the refill started on a busy machine"
        machine.busy = False
        await asyncio.sleep(1.2)
        assert len(manager.started) == 2, "the refill never started once the machine was idle"

    run(scenario())


@pytest.mark.parametrize("pages", [1, 4])
def test_a_busy_machine_holds_the_refill_no_longer_than_its_pages_allow(
        pages: int, machine: Machine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "REFILL_HOLD_PER_PAGE_S", 0.4)

    async def scenario() -> float:
        manager = Manager(max_sessions=8, warm_target=1, refill_quiet=0.1)
        machine.busy = True  # for good: only the hold limit lets the refill start
        for _ in range(pages):
            manager.admit()
        began = time.monotonic()
        manager.fill_if_needed(notebook_name=NOTEBOOK)
        await asyncio.wait_for(manager._pools[NOTEBOOK][0], timeout=10)
        return manager.started[0] - began

    waited = run(scenario())
    assert 0.4 * pages <= waited <= 0.4 * pages + 1.0, waited


class SlowPool(StandInPool):
    """A pool whose kernels take a second to start and run the notebook."""

    async def _initialize(self, notebook_name: str, kernel_id: str | None = None, **kwargs: Any) -> dict[str, Any]:
        result = await super()._initialize(notebook_name, kernel_id, **kwargs)
        await asyncio.sleep(1.0)
        return result


class SlowManager(SessionCap, SlowPool):
    """`SessionCap` in front of the slow stand-in."""


def test_held_refills_start_one_at_a_time() -> None:
    async def scenario() -> list[float]:
        manager = SlowManager(max_sessions=8, warm_target=2, refill_quiet=0.1)
        manager.admit()  # a page was just asked for: both refills are held
        manager.fill_if_needed(notebook_name=NOTEBOOK)
        await asyncio.gather(*manager._pools[NOTEBOOK])
        return manager.started

    started = run(scenario())
    assert len(started) == 2 and started[1] - started[0] >= 0.9, started


def serve_module() -> Any:
    """`scripts/serve.py` as a module (it is a script, not part of the package)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "serve.py"
    spec = importlib.util.spec_from_file_location("serve_script", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("argv, warm, max_sessions", [
    ([], 1, 8),                                          # make run: one person's laptop
    (["--room", "10"], 10, 24),                          # a room of ten opening the app together
    (["--room", "10", "--warm", "3"], 3, 24),            # either stays settable
    (["--room", "4", "--max-sessions", "30"], 4, 30),
])
def test_serve_room_option_sets_the_warm_pool_and_the_cap(argv: list[str], warm: int, max_sessions: int) -> None:
    serve = serve_module()
    args = serve.parse_args(argv)
    assert (args.warm, args.max_sessions) == (warm, max_sessions)
    line = serve.voila_argv(args, serve.ROOT / "notebooks" / "explorer.ipynb", 8866, "t")
    assert f"--ExplorerVoila.max_sessions={max_sessions}" in line
    assert f"--pool_size={warm}" in line
    assert "--ExplorerVoila.refill_quiet=2.0" in line


def test_serve_refuses_a_room_of_nobody() -> None:
    serve = serve_module()
    with pytest.raises(SystemExit):
        serve.parse_args(["--room", "0"])
