"""What every game panel does on a change: resolve, show, or say why not (one copy for all games).

A game panel subclasses `ResolvingHost` and supplies five things: `noun` (what one answer is
called: "battle", "encounter", "round"), `scenario()` (the inputs as a scenario), `_compute()`
(read the inputs, resolve, return the result or raise `ScenarioError`), `_messages()` (the error
boxes to clear) and `_route(error)` (the box beside the input an error names). Before
`_compute`, the scenario meets the loader's limits (`explorer.scenario.loader.check_shape`), as a file
does: a name too long, or holding text no page or link can carry (a lone surrogate), is refused
beside its input. The rest, which is what makes the app right or say
so, is here: charts marked "updating" while the kernel works, the last valid charts dimmed and
labelled when an input is refused, no traceback ever reaching the notebook, and the listeners
(what-if, sweep, scenario box, trace view) told after every resolve.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.panels.common.display import ErrorMessage
from explorer.panels.common.field_names import FieldNames
from explorer.panels.common.host import Listener, Listeners, Update
from explorer.resolver import resolve
from explorer.scenario.loader import check_shape

__all__ = ["ResolvingHost", "ResultView", "resolve_as"]


R = TypeVar("R")


def resolve_as(scenario: Mapping[str, Any], kind: type[R]) -> R:
    """The one resolver's report for a panel's scenario (`explorer.resolver.resolve`), of the kind it shows.

    Every panel answers through the same door as a file, the command line and the Python API.

    Raises:
        ScenarioError: the scenario is refused, or it asks a question this panel does not show.
    """
    report = resolve(scenario)
    if not isinstance(report, kind):
        raise ScenarioError("scenario", f"this panel shows a {kind.__name__}, not a {type(report).__name__}")
    return report


class ResultView(Protocol):
    """The part of a panel that shows a result (charts and tables)."""

    widget: widgets.Widget
    """What the panel lays out."""

    def mark_pending(self) -> None:
        """Say a new result is being computed."""
        ...

    def mark_stale(self, reason: str) -> None:
        """Dim what is shown and say why it is not current."""
        ...

    def update(self, result: Any) -> None:
        """Show `result`."""
        ...


class ResolvingHost:
    """The resolve-and-show cycle of a game panel (see the module docstring).

    Attributes a subclass sets in its ``__init__`` before the first `refresh`: ``results`` (a
    `ResultView`), ``status`` (an HTML line), ``error`` (the panel's general `ErrorMessage`),
    ``result`` (the first result) — and it calls `_start_resolving` first.
    """

    noun = "result"
    """What one answer is called in the messages ("the last valid battle")."""
    results: ResultView
    status: widgets.HTML
    error: ErrorMessage
    result: Any

    def _start_resolving(self) -> None:
        """Set up the cycle: paused (no resolving while the inputs are built), no listeners."""
        self._ready = False
        self._listeners = Listeners()
        self.valid = True

    def scenario(self) -> dict[str, Any]:
        """The current inputs as a scenario (format v1), as typed."""
        raise NotImplementedError

    def _compute(self) -> Any:
        """Read the inputs and resolve them (raises `ScenarioError` on bad input)."""
        raise NotImplementedError

    def _messages(self) -> list[ErrorMessage]:
        """Every error box of the panel."""
        return [self.error]

    def _route(self, error: ScenarioError) -> ErrorMessage:
        """The error box beside the input `error` names (the general one by default)."""
        return self.error

    field_names = FieldNames({})
    """The labels on screen of the panel's inputs, by field path: messages name what the user sees
    (a game panel sets its own table; the command line keeps the paths)."""

    def on_update(self, listener: Listener) -> None:
        """Call `listener` with an `Update` after every resolve (the result changed, or went stale)."""
        self._listeners.add(listener)

    def _changed(self) -> None:
        if self._ready:
            self.refresh()

    def pause(self) -> None:
        """Stop resolving on every change (while many inputs are set at once)."""
        self._ready = False

    def resume(self) -> None:
        """Resolve again on changes, and resolve now."""
        self._ready = True
        self.refresh()

    def _refused(self, problem: str, reason: str) -> bool:
        """Say on every chart and table that they show the last valid result, not the inputs."""
        self.valid = False
        self.results.mark_stale(reason)
        self.status.value = f"<b style='color:#b03a2e'>{html.escape(reason)}</b>"
        self._listeners.notify(Update(valid=False, problem=problem, reason=reason))
        return False

    def refresh(self) -> bool:
        """Resolve the current inputs; on bad input show where, keep the last good charts.

        Returns:
            True if the charts now show the current inputs.
        """
        for message in self._messages():
            message.clear()
        start = time.perf_counter()
        self.results.mark_pending()
        try:
            check_shape(self.scenario())
            result = self._compute()
        except ScenarioError as error:
            said = self.field_names.message(error)
            self._route(error).show(said)
            return self._refused(said, f"Not updated: {said}. Showing the last valid {self.noun}.")
        except Exception as error:  # noqa: BLE001 - the notebook must never show a traceback
            problem = f"unexpected problem: {type(error).__name__}: {error}"
            self.error.show(problem)
            return self._refused(problem, "Not updated (unexpected problem, see the message above). "
                                          f"Showing the last valid {self.noun}.")
        self.result, self.valid = result, True
        self.results.update(result)
        self._listeners.notify(Update(valid=True))
        elapsed = (time.perf_counter() - start) * 1e3
        self.status.value = f"<span style='color:#5d6d7e;font-size:85%'>exact result, updated in {elapsed:.0f} ms</span>"
        return True
