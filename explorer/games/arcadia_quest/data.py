"""Arcadia Quest presets: heroes, starter Attack cards, level-1 monsters and the abilities modelled.

Every number here is fan-collected data (``shared/rules/arcadia-quest.md`` §3.4, §4.1, §4.2), not
read on the cards: each preset carries its provenance (`explorer.scenario.sourced.Sourced`, ``is_example``
is true) so that reports and panels say what to check against one's own box. Every value can be
overridden in a scenario (``hero.defence``, ``target.life``, ...).

Rule facts cited: a Hero's cards with Defense icons add to his Defense pool whether exhausted or
not (INF-RB p.16, step 5); monster anatomy, Overkill and Reward (AQ-RB printed p.21, libble p.11);
Daze and flanking (INF-RB Reroll Pool / Daze / Flanking section, FAQ v1.0).

>>> HEROES["Grom"].value.life, HEROES["Grom"].is_example
(5, True)
>>> MONSTERS["Orc Marauder"].value.overkill
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from explorer.games.arcadia_quest.attack.model import AttackKind
from explorer.scenario.sourced import Sourced

__all__ = [
    "ABILITIES", "ABILITY_NAMES", "ATTACK_CARDS", "CARD_GROUPS", "HEROES", "MONSTERS", "Ability", "AbilityName",
    "CardGroup", "CardStats", "HeroStats", "MonsterStats",
]

CardGroup = Literal["sword", "bow", "magic", "lance", "other"]
"""Attack card groups some abilities depend on (AQ-RB p.14 card anatomy: "Type and Group"; scenario key ``group``)."""
CARD_GROUPS: tuple[CardGroup, ...] = get_args(CardGroup)
"""The values of `CardGroup`."""

AbilityName = Literal["extra-die-while-wounded", "extra-hit-per-crit", "ignore-defence", "extra-die-vs-flanked",
                      "daze-on-wound"]
"""The abilities modelled (scenario key ``abilities``), each described in `ABILITIES`."""
ABILITY_NAMES: tuple[AbilityName, ...] = get_args(AbilityName)
"""The values of `AbilityName`, in the order of `ABILITIES`.

>>> ABILITY_NAMES == tuple(ABILITIES)
True
"""


@dataclass(frozen=True, slots=True)
class Ability:
    """A named option that changes the dice maths, in the project's words, with where it comes from."""

    effect: str
    """What it does to a roll."""
    source: str
    """The cards that have it and where the text was read."""


ABILITIES: dict[AbilityName, Ability] = {
    "extra-die-while-wounded": Ability(
        "+1 die in every roll of its owner (attack and defence) while the owner has at least one Wound",
        "Grom's Berserk, 'Roll +1 die in all rolls while wounded' (fan list EmeraldieMoon/arcadiaquest "
        "list.html; rules notes §4.1)"),
    "extra-hit-per-crit": Ability(
        "each CRIT in its owner's attack roll counts one more hit",
        "Greensleeves' Bow Mastery, with a Bow card (fan list, rules notes §4.1); the Minotaur "
        "(fan data, §3.4)"),
    "ignore-defence": Ability(
        "the target of its owner's attack rolls no Defense dice",
        "Seth's Piercing Magic, with a Magic card (fan list, rules notes §4.1); a Dazed target rolls "
        "none either (Inferno rulebook, Daze, §2.5)"),
    "extra-die-vs-flanked": Ability(
        "+1 attack die when the target is flanked (some other Enemy of the target is Close to it)",
        "Scarlet's Backstab (fan list, rules notes §4.1); flanked as the Inferno rulebook and the FAQ define it (§2.5)"),
    "daze-on-wound": Ability(
        "if its owner's attack deals a Wound, the target is Dazed: it rolls no Defense dice from then on",
        "Hammer Beastman (fan data, rules notes §3.4); Daze per the Inferno rulebook (§2.5)"),
}
"""The simple abilities that change the maths, by scenario name."""

