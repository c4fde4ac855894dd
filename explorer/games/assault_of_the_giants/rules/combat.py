"""Steps 1-4 of a battle for one side: roll, reroll, convert, record hits and blocks.

The rules of a decision are written twice, on purpose: `reroll_choice` reads a roll die by
die (the trace and the plain engine use it), and `POLICIES` states the same rules as passes
over counts for the core's exact engine (`explorer.core.engine.roll`), which `side_totals` calls.
The tests check that the two agree, and both against a brute-force enumeration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from explorer.core.dist import Dist
from explorer.core.engine import (
    MAX_WORK,
    NO_REROLLS,
    Conversion,
    CountPolicy,
    Pass,
    by_worth,
    roll_cost,
    roll_counts,
    roll_weight,
)
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.model import (
    CombatDie,
    FixedPolicy,
    Modifiers,
    Side,
    Symbols,
)

__all__ = ["modifiers_from_commands", "side_totals", "side_cost", "side_weight", "check_battle_cost", "convert", "reroll_choice",
           "split_rerolls", "kind_order", "POLICIES", "SYMBOLS", "conversions_of"]

Control = tuple[int, int, int]
"""Per kind of die: (blank dice, dice showing 1 arcane only, dice showing 2 arcane only)."""

Decision = tuple[tuple[int, ...], int]
"""Dice rerolled per kind, and arcane symbols those dice showed."""


def modifiers_from_commands(commands: Sequence[str], *, attacker: bool) -> Modifiers:
    """Rerolls and conversions given by the positions of face-up Command Cards (rulebook p.16).

    Rerolls = cards right of Leader; arcane-to-block = cards right of Magic;
    arcane-to-2-hits = cards left of Attack, for the attacker only (rulebook p.17).

    >>> modifiers_from_commands(["Leader", "Move", "Attack"], attacker=True)
    Modifiers(rerolls=2, arcane_to_hits=2, arcane_to_blocks=0, source='commands', card_rerolls=0)
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


