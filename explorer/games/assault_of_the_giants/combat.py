"""Steps 1-4 of a battle for one side: roll, reroll, convert, record hits and blocks.

The fast path works on the *state* a player decides on, not on single dice:
for each kind of die it counts blank dice, dice showing only arcane (1 or 2), and sums the
symbols of the other dice. That state fixes which dice the reroll policy picks; the kept
symbols are then combined with the exact distribution of the fresh rolls and converted.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import math
from fractions import Fraction

from explorer.dist import Dist
from explorer.games.assault_of_the_giants.model import CombatDie, Modifiers, Side, Symbols

__all__ = ["modifiers_from_commands", "side_totals", "convert", "reroll_choice", "kind_order"]

Control = tuple[int, int, int]
"""Per kind of die: (blank dice, dice showing 1 arcane only, dice showing 2 arcane only)."""

Decision = tuple[tuple[int, ...], int]
"""Dice rerolled per kind, and arcane symbols those dice showed."""


def modifiers_from_commands(commands: Sequence[str], *, attacker: bool) -> Modifiers:
    """Rerolls and conversions given by the positions of face-up Command Cards (rulebook p.16).

    Rerolls = cards right of Leader; arcane-to-block = cards right of Magic;
    arcane-to-2-hits = cards left of Attack, for the attacker only (rulebook p.17).

    >>> modifiers_from_commands(["Leader", "Move", "Attack"], attacker=True)
    Modifiers(rerolls=2, arcane_to_hits=2, arcane_to_blocks=0, source='commands')
    >>> modifiers_from_commands(["Leader", "Move", "Attack"], attacker=False).arcane_to_hits
    0
    """
    row = [c.strip().lower() for c in commands]

    def right_of(name: str) -> int:
        return len(row) - row.index(name) - 1 if name in row else 0

    left_of_attack = row.index("attack") if attacker and "attack" in row else 0
    return Modifiers(right_of("leader"), left_of_attack, right_of("magic"), "commands")


def convert(symbols: Symbols, modifiers: Modifiers) -> tuple[int, int]:
    """Step 3: arcane to 2 hits first, then arcane to 1 block; the rest is a miss.

    >>> convert((1, 0, 3), Modifiers(arcane_to_hits=1, arcane_to_blocks=1))
    (3, 1)
    """
    hits, blocks, arcane = symbols
    to_hits = min(arcane, modifiers.arcane_to_hits)
    to_blocks = min(arcane - to_hits, modifiers.arcane_to_blocks)
    return hits + 2 * to_hits, blocks + to_blocks


def arcane_value(modifiers: Modifiers) -> int:
    """What one arcane symbol can become for this side: 2 hits, 1 block or nothing."""
    return 2 if modifiers.arcane_to_hits else 1 if modifiers.arcane_to_blocks else 0


def kind_order(dice: Sequence[CombatDie], modifiers: Modifiers) -> tuple[int, ...]:
    """Kinds of die by the worth of a fresh roll, best first; ties keep the pool's order.

    >>> a = CombatDie("a", ((0, 0, 0),) * 6); b = CombatDie("b", ((1, 0, 0),) * 6)
    >>> kind_order([a, b], Modifiers())
    (1, 0)
    """
    value = arcane_value(modifiers)
    return tuple(sorted(range(len(dice)), key=lambda k: (-dice[k].worth(value), k)))


def _reroll_misses(controls: Sequence[Control], arcane: int, modifiers: Modifiers,
                   order: Sequence[int]) -> Decision:
    """Policy "misses": blanks first, then dice showing only arcane nobody can convert."""
    rerolled = [0] * len(controls)
    left = modifiers.rerolls
    for k in order:
        take = min(controls[k][0], left)
        rerolled[k] += take
        left -= take
    spare = max(0, arcane - modifiers.arcane_to_hits - modifiers.arcane_to_blocks)
    removed = 0
    for amount in (1, 2):
        for k in order:
            take = min(controls[k][amount], left, spare // amount)
            rerolled[k] += take
            left -= take
            spare -= take * amount
            removed += take * amount
    return tuple(rerolled), removed


def _reroll_blanks(controls: Sequence[Control], arcane: int, modifiers: Modifiers,
                   order: Sequence[int]) -> Decision:
    """Policy "blanks": only dice showing a blank face, best kind first."""
    rerolled = [0] * len(controls)
    left = modifiers.rerolls
    for k in order:
        rerolled[k] = min(controls[k][0], left)
        left -= rerolled[k]
    return tuple(rerolled), 0


def _reroll_none(controls: Sequence[Control], arcane: int, modifiers: Modifiers,
                 order: Sequence[int]) -> Decision:
    """Policy "none": keep every die."""
    return (0,) * len(controls), 0


_POLICIES: dict[str, Callable[[Sequence[Control], int, Modifiers, Sequence[int]], Decision]] = {
    "misses": _reroll_misses,
    "blanks": _reroll_blanks,
    "none": _reroll_none,
}


def reroll_choice(policy: str, controls: Sequence[Control], arcane: int, modifiers: Modifiers,
                  order: Sequence[int]) -> Decision:
    """Which dice a policy rerolls, given the roll's state.

    Args:
        policy: a name in `REROLL_POLICIES`.
        controls: per kind, (blank dice, 1-arcane-only dice, 2-arcane-only dice).
        arcane: arcane symbols showing on all dice.
        modifiers: the side's rerolls and conversions.
        order: kinds by worth, best first (`kind_order`).

    Returns:
        Dice rerolled per kind, and the arcane symbols the rerolled dice showed.

    >>> reroll_choice("misses", [(1, 2, 0)], 2, Modifiers(rerolls=3, arcane_to_blocks=1), [0])
    ((2,), 1)
    """
    return _POLICIES[policy](controls, arcane, modifiers, order)


def _control_of(face: Symbols) -> tuple[int, int, int, int, int, int]:
    """One die's contribution to the state: (blank, 1-arcane-only, 2-arcane-only, h, b, a)."""
    hits, blocks, arcane = face
    if hits == 0 and blocks == 0:
        return (1 if arcane == 0 else 0, 1 if arcane == 1 else 0, 1 if arcane == 2 else 0, 0, 0, arcane)
    return (0, 0, 0, hits, blocks, arcane)


