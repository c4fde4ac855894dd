"""Helpers for the hostile-input and fuzz tests: the examples, error-line checks, a headless Load box."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from explorer import ScenarioError
from explorer.cli import main
from explorer.core.errors import MAX_MESSAGE
from explorer.panels.common.host import Labels
from explorer.panels.common.scenario_io import ScenarioBox, check_scenario
from explorer.scenario.loader import read_scenario_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_PATHS = sorted((ROOT / "examples").glob("*.*"))
EXAMPLES: dict[str, dict[str, Any]] = {p.name: read_scenario_file(p) for p in EXAMPLE_PATHS}
"""Every example file, read: name -> scenario."""
GAMES = ("assault-of-the-giants", "arcadia-quest", "agot-lcg")


def check_line(message: str, field: str | None = None) -> None:
    """An error line: one line, at most 200 characters, a field path then ": " first.

    Args:
        message: the error text (``str(error)``, or the CLI's line without ``error: ``).
        field: the path it must start with, if known.
    """
    assert "\n" not in message and "\r" not in message and "\x1b" not in message, repr(message)
    assert 0 < len(message) <= MAX_MESSAGE, (len(message), message)
    head, sep, _ = message.partition(": ")
    assert sep and head.strip(), f"no field path first: {message!r}"
    if field is not None:
        assert head == field, f"expected field {field!r}: {message!r}"


def check_error(error: ScenarioError, field: str | None = None) -> None:
    """A `ScenarioError` whose message is an error line starting with its own field."""
    message = str(error)
    check_line(message, field)
    assert error.field and message.startswith(error.field + ": "), message


def run_cli(*args: str) -> tuple[int, str, str]:
    """`explorer.cli.main` in this process: exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's own errors
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def check_cli(code: int, out: str, err: str) -> None:
    """A report (exit 0, nothing on stderr) or the project's error (exit 2, one error line)."""
    if code == 0:
        assert out and not err, err
        return
    assert code == 2 and not out, (code, out, err)
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, repr(err)
    check_line(err[len("error: "):-1])


class BoxHost:
    """A panel reduced to what the Load box needs: a fixed current scenario, and what was loaded."""

    def __init__(self, scenario: Mapping[str, Any]) -> None:
        self.current = dict(scenario)
        self.applied: list[dict[str, Any]] = []

    def scenario(self) -> dict[str, Any]:
        """The current scenario (the last one applied)."""
        return self.current

    def apply(self, scenario: Mapping[str, Any]) -> None:
        """Take a checked scenario as the current one."""
        self.applied.append(dict(scenario))
        self.current = dict(scenario)

    def on_update(self, listener: Any) -> None:
        """The box follows the host; this host never changes on its own."""


class BoxAdapter:
    """The real games' check (`check_scenario`, the one resolver) for a game's Load box."""

    labels = Labels("scenario", "fuzz")

    def __init__(self, game: str) -> None:
        self.game = game

    def check(self, scenario: Mapping[str, Any]) -> None:
        """Refuse another game's scenario or one the resolver refuses."""
        check_scenario(scenario, self.game)


def load_box(game: str, text: str, start: Mapping[str, Any]) -> tuple[BoxHost, ScenarioBox]:
    """Type `text` into a headless Load box for `game` (current scenario `start`) and press Load."""
    host = BoxHost(start)
    box = ScenarioBox(host, BoxAdapter(game))  # type: ignore[arg-type]
    box.text.value = text
    box.load.click()
    return host, box


def check_box(host: BoxHost, box: ScenarioBox, start: Mapping[str, Any], text: str) -> None:
    """Loaded (no message), or refused with one project error line, the panel and the text unchanged."""
    if box.error.text:
        check_line(box.error.text)
        assert not box.error.text.startswith("scenario: could not load it"), box.error.text
        assert host.applied == [] and host.current == dict(start) and box.text.value == text
    else:
        assert len(host.applied) == 1
