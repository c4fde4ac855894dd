"""Summary tables (pandas) of a battle result: the numbers people ask for first."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from explorer.games.assault_of_the_giants.battle.battle import BattleResult, SideResult
from explorer.scenario.stats import Headline, headline

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["summary_rows", "summary_frame", "compare_frame", "battle_headline", "HEADLINE_SIDE"]

HEADLINE_SIDE = "defender"
"""Whose damage taken a battle's headline gives first: the defender's, what the attack does (p.17)."""


def battle_headline(result: BattleResult, side: str = HEADLINE_SIDE) -> Headline:
    """The headline numbers of the damage `side` (``"attacker"`` or ``"defender"``) takes (p.17):
    mean, standard deviation, median, at least / at most k.

    >>> from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
    >>> r = resolve_battle(parse_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 3, "ordning_value": 2}]}}))
    >>> h = battle_headline(r)
    >>> h.of, h.mean, h.at_least[1]
    ('damage taken by the defender', Fraction(2, 3), Fraction(1, 2))
    """
    taken = (result.attacker if side == "attacker" else result.defender).damage_taken
    return headline(taken, f"damage taken by the {side}")


def summary_rows(result: BattleResult, k: int = 3) -> dict[str, dict[str, Fraction]]:
    """Per side: expected hits, blocks, damage taken, the chance of k or more damage taken, wiped out, Ordning Points
    (the damage taken is the headline, `battle_headline`).

    >>> from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
    >>> r = resolve_battle(parse_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": [{"fortitude": 1, "ordning_value": 2}]}}))
    >>> summary_rows(r)["defender"]["chance wiped out"]
    Fraction(1, 2)
    """
    def row(side: SideResult) -> dict[str, Fraction]:
        return {
            "expected hits": side.hits.mean(),
            "expected blocks": side.blocks.mean(),
            "expected damage taken": side.damage_taken.mean(),
            f"chance of {k} or more damage taken": side.damage_taken.at_least(k),
            "chance wiped out": side.wiped_out(),
            "expected Ordning Points earned": side.ordning_points.mean(),
        }

    return {"attacker": row(result.attacker), "defender": row(result.defender)}


def summary_frame(result: BattleResult, k: int = 3) -> pd.DataFrame:
    """`summary_rows` as a float table, one row per side."""
    import pandas as pd

    rows = summary_rows(result, k)
    return pd.DataFrame({side: {q: float(v) for q, v in values.items()} for side, values in rows.items()}).T


def compare_frame(pinned: BattleResult, current: BattleResult, k: int = 3) -> pd.DataFrame:
    """Side by side: A (pinned), B (current) and B - A for every summary number."""
    import pandas as pd

    a, b = summary_rows(pinned, k), summary_rows(current, k)
    records = [{"side": side, "quantity": q, "A (pinned)": float(a[side][q]), "B (current)": float(b[side][q]),
                "B - A": float(b[side][q] - a[side][q])} for side in a for q in a[side]]
    return pd.DataFrame(records).set_index(["side", "quantity"])
