"""Best play's advice in a battle trace (`trace`): what best play would do with the same dice.

For the roll-once trace: the dice best play would reroll and the split it would make, with the
expected value of each next to the choice the side's policy made (`advice`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.advice import Alternative, Split, advise_conversion, advise_reroll
from explorer.games.assault_of_the_giants.best.costs import rounds_of
from explorer.games.assault_of_the_giants.best.play import attacker_solution, defender_response
from explorer.games.assault_of_the_giants.rules.model import Battle, CombatDie, Objective, Side, Symbols
from explorer.games.assault_of_the_giants.rules.words import show_faces

__all__ = ["Advisor", "advisor_for", "reroll_advice", "split_advice"]


@dataclass(frozen=True, slots=True)
class Advisor:
    """Best play's advice for one side in this battle (`advice`), for the trace to show."""

    battle: Battle
    role: str
    attacker_totals: tuple[int, int] | None

    @property
    def objective(self) -> Objective:
        """The side's objective."""
        side: Side = getattr(self.battle, self.role)
        return side.objective

    def same(self, value: Fraction) -> str:
        """Text for a choice as good as best play's."""
        if getattr(self.battle, self.role).reroll_policy == "best":
            return f"; expected {_worth(self.objective, value)} (best play for {self.objective})"
        return f"; best play for {self.objective} does as well: {_worth(self.objective, value)}"

    @property
    def two_rounds(self) -> bool:
        """Whether best play searches two rounds of rerolls for the side (its cards' after its Commands', p.16)."""
        return bool(rounds_of(getattr(self.battle, self.role))[1])

    def reroll(self, dice: Sequence[CombatDie], faces: Sequence[Symbols], second_round: bool = False
               ) -> list[Alternative]:
        """`advice.advise_reroll` for this roll (in the cards' second round: on the dice as they lie)."""
        roll = [(d.name, f) for d, f in zip(dice, faces)]
        return advise_reroll(self.battle, self.role, roll, attacker_totals=self.attacker_totals,
                             second_round=second_round)

    def conversion(self, symbols: Symbols) -> list[Split]:
        """`advice.advise_conversion` for these symbols."""
        return advise_conversion(self.battle, self.role, symbols, attacker_totals=self.attacker_totals)


def advisor_for(battle: Battle, role: str, attacker_totals: tuple[int, int] | None = None) -> Advisor | None:
    """Best play's advice for the side, or None when its search is too big (and the side does not play best)."""
    try:
        if role == "attacker":
            attacker_solution(battle)
        else:
            defender_response(battle)
    except ScenarioError:
        if getattr(battle, role).reroll_policy == "best":
            raise
        return None
    return Advisor(battle, role, attacker_totals)


def _worth(objective: Objective, value: Fraction) -> str:
    """An expected objective value in words."""
    if objective == "wipe-out":
        return f"{float(value):.1%} chance of a wipe-out"
    unit: dict[Objective, str] = {"ordning-points": "Ordning Points", "net-ordning-points": "net Ordning Points", "damage": "damage"}
    return f"{float(value):.3f} {unit[objective]}"


def reroll_advice(advisor: Advisor | None, dice: Sequence[CombatDie], kinds: Sequence[int],
                   faces: Sequence[Symbols], picks: Sequence[int], named: bool, second_round: bool = False
                   ) -> tuple[str, dict[str, Any]]:
    """Text and data comparing the dice rerolled with best play's choice for the roll (in the cards'
    second round, with `second_round`; with two rounds, a first-round value counts the second played best).

    >>> reroll_advice(None, [], [], [], [], False)
    ('', {})
    """
    if advisor is None:
        return "", {}
    options = advisor.reroll(dice, faces, second_round)
    top = options[0]

    def taken(indices: Sequence[int]) -> list[tuple[int, Symbols]]:
        return sorted((kinds[i], faces[i]) for i in indices)

    made = next(a for a in options if taken(a.reroll) == taken(picks))
    data = {"objective": advisor.objective, "best_reroll": top.reroll, "best_value": float(top.value),
            "best_exact": str(top.value), "chosen_value": float(made.value), "chosen_exact": str(made.value)}
    if made.value == top.value:
        return advisor.same(top.value), data
    which = show_faces(dice, faces, named, top.reroll) if top.reroll else "no die"
    return (f"; best play for {advisor.objective} would reroll {which}: {_worth(advisor.objective, top.value)}, "
            f"against {_worth(advisor.objective, made.value)} for this choice"), data


def split_advice(advisor: Advisor | None, splits: Sequence[Split], made: tuple[int, int]) -> tuple[str, dict[str, Any]]:
    """Text and data comparing the arcane split made with best play's split (none when there is no choice).

    >>> split_advice(None, [], (0, 0))
    ('', {})
    """
    if advisor is None or len(splits) < 2:
        return "", {}
    top = splits[0]
    chosen = next(s for s in splits if (s.to_hits, s.to_blocks) == made)
    data = {"objective": advisor.objective, "best_split": (top.to_hits, top.to_blocks),
            "best_value": float(top.value), "chosen_value": float(chosen.value)}
    if chosen.value == top.value:
        return advisor.same(top.value), data
    return (f"; best play for {advisor.objective} would turn {top.to_hits} into hits and {top.to_blocks} into "
            f"blocks: {_worth(advisor.objective, top.value)}, against {_worth(advisor.objective, chosen.value)}"), data
