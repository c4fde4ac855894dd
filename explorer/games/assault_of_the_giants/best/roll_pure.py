"""Best play on one side's roll without numpy, the layout: `roll.roll_plan` as plain tuples.

The pure search (`solve_pure`) is the backward induction of `search` (read it for the terms),
giving the same exact integers and the same choices, ties included. Its plan differs from
`roll.RollPlan` only in layout, chosen for plain Python:

* It lists the states best play can reach (at most `rerolls` dice removed) level by level, each
  with its candidate and its one-die-removed states, numbered as `roll` numbers them, so that
  those are the state's number plus a step (`PurePlan.down`: one shared tuple per multiset).
* It is built with the cyclic garbage collector paused (`paused_gc`): it holds only tuples of
  integers, millions of them for a big roll, which the collector would scan again and again.
* Tie ranks are worked out, not sorted (`PurePlan.rank_of`).
* Each move's expectation is needed only at the cells some state's candidate reaches, with their
  sources one die on (`PurePlan.sources`).
"""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import product

from explorer.games.assault_of_the_giants.best.search import Kinds
from explorer.games.assault_of_the_giants.rules.model import Symbols

__all__ = ["PurePlan", "roll_plan", "paused_gc"]

@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused inside (if it ran): for code that makes many objects and no cycles."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _multisets(faces: tuple[Symbols, ...], low: int, high: int) -> list[tuple[tuple[int, ...], int, int, Symbols]]:
    """Every multiset of `faces` of `low` to `high` dice, in lexicographic order of the counts:
    (count of each face, size, code in base ``high + 1``, the (hits, blocks, arcane) it shows).

    >>> [counts for counts, *_ in _multisets(((0, 0, 0), (1, 0, 0)), 1, 2)]
    [(0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]
    """
    rows: list[tuple[tuple[int, ...], int, int, int, int, int]] = [((), 0, 0, 0, 0, 0)]
    for f, (fh, fb, fa) in enumerate(faces):
        place = (high + 1) ** (len(faces) - 1 - f)
        rows = [(counts + (v,), size + v, code + v * place, h + v * fh, b + v * fb, a + v * fa)
                for counts, size, code, h, b, a in rows for v in range(high - size + 1)]
    return [(counts, size, code, (h, b, a)) for counts, size, code, h, b, a in rows if size >= low]


@dataclass(frozen=True, eq=False)
class _Kind:
    """One kind's multisets of every size from `low` to `n` (`roll._Kind`), with their tables."""

    faces: tuple[Symbols, ...]
    multiplicity: tuple[int, ...]
    n: int
    low: int
    sets: tuple[tuple[int, ...], ...]
    """Count of each distinct face, one multiset per row, in lexicographic order."""
    code: dict[int, int]
    """Row of each multiset's code (its counts in base ``n + 1``)."""
    sums: tuple[tuple[int, int, int], ...]
    """(hits, blocks, arcane) each multiset shows."""
    full: tuple[int, ...]
    """Ordered outcomes of each multiset of all `n` dice (0 for smaller ones)."""
    children: tuple[tuple[int, ...], ...]
    """Per multiset, per distinct face: the row with one die of that face fewer (-1 if none, or below `low`)."""

    def row(self, counts: Sequence[int]) -> int:
        """Row of a multiset in `sets`."""
        return self.code[sum(c * (self.n + 1) ** (len(counts) - 1 - f) for f, c in enumerate(counts))]


def _kind(faces: tuple[Symbols, ...], n: int, rerolls: int) -> _Kind:
    distinct = tuple(sorted(set(faces)))
    multiplicity = tuple(faces.count(f) for f in distinct)
    low = max(0, n - rerolls)
    rows = _multisets(distinct, low, n)
    code = {c: i for i, (_, _, c, _) in enumerate(rows)}
    places = [(n + 1) ** (len(distinct) - 1 - f) for f in range(len(distinct))]
    none = (-1,) * len(distinct)
    children = tuple([tuple([code[c - place] if k else -1 for k, place in zip(counts, places)]) if size > low else none
                      for counts, size, c, _ in rows])
    factorial = [math.factorial(i) for i in range(n + 1)]
    full = tuple(_full(factorial, multiplicity, counts) if size == n else 0 for counts, size, _, _ in rows)
    return _Kind(distinct, multiplicity, n, low, tuple(r[0] for r in rows), code, tuple(r[3] for r in rows), full,
                 children)


def _full(factorial: list[int], multiplicity: tuple[int, ...], counts: tuple[int, ...]) -> int:
    """Ordered outcomes of a multiset of all the dice of a kind."""
    ways = factorial[sum(counts)] // math.prod(factorial[c] for c in counts)
    for copies, count in zip(multiplicity, counts):
        ways *= copies ** count
    return ways


