"""Arcadia Quest dice, the three inputs of one attack, and the exact roll (rulings: see the package).

A roll is a stream of independent die rolls ("trials"): a failure, a plain success or a CRIT.
A CRIT adds a die; a failure is rerolled while reroll points are left; anything else ends a die.
The roll ends when no die is left to roll. `roll_successes` follows every branch exactly, with
integer weights, and cuts the branches still open once their total mass is below 1e-12.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, TypeVar, get_args

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.scenario.fields import check_option, check_whole, describe
from explorer.scenario.sourced import Sourced

__all__ = [
    "ATTACK_DIE", "ATTACK_FACES", "CUT_BELOW", "DEFENCE_DIE", "DEFENCE_FACES", "KINDS", "MAX_DICE", "MAX_REROLLS",
    "MAX_TARGET", "OVERKILL_BELOW_LIFE", "Attack", "AttackFace", "AttackKind", "AttackResult", "AttackScenario", "Defence", "DefenceFace",
    "OverkillBelowLife", "Target", "Trial", "check_die", "resolve_attack", "roll_successes", "successes",
]

AttackKind = Literal["melee", "ranged"]
"""Attack kinds: which attack face scores a hit (AQ-RB p.9; scenario key ``kind``)."""
KINDS: tuple[AttackKind, ...] = get_args(AttackKind)
"""The values of `AttackKind`."""

AttackFace = Literal[AttackKind, "crit", "blank"]
"""A face of the black Attack die: a melee hit, a ranged hit, a CRIT or a blank (scenario key ``dice.attack``)."""
ATTACK_FACES: tuple[AttackFace, ...] = get_args(AttackFace)
"""The values of `AttackFace`."""

DefenceFace = Literal["shield", "crit", "blank"]
"""A face of the white Defense die (scenario key ``dice.defence``)."""
DEFENCE_FACES: tuple[DefenceFace, ...] = get_args(DefenceFace)
"""The values of `DefenceFace`."""

OverkillBelowLife = Literal["refuse", "as given"]
"""One attack: what an Overkill below the target's Life means (key ``target.overkill_below_life``)."""
OVERKILL_BELOW_LIFE: tuple[OverkillBelowLife, ...] = get_args(OverkillBelowLife)
"""The values of `OverkillBelowLife`: ``"refuse"`` (default) or ``"as given"`` (the reading before issue 21)."""

FACES_PER_DIE = 6
_Face = TypeVar("_Face", AttackFace, DefenceFace)

_FACES_SOURCE = (
    "inferred from two fan implementations that agree (JhonatanRocha/ArcadiaQuestDiceRoller DiceEnum.java, "
    "RobersonValle/Projeto_ArcadiaQuest RolagemDeDados.py); the rulebook prints the icons only"
)
ATTACK_DIE: Sourced[tuple[AttackFace, ...]] = Sourced(("melee", "melee", "melee", "ranged", "ranged", "crit"), _FACES_SOURCE)
"""The black Attack die: 3 melee-hit faces, 2 ranged-hit faces, 1 CRIT, no blank (spec; INFERRED)."""
DEFENCE_DIE: Sourced[tuple[DefenceFace, ...]] = Sourced(("shield", "crit", "blank", "blank", "blank", "blank"), _FACES_SOURCE)
"""The white Defense die: 1 shield, 1 CRIT, 4 blanks (spec; INFERRED)."""

CUT_BELOW = 1e-12
"""Open CRIT chains are cut once their mass is below this (spec): each of an attack's two rolls at
half of it, so that the attack's whole cut (either roll cut) stays below it too."""
MAX_DICE = 30
"""Most dice in one pool (a computing limit; the base box has 8 attack and 6 defence dice)."""
MAX_REROLLS = 20
"""Largest reroll pool (a computing limit, far above any card)."""
MAX_TARGET = 1000
"""Largest Life of the one-attack target, and largest Overkill of any target (only compared with wounds)."""


