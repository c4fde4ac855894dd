"""Assault of the Giants on the game-agnostic pool engine (`explorer.pools`).

The game's reroll policies are registered there by name (``aotg-misses``, ``aotg-blanks``),
so any pool of symbol dice can use them, and a side converts to the engine's terms with
`side_as_pool`. The fast path (`combat.side_totals`) must give the same distribution; the tests
check it on random sides.
"""

from __future__ import annotations

from typing import Any

from explorer.dice import Die, Face
from explorer.games.assault_of_the_giants.combat import kind_order, reroll_choice, split_rerolls
from explorer.games.assault_of_the_giants.model import CombatDie, Modifiers, Side
from explorer.pools import Conversion, KindState, PoolRoll, register_policy

__all__ = ["SYMBOLS", "side_as_pool", "modifiers_of"]

SYMBOLS = ("hit", "block", "arcane")

_BLANK, _ONE, _TWO = Face(), Face.of(arcane=1), Face.of(arcane=2)


def modifiers_of(rerolls: int, conversions: tuple[Conversion, ...]) -> Modifiers:
    """The game's modifiers from engine conversions (arcane to 2 hits, arcane to 1 block).

    >>> modifiers_of(1, (Conversion("arcane", (("hit", 2),), 2),)).arcane_to_hits
    2
    """
    to_hits = sum(c.limit for c in conversions if c.source == "arcane" and dict(c.gives).get("hit"))
    to_blocks = sum(c.limit for c in conversions if c.source == "arcane" and dict(c.gives).get("block"))
    return Modifiers(rerolls, to_hits, to_blocks)


def _policy(name: str):  # type: ignore[no-untyped-def]
    def choose(roll: PoolRoll) -> tuple[KindState, ...]:
        mods = modifiers_of(roll.rerolls, roll.conversions)
        dice = [CombatDie(d.name, tuple(tuple(f.count(s) for s in SYMBOLS) for f in d.faces)) for d in roll.dice]
        counts = [dict(state) for state in roll.state]
        controls = [(c.get(_BLANK, 0), c.get(_ONE, 0), c.get(_TWO, 0)) for c in counts]
        arcane = sum(face.count("arcane") * n for state in roll.state for face, n in state)
        rerolled, _ = reroll_choice(name, controls, arcane, mods, kind_order(dice, mods))
        taken = []
        for control, r in zip(controls, rerolled):
            split = zip((_BLANK, _ONE, _TWO), split_rerolls(control, r))
            taken.append(tuple((face, n) for face, n in split if n))
        return tuple(taken)

    return choose


for _name in ("misses", "blanks"):
    register_policy(f"aotg-{_name}", _policy(_name))


def side_as_pool(side: Side) -> dict[str, Any]:
    """Keyword arguments of `explorer.pools.roll_pool` for one side's roll.

    >>> from explorer.pools import roll_pool
    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> args = side_as_pool(Side(((die, 1),), Modifiers(rerolls=1), ()))
    >>> roll_pool(**args).probability((1, 0, 0))
    Fraction(3, 4)
    """
    mods = side.modifiers
    pool = [(Die(die.name, tuple(Face.from_mapping(dict(zip(SYMBOLS, f))) for f in die.faces)), n)
            for die, n in side.pool if n]
    conversions = (Conversion("arcane", (("hit", 2),), mods.arcane_to_hits),
                   Conversion("arcane", (("block", 1),), mods.arcane_to_blocks))
    policy = "none" if side.reroll_policy == "none" else f"aotg-{side.reroll_policy}"
    return {"pool": pool, "symbols": SYMBOLS, "rerolls": mods.rerolls, "policy": policy, "conversions": conversions}
