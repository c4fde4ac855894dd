"""The Arcadia Quest dice lab engine: an attack roll against a defence roll, with CRIT chains and rerolls.

Pure (no widgets): `explorer.panels.common.dice_lab.DiceLab` shows any `explorer.scenario.lab.LabEngine`. A face shows
one symbol: ``hit`` (a success of an attack roll), ``save`` (a success of a defence roll) or ``crit``
(a success of either, plus one more die, INF-RB p.18), or nothing. The named dice are the black die
read for a melee or a ranged attack (its other hit faces then miss, AQ-RB p.9) and the white die.
A die with a ``hit`` face is an attack die, one with a ``save`` face a defence die (a die with only
CRITs and blanks counts as an attack die); one roll uses one kind of attack die and one kind of
defence die, as an attack does.

>>> engine = ArcadiaLabEngine()
>>> out = engine.compute({"attack (melee)": 1}, {}, {"attack_rerolls": 0, "defence_rerolls": 0}, "failures")
>>> out["hits"].probability(0), out["wounds"] == out["hits"]
(Fraction(1, 3), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.chains import chain_successes
from explorer.games.arcadia_quest.attack.model import (
    ATTACK_DIE,
    CUT_BELOW,
    DEFENCE_DIE,
    FACES_PER_DIE,
    MAX_DICE,
    MAX_REROLLS,
    Trial,
)
from explorer.scenario.lab import JOINT, Faces, LabDie, LabModifier

__all__ = ["ArcadiaLabEngine", "SYMBOLS"]

SYMBOLS = ("hit", "save", "crit")
"""Symbols a lab face may show (one per face)."""

_FACE = {"melee": (1, 0, 0), "ranged": (1, 0, 0), "shield": (0, 1, 0), "crit": (0, 0, 1)}


def _named_die(faces: tuple[str, ...], scores: str) -> Faces:
    """A die's faces as symbol counts, reading only `scores` (and CRIT) as a success."""
    return tuple(_FACE[face] if face in (scores, "crit") else (0, 0, 0) for face in faces)


def _role(name: str, faces: Faces) -> str:
    """``"attack"`` or ``"defence"``, checking one symbol per face and not both hits and saves."""
    for number, face in enumerate(faces, 1):
        if sum(face) > 1:
            raise ScenarioError(f"{name} die, face {number}", "an Arcadia Quest face shows one symbol (hit, save "
                                                             "or crit) or none")
    hits, saves = any(f[0] for f in faces), any(f[1] for f in faces)
    if hits and saves:
        raise ScenarioError(f"{name} die", "a die scores hits (attack) or saves (defence), not both")
    return "defence" if saves else "attack"