@dataclass(frozen=True, slots=True)
class Trial:
    """Integer weights of one die roll: a failure, a plain success, a CRIT.

    >>> Trial.of(ATTACK_DIE.value, "melee")
    Trial(fail=2, plain=3, crit=1)
    >>> Trial.of(DEFENCE_DIE.value, "shield").mean_per_die()
    Fraction(2, 5)
    """

    fail: int
    plain: int
    crit: int

    @classmethod
    def of(cls, faces: tuple[str, ...], succeeds_on: str) -> Trial:
        """The trial of a die with `faces` when `succeeds_on` and ``crit`` are successes."""
        crit, plain = faces.count("crit"), faces.count(succeeds_on)
        return cls(len(faces) - crit - plain, plain, crit)

    @property
    def total(self) -> int:
        """Sum of the weights (the number of faces)."""
        return self.fail + self.plain + self.crit

    def mean_per_die(self) -> Fraction:
        """Expected successes of one die and its CRIT chain, without rerolls: p / (1 - P(CRIT))."""
        return Fraction(self.plain + self.crit, self.total - self.crit)


def successes(faces: tuple[str, ...] | list[str], succeeds_on: str) -> int:
    """Successes shown by the faces of a roll, its extra CRIT dice included (a CRIT is one success).

    >>> successes(["shield", "crit", "blank", "blank"], "shield")  # INF-RB p.18, Example 3
    2
    """
    return sum(face in (succeeds_on, "crit") for face in faces)


@lru_cache(maxsize=512)
def roll_successes(dice: int, rerolls: int, trial: Trial, *, cut_below: float = CUT_BELOW,
                   crit_worth: int = 1) -> Dist[int]:
    """Exact distribution of the successes of one roll: CRIT chains, then greedy rerolls of failures.

    State of the search: (dice still to roll, reroll points left, successes so far). Every step rolls
    one die in every open state, so all open states carry the same denominator ``total ** step``;
    the mass still open when it falls below `cut_below` becomes the result's `cut` weight.
    (`explorer.core.dice.explode` follows the chain of one die; the reroll pool is shared by all the dice
    of a roll, so the search carries it, like the cut, in its state.)

    Args:
        dice: dice in the pool (>= 0).
        rerolls: the roller's reroll pool (>= 0), each point rerolls one failed die.
        trial: the weights of one die (fail, plain success, CRIT); CRIT must not be certain.
        cut_below: the open mass under which the chains are cut (> 0).
        crit_worth: successes one CRIT counts (1; 2 with an "each CRIT is one more hit" ability).

    >>> roll_successes(1, 0, Trial(fail=1, plain=1, crit=0)).probabilities()
    {0: Fraction(1, 2), 1: Fraction(1, 2)}
    >>> roll_successes(1, 1, Trial(fail=1, plain=1, crit=0)).probability(0)
    Fraction(1, 4)
    >>> roll_successes(1, 0, Trial(fail=1, plain=0, crit=1), crit_worth=2).probability(2)
    Fraction(1, 4)
    """
    if trial.crit >= trial.total:
        raise ValueError("a die whose every face is a CRIT never stops rolling")
    if dice == 0:
        return Dist.single(0)
    open_: dict[tuple[int, int, int], int] = {(dice, rerolls, 0): 1}
    done: dict[int, int] = {}
    scale, threshold = 1, Fraction(cut_below)
    while open_ and Fraction(sum(open_.values()), scale) >= threshold:
        done = {k: w * trial.total for k, w in done.items()}
        step: dict[tuple[int, int, int], int] = {}
        for (left, points, k), w in open_.items():
            moves: tuple[tuple[int, int, int, int], ...] = ((trial.crit, left, points, k + crit_worth),  # CRIT: a success, and a die replaces it
                     (trial.plain, left - 1, points, k + 1))      # plain success: this die is done
            if points:
                moves += ((trial.fail, left, points - 1, k),)     # failure rerolled: the die rolls again
            else:
                moves += ((trial.fail, left - 1, points, k),)     # failure kept
            for weight, n, r, hits in moves:
                if not weight:
                    continue
                if n:
                    step[n, r, hits] = step.get((n, r, hits), 0) + w * weight
                else:
                    done[hits] = done.get(hits, 0) + w * weight
        open_ = step
        scale *= trial.total
    return Dist(done, sum(open_.values()))


