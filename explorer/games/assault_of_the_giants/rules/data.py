"""Rule facts and editable example data for Assault of the Giants, each with its provenance.

Rule facts cite the rulebook page they come from.
The die faces and unit statistics were not in the rulebook text available to us
(see ``shared/rules/assault-of-the-giants.md``): they ship as *examples*, marked so,
for the user to check against their own box and edit.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Literal, Mapping, get_args

from explorer.games.assault_of_the_giants.rules.model import CardKind, CombatDie, Symbols, Unit
from explorer.scenario.sourced import EXAMPLE, Sourced, rulebook

__all__ = [
    "FACE_LIMITS", "FACES_PER_DIE", "BOX_DICE", "NPC_MODIFIERS", "CASTE_ORDER", "RaceName",
    "NPC_RACES_BY_PLAYERS", "DEFAULT_DICE", "UNIT_PRESETS", "COMMAND_CARDS", "MAX_DICE_PER_SIDE", "KNOWN_CARDS",
    "STACKING_LIMITS", "GIANTSLAYER_FIGURES", "GIANTSLAYER_ACTIONS",
]

# --- rule facts -------------------------------------------------------------------

FACE_LIMITS: Mapping[str, Sourced[int]] = MappingProxyType({
    "hit": Sourced(4, rulebook(16, "up to 4 hits on a face")),
    "block": Sourced(2, rulebook(16, "up to 2 blocks on a face")),
    "arcane": Sourced(2, rulebook(16, "up to 2 arcane on a face")),
})
"""Most symbols of each kind a single face may show."""

FACES_PER_DIE = 6
"""Every combat die is a six-sided die (scenario format v1)."""

BOX_DICE = Sourced({"basic": 6, "special": 1}, "review (bonusstage.co.uk): 6 basic dice, 1 special die per race")
"""Dice in the box, for reference: scenarios may roll more for what-ifs (up to `MAX_DICE_PER_SIDE`)."""

MAX_DICE_PER_SIDE = 60
"""Largest pool the exact resolver accepts on one side (a computing limit, not a rule).

Within it, a request the exact engine estimates too costly (many kinds of dice with many rerolls
and arcane-only faces) is refused with a message naming ``pool`` or ``rerolls``."""

NPC_MODIFIERS = Sourced({"rerolls": 2, "arcane_to_blocks": 2}, rulebook(20))
"""NPC giants may reroll up to 2 dice and convert up to 2 arcane into 1 block each."""

STACKING_LIMITS: Mapping[str, Sourced[int]] = MappingProxyType({
    "storm": Sourced(3, rulebook(9, "storm giants: no more than 3 units in one region")),
})
"""Most units of a race in one region (space), for the races whose limit the pages we have give.

Every unit counts, champions and leaders included: p.9's setup gives the storm giants 1 elite unit
instead of 2 regular ones because of the limit, beside their champion, which only adds up to 3 if
the champion counts. NPC storm giants keep the limit; King Hekaton, a unit when he enters, counts
too (both inferred). The other races' limits are not in our pages: no limit is checked for them.

>>> STACKING_LIMITS["storm"].value
3
"""

GIANTSLAYER_FIGURES = Sourced(3, "reviews (bonusstage.co.uk, wolfsgamingblog.com): 3 giantslayer figures")
"""Giantslayers in the box: at most 3 on the board, or in one attack."""

GIANTSLAYER_ACTIONS: Mapping[str, Sourced[int]] = MappingProxyType({
    "recruit": Sourced(2, rulebook(18, "Recruit: 2 actions, into a Small Folk Region")),
    "move": Sourced(1, rulebook(18, "Move: 1 action per region")),
    "attack": Sourced(1, rulebook(18, "Attack: 1 action per attacking giantslayer, once per Rest")),
})
"""Giantslayer Actions and what each costs; the Rest Command gives one action per Command Card
to its left, spent in the order Recruit, Move, Attack (p.18).

>>> sum(a.value for a in GIANTSLAYER_ACTIONS.values())
4
"""

COMMAND_CARDS: tuple[str, ...] = ("Leader", "Magic", "Attack", "Move", "Recruit", "Plunder", "Trade", "Rest")
"""Command Cards named in the pages we have (pp.10-18); a row may hold any names."""

KNOWN_CARDS: Mapping[str, Sourced[tuple[CardKind, tuple[str, ...]]]] = MappingProxyType({
    "Ore": Sourced(("resource", ("attacker",)), rulebook(17, "as per its text, Ore can only be used by the attacker")),
    "Weaponry": Sourced(("resource", ("attacker", "defender")),
                        rulebook(17, "Weaponry can be used by both the attacker and the defender")),
})
"""Cards the pages we have name for battle: name -> (kind, the sides that may play it).