_POLICIES: dict[FixedPolicy, Callable[[Sequence[Control], int, Modifiers, Sequence[int]], Decision]] = {
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


def reroll_choice(policy: FixedPolicy, controls: Sequence[Control], arcane: int, modifiers: Modifiers,
                  order: Sequence[int]) -> Decision:
    """Which dice a policy rerolls, given the roll's state.

    Args:
        policy: a policy that reads only the side's own roll (not ``best``).
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


def control_of(face: Symbols) -> tuple[int, int, int]:
    """A face as a decision token: (1,0,0) blank, (0,1,0) one arcane only, (0,0,1) two, else zeros."""
    hits, blocks, arcane = face
    if hits or blocks or arcane > 2:
        return (0, 0, 0)
    return (1 if arcane == 0 else 0, 1 if arcane == 1 else 0, 1 if arcane == 2 else 0)


SYMBOLS = ("hit", "block", "arcane")
"""Symbols of a combat die face, in the order of `Symbols`."""

_ARCANE = "arcane"
POLICIES: dict[FixedPolicy, CountPolicy] = {
    "misses": CountPolicy((Pass(), Pass(((_ARCANE, 1),), guard=_ARCANE), Pass(((_ARCANE, 2),), guard=_ARCANE)),
                          order=by_worth),
    "blanks": CountPolicy((Pass(),), order=by_worth),
    "none": NO_REROLLS,
}
"""The reroll policies on counts (`explorer.core.engine.roll`), equal to `reroll_choice` die by die:
blanks first, then dice showing only arcane the conversions cannot use (1 arcane before 2),
kinds by the worth of a fresh roll (`explorer.core.engine.roll.by_worth` is `kind_order`'s rule)."""


def conversions_of(modifiers: Modifiers) -> tuple[Conversion, Conversion]:
    """Step 3 as engine conversions: arcane to 2 hits first, then arcane to 1 block (p.16).

    >>> conversions_of(Modifiers(arcane_to_hits=1))[0]
    Conversion(source='arcane', gives=(('hit', 2),), limit=1)
    """
    return (Conversion(_ARCANE, (("hit", 2),), modifiers.arcane_to_hits),
            Conversion(_ARCANE, (("block", 1),), modifiers.arcane_to_blocks))


def side_totals(side: Side) -> Dist[tuple[int, int]]:
    """Exact distribution of a side's final (hits, blocks) after rerolls, conversions and cards.

    Computed by the core's count engine (`explorer.core.engine.roll.roll_counts`), cached by its inputs, on
    the side with its cards folded in (`cards.played`); the cards' rerolls are a second round, the
    policy applied again on the dice as the Command rerolls left them (`Modifiers.card_rerolls`), and
    the conversions come after both rounds; the cards' flat hits and blocks are then added to every
    total (before final totals, p.16-17).

    Raises:
        ScenarioError: the pool is too big for the exact engine (field ``pool`` or ``rerolls``).

    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> side = Side(((die, 1),), Modifiers(rerolls=1), ())
    >>> side_totals(side).probability((1, 0))
    Fraction(3, 4)
    >>> side_totals(Side(((die, 1),), Modifiers(rerolls=1, card_rerolls=1), ())).probability((1, 0))
    Fraction(7, 8)
    """
    side = played(side)
    with _card_field():
        totals = roll_counts(**_engine_request(side))
    pairs = cast(Dist[tuple[int, int]], totals)  # two symbols reported: pairs
    hits, blocks = card_shift(side)
    return pairs.map(lambda t: (t[0] + hits, t[1] + blocks)) if hits or blocks else pairs


@contextmanager
def _card_field() -> Iterator[None]:
    """The engine's refusal of a second round (``second_rerolls``) names the side's ``cards``, whose
    rerolls make that round."""
    try:
        yield
    except ScenarioError as error:
        if error.field != "second_rerolls":
            raise
        raise ScenarioError("cards", error.problem + ', or card_rerolls "with commands" (one round)') from None


def _engine_request(side: Side) -> dict[str, Any]:
    """The count engine's arguments for a side's roll, cards already played (`side_totals`, `side_cost`).

    The side's policy was checked where it was read (`battle.scenario`); a side playing ``best`` is a
    search over both sides' rolls (`best`), never a roll of its own.
    """
    policy = side.reroll_policy
    assert policy != "best", "a side playing best is resolved by best play, not by the count engine alone"
    return {"pool": tuple((die.faces, n) for die, n in side.pool), "symbols": SYMBOLS,
            "rerolls": side.modifiers.rerolls, "second_rerolls": side.modifiers.card_rerolls, "policy": POLICIES[policy],
            "conversions": conversions_of(side.modifiers), "report": SYMBOLS[:2]}


def side_cost(side: Side) -> int:
    """Estimated microseconds of `side_totals`, weighed before computing (`explorer.core.engine.roll.roll_cost`).

    Raises:
        ScenarioError: the roll alone is too big for the exact engine (``pool`` or ``rerolls``).
    """
    with _card_field():
        return roll_cost(**_engine_request(played(side)))


def side_weight(side: Side) -> int:
    """`side_cost`, a small pool weighed too (`explorer.core.engine.roll_weight`): for a budget of many
    battles together (a sweep, the row advisor), where small rolls add up.

    Raises:
        ScenarioError: the roll alone is too big for the exact engine (``pool`` or ``rerolls``).
    """
    with _card_field():
        return roll_weight(**_engine_request(played(side)))


def check_battle_cost(attacker: Side, defender: Side) -> None:
    """Refuse, before either side rolls, a battle whose two rolls together would pass the engine's
    limit (`explorer.core.engine.roll.MAX_WORK`, about 2 s), naming the costlier side's pool.

    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> check_battle_cost(Side(((die, 3),), Modifiers(), ()), Side(((die, 3),), Modifiers(), ()))
    """
    costs = {}
    for role, side in (("attacker", attacker), ("defender", defender)):
        try:
            costs[role] = side_cost(side)
        except ScenarioError as error:
            raise ScenarioError(f"{role}.{error.field}", error.problem) from None
    if sum(costs.values()) > MAX_WORK:
        role = max(costs, key=lambda r: costs[r])
        raise ScenarioError(f"{role}.pool", f"too big for the exact engine with the other side's roll (about "
                                            f"{costs['attacker'] / 1e6:.1f} s + {costs['defender'] / 1e6:.1f} s of "
                                            f"work estimated, limit {MAX_WORK / 1e6:.0f} s a battle); roll fewer "
                                            "dice or kinds of dice together, or use fewer rerolls")