_FAN = "fan-collected, inferred"
_HERO_SOURCE = (f"{_FAN}: EmeraldieMoon/arcadiaquest list.html and RobersonValle/Projeto_ArcadiaQuest "
                "herois.json agree (rules notes §4.1); check against your Hero card")
_CARD_SOURCE = (f"{_FAN}: JhonatanRocha/AQHelper items.json and RobersonValle/Projeto_ArcadiaQuest "
                "equipamentos.json agree (rules notes §4.2); check against your card")
_INFERNO_CARD_SOURCE = (f"{_FAN}: ldsz89/arcadia-quest-companion equipment.json (Inferno starter; "
                        "rules notes §4.2); check against your card")
_MONSTER_SOURCE = (f"{_FAN}: RobersonValle/Projeto_ArcadiaQuest monstros.json, level 1 (rules notes §3.4); "
                   "check against your Monster card")


@dataclass(frozen=True, slots=True)
class HeroStats:
    """A Hero card: Defense dice, Life, and the modelled abilities as (name, card group it needs or "")."""

    defence: int
    life: int
    abilities: tuple[tuple[AbilityName, CardGroup | Literal[""]], ...] = ()
    note: str = ""


def _hero(defence: int, life: int, abilities: tuple[tuple[AbilityName, CardGroup | Literal[""]], ...] = (),
          note: str = "") -> Sourced[HeroStats]:
    return Sourced(HeroStats(defence, life, abilities, note), _HERO_SOURCE)


HEROES: dict[str, Sourced[HeroStats]] = {
    "Diva": _hero(4, 4, note="Tough as Nails: no effect on the dice"),
    "Greensleeves": _hero(2, 4, (("extra-hit-per-crit", "bow"),), "Bow Mastery: with a Bow card only"),
    "Grom": _hero(1, 5, (("extra-die-while-wounded", ""),), "Berserk"),
    "Hobsbawm": _hero(2, 4, note="Blessing: not modelled (activates another Hero)"),
    "Jøhan": _hero(3, 3, note="Blade Throw: not modelled (Sword cards as Ranged)"),
    "Kanga": _hero(2, 4, note="Self-Sacrifice: not modelled"),
    "Maya": _hero(1, 5, note="Mana Mastery: not modelled"),
    "Scarlet": _hero(3, 3, (("extra-die-vs-flanked", ""),), "Backstab"),
    "Seth": _hero(2, 3, (("ignore-defence", "magic"),), "Piercing Magic: with a Magic card only"),
    "Spike": _hero(2, 3, note="Vengeance: not modelled (defence CRITs wound the attacker)"),
    "Wisp": _hero(2, 3, note="Stealth: no effect here (moving is not modelled)"),
    "Zazu": _hero(2, 4, note="Opportunist: no effect on the dice"),
}
"""Base-game Heroes (rules notes §4.1; Greensleeves' Life 3 in a third, placeholder-ridden source is not used)."""


@dataclass(frozen=True, slots=True)
class CardStats:
    """A starter Attack card: dice, melee or ranged, group, Defense dice it adds, effects not modelled."""

    dice: int
    kind: AttackKind
    group: CardGroup
    defence_bonus: int = 0
    note: str = ""


