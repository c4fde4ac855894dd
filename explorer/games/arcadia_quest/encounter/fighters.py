"""Heroes, Attack cards and Monsters as frozen values, and what one attack between two of them rolls.

An attack is two rolls (INF-RB p.16): the attacker's black dice and the target's white dice, each
with its owner's full reroll pool (INF-RB Reroll Pool). The abilities of `data.ABILITIES` change
those rolls: `attack_roll` and `defence_roll` read them, `strike` gives the exact wounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.chains import chain_successes
from explorer.games.arcadia_quest.attack.model import (
    ATTACK_DIE,
    DEFENCE_DIE,
    KINDS,
    MAX_DICE,
    MAX_REROLLS,
    MAX_TARGET,
    AttackFace,
    AttackKind,
    DefenceFace,
    Trial,
)
from explorer.games.arcadia_quest.data import ABILITY_NAMES, CARD_GROUPS, AbilityName, CardGroup
from explorer.scenario.fields import check_option, check_whole

__all__ = [
    "MAX_LIFE", "MAX_REWARD", "AttackCard", "Hero", "Monster", "Roll", "attack_roll", "check_abilities",
    "defence_roll", "strike",
]

MAX_LIFE = 30
"""Largest Life accepted (a computing limit; the cards found go up to 7)."""
MAX_REWARD = 20
"""Largest coin Reward accepted (the cards found give 1 to 3)."""


def check_abilities(names: Iterable[object], path: str) -> tuple[AbilityName, ...]:
    """Check ability names against `data.ABILITY_NAMES` (order kept, repeats dropped).

    >>> check_abilities(["extra-die-while-wounded"], "hero.abilities")
    ('extra-die-while-wounded',)
    """
    out: list[AbilityName] = []
    for i, name in enumerate(names):
        ability = check_option(name, ABILITY_NAMES, f"{path}[{i}]")
        if ability not in out:
            out.append(ability)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Hero:
    """A Hero: Defense dice, Life, Wounds already taken, reroll pool, abilities and conditions.

    >>> Hero("Grom", defence=1, life=5, wounds=1).life_left
    4
    """

    name: str
    defence: int
    life: int
    wounds: int = 0
    rerolls: int = 0
    abilities: tuple[AbilityName, ...] = ()
    dazed: bool = False
    flanked: bool = False
    source: str = field(default="", compare=False)
    at: str = field(default="hero", repr=False, compare=False)

    def __post_init__(self) -> None:
        check_whole(self.defence, f"{self.at}.defence", maximum=MAX_DICE)
        check_whole(self.life, f"{self.at}.life", minimum=1, maximum=MAX_LIFE)
        check_whole(self.wounds, f"{self.at}.wounds", maximum=self.life - 1)
        check_whole(self.rerolls, f"{self.at}.rerolls", maximum=MAX_REROLLS)
        check_abilities(self.abilities, f"{self.at}.abilities")

    @property
    def life_left(self) -> int:
        """Wounds that kill him now."""
        return self.life - self.wounds


@dataclass(frozen=True, slots=True)
class AttackCard:
    """The Attack card used: black dice, melee or ranged, group, and Defense dice it adds to its owner.

    >>> AttackCard("Parrying Dagger", 2, "melee", "sword", defence_bonus=1).defence_bonus
    1
    """

    name: str
    dice: int
    kind: AttackKind
    group: CardGroup = "other"
    defence_bonus: int = 0
    source: str = field(default="", compare=False)
    at: str = field(default="attack", repr=False, compare=False)

    def __post_init__(self) -> None:
        check_whole(self.dice, f"{self.at}.dice", maximum=MAX_DICE)
        check_option(self.kind, KINDS, f"{self.at}.kind")
        check_option(self.group, CARD_GROUPS, f"{self.at}.group")
        check_whole(self.defence_bonus, f"{self.at}.defence_bonus", maximum=MAX_DICE)


@dataclass(frozen=True, slots=True)
class Monster:
    """A Monster card (AQ-RB printed p.21) and its state: Wounds already on it, Daze, flanked.

    Raises:
        ScenarioError: an Overkill below Life (an overkill is a kill), naming ``<at>.overkill``.

    >>> Monster("Orc", attack=3, kind="melee", life=2, overkill=3, reward=1).life_left
    2
    >>> Monster("Orc", attack=3, kind="melee", life=2, overkill=1)
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: target.overkill: must be >= target.life (2): an overkill is a kill, got 1
    """

    name: str
    attack: int
    kind: AttackKind
    life: int
    defence: int = 0
    overkill: int | None = None
    reward: int = 0
    rerolls: int = 0
    villain: bool = False
    abilities: tuple[AbilityName, ...] = ()
    wounds: int = 0
    dazed: bool = False
    flanked: bool = False
    movement: int | None = None
    source: str = field(default="", compare=False)
    at: str = field(default="target", repr=False, compare=False)

    def __post_init__(self) -> None:
        check_whole(self.attack, f"{self.at}.attack.dice", maximum=MAX_DICE)
        check_option(self.kind, KINDS, f"{self.at}.attack.kind")
        check_whole(self.life, f"{self.at}.life", minimum=1, maximum=MAX_LIFE)
        check_whole(self.defence, f"{self.at}.defence", maximum=MAX_DICE)
        if self.overkill is not None:
            check_whole(self.overkill, f"{self.at}.overkill", minimum=1, maximum=MAX_TARGET)
            if self.overkill < self.life:
                raise ScenarioError(f"{self.at}.overkill", f"must be >= {self.at}.life ({self.life}): an overkill "
                                                           f"is a kill, got {self.overkill}")
        check_whole(self.reward, f"{self.at}.reward", maximum=MAX_REWARD)
        check_whole(self.rerolls, f"{self.at}.rerolls", maximum=MAX_REROLLS)
        check_whole(self.wounds, f"{self.at}.wounds", maximum=self.life - 1)
        check_abilities(self.abilities, f"{self.at}.abilities")
        if self.movement is not None:
            check_whole(self.movement, f"{self.at}.movement", maximum=MAX_DICE)

    @property
    def life_left(self) -> int:
        """Wounds that kill it now: Life minus the Wounds already on it."""
        return self.life - self.wounds

    def overkilled_by(self, wounds: int) -> bool:
        """True if one attack's `wounds` reach its Overkill rating (wounds already on it do not count, p.21)."""
        return self.overkill is not None and wounds >= self.overkill


