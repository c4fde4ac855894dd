"""Steps 1-4 of a battle for one side: roll, reroll, convert, record hits and blocks.

The fast path works on the *state* a player decides on, not on single dice:
for each kind of die it counts blank dice, dice showing only arcane (1 or 2), and sums the
symbols of the other dice. That state fixes which dice the reroll policy picks; the kept
symbols are then combined with the exact distribution of the fresh rolls and converted.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from explorer.dist import Dist
from explorer.errors import ScenarioError
from explorer.games.assault_of_the_giants.model import (
    CombatDie,
    Modifiers,
    Side,
    Symbols,
)
from explorer.packed import Packing

__all__ = ["modifiers_from_commands", "side_totals", "convert", "reroll_choice", "split_rerolls", "kind_order"]

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


def split_rerolls(control: Control, rerolled: int) -> Control:
    """How one kind's rerolled dice divide into blank, 1-arcane-only and 2-arcane-only dice.

    Policies take blanks first, then dice showing 1 arcane, and a 2-arcane die only once every
    1-arcane die is taken (`_reroll_misses`), so the kind's total fixes the split.

    >>> split_rerolls((1, 2, 1), 3)
    (1, 2, 0)
    """
    blanks = min(control[0], rerolled)
    ones = min(control[1], rerolled - blanks)
    return (blanks, ones, rerolled - blanks - ones)


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


def _control_of(face: Symbols) -> tuple[int, int, int]:
    """A face as a decision token: (1,0,0) blank, (0,1,0) one arcane only, (0,0,1) two, else zeros."""
    hits, blocks, arcane = face
    if hits or blocks or arcane > 2:
        return (0, 0, 0)
    return (1 if arcane == 0 else 0, 1 if arcane == 1 else 0, 1 if arcane == 2 else 0)


@lru_cache(maxsize=256)
def _kind_states(die: CombatDie, n: int) -> tuple[tuple[Control, int, int, int, int], ...]:
    """Every multiset of `n` rolls of `die` as (control counts, hits, blocks, arcane, weight)."""
    tokens: dict[tuple[Control, Symbols], int] = {}
    for face in die.faces:
        key = (_control_of(face), face)
        tokens[key] = tokens.get(key, 0) + 1
    items = list(tokens.items())
    out: dict[tuple[Control, int, int, int], int] = {}

    def walk(i: int, left: int, nb: int, n1: int, n2: int, h: int, b: int, a: int, weight: int) -> None:
        ((cb, c1, c2), (fh, fb, fa)), w = items[i]
        last = i == len(items) - 1
        for c in (left,) if last else range(left + 1):
            args = (nb + c * cb, n1 + c * c1, n2 + c * c2, h + c * fh, b + c * fb, a + c * fa)
            mult = weight * math.comb(left, c) * w**c
            if last:
                key = ((args[0], args[1], args[2]), args[3], args[4], args[5])
                out[key] = out.get(key, 0) + mult
            else:
                walk(i + 1, left - c, *args, mult)

    walk(0, n, 0, 0, 0, 0, 0, 0, 1)
    return tuple((*key, w) for key, w in out.items())


@lru_cache(maxsize=256)
def _fresh(die: CombatDie, n: int, cap: int) -> Dist[Symbols]:
    """Symbols of `n` fresh rolls of `die`, arcane capped at `cap` (more cannot be used)."""
    weights: dict[Symbols, int] = {}
    for _, h, b, a, w in _kind_states(die, n):
        key = (h, b, min(a, cap))
        weights[key] = weights.get(key, 0) + w
    return Dist(weights)


def side_totals(side: Side) -> Dist[tuple[int, int]]:
    """Exact distribution of a side's final (hits, blocks) after rerolls and conversions.

    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> side = Side(((die, 1),), Modifiers(rerolls=1), ())
    >>> side_totals(side).probability((1, 0))
    Fraction(3, 4)
    """
    entries = [(die, n) for die, n in side.pool if n]
    mods = side.modifiers
    most_arcane = sum(n * max(f[2] for f in die.faces) for die, n in entries)
    cap = min(mods.arcane_to_hits + mods.arcane_to_blocks, most_arcane)
    order = kind_order([die for die, _ in entries], mods)
    packing = _layout(entries, mods.rerolls, cap)
    a_shift = packing.strides[0] * packing.bytes * 8
    groups: dict[tuple[int, ...], int] = {}
    for (controls, arcane), packed in _first_roll(entries, mods, side.reroll_policy, packing).items():
        rerolled, removed = reroll_choice(side.reroll_policy, controls, arcane, mods, order)
        kept_arcane = min(arcane - removed, cap)
        groups[rerolled] = groups.get(rerolled, 0) + (packed << (kept_arcane * a_shift))
    return _finish(groups, [die for die, _ in entries], packing, mods, cap)


MAX_STATES = 150_000
"""Most state pairs merged for one kind of die (a computing limit, met with many kinds and rerolls)."""


def _first_roll(entries: Sequence[tuple[CombatDie, int]], mods: Modifiers, policy: str,
                packing: Packing) -> dict[tuple[tuple[Control, ...], int], int]:
    """Joint states of the first roll by what the policy looks at, kinds merged one by one.

    A state is (decision tokens per kind, arcane showing); its hits and blocks travel packed in
    one big integer. Tokens are capped at the rerolls (no policy takes more dice of one kind),
    and arcane at conversions + 2 x rerolls (beyond it neither the decision nor the kept arcane
    changes), so states that cannot differ merge.

    Raises:
        ScenarioError: merging a kind would pair more than `MAX_STATES` states (about a second).
    """
    decides = mods.rerolls > 0 and policy != "none"
    most = (packing.shape[0] - 1) // 2 + 2 * mods.rerolls  # the conversions' cap + 2 x rerolls
    states: dict[tuple[tuple[Control, ...], int], int] = {((), 0): 1}
    for die, n in entries:
        merged: dict[tuple[tuple[Control, ...], int], int] = {}
        groups = _kind_groups(die, n, packing, decides, mods.rerolls)
        if len(states) * len(groups) > MAX_STATES:
            raise ScenarioError("pool", f"{len(entries)} kinds of dice rolled together with rerolls make more than "
                                        f"{MAX_STATES} states for the exact engine; roll fewer kinds together "
                                        "or fewer rerolls")
        for control, arcane, packed in groups:
            for (controls, total), weight in states.items():
                key = (controls + (control,), min(total + arcane, most))
                merged[key] = merged.get(key, 0) + weight * packed
        states = merged
    return states


def _layout(entries: Sequence[tuple[CombatDie, int]], rerolls: int, cap: int) -> Packing:
    """Slots for (arcane, hits, blocks): wide enough for every weight and every total.

    Kept dice plus fresh dice never exceed each die's best face; arcane is capped at `cap`
    on both; the weights never exceed the product of all rolls' totals.
    """
    top_h = sum(n * max(f[0] for f in die.faces) for die, n in entries)
    top_b = sum(n * max(f[1] for f in die.faces) for die, n in entries)
    bound = math.prod(len(die.faces) ** (n + min(n, rerolls)) for die, n in entries)
    return Packing((2 * cap + 1, top_h + 1, top_b + 1), bound.bit_length() + 1)


def _kind_groups(die: CombatDie, n: int, packing: Packing, decides: bool,
                 rerolls: int) -> list[tuple[Control, int, int]]:
    """`n` rolls of `die` as (decision tokens, arcane, packed hits-and-blocks distribution).

    Without a reroll to decide, the decision tokens are all zero and states differ by arcane only.
    """
    by_state: dict[tuple[Control, int], dict[tuple[int, int, int], int]] = {}
    for control, h, b, a, w in _kind_states(die, n):
        token = tuple(min(c, rerolls) for c in control) if decides else (0, 0, 0)
        cells = by_state.setdefault((token, a), {})
        cells[(0, h, b)] = cells.get((0, h, b), 0) + w
    return [(control, a, packing.pack(cells)) for (control, a), cells in by_state.items()]


def _finish(groups: dict[tuple[int, ...], int], dice: Sequence[CombatDie], packing: Packing,
            mods: Modifiers, cap: int) -> Dist[tuple[int, int]]:
    """Add each group's fresh rolls (a packed product), bring all to one denominator, convert."""
    fresh_of: dict[tuple[int, ...], Dist[Symbols]] = {}
    for rerolled in groups:
        fresh = Dist.single((0, 0, 0))
        for k, r in enumerate(rerolled):
            if r:
                fresh = fresh.combine(_fresh(dice[k], r, cap), lambda x, y: (x[0] + y[0], x[1] + y[1], min(x[2] + y[2], cap)))
        fresh_of[rerolled] = fresh
    common = math.lcm(*(f.total for f in fresh_of.values()))
    packed = 0
    for rerolled, kept in groups.items():
        fresh = fresh_of[rerolled]
        cells = (((a, h, b), w) for (h, b, a), w in fresh.items())
        packed += kept * packing.pack(cells) * (common // fresh.total)
    final: dict[tuple[int, int], int] = {}
    for (a, h, b), w in packing.unpack(packed).items():
        key = convert((h, b, min(a, cap)), mods)
        final[key] = final.get(key, 0) + w
    return Dist(final)