def _whole(value: Any, field: str, minimum: int = 0, maximum: int | None = None) -> int:
    return check_whole(value, field, minimum=minimum, maximum=maximum)


@dataclass(frozen=True, slots=True)
class Attack:
    """The attacker's roll: black dice, melee or ranged, and the attacker's reroll pool.

    >>> Attack(3, "ranged", rerolls=1).succeeds_on
    'ranged'
    """

    dice: int
    kind: AttackKind = "melee"
    rerolls: int = 0

    def __post_init__(self) -> None:
        _whole(self.dice, "attack.dice", maximum=MAX_DICE)
        check_option(self.kind, KINDS, "attack.kind")
        _whole(self.rerolls, "attack.rerolls", maximum=MAX_REROLLS)

    @property
    def succeeds_on(self) -> AttackKind:
        """The attack face that scores a hit (besides CRIT)."""
        return self.kind


@dataclass(frozen=True, slots=True)
class Defence:
    """The target's roll: white dice and the target's reroll pool (no dice: no defence roll).

    >>> Defence(2).rerolls
    0
    """

    dice: int = 0
    rerolls: int = 0

    def __post_init__(self) -> None:
        _whole(self.dice, "defence.dice", maximum=MAX_DICE)
        _whole(self.rerolls, "defence.rerolls", maximum=MAX_REROLLS)


@dataclass(frozen=True, slots=True)
class Target:
    """The target's Life, the Wounds it already has, and its Overkill rating (None: cannot be overkilled).

    >>> schmetterling = Target(life=5, wounds=3, overkill=7)  # AQ-RB p.12
    >>> schmetterling.killed_by(2), schmetterling.overkilled_by(2)
    (True, False)
    >>> Target(life=6, overkill=2)
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: target.overkill: must be target.life (6) to 1000, or null (never): an overkill is a kill (printed p.21), got 2; target.overkill_below_life: "as given" keeps the old reading
    >>> Target(life=6, overkill=2, overkill_below_life="as given").overkilled_by(2)
    True
    """

    life: int
    wounds: int = 0
    overkill: int | None = None
    overkill_below_life: OverkillBelowLife = "refuse"
    """``"refuse"`` (the default since issue 21): an Overkill below Life is an error, as in encounters
    (an overkill is a kill, printed p.21); ``"as given"``: the old reading, the rating taken as it is."""

    def __post_init__(self) -> None:
        _whole(self.life, "target.life", minimum=1, maximum=MAX_TARGET)
        _whole(self.wounds, "target.wounds", maximum=MAX_TARGET)
        if self.wounds >= self.life:
            raise ScenarioError("target.wounds", f"must be < target.life ({self.life}): with {self.wounds} "
                                                 "wounds the target is already dead")
        check_option(self.overkill_below_life, OVERKILL_BELOW_LIFE, "target.overkill_below_life")
        if self.overkill is not None:
            _whole(self.overkill, "target.overkill", minimum=1, maximum=MAX_TARGET)
            if self.overkill < self.life and self.overkill_below_life == "refuse":
                raise ScenarioError("target.overkill", f"must be target.life ({self.life}) to {MAX_TARGET}, or null "
                                                       f"(never): an overkill is a kill (printed p.21), got "
                                                       f"{self.overkill}; target.overkill_below_life: \"as given\" "
                                                       "keeps the old reading")

    @property
    def life_left(self) -> int:
        """Wounds that kill the target: Life minus the Wounds it already has."""
        return self.life - self.wounds

    def killed_by(self, wounds: int) -> bool:
        """True if `wounds` from this attack kill the target (AQ-RB p.10)."""
        return wounds >= self.life_left

    def overkilled_by(self, wounds: int) -> bool:
        """True if this one attack's `wounds` reach the Overkill rating, whatever wounds were there (p.21)."""
        return self.overkill is not None and wounds >= self.overkill


