"""What if? Pin the current result as A, change anything, see B (current) over A, and a table of differences.

Written once for every game: the panel is a `PanelHost`, and the game's `CompareAdapter`
says which distributions can be overlaid and how the table of differences is built.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from explorer.charts.kit import compare_figure
from explorer.panels.common.chart import Chart
from explorer.panels.common.host import CompareAdapter, PanelHost, Update

__all__ = ["WhatIf"]


class WhatIf:
    """A/B comparison for any game's panel; `widget` is the root to display.

    Args:
        host: the game's panel (its result is B; a pinned result is A).
        adapter: the game's quantities and table of differences.

    Attributes:
        pinned: the result pinned as A, or None.
        pin, unpin: the "Pin as A" and "Clear A" buttons.
        quantity: which of the adapter's quantities the chart overlays.
        compare: the A/B chart; caption: what A and B are; differences: the HTML table.
    """

    def __init__(self, host: PanelHost, adapter: CompareAdapter) -> None:
        self.host = host
        self.adapter = adapter
        noun, css = adapter.labels.noun, adapter.labels.css
        self._css = css
        self._no_pin = (f"<b>No pinned {noun} (A).</b> The chart shows the current {noun} only. To compare, "
                        f"press <b>Pin as A</b>, then change any input: B (the {noun} you change) is drawn "
                        "over A.")
        self._no_table = f"<i>No pinned {noun} (A): no differences to show.</i>"
        self._pinned_text = f"A: the pinned {noun} · B: the current {noun}."
        self._invalid_no_pin = (f"{self._no_pin}<br><b style='color:#b03a2e'>An input has an error: the chart shows "
                                f"the last valid {noun}.</b>")
        self._invalid_pinned = (f"A: the pinned {noun} · B: <b style='color:#b03a2e'>the last valid {noun} "
                                "(an input has an error; the chart and the table are not the current inputs)</b>.")
        self._reason = f"Not updated: an input has an error. Showing the last valid {noun}."
        self.pinned: Any | None = None
        self.pin = widgets.Button(description="Pin as A", icon="thumb-tack", button_style="warning")
        self.pin.add_class(f"{css}-pin")
        self.unpin = widgets.Button(description="Clear A", icon="times")
        self.quantity = widgets.Dropdown(options=list(adapter.quantities), description="compare",
                                         layout=widgets.Layout(width="420px"))
        self.compare = Chart(self._figure(None, host.result), height=320)
        self.caption = widgets.HTML(self._no_pin)
        self.caption.add_class(f"{css}-compare-caption")
        self.differences = widgets.HTML(self._no_table)
        self.differences.add_class(f"{css}-compare")
        self.pin.on_click(lambda _b: self.set_pin())
        self.unpin.on_click(lambda _b: self.set_pin(clear=True))
        self.quantity.observe(lambda _c: self.update(self.host.result), "value")
        self.widget = widgets.VBox([widgets.HBox([self.pin, self.unpin, self.quantity]), self.caption,
                                    self.compare, self.differences])
        host.on_update(self._updated)

    def _updated(self, update: Update) -> None:
        if update.valid:
            self.update(self.host.result)
        else:
            self.inputs_invalid(update.reason or None)

    def _figure(self, a: Any | None, b: Any) -> Any:
        name = self.quantity.value
        pick = self.adapter.quantities[name]
        return compare_figure(None if a is None else pick(a), pick(b), title=name.capitalize(),
                              x_title=name.split(" ")[0])

    def set_pin(self, clear: bool = False) -> None:
        """Pin the current result as A (or forget A)."""
        self.pinned = None if clear else self.host.result
        self.update(self.host.result)

    def update(self, current: Any) -> None:
        """Redraw B (the current result) against A, and the table of differences."""
        self.compare.show(self._figure(self.pinned, current))
        self.differences.remove_class(f"{self._css}-stale")
        if self.pinned is None:
            self.caption.value = self._no_pin
            self.differences.value = self._no_table
            if not self.host.valid:
                self.inputs_invalid()
            return
        self.caption.value = self._pinned_text
        if not self.host.valid:
            self.inputs_invalid()
        self.differences.value = self.adapter.compare_table(self.pinned, current)

    def inputs_invalid(self, reason: str | None = None) -> None:
        """The inputs have an error: say that B and the table are the last valid result.

        Args:
            reason: the panel's message (kept, and shown again if B is redrawn before a fix).
        """
        if reason is not None:
            self._reason = reason
        self.compare.mark_stale(self._reason)
        if self.pinned is None:
            self.caption.value = self._invalid_no_pin
        else:
            self.caption.value = self._invalid_pinned
            self.differences.add_class(f"{self._css}-stale")
