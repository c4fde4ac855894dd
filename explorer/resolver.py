"""The one resolver every front end calls: scenario in, exact report out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from explorer.games import find_game
from explorer.scenario.fields import Fields
from explorer.scenario.loader import check_format, check_shape, read_scenario_file
from explorer.scenario.report import Report

__all__ = ["resolve", "load_scenario", "estimate"]


def load_scenario(path: str | Path) -> dict[str, Any]:
    """Read a scenario file: TOML if it ends in ``.toml``, JSON if ``.json``, else whichever parses.

    The hardened reader of `explorer.scenario.loader` (regular files only, size, encoding, depth and
    value limits, duplicate keys refused).

    Raises:
        ScenarioError: the file cannot be read, is not valid JSON / TOML, or breaks a limit.
    """
    return read_scenario_file(path)


def resolve(scenario: Mapping[str, Any] | str | Path) -> Report:
    """Resolve a scenario exactly (a mapping, or a path to a JSON / TOML file).

    >>> report = resolve({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 2}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 1}]}})
    >>> round(report.to_dict()["attacker"]["ordning_points"]["1"], 4)
    0.75

    Every scenario, a mapping from Python too, first meets the limits of `explorer.scenario.loader`
    (`check_shape`) and ``format`` must be the whole number 1; then the game's reader checks its keys.

    >>> resolve({"gmae": "aotg"})
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: gmae: unknown key; did you mean "game"?

    Raises:
        ScenarioError: naming the bad key and what it allows.
    """
    data = load_scenario(scenario) if isinstance(scenario, (str, Path)) else scenario
    check_shape(data)
    check_format(data)
    return find_game(Fields(data, "").raw("game")).resolve(data)


def estimate(scenario: Mapping[str, Any] | str | Path) -> float:
    """Seconds `resolve` and the report's outputs are estimated at for a scenario, computing nothing.

    For a grid of scenarios (`explorer.lessons.grid`): weighed together before the first is
    resolved. The scenario meets the same checks as in `resolve` first.

    >>> estimate({"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee"}, "target": {"life": 4}}) < 0.1
    True

    Raises:
        ScenarioError: naming the bad key, or the input of a part too big on its own.
    """
    data = load_scenario(scenario) if isinstance(scenario, (str, Path)) else scenario
    check_shape(data)
    check_format(data)
    game = find_game(Fields(data, "").raw("game"))
    return game.estimate(data) if game.estimate is not None else 0.0
