"""The one resolver every front end calls: scenario in, exact report out."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from explorer.errors import ScenarioError
from explorer.games import find_game
from explorer.report import Report

__all__ = ["resolve", "load_scenario"]


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Read a scenario file: TOML if it ends in ``.toml``, JSON otherwise.

    Raises:
        ScenarioError: the file is missing or is not valid JSON / TOML.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ScenarioError("", f"cannot read {path}: {error.strerror or error}") from None
    try:
        data = tomllib.loads(text) if path.suffix.lower() == ".toml" else json.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as error:
        kind = "TOML" if path.suffix.lower() == ".toml" else "JSON"
        raise ScenarioError("", f"{path} is not valid {kind}: {error}") from None
    if not isinstance(data, dict):
        raise ScenarioError("scenario", "must be an object at the top level")
    return data


def resolve(scenario: Mapping[str, Any] | str | Path) -> Report:
    """Resolve a scenario exactly (a mapping, or a path to a JSON / TOML file).

    >>> report = resolve({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 2}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}})
    >>> round(report.to_dict()["attacker"]["ordning_points"]["1"], 4)
    0.75

    Raises:
        ScenarioError: naming the bad key and what it allows.
    """
    data = load_scenario(scenario) if isinstance(scenario, (str, Path)) else scenario
    if not isinstance(data, Mapping):
        raise ScenarioError("scenario", "must be an object at the top level")
    if "game" not in data:
        raise ScenarioError("game", "is required")
    return find_game(data["game"]).resolve(data)
