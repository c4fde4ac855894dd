"""The report's best-play summary: what best play reaches, against the same battle played by ``misses``.

Asked only when a side plays ``best`` (nothing is computed otherwise), and weighed first with the
battle itself (`costs.report_costs`): the baselines are battles too. Values come from each side's
damage distributions alone (`expected_values`): every term of a side's value tuple depends on the
damage dealt or on the damage taken (`best.values.dealt_table`), never on both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from explorer.core import backstop
from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants.battle.battle import BattleResult, resolve_battle
from explorer.games.assault_of_the_giants.best.costs import check_report
from explorer.games.assault_of_the_giants.best.values import dealt_table, stakes, taken_table
from explorer.games.assault_of_the_giants.rules.model import Battle, Side

__all__ = ["expected_values", "best_play_summary"]


def _expected(terms: Sequence[Sequence[int]], damage: Dist[int]) -> list[Fraction]:
    """Expected value of each row of `terms` (indexed by damage) over the damage's distribution."""
    outcomes = sorted(damage)
    weights = [w for _, w in sorted(damage.items())]
    return [Fraction(sum(w * row[d] for d, w in zip(outcomes, weights)), damage.total) for row in terms]


def expected_values(battle: Battle, result: BattleResult | None = None) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """Each side's expected value tuple (objective, net Ordning Points, dealt - taken) as the battle is played.

    Each value is a term of the damage dealt plus one of the damage taken
    (`best.values.dealt_table`), so the battle's own damage distributions give it exactly.

    Args:
        battle: the battle.
        result: its `resolve_battle`, when already resolved.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> side = Side(((hit, 1),), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> expected_values(Battle(side, side))["attacker"]
    (Fraction(2, 1), Fraction(0, 1), Fraction(0, 1))
    """
    result = result or resolve_battle(battle)
    to_dfn, to_atk = result.defender.damage_taken, result.attacker.damage_taken
    out = {}
    for role, dealt, taken in (("attacker", to_dfn, to_atk), ("defender", to_atk, to_dfn)):
        side: Side = getattr(battle, role)
        other: Side = battle.defender if role == "attacker" else battle.attacker
        mine = stakes(side, other, max(dealt), max(taken))
        by_dealt = _expected(dealt_table(mine), dealt)
        by_taken = _expected(taken_table(mine), taken)
        a, b, c = (x + y for x, y in zip(by_dealt, by_taken))
        out[role] = (a, b, c)
    return out


def best_play_summary(battle: Battle) -> dict[str, dict[str, Any]]:
    """Per side playing ``best``: its objective, the value reached, and its gain over ``misses``.

    The baseline is the same battle with that side's policy set to ``misses``, the other side
    unchanged (a best opponent answers the new play). Values are exact (``Fraction``) with floats
    beside them; ``relative_gain`` is the gain over the baseline's size (None when the baseline is 0).
    Nothing is computed when no side plays ``best``; otherwise the battle and its baselines are
    weighed first (`costs.report_costs`) and refused together past `MAX_SECONDS`.

    Raises:
        ScenarioError: the battle and its baselines are estimated too costly (naming a side's input).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 1)) * 3)  # "misses" keeps an arcane it can convert
    >>> mods = Modifiers(rerolls=1, arcane_to_blocks=1)
    >>> atk = Side(((coin, 1),), mods, (), reroll_policy="best", objective="damage")
    >>> dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> best_play_summary(Battle(atk, dfn))["attacker"]["gain"]
    Fraction(1, 4)
    """
    return {role: dict(entry) for role, entry in _summary(battle).items()}


@lru_cache(maxsize=16)
def _summary(battle: Battle) -> dict[str, dict[str, Any]]:
    roles = [role for role in ("attacker", "defender") if getattr(battle, role).reroll_policy == "best"]
    if not roles:
        return {}
    check_report(battle)
    with backstop.request():
        return _compute(battle, roles)


def _compute(battle: Battle, roles: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    reached = expected_values(battle)
    for role in roles:
        side: Side = getattr(battle, role)
        misses = replace(side, reroll_policy="misses")
        baseline_battle = replace(battle, attacker=misses) if role == "attacker" else replace(battle, defender=misses)
        backstop.check(f"{role}.reroll_policy", "the best-play summary")
        value, baseline = reached[role][0], expected_values(baseline_battle)[role][0]
        gain = value - baseline
        out[role] = {
            "objective": side.objective, "value": value, "value_float": float(value),
            "misses_value": baseline, "misses_value_float": float(baseline),
            "gain": gain, "gain_float": float(gain),
            "relative_gain": gain / abs(baseline) if baseline else None,
            "relative_gain_float": float(gain / abs(baseline)) if baseline else None,
        }
    return out