class ArcadiaLabEngine:
    """Arcadia Quest: hits, saves and wounds of one attack roll against one defence roll.

    Modifiers: each side's reroll pool, and ``extra_hit_per_crit`` (0 or 1, Bow Mastery or the
    Minotaur, see `data.ABILITIES`). Policy ``failures``: reroll points go on failed dice, greedily
    (the package's ruling). Chains are cut below 1e-12 per roll; the cut stays in each `Dist`.

    >>> result = ArcadiaLabEngine().compute({"attack (ranged)": 2, "defence": 1}, {}, {"attack_rerolls": 1}, "failures")
    >>> sorted(result) == ["hits", "joint", "saves", "wounds"], result[JOINT].cut_mass() < 1e-11
    (True, True)
    """

    title = "Arcadia Quest"
    symbols = SYMBOLS
    face_limits: Mapping[str, int] = {"hit": 1, "save": 1, "crit": 1}
    faces_per_die = FACES_PER_DIE
    max_dice = MAX_DICE
    outcomes = ("hits", "saves", "wounds")
    policies = ("failures",)
    custom_faces = "hit, hit, hit, crit, blank, blank"
    """The custom die's starting text (the optional `explorer.scenario.lab.LabEngine.custom_faces`)."""

    def dice(self) -> dict[str, LabDie]:
        """The black die read for melee and for ranged attacks, and the white defence die."""
        return {"attack (melee)": LabDie(_named_die(ATTACK_DIE.value, "melee"),
                                         "black die, melee attack: 3 melee hits, 2 ranged faces (misses), 1 CRIT; "
                                         + ATTACK_DIE.source),
                "attack (ranged)": LabDie(_named_die(ATTACK_DIE.value, "ranged"),
                                          "black die, ranged attack: 2 ranged hits, 3 melee faces (misses), 1 CRIT; "
                                          + ATTACK_DIE.source),
                "defence": LabDie(_named_die(DEFENCE_DIE.value, "shield"),
                                  "white die: 1 shield, 1 CRIT, 4 blanks; " + ATTACK_DIE.source)}

    def modifiers(self) -> tuple[LabModifier, ...]:
        """The two reroll pools (INF-RB Reroll Pool) and one CRIT-as-two-hits switch."""
        return (LabModifier("attack_rerolls", "attack rerolls", MAX_REROLLS),
                LabModifier("defence_rerolls", "defence rerolls", MAX_REROLLS),
                LabModifier("extra_hit_per_crit", "+1 hit per CRIT", 1))

    def compute(self, pool: Mapping[str, int], custom: Mapping[str, Faces], modifiers: Mapping[str, int],
                policy: str) -> dict[str, Dist[Any]]:
        """Hits, saves, wounds = max(0, hits - saves), and the joint (hits, saves).

        Raises:
            ScenarioError: an unknown die or policy, two kinds of attack (or defence) die in one roll, a
                face with several symbols, a die with both hits and saves, or more than `max_dice` dice.
        """
        known: dict[str, Faces] = {name: die.faces for name, die in self.dice().items()}
        known.update({name: tuple(tuple(face) for face in faces) for name, faces in custom.items()})
        if policy not in self.policies:
            raise ScenarioError("reroll policy", f"must be one of {', '.join(self.policies)}, got {policy!r}")
        rolls: dict[str, tuple[Faces, int]] = {}
        for name, count in pool.items():
            if name not in known:
                raise ScenarioError(f"pool.{name}", f"unknown die (known dice: {', '.join(known)})")
            if not count:
                continue
            role = _role(name, known[name])
            if role in rolls and rolls[role][0] != known[name]:
                raise ScenarioError("pool", f"one kind of {role} die per roll (an attack is melee or ranged), "
                                            f"got {name!r} besides another")
            rolls[role] = (known[name], rolls.get(role, ((), 0))[1] + count)
        total = sum(count for _, count in rolls.values())
        if total > self.max_dice:
            raise ScenarioError("pool", f"at most {self.max_dice} dice in total (a computing limit), got {total}")
        worth = 2 if modifiers.get("extra_hit_per_crit", 0) else 1
        hits = self._roll(rolls.get("attack"), modifiers.get("attack_rerolls", 0), 0, worth)
        saves = self._roll(rolls.get("defence"), modifiers.get("defence_rerolls", 0), 1, 1)
        joint = hits.combine(saves, lambda h, s: (h, s))
        return {"hits": hits, "saves": saves, "wounds": joint.map(lambda hs: max(0, hs[0] - hs[1])), JOINT: joint}

    @staticmethod
    def _roll(roll: tuple[Faces, int] | None, rerolls: int, symbol: int, worth: int) -> Dist[int]:
        if roll is None:
            return Dist.single(0)
        faces, count = roll
        crit = sum(face[2] for face in faces)
        if crit == len(faces):
            raise ScenarioError("pool", "a die whose every face is a CRIT never stops rolling")
        plain = sum(face[symbol] for face in faces)
        trial = Trial(len(faces) - plain - crit, plain, crit)
        return chain_successes(count, min(rerolls, MAX_REROLLS), trial, worth, CUT_BELOW / 2)