Their effects are not in those pages: the user enters them from the card (`cards`)."""

RaceName = Literal["hill", "stone", "frost", "fire", "cloud", "storm"]
"""A giant race (scenario keys ``race``, a table's ``players``, ``npc``, ``home`` ...), bottom of the ordning first."""
CASTE_ORDER: tuple[RaceName, ...] = get_args(RaceName)
"""The races from the bottom of the ordning to the top (review spacebiff.com; rulebook p.9)."""

NPC_RACES_BY_PLAYERS: Mapping[int, Sourced[tuple[str, ...]]] = MappingProxyType({
    3: Sourced(("stone", "cloud", "storm"), "rules summary (papskubber.dk)"),
    4: Sourced(("fire", "frost"), "rules summary (papskubber.dk)"),
    5: Sourced(("hill",), "rules summary (papskubber.dk)"),
    6: Sourced((), "rules summary (papskubber.dk)"),
})
"""Which races are NPC giants for a given number of players."""

# --- example data (not from the rulebook) ------------------------------------------

_H, _B, _A = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def _faces(*faces: Symbols) -> tuple[Symbols, ...]:
    assert len(faces) == FACES_PER_DIE
    return faces


DEFAULT_DICE: Mapping[str, CombatDie] = MappingProxyType({
    # The spec's example die (shared/specs/scenario-v1.md): 1 hit, 2 hits, block, arcane, blank, hit+block.
    "basic": CombatDie("basic", _faces(_H, (2, 0, 0), _B, _A, (0, 0, 0), (1, 1, 0)), EXAMPLE),
    "hill": CombatDie("hill", _faces((2, 0, 0), _H, _B, _A, (1, 0, 1), (0, 0, 0)), EXAMPLE),
    "stone": CombatDie("stone", _faces((2, 0, 0), (0, 2, 0), _B, _A, (1, 1, 0), (0, 0, 0)), EXAMPLE),
    "frost": CombatDie("frost", _faces((2, 0, 0), _H, (0, 2, 0), (0, 0, 2), (1, 1, 0), (0, 0, 0)), EXAMPLE),
    "fire": CombatDie("fire", _faces((3, 0, 0), (2, 0, 0), _B, _A, (1, 0, 1), (0, 0, 0)), EXAMPLE),
    "cloud": CombatDie("cloud", _faces((2, 0, 0), _H, _B, (0, 0, 2), (1, 0, 1), (0, 1, 1)), EXAMPLE),
    "storm": CombatDie("storm", _faces((4, 0, 0), (2, 0, 0), (0, 2, 0), _A, (1, 1, 0), (0, 0, 0)), EXAMPLE),
})
"""Named default dice: the basic die and one special die per race (all faces are examples)."""

_INFERRED_HILL = rulebook(17, "inferred from the worked example: hill giants absorb 2, then 3")

UNIT_PRESETS: Mapping[str, tuple[tuple[Unit, Mapping[str, str]], ...]] = MappingProxyType({
    race: tuple(
        (Unit(kind if kind == race else f"{race} {kind}", fortitude, wounded, ordning_value, champion=champion),
         MappingProxyType(sources))
        for kind, fortitude, wounded, ordning_value, champion, sources in rows
    )
    for race, rows in {
        "hill": (
            ("giant", 2, 1, 1, False, {"fortitude": _INFERRED_HILL}),
            ("elite", 3, 2, 2, False, {"fortitude": _INFERRED_HILL}),
            ("champion", 4, 4, 3, True, {}),
        ),
        "stone": (("giant", 3, 2, 1, False, {}), ("elite", 4, 2, 2, False, {}), ("champion", 5, 5, 3, True, {})),
        "frost": (("giant", 3, 2, 2, False, {}), ("elite", 4, 3, 2, False, {}), ("champion", 5, 5, 3, True, {})),
        "fire": (("giant", 3, 2, 2, False, {}), ("elite", 4, 3, 3, False, {}), ("champion", 5, 5, 4, True, {})),
        "cloud": (("giant", 3, 2, 2, False, {}), ("elite", 5, 3, 3, False, {}), ("champion", 6, 6, 4, True, {})),
        "storm": (("giant", 4, 2, 3, False, {}), ("elite", 5, 3, 4, False, {}), ("champion", 6, 6, 5, True, {})),
        "giantslayer": (("giantslayer", 2, 1, 0, False, {}),),
    }.items()
})
"""Example units per race: (unit, provenance per field; a field not listed is an example)."""


def unit_source(race: str, index: int, field: str) -> str:
    """Provenance of one field of a preset unit.

    >>> unit_source("hill", 0, "fortitude").startswith("rulebook p.17")
    True
    >>> unit_source("storm", 0, "fortitude")
    'example, not from the rulebook'
    """
    return UNIT_PRESETS[race][index][1].get(field, EXAMPLE)
