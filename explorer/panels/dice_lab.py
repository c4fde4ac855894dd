"""Dice lab: any pool of a game's dice (or custom dice), with rerolls and conversions, charted exactly.

The game-specific part sits behind a `LabEngine`: which dice exist, which numeric modifiers
apply, which symbols a face can show and how a pool is resolved. `DiceLab` is the widget; it
only reads inputs, checks them, asks the engine and updates two persistent `Chart`s.

A custom die is typed as six comma-separated faces, symbols joined with ``+``, each with an
optional count: ``hit, 2 hit, block, arcane, blank, hit+block``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import ipywidgets as widgets

from explorer import charts
from explorer.dist import Dist
from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants.combat import side_totals
from explorer.games.assault_of_the_giants.data import (
    DEFAULT_DICE,
    FACE_LIMITS,
    FACES_PER_DIE,
    MAX_DICE_PER_SIDE,
)
from explorer.games.assault_of_the_giants.model import (
    REROLL_POLICIES,
    CombatDie,
    Modifiers,
    Side,
)
from explorer.panels.chart import Chart
from explorer.panels.common import ErrorMessage, heading, note, stylesheet

__all__ = [
    "Faces", "LabDie", "LabModifier", "LabEngine", "AssaultLabEngine", "LAB_ENGINES", "JOINT", "CUSTOM",
    "DEFAULT_CUSTOM_FACES", "parse_custom_die", "describe_face", "DiceLab",
]

Faces = tuple[tuple[int, ...], ...]
"""A die: one tuple of symbol counts per face, in the engine's `symbols` order."""

JOINT = "joint"
"""Key of the joint (first outcome, second outcome) distribution in `LabEngine.compute`'s result."""

CUSTOM = "custom"
"""Pool name of the custom die."""

DEFAULT_CUSTOM_FACES = "hit, 2 hit, block, arcane, blank, hit+block"
_BLANKS = ("", "-", "blank", "miss")
_TERM = re.compile(r"(?:(\d+)\s*[x×*]?\s*)?([a-z]+)")
_COLORS = {"hits": charts.SIDE_COLORS["attacker"], "blocks": charts.SIDE_COLORS["defender"]}


@dataclass(frozen=True, slots=True)
class LabDie:
    """A named die offered by an engine, with where its faces come from."""

    faces: Faces
    source: str


@dataclass(frozen=True, slots=True)
class LabModifier:
    """A numeric modifier input: key passed to `compute`, label shown, largest value allowed."""

    name: str
    label: str
    maximum: int


class LabEngine(Protocol):
    """What the lab needs from a game.

    Attributes:
        title: the game's name, shown as the panel heading.
        symbols: symbol names of a face, in the order of the face tuples.
        face_limits: most of each symbol one face may show.
        faces_per_die: faces of every die.
        max_dice: largest pool `compute` accepts.
        outcomes: names of the one-dimensional quantities `compute` returns (the first two also
            make up the `JOINT` distribution).
        policies: reroll policies, the default first.
    """

    title: str
    symbols: tuple[str, ...]
    face_limits: Mapping[str, int]
    faces_per_die: int
    max_dice: int
    outcomes: tuple[str, ...]
    policies: tuple[str, ...]

    def dice(self) -> dict[str, LabDie]:
        """The game's named dice, in display order."""
        ...

    def modifiers(self) -> tuple[LabModifier, ...]:
        """The numeric modifiers, in display order."""
        ...

    def compute(self, pool: Mapping[str, int], custom: Mapping[str, Faces], modifiers: Mapping[str, int],
                policy: str) -> dict[str, Dist[Any]]:
        """Exact distributions of each outcome, plus `JOINT`, for a checked pool."""
        ...


