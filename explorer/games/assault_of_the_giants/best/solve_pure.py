"""Best play on one side's roll without numpy, the search itself: `roll.solve_roll` in plain Python.

Given a `roll_pure.PurePlan`, the same backward induction as `roll.solve_roll` (see `search`),
giving the same exact integers and the same choices: the best split after the reroll at every
cell reached (`_terminal`), each move's expectation one fresh die at a time (`_pull`), only at the
cells some state's candidate needs, the best key over each state's sub-multisets (`_choose`),
then the final totals each roll's choice leads to (`finals_pure`).

Contexts run side by side: a cell holds one integer per context (a list), so the work per cell is
a C loop (``map``) over the contexts. Contexts whose values differ by a constant make the same
choices (every expectation is over the same number of outcomes, `PurePlan.sources`), so each such
group is searched once (`_distinct`) and its members read its answers, shifted by the constant.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import add

from explorer.core.backstop import check
from explorer.games.assault_of_the_giants.best.finals_pure import finals
from explorer.games.assault_of_the_giants.best.roll_pure import PurePlan, paused_gc, roll_plan
from explorer.games.assault_of_the_giants.best.search import conversions

__all__ = ["PureSolved", "solve_roll", "roll_plan"]

Vector = list[int]
"""One integer per context searched."""

Values = Sequence[Sequence[Sequence[int]]]
"""Packed values of the final totals: ``values[hits][blocks][context]``."""


@dataclass(frozen=True, eq=False)
class PureSolved:
    """Best play on a side's roll in each context (`roll.Solved`, held as lists). Built by `solve_roll`."""

    plan: PurePlan
    values: Values
    """The packed values searched for (`solve_roll`'s input)."""
    group: tuple[int, ...]
    """Per context, the group of contexts searched as one (`_distinct`) it belongs to..."""
    offset: tuple[int, ...]
    """... and how much its values exceed that group's first context's."""
    splits: tuple[tuple[int, int], ...]
    split: dict[int, Vector]
    """Index in `splits` of the best split at each (hits, blocks, arcane) cell reached, per group."""
    pulled: tuple[dict[int, Vector], ...]
    """Per move, per cell needed: the sum of the values after the move's fresh dice, per group
    (weights: ordered outcomes; times ``scale // powers[move]`` it is the expectation)."""
    choices: tuple[tuple[int, ...], ...]
    """Per group, the candidate chosen for each whole roll (`PurePlan.rolls` order)."""
    finals: tuple[dict[tuple[int, int], int], ...]
    """Per group, the weights of the final (hits, blocks); each totals ``plan.total * plan.scale``."""
    shift: tuple[int, int] = (0, 0)
    memo: dict[tuple[int, tuple[int, ...]], list[list[tuple[int, int]]]] = field(default_factory=dict, repr=False)
    """`removals` already walked, per (group, states)..."""
    walks: list[tuple[list[Vector], dict[int, Vector]]] = field(default_factory=list, repr=False)
    """... and what they walk on, once worked out: every state's best key and every candidate's key."""

    @property
    def total_weight(self) -> int:
        """What the weights of each context's final totals sum to: ``plan.total * plan.scale``."""
        return self.plan.total * self.plan.scale

    @property
    def final(self) -> tuple[dict[tuple[int, int], int], ...]:
        """Per context, the weights of the final (hits, blocks) (shared by a group's contexts: read only)."""
        return tuple(self.finals[g] for g in self.group)

    def expected_at(self, context: int, candidate: int) -> int:
        """Packed `scale`-weighted value of a candidate in a context."""
        move, cell = divmod(candidate, self.plan.cells)
        pulled = self.pulled[move][cell][self.group[context]]
        return pulled * (self.plan.scale // self.plan.powers[move]) + self.offset[context] * self.plan.scale

    def value_at(self, context: int, totals: tuple[int, int]) -> int:
        """The packed value of final (hits, blocks) in a context."""
        return self.values[totals[0]][totals[1]][context]

    def chosen(self) -> tuple[list[list[int]], list[list[int]]]:
        """Per context, per whole roll: the candidate chosen, and its packed value (`two_rounds`)."""
        choices = [list(self.choices[g]) for g in self.group]
        return choices, [[self.expected_at(c, g) for g in row] for c, row in enumerate(choices)]

    def value_grid(self) -> list[list[list[int]]]:
        """The packed values of the final totals, per context, ``[context][hits][blocks]``."""
        return [[[cell[c] for cell in row] for row in self.values] for c in range(len(self.group))]

    def choice_at(self, context: int, roll: int) -> int:
        """The candidate chosen for a whole roll."""
        return self.choices[self.group[context]][roll]

    def removals(self, context: int, states: Sequence[int]) -> list[list[tuple[int, int]]]:
        """The dice best play rerolls from each roll (a state), as (kind, distinct face) pairs (`roll.Solved.removals`).

        One of the equally good sub-multisets when several give the same kept sum and move: from the
        roll, while some sub-multiset beats keeping the state whole, the first die (in `link_faces`
        order) whose removal keeps the best. The contexts of a group reroll alike: walked once.
        """
        group = self.group[context]
        if (group, tuple(states)) not in self.memo:
            if not self.walks:  # every state's best key, in every group at once
                keys = _keys(self.plan, list(self.pulled))
                self.walks.append((_best_states(self.plan, keys), keys))
            best, keys = self.walks[0]
            self.memo[group, tuple(states)] = _walk(self.plan, best, keys, group, states)
        return [list(removed) for removed in self.memo[group, tuple(states)]]


def _walk(plan: PurePlan, best: list[Vector], keys: dict[int, Vector], group: int, states: Sequence[int]
          ) -> list[list[tuple[int, int]]]:
    """`PureSolved.removals` in one group, from every state's best key (`_best_states`)."""
    candidate, down, faces = plan.candidate, plan.down, plan.link_faces
    out = []
    for state in states:
        removed = []
        while best[state][group] != keys[candidate[state]][group]:
            target = best[state][group]
            column, state = next((j, state + d) for j, d in zip(plan.columns_of(state), down[state])
                                 if best[state + d][group] == target)
            removed.append(faces[column])
        out.append(removed)
    return out


def solve_roll(plan: PurePlan, to_hits: int, to_blocks: int, values: Values, shift: tuple[int, int] = (0, 0)
               ) -> PureSolved:
    """Best rerolls and splits for packed `values` of the final totals, in every context (`roll.solve_roll`).

    Args:
        plan: the side's `roll_plan`.
        to_hits: arcane that may each become 2 hits; to_blocks: arcane that may each become 1 block.
        values: packed value of each final (hits, blocks) per context, ``values[hits][blocks][context]``,
            over the final grid `roll.solve_roll` describes.
        shift: flat (hits, blocks) added to every final total after the split (the side's cards).

    >>> coin = ((1, 0, 0), (0, 0, 0))
    >>> solved = solve_roll(roll_plan(((coin, 1),), 1), 0, 0, [[[0, 5]], [[1, 6]]])
    >>> solved.final  # a miss is rerolled: hit 3 times in 4, in both contexts (5 more is no change)
    ({(0, 0): 1, (1, 0): 3}, {(0, 0): 1, (1, 0): 3})
    """
    with paused_gc():  # lists of integers only: nothing for the collector to find
        return _solve(plan, to_hits, to_blocks, values, shift)


def _solve(plan: PurePlan, to_hits: int, to_blocks: int, values: Values, shift: tuple[int, int]) -> PureSolved:
    group, offset, first = _distinct(values)
    searched = values if len(first) == len(group) else [[[cell[c] for c in first] for cell in row] for row in values]
    splits = conversions(plan.dims[2] - 1, to_hits, to_blocks)
    terminal, split = _terminal(plan, splits, searched, shift)
    pulled = [terminal]
    for m in range(1, len(plan.moves)):
        check("rerolls", "best play's search")  # the backstop (`explorer.core.backstop`): no search runs on for long
        pulled.append(_pull(pulled[plan.parents[m - 1][0]], plan.sources[m], len(first)))
    per_roll = _choose(plan, pulled, len(first))
    choices = tuple(zip(*per_roll)) if per_roll else tuple(() for _ in first)
    return PureSolved(plan, values, group, offset, splits, split, tuple(pulled), choices,
                      finals(plan, splits, split, per_roll, len(first), shift), shift)


def _distinct(values: Values) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """Groups of contexts whose values differ by a constant: each context's group, its values' excess
    over the group's first context's, and each group's first context.

    >>> _distinct([[[0, 5, 1]], [[1, 6, 1]]])
    ((0, 0, 1), (0, 5, 0), [0, 2])
    """
    contexts = len(values[0][0])
    if contexts == 1:
        return (0,), (0,), [0]
    columns = list(zip(*(cell for row in values for cell in row)))
    seen: dict[tuple[int, ...], int] = {}
    group: list[int] = []
    offset: list[int] = []
    first: list[int] = []
    lows: list[int] = []
    for c, column in enumerate(columns):
        low = min(column)
        g = seen.setdefault(tuple(v - low for v in column) if low else column, len(first))
        if g == len(first):
            first.append(c)
            lows.append(low)
        group.append(g)
        offset.append(low - lows[g])
    return tuple(group), tuple(offset), first


def _terminal(plan: PurePlan, splits: tuple[tuple[int, int], ...], values: Values, shift: tuple[int, int]
              ) -> tuple[dict[int, Vector], dict[int, Vector]]:
    """After the reroll: the best split's value at every cell reached, and the split (the most to hits,
    then to blocks, among equals: the key is value * splits + split index)."""
    B, A = plan.dims[1:]
    dh, db = shift
    count = len(splits)
    terminal, split = {}, {}
    zeros = [0] * len(values[0][0])
    for cell in plan.sources[0]:
        a, rest = cell % A, cell // A
        h, b = divmod(rest, B)
        if count == 1:
            terminal[cell], split[cell] = list(values[h + dh][b + db]), zeros
            continue
        keys = [[v * count + i for v in values[h + 2 * x + dh][b + y + db]]
                for i, (x, y) in enumerate(splits) if x + y <= a]
        best = list(map(max, *keys)) if len(keys) > 1 else keys[0]
        terminal[cell] = [k // count for k in best]
        split[cell] = [k % count for k in best]
    return terminal, split


def _pull(source: dict[int, Vector], cells: dict[int, tuple[tuple[int, int], ...]], contexts: int
          ) -> dict[int, Vector]:
    """Sum over one fresh die of the values after it (`roll._pull`), at the cells needed."""
    out = {}
    for cell, faces in cells.items():
        total: Vector | None = None
        for at, copies in faces:
            vector = source[at] if copies == 1 else [v * copies for v in source[at]]
            total = vector if total is None else list(map(add, total, vector))
        out[cell] = total if total is not None else [0] * contexts
    return out


def _choose(plan: PurePlan, pulled: list[dict[int, Vector]], contexts: int) -> list[list[int]]:
    """The candidate each whole roll chooses, per context: the best key over its sub-multisets (`roll._choose`)."""
    by_rank, candidates = plan.by_rank, plan.candidates
    if contexts == 1:
        return [[by_rank[k % candidates]] for k in _best_keys(plan, pulled)]
    best = _best_states(plan, _keys(plan, pulled))
    return [[by_rank[k % candidates] for k in best[s]] for s in plan.rolls]


def _keys(plan: PurePlan, pulled: list[dict[int, Vector]]) -> dict[int, Vector]:
    """Each candidate's key per context: packed expected value, then tie rank."""
    cells, candidates = plan.cells, plan.candidates
    factor = [plan.scale // power * candidates for power in plan.powers]
    keys = {}
    for g in plan.used:
        move, cell = divmod(g, cells)
        times, rank = factor[move], plan.rank_of(g)
        keys[g] = [e * times + rank for e in pulled[move][cell]]
    return keys


def _best_states(plan: PurePlan, keys: dict[int, Vector]) -> list[Vector]:
    """The best key over each state's sub-multisets, per context (`roll._best_states`)."""
    candidate, down = plan.candidate, plan.down
    best: list[Vector] = [[]] * len(candidate)
    for level in plan.levels:
        check("rerolls", "best play's search")
        for s in level:
            below = down[s]
            best[s] = list(map(max, keys[candidate[s]], *[best[s + d] for d in below])) if below else keys[candidate[s]]
    return best


def _best_keys(plan: PurePlan, pulled: list[dict[int, Vector]]) -> list[int]:
    """`_best_states` in one context, as plain integers: the best key of each whole roll."""
    keys = {g: key[0] for g, key in _keys(plan, pulled).items()}
    candidate, down = plan.candidate, plan.down
    best = [0] * len(candidate)
    for level in plan.levels:
        check("rerolls", "best play's search")
        for s in level:
            key, below = keys[candidate[s]], down[s]
            if below:
                most = max([best[s + d] for d in below])
                best[s] = most if most > key else key
            else:
                best[s] = key
    return [best[s] for s in plan.rolls]
