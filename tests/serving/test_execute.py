"""A page's notebook runner (`explorer.serving.execute`) with a real kernel whose output is lost.

The loss is made on the way in: the reader drops a cell's result and its "idle" status the first
time the cell runs, as a lost IOPub message would. nbclient alone then waits its whole
``iopub_timeout`` and keeps a cell without its result (the control case); the explorer's runner
finds the loss a few seconds after the nudge, runs the tagged display cell again, and does not cut
a cell short that is only slow and quiet.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from types import SimpleNamespace
from typing import Any

import nbformat
import pytest
from voila.execute import VoilaExecutor

from explorer.serving.execute import NUDGE_AFTER_S, RERUN_TAG, ExplorerExecutor
from explorer.serving.iopub import ExplorerKernelManager

IOPUB_TIMEOUT = 12


class Losing:
    """Drops the result and the idle status of the first run of the cell whose code is `code`."""

    def __init__(self, channel: Any, code: str) -> None:
        self.channel, self.code = channel, code
        self.victim: str | None = None
        self.dropped = 0
        self.get_msg_of_channel = channel.get_msg

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:
        while True:
            msg = await self.get_msg_of_channel(timeout=timeout)
            parent = msg["parent_header"].get("msg_id")
            if self.victim is None and msg["msg_type"] == "execute_input" and msg["content"]["code"] == self.code:
                self.victim = parent
            lost = msg["msg_type"] == "execute_result" or (
                msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle")
            if parent is not None and parent == self.victim and lost:
                self.dropped += 1
                continue
            return msg


def notebook(*cells: tuple[str, list[str]]) -> Any:
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_code_cell(code, metadata={"tags": tags}) for code, tags in cells]
    return nb


async def run(executor_class: type, nb: Any, lose: str | None) -> tuple[Any, float, int, list[bool]]:
    """Run `nb`'s cells, losing the first output of the cell `lose`; (nb, seconds, dropped, incomplete)."""
    manager = ExplorerKernelManager(kernel_name="python3")
    await manager.start_kernel()
    executor = executor_class(nb, km=manager, iopub_timeout=IOPUB_TIMEOUT)
    try:
        executor.kc = await executor.async_start_new_kernel_client()
        losing = Losing(executor.kc.iopub_channel, lose or "")
        executor.kc.iopub_channel.get_msg = losing.get_msg
        started = time.monotonic()
        incomplete = []
        for index, cell in enumerate(nb.cells):
            await executor.async_execute_cell(cell, index)
            incomplete.append(bool(getattr(executor, "output_incomplete", False)))
        return nb, time.monotonic() - started, losing.dropped, incomplete
    finally:
        executor.kc.stop_channels()
        await manager.shutdown_kernel(now=True)


def results(cell: Any) -> list[str]:
    return [out["data"]["text/plain"] for out in cell.outputs if out["output_type"] == "execute_result"]


def test_nbclient_alone_waits_its_whole_timeout_and_keeps_a_cell_without_its_result() -> None:
    nb, took, dropped, _ = asyncio.run(run(VoilaExecutor, notebook(("x = 41", []), ("x + 1", [RERUN_TAG])), "x + 1"))
    assert dropped == 2
    assert took >= IOPUB_TIMEOUT
    assert results(nb.cells[1]) == []


def test_a_lost_display_is_found_after_the_nudge_and_run_again(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    nb, took, dropped, incomplete = asyncio.run(
        run(ExplorerExecutor, notebook(("x = 41", []), ("x + 1", [RERUN_TAG]), ("x - 1", [])), "x + 1"))
    assert dropped == 2
    assert results(nb.cells[1]) == ["42"]  # the second run's result
    assert results(nb.cells[2]) == ["40"]  # and the cells after it ran as usual
    assert incomplete == [False, False, False]
    assert took < NUDGE_AFTER_S + 8 < IOPUB_TIMEOUT
    assert "running it again (1 of 2)" in caplog.text
    assert "(kernel ?)" not in caplog.text  # the log names the kernel, for a page that failed


def test_an_untagged_cell_whose_output_was_lost_is_not_waited_for_nor_run_again() -> None:
    nb, took, dropped, incomplete = asyncio.run(
        run(ExplorerExecutor, notebook(("y = 1", []), ("y + 1", []), ("y + 2", [])), "y + 1"))
    assert dropped == 2
    assert results(nb.cells[1]) == []
    assert results(nb.cells[2]) == ["3"]
    assert incomplete == [False, True, False]
    assert took < NUDGE_AFTER_S + 8 < IOPUB_TIMEOUT


def test_a_slow_quiet_cell_is_waited_for_to_its_end() -> None:
    quiet = 3 * NUDGE_AFTER_S  # silent well past the nudge, as a warm kernel waiting for its page
    nb, took, dropped, incomplete = asyncio.run(
        run(ExplorerExecutor, notebook((f"import time\ntime.sleep({quiet})\n5", [RERUN_TAG]), ("6", [])), None))
    assert dropped == 0
    assert results(nb.cells[0]) == ["5"]
    assert results(nb.cells[1]) == ["6"]
    assert incomplete == [False, False]
    assert took >= quiet


def test_a_jupyter_server_loading_the_extension_runs_notebooks_with_the_explorers_runner(
        caplog: pytest.LogCaptureFixture) -> None:
    import voila.notebook_renderer

    from explorer.serving import execute

    points = execute._jupyter_server_extension_points()
    assert [importlib.import_module(p["module"]) for p in points] == [execute]
    caplog.set_level(logging.INFO)
    execute._load_jupyter_server_extension(SimpleNamespace(log=logging.getLogger("server")))
    assert voila.notebook_renderer.VoilaExecutor is ExplorerExecutor
    assert "notebooks run with explorer.serving.execute" in caplog.text
