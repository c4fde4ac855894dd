"""The labels on screen of the Arcadia Quest panel's inputs, by the scenario field each one writes.

A message beside an input names what the user sees ("Hero, Life: must be a whole number >= 1"),
not the field path the command line prints (``hero.life``). The hero, his card and the target
are labelled by their sections' titles; the rows of Close Monsters and other targets by their
Monsters' names as the rows show them (numbered when two share one), so the table is built from
the rows shown now (`screen_labels`); `FIELD_NAMES` is the one before any row is named.
"""

from __future__ import annotations

from collections.abc import Sequence

from explorer.panels.arcadia_quest.editor import Editor, field_labels
from explorer.panels.arcadia_quest.hero import CARD, HERO
from explorer.panels.arcadia_quest.monsters import CLOSE, TARGET
from explorer.panels.arcadia_quest.targets import ALSO
from explorer.panels.common.field_names import FieldNames

__all__ = ["FIELD_NAMES", "screen_labels"]

_GAME = {"guilds": "Guilds in the game", "opponent_attacks": "the opponent attacks with the Monsters",
         "payback_by": "Payback by", "close_monsters": "Monsters Close to the hero",
         "also_targets": "Other Monsters this attack targets", "question": "the question asked"}
"""The panel's other inputs and lists, by scenario key."""


def _sections() -> dict[str, str]:
    labels = dict(_GAME)
    for spec, prefix, title in ((HERO, "hero", "Hero"), (CARD, "attack", "Attack card"), (TARGET, "target", "Target Monster")):
        labels.update(field_labels(spec, prefix, title))
    return labels


def screen_labels(close: Sequence[Editor], also: Sequence[Editor]) -> FieldNames:
    """The labels of every input on screen now, the rows named as they show their Monsters.

    >>> from explorer.panels.arcadia_quest.monsters import CloseMonsters
    >>> monsters = CloseMonsters(lambda: None); monsters.add_preset("Troll", notify=False)
    >>> screen_labels(monsters.rows, []).label("close_monsters[0].attack.dice")
    'Close Monster Troll, dice'
    """
    labels = _sections()
    for rows, key, spec, who in ((close, "close_monsters", CLOSE, "Close Monster"), (also, "also_targets", ALSO,
                                                                                     "Other target")):
        for i, row in enumerate(rows):
            labels.update(field_labels(spec, f"{key}[{i}]", f"{who} {row.who or row.name}"))
    return FieldNames(labels)


FIELD_NAMES = FieldNames(_sections())
"""The labels of the hero's, his card's, the target's and the game's inputs (the rows are named once it resolves)."""
