"""Save, share and load the panel's battle as a scenario (format v1; JSON or TOML in, JSON out).

The box follows the panel: after every change it shows the current battle, and the download
link always holds the same text. Text you type or paste into the box is yours: the panel does
not overwrite it until you load it or press "Show current". Loading takes any scenario the
command line takes for this game (``python -m explorer resolve FILE``): the same checks run
first, and a file they refuse (or one for another game) changes no input.
"""

from __future__ import annotations

import base64
import html
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from explorer.errors import ScenarioError
from explorer.games import find_game
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
from explorer.games.assault_of_the_giants.data import CASTE_ORDER
from explorer.games.assault_of_the_giants.model import Side
from explorer.panels.common import ErrorMessage, note
from explorer.panels.dice_editor import OVERRIDES

if TYPE_CHECKING:
    from explorer.panels.assault import AssaultPanel

__all__ = ["GAME", "ScenarioBox", "apply_scenario", "read_text", "check_game"]

GAME = "assault-of-the-giants"
"""The game this panel's scenarios are for."""

META_KEYS = ("title", "notes")
"""Top-level keys the panel has no input for but keeps, so a loaded file is written back whole."""


def read_text(text: str) -> dict[str, Any]:
    """A scenario from the text of a JSON or TOML file (whichever parses).

    >>> read_text('game = "aotg"'), read_text('{"game": "aotg"}')
    ({'game': 'aotg'}, {'game': 'aotg'})

    Raises:
        ScenarioError: empty text, text that is neither JSON nor TOML, or no object at the top.
    """
    if not text.strip():
        raise ScenarioError("scenario", "the box is empty: paste a scenario (JSON or TOML) and press Load")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as json_error:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as toml_error:
            if text.lstrip().startswith("{"):
                raise ScenarioError("scenario", f"not valid JSON ({json_error.msg}, line {json_error.lineno} "
                                                f"column {json_error.colno})") from None
            raise ScenarioError("scenario", f"neither JSON nor valid TOML ({toml_error})") from None
    if not isinstance(data, dict):
        raise ScenarioError("scenario", "must be an object (JSON) or a table (TOML) at the top level")
    return data


def check_game(data: Mapping[str, Any]) -> None:
    """Refuse, naming ``game``, a scenario without it or for another game.

    Raises:
        ScenarioError: with field ``game``.
    """
    if "game" not in data:
        raise ScenarioError("game", f'is required; this panel loads "{GAME}" scenarios')
    game = find_game(data["game"])
    if game.name != GAME:
        raise ScenarioError("game", f'this is a "{game.name}" scenario ({game.title}); this panel loads '
                                    f'"{GAME}" scenarios (resolve it with python -m explorer resolve FILE)')


@dataclass(frozen=True)
class _SidePlan:
    """Everything one side's inputs are set to, worked out before any input changes."""

    parsed: Side
    race: str
    race_given: bool
    pool: dict[str, Any]
    overrides: dict[str, Any]
    player: str | None


def _side_plan(role: str, side: Mapping[str, Any], parsed: Side, current_race: str) -> _SidePlan:
    """The race: the side's ``race``, else its first race die, else the panel's current race."""
    pool = dict(side.get("pool", {}))
    race = side.get("race") or next((str(n) for n in pool if n in CASTE_ORDER), current_race)
    overrides = {k: side[k] for k in OVERRIDES if k in side}
    if role == "defender":
        overrides.pop("arcane_to_hits", None)  # the parser allows only 0 here: the same as leaving it out
    return _SidePlan(parsed, str(race), "race" in side, pool, overrides, side.get("player"))


def apply_scenario(panel: AssaultPanel, data: dict[str, Any]) -> None:
    """Set every input of `panel` from a scenario, then resolve once.

    The scenario is checked and resolved first, exactly as the command line would; only then
    do the inputs change. Dice the scenario does not define go back to their example faces,
    as the command line reads them.

    Raises:
        ScenarioError: the scenario is for another game, or the command line would refuse it.
    """
    check_game(data)
    battle = parse_battle(data)
    resolve_battle(battle)  # the resolver's own limits (kinds of dice with rerolls) refuse here, not later
    plans = {role: _side_plan(role, data[role], getattr(battle, role), panel.armies[role].race.value)
             for role in ("attacker", "defender")}
    panel.pause()
    try:
        panel.meta = {k: data[k] for k in META_KEYS if k in data}
        panel.faces.reset_all()
        for name, faces in data.get("dice", {}).items():
            panel.faces.set_die(str(name), faces, "from the scenario")
        for role, plan in plans.items():
            parsed = plan.parsed
            panel.armies[role].set_side(
                race=plan.race, race_given=plan.race_given, giantslayers=parsed.giantslayers, npc=parsed.npc,
                casualty_order=parsed.casualty_order, reroll_policy=parsed.reroll_policy,
                units=list(parsed.units), player=plan.player)
            panel.pools[role].set_pool(plan.pool, plan.race, plan.overrides)
            panel.commands[role].set_commands(list(parsed.commands))
            panel.commands[role].set_enabled(not parsed.npc)
    finally:
        panel.resume()


