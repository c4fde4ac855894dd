"""Dice lab: any pool of a game's dice (or custom dice), with rerolls and conversions, charted exactly.

The game-specific part sits behind a `explorer.scenario.lab.LabEngine` that lives in the game's package
and is named in the game registry: which dice exist, which numeric modifiers apply, which
symbols a face can show and how a pool is resolved. `DiceLab` is the widget; it only reads
inputs, checks them, asks the engine and updates two persistent `Chart`s.

A custom die is typed as six comma-separated faces, symbols joined with ``+``, each with an
optional count: ``hit, 2 hit, block, arcane, blank, hit+block``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from explorer.charts import kit as charts
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games import find_game, labs
from explorer.panels.common.chart import Chart
from explorer.panels.common.display import ErrorMessage, heading, note, show, stylesheet
from explorer.panels.common.number_box import NumberText
from explorer.panels.common.table import decimal_text, percent_text
from explorer.scenario.lab import CUSTOM, JOINT, Faces, LabEngine, custom_faces_of, describe_face, parse_custom_die

__all__ = ["DiceLab"]

_COLORS = {"hits": charts.SIDE_COLORS["attacker"], "blocks": charts.SIDE_COLORS["defender"]}


# ----------------------------------------------------------------------------- widget
def _whole(value: Any, field: str, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= maximum:
        raise ScenarioError(field, f"must be a whole number from 0 to {maximum}, got {value!r}")
    return value


class DiceLab:
    """The Dice lab panel.

    Attributes:
        engine: the game's `LabEngine`.
        widget: the root container (CSS class ``lab-root``).
        counts: one `NumberText` per named die, by name (value: the int typed, or the bad text as typed).
        custom_faces: the custom die's faces (`Text`); custom_count: how many custom dice.
        modifiers: one `NumberText` per engine modifier, by name.
        policy: reroll policy `Dropdown`; view: `charts.VIEWS` toggle; outcome: outcome toggle.
        threshold: `IntSlider` k of the "chance of at least k" line in `summary` (`HTML`).
        distribution: the chosen outcome's chart; symbols: the joint heatmap (both `Chart`s,
            created once and updated in place).
        errors: one `ErrorMessage` per input (keys: die names, ``custom faces``, ``custom count``,
            ``pool``, modifier names), CSS class ``lab-error``.
        result: the last good distributions (outcomes and `JOINT`).
    """

    def __init__(self, engine: LabEngine | str | None = None, *,
                 pool: Mapping[str, int] | None = None, custom_faces: str | None = None) -> None:
        """Build the widgets and draw the first chart.

        Args:
            engine: an engine, or a game name whose registry entry names one (default: the
                first game with a dice lab in the registry).
            pool: starting dice counts by name (default: 3 of the first die).
            custom_faces: starting text of the custom die (default: the engine's own, `custom_faces_of`).
        """
        if engine is None:
            engine = labs()[0]
        self.engine: LabEngine = find_game(engine).lab_engine() if isinstance(engine, str) else engine
        dice = self.engine.dice()
        pool = dict(pool) if pool is not None else {next(iter(dice)): 3}
        style = {"description_width": "110px"}
        narrow = widgets.Layout(width="190px")
        self.errors: dict[str, ErrorMessage] = {}
        most = f"a whole number from 0 to {self.engine.max_dice}"
        self.counts = {name: NumberText(pool.get(name, 0), description=f"{name} dice", style=style,
                                        tooltip=f"{name} dice: {most}", layout=narrow) for name in dice}
        if custom_faces is None:
            custom_faces = custom_faces_of(self.engine)
        self.custom_faces = widgets.Text(custom_faces, description="custom die faces", style=style,
                                         tooltip="custom die faces: six faces, separated by commas, symbols joined "
                                                 "with + (2 hit, hit+block, blank)",
                                         layout=widgets.Layout(width="440px"), continuous_update=False)
        self.custom_count = NumberText(pool.get(CUSTOM, 0), description="custom dice", style=style,
                                       tooltip=f"custom dice: {most}", layout=narrow)
        self.modifiers = {m.name: NumberText(0, description=m.label, style=style,
                                             tooltip=f"{m.label}: a whole number from 0 to {m.maximum}", layout=narrow)
                          for m in self.engine.modifiers()}
        self.policy = widgets.Dropdown(options=self.engine.policies, value=self.engine.policies[0],
                                       description="reroll policy", tooltip="reroll policy: which dice are rerolled",
                                       style=style, layout=widgets.Layout(width="260px"))
        self.view = widgets.ToggleButtons(options=charts.VIEWS, value=charts.VIEWS[0], description="show",
                                          style={"button_width": "80px"})
        self.outcome = widgets.ToggleButtons(options=self.engine.outcomes, value=self.engine.outcomes[0],
                                             description="outcome", style={"button_width": "80px"})
        self.threshold = widgets.IntSlider(1, min=0, max=1, description="at least", continuous_update=True,
                                           tooltip="the summary's chance of at least this many of the outcome")
        self.summary = widgets.HTML()
        self.summary.add_class("lab-summary")
        self.distribution = Chart(height=320)
        self.symbols = Chart(height=380)
        self.result: dict[str, Dist[Any]] = {}
        self._key: tuple[Any, ...] | None = None

        rows = [heading(f"Dice lab: {self.engine.title}")]
        for name, die in dice.items():
            words = " · ".join(describe_face(f, self.engine.symbols) for f in die.faces)
            rows.append(widgets.HBox([self.counts[name], widgets.HTML(html.escape(words)),
                                      note(html.escape(die.source)), self._error(name)]))
        rows += [widgets.HBox([self.custom_faces, self._error("custom faces")]),
                 widgets.HBox([self.custom_count, self._error("custom count")]),
                 self._error("pool")]
        rows += [widgets.HBox([w, self._error(name)]) for name, w in self.modifiers.items()]
        rows += [self.policy, self.view, self.outcome]
        output = widgets.VBox([self.distribution, widgets.HBox([self.threshold, self.summary]), self.symbols])
        column, main = widgets.VBox(rows), widgets.Box([])
        column.add_class("explorer-inputs")
        output.add_class("explorer-results")
        main.children = (column, output)
        main.add_class("explorer-main")
        self.widget = widgets.VBox([stylesheet(), main])
        self.widget.add_class("lab-root")
        self.widget.add_class("explorer-root")

        inputs: list[widgets.Widget] = [*self.counts.values(), self.custom_faces, self.custom_count,
                                         *self.modifiers.values(), self.policy, self.view, self.outcome]
        for w in inputs:
            w.observe(self._on_change, names="value")
        self.threshold.observe(lambda _: self._summarize(), names="value")
        self.update()

    def _error(self, key: str) -> widgets.HTML:
        self.errors[key] = ErrorMessage("lab-error")
        return self.errors[key].widget

    def show(self) -> None:
        """Display the panel (in Jupyter or Voila)."""
        show(self.widget)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    def error_texts(self) -> dict[str, str]:
        """The messages currently shown, by input key."""
        return {key: m.text for key, m in self.errors.items() if m.text}

    # ------------------------------------------------------------------------- updating
    def _on_change(self, _change: Any) -> None:
        self.update()

    def _read(self) -> tuple[dict[str, ScenarioError], tuple[Any, ...] | None]:
        """Check every input; return the errors by input key and, if none, the computation's key."""
        engine, errors = self.engine, {}
        pool: dict[str, int] = {}
        for name, w in self.counts.items():
            try:
                pool[name] = _whole(w.value, f"{name} dice", engine.max_dice)
            except ScenarioError as error:
                errors[name] = error
        custom: Faces = ()
        try:
            custom = parse_custom_die(self.custom_faces.value, engine.symbols, engine.face_limits, engine.faces_per_die)
        except ScenarioError as error:
            errors["custom faces"] = error
        try:
            pool[CUSTOM] = _whole(self.custom_count.value, "custom dice", engine.max_dice)
        except ScenarioError as error:
            errors["custom count"] = error
        total = sum(pool.values())
        if total > engine.max_dice:
            errors["pool"] = ScenarioError("pool", f"at most {engine.max_dice} dice in total (a computing limit), got {total}")
        mods: dict[str, int] = {}
        for m in engine.modifiers():
            try:
                mods[m.name] = _whole(self.modifiers[m.name].value, m.label, m.maximum)
            except ScenarioError as error:
                errors[m.name] = error
        if errors:
            return errors, None
        return {}, (tuple(pool.items()), custom, tuple(mods.items()), self.policy.value)

    def update(self) -> None:
        """Check the inputs; if all are good, recompute (when needed) and update the charts in place.

        A bad input shows its message next to it and leaves the last good charts as they are.
        """
        errors, key = self._read()
        if key is not None and key != self._key:
            pool, custom, mods, policy = key
            try:
                result = self.engine.compute(dict(pool), {CUSTOM: custom}, dict(mods), policy)
            except ScenarioError as error:
                errors["pool"] = error
            else:
                self.result, self._key = result, key
                self.symbols.show(charts.symbols_figure(result[JOINT]))
        for name, message in self.errors.items():
            if name in errors:
                message.show(str(errors[name]))
            else:
                message.clear()
        if not errors:
            self._draw()

    def _draw(self) -> None:
        outcome = self.outcome.value
        dist = self.result[outcome]
        figure = charts.distribution_figure(
            dist, title=f"{outcome.capitalize()} after rerolls and conversions", x_title=outcome,
            view=self.view.value, name=outcome, color=_COLORS.get(outcome))
        self.distribution.show(figure)
        self.threshold.max = max(1, max(dist))
        self._summarize()

    def _summarize(self) -> None:
        """Means of every outcome and P(chosen outcome >= k)."""
        if not self.result:
            return
        outcome, k = self.outcome.value, self.threshold.value
        means = " · ".join(f"mean {name} <b>{decimal_text(float(self.result[name].mean()), 2)}</b>"
                           for name in self.engine.outcomes)
        p = self.result[outcome].at_least(k)
        self.summary.value = (f"{means} · chance of at least {k} {outcome}: <b>{percent_text(float(p))}</b> "
                              f"<small>(exactly {p})</small>")
