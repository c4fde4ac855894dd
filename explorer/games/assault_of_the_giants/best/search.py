"""Best play on one side's roll (p.16), whichever path computes it: which dice to reroll (each once,
all at once), then the arcane split.

Two paths compute the same search, giving the same exact integers and the same choices: `roll`
with numpy, and `roll_pure` + `solve_pure` in plain Python (taken where numpy is missing, as in
the browser). Both lay a roll out as a *plan* and solve it, in many *contexts* at once (the
defender decides knowing the attacker's totals, p.17: one context per attacker total), into a
*search*; the advisors and the battle read them only through `Plan` and `Search`.

The search, by backward induction, exact:

* A roll is, per kind of die, a multiset of faces; a choice keeps a sub-multiset K and rerolls the
  rest. What a choice is worth depends only on the symbols K shows (its *kept sum*) and on how many
  dice of each kind are rerolled (its *move*).
* After the reroll, W(hits, blocks, arcane) is the best split of the arcane: x into 2 hits each
  (x <= arcane_to_hits), y into 1 block each (y <= arcane_to_blocks), x + y <= arcane; the rest is
  a miss. Among equal splits, the most to hits, then the most to blocks (the `combat.convert` rule).
  The final totals are (hits + 2x, blocks + y) plus the side's cards' flat hits and blocks (`shift`).
* G(kept sum, move) is W's expectation over a fresh roll of the move's dice.
* H(T) is the best G over the sub-multisets of T with at most `rerolls` dice removed, by the
  recursion H(T) = max(G(T kept whole), max over each face f in T of H(T - f)); a roll's best
  choice is H(roll). The states are the multisets of each size from ``dice - rerolls`` up.

Values are `best.values.Lex` integers; a *candidate* (move, kept sum) has a key that appends its
tie rank (fewest dice rerolled, then the largest kept (hits, blocks, arcane), then rerolling dice
of the earlier kinds), so the maximum key names the choice. Weights are integers: each roll weighs
its number of ordered outcomes, and a move's fresh roll is scaled to the common `Plan.scale`. A
move's expectation is one die's expectation applied once per rerolled die, each move from a move
with one die fewer (its parent), so the cost grows with the number of moves, not with their
outcomes (`costs.search_size` counts it before anything is built).

With two rounds of rerolls (the cards' after the Commands', p.16) this is the second round's
search, on every whole roll as the dice lie after the first; `two_rounds` chooses the first round
over it (its kept multisets are candidates of their own: the second round may reroll any die).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from explorer.games.assault_of_the_giants.rules.model import Symbols

__all__ = ["Kinds", "Kind", "Plan", "Search", "conversions"]

Kinds = tuple[tuple[tuple[Symbols, ...], int], ...]
"""Per kind of die: its faces (equally likely) and how many are rolled."""


def conversions(arcane: int, to_hits: int, to_blocks: int) -> tuple[tuple[int, int], ...]:
    """Every split (x to 2 hits, y to 1 block) of up to `arcane` arcane, least preferred first.

    >>> conversions(2, 1, 1)
    ((0, 0), (0, 1), (1, 0), (1, 1))
    """
    return tuple((x, y) for x in range(min(arcane, to_hits) + 1) for y in range(min(arcane - x, to_blocks) + 1))


class Kind(Protocol):
    """One kind of die in a plan."""

    @property
    def faces(self) -> tuple[Symbols, ...]:
        """Its distinct faces, sorted."""


class Plan(Protocol):
    """A side's roll laid out for best play (`roll.roll_plan`, `roll_pure.roll_plan`)."""

    @property
    def kinds(self) -> Sequence[Kind]:
        """The kinds of dice, in the pool's order (those with dice)."""

    @property
    def rerolls(self) -> int:
        """Rerolls usable: at most the number of dice."""

    @property
    def dims(self) -> tuple[int, int, int]:
        """Sizes of the (hits, blocks, arcane) grid: one more than the most a roll can show."""

    @property
    def moves(self) -> tuple[tuple[int, ...], ...]:
        """Dice rerolled per kind, for every allowed reroll."""

    @property
    def scale(self) -> int:
        """Common total weight of every move's fresh roll."""

    @property
    def total(self) -> int:
        """Ordered outcomes of a whole roll: the sum of `weights`."""

    @property
    def weights(self) -> tuple[int, ...]:
        """Ordered outcomes of each whole roll (`roll_states` order)."""

    def state(self, counts: Sequence[Sequence[int]]) -> int:
        """The state of a multiset given as counts of each distinct face, per kind."""

    def move_index(self, move: Sequence[int]) -> int:
        """Index of a move in `moves`."""

    def rank_of(self, candidate: int) -> int:
        """Tie rank of a candidate (move index * cells + kept cell): higher is preferred."""

    def roll_states(self) -> list[int]:
        """The states that are whole rolls."""

    def roll_counts(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per whole roll (`roll_states` order), per kind: how many dice show each distinct face."""


class Search(Protocol):
    """Best play on a side's roll in each context (`roll.solve_roll`, `roll_pure.solve_roll`)."""

    @property
    def plan(self) -> Plan:
        """The plan searched."""

    @property
    def shift(self) -> tuple[int, int]:
        """Flat (hits, blocks) added to every final total after the split (the side's cards)."""

    def expected_at(self, context: int, candidate: int) -> int:
        """Packed `scale`-weighted value of a candidate (move, kept sum) in a context."""

    def value_at(self, context: int, totals: tuple[int, int]) -> int:
        """The packed value of final (hits, blocks) in a context (the search's input)."""

    def choice_at(self, context: int, roll: int) -> int:
        """The candidate chosen for a whole roll (its index in `Plan.roll_states`)."""

    def removals(self, context: int, states: Sequence[int]) -> list[list[tuple[int, int]]]:
        """The dice best play rerolls from each roll (a state), as (kind, distinct face) pairs."""

    def chosen(self) -> tuple[list[list[int]], list[list[int]]]:
        """Per context, per whole roll: the candidate chosen, and its packed value (`choice_at`, `expected_at`)."""

    def value_grid(self) -> list[list[list[int]]]:
        """The packed values of the final totals, per context, ``[context][hits][blocks]`` (`value_at`)."""