@dataclass(frozen=True, eq=False)
class PurePlan:
    """A side's roll laid out for the pure search (`roll.RollPlan`, held as tuples). Built by `roll_plan`."""

    kinds: tuple[_Kind, ...]
    rerolls: int
    dims: tuple[int, int, int]
    moves: tuple[tuple[int, ...], ...]
    parents: tuple[tuple[int, int], ...]
    powers: tuple[int, ...]
    scale: int
    weights: tuple[int, ...]
    total: int
    candidate: tuple[int, ...]
    """Each state's candidate: move index * cells + kept cell (-1 where no state is)."""
    used: frozenset[int]
    """The candidates some state holds."""
    levels: tuple[tuple[int, ...], ...]
    """States by dice removed, most first."""
    down: tuple[tuple[int, ...], ...]
    """Each state's one-die-removed states, as steps from its number (``state + step``); none for the
    states with every reroll used (they keep what they hold)."""
    link_faces: tuple[tuple[int, int], ...]
    """(kind, distinct face) of the die each column removes (`columns_of`)."""
    rolls: tuple[int, ...]
    """The states that are whole rolls."""
    faces_of: tuple[tuple[tuple[int, int, int, int], ...], ...]
    """Per kind: (hits, blocks, arcane, copies) of each distinct face."""
    groups: tuple[tuple[int, ...], ...] = field(repr=False)
    """Moves by dice rerolled (index t: t dice), each in `moves` order."""
    strides: tuple[int, ...] = field(repr=False)
    """A state is numbered ``sum(row * stride)`` over the kinds, its row in each kind's `sets` (as
    `roll.RollPlan.strides`); numbers with more dice removed than rerolls hold no state."""
    steps: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = field(repr=False)
    """Per kind, per row: the columns of `link_faces` of the dice it can lose, and the steps of the number."""

    @property
    def cells(self) -> int:
        """Cells of the (hits, blocks, arcane) grid."""
        return self.dims[0] * self.dims[1] * self.dims[2]

    @property
    def candidates(self) -> int:
        """Number of (move, kept sum) candidates."""
        return len(self.moves) * self.cells

    def state(self, counts: Sequence[Sequence[int]]) -> int:
        """The state of a multiset given as counts of each distinct face, per kind."""
        return sum(k.row(c) * stride for k, c, stride in zip(self.kinds, counts, self.strides))

    def rows_of(self, state: int) -> list[int]:
        """A state's row in each kind's `sets`."""
        return [state // stride % len(k.sets) for k, stride in zip(self.kinds, self.strides)]

    def columns_of(self, state: int) -> tuple[int, ...]:
        """The column of `link_faces` of each of a state's steps `down` (the die it loses)."""
        if not self.down[state]:  # every reroll used, or no die to lose
            return ()
        return tuple(c for steps, i in zip(self.steps, self.rows_of(state)) for c in steps[i][0])

    def move_index(self, move: Sequence[int]) -> int:
        """Index of a move in `moves`."""
        return self.moves.index(tuple(move))

    def rank_of(self, candidate: int) -> int:
        """Tie rank (`roll._ranks`): fewest dice rerolled, then the largest kept cell, then the move
        latest in `moves` (more dice of the earlier kinds), as a position among all candidates."""
        move, cell = divmod(candidate, self.cells)
        first, step = self.ranking[move]
        return first + cell * step

    @cached_property
    def ranking(self) -> tuple[tuple[int, int], ...]:
        """Per move: the tie rank of its candidate at cell 0, and the step from one cell to the next.

        Candidates rerolling more dice rank below; among those rerolling as many, by cell, then by move.
        """
        out = []
        for move in self.moves:
            moved = sum(move)
            below = sum(len(self.groups[t]) for t in range(moved + 1, len(self.groups))) * self.cells
            out.append((below + self.groups[moved].index(self.moves.index(move)), len(self.groups[moved])))
        return tuple(out)

    def roll_states(self) -> list[int]:
        """The states that are whole rolls."""
        return list(self.rolls)

    def roll_counts(self) -> list[tuple[tuple[int, ...], ...]]:
        """Per whole roll, per kind: how many dice show each distinct face."""
        return [tuple(k.sets[i] for k, i in zip(self.kinds, self.rows_of(s))) for s in self.rolls]

    @cached_property
    def by_rank(self) -> dict[int, int]:
        """The candidate of each tie rank some state holds (`rank_of` inverted)."""
        return {self.rank_of(g): g for g in self.used}

    @cached_property
    def sources(self) -> tuple[dict[int, tuple[tuple[int, int], ...]], ...]:
        """Per move, the cells whose expectation the search needs, each with its sources: (cell of the
        parent move, copies) per face of the die added (`roll._pull`); move 0's cells have none.

        Every such cell holds a kept sum and some fresh dice, never more dice than the roll has, so
        all its sources lie inside the grid: a cell's sources weigh ``powers[move]`` outcomes in all.
        """
        H, B, A = self.dims
        cells = self.cells
        need: list[set[int]] = [set() for _ in self.moves]
        for g in self.used:
            need[g // cells].add(g % cells)
        out: list[dict[int, tuple[tuple[int, int], ...]]] = [{} for _ in self.moves]
        for m in range(len(self.moves) - 1, 0, -1):  # a move's cells need its parent's cells one die on
            parent, kind = self.parents[m - 1]
            for cell in sorted(need[m]):
                a, rest = cell % A, cell // A
                h, b = divmod(rest, B)
                out[m][cell] = tuple((((h + fh) * B + b + fb) * A + a + fa, copies) for fh, fb, fa, copies
                                     in self.faces_of[kind] if h + fh < H and b + fb < B and a + fa < A)
                need[parent].update(c for c, _ in out[m][cell])
        out[0] = {cell: () for cell in sorted(need[0])}
        return tuple(out)


@lru_cache(maxsize=32)
def roll_plan(kinds: Kinds, rerolls: int) -> PurePlan:
    """Lay out a side's roll (cached: it depends only on the dice and the rerolls).

    >>> coin = ((1, 0, 0), (0, 0, 0))
    >>> plan = roll_plan(((coin, 2),), 1)
    >>> plan.moves, plan.scale, plan.total, len(plan.rolls)
    (((0,), (1,)), 2, 4, 3)
    """
    with paused_gc():
        return _plan(kinds, rerolls)


def _plan(kinds: Kinds, rerolls: int) -> PurePlan:
    kinds = tuple((f, n) for f, n in kinds if n) or ((((0, 0, 0),), 0),)
    rerolls = min(rerolls, sum(n for _, n in kinds))
    table = tuple(_kind(f, n, rerolls) for f, n in kinds)
    H, B, A = (sum(k.n * max(f[j] for f in k.faces) for k in table) + 1 for j in range(3))
    moves = tuple(m for m in product(*(range(k.n - k.low + 1) for k in table)) if sum(m) <= rerolls)
    move_of = {m: i for i, m in enumerate(moves)}
    shape = [len(k.sets) for k in table]
    strides = tuple(math.prod(shape[j + 1:]) for j in range(len(shape)))
    places = [math.prod(k.n - k.low + 1 for k in table[j + 1:]) for j in range(len(table))]
    move_at = [move_of.get(m, -1) for m in product(*(range(k.n - k.low + 1) for k in table))]  # by move code
    steps = _links(table, strides)
    # (number, dice removed, move code, kept sum, steps down), kind by kind, in numbering order
    states: list[tuple[int, int, int, int, int, int, tuple[int, ...]]] = [(0, 0, 0, 0, 0, 0, ())]
    for k, stride, place, kind_steps in zip(table, strides, places, steps):
        removed = [k.n - sum(c) for c in k.sets]
        states = [(n + i * stride, t + removed[i], code + removed[i] * place, h + sh, b + sb, a + sa, d + kind_steps[i][1])
                  for n, t, code, h, b, a, d in states for i, (sh, sb, sa) in enumerate(k.sums) if t + removed[i] <= rerolls]
    candidate = [-1] * math.prod(shape)
    down: list[tuple[int, ...]] = [()] * len(candidate)
    by_level: list[list[int]] = [[] for _ in range(rerolls + 1)]
    for here, t, code, h, b, a, d in states:
        candidate[here] = move_at[code] * H * B * A + (h * B + b) * A + a
        by_level[t].append(here)
        if t < rerolls:
            down[here] = d
    levels = tuple(tuple(by_level[t]) for t in range(rerolls, -1, -1))
    powers = tuple(math.prod(sum(k.multiplicity) ** m for k, m in zip(table, mv)) for mv in moves)
    rolls = levels[-1]
    groups = tuple(tuple(i for i, m in enumerate(moves) if sum(m) == t) for t in range(rerolls + 1))
    faces_of = tuple(tuple(f + (c,) for f, c in zip(k.faces, k.multiplicity)) for k in table)
    weights = tuple(math.prod(k.full[s // stride % n] for k, stride, n in zip(table, strides, shape)) for s in rolls)
    return PurePlan(table, rerolls, (H, B, A), moves, tuple(_parent(moves, mv) for mv in moves[1:]), powers,
                    math.lcm(*powers), weights, math.prod(sum(k.multiplicity) ** k.n for k in table), tuple(candidate),
                    frozenset(candidate[s] for s, *_ in states),
                    levels, tuple(down), tuple((k, f) for k, kind in enumerate(table) for f in range(len(kind.faces))),
                    rolls, faces_of, groups, strides, tuple(tuple(kind_steps) for kind_steps in steps))


def _links(table: tuple[_Kind, ...], strides: tuple[int, ...]) -> list[list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Per kind, per row: the columns and the steps of the number of its one-die-removed rows (`PurePlan.down`)."""
    out, column = [], 0
    for kind, stride in zip(table, strides):
        out.append([(tuple([column + f for f, child in enumerate(children) if child >= 0]),
                     tuple([(child - i) * stride for child in children if child >= 0]))
                    for i, children in enumerate(kind.children)])
        column += len(kind.faces)
    return out


def _parent(moves: tuple[tuple[int, ...], ...], move: tuple[int, ...]) -> tuple[int, int]:
    """The move with one die fewer of the last kind rerolled (earlier in `moves`), and that kind."""
    kind = max(k for k, m in enumerate(move) if m)
    return moves.index(move[:kind] + (move[kind] - 1,) + move[kind + 1:]), kind
