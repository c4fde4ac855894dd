"""A made-up minimal game for the shared panel parts: toss some coins, count the heads.

`CoinHost` is a tiny `PanelHost` (no widgets of its own: a test sets its inputs) and
`CoinAdapter` a tiny `GameAdapter`. Together they drive the shared what-if, sweep, scenario
box and roll-once trace view with no code of any real game, which is the proof that the
host protocol is generic. Nothing here imports ``explorer.games.<game>`` or a game's panel.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.panels.common.host import Labels, Listener, Listeners, SweepAxis, Update
from explorer.panels.common.scenario_io import ScenarioBox
from explorer.panels.common.sweep import Sweep
from explorer.panels.common.trace_view import TraceView
from explorer.panels.common.whatif import WhatIf
from explorer.scenario.fields import check_whole

GAME = "coins"
"""The made-up game's scenario name (not in the registry: the adapter checks scenarios itself)."""

MAX_COINS = 12


@dataclass(frozen=True)
class CoinResult:
    """The exact answer to one toss: how many coins, and the distribution of heads."""

    coins: int
    heads: Dist[int]
    target: int

    @property
    def tails(self) -> Dist[int]:
        """The distribution of tails."""
        return self.heads.map(lambda h: self.coins - h)


@dataclass(frozen=True)
class CoinStep:
    """One step of a toss (the trace view reads step, side, text, page)."""

    step: str
    side: str
    text: str
    page: str


def parse(scenario: Mapping[str, Any]) -> tuple[int, int]:
    """The checked ``coins`` and ``target`` of a scenario.

    Raises:
        ScenarioError: for another game or a bad number.
    """
    if scenario.get("game") != GAME:
        raise ScenarioError("game", f'this panel loads "{GAME}" scenarios, got {scenario.get("game")!r}')
    coins = check_whole(scenario.get("coins"), "coins", maximum=MAX_COINS)
    target = check_whole(scenario.get("target", 0), "target", maximum=MAX_COINS)
    return coins, target


def toss(scenario: Mapping[str, Any]) -> CoinResult:
    """The game's resolver: the exact heads of ``coins`` fair coins."""
    coins, target = parse(scenario)
    heads = Dist.single(0)
    for _ in range(coins):
        heads = heads + Dist.uniform((0, 1))
    return CoinResult(coins, heads, target)


class CoinAdapter:
    """The made-up game's pieces for the shared parts."""

    labels = Labels(noun="toss", css="coins")
    game = GAME
    quantities: Mapping[str, Callable[[Any], Dist[int]]] = {
        "heads": lambda r: r.heads, "tails": lambda r: r.tails}
    sweep_parameters = ("coins", "target")
    sweep_outcomes = ("chance of at least target heads", "expected heads")
    sweep_axes = (SweepAxis(value=(0, 3), bounds=(0, MAX_COINS)), SweepAxis(value=(0, 2), bounds=(0, MAX_COINS)))
    sweep_note = "Each cell tosses the coins exactly."

    def compare_table(self, pinned: CoinResult, current: CoinResult) -> str:
        """Expected heads of A and B, and the difference."""
        a, b = float(pinned.heads.mean()), float(current.heads.mean())
        return (f"<table class='coins-table'><tr><th>quantity</th><th>A</th><th>B</th><th>B - A</th></tr>"
                f"<tr><td>expected heads</td><td>{a:.3f}</td><td>{b:.3f}</td><td>{b - a:.3f}</td></tr></table>")

    def sweep(self, scenario: dict[str, Any], x: str, xs: range, y: str, ys: range,
              outcome: str) -> list[list[Fraction]]:
        """The outcome for every (x, y) pair of inputs; rows follow `ys`."""
        rows = []
        for y_value in ys:
            row = []
            for x_value in xs:
                result = toss({**scenario, x: x_value, y: y_value})
                row.append(result.heads.at_least(result.target) if outcome.startswith("chance")
                           else result.heads.mean())
            rows.append(row)
        return rows

    def trace(self, scenario: dict[str, Any], seed: int) -> tuple[CoinStep, ...]:
        """One seeded toss: the coins, then the count."""
        coins, _target = parse(scenario)
        rng = random.Random(seed)
        faces = ["heads" if rng.random() < 0.5 else "tails" for _ in range(coins)]
        return (CoinStep("1. Toss", "player", f"tosses {coins} coins: {', '.join(faces) or 'none'}", "house rule 1"),
                CoinStep("2. Count", "", f"{faces.count('heads')} heads", "house rule 2"))

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse what the game's resolver (`toss`) refuses."""
        toss(scenario)


class CoinHost:
    """A tiny panel: its inputs are two numbers a test sets with `set`."""

    def __init__(self, coins: int = 2, target: int = 1) -> None:
        self.inputs: dict[str, Any] = {"coins": coins, "target": target}
        self.result = toss(self.scenario())
        self.valid = True
        self.applied: list[dict[str, Any]] = []
        self._paused = False
        self._listeners = Listeners()

    def scenario(self) -> dict[str, Any]:
        """The inputs as a scenario."""
        return {"format": 1, "game": GAME, **self.inputs}

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Set both inputs from a scenario, then resolve once."""
        coins, target = parse(scenario)
        self.applied.append(dict(scenario))
        self.pause()
        try:
            self.set(coins=coins, target=target)
        finally:
            self.resume()

    def pause(self) -> None:
        """Stop resolving on every change."""
        self._paused = True

    def resume(self) -> None:
        """Resolve on changes again, and now."""
        self._paused = False
        self.refresh()

    def on_update(self, listener: Listener) -> None:
        """Call `listener` after every resolve."""
        self._listeners.add(listener)

    def set(self, **inputs: Any) -> None:
        """What a user's edit does: change inputs, then resolve (unless paused)."""
        self.inputs.update(inputs)
        if not self._paused:
            self.refresh()

    def refresh(self) -> bool:
        """Resolve the inputs and tell the listeners; False if they were refused."""
        try:
            result = toss(self.scenario())
        except ScenarioError as error:
            self.valid = False
            self._listeners.notify(Update(valid=False, problem=str(error),
                                          reason=f"Not updated: {error}. Showing the last valid toss."))
            return False
        self.result, self.valid = result, True
        self._listeners.notify(Update(valid=True))
        return True


@dataclass
class CoinPanel:
    """The host with every shared part attached."""

    host: CoinHost
    whatif: WhatIf
    sweep: Sweep
    box: ScenarioBox
    trace: TraceView


def build(coins: int = 2, target: int = 1) -> CoinPanel:
    """A coin host with the shared what-if, sweep, scenario box and trace view."""
    host, adapter = CoinHost(coins, target), CoinAdapter()
    return CoinPanel(host, WhatIf(host, adapter), Sweep(host, adapter), ScenarioBox(host, adapter),
                     TraceView(host, adapter))