class AssaultLabEngine:
    """Assault of the Giants: hits and blocks after rerolls and arcane conversions (`side_totals`).

    >>> engine = AssaultLabEngine()
    >>> result = engine.compute({"basic": 1}, {}, {"rerolls": 0}, "misses")
    >>> result["hits"].probability(2), result[JOINT].probability((1, 1))
    (Fraction(1, 6), Fraction(1, 6))
    """

    title = "Assault of the Giants"
    symbols = ("hit", "block", "arcane")
    face_limits: Mapping[str, int] = {name: limit.value for name, limit in FACE_LIMITS.items()}
    faces_per_die = FACES_PER_DIE
    max_dice = MAX_DICE_PER_SIDE
    outcomes = ("hits", "blocks")
    policies = REROLL_POLICIES

    def dice(self) -> dict[str, LabDie]:
        """The basic die and each race's special die."""
        return {name: LabDie(die.faces, die.source) for name, die in DEFAULT_DICE.items()}

    def modifiers(self) -> tuple[LabModifier, ...]:
        """Rerolls, arcane to 2 hits and arcane to 1 block (rulebook p.16)."""
        most_arcane = self.max_dice * self.face_limits["arcane"]
        return (LabModifier("rerolls", "rerolls", self.max_dice),
                LabModifier("arcane_to_hits", "arcane → 2 hits", most_arcane),
                LabModifier("arcane_to_blocks", "arcane → block", most_arcane))

    def compute(self, pool: Mapping[str, int], custom: Mapping[str, Faces], modifiers: Mapping[str, int],
                policy: str) -> dict[str, Dist[Any]]:
        """Resolve one side's roll; custom dice are looked up before the named ones.

        Raises:
            ScenarioError: an unknown die or policy.
        """
        known = {name: die for name, die in DEFAULT_DICE.items()}
        known.update({name: CombatDie(name, tuple(faces), "custom") for name, faces in custom.items()})  # type: ignore[arg-type]
        for name in pool:
            if name not in known:
                raise ScenarioError(f"pool.{name}", f"unknown die (known dice: {', '.join(known)})")
        if policy not in self.policies:
            raise ScenarioError("reroll policy", f"must be one of {', '.join(self.policies)}, got {policy!r}")
        mods = Modifiers(**{m.name: modifiers.get(m.name, 0) for m in self.modifiers()}, source="lab")
        entries = tuple((known[name], n) for name, n in pool.items() if n)
        joint = side_totals(Side(entries, mods, (), reroll_policy=policy))
        return {"hits": joint.marginal(0), "blocks": joint.marginal(1), JOINT: joint}


LAB_ENGINES: dict[str, LabEngine] = {"assault-of-the-giants": AssaultLabEngine()}
"""Engines by game key."""


# ----------------------------------------------------------------------------- faces in words
def _symbol_index(word: str, symbols: Sequence[str]) -> int | None:
    for i, symbol in enumerate(symbols):
        if word in (symbol, symbol + "s"):
            return i
    return None


def parse_custom_die(text: str, symbols: Sequence[str], limits: Mapping[str, int], faces: int,
                     field: str = "custom die") -> Faces:
    """Read a die typed as comma-separated faces, symbols joined with ``+``, counts optional.

    ``blank``, ``miss``, ``-`` or nothing at all is a blank face; plurals are accepted.

    Args:
        text: the faces, e.g. ``"hit, 2 hit, block, arcane, blank, hit+block"``.
        symbols: the symbol names, in face-tuple order.
        limits: most of each symbol one face may show.
        faces: how many faces the die must have.
        field: the input's name, used in error messages.

    Returns:
        One tuple of symbol counts per face.

    Raises:
        ScenarioError: no faces, the wrong number of faces, an unknown symbol or too many of one.

    >>> parse_custom_die("hit, 2 hits, block, arcane, -, hit+block", ("hit", "block", "arcane"),
    ...                  {"hit": 4, "block": 2, "arcane": 2}, 6)[5]
    (1, 1, 0)
    >>> parse_custom_die("hit, 3 block, -, -, -, -", ("hit", "block"), {"hit": 4, "block": 2}, 6)
    Traceback (most recent call last):
    explorer.errors.ScenarioError: custom die, face 2: at most 2 block on a face (rulebook limit), got 3
    """
    example = "e.g. hit, 2 hit, block, arcane, blank, hit+block"
    if not text.strip():
        raise ScenarioError(field, f"has no faces; type {faces} faces separated by commas, {example}")
    parts = text.split(",")
    if len(parts) != faces:
        raise ScenarioError(field, f"needs exactly {faces} faces separated by commas, got {len(parts)}")
    allowed = f"allowed: {', '.join(symbols)}, joined with + and an optional count, or blank / miss / - for a blank face"
    result = []
    for number, part in enumerate(parts, 1):
        where = f"{field}, face {number}"
        counts = [0] * len(symbols)
        word = part.strip().lower()
        if word not in _BLANKS:
            for term in word.split("+"):
                match = _TERM.fullmatch(term.strip())
                index = _symbol_index(match.group(2), symbols) if match else None
                if match is None or index is None:
                    raise ScenarioError(where, f"unknown symbol {term.strip()!r}; {allowed}")
                counts[index] += int(match.group(1) or 1)
        for symbol, count in zip(symbols, counts):
            if count > limits[symbol]:
                raise ScenarioError(where, f"at most {limits[symbol]} {symbol} on a face (rulebook limit), got {count}")
        result.append(tuple(counts))
    return tuple(result)