def _add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def _fresh(die: CombatDie, n: int, cap: int) -> Dist[Symbols]:
    """Symbols of `n` fresh rolls of `die`, arcane capped at `cap` (more cannot be used)."""
    if n == 0:
        return Dist.single((0, 0, 0))
    summed = die.dist().repeat(n, _add)  # type: ignore[arg-type]
    return summed.map(lambda s: (s[0], s[1], min(s[2], cap)))


def side_totals(side: Side) -> Dist[tuple[int, int]]:
    """Exact distribution of a side's final (hits, blocks) after rerolls and conversions.

    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> side = Side(((die, 1),), Modifiers(rerolls=1), ())
    >>> side_totals(side).probability((1, 0))
    Fraction(3, 4)
    """
    dice = [die for die, n in side.pool if n]
    counts = [n for _, n in side.pool if n]
    mods = side.modifiers
    cap = mods.arcane_to_hits + mods.arcane_to_blocks
    order = kind_order(dice, mods)
    # Joint state over kinds: (controls per kind, hits, blocks, arcane) of the first roll.
    states: dict[tuple[tuple[Control, ...], int, int, int], int] = {((), 0, 0, 0): 1}
    for die, n in zip(dice, counts):
        per_kind = die.dist().map(_control_of).repeat(n, _add)
        merged: dict[tuple[tuple[Control, ...], int, int, int], int] = {}
        for (controls, h, b, a), w in states.items():
            for (nb, n1, n2, h2, b2, a2), w2 in per_kind.items():
                key = (controls + ((nb, n1, n2),), h + h2, b + b2, a + a2)
                merged[key] = merged.get(key, 0) + w * w2
        states = merged
    # Decide rerolls per state; group the kept symbols by what is rerolled.
    groups: dict[tuple[int, ...], dict[Symbols, int]] = {}
    decided: dict[tuple[tuple[Control, ...], int], Decision] = {}
    for (controls, h, b, a), w in states.items():
        decision = decided.get((controls, a))
        if decision is None:
            decision = decided[(controls, a)] = reroll_choice(side.reroll_policy, controls, a, mods, order)
        rerolled, removed = decision
        kept = (h, b, min(a - removed, cap))
        group = groups.setdefault(rerolled, {})
        group[kept] = group.get(kept, 0) + w
    return _finish(groups, dice, counts, mods, cap)


def _finish(groups: dict[tuple[int, ...], dict[Symbols, int]], dice: Sequence[CombatDie],
            counts: Sequence[int], mods: Modifiers, cap: int) -> Dist[tuple[int, int]]:
    """Add the fresh rolls of each group's rerolled dice, convert, and weigh to one denominator."""
    fresh_cache: dict[tuple[int, int], Dist[Symbols]] = {}
    fresh_of: dict[tuple[int, ...], Dist[Symbols]] = {}
    for rerolled in groups:
        fresh = Dist.single((0, 0, 0))
        for k, r in enumerate(rerolled):
            if r:
                if (k, r) not in fresh_cache:
                    fresh_cache[(k, r)] = _fresh(dice[k], r, cap)
                fresh = fresh.combine(fresh_cache[(k, r)], _add)  # type: ignore[arg-type]
        fresh_of[rerolled] = fresh
    common = math.lcm(*(f.total for f in fresh_of.values()))
    final: dict[tuple[int, int], int] = {}
    converted: dict[Symbols, tuple[int, int]] = {}
    for rerolled, kept in groups.items():
        fresh = fresh_of[rerolled]
        scale = common // fresh.total
        fresh_items = [(s, w * scale) for s, w in fresh.items()]
        for (h, b, a), wk in kept.items():
            for (fh, fb, fa), wf in fresh_items:
                symbols = (h + fh, b + fb, min(a + fa, cap))
                result = converted.get(symbols)
                if result is None:
                    result = converted[symbols] = convert(symbols, mods)
                final[result] = final.get(result, 0) + wk * wf
    return Dist(final)


def mean_hits(totals: Dist[tuple[int, int]]) -> Fraction:
    """Expected hits of a side's totals."""
    return totals.marginal(0).mean()
