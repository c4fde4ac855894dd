"""Voila's notebook runner, made to notice output that stops coming, and to run a display again.

When Voila runs the app's notebook for a page, nbclient reads each cell's output from the
kernel's IOPub channel until the cell's "idle" status comes, and after the cell's reply waits at
most ``iopub_timeout`` seconds for it. If that status never comes, the page waits the whole time
and is then sent without whatever had not arrived: in CI, once in 20 pages opened two at a time,
a page waited 30 s and came without its app ("Timeout waiting for IOPub output"), even though
the server's IOPub sockets no longer drop messages (`explorer.serving.iopub`). Two things here
make such a page open anyway:

* **A nudge when the channel goes quiet.** After `NUDGE_AFTER_S` seconds without a message for
  the cell, the runner sends the kernel one ``kernel_info_request`` on the shell channel. The
  kernel answers it only once the cell is done, and publishes the answer's status after all of
  the cell's output, on the same channel. Its arrival wakes a reader that missed a message
  waiting on its socket, and if it is idle before the cell's own idle came, the cell's last
  messages are known to be lost: the runner stops waiting at once instead of after
  ``iopub_timeout``.
* **A display run again.** A cell tagged `RERUN_TAG` (in the app, the one line that shows the
  app, which has no side effect) is run again, up to `RERUNS` times, when its output was lost or
  did not all arrive in time.

`install` puts `ExplorerExecutor` in place of Voila's runner (Voila 0.5 names the class in
``voila.notebook_renderer``); the ``VoilaExecutor`` settings (``iopub_timeout``) apply to it.
`explorer.serving.server` installs it; where Voila runs inside a Jupyter server (a class hub's
servers, Binder), this module is also a server extension that installs it
(``ServerApp.jpserver_extensions``, set in ``deploy/jupyterhub/jupyter_server_config.json`` and by
``binder/postBuild``).
"""

from __future__ import annotations

import asyncio
import time
from queue import Empty
from typing import Any

import voila.notebook_renderer
from jupyter_core.utils import ensure_async
from nbclient.exceptions import CellExecutionComplete
from voila.execute import VoilaExecutor

__all__ = ["NUDGE_AFTER_S", "RERUNS", "RERUN_TAG", "ExplorerExecutor", "install", "is_idle"]

EXTENSION = __name__
"""This module's name as a Jupyter server extension (``explorer.serving.execute``)."""

NUDGE_AFTER_S = 3.0
"""Seconds without a message for the running cell after which the kernel is nudged (once a cell)."""

RERUN_TAG = "rerun-if-output-lost"
"""The cell tag that marks a cell safe to run again when its output was lost (a display)."""

RERUNS = 2
"""How many times a tagged cell is run again at most."""


def is_idle(msg: dict[str, Any], msg_id: str | None) -> bool:
    """Whether `msg` is the "idle" status that ends the request `msg_id`.

    >>> is_idle({"msg_type": "status", "parent_header": {"msg_id": "a"},
    ...          "content": {"execution_state": "idle"}}, "a")
    True
    >>> is_idle({"msg_type": "status", "parent_header": {"msg_id": "a"},
    ...          "content": {"execution_state": "busy"}}, "a")
    False
    >>> is_idle({"msg_type": "status", "parent_header": {}, "content": {"execution_state": "idle"}}, None)
    False
    """
    return (msg_id is not None and msg.get("msg_type") == "status"
            and msg.get("parent_header", {}).get("msg_id") == msg_id
            and msg.get("content", {}).get("execution_state") == "idle")


class ExplorerExecutor(VoilaExecutor):  # type: ignore[misc]  # Voila is untyped
    """Voila's runner with a nudge for a quiet IOPub channel and reruns of tagged cells (see the module)."""

    output_incomplete = False
    """Whether the last cell run lost output or stopped waiting for it (set by the reader)."""

    async def async_execute_cell(self, cell: Any, cell_index: int, execution_count: Any = None,
                                 store_history: bool = True) -> Any:
        """Run `cell`; run it again (a tagged cell, `RERUNS` at most) while its output came incomplete."""
        reruns = RERUNS if RERUN_TAG in cell.get("metadata", {}).get("tags", []) else 0
        for attempt in range(reruns + 1):
            self.output_incomplete = False
            result = await super().async_execute_cell(cell, cell_index, execution_count, store_history)
            if not self.output_incomplete or attempt == reruns:
                return result
            self.log.warning("Cell %d's output did not all arrive (kernel %s): running it again (%d of %d)",
                             cell_index, self._kernel_id(), attempt + 1, reruns)
        return result  # not reached: the loop returns on its last turn

    async def _async_poll_output_msg(self, parent_msg_id: str, cell: Any, cell_index: int) -> None:
        """nbclient's reader of a cell's output, with the nudge (`NUDGE_AFTER_S`) and loss check."""
        assert self.kc is not None
        probe: str | None = None
        seen = 0
        last = time.monotonic()
        try:
            while True:
                try:
                    msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=NUDGE_AFTER_S))
                except Empty:
                    if probe is None:
                        probe = self.kc.kernel_info()
                    continue
                if msg["parent_header"].get("msg_id") == parent_msg_id:
                    seen, last = seen + 1, time.monotonic()
                    try:
                        self.process_message(msg, cell, cell_index)
                    except CellExecutionComplete:
                        return
                elif is_idle(msg, probe):
                    self.output_incomplete = True
                    self.log.warning(
                        "Cell %d: kernel %s finished it, but its last output never arrived (%d messages "
                        "came, the last %.1f s ago); not waiting for the rest", cell_index, self._kernel_id(),
                        seen, time.monotonic() - last)
                    return
        except asyncio.CancelledError:  # nbclient gave up waiting (``iopub_timeout``)
            self.output_incomplete = True
            self.log.warning("Cell %d: %d output messages came, the last %.1f s ago; kernel %s %s",
                             cell_index, seen, time.monotonic() - last, self._kernel_id(),
                             "was nudged and did not answer" if probe else "was not nudged")
            raise

    def _kernel_id(self) -> str:
        """The id of the kernel this runner uses, for the log ("?" when unknown)."""
        return str(getattr(self.km, "kernel_id", None) or "?")


def install() -> None:
    """Make Voila run notebooks with `ExplorerExecutor` (idempotent).

    Raises:
        RuntimeError: if Voila no longer names its runner where Voila 0.5 does.
    """
    current = getattr(voila.notebook_renderer, "VoilaExecutor", None)
    if current is None or not issubclass(current, VoilaExecutor):
        raise RuntimeError("Voila's notebook runner moved: voila.notebook_renderer.VoilaExecutor not found "
                           "(explorer/serving/execute.py)")
    voila.notebook_renderer.VoilaExecutor = ExplorerExecutor


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """This module as a Jupyter server extension.

    >>> _jupyter_server_extension_points()
    [{'module': 'explorer.serving.execute'}]
    """
    return [{"module": EXTENSION}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Install `ExplorerExecutor` in a Jupyter server that serves Voila pages."""
    install()
    serverapp.log.info("Voila pages' notebooks run with %s.ExplorerExecutor", EXTENSION)
