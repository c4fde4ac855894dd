"""What the shared parts of a panel need from a game: a host protocol and small adapters.

The shared parts (what-if, sweep, scenario box, roll-once trace view) are written once against
`PanelHost`, which every game's panel implements, and against one adapter object per game that
supplies the game's own pieces (what to compare, what to sweep, how to roll once, which game a
scenario must be for). None of them knows a game's panel class or imports a game's package.

A host, in short::

    host.scenario()        # the current inputs as a scenario mapping (format v1)
    host.result            # the last valid result (whatever the game's resolver gives)
    host.valid             # True while `result` is the result of the current inputs
    host.apply(scenario)   # load a checked scenario into the inputs, then resolve once
    host.pause(); ...; host.resume()   # batch many input changes into one resolve
    host.on_update(listener)           # listener(Update) after every resolve (and the newest, if any)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, runtime_checkable

from explorer.core.dist import Dist

__all__ = [
    "Update", "Listener", "Listeners", "PanelHost", "Labels", "SweepAxis", "TraceStepLike",
    "CompareAdapter", "SweepAdapter", "TraceAdapter", "ScenarioAdapter", "GameAdapter",
]


@dataclass(frozen=True, slots=True)
class Update:
    """What a host tells its listeners after resolving its inputs.

    >>> Update(valid=True)
    Update(valid=True, problem=None, reason='')
    """

    valid: bool
    """True: the host's `result` is the current inputs' result. False: the inputs were refused."""
    problem: str | None = None
    """Why the inputs were refused (the resolver's message), None when valid."""
    reason: str = ""
    """The sentence views show over what they still display when not valid ("Not updated: ...")."""


Listener = Callable[[Update], None]
"""A function called with every `Update`."""


class Listeners:
    """The listeners of a host, called in the order they were added (a helper for hosts).

    >>> seen = []
    >>> listeners = Listeners()
    >>> listeners.add(seen.append)
    >>> listeners.notify(Update(valid=False, problem="x: bad", reason="Not updated"))
    >>> seen[0].problem
    'x: bad'
    >>> late = []
    >>> listeners.add(late.append)  # told the newest update at once
    >>> late[0].valid
    False
    """

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.last: Update | None = None
        """The newest update told, if any."""

    def add(self, listener: Listener) -> None:
        """Call `listener` after every resolve from now on, and now with the newest update if any.

        A part built after the host has resolved (a tab opened for the first time,
        `explorer.panels.common.lazy`) thus learns at once whether the inputs are refused.
        """
        self._listeners.append(listener)
        if self.last is not None:
            listener(self.last)

    def notify(self, update: Update) -> None:
        """Tell every listener, in order."""
        self.last = update
        for listener in list(self._listeners):
            listener(update)


@runtime_checkable
class PanelHost(Protocol):
    """A game's panel, as the shared parts see it."""

    @property
    def result(self) -> Any:
        """The last valid result of the game's resolver (the shared parts only pass it to the adapter)."""
        ...

    @property
    def valid(self) -> bool:
        """True while `result` is the result of the current inputs."""
        ...

    def scenario(self) -> dict[str, Any]:
        """The current inputs as a scenario (format v1), as typed: a bad entry stays as typed."""
        ...

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Set every input from a scenario the adapter's `check` accepted, then resolve once.

        Raises:
            explorer.ScenarioError: the panel cannot show it; no input has changed then.
        """
        ...

    def pause(self) -> None:
        """Stop resolving on every change (while many inputs are set at once)."""
        ...

    def resume(self) -> None:
        """Resolve again on changes, and resolve now."""
        ...

    def on_update(self, listener: Listener) -> None:
        """Call `listener` with an `Update` after every resolve (the result changed, or went stale)."""
        ...


@dataclass(frozen=True, slots=True)
class Labels:
    """How the shared parts name things for one game.

    >>> Labels("battle", "aotg").file_name
    'battle.json'
    """

    noun: str = "scenario"
    """What one scenario of the game is called in messages ("battle", "attack")."""
    css: str = "explorer"
    """Prefix of the shared parts' CSS classes (``aotg`` gives ``aotg-pin``, ``aotg-error``...)."""

    @property
    def file_name(self) -> str:
        """The name of a downloaded scenario file."""
        return f"{self.noun}.json"


@dataclass(frozen=True, slots=True)
class SweepAxis:
    """A sweep slider: its first range and its bounds (whole numbers)."""

    value: tuple[int, int]
    bounds: tuple[int, int]


class TraceStepLike(Protocol):
    """One step of a roll-once trace, as the trace view shows it."""

    @property
    def step(self) -> str:
        """Short title ("1. Roll")."""
        ...

    @property
    def side(self) -> str:
        """Who acts ("attacker", "hero"), or "" for both."""
        ...

    @property
    def text(self) -> str:
        """What happened, in plain words."""
        ...

    @property
    def page(self) -> str:
        """Where the rule is ("rulebook p.17")."""
        ...


class CompareAdapter(Protocol):
    """What the what-if A/B comparison needs from a game."""

    labels: Labels
    quantities: Mapping[str, Callable[[Any], Dist[int]]]
    """Distributions the A/B overlay can show, by label: result -> distribution (first word: x axis)."""

    def compare_table(self, pinned: Any, current: Any) -> str:
        """The HTML table of A (pinned), B (current) and B - A for the game's summary numbers."""
        ...


class SweepAdapter(Protocol):
    """What the sweep needs from a game."""

    labels: Labels
    sweep_parameters: Sequence[str]
    """Numeric inputs a sweep can vary."""
    sweep_outcomes: Sequence[str]
    """Numbers a sweep can map."""
    sweep_axes: tuple[SweepAxis, SweepAxis]
    """The x and y sliders."""
    sweep_note: str
    """One line (HTML) above the sweep's controls."""

    def sweep(self, scenario: dict[str, Any], x: str, xs: range, y: str, ys: range,
              outcome: str) -> Sequence[Sequence[Fraction | float]]:
        """The outcome for every (x, y) pair; rows follow `ys`.

        Raises:
            explorer.ScenarioError: a cell's scenario is refused.
        """
        ...


class TraceAdapter(Protocol):
    """What the roll-once trace view needs from a game."""

    labels: Labels

    def trace(self, scenario: dict[str, Any], seed: int) -> Sequence[TraceStepLike]:
        """One sampled play of the scenario with `random.Random(seed)`, step by step.

        Raises:
            explorer.ScenarioError: the scenario is refused.
        """
        ...


class ScenarioAdapter(Protocol):
    """What the scenario box needs from a game."""

    labels: Labels
    game: str
    """The registry name of the game whose scenarios the panel loads."""

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse a scenario the panel must not load (with the one resolver, `explorer.resolve`).

        Raises:
            explorer.ScenarioError: another game's scenario, or one the command line refuses.
        """
        ...


@runtime_checkable
class GameAdapter(CompareAdapter, SweepAdapter, TraceAdapter, ScenarioAdapter, Protocol):
    """Everything the shared parts need from one game (``isinstance`` checks that the names exist)."""
