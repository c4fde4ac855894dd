"""The labels on screen of the Assault of the Giants panel's inputs, by the scenario field each one writes.

A message beside an input names what the user sees ("Attacker, fire giant 1, Fortitude: must be a
whole number >= 1"), not the field path the command line prints (``attacker.units[0].fortitude``).
The unit rows, dice and cards change as the user edits them, so the table is built from the
inputs shown now (`screen_labels`); `FIELD_NAMES` is the one for the panel's sides before any row
is named. Every entry is an exact path: a path no entry covers is still written in words
(`explorer.panels.common.field_names.plain`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from explorer.core.errors import ExplorerError, ScenarioError
from explorer.panels.assault_of_the_giants.cards_editor import EFFECT_LABELS, CardsEditor
from explorer.panels.assault_of_the_giants.dice_editor import OVERRIDES, PoolEditor
from explorer.panels.assault_of_the_giants.unit_row import FIELDS, HEADERS, UnitRow
from explorer.panels.common.field_names import FieldNames

__all__ = ["FIELD_NAMES", "ROLES", "screen_labels", "side_labels", "said"]

ROLES = ("attacker", "defender")
"""The panel's two sides, as the scenario names them."""

_SIDE = {"pool": "dice pool", "pool.basic": "basic dice", "units": "units", "race": "race", "npc": "NPC giants",
         "giantslayers": "giantslayers attack", "casualty_order": "casualties", "reroll_policy": "rerolls (which dice)",
         "objective": "plays for", "commands": "Command row", "cards": "cards in battle", "card_rerolls": "card rerolls",
         "player": "player", **{key: f"{label} (how many)" if key == "rerolls" else label
                                  for key, label in OVERRIDES.items()}}
"""A side's inputs by scenario key, as labelled on screen (the two "rerolls" said apart)."""


def side_labels(role: str) -> dict[str, str]:
    """The labels of a side's own inputs (not its rows), by field path.

    >>> side_labels("attacker")["attacker.pool.basic"], side_labels("defender")["defender.rerolls"]
    ('Attacker, basic dice', 'Defender, rerolls (how many)')
    """
    side = role.title()
    return {f"{role}.{key}": f"{side}, {label}" for key, label in _SIDE.items()}


def _units(role: str, rows: Iterable[UnitRow]) -> dict[str, str]:
    side = role.title()
    out = {}
    for i, row in enumerate(rows):
        path, name = f"{role}.units[{i}]", f"{side}, {row.label}"
        out[path] = name
        out.update({f"{path}.{key}": f"{name}, {HEADERS[key]}" for key in ("name", *FIELDS)})
        out.update({f"{path}.{key}": f"{name}, {key}" for key in ("wounded", "champion")})
    return out


def _commands(role: str, commands: Sequence[str]) -> dict[str, str]:
    side = role.title()
    return {f"{role}.commands[{i}]": f"{side}, Command row, card {i + 1} ({name})" for i, name in enumerate(commands)}


def _pool(role: str, pool: PoolEditor) -> dict[str, str]:
    side = role.title()
    dice = {pool.race: pool.special.description, **{name: box.description for name, box in pool.extra.items()}}
    return {f"{role}.pool.{name}": f"{side}, {label}" for name, label in dice.items()}


def _cards(role: str, cards: CardsEditor) -> dict[str, str]:
    side = role.title()
    out = {}
    for i, row in enumerate(cards.rows):
        path, name = f"{role}.cards[{i}]", f"{side}, {row.name}"
        out[path] = name
        out.update({f"{path}.{key}": f"{name}, {label}" for key, label in EFFECT_LABELS.items()})
        out.update({f"{path}.dice": f"{name}, + dice", f"{path}.name": f"{name}, name", f"{path}.kind": f"{name}, kind"})
    return out


def _faces(faces: Mapping[str, list[dict[str, int | str]]]) -> dict[str, str]:
    out = {"dice": "Die faces"}
    for name, die in faces.items():
        out[f"dice.{name}"] = f"Die faces, {name} die"
        for i, face in enumerate(die):
            out[f"dice.{name}[{i}]"] = f"Die faces, {name} die, face {i + 1}"
            out.update({f"dice.{name}[{i}].{symbol}": f"Die faces, {name} die, face {i + 1}, {symbol}"
                        for symbol in ("hit", "block", "arcane", *face)})
    return out


def screen_labels(rows: Mapping[str, Iterable[UnitRow]], commands: Mapping[str, Sequence[str]],
                  pools: Mapping[str, PoolEditor], cards: Mapping[str, CardsEditor],
                  faces: Mapping[str, list[dict[str, int | str]]]) -> FieldNames:
    """The labels of every input on screen now: each side's, its unit rows' (named as their tooltips),
    its Command row's cards, its dice, its cards in battle and the die faces."""
    labels: dict[str, str] = {}
    for role in ROLES:
        labels.update(side_labels(role))
        labels.update(_units(role, rows[role]))
        labels.update(_commands(role, commands[role]))
        labels.update(_pool(role, pools[role]))
        labels.update(_cards(role, cards[role]))
    labels.update(_faces(faces))
    return FieldNames(labels)


FIELD_NAMES = FieldNames({path: label for role in ROLES for path, label in side_labels(role).items()})
"""The labels of the sides' own inputs (the panel names its rows, dice and cards once it resolves)."""


def said(host: object, error: ExplorerError) -> str:
    """A refusal as a tab of the panel says it: a bad input named by its label on screen (the host's
    ``field_names``), anything else as it is.

    >>> said(object(), ScenarioError("attacker.pool.basic", "must be 0 or more")), said(object(), ExplorerError("x"))
    ('Attacker, pool, basic: must be 0 or more', 'x')
    """
    if isinstance(error, ScenarioError):
        names = getattr(host, "field_names", None)
        return (names if isinstance(names, FieldNames) else FieldNames({})).message(error)
    return str(error)
