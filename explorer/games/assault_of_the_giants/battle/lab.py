"""The Assault of the Giants dice lab engine: one side's roll, rerolls and arcane conversions.

Pure (no widgets); `explorer.panels.common.dice_lab.DiceLab` shows it. Named in the game registry.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE, FACE_LIMITS, FACES_PER_DIE, MAX_DICE_PER_SIDE
from explorer.games.assault_of_the_giants.rules.model import FIXED_POLICIES, CombatDie, Modifiers, Side
from explorer.scenario.lab import JOINT, Faces, LabDie, LabModifier

__all__ = ["AssaultLabEngine"]


class AssaultLabEngine:
    """Assault of the Giants: hits and blocks after rerolls and arcane conversions (`side_totals`).

    >>> engine = AssaultLabEngine()
    >>> result = engine.compute({"basic": 1}, {}, {"rerolls": 0}, "misses")
    >>> result["hits"].probability(2), result[JOINT].probability((1, 1))
    (Fraction(1, 6), Fraction(1, 6))
    >>> engine.max_dice, round(float(engine.compute({"basic": 60}, {}, {"rerolls": 5}, "misses")["hits"].mean()), 3)
    (60, 43.333)
    """

    title = "Assault of the Giants"
    symbols = ("hit", "block", "arcane")
    face_limits: Mapping[str, int] = {name: limit.value for name, limit in FACE_LIMITS.items()}
    faces_per_die = FACES_PER_DIE
    max_dice = MAX_DICE_PER_SIDE
    outcomes = ("hits", "blocks")
    policies = FIXED_POLICIES  # "best" needs an opponent and an objective: a battle, not one roll

    def dice(self) -> dict[str, LabDie]:
        """The basic die and each race's special die."""
        return {name: LabDie(die.faces, die.source) for name, die in DEFAULT_DICE.items()}

    def modifiers(self) -> tuple[LabModifier, ...]:
        """Rerolls, arcane to 2 hits and arcane to 1 block (rulebook p.16)."""
        most_arcane = self.max_dice * self.face_limits["arcane"]
        return (LabModifier("rerolls", "rerolls", self.max_dice),
                LabModifier("arcane_to_hits", "arcane → 2 hits", most_arcane),
                LabModifier("arcane_to_blocks", "arcane → block", most_arcane))

    def compute(self, pool: Mapping[str, int], custom: Mapping[str, Faces], modifiers: Mapping[str, int],
                policy: str) -> dict[str, Dist[Any]]:
        """Resolve one side's roll; custom dice are looked up before the named ones.

        Raises:
            ScenarioError: an unknown die or policy, more than `max_dice` dice, or a request the exact
                engine refuses as too costly (field ``pool`` or ``rerolls``).
        """
        known = {name: die for name, die in DEFAULT_DICE.items()}
        known.update({name: CombatDie(name, tuple(faces), "custom") for name, faces in custom.items()})  # type: ignore[arg-type]
        for name in pool:
            if name not in known:
                raise ScenarioError(f"pool.{name}", f"unknown die (known dice: {', '.join(known)})")
        if policy not in self.policies:
            raise ScenarioError("reroll policy", f"must be one of {', '.join(self.policies)}, got {policy!r}")
        if sum(pool.values()) > self.max_dice:
            raise ScenarioError("pool", f"at most {self.max_dice} dice in total (a computing limit), "
                                        f"got {sum(pool.values())}")
        mods = Modifiers(**{m.name: modifiers.get(m.name, 0) for m in self.modifiers()}, source="lab")
        entries = tuple((known[name], n) for name, n in pool.items() if n)
        joint = side_totals(Side(entries, mods, (), reroll_policy=policy))
        return {"hits": joint.marginal(0), "blocks": joint.marginal(1), JOINT: joint}
