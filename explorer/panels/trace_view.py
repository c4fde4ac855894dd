"""Roll once: one seeded battle, step by step as the rulebook orders it, for teaching."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants import parse_battle
from explorer.games.assault_of_the_giants.trace import TraceStep, trace_battle
from explorer.panels.common import ErrorMessage, note

if TYPE_CHECKING:
    from explorer.panels.assault import AssaultPanel

__all__ = ["TraceView", "steps_html"]


def steps_html(steps: Sequence[TraceStep]) -> str:
    """The steps as an HTML table: step, side, what happened, where the rule is.

    >>> "p.17" in steps_html([TraceStep("defender", "4. Damage", "takes 3 damage", "rulebook p.17", {})])
    True
    """
    rows = "".join(
        f"<tr><td style='white-space:nowrap'><b>{html.escape(s.step)}</b></td><td>{html.escape(s.side)}</td>"
        f"<td>{html.escape(s.text)}</td><td style='color:#5d6d7e;white-space:nowrap'>{html.escape(s.page)}</td></tr>"
        for s in steps)
    return ("<table class='aotg-trace-table' style='border-collapse:collapse'>"
            "<tr><th align=left>step</th><th align=left>side</th><th align=left>what happens</th>"
            f"<th align=left>rule</th></tr>{rows}</table>")


class TraceView:
    """A seed, a "Roll once" button, and the battle's steps."""

    def __init__(self, panel: AssaultPanel) -> None:
        self.panel = panel
        self.seed = widgets.IntText(value=1, description="seed", layout=widgets.Layout(width="160px"))
        self.roll = widgets.Button(description="Roll once", icon="dice", button_style="info")
        self.again = widgets.Button(description="Next seed", icon="forward")
        self.roll.add_class("aotg-roll-once")
        self.output = widgets.HTML()
        self.output.add_class("aotg-trace")
        self.error = ErrorMessage("aotg-error", "aotg-error-trace")
        self.steps: tuple[TraceStep, ...] = ()
        self.roll.on_click(lambda _b: self.run())
        self.again.on_click(lambda _b: self._next())
        self.widget = widgets.VBox([
            note("One sampled battle with the current inputs, reproducible from its seed: a walk-through "
                 "of the rules, not the answer (the charts above are exact)."),
            widgets.HBox([self.seed, self.roll, self.again]), self.error.widget, self.output])

    def _next(self) -> None:
        self.seed.value += 1
        self.run()

    def run(self) -> None:
        """Sample the current battle with the current seed and show every step."""
        self.error.clear()
        try:
            battle = parse_battle(self.panel.scenario())
        except ScenarioError as error:
            self.error.show(f"{error} (fix it above to roll)")
            return
        self.steps = trace_battle(battle, self.seed.value)
        self.output.value = steps_html(self.steps)
