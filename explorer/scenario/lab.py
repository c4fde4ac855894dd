"""Dice labs, game-agnostic: what a game offers to a pool-of-dice lab, and dice typed as words.

A game's lab engine (`LabEngine`) says which dice exist, which numeric modifiers apply, which
symbols a face can show and how a pool is resolved; it lives in the game's package
(``explorer.games.<game>.lab``) and is named in the game registry. The widget that shows an
engine is `explorer.panels.common.dice_lab.DiceLab`; nothing here imports a UI library.

A custom die is typed as comma-separated faces, symbols joined with ``+``, each with an
optional count: ``hit, 2 hit, block, arcane, blank, hit+block``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from explorer.core.dist import Dist
from explorer.core.engine.types import Faces
from explorer.core.errors import ScenarioError

__all__ = [
    "Faces", "LabDie", "LabModifier", "LabEngine", "JOINT", "CUSTOM", "DEFAULT_CUSTOM_FACES",
    "parse_custom_die", "describe_face", "custom_faces_of",
]


JOINT = "joint"
"""Key of the joint (first outcome, second outcome) distribution in `LabEngine.compute`'s result."""

CUSTOM = "custom"
"""Pool name of the custom die."""

DEFAULT_CUSTOM_FACES = "hit, 2 hit, block, arcane, blank, hit+block"
"""The custom die's starting text for an engine without its own `LabEngine.custom_faces`."""
_BLANKS = ("", "-", "blank", "miss")
_TERM = re.compile(r"(?:(\d+)\s*[x×*]?\s*)?([a-z]+)")


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
        custom_faces: optional (an engine may leave it out): the custom die's starting text, in the
            engine's own symbols; `custom_faces_of` reads it, falling back to `DEFAULT_CUSTOM_FACES`.
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


def custom_faces_of(engine: Any) -> str:
    """The custom die's starting text for `engine`: its own ``custom_faces``, else `DEFAULT_CUSTOM_FACES`.

    >>> from types import SimpleNamespace
    >>> custom_faces_of(SimpleNamespace(custom_faces="crit, -, -, -, -, -")), custom_faces_of(object()) == DEFAULT_CUSTOM_FACES
    ('crit, -, -, -, -, -', True)
    """
    text = getattr(engine, "custom_faces", None)
    return text if isinstance(text, str) else DEFAULT_CUSTOM_FACES


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
    explorer.core.errors.ScenarioError: custom die, face 2: at most 2 block on a face (rulebook limit), got 3
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
