"""Roll once: one seeded play of the current scenario, step by step as the rulebook orders it, for teaching.

Written once for every game: the panel is a `PanelHost`, and the game's `TraceAdapter`
samples one play with a seed and returns its steps (each citing where its rule is). An adapter
may also name ``terms``: words the rules abbreviate ("CRIT"), each with its meaning, which the
steps then show on hover.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.field_names import FieldNames
from explorer.panels.common.host import PanelHost, TraceAdapter, TraceStepLike, Update
from explorer.panels.common.number_box import NumberText
from explorer.panels.common.table import explained
from explorer.scenario.fields import check_whole

__all__ = ["TraceView", "steps_html"]


def steps_html(steps: Sequence[TraceStepLike], css: str = "explorer", terms: Mapping[str, str] | None = None) -> str:
    """The steps as an HTML table (class ``{css}-trace-table``): step, side, what happened, where the rule is.

    Each of `terms` (a word the rules abbreviate) shows its meaning on hover.

    >>> from types import SimpleNamespace as Step
    >>> "p.17" in steps_html([Step(side="defender", step="4. Damage", text="takes 3 damage", page="rulebook p.17")])
    True
    >>> '<abbr title="CRIT: a success' in steps_html([Step(side="", step="2. CRITs", text="", page="")], "aq",
    ...                                              {"CRIT": "a success that adds a die"})
    True
    """
    terms = terms or {}
    rows = "".join(
        f"<tr><td style='white-space:nowrap'><b>{explained(s.step, terms)}</b></td><td>{html.escape(s.side)}</td>"
        f"<td>{explained(s.text, terms)}</td>"
        f"<td style='color:#5d6d7e;white-space:nowrap'>{html.escape(s.page)}</td></tr>"
        for s in steps)
    return (f"<table class='{css}-trace-table' style='border-collapse:collapse'>"
            "<tr><th align=left>step</th><th align=left>side</th><th align=left>what happens</th>"
            f"<th align=left>rule</th></tr>{rows}</table>")


class TraceView:
    """A seed, a "Roll once" button, and the steps of one sampled play.

    Once rolled, the steps follow every change of the scenario or the seed (same seed, new
    scenario); while the inputs have an error they say they are the last valid scenario's.

    Args:
        host: the game's panel (its current scenario is sampled).
        adapter: the game's roll-once step function.

    Attributes:
        seed: the seed box; roll, again: "Roll once" and "Next seed"; output: the steps (HTML);
        state: what the steps are; error: a message; steps: the steps shown; widget: the root.
    """

    def __init__(self, host: PanelHost, adapter: TraceAdapter) -> None:
        self.host = host
        self.adapter = adapter
        noun, css = adapter.labels.noun, adapter.labels.css
        self._noun, self._css = noun, css
        self.seed = NumberText(1, description="seed", tooltip="a whole number, 0 or more",
                               layout=widgets.Layout(width="160px"))
        self.roll = widgets.Button(description="Roll once", icon="dice", button_style="info")
        self.again = widgets.Button(description="Next seed", icon="forward")
        self.roll.add_class(f"{css}-roll-once")
        self.output = widgets.HTML()
        self.output.add_class(f"{css}-trace")
        self.state = widgets.HTML()
        self.error = ErrorMessage(f"{css}-error", f"{css}-error-trace")
        self.steps: tuple[TraceStepLike, ...] = ()
        self._terms: Mapping[str, str] = getattr(adapter, "terms", {})
        self.roll.on_click(lambda _b: self.run())
        self.again.on_click(lambda _b: self._next())
        self.seed.observe(lambda _c: self.follow(), "value")
        self.widget = widgets.VBox([
            note(f"One sampled {noun} with the current inputs, reproducible from its seed: a walk-through "
                 "of the rules, not the answer (the charts above are exact)."),
            widgets.HBox([self.seed, self.roll, self.again]), self.error.widget, self.state, self.output])
        host.on_update(self._updated)

    def _updated(self, _update: Update) -> None:
        self.follow()

    def _next(self) -> None:
        if isinstance(self.seed.value, int):
            self.seed.value += 1
        self.run()

    def run(self) -> None:
        """Sample the current scenario with the current seed and show every step."""
        self._roll(following=False)

    def follow(self) -> None:
        """After a change: roll again with the same seed if steps are shown."""
        if self.steps:
            self._roll(following=True)

    def _roll(self, following: bool) -> None:
        self.error.clear()
        try:
            seed = check_whole(self.seed.value, "seed")
            steps = tuple(self.adapter.trace(self.host.scenario(), seed))
        except ScenarioError as error:
            if following and error.field != "seed":
                self._say(f"<b style='color:#b03a2e'>These steps are from the last valid {self._noun}: an input "
                          "has an error (see the message next to it).</b>")
            else:
                said = str(error) if error.field == "seed" else self._said(error)
                self.error.show(f"{said} (fix it to roll)" if error.field == "seed" else f"{said} (fix it above to roll)")
                if self.steps:
                    self._say("<b style='color:#b03a2e'>The steps below are not from the current inputs.</b>")
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(f"roll once: unexpected problem: {type(error).__name__}: {error}")
            return
        self.steps = steps
        self.output.value = steps_html(steps, self._css, self._terms)
        self._say(f"One {self._noun} with seed {seed}, the current inputs (follows every change).")

    def _said(self, error: ScenarioError) -> str:
        """A refused input named as the panel labels it (its ``field_names``, if it has them)."""
        names = getattr(self.host, "field_names", None)
        return names.message(error) if isinstance(names, FieldNames) else str(error)

    def _say(self, text: str) -> None:
        self.state.value = f'<span style="color:#5d6d7e;font-size:90%">{text}</span>'