def _link(text: str) -> str:
    payload = base64.b64encode(text.encode()).decode()
    return (f'<a download="battle.json" href="data:application/json;base64,{payload}">'
            f"{html.escape('download battle.json')}</a>")


class ScenarioBox:
    """The battle as a scenario file: follow it, copy or download it; paste or open one and load it."""

    def __init__(self, panel: AssaultPanel) -> None:
        self.panel = panel
        self.text = widgets.Textarea(layout=widgets.Layout(width="100%", height="220px"),
                                     placeholder="Paste a scenario (JSON or TOML) here and press Load")
        self.text.add_class("aotg-scenario-text")
        self.current = widgets.Button(description="Show current", icon="file-code-o",
                                      tooltip="replace the box's text by the current battle")
        self.load = widgets.Button(description="Load", icon="upload", button_style="info")
        self.load.add_class("aotg-scenario-load")
        self.upload = widgets.FileUpload(accept=".json,.toml", multiple=False, description="Open file")
        self.download = widgets.HTML()
        self.state = widgets.HTML()
        self.state.add_class("aotg-scenario-state")
        self.error = ErrorMessage("aotg-error", "aotg-error-scenario")
        self._written = ""
        self._problem: str | None = None
        self.current.on_click(lambda _b: self.show_current())
        self.load.on_click(lambda _b: self.load_text())
        self.text.observe(lambda _c: self._show_state(), "value")
        self.upload.observe(lambda _c: self._uploaded(), "value")
        self.widget = widgets.VBox([
            note("The battle in the scenario format (the file <code>python -m explorer resolve</code> reads), "
                 "kept up to date with every change. Copy or download it to share it; paste a scenario "
                 "(JSON or TOML) or open a file to load it."),
            widgets.HBox([self.current, self.load, self.upload, self.download]), self.state,
            self.error.widget, self.text])
        self.follow()

    @property
    def draft(self) -> bool:
        """True while the box holds text typed or pasted in (not the battle the panel wrote)."""
        return self.text.value != self._written

    def follow(self, problem: str | None = None) -> None:
        """Show the current battle in the link, and in the box unless it holds the user's text.

        Args:
            problem: the message of an input the resolver refuses, if any.
        """
        text = json.dumps(self.panel.scenario(), indent=1)
        self._problem = problem
        self.download.value = _link(text)
        if not self.draft:
            self._write(text)
        self._show_state()

    def _write(self, text: str) -> None:
        self._written = text
        self.text.value = text

    def _show_state(self) -> None:
        if self.draft:
            text = ("The box holds your text, not loaded yet: press Load, or Show current to replace it. "
                    "The download link holds the current battle.")
        elif self._problem:
            text = (f"The current battle, as typed; the command line would refuse it until this is fixed: "
                    f"{html.escape(self._problem)}")
        else:
            text = "The current battle (follows every change)."
        self.state.value = f'<span style="color:#5d6d7e;font-size:90%">{text}</span>'

    def show_current(self) -> None:
        """Write the current battle into the box (dropping any text not loaded), with a download link."""
        self._written = self.text.value
        self.follow(self._problem)
        self.error.clear()

    def load_text(self) -> None:
        """Load the box's JSON or TOML into the panel; a bad text leaves every input (and the text) as it was."""
        self.error.clear()
        try:
            apply_scenario(self.panel, read_text(self.text.value))
        except ScenarioError as error:
            self.error.show(str(error))
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(f"scenario: could not load it ({type(error).__name__}: {error})")
            return
        self.show_current()

    def _uploaded(self) -> None:
        """An opened file: put its text in the box and load it."""
        files = self.upload.value
        if not files:
            return
        item = files[0]
        self.upload.value = ()
        try:
            text = bytes(item["content"]).decode("utf-8")
        except UnicodeDecodeError:
            self.error.show(f"scenario: {item.get('name', 'the file')} is not a text file (UTF-8 JSON or TOML)")
            return
        self.text.value = text
        self.load_text()
