"""Roll once: one seeded battle, step by step as the rulebook orders it, for teaching."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from explorer.errors import ScenarioError
from explorer.fields import check_whole
from explorer.games.assault_of_the_giants import parse_battle
from explorer.games.assault_of_the_giants.trace import TraceStep, trace_battle
from explorer.panels.common import ErrorMessage, note
from explorer.panels.number_box import NumberText

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
    """A seed, a "Roll once" button, and the battle's steps.

    Once rolled, the steps follow every change of the battle or the seed (same seed, new battle);
    while the inputs have an error they say they are the last valid battle's.
    """

    def __init__(self, panel: AssaultPanel) -> None:
        self.panel = panel
        self.seed = NumberText(1, description="seed", tooltip="a whole number, 0 or more",
                               layout=widgets.Layout(width="160px"))
        self.roll = widgets.Button(description="Roll once", icon="dice", button_style="info")
        self.again = widgets.Button(description="Next seed", icon="forward")
        self.roll.add_class("aotg-roll-once")
        self.output = widgets.HTML()
        self.output.add_class("aotg-trace")
        self.state = widgets.HTML()
        self.error = ErrorMessage("aotg-error", "aotg-error-trace")
        self.steps: tuple[TraceStep, ...] = ()
        self.roll.on_click(lambda _b: self.run())
        self.again.on_click(lambda _b: self._next())
        self.seed.observe(lambda _c: self.follow(), "value")
        self.widget = widgets.VBox([
            note("One sampled battle with the current inputs, reproducible from its seed: a walk-through "
                 "of the rules, not the answer (the charts above are exact)."),
            widgets.HBox([self.seed, self.roll, self.again]), self.error.widget, self.state, self.output])

    def _next(self) -> None:
        if isinstance(self.seed.value, int):
            self.seed.value += 1
        self.run()

    def run(self) -> None:
        """Sample the current battle with the current seed and show every step."""
        self._roll(following=False)

    def follow(self) -> None:
        """After a change: roll again with the same seed if steps are shown."""
        if self.steps:
            self._roll(following=True)

    def _roll(self, following: bool) -> None:
        self.error.clear()
        try:
            seed = check_whole(self.seed.value, "seed")
            battle = parse_battle(self.panel.scenario())
            steps = trace_battle(battle, seed)
        except ScenarioError as error:
            if following and error.field != "seed":
                self._say("<b style='color:#b03a2e'>These steps are from the last valid battle: an input has an "
                          "error (see the message next to it).</b>")
            else:
                self.error.show(f"{error} (fix it to roll)" if error.field == "seed" else f"{error} (fix it above to roll)")
                if self.steps:
                    self._say("<b style='color:#b03a2e'>The steps below are not from the current inputs.</b>")
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(f"roll once: unexpected problem: {type(error).__name__}: {error}")
            return
        self.steps = steps
        self.output.value = steps_html(steps)
        self._say(f"One battle with seed {seed}, the current inputs (follows every change).")

    def _say(self, text: str) -> None:
        self.state.value = f'<span style="color:#5d6d7e;font-size:90%">{text}</span>'