def describe_face(face: Sequence[int], symbols: Sequence[str]) -> str:
    """A face in words.

    >>> describe_face((2, 1, 0), ("hit", "block", "arcane")), describe_face((0, 0, 0), ("hit",))
    ('2 hits + block', 'blank')
    """
    words = [symbol if n == 1 else f"{n} {symbol}s" for symbol, n in zip(symbols, face) if n]
    return " + ".join(words) or "blank"


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
        counts: one `IntText` per named die, by name.
        custom_faces: the custom die's faces (`Text`); custom_count: how many custom dice.
        modifiers: one `IntText` per engine modifier, by name.
        policy: reroll policy `Dropdown`; view: `charts.VIEWS` toggle; outcome: outcome toggle.
        threshold: `IntSlider` k of the P(outcome >= k) line in `summary` (`HTML`).
        distribution: the chosen outcome's chart; symbols: the joint heatmap (both `FigureWidget`s,
            created once and updated in place).
        errors: one `ErrorMessage` per input (keys: die names, ``custom faces``, ``custom count``,
            ``pool``, modifier names), CSS class ``lab-error``.
        result: the last good distributions (outcomes and `JOINT`).
    """

    def __init__(self, engine: LabEngine | str = "assault-of-the-giants", *,
                 pool: Mapping[str, int] | None = None, custom_faces: str = DEFAULT_CUSTOM_FACES) -> None:
        """Build the widgets and draw the first chart.

        Args:
            engine: an engine, or its key in `LAB_ENGINES`.
            pool: starting dice counts by name (default: 3 of the first die).
            custom_faces: starting text of the custom die.
        """
        self.engine: LabEngine = LAB_ENGINES[engine] if isinstance(engine, str) else engine
        dice = self.engine.dice()
        pool = dict(pool) if pool is not None else {next(iter(dice)): 3}
        style = {"description_width": "110px"}
        narrow = widgets.Layout(width="190px")
        self.errors: dict[str, ErrorMessage] = {}
        self.counts = {name: widgets.IntText(pool.get(name, 0), description=f"{name} dice", style=style,
                                             layout=narrow) for name in dice}
        self.custom_faces = widgets.Text(custom_faces, description="custom die faces", style=style,
                                         layout=widgets.Layout(width="440px"), continuous_update=False)
        self.custom_count = widgets.IntText(pool.get(CUSTOM, 0), description="custom dice", style=style, layout=narrow)
        self.modifiers = {m.name: widgets.IntText(0, description=m.label, style=style, layout=narrow)
                          for m in self.engine.modifiers()}
        self.policy = widgets.Dropdown(options=self.engine.policies, value=self.engine.policies[0],
                                       description="reroll policy", style=style, layout=widgets.Layout(width="260px"))
        self.view = widgets.ToggleButtons(options=charts.VIEWS, value=charts.VIEWS[0], description="show",
                                          style={"button_width": "80px"})
        self.outcome = widgets.ToggleButtons(options=self.engine.outcomes, value=self.engine.outcomes[0],
                                             description="outcome", style={"button_width": "80px"})
        self.threshold = widgets.IntSlider(1, min=0, max=1, description="k", continuous_update=True)
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
        from IPython.display import display
        display(self.widget)

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
        means = " · ".join(f"mean {name} <b>{float(self.result[name].mean()):.2f}</b>" for name in self.engine.outcomes)
        p = self.result[outcome].at_least(k)
        self.summary.value = f"{means} · P({outcome} ≥ {k}) = <b>{float(p):.2%}</b> <small>({p})</small>"