@dataclass(frozen=True, slots=True)
class Roll:
    """What one roll needs: dice, reroll pool, the die's weights, and hits per CRIT (hashable, cached).

    >>> Roll(2, 0, Trial(2, 3, 1)).successes().probability(0)
    Fraction(1, 9)
    """

    dice: int
    rerolls: int
    trial: Trial
    crit_worth: int = 1

    def successes(self, cut_below: float = 1e-13) -> Dist[int]:
        """Exact successes of the roll (`chains.chain_successes`), CRIT chains cut below `cut_below`."""
        return chain_successes(self.dice, self.rerolls if self.dice else 0, self.trial, self.crit_worth, cut_below)


@lru_cache(maxsize=64)
def _trial(faces: tuple[str, ...], succeeds_on: str) -> Trial:
    return Trial.of(faces, succeeds_on)


def attack_roll(dice: int, kind: AttackKind, rerolls: int, abilities: tuple[AbilityName, ...], *, wounded: bool,
                target_flanked: bool, attack_die: tuple[AttackFace, ...] = ATTACK_DIE.value) -> Roll:
    """The attacker's roll, abilities applied.

    "extra-die-while-wounded" (+1 die if `wounded`), "extra-die-vs-flanked" (+1 die if the target is
    flanked), "extra-hit-per-crit" (a CRIT counts 2 hits).

    >>> attack_roll(3, "melee", 1, ("extra-die-while-wounded", "extra-hit-per-crit"), wounded=True,
    ...             target_flanked=False)
    Roll(dice=4, rerolls=1, trial=Trial(fail=2, plain=3, crit=1), crit_worth=2)
    """
    extra = ("extra-die-while-wounded" in abilities and wounded) + ("extra-die-vs-flanked" in abilities and target_flanked)
    worth = 2 if "extra-hit-per-crit" in abilities else 1
    return Roll(dice + extra, rerolls, _trial(attack_die, kind), worth)


def defence_roll(dice: int, rerolls: int, abilities: tuple[AbilityName, ...], *, wounded: bool, dazed: bool,
                 attacker_abilities: tuple[AbilityName, ...], defence_die: tuple[DefenceFace, ...] = DEFENCE_DIE.value) -> Roll:
    """The target's roll: none when Dazed or against "ignore-defence"; +1 die for a wounded "extra-die-while-wounded".

    >>> defence_roll(2, 1, (), wounded=False, dazed=True, attacker_abilities=()).dice
    0
    """
    trial = _trial(defence_die, "shield")
    if dazed or "ignore-defence" in attacker_abilities:
        return Roll(0, 0, trial)
    extra = "extra-die-while-wounded" in abilities and wounded
    return Roll(dice + extra, rerolls, trial)


@lru_cache(maxsize=4096)
def strike(attack: Roll, defence: Roll, cut_below: float) -> Dist[int]:
    """Exact wounds of one attack: max(0, hits - saves) (INF-RB p.18); each roll cut below `cut_below`.

    >>> melee = Trial(2, 3, 1)
    >>> strike(Roll(1, 0, melee), Roll(0, 0, Trial(4, 1, 1)), 1e-13).probability(0)
    Fraction(1, 3)
    """
    hits = attack.successes(cut_below)
    saves = defence.successes(cut_below)
    return hits.combine(saves, lambda h, s: max(0, h - s))
