"""The names a panel shows for a scenario's fields: messages beside inputs use the label on screen.

The scenario format, the command line and the API name a bad input by its field path
(``attacker.units[0].fortitude``); a panel shows the words its user sees beside the box instead
("Attacker, unit 1, Fortitude"). A game panel gives the labels of its inputs as a table of
patterns (`FieldNames`); a path no pattern covers is still written in words, never as a path.

>>> names = FieldNames({"*.pool.basic": "{side}, basic dice", "*.units[*].fortitude": "{side}, unit {n}, Fortitude"})
>>> names.label("attacker.pool.basic")
'Attacker, basic dice'
>>> names.label("defender.units[2].fortitude")
'Defender, unit 3, Fortitude'
>>> names.label("attacker.cards[0].kind")
'Attacker, card 1, kind'
>>> FieldNames({"*.units[*].fortitude": "{side}, unit {n}, Fortitude", "defender.units[0].fortitude": "the boss"}
...            ).label("defender.units[0].fortitude")
'the boss'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from explorer.core.errors import ScenarioError

__all__ = ["FieldNames", "numbered", "plain"]

_INDEX = re.compile(r"\[(\d+)\]")
_SINGULAR = {"item": "item", "units": "unit", "cards": "card", "characters": "character", "challenges": "challenge",
             "heroes": "hero", "monsters": "monster", "also_targets": "other target", "commands": "command",
             "faces": "face", "abilities": "ability", "rows": "row", "battles": "battle"}


def _words(part: str) -> str:
    """One path part in words: ``units[0]`` is "unit 1", ``max_rounds`` is "max rounds"."""
    match = _INDEX.search(part)
    if match is None:
        return part.replace("_", " ")
    name = part[:match.start()]
    return f"{_SINGULAR.get(name, name.replace('_', ' '))} {int(match.group(1)) + 1}"


def numbered(names: Iterable[str]) -> list[str]:
    """What each row of a list is called on screen: its name, numbered 1, 2, ... when names repeat.

    >>> numbered(["Orc Marauder", "Goblin Archer", "Orc Marauder"])
    ['Orc Marauder 1', 'Goblin Archer', 'Orc Marauder 2']
    """
    names = list(names)
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(f"{name} {seen[name]}" if names.count(name) > 1 else name)
    return labels


def plain(field: str) -> str:
    """A field path in words, for a path no label covers.

    >>> plain("attacker.units[0].wounded_fortitude"), plain("challenges[1].defenders"), plain("")
    ('Attacker, unit 1, wounded fortitude', 'Challenge 2, defenders', '')
    """
    if not field:
        return ""
    text = ", ".join(_words(part) for part in field.split("."))
    return text[:1].upper() + text[1:]


class FieldNames:
    """Labels for field paths, by pattern: ``*`` in a pattern is one path part or one index.

    A label may use ``{side}`` (the first part, capitalised, for "attacker.x"), ``{n}`` (the first
    index, counted from 1) and ``{m}`` (the second). The label covering most of the path wins (then
    an exact path over a pattern, then the longer pattern); a path under a labelled one ("x.y.z"
    under "x.y") takes that label and the rest in words.
    """

    def __init__(self, labels: Mapping[str, str]) -> None:
        self._labels = dict(labels)
        self._patterns = [(self._compile(p), label) for p, label in labels.items()]
        self._exact = ["*" not in p for p in labels]

    @staticmethod
    def _compile(pattern: str) -> re.Pattern[str]:
        parts = [re.escape(piece) for piece in pattern.split("*")]
        return re.compile(r"(?:[^.\[\]]+|\d+)".join(parts))

    def label(self, field: str) -> str:
        """What the user sees for `field` (in words when no label covers it).

        The label covering most of the path wins; of two covering as much, an exact path beats a
        pattern, and a longer pattern a shorter one.
        """
        best: tuple[tuple[int, bool, int], re.Match[str], str] | None = None
        for exact, (regex, label) in zip(self._exact, self._patterns):
            match = regex.match(field)
            if match is None or (match.end() < len(field) and field[match.end()] not in ".["):
                continue
            rank = (match.end(), exact, len(regex.pattern))
            if best is None or rank > best[0]:
                best = (rank, match, label)
        if best is None:
            return plain(field)
        _, match, label = best
        first = field.split(".", 1)[0].split("[", 1)[0]
        indexes = [int(i) + 1 for i in _INDEX.findall(field[:match.end()])] + [0, 0]
        text = label.format(side=first[:1].upper() + first[1:], n=indexes[0], m=indexes[1])
        rest = field[match.end():].lstrip(".")
        if not rest:
            return text
        words = plain(rest) if not rest.startswith("[") else plain("item" + rest)
        return f"{text}, {words[:1].lower() + words[1:]}"

    def message(self, error: ScenarioError) -> str:
        """The message shown beside the input: its label, then the problem.

        >>> FieldNames({"deck": "deck size"}).message(ScenarioError("deck", "must be 0 to 100"))
        'deck size: must be 0 to 100'
        """
        label = self.label(error.field)
        return f"{label}: {error.problem}" if label else error.problem
