"""Best play, exact: a side rerolls and converts to maximise its objective (reroll policy ``best``).

A side playing ``best`` rerolls whichever of its dice it likes (at most its rerolls, each die once,
all at once, p.16), then splits its arcane between its conversions, so as to maximise its
``objective`` (`rules.model.OBJECTIVES`, scored by `best.values`), given how the other side plays.
The search itself is `best.roll`. Rulings:

* Order of play (p.17): the attacker records its totals before the defender rolls, so a defender
  playing ``best`` answers knowing the attacker's final hits and blocks; an attacker playing
  ``best`` weighs each of its totals by what the defender will then do (its fixed policy, or its
  best answer to those totals). With a best defender the two sides' totals are no longer
  independent: the battle is resolved on their joint distribution (`best_joint`).
* Ties: a side indifferent between choices for its objective prefers, in order, the higher
  expected net Ordning Points (earned minus conceded), then the higher expected damage dealt minus
  damage taken, then the fewest dice rerolled, then the most (hits, blocks, arcane) kept, then
  rerolling dice of the kinds listed first; among equal arcane splits, the most arcane to hits,
  then the most to blocks. A side's later preferences matter to its opponent when the two
  objectives differ, so they are part of the rules of the search, not an accident of it.
* A side playing any other policy keeps it (`combat.side_totals`); only the sides playing
  ``best`` are searched.
* Cards (p.16-17): the search plays each side with its cards folded in (`cards.played`): their
  dice are rolled, their rerolls and conversions are used with the Commands', and their flat hits
  and blocks are added to every final total, so the values scored see the totals recorded.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.roll import Kinds, Solved, roll_plan, search_size, solve_roll
from explorer.games.assault_of_the_giants.best.values import INT64_SAFE, Lex, Stakes, components, stakes, value_tuple
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, Side
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult, SideResult, losses, rewards

__all__ = ["Response", "Solution", "attacker_solution", "defender_response", "best_joint", "joint_grid",
           "best_result",
           "best_joint_points", "expected_values", "best_play_summary", "MAX_SECONDS", "final_bounds", "kinds_of",
           "search_seconds"]

Totals4 = tuple[int, int, int, int]
"""(attacker hits, attacker blocks, defender hits, defender blocks)."""

MAX_SECONDS = 2.0
"""Longest best-play search accepted, estimated up front (`search_seconds`)."""

NS_PER_LINK = (300, 15)
"""Measured cost of one state link (`best.roll.search_size`), in nanoseconds: one context (the attacker,
values held as Python integers), and per context of many (the defender's answers, 64-bit integers)."""


def kinds_of(side: Side) -> Kinds:
    """A side's pool, its cards' dice included, as the search's kinds: (faces, count) per kind of die."""
    return tuple((die.faces, n) for die, n in played(side).pool)


def final_bounds(side: Side) -> tuple[int, int]:
    """One more than the most final hits and blocks the side can record (the search's final grid).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers
    >>> die = CombatDie("d", ((2, 0, 0), (0, 1, 1)) * 3)
    >>> final_bounds(Side(((die, 2),), Modifiers(arcane_to_hits=1), ()))
    (7, 3)
    """
    side = played(side)
    total = [sum(n * max(f[j] for f in die.faces) for die, n in side.pool if n) for j in range(3)]
    mods, (hits, blocks) = side.modifiers, card_shift(side)
    return (total[0] + 2 * min(total[2], mods.arcane_to_hits) + hits + 1,
            total[1] + min(total[2], mods.arcane_to_blocks) + blocks + 1)


def search_seconds(side: Side, contexts: int, rerolls: int | None = None) -> float:
    """Estimated seconds of a side's best-play search over `contexts` opponent totals.

    >>> from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> side = Side(((DEFAULT_DICE["basic"], 5),), Modifiers(rerolls=3), ())
    >>> 0.001 < search_seconds(side, 1) < 0.1
    True
    """
    size = search_size(kinds_of(side), played(side).modifiers.rerolls if rerolls is None else rerolls)
    return size * (NS_PER_LINK[0] if contexts == 1 else NS_PER_LINK[1] * contexts) * 1e-9


def _check(side: Side, role: str, contexts: int) -> None:
    """Refuse, before searching, a best-play search estimated above `MAX_SECONDS`."""
    seconds = search_seconds(side, contexts)
    if seconds <= MAX_SECONDS:
        return
    field = "rerolls" if search_seconds(side, contexts, min(1, played(side).modifiers.rerolls)) <= MAX_SECONDS else "pool"
    per = f", answering {contexts} attacker totals" if contexts > 1 else ""
    raise ScenarioError(f"{role}.{field}", f"best play would take about {seconds:.0f} s to search every "
                        f"choice of rerolls{per}, over the limit of {MAX_SECONDS:.0f} s: "
                        f"use fewer {'rerolls' if field == 'rerolls' else 'dice'} or another reroll policy")


@dataclass(frozen=True, eq=False)
class Response:
    """The defender's best answer to each attacker total it may face (p.17: it knows them)."""

    solved: Solved
    lex: Lex
    context: np.ndarray
    """Index into the solution's contexts of each attacker (hits, blocks), shape = attacker final grid."""

    def totals(self, attacker: tuple[int, int]) -> np.ndarray:
        """Weights of the defender's final (hits, blocks) when the attacker recorded `attacker`."""
        return self.solved.final[self.context[attacker]]  # type: ignore[no-any-return]


@dataclass(frozen=True, eq=False)
class Solution:
    """The attacker's best play against the defender's play (fixed, or its best answer)."""

    solved: Solved
    lex: Lex
    denominator: int
    """The values are this many times the expected value tuples (the defender's total weight)."""


def _stakes_pair(battle: Battle) -> tuple[Stakes, Stakes]:
    """Both sides' stakes, for every damage either side can deal."""
    atk, dfn = battle.attacker, battle.defender
    most_atk, most_dfn = final_bounds(atk)[0] - 1, final_bounds(dfn)[0] - 1
    return stakes(atk, dfn, most_atk, most_dfn), stakes(dfn, atk, most_dfn, most_atk)


@lru_cache(maxsize=16)
def defender_response(battle: Battle) -> Response:
    """The defender's best play against every attacker total (whatever policy the defender has).

    Raises:
        ScenarioError: the search is too big (``defender.pool`` or ``defender.rerolls``).
    """
    atk, dfn = battle.attacker, battle.defender
    _, dfn_stakes = _stakes_pair(battle)
    ha, ba = (np.arange(n) for n in final_bounds(atk))
    hd, bd = (np.arange(n) for n in final_bounds(dfn))
    values = components(dfn_stakes, hd[None, None, :, None], bd[None, None, None, :],
                        ha[:, None, None, None], ba[None, :, None, None])  # (3, ha, ba, hd, bd)
    flat = values.transpose(1, 2, 0, 3, 4).reshape(len(ha) * len(ba), -1)
    unique, inverse = np.unique(flat, axis=0, return_inverse=True)
    _check(dfn, "defender", len(unique))
    dfn = played(dfn)
    plan = roll_plan(kinds_of(dfn), dfn.modifiers.rerolls)
    per_context = unique.reshape(len(unique), 3, len(hd), len(bd)).transpose(1, 0, 2, 3)
    lex = Lex.fit(per_context, plan.scale)
    solved = solve_roll(plan, dfn.modifiers.arcane_to_hits, dfn.modifiers.arcane_to_blocks, lex.pack(per_context),
                        card_shift(dfn))
    return Response(solved, lex, inverse.reshape(len(ha), len(ba)))


def _dense(dist: Dist[tuple[int, int]], bounds: tuple[int, int]) -> np.ndarray:
    """A (hits, blocks) distribution as a weight grid (Python ints)."""
    grid = np.zeros(bounds, dtype=object)
    for (h, b), w in dist.items():
        grid[h, b] = w
    return grid


def _defender_grids(battle: Battle) -> tuple[np.ndarray, int]:
    """Weights of the defender's final totals for each attacker total, shape (ha, ba, hd, bd), and their total."""
    atk, dfn = battle.attacker, battle.defender
    bounds = final_bounds(atk)
    if dfn.reroll_policy == "best":
        response = defender_response(battle)
        return response.solved.final[response.context], response.solved.plan.total * response.solved.plan.scale
    fixed = side_totals(dfn)
    grid = _dense(fixed, final_bounds(dfn))
    return np.broadcast_to(grid, bounds + grid.shape), fixed.total


@lru_cache(maxsize=16)
def attacker_solution(battle: Battle) -> Solution:
    """The attacker's best play against the defender's play (whatever policy the attacker has).

    Raises:
        ScenarioError: a search is too big (``attacker.pool``/``rerolls`` or the defender's).
    """
    atk, dfn = battle.attacker, battle.defender
    _check(atk, "attacker", 1)
    atk_stakes, _ = _stakes_pair(battle)
    grids, denominator = _defender_grids(battle)
    ha, ba = (np.arange(n) for n in final_bounds(atk))
    hd, bd = (np.arange(n) for n in final_bounds(dfn))
    per_total = components(atk_stakes, ha[:, None, None, None], ba[None, :, None, None],
                           hd[None, None, :, None], bd[None, None, None, :])
    small = denominator * max(1, int(np.abs(per_total).max())) < INT64_SAFE
    kind: Any = np.int64 if small else object
    values = (per_total.astype(kind) * grids.astype(kind)[None]).sum(axis=(3, 4))  # (3, ha, ba)
    atk = played(atk)
    plan = roll_plan(kinds_of(atk), atk.modifiers.rerolls)
    lex = Lex.fit(values[:, None], plan.scale)
    solved = solve_roll(plan, atk.modifiers.arcane_to_hits, atk.modifiers.arcane_to_blocks, lex.pack(values[:, None]),
                        card_shift(atk))
    return Solution(solved, lex, denominator)


@lru_cache(maxsize=32)
def joint_grid(battle: Battle) -> np.ndarray:
    """Weights of (attacker hits, blocks, defender hits, blocks), a 4-d grid, with each side's play."""
    atk = battle.attacker
    if atk.reroll_policy == "best":
        solved = attacker_solution(battle).solved
        attacker, atk_total = solved.final[0], solved.plan.total * solved.plan.scale
    else:
        fixed = side_totals(atk)
        attacker, atk_total = _dense(fixed, final_bounds(atk)), fixed.total
    defender, dfn_total = _defender_grids(battle)
    kind: Any = np.int64 if atk_total * dfn_total < INT64_SAFE else object
    return attacker.astype(kind)[:, :, None, None] * defender.astype(kind)  # type: ignore[no-any-return]


def _dist_of(grid: np.ndarray) -> Dist[Any]:
    """The distribution of a weight grid's indices (a 1-d grid gives plain integers)."""
    where = np.nonzero(grid)
    keys = list(zip(*(w.tolist() for w in where))) if grid.ndim > 1 else where[0].tolist()
    return Dist.of_counts(dict(zip(keys, (int(w) for w in grid[where]))))


def _damage_grid(grid: np.ndarray) -> np.ndarray:
    """Weights of (damage to the defender, damage to the attacker) from the 4-d grid of totals."""
    ha, ba, hd, bd = (np.arange(n).reshape([-1 if j == i else 1 for j in range(4)]) for i, n in enumerate(grid.shape))
    to_dfn, to_atk = np.maximum(0, ha - bd), np.maximum(0, hd - ba)
    out = np.zeros((grid.shape[0], grid.shape[2]), dtype=grid.dtype)
    np.add.at(out, (np.broadcast_to(to_dfn, grid.shape), np.broadcast_to(to_atk, grid.shape)), grid)
    return out


def best_joint(battle: Battle) -> Dist[Totals4]:
    """Joint distribution of (attacker hits, blocks, defender hits, blocks) with each side's play.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> atk = Side(((coin, 1),), Modifiers(rerolls=1), (), reroll_policy="best")
    >>> dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> best_joint(Battle(atk, dfn))
    Dist({(0, 0, 0, 0): 1, (1, 0, 0, 0): 3})
    """
    return _dist_of(joint_grid(battle))


def _damage_pairs(battle: Battle) -> Dist[tuple[int, int]]:
    """(damage to the defender, damage to the attacker) as the battle is played."""
    if "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy):
        return _dist_of(_damage_grid(joint_grid(battle)))
    return side_totals(battle.attacker).combine(side_totals(battle.defender),
                                                lambda a, d: (max(0, a[0] - d[1]), max(0, d[0] - a[1])))


def best_result(battle: Battle) -> BattleResult:
    """`resolve_battle` for a battle where a side plays best: every result from the joint totals."""
    atk, dfn = battle.attacker, battle.defender
    grid = joint_grid(battle)
    damage = _damage_grid(grid)
    to_dfn, to_atk = _dist_of(damage.sum(axis=1)), _dist_of(damage.sum(axis=0))
    atk_losses, dfn_losses = losses(atk, dfn, to_atk), losses(dfn, atk, to_dfn)
    return BattleResult(
        battle,
        SideResult(_dist_of(grid.sum(axis=(2, 3))), to_atk, *rewards(dfn_losses, dfn, atk), atk_losses),
        SideResult(_dist_of(grid.sum(axis=(0, 1))), to_dfn, *rewards(atk_losses, atk, dfn), dfn_losses),
    )


def best_joint_points(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint (attacker's, defender's) Ordning Points when a side plays best (`battle.joint_points`)."""
    atk_stakes, dfn_stakes = _stakes_pair(battle)
    return _damage_pairs(battle).map(lambda d: (atk_stakes.earned[d[0]], dfn_stakes.earned[d[1]]))


def expected_values(battle: Battle) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    """Each side's expected value tuple (objective, net Ordning Points, dealt - taken) as the battle is played.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> hit = CombatDie("hit", ((1, 0, 0),) * 6)
    >>> side = Side(((hit, 1),), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> expected_values(Battle(side, side))["attacker"]
    (Fraction(2, 1), Fraction(0, 1), Fraction(0, 1))
    """
    atk_stakes, dfn_stakes = _stakes_pair(battle)
    damage = _damage_pairs(battle)
    out = {}
    for role, mine, index in (("attacker", atk_stakes, 0), ("defender", dfn_stakes, 1)):
        totals = [0, 0, 0]
        for d, w in damage.items():
            for j, v in enumerate(value_tuple(mine, d[index], d[1 - index])):
                totals[j] += w * v
        out[role] = (Fraction(totals[0], damage.total), Fraction(totals[1], damage.total),
                     Fraction(totals[2], damage.total))
    return out


def best_play_summary(battle: Battle) -> dict[str, dict[str, Any]]:
    """Per side playing ``best``: its objective, the value reached, and its gain over ``misses``.

    The baseline is the same battle with that side's policy set to ``misses``, the other side
    unchanged (a best opponent answers the new play). Values are exact (``Fraction``) with floats
    beside them; ``relative_gain`` is the gain over the baseline's size (None when the baseline is 0).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 1)) * 3)  # "misses" keeps an arcane it can convert
    >>> mods = Modifiers(rerolls=1, arcane_to_blocks=1)
    >>> atk = Side(((coin, 1),), mods, (), reroll_policy="best", objective="damage")
    >>> dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> best_play_summary(Battle(atk, dfn))["attacker"]["gain"]
    Fraction(1, 4)
    """
    out: dict[str, dict[str, Any]] = {}
    reached = expected_values(battle)
    for role in ("attacker", "defender"):
        side: Side = getattr(battle, role)
        if side.reroll_policy != "best":
            continue
        misses = replace(side, reroll_policy="misses")
        baseline_battle = replace(battle, attacker=misses) if role == "attacker" else replace(battle, defender=misses)
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
