"""Assault of the Giants on the game-agnostic pool engine (`tests.core.pool_oracle`).

The game's reroll policies are registered there by name (``aotg-misses``, ``aotg-blanks``) as
count policies (`combat.POLICIES`), so any pool of symbol dice can use them with the fast count
engine, and a side converts to the engine's terms with `side_as_pool`. `by_faces` reads the same
rules die by die (`combat.reroll_choice`) for the plain multiset engine; the tests check that
the two agree.
"""

from __future__ import annotations

from typing import Any, cast

from explorer.games.assault_of_the_giants.rules.combat import (
    POLICIES,
    SYMBOLS,
    conversions_of,
    kind_order,
    reroll_choice,
    split_rerolls,
)
from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Side, Symbols
from tests.core.dice_oracle import Die, Face
from tests.core.pool_oracle import Conversion, KindState, PoolRoll, RerollPolicy, register_policy

__all__ = ["SYMBOLS", "side_as_pool", "modifiers_of", "by_faces"]

_BLANK, _ONE, _TWO = Face(), Face.of(arcane=1), Face.of(arcane=2)


def modifiers_of(rerolls: int, conversions: tuple[Conversion, ...]) -> Modifiers:
    """The game's modifiers from engine conversions (arcane to 2 hits, arcane to 1 block).

    >>> modifiers_of(1, (Conversion("arcane", (("hit", 2),), 2),)).arcane_to_hits
    2
    """
    to_hits = sum(c.limit for c in conversions if c.source == "arcane" and dict(c.gives).get("hit"))
    to_blocks = sum(c.limit for c in conversions if c.source == "arcane" and dict(c.gives).get("block"))
    return Modifiers(rerolls, to_hits, to_blocks)


def by_faces(name: str) -> RerollPolicy:
    """The policy `name` ("misses" or "blanks") read on a roll's faces with `reroll_choice`.

    >>> from tests.core.pool_oracle import roll_multisets
    >>> die = Die("d", (Face.of(hit=1),) + (Face(),) * 5)
    >>> roll_multisets([(die, 1)], SYMBOLS, rerolls=1, policy=by_faces("blanks")).probability((1, 0, 0))
    Fraction(11, 36)
    """
    def choose(roll: PoolRoll) -> tuple[KindState, ...]:
        mods = modifiers_of(roll.rerolls, roll.conversions)
        dice = [CombatDie(d.name, tuple(cast(Symbols, tuple(f.count(s) for s in SYMBOLS)) for f in d.faces))
                for d in roll.dice]
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


for _name, _policy in POLICIES.items():
    if _name != "none":
        register_policy(f"aotg-{_name}", _policy)


def side_as_pool(side: Side, *, faces: bool = False) -> dict[str, Any]:
    """Keyword arguments of `tests.core.pool_oracle.roll_pool` for one side's roll.

    With ``faces=True`` the policy is `by_faces` (for `tests.core.pool_oracle.roll_multisets`).

    >>> from tests.core.pool_oracle import roll_pool
    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> args = side_as_pool(Side(((die, 1),), Modifiers(rerolls=1), ()))
    >>> roll_pool(**args).probability((1, 0, 0))
    Fraction(3, 4)
    """
    pool = [(Die(die.name, tuple(Face.from_mapping(dict(zip(SYMBOLS, f))) for f in die.faces)), n)
            for die, n in side.pool if n]
    name = side.reroll_policy
    policy: Any = "none" if name == "none" else by_faces(name) if faces else f"aotg-{name}"
    return {"pool": pool, "symbols": SYMBOLS, "rerolls": side.modifiers.rerolls, "policy": policy,
            "conversions": conversions_of(side.modifiers)}
