"""Best play, exact: a side rerolls and converts to maximise its objective (reroll policy ``best``).

A side playing ``best`` rerolls whichever of its dice it likes (at most its rerolls, each die once,
all at once, p.16), then splits its arcane between its conversions, so as to maximise its
``objective`` (`model.OBJECTIVES`, scored by `values`), given how the other side plays.
The search itself is described in `search`. Rulings:

* Two rounds (p.16): a side whose Command Cards reroll and whose cards reroll in a second round
  (``card_rerolls: "second round"``, `costs.rounds_of`) chooses the second round knowing the
  first's results (at most the cards' rerolls, any die, one rerolled in the first round included),
  and the first to maximise the expectation of the best second round (`two_rounds`); conversions
  come after both. The second round breaks ties as one round does; the first round by the value,
  then the fewest dice rerolled, then the most (hits, blocks, arcane) kept, then the most dice
  rerolled of the kinds listed first, then keeping the dice whose counts of each distinct face
  (sorted), kind by kind in the pool's order, are lexicographically largest.

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

Cost: everything is weighed before it is built (`costs`: the searches, the grids joining the two
sides, their memory) and refused past about 2 s or 200 MB; a side's value is a term of the damage
dealt plus one of the damage taken, so the two sides are joined through their marginals, never
through a grid of all four totals (those are joined only for `best_joint`). The report's
best-play summary is `explorer.games.assault_of_the_giants.battle.best_summary`.

Two engines compute it, with the same exact integers and the same answers: `play_numpy` where
numpy imports, `play_pure` where it does not (the browser build). `chosen_engine` is the one place
that picks (`explorer.core.optional.accelerator`); everything here and in `advice` reads either
engine's answers through `search.Search`.
"""

from __future__ import annotations

from explorer.core.dist import Dist
from explorer.core.optional import accelerator
from explorer.games.assault_of_the_giants.best import play_numpy, play_pure
from explorer.games.assault_of_the_giants.best.costs import (
    MAX_SECONDS,
    battle_costs,
    check_costs,
    final_bounds,
    kinds_of,
    search_seconds,
)
from explorer.games.assault_of_the_giants.best.engine import Engine, Response, Searched, Solution, Totals4, stakes_pair
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult

__all__ = ["Response", "Solution", "Totals4", "chosen_engine", "attacker_solution", "defender_response", "best_joint",
           "best_result", "attacker_totals", "clear_caches", "best_joint_points", "MAX_SECONDS", "final_bounds",
           "kinds_of", "search_seconds"]


_stakes_pair = stakes_pair
"""`engine.stakes_pair`, by its former name here (tests/front/test_heavy_inputs.py reads it)."""


def chosen_engine() -> Engine:
    """The engine best play computes with: numpy's where it imports, else the pure-Python one.

    >>> from explorer.core.optional import pure_python
    >>> with pure_python():
    ...     chosen_engine().__name__
    'explorer.games.assault_of_the_giants.best.play_pure'
    """
    return play_numpy if accelerator("numpy") is not None else play_pure


def defender_response(battle: Battle) -> Response[Searched]:
    """The defender's best play against every attacker total (whatever policy the defender has).

    How the attacker rerolls changes nothing the defender answers (only its totals do), so the
    answer is shared by every attacker policy (a report's best-play summary asks for two).

    Raises:
        ScenarioError: the search is too big (``defender.pool`` or ``defender.rerolls``).
    """
    return chosen_engine().defender_response(battle)


def attacker_solution(battle: Battle) -> Solution[Searched]:
    """The attacker's best play against the defender's play (whatever policy the attacker has).

    Each value is a term of the damage dealt plus one of the damage taken (`values.dealt_table`),
    so it is weighed by the defender's blocks and hits apart: no grid of all four totals is built.

    Raises:
        ScenarioError: a search is too big (``attacker.pool``/``rerolls`` or the defender's).
    """
    return chosen_engine().attacker_solution(battle)


def attacker_totals(battle: Battle) -> Dist[tuple[int, int]]:
    """The attacker's final (hits, blocks) as it plays (best play searched if its policy is ``best``)."""
    return chosen_engine().attacker_totals(battle)


def best_joint(battle: Battle) -> Dist[Totals4]:
    """Joint distribution of (attacker hits, blocks, defender hits, blocks) with each side's play.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Side, Unit
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> atk = Side(((coin, 1),), Modifiers(rerolls=1), (), reroll_policy="best")
    >>> dfn = Side((), Modifiers(), (Unit("g", 1, 1, 2),))
    >>> best_joint(Battle(atk, dfn))
    Dist({(0, 0, 0, 0): 1, (1, 0, 0, 0): 3})
    """
    return chosen_engine().joint(battle)


def _damage_pairs(battle: Battle) -> Dist[tuple[int, int]]:
    """(damage to the defender, damage to the attacker) as the battle is played."""
    if "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy):
        return chosen_engine().damage_pairs(battle)
    return side_totals(battle.attacker).combine(side_totals(battle.defender),
                                                lambda a, d: (max(0, a[0] - d[1]), max(0, d[0] - a[1])))


def best_result(battle: Battle) -> BattleResult:
    """`resolve_battle` for a battle where a side plays best: every result from the two sides' totals.

    The whole battle is weighed first (`costs.battle_costs`, refused past `MAX_SECONDS`). The
    defender's totals, and the damage each side takes, are read per attacker total the defender
    answers (or, against its fixed policy, from the two sides' marginals): no grid of all four
    totals is built.

    Raises:
        ScenarioError: the battle is estimated too costly (naming the side's ``pool`` or ``rerolls``).
    """
    check_costs(battle_costs(battle), "best play")
    return chosen_engine().best_result(battle)


def best_joint_points(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint (attacker's, defender's) Ordning Points when a side plays best (`battle.joint_points`)."""
    atk_stakes, dfn_stakes = stakes_pair(battle)
    return _damage_pairs(battle).map(lambda d: (atk_stakes.earned[d[0]], dfn_stakes.earned[d[1]]))


def clear_caches() -> None:
    """Forget every cached result of best play, in both engines (for benchmarks that time a cold call)."""
    play_numpy.clear_caches()
    play_pure.clear_caches()