ATTACK_CARDS: dict[str, Sourced[CardStats]] = {
    "Rusty Sword": Sourced(CardStats(3, "melee", "sword"), _CARD_SOURCE),
    "Parrying Dagger": Sourced(CardStats(2, "melee", "sword", 1, "+1 Defense die (Inferno rulebook p.16: always in the pool)"),
                               _CARD_SOURCE),
    "Slingshot": Sourced(CardStats(2, "ranged", "bow"), _CARD_SOURCE),
    "Nova Bolt": Sourced(CardStats(2, "ranged", "magic", 0, "a CRIT may add a second target (Arcadia Quest rulebook "
                                   "p.10): not by itself; add that Monster as another target of the attack"),
                         _CARD_SOURCE),
    "Life Drain": Sourced(CardStats(2, "ranged", "magic", 0, "heals 1 Wound per hit: not modelled"), _CARD_SOURCE),
    "Dusty Blade": Sourced(CardStats(3, "melee", "sword", 0, "an Inferno starter (its rulebook p.18: 3 Attack dice)"),
                           _INFERNO_CARD_SOURCE),
    "Vile Trident": Sourced(CardStats(2, "melee", "lance", 0, "Inferno"), _INFERNO_CARD_SOURCE),
    "Short Bow": Sourced(CardStats(2, "ranged", "bow", 0, "an Inferno starter (its rulebook p.18: 2 Attack dice)"), _INFERNO_CARD_SOURCE),
    "Grimbolt": Sourced(CardStats(2, "ranged", "magic", 0, "Inferno"), _INFERNO_CARD_SOURCE),
    "Lifebound": Sourced(CardStats(2, "ranged", "magic", 0, "Inferno"), _INFERNO_CARD_SOURCE),
}
"""Starter Attack cards, base game then Inferno (rules notes §4.2)."""


@dataclass(frozen=True, slots=True)
class MonsterStats:
    """A Monster card (AQ-RB printed p.21 anatomy); `overkill` None: no Overkill rating."""

    attack: int
    kind: AttackKind
    defence: int
    life: int
    overkill: int | None
    reward: int
    movement: int
    villain: bool = False
    rerolls: int = 0
    abilities: tuple[AbilityName, ...] = ()
    note: str = ""


def _monster(*stats: object, **options: object) -> Sourced[MonsterStats]:
    return Sourced(MonsterStats(*stats, **options), _MONSTER_SOURCE)  # type: ignore[arg-type]


MONSTERS: dict[str, Sourced[MonsterStats]] = {
    "Orc Marauder": _monster(3, "melee", 0, 2, 3, 1, 1),
    "Orc Captain": _monster(3, "melee", 0, 2, 4, 2, 1, rerolls=1, note="1 reroll"),
    "Goblin Archer": _monster(2, "ranged", 0, 1, 2, 1, 1),
    "Hammer Beastman": _monster(4, "melee", 0, 3, 5, 2, 1, abilities=("daze-on-wound",)),
    "Beastman Spearman": _monster(3, "ranged", 0, 3, 5, 2, 1, note="+1 die if Close to any Monster: not "
                                  "modelled, add the die to its attack dice"),
    "Sister of Pain": _monster(3, "melee", 0, 3, 5, 2, 1, note="each CRIT exhausts an Attack card: no effect here"),
    "Sister of Pleasure": _monster(3, "ranged", 0, 3, 5, 2, 1, note="each CRIT heals 2 of its Wounds: not modelled"),
    "Minotaur": _monster(4, "melee", 1, 5, 6, 3, 2, villain=True, abilities=("extra-hit-per-crit",)),
    "Troll": _monster(4, "melee", 2, 4, 6, 3, 2, villain=True, note="targets all Close Heroes: one Hero here"),
    "Lord Fang": Sourced(MonsterStats(4, "ranged", 0, 5, None, 3, 1, villain=True,
                                      note="may also target Enemies Close to the target: not modelled"),
                         _MONSTER_SOURCE.replace("(rules notes §3.4)", "(rules notes §3.4), except Overkill: "
                                                 "the fan table's 7 conflicts with a forum answer that Lord Fang "
                                                 "has none and always pays back (§3.2); none is used")),
    "Schmetterling": Sourced(MonsterStats(4, "melee", 3, 5, 7, 3, 2, villain=True, rerolls=2,
                                          note="targets all Close Heroes: one Hero here"),
                             "Arcadia Quest rulebook p.12 worked example (Defense 3, 2 Rerolls, Overkill 7, Movement 2); Life 5, "
                             "4 attack dice and Reward 3 are inferred from the fan Troll (§3.4): check your card"),
}
"""Level-1 Monsters of the base game (rules notes §3.4) and the rulebook's Troll example."""
