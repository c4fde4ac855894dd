"""Save, share and load the panel's scenario (format v1; JSON or TOML in, JSON out).

The box follows the panel: after every change it shows the current scenario, and the download
link always holds the same text. Text you type or paste into the box is yours: the panel does
not overwrite it until you load it or press "Show current". Loading takes any scenario the
command line takes for this game (``python -m explorer resolve FILE``): the same checks run
first (`check_scenario`, the one resolver), and a file they refuse (or one for another game)
changes no input; nor does anything that fails later, while the inputs are set
(`explorer.panels.common.safe_load`: the previous inputs are put back). An opened file is read
as a file is (`explorer.scenario.loader.decode_bytes`: at most `MAX_FILE_BYTES`, UTF-8); the Open file
button refuses a larger one in the page, before its bytes are sent
(`explorer.panels.common.file_open`).

Written once for every game: the panel is a `PanelHost`, and the game's `ScenarioAdapter`
names the game and checks a scenario before the panel loads it.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from explorer.core.errors import ScenarioError
from explorer.games import find_game
from explorer.panels.common.display import ErrorMessage, note
from explorer.panels.common.file_open import FileOpener, file_name, refusal
from explorer.panels.common.host import PanelHost, ScenarioAdapter
from explorer.panels.common.safe_load import load_checked
from explorer.panels.common.share_view import ShareAndExport
from explorer.resolver import resolve
from explorer.scenario.loader import MAX_FILE_BYTES, decode_bytes, read_scenario_text

__all__ = ["ScenarioBox", "read_text", "check_game", "check_scenario"]


def read_text(text: str) -> dict[str, Any]:
    """A scenario from the text of a JSON or TOML file (whichever parses), read as files are.

    The command line's hardened loader (`explorer.scenario.loader.read_scenario_text`): size, depth and
    value limits, duplicate keys refused.

    >>> read_text('game = "aotg"'), read_text('{"game": "aotg"}')
    ({'game': 'aotg'}, {'game': 'aotg'})

    Raises:
        ScenarioError: empty text, text that is neither JSON nor TOML, or one that breaks a limit.
    """
    if not text.strip():
        raise ScenarioError("scenario", "the box is empty: paste a scenario (JSON or TOML) and press Load")
    return read_scenario_text(text)


def check_game(data: Mapping[str, Any], expected: str) -> None:
    """Refuse, naming ``game``, a scenario without it or for another game than `expected`.

    >>> check_game({"game": "AotG"}, "assault-of-the-giants")
    >>> check_game({"game": "aq"}, "assault-of-the-giants")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: game: this is a "arcadia-quest" scenario (...); this panel loads ...

    Raises:
        ScenarioError: with field ``game``.
    """
    if "game" not in data:
        raise ScenarioError("game", f'is required; this panel loads "{expected}" scenarios')
    game = find_game(data["game"])
    if game.name != expected:
        raise ScenarioError("game", f'this is a "{game.name}" scenario ({game.title}); this panel loads '
                                    f'"{expected}" scenarios (resolve it with python -m explorer resolve FILE)')


def check_scenario(data: Mapping[str, Any], expected: str) -> None:
    """Refuse what the command line refuses: another game's scenario, or any the resolver refuses.

    The one resolver (`explorer.resolve`) checks and resolves the scenario, exactly as
    ``python -m explorer resolve FILE`` does; a game's `ScenarioAdapter.check` calls this.

    Raises:
        ScenarioError: naming the bad key.
    """
    check_game(data, expected)
    resolve(data)


_BUTTON = ("display:inline-flex;align-items:center;gap:6px;height:28px;padding:0 12px;margin:2px;"
           "text-decoration:none;color:#fff;background:#1f6aa5;border-radius:2px;white-space:nowrap")
"""The download link drawn as a button (ipywidgets' button classes give the theme's font and size)."""


def _link(text: str, file_name: str) -> str:
    """A download link for the scenario, styled as a button."""
    payload = base64.b64encode(text.encode()).decode()
    return (f'<a class="jupyter-button widget-button explorer-download" style="{_BUTTON}" '
            f'download="{html.escape(file_name)}" href="data:application/json;base64,{payload}" '
            f'title="save the current scenario as a file">'
            f'<i class="fa fa-download"></i>{html.escape("Download " + file_name)}</a>')


class ScenarioBox:
    """The scenario as a file: follow it, copy or download it; paste or open one and load it.

    Args:
        host: the game's panel (its scenario is shown; a loaded one goes to its `apply`).
        adapter: the game's name and its check of a scenario before loading.

    Attributes:
        text: the box; current, load, upload: "Show current", "Load", "Open file"; download: the
        link; state: what the box holds; error: a message; widget: the root.
    """

    def __init__(self, host: PanelHost, adapter: ScenarioAdapter) -> None:
        self.host = host
        self.adapter = adapter
        noun, css = adapter.labels.noun, adapter.labels.css
        self._noun, self._file_name = noun, adapter.labels.file_name
        self.text = widgets.Textarea(layout=widgets.Layout(width="100%", height="220px"),
                                     placeholder="Paste a scenario (JSON or TOML) here and press Load",
                                     tooltip=f"the {noun} as a scenario file (JSON or TOML): paste one and press Load")
        self.text.add_class(f"{css}-scenario-text")
        self.current = widgets.Button(description="Show current", icon="file-code-o",
                                      tooltip=f"replace the box's text by the current {noun}")
        self.load = widgets.Button(description="Load", icon="upload", button_style="info")
        self.load.add_class(f"{css}-scenario-load")
        self.upload = FileOpener(accept=".json,.toml", multiple=False, description="Open file",
                                 tooltip=f"open a scenario file (JSON or TOML, at most {MAX_FILE_BYTES} bytes)")
        self.download = widgets.HTML()
        self.state = widgets.HTML()
        self.state.add_class(f"{css}-scenario-state")
        self.error = ErrorMessage(f"{css}-error", f"{css}-error-scenario")
        self._written = ""
        self._problem: str | None = None
        self.current.on_click(lambda _b: self.show_current())
        self.load.on_click(lambda _b: self.load_text())
        self.text.observe(lambda _c: self._show_state(), "value")
        self.upload.observe(lambda _c: self._uploaded(), "value")
        self.upload.observe(lambda _c: self._upload_refused(), "error")
        self.widget = widgets.VBox([
            note(f"The {noun} in the scenario format (the file <code>python -m explorer resolve</code> reads), "
                 "kept up to date with every change. Copy or download it to share it; paste a scenario "
                 "(JSON or TOML) or open a file to load it."),
            widgets.HBox([self.current, self.load, self.upload, self.download]), self.state,
            self.error.widget, self.text])
        self.share = ShareAndExport(host, adapter)
        self.widget.children = (self.share.widget, *self.widget.children)
        self.follow()
        host.on_update(lambda update: self.follow(update.problem))

    @property
    def draft(self) -> bool:
        """True while the box holds text typed or pasted in (not the scenario the panel wrote)."""
        return bool(self.text.value != self._written)

    def follow(self, problem: str | None = None) -> None:
        """Show the current scenario in the link, and in the box unless it holds the user's text.

        Args:
            problem: the message of an input the resolver refuses, if any.
        """
        text = json.dumps(self.host.scenario(), indent=1)
        self._problem = problem
        self.download.value = _link(text, self._file_name)
        if not self.draft:
            self._write(text)
        self._show_state()

    def _write(self, text: str) -> None:
        self._written = text
        self.text.value = text

    def _show_state(self) -> None:
        if self.draft:
            text = ("The box holds your text, not loaded yet: press Load, or Show current to replace it. "
                    f"The download link holds the current {self._noun}.")
        elif self._problem:
            text = (f"The current {self._noun}, as typed; the command line would refuse it until this is fixed: "
                    f"{html.escape(self._problem)}")
        else:
            text = f"The current {self._noun} (follows every change)."
        self.state.value = f'<span style="color:#5d6d7e;font-size:90%">{text}</span>'

    def show_current(self) -> None:
        """Write the current scenario into the box (dropping any text not loaded), with a download link."""
        self._written = self.text.value
        self.follow(self._problem)
        self.error.clear()

    def load_text(self) -> None:
        """Load the box's JSON or TOML into the panel; a bad text leaves every input (and the text) as it was.

        The adapter checks the scenario first (as the command line would); only then does the
        panel's `apply` set its inputs, and a failure while it does puts the previous ones back
        (`load_checked`).
        """
        self.error.clear()
        try:
            load_checked(self.host, self.adapter, read_text(self.text.value))
        except ScenarioError as error:
            self.error.show(str(error))
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(str(ScenarioError("scenario", f"could not load it ({type(error).__name__}: {error})")))
            return
        self.show_current()

    def _upload_refused(self) -> None:
        """The page refused a file (too big, or unreadable) before sending it: say so beside the button."""
        message = refusal(self.upload.error)
        if message is None:
            return
        self.upload.error = ""
        self.error.show(message)

    def _uploaded(self) -> None:
        """An opened file: put its text in the box and load it (a file too big is refused unread)."""
        files = self.upload.value
        if not files:
            return
        item = files[0]
        self.upload.value = ()
        self.error.clear()
        try:
            name, content = file_name(item.get("name")), item["content"]
            if len(content) > MAX_FILE_BYTES:
                raise ScenarioError("scenario", f"{name} is too big: at most {MAX_FILE_BYTES} bytes, got {len(content)}")
            text = decode_bytes(bytes(content), name)
        except ScenarioError as error:
            self.error.show(str(error))
            return
        except Exception as error:  # noqa: BLE001 - no traceback reaches the notebook
            self.error.show(f"scenario: could not open the file ({type(error).__name__})")
            return
        self.text.value = text
        self.load_text()