def check_die(faces: Any, path: str, allowed: tuple[_Face, ...]) -> tuple[_Face, ...]:
    """Check a die given as a list of six face names (`ATTACK_FACES` or `DEFENCE_FACES`).

    >>> check_die(["shield", "crit", "blank", "blank", "blank", "blank"], "dice.defence", DEFENCE_FACES)[:2]
    ('shield', 'crit')
    """
    if isinstance(faces, (str, bytes)) or not isinstance(faces, (list, tuple)):
        raise ScenarioError(path, f"must be a list of {FACES_PER_DIE} face names, got {describe(faces)}")
    if len(faces) != FACES_PER_DIE:
        raise ScenarioError(path, f"must list exactly {FACES_PER_DIE} faces, got {len(faces)}")
    checked = tuple(check_option(face, allowed, f"{path}[{i}]") for i, face in enumerate(faces))
    if all(face == "crit" for face in checked):
        raise ScenarioError(path, "cannot be all CRITs: the roll would never end")
    return checked


@dataclass(frozen=True, slots=True)
class AttackScenario:
    """One attack: the two rolls, the target, and the faces of both dice with their provenance.

    >>> AttackScenario(Attack(2), Defence(1), Target(3)).attack_trial()
    Trial(fail=2, plain=3, crit=1)
    """

    attack: Attack
    defence: Defence
    target: Target
    attack_die: tuple[AttackFace, ...] = ATTACK_DIE.value
    """The faces of the black die (checked by the reader, `check_die`)."""
    defence_die: tuple[DefenceFace, ...] = DEFENCE_DIE.value
    """The faces of the white die (checked by the reader, `check_die`)."""
    dice_source: str = ATTACK_DIE.source
    title: str = ""

    def attack_trial(self) -> Trial:
        """One attack die: failure, hit, CRIT weights for this attack's kind."""
        return Trial.of(self.attack_die, self.attack.succeeds_on)

    def defence_trial(self) -> Trial:
        """One defence die: failure, save, CRIT weights."""
        return Trial.of(self.defence_die, "shield")


@dataclass(frozen=True, slots=True)
class AttackResult:
    """Exact distributions of one attack; every `Dist` carries the cut (truncated) weight.

    >>> result = resolve_attack(AttackScenario(Attack(1), Defence(0), Target(1)))
    >>> round(float(result.kill), 9), result.overkill
    (0.666666667, Fraction(0, 1))
    """

    scenario: AttackScenario
    hits: Dist[int]
    saves: Dist[int]
    wounds: Dist[int]

    @property
    def kill(self) -> Fraction:
        """P(wounds >= life left); a lower bound, short of the truth by at most `cut`."""
        return self.wounds.at_least(self.scenario.target.life_left)

    @property
    def overkill(self) -> Fraction:
        """P(wounds >= overkill) (0 when the target cannot be overkilled); a lower bound like `kill`."""
        target = self.scenario.target
        return Fraction(0) if target.overkill is None else self.wounds.at_least(target.overkill)

    @property
    def cut(self) -> Fraction:
        """The probability truncated from the attack as a whole (either roll's chain cut), < `CUT_BELOW`."""
        return self.wounds.cut_mass()


def resolve_attack(scenario: AttackScenario, *, cut_below: float = CUT_BELOW) -> AttackResult:
    """Roll both pools exactly and compare: wounds = max(0, hits - saves) (INF-RB p.18).

    Each roll is cut at ``cut_below / 2``, so the attack's whole cut is below `cut_below`.

    >>> result = resolve_attack(AttackScenario(Attack(3, "melee", 1), Defence(2), Target(4, 0, 6)))
    >>> round(float(result.hits.mean()), 6), float(result.cut) < 1e-12
    (3.0272, True)
    """
    attack, defence = scenario.attack, scenario.defence
    hits = roll_successes(attack.dice, attack.rerolls, scenario.attack_trial(), cut_below=cut_below / 2)
    saves = roll_successes(defence.dice, defence.rerolls, scenario.defence_trial(), cut_below=cut_below / 2)
    return AttackResult(scenario, hits, saves, hits.combine(saves, lambda h, s: max(0, h - s)))
