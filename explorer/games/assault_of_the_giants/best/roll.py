"""Best play on one side's roll (p.16), the numpy path: the search of `search`, on numpy arrays.

`roll_plan` lays a side's roll out once (it depends only on the dice and the rerolls); `solve_roll`
then finds the best choices for given values of the final totals, in many *contexts* at once (the
defender decides knowing the attacker's totals, p.17: one context per attacker total). The search
(backward induction, exact) and its terms are described in `search`; `roll_pure` and `solve_pure`
are the same search in plain Python, taken where numpy is missing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any

from explorer.core.backstop import check
from explorer.core.optional import optional
from explorer.games.assault_of_the_giants.best.search import Kinds, conversions
from explorer.games.assault_of_the_giants.best.values import INT64_SAFE
from explorer.games.assault_of_the_giants.rules.model import Symbols

if TYPE_CHECKING:
    import numpy as np
else:
    np = optional("numpy", "best play's numpy path")  # imported at first use (`explorer.core.optional`)

__all__ = ["RollPlan", "Solved", "roll_plan", "solve_roll"]

CHUNK = 4_000_000
"""Contexts are searched a few at a time, so a level's links over them hold at most this many values."""


def _count_vectors(parts: int, low: int, high: int) -> np.ndarray:
    """Every vector of `parts` counts >= 0 summing to between `low` and `high`, one per row.

    >>> import pytest; np = pytest.importorskip("numpy")  # the numpy path
    >>> _count_vectors(2, 1, 2).tolist()
    [[0, 1], [0, 2], [1, 0], [1, 1], [2, 0]]
    """
    rows, sums = np.zeros((1, 0), dtype=np.int64), np.zeros(1, dtype=np.int64)
    for _ in range(parts):
        choices = high - sums + 1
        parent = np.repeat(np.arange(len(rows)), choices)
        value = np.arange(int(choices.sum())) - np.repeat(np.cumsum(choices) - choices, choices)
        rows, sums = np.column_stack([rows[parent], value]), sums[parent] + value
    return rows[sums >= low]


@dataclass(frozen=True, eq=False)
class _Kind:
    """One kind's multisets of every size from `low` to `n`, with sums and one-die-removed links."""

    faces: tuple[Symbols, ...]
    multiplicity: tuple[int, ...]
    n: int
    low: int
    sets: np.ndarray
    """Count of each distinct face, one multiset per row, in order of `code`."""
    sizes: np.ndarray
    sums: np.ndarray
    children: np.ndarray
    full: tuple[int, ...]
    """Ordered outcomes of each multiset of all `n` dice (0 for smaller ones)."""

    def code(self, counts: np.ndarray) -> np.ndarray:
        """Multisets as integers (base n + 1), increasing along `sets`."""
        return counts @ ((self.n + 1) ** np.arange(counts.shape[-1] - 1, -1, -1, dtype=np.int64))  # type: ignore[no-any-return]

    def index(self, counts: Sequence[int]) -> int:
        """Row of a multiset in `sets`."""
        return int(np.searchsorted(self.code(self.sets), self.code(np.array(counts, dtype=np.int64))))


def _kind(faces: tuple[Symbols, ...], n: int, rerolls: int) -> _Kind:
    distinct = tuple(sorted(set(faces)))
    multiplicity = tuple(faces.count(f) for f in distinct)
    low = max(0, n - rerolls)
    sets = _count_vectors(len(distinct), low, n)
    sizes = sets.sum(axis=1)
    sums = sets @ np.array(distinct, dtype=np.int64)
    radix = (n + 1) ** np.arange(len(distinct) - 1, -1, -1, dtype=np.int64)
    codes = sets @ radix
    children = np.where((sets > 0) & (sizes[:, None] > low), np.searchsorted(codes, codes[:, None] - radix), -1)
    fact = [math.factorial(i) for i in range(n + 1)]
    full = tuple(fact[n] // math.prod(fact[c] for c in row) * math.prod(m ** c for m, c in zip(multiplicity, row))
                 if size == n else 0 for row, size in zip(sets.tolist(), sizes.tolist()))
    return _Kind(distinct, multiplicity, n, low, sets, sizes, sums, children, full)


