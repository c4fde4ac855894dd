"""The command-row advisor: attack now, or play other Command Cards first?

Each turn a player plays one Command Card at the right end of their row (p.10); a giant's battle
starts when the Attack Command is played, so it is the row's last card (p.17). Cards played
before it change what the attack may do (p.16): Leader gives 1 reroll per card to its right,
Magic 1 arcane-to-block per card to its right, Attack 1 arcane-to-2-hits per card to its left.
`row_options` lists the rows the attacker can reach from its row so far and its hand, ending
with Attack, each with its modifiers and the value of the attack for the attacker's objective.

Only what a row gives in battle is valued: the turns spent playing other cards first (and what
those cards do on the board) are shown, not priced. Rows giving the same modifiers after the same
number of cards are one option, and an option another one beats on every modifier for the same
number of cards is left out (more rerolls or conversions never hurt the side's play).
A row replaces only what the Command Cards give: the attacker's Spell and Resource Cards (``cards``)
stay on the side and add on top of every row (`cards.played`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import assert_never

from explorer.core import backstop
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.battle import BattleResult, resolve_battle
from explorer.games.assault_of_the_giants.best.costs import Cost, battle_costs, check_costs
from explorer.games.assault_of_the_giants.rules.combat import modifiers_from_commands
from explorer.games.assault_of_the_giants.rules.model import Battle, Modifiers, Objective

__all__ = ["RowOption", "row_options", "objective_value", "MAX_EXTRA_CARDS"]

MAX_EXTRA_CARDS = 4
"""Most cards the advisor plays before Attack (a computing limit: each option is a battle)."""


@dataclass(frozen=True, slots=True)
class RowOption:
    """One way to reach the attack: the whole row, what it gives, and what the attack is worth."""

    row: tuple[str, ...]
    """The attacker's row when the battle starts, Attack last."""
    extra_cards: int
    """Cards played before Attack, each one turn (0: attack now)."""
    modifiers: Modifiers
    """Rerolls and conversions the row gives (p.16)."""
    value: Fraction
    """The attacker's objective for this battle (exact)."""

    @property
    def played(self) -> tuple[str, ...]:
        """The cards played from hand, in order, Attack last."""
        return self.row[len(self.row) - self.extra_cards - 1:]


def objective_value(result: BattleResult, role: str, objective: Objective) -> Fraction:
    """A side's objective in a resolved battle.

    Args:
        result: the battle's exact result.
        role: ``"attacker"`` or ``"defender"``.
        objective: what the side maximises (`explorer.games.assault_of_the_giants.rules.model.Objective`).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Side, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> result = resolve_battle(Battle(Side(((hit, 2),), Modifiers(), ()),
    ...                                Side((), Modifiers(), (Unit("g", 2, 1, 3),))))
    >>> objective_value(result, "attacker", "ordning-points"), objective_value(result, "attacker", "wipe-out")
    (Fraction(3, 1), Fraction(1, 1))
    """
    own, other = (result.attacker, result.defender) if role == "attacker" else (result.defender, result.attacker)
    if objective == "ordning-points":
        return own.ordning_points.mean()
    if objective == "net-ordning-points":
        return own.ordning_points.mean() - other.ordning_points.mean()
    if objective == "damage":
        return other.damage_taken.mean()
    if objective == "wipe-out":
        return other.wiped_out()
    assert_never(objective)


def _candidate_rows(so_far: Sequence[str], hand: Sequence[str], most: int) -> list[tuple[str, ...]]:
    """Every row reachable by playing up to `most` cards of `hand` (not Attack), then Attack.

    Only Leader and Magic positions matter (p.16), so the other cards are taken in hand order.
    """
    lowered = [c.strip().lower() for c in so_far]
    special = [c for c in hand if c.strip().lower() in ("leader", "magic") and c.strip().lower() not in lowered]
    others = [c for c in hand if c not in special and c.strip().lower() != "attack"]
    rows: list[tuple[str, ...]] = []
    for k in range(min(most, len(special) + len(others)) + 1):
        for used in range(len(special) + 1):
            for chosen in permutations(special, used):
                for slots in permutations(range(k), used):
                    if k - used > len(others):
                        continue
                    row: list[str | None] = [None] * k
                    for card, slot in zip(chosen, slots):
                        row[slot] = card
                    fill = iter(others)
                    rows.append(tuple(so_far) + tuple(c if c is not None else next(fill) for c in row) + ("Attack",))
    return rows


