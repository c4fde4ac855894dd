"""What best play's two engines share: the answers they give, each side's stakes, their refusals.

Best play joins the two sides' searches into a battle in one of two engines, `play_numpy` (numpy
arrays) or `play_pure` (plain Python, where numpy is missing): the same integers, the same
answers. `play` chooses one (`explorer.core.optional.accelerator`) and is the only module that
knows there are two; each engine offers what `Engine` lists and caches its own results.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Generic, Protocol, TypeVar

from explorer.core import backstop
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.costs import final_bounds
from explorer.games.assault_of_the_giants.best.search import Search
from explorer.games.assault_of_the_giants.best.two_rounds import TwoRounds
from explorer.games.assault_of_the_giants.best.values import Lex, Stakes, stakes
from explorer.games.assault_of_the_giants.rules.model import Battle
from explorer.games.assault_of_the_giants.rules.outcome import BattleResult

__all__ = ["Totals4", "Searched", "Response", "Solution", "Engine", "stakes_pair", "neutral", "searching"]

Totals4 = tuple[int, int, int, int]
"""(attacker hits, attacker blocks, defender hits, defender blocks)."""

Searched = Search | TwoRounds
"""A side's search: one round of rerolls (`search.Search`), or two (`two_rounds.TwoRounds`)."""

S = TypeVar("S", bound=Searched, covariant=True)


@dataclass(frozen=True, eq=False)
class Response(Generic[S]):
    """The defender's best answer to each attacker total it may face (p.17: it knows them).

    Context ``c`` answers the attacker's hits ``c // classes`` and blocks ``min(b, classes - 1)``:
    attacker blocks beyond the defender's most hits change nothing for it (`costs.defender_contexts`).

    >>> Response(None, Lex((0,), (1,), 0), classes=3, bounds=(4, 5)).context_of(2, 4)  # hits 2, blocks 4 -> class 2
    8
    """

    solved: S
    lex: Lex
    classes: int
    """Attacker block totals the defender tells apart."""
    bounds: tuple[int, int]
    """One more than the attacker's most final hits and blocks."""

    def context_of(self, hits: int, blocks: int) -> int:
        """The context answering the attacker's final (hits, blocks)."""
        return hits * self.classes + min(blocks, self.classes - 1)


@dataclass(frozen=True, eq=False)
class Solution(Generic[S]):
    """The attacker's best play against the defender's play (fixed, or its best answer)."""

    solved: S
    lex: Lex
    denominator: int
    """The values are this many times the expected value tuples (the defender's total weight)."""


class Engine(Protocol):
    """What each engine of best play offers (`play_numpy`, `play_pure`); `play` documents each."""

    def defender_response(self, battle: Battle) -> Response[Searched]:
        """The defender's best answers (`battle`'s attacker rerolls none: `neutral`)."""

    def attacker_solution(self, battle: Battle) -> Solution[Searched]:
        """The attacker's best play against the defender's play."""

    def attacker_totals(self, battle: Battle) -> Dist[tuple[int, int]]:
        """The attacker's final (hits, blocks) as it plays."""

    def joint(self, battle: Battle) -> Dist[Totals4]:
        """Joint distribution of both sides' final totals with each side's play."""

    def damage_pairs(self, battle: Battle) -> Dist[tuple[int, int]]:
        """(damage to the defender, damage to the attacker), a side playing ``best``."""

    def best_result(self, battle: Battle) -> BattleResult:
        """The battle's result, a side playing ``best`` (weighed by `play.best_result` first)."""

    def clear_caches(self) -> None:
        """Forget every cached result."""


def stakes_pair(battle: Battle) -> tuple[Stakes, Stakes]:
    """Both sides' stakes, for every damage either side can deal."""
    atk, dfn = battle.attacker, battle.defender
    most_atk, most_dfn = final_bounds(atk)[0] - 1, final_bounds(dfn)[0] - 1
    return stakes(atk, dfn, most_atk, most_dfn), stakes(dfn, atk, most_dfn, most_atk)


def neutral(battle: Battle) -> Battle:
    """The battle with the attacker rerolling none: what the defender's answers depend on.

    How the attacker rerolls changes nothing the defender answers (only its totals do), so the
    answers are shared by every attacker policy (a report's best-play summary asks for two).
    """
    atk = battle.attacker
    return battle if atk.reroll_policy == "none" else replace(battle, attacker=replace(atk, reroll_policy="none"))


@contextmanager
def searching(role: str) -> Iterator[None]:
    """A side's search: the backstop checked first, a refusal inside naming the side's input (``defender.pool``)."""
    try:
        backstop.check(f"{role}.pool", f"the {role}'s best play")
        yield
    except ScenarioError as error:
        raise ScenarioError(error.field if "." in error.field else f"{role}.{error.field}", error.problem) from None