@dataclass(frozen=True, eq=False)
class RollPlan:
    """A side's roll laid out for best play; see the module docstring. Built by `roll_plan`."""

    kinds: tuple[_Kind, ...]
    rerolls: int
    """Rerolls usable: at most the number of dice."""
    dims: tuple[int, int, int]
    """Sizes of the (hits, blocks, arcane) grid: one more than the most a roll can show."""
    moves: tuple[tuple[int, ...], ...]
    """Dice rerolled per kind, for every allowed reroll."""
    parents: tuple[tuple[int, int], ...]
    """Per move but the first (no reroll): (the move with one die fewer, the kind of that die)."""
    powers: tuple[int, ...]
    """Per move: ordered outcomes of its fresh roll (the sides of each rerolled die multiplied)."""
    scale: int
    """Common total weight of every move's fresh roll, a multiple of each of `powers`."""
    rank: np.ndarray
    """Tie rank of each candidate (move, kept sum), flattened as move * cells + kept sum."""
    order: np.ndarray
    """Candidate of each rank (the inverse of `rank`)."""
    candidate: np.ndarray
    """Candidate of each state (a multiset of kept dice)."""
    levels: tuple[tuple[np.ndarray, np.ndarray], ...]
    """States by dice removed, most first: (states, their one-die-removed states)."""
    rolls: np.ndarray
    """The states that are whole rolls."""
    weights: tuple[int, ...]
    """Ordered outcomes of each whole roll; they total `total`."""
    total: int
    states: int
    links: np.ndarray
    """Each state's one-die-removed states (`states` where there is none), one column per `link_faces`."""
    link_faces: tuple[tuple[int, int], ...]
    """(kind, distinct face) of the die each column of `links` removes."""
    strides: tuple[int, ...]
    """A state is the sum over kinds of (row of its multiset in the kind's `sets`) times the stride."""

    def state(self, counts: Sequence[Sequence[int]]) -> int:
        """The state of a multiset given as counts of each distinct face, per kind."""
        return sum(k.index(c) * stride for k, c, stride in zip(self.kinds, counts, self.strides))

    @property
    def candidates(self) -> int:
        """Number of (move, kept sum) candidates."""
        return len(self.moves) * self.dims[0] * self.dims[1] * self.dims[2]

    def move_index(self, move: Sequence[int]) -> int:
        """Index of a move in `moves`."""
        return self.moves.index(tuple(move))

    def rank_of(self, candidate: int) -> int:
        """Tie rank of a candidate."""
        return int(self.rank[candidate])

    def roll_states(self) -> list[int]:
        """The states that are whole rolls."""
        return [int(s) for s in self.rolls]

    def roll_counts(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per whole roll, per kind: how many dice show each distinct face."""
        rows = [((self.rolls // stride) % len(k.sets)).tolist() for k, stride in zip(self.kinds, self.strides)]
        sets = [k.sets.tolist() for k in self.kinds]
        return [tuple(tuple(sets[k][row[r]]) for k, row in enumerate(rows)) for r in range(len(self.rolls))]


@lru_cache(maxsize=32)
def roll_plan(kinds: Kinds, rerolls: int) -> RollPlan:
    """Lay out a side's roll (cached: it depends only on the dice and the rerolls).

    >>> import pytest; np = pytest.importorskip("numpy")  # the numpy path
    >>> coin = ((1, 0, 0), (0, 0, 0))
    >>> plan = roll_plan(((coin, 2),), 1)
    >>> plan.moves, plan.scale, plan.total, len(plan.rolls)
    (((0,), (1,)), 2, 4, 3)
    """
    kinds = tuple((f, n) for f, n in kinds if n) or ((((0, 0, 0),), 0),)
    rerolls = min(rerolls, sum(n for _, n in kinds))
    table = tuple(_kind(f, n, rerolls) for f, n in kinds)
    hits, blocks, arcane = (int(sum(k.n * max(f[j] for f in k.faces) for k in table)) + 1 for j in range(3))
    dims = (hits, blocks, arcane)
    shape = tuple(len(k.sets) for k in table)
    index = np.indices(shape).reshape(len(shape), -1)
    removed = np.array([k.n - k.sizes[i] for k, i in zip(table, index)])
    level = removed.sum(axis=0)
    kept = np.sum([k.sums[i] for k, i in zip(table, index)], axis=0)
    moves = tuple(m for m in product(*(range(k.n - k.low + 1) for k in table)) if sum(m) <= rerolls)
    radix = [k.n - k.low + 1 for k in table]
    code_of = np.full(math.prod(radix), -1, dtype=np.int64)
    for i, m in enumerate(moves):
        code_of[np.ravel_multi_index(m, radix)] = i
    cells = hits * blocks * arcane
    candidate = code_of[np.ravel_multi_index(tuple(removed), radix)] * cells + np.ravel_multi_index(tuple(kept.T), dims)
    strides = tuple(math.prod(shape[j + 1:]) for j in range(len(shape)))
    children = _links(table, index, strides)
    levels = tuple((np.nonzero(level == t)[0], children[level == t]) for t in range(rerolls, -1, -1))
    powers = tuple(math.prod(sum(k.multiplicity) ** m for k, m in zip(table, mv)) for mv in moves)
    rank, order = _ranks(moves, dims)
    rolls = np.nonzero(level == 0)[0]
    weights = tuple(math.prod(k.full[i] for k, i in zip(table, cell)) for cell in index[:, rolls].T.tolist())
    return RollPlan(table, rerolls, dims, moves, tuple(_parent(moves, mv) for mv in moves[1:]), powers,
                    math.lcm(*powers), rank, order, candidate, levels, rolls, weights,
                    math.prod(sum(k.multiplicity) ** k.n for k in table), len(level), children,
                    tuple((k, f) for k, kind in enumerate(table) for f in range(len(kind.faces))), strides)


def _links(table: tuple[_Kind, ...], index: np.ndarray, strides: tuple[int, ...]) -> np.ndarray:
    """Each state's one-die-removed states, one column per (kind, distinct face); past the end if none."""
    states = index.shape[1]
    links = []
    for k, i, stride in zip(table, index, strides):
        child = k.children[i]
        links.append(np.where(child >= 0, np.arange(states)[:, None] + (child - i[:, None]) * stride, states))
    return np.concatenate(links, axis=1)


def _ranks(moves: tuple[tuple[int, ...], ...], dims: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Tie rank of each candidate (higher preferred): fewest dice rerolled, most kept, earlier kinds rerolled."""
    cells = dims[0] * dims[1] * dims[2]
    moved = np.array([sum(m) for m in moves])
    lex_move = np.argsort(np.lexsort(np.array(moves).T[::-1]))
    grid = np.indices(dims).reshape(3, -1)
    kept = tuple(np.tile(grid[j], len(moves)) for j in (2, 1, 0))
    order = np.lexsort((np.repeat(lex_move, cells),) + kept + (-np.repeat(moved, cells),))
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return rank, order


def _parent(moves: tuple[tuple[int, ...], ...], move: tuple[int, ...]) -> tuple[int, int]:
    """The move with one die fewer of the last kind rerolled (earlier in `moves`), and that kind."""
    kind = max(k for k, m in enumerate(move) if m)
    return moves.index(move[:kind] + (move[kind] - 1,) + move[kind + 1:]), kind


def _pull(values: np.ndarray, kind: _Kind) -> np.ndarray:
    """Sum over one fresh die of the kind (weights: copies of each face) of the values after it."""
    H, B, A = values.shape[1:]
    out = np.zeros_like(values)
    for (h, b, a), copies in zip(kind.faces, kind.multiplicity):
        out[:, :H - h, :B - b, :A - a] += values[:, h:, b:, a:] * copies
    return out


def _push(weights: np.ndarray, kind: _Kind) -> np.ndarray:
    """Weights after adding one fresh die of the kind (the transpose of `_pull`)."""
    H, B, A = weights.shape[1:]
    out = np.zeros_like(weights)
    for (h, b, a), copies in zip(kind.faces, kind.multiplicity):
        out[:, h:, b:, a:] += weights[:, :H - h, :B - b, :A - a] * copies
    return out


@dataclass(frozen=True, eq=False)
class Solved:
    """Best play on a side's roll in each context (axis 0 of every array)."""

    plan: RollPlan
    final: np.ndarray
    """Weights of the final (hits, blocks), shape (contexts, final hits, final blocks); each context
    totals ``plan.total * plan.scale``."""
    terminal: np.ndarray
    """Packed value of each (hits, blocks, arcane) after the reroll, best split taken."""
    split: np.ndarray
    """Index in `conversions` of the best split at each (hits, blocks, arcane)."""
    expected: np.ndarray
    """Packed `scale`-weighted value of each candidate (move, kept sum)."""
    choice: np.ndarray
    """Candidate chosen for each whole roll (`RollPlan.rolls` order)."""
    splits: tuple[tuple[int, int], ...]
    values: np.ndarray
    """The packed values of the final totals searched for (`solve_roll`'s input)."""
    shift: tuple[int, int] = (0, 0)
    """Flat (hits, blocks) added to every final total after the split (the side's cards)."""

    @property
    def total_weight(self) -> int:
        """What the weights of each context's final totals sum to: ``plan.total * plan.scale``."""
        return int(self.plan.total) * int(self.plan.scale)

    def expected_at(self, context: int, candidate: int) -> int:
        """Packed `scale`-weighted value of a candidate in a context."""
        return int(self.expected[context, candidate])

    def chosen(self) -> tuple[list[list[int]], list[list[int]]]:
        """Per context, per whole roll: the candidate chosen, and its packed value (`two_rounds`)."""
        return self.choice.tolist(), np.take_along_axis(self.expected, self.choice, axis=1).tolist()

    def value_grid(self) -> list[list[list[int]]]:
        """The packed values of the final totals, per context, ``[context][hits][blocks]``."""
        return self.values.tolist()  # type: ignore[no-any-return]

    def value_at(self, context: int, totals: tuple[int, int]) -> int:
        """The packed value of final (hits, blocks) in a context."""
        return int(self.values[(context,) + totals])

    def choice_at(self, context: int, roll: int) -> int:
        """The candidate chosen for a whole roll."""
        return int(self.choice[context, roll])

    def keys(self, context: int) -> np.ndarray:
        """Each candidate's key in one context: packed expected value, then tie rank."""
        return self.expected[context] * self.plan.candidates + self.plan.rank  # type: ignore[no-any-return]

    def removals(self, context: int, states: Sequence[int]) -> list[list[tuple[int, int]]]:
        """The dice best play rerolls from each roll (a state), as (kind, distinct face) pairs.

        One of the equally good sub-multisets when several give the same kept sum and move.
        """
        keys = self.keys(context)
        best = _best_states(self.plan, keys[None])[0]
        out = []
        for state in states:
            removed = []
            while best[state] != keys[self.plan.candidate[state]]:
                links = self.plan.links[state]
                j = next(j for j, c in enumerate(links) if c < self.plan.states and best[c] == best[state])
                removed.append(self.plan.link_faces[j])
                state = int(links[j])
            out.append(removed)
        return out


def solve_roll(plan: RollPlan, to_hits: int, to_blocks: int, values: np.ndarray,
               shift: tuple[int, int] = (0, 0)) -> Solved:
    """Best rerolls and splits for packed `values` of the final totals, in every context.

    Args:
        plan: the side's `roll_plan`.
        to_hits: arcane that may each become 2 hits; to_blocks: arcane that may each become 1 block.
        values: packed (`best.values.Lex`, fitted with ``plan.scale``) value of each final
            (hits, blocks), shape (contexts, hits + 2 * most to hits + shift hits, blocks + most to
            blocks + shift blocks) with the grid sizes `dims` and the most arcane `conversions` allows.
        shift: flat (hits, blocks) added to every final total after the split (the side's cards).

    >>> import pytest; np = pytest.importorskip("numpy")  # the numpy path
    >>> coin = ((1, 0, 0), (0, 0, 0))
    >>> plan = roll_plan(((coin, 1),), 1)
    >>> solved = solve_roll(plan, 0, 0, np.array([[[0], [1]]]))
    >>> solved.final.tolist()  # a miss is rerolled: hit 3 times in 4
    [[[1], [3]]]
    """
    H, B, A = plan.dims
    contexts = values.shape[0]
    splits = conversions(A - 1, to_hits, to_blocks)
    top = int(values.max()) if values.size else 0
    key_type: Any = np.int64 if (top + 1) * plan.scale * max(plan.candidates, len(splits)) < INT64_SAFE else object
    values = values.astype(key_type)

    # After the reroll: the best split at every (hits, blocks, arcane).
    best = np.full((contexts, H, B, A), -1, dtype=key_type)
    arcane = np.arange(A)
    dh, db = shift
    for i, (x, y) in enumerate(splits):
        key = values[:, 2 * x + dh:2 * x + dh + H, y + db:y + db + B, None] * len(splits) + i
        best = np.maximum(best, np.where(arcane >= x + y, key, -1))
    split = (best % len(splits)).astype(np.int64)
    terminal = best // len(splits)

    # Before: each candidate's expected terminal value, then the best sub-multiset of each state.
    pulled = [terminal]
    for parent, kind in plan.parents:
        check("rerolls", "best play's search")  # the backstop (`explorer.core.backstop`): no search runs on for long
        pulled.append(_pull(pulled[parent], plan.kinds[kind]))
    expected = np.stack([p * (plan.scale // power) for p, power in zip(pulled, plan.powers)], axis=1)
    expected = expected.reshape(contexts, -1)
    keys = expected * plan.candidates + plan.rank
    links = max(1, max(ls.size for _, ls in plan.levels))
    step = max(1, CHUNK // links)
    choice = np.concatenate([_choose(plan, keys[c:c + step]) for c in range(0, contexts, step)])
    return Solved(plan, _final(plan, splits, split, choice, contexts, shift), terminal, split, expected, choice,
                  splits, values, shift)


def _best_states(plan: RollPlan, keys: np.ndarray) -> np.ndarray:
    """H: the best key over each state's sub-multisets, fewest dice removed last; -1 past the end."""
    state = np.empty((keys.shape[0], plan.states + 1), dtype=keys.dtype)
    state[:, -1] = -1
    for t, (cells, links) in enumerate(plan.levels):
        check("rerolls", "best play's search")
        here = keys[:, plan.candidate[cells]]
        if t:  # states with every reroll used keep what they hold
            here = np.maximum(here, state[:, links].max(axis=2))
        state[:, cells] = here
    return state


def _choose(plan: RollPlan, keys: np.ndarray) -> np.ndarray:
    """The candidate each whole roll chooses."""
    best = _best_states(plan, keys)[:, plan.rolls]
    return plan.order[(best % plan.candidates).astype(np.int64)]


def _final(plan: RollPlan, splits: tuple[tuple[int, int], ...], split: np.ndarray, choice: np.ndarray,
           contexts: int, shift: tuple[int, int]) -> np.ndarray:
    """Weights of the final totals: each roll's chosen candidate, its fresh dice, then the best split."""
    H, B, A = plan.dims
    weight_type: Any = np.int64 if plan.total * plan.scale < INT64_SAFE else object
    chosen = np.zeros((contexts, len(plan.moves) * H * B * A), dtype=weight_type)
    np.add.at(chosen, (np.arange(contexts)[:, None], choice), np.array(plan.weights, dtype=weight_type))
    chosen = chosen.reshape(contexts, len(plan.moves), H, B, A)
    gathered = [chosen[:, m] * (plan.scale // power) for m, power in enumerate(plan.powers)]
    for m in range(len(plan.moves) - 1, 0, -1):  # each move's weights, rolled out, onto its parent's
        parent, kind = plan.parents[m - 1]
        gathered[parent] = gathered[parent] + _push(gathered[m], plan.kinds[kind])
    after = gathered[0]
    dh, db = shift
    hf, bf = H + 2 * max(x for x, _ in splits) + dh, B + max(y for _, y in splits) + db
    xs, ys = np.array([x for x, _ in splits]), np.array([y for _, y in splits])
    hits, blocks = np.indices((H, B, A))[:2]
    at = (hits + 2 * xs[split] + dh) * bf + blocks + ys[split] + db
    final = np.zeros((contexts, hf * bf), dtype=weight_type)
    np.add.at(final, (np.arange(contexts)[:, None, None, None], at), after)
    return final.reshape(contexts, hf, bf)
