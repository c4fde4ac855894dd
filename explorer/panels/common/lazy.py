"""Parts of a panel built the first time they are opened: a page then starts with only what it shows.

A browser builds a view for every widget a page holds, hidden tabs included, and the kernel
sends each widget's state when the page connects: about a millisecond of work per widget on
each side, on every page load. The explorer's panels hold many tabs (what-if, sweep, roll once,
advisors, scenario and sharing); building each only when its tab is first opened keeps a page
load to the widgets on screen, which is what lets a room of people open the app at once.

`LazyPart` is one such part (its ``widget`` is a placeholder until built); `PartTabs` is a tab
bar of them, building the part of a tab when the tab is opened. A part built by asking for it
(`PartTabs.part`, e.g. from a test or a shared link) is shown in its tab from then on. The parts
named in ``active`` have a ``show(active)`` method and are told whether their tab is the one open
(they compute only then).

>>> import ipywidgets as widgets
>>> class Part:
...     def __init__(self, text):
...         self.widget = widgets.HTML(text)
>>> tabs = PartTabs({"One": lambda: Part("first"), "Two": lambda: Part("second")})
>>> tabs.built("One"), tabs.built("Two")
(True, False)
>>> tabs.tab.selected_index = 1
>>> tabs.built("Two"), tabs.part("Two").widget.value
(True, 'second')
"""

from __future__ import annotations

import html
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

if TYPE_CHECKING:
    from explorer.panels.common.scenario_io import ScenarioBox
    from explorer.panels.common.sweep import Sweep
    from explorer.panels.common.trace_view import TraceView
    from explorer.panels.common.whatif import WhatIf

__all__ = ["LazyPart", "PartTabs", "SharedTabs", "RESULTS", "WHATIF", "SWEEP", "TRACE", "SCENARIO"]

WHATIF, SWEEP, TRACE, SCENARIO = "What if? (A vs B)", "Sweep", "Roll once (trace)", "Scenario, share"
"""The titles of the shared parts' tabs, the same in every game's panel."""
RESULTS = "Results"
"""The title of a panel's first tab: the charts and tables of the current inputs (built at once)."""


class _Ready:
    """A part that exists already (the results): `LazyPart` only puts its widget in place."""

    def __init__(self, widget: widgets.Widget) -> None:
        self.widget = widget


class LazyPart:
    """A part built by `build` the first time it is asked for (`get`).

    Args:
        title: what the part is called (shown while it is being built).
        build: makes the part, an object with a ``widget``.

    Attributes:
        widget: the placeholder box; it holds the part's widget once built.
    """

    def __init__(self, title: str, build: Callable[[], Any]) -> None:
        self.title = title
        self._build = build
        self._part: Any = None
        self.widget = widgets.VBox([widgets.HTML(f"<i>Opening {html.escape(title)}…</i>")])

    @property
    def built(self) -> bool:
        """Whether the part exists yet."""
        return self._part is not None

    def get(self) -> Any:
        """The part, built now if it was not yet (its widget then replaces the placeholder)."""
        if self._part is None:
            self._part = self._build()
            self.widget.children = (self._part.widget,)
        return self._part


class PartTabs:
    """A tab bar of parts, each built when its tab is first opened; the first is built at once.

    Args:
        parts: title -> a function making the part (an object with a ``widget``), in tab order.
        active: the titles whose parts have ``show(active)``, told whether their tab is open.
        lead: a first tab that exists already, as (title, widget): a panel's results, so that
            every tool's tab sits beside them, above the fold, and none is built before it is opened.

    Attributes:
        tab: the ``ipywidgets.Tab``.

    >>> tabs = PartTabs({"Tool": lambda: 1 / 0}, lead=("Results", widgets.HTML("charts")))
    >>> tabs.titles, tabs.built("Tool"), tabs.tab.selected_index
    (('Results', 'Tool'), False, 0)
    """

    def __init__(self, parts: Mapping[str, Callable[[], Any]], active: Collection[str] = (),
                 lead: tuple[str, widgets.Widget] | None = None) -> None:
        first = {} if lead is None else {lead[0]: (lambda widget=lead[1]: _Ready(widget))}
        self._parts = {title: LazyPart(title, build) for title, build in {**first, **parts}.items()}
        self._active = frozenset(active)
        self.titles = tuple(self._parts)
        self.tab = widgets.Tab([part.widget for part in self._parts.values()], titles=self.titles)
        self.tab.add_class("explorer-tools")
        if lead is not None:
            self._parts[lead[0]].widget.add_class("explorer-results-tab")
        self.tab.observe(self._opened, "selected_index")
        if self.titles:
            self._opened({"new": self.tab.selected_index})

    def built(self, title: str) -> bool:
        """Whether the part of tab `title` exists yet."""
        return self._parts[title].built

    def part(self, title: str) -> Any:
        """The part of tab `title`, built now if needed."""
        return self._parts[title].get()

    def select(self, title: str) -> Any:
        """Open tab `title` (building its part) and return the part."""
        self.tab.selected_index = self.titles.index(title)
        return self.part(title)

    def _opened(self, change: Mapping[str, Any]) -> None:
        index = change["new"]
        if index is not None:
            self.part(self.titles[index])
        for i, (title, part) in enumerate(self._parts.items()):
            if title in self._active and part.built:
                part.get().show(index == i)


class SharedTabs:
    """The shared parts of a panel whose ``tabs`` (a `PartTabs`) hold them, by attribute.

    Each is built the first time it is asked for or its tab is opened. A game whose roll-once
    tab has another title sets `trace_title`.
    """

    tabs: PartTabs
    trace_title = TRACE

    @property
    def whatif(self) -> WhatIf:
        """The "What if? (A vs B)" tab."""
        return self.tabs.part(WHATIF)  # type: ignore[no-any-return]

    @property
    def sweep(self) -> Sweep:
        """The "Sweep" tab (built now if never opened)."""
        return self.tabs.part(SWEEP)  # type: ignore[no-any-return]

    @property
    def trace(self) -> TraceView:
        """The roll-once (or steps) tab (built now if never opened)."""
        return self.tabs.part(self.trace_title)  # type: ignore[no-any-return]

    @property
    def scenario_box(self) -> ScenarioBox:
        """The "Scenario, share" tab (built now if never opened)."""
        return self.tabs.part(SCENARIO)  # type: ignore[no-any-return]