def _key(mods: Modifiers) -> tuple[int, int, int]:
    return (mods.rerolls, mods.arcane_to_hits, mods.arcane_to_blocks)


def row_options(battle: Battle, hand: Sequence[str], *, objective: Objective | None = None,
                most: int = 2, value: Callable[[Battle], Fraction] | None = None,
                already: float = 0.0) -> list[RowOption]:
    """The attacker's rows ending with Attack, best first, with the attack's value for each.

    Args:
        battle: the battle as it would be fought; its attacker's ``commands`` are the row so far
            (a final Attack there is the card about to be played, and is dropped).
        hand: Command Cards still in the attacker's hand (Attack among them or not: it is played last).
        objective: the attacker's objective (default: the side's own, else ``"ordning-points"``).
        most: most cards to play before Attack (0 to `MAX_EXTRA_CARDS`).
        value: the attack's value for a battle (default: `objective_value` of `resolve_battle`).
        already: seconds of work the same request already spends (the battle's report beside it).

    Returns:
        One option per distinct (cards played, modifiers), dominated ones left out; sorted by
        value, best first, then fewer cards played.

    Raises:
        ScenarioError: giantslayers or NPC attackers (no row decides their battle), an Attack
            already played earlier in the row, `most` out of range, or battles estimated above about
            2 s together (`costs.check_costs`, all weighed before the first is fought).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Side, Unit
    >>> arcane = CombatDie("arcane", ((0, 0, 1),) * 6)
    >>> attacker = Side(((arcane, 1),), Modifiers(), (), commands=("Move",))
    >>> battle = Battle(attacker, Side((), Modifiers(), (Unit("g", 2, 1, 3),)))
    >>> [(o.row, o.value) for o in row_options(battle, ["Trade"], objective="damage", most=1)]
    [(('Move', 'Attack'), Fraction(2, 1)), (('Move', 'Trade', 'Attack'), Fraction(2, 1))]
    """
    attacker = battle.attacker
    if attacker.npc or attacker.giantslayers:
        raise ScenarioError("attacker", "the row advisor is for a giant's attack: NPC giants do not attack and "
                                        "giantslayers attack by a Rest Command action (pp.17-20)")
    if not 0 <= most <= MAX_EXTRA_CARDS:
        raise ScenarioError("hand", f"cards to play before Attack must be 0 to {MAX_EXTRA_CARDS}, got {most}")
    so_far = list(attacker.commands)
    if so_far and so_far[-1].strip().lower() == "attack":
        so_far.pop()
    if any(c.strip().lower() == "attack" for c in so_far):
        raise ScenarioError("attacker.commands", "the Attack Command is already in the row: it must be the card "
                                                 "played to start this battle (p.17)")
    goal = objective or attacker.objective
    worth = value or (lambda b: objective_value(resolve_battle(b), "attacker", goal))
    best: dict[tuple[int, tuple[int, int, int]], tuple[str, ...]] = {}
    for row in _candidate_rows(so_far, hand, most):
        extra = len(row) - len(so_far) - 1
        best.setdefault((extra, _key(modifiers_from_commands(row, attacker=True))), row)
    kept = [(extra, mods, row) for (extra, mods), row in best.items()
            if not any(e == extra and m != mods and all(a >= b for a, b in zip(m, mods)) for e, m in best)]
    fights = []
    for extra, (rerolls, hits, blocks), row in kept:
        mods = Modifiers(rerolls, hits, blocks, "commands")
        fights.append((row, extra, mods,
                       dataclasses.replace(battle, attacker=dataclasses.replace(attacker, commands=row, modifiers=mods))))
    parts = [Cost(already, "advisor", "the battle itself", ("already",))] if already else []
    for _, _, _, fought in fights:  # every battle weighed before the first is fought
        parts += battle_costs(fought, many=True)
    check_costs(parts, f"the row advisor's {len(fights)} battles", "fewer cards_first, fewer cards in hand or fewer "
                "dice", "cards_first" if most else "hand")
    options = []
    with backstop.request():
        for row, extra, mods, fought in fights:
            backstop.check("cards_first", "the row advisor")
            options.append(RowOption(row, extra, mods, worth(fought)))
    return sorted(options, key=lambda o: (-o.value, o.extra_cards, o.row))
