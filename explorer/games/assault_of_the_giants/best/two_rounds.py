"""Best play with two rounds of rerolls (p.16): the Command rerolls, then the cards', knowing the first.

A side whose Command Cards reroll and whose Spell or Resource Cards reroll too takes the cards'
rerolls as a second round, after the first round's results are known (`rules.cards.played`,
``card_rerolls: "second round"``); a die rerolled in the first round may be rerolled again. Best
play chooses both rounds by backward induction, exactly:

* Second round: on the dice as they lie after the first round (a whole roll), the one-round search
  of `search` with the cards' rerolls; an engine's `search.Search` gives it (`second`), its value
  H2(roll) and its choice, tie-breaks included, in every context.
* First round: keeping a sub-multiset K of the roll (at most the Command rerolls removed) is worth
  G1(K), the expectation of H2 over a fresh roll of the dice removed. It depends on the faces K
  holds, not only on their sum (the second round may reroll any die), so every K is its own
  candidate: G1(K) is one fresh die's expectation of G1 with that die added, the die of the first
  kind K lacks, down to the whole rolls (H2).
* Ties in the first round: the value, then the fewest dice rerolled, then the most (hits, blocks,
  arcane) kept, then rerolling the most dice of the kinds listed first (as in one round), then
  keeping the multiset whose counts, kind by kind in the pool's order and face by face in sorted
  face order, are lexicographically largest. The second round breaks ties as one round does.

Everything here is plain Python over the integers a `Search` gives, so both engines (`play_numpy`,
`play_pure`) share it and answer alike. Values are packed `values.Lex` integers fitted with the
scale of both rounds (`first_scale` times the second's `Plan.scale`), so expectations over both
rounds stay in order. Its cost is weighed up front (`costs.two_round_size`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from operator import add
from typing import Any

from explorer.core.backstop import check
from explorer.games.assault_of_the_giants.best.search import Kinds, Search, conversions
from explorer.games.assault_of_the_giants.rules.cards import played
from explorer.games.assault_of_the_giants.rules.model import Side

__all__ = ["TwoRounds", "two_rounds", "first_scale", "rounds_of", "two_round_size", "State"]

State = tuple[tuple[int, ...], ...]
"""A multiset of dice: per kind (those with dice), how many show each distinct face (sorted)."""


def _table(kinds: Kinds) -> list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]]:
    """Per kind with dice: its distinct faces (sorted), their copies on the die, and how many dice."""
    out = []
    for faces, n in kinds:
        if n:
            distinct = tuple(sorted(set(faces)))
            out.append((distinct, tuple(faces.count(f) for f in distinct), n))
    return out


def first_scale(kinds: Kinds, rerolls: int) -> int:
    """Common weight of every first-round move's fresh roll: the lcm of sides ** dice rerolled.

    >>> first_scale(((((1, 0, 0), (0, 0, 0)) * 3, 2), (((0, 0, 0),) * 6, 1)), 2)
    36
    """
    table = _table(kinds)
    rerolls = min(rerolls, sum(n for _, _, n in table))
    powers = [math.prod(sum(c) ** m for (_, c, _), m in zip(table, move))
              for move in product(*(range(min(n, rerolls) + 1) for _, _, n in table)) if sum(move) <= rerolls]
    return math.lcm(*powers) if powers else 1


def rounds_of(side: Side) -> tuple[int, int]:
    """A side's rerolls in each round as best play searches them: (first, second), the second 0 for one round.

    Two rounds when its Command Cards reroll and its cards reroll in a second round (`cards.played`,
    p.16) and it has dice; else one, with every reroll (a side without Command rerolls has one round).

    >>> from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> rounds_of(Side(((DEFAULT_DICE["basic"], 2),), Modifiers(rerolls=1, card_rerolls=2), ()))
    (1, 2)
    >>> rounds_of(Side((), Modifiers(rerolls=1, card_rerolls=2), ()))  # no dice: one round
    (3, 0)
    """
    side = played(side)
    mods = side.modifiers
    if mods.rerolls and mods.card_rerolls and side.dice_count:
        return mods.rerolls, mods.card_rerolls
    return mods.rerolls + mods.card_rerolls, 0


def two_round_size(kinds: Kinds, first: int, second: int) -> tuple[int, int]:
    """Work of the first round over the second round's values (`two_rounds`), counted without building it.

    Its kept multisets times (their links + 2), and the whole rolls times their spread over the cells
    after the second round's reroll (at most the distinct faces ** the dice it rerolls, and the cells),
    plus 2: each of the second per context.

    >>> two_round_size(((((1, 0, 0), (0, 0, 0)), 2),), 1, 1)
    (20, 12)
    """
    kinds = tuple((f, n) for f, n in kinds if n)
    first = min(first, sum(n for _, n in kinds))
    states, rolls, links = 1, 1, 2
    for faces, n in kinds:
        d = len(set(faces))
        states *= sum(math.comb(size + d - 1, size) for size in range(max(0, n - first), n + 1))
        rolls *= math.comb(n + d - 1, n)
        links += d
    cells = math.prod(sum(n * max(f[j] for f in faces) for faces, n in kinds) + 1 for j in range(3))
    spread = min(cells, max((len(set(f)) for f, _ in kinds), default=1) ** min(second, sum(n for _, n in kinds)))
    return int(states * links), int(rolls * (spread + 2))


def _sub_multisets(copies: int, n: int, low: int) -> list[tuple[int, ...]]:
    """Counts over `copies` distinct faces of every multiset of `low` to `n` dice."""
    rows: list[tuple[int, ...]] = [()]
    for _ in range(copies):
        rows = [r + (v,) for r in rows for v in range(n - sum(r) + 1)]
    return [r for r in rows if sum(r) >= low]


@dataclass(frozen=True, eq=False)
class TwoRounds:
    """Best play on a side's roll with two rounds of rerolls, in each context. Built by `two_rounds`."""

    second: Search
    """The second round's search (the cards' rerolls), on every whole roll."""
    rerolls: int
    """First-round rerolls usable (the Command rerolls, at most the dice)."""
    first: int
    """`first_scale`: each first-round value is this many times `second`'s scale-weighted one."""
    states: tuple[State, ...]
    """The first round's kept multisets (at most `rerolls` dice removed), by tie rank (best last)."""
    rank: dict[State, int]
    kept_values: dict[State, list[int]]
    """Per kept multiset, per context: its value weighted by ``first * second.plan.scale`` in all."""
    choices: tuple[tuple[State, ...], ...]
    """Per context, the multiset kept from each whole roll (`second.plan.roll_states` order)."""
    finals: tuple[dict[tuple[int, int], int], ...]
    """Per context, the weights of the final (hits, blocks); each totals `total_weight`."""
    total_weight: int
    final: Any = None
    """The finals as the engine reads them (a numpy grid, or `finals` itself)."""
    group: tuple[int, ...] = field(default=())
    """Per context, itself (the pure engine's groups of contexts searched as one)."""

    @property
    def plan(self) -> Any:
        """The second round's plan (the same dice, kinds and faces)."""
        return self.second.plan

    @property
    def shift(self) -> tuple[int, int]:
        """Flat (hits, blocks) the cards add to every final total."""
        return self.second.shift

    @property
    def scale(self) -> int:
        """Weight of a first-round value: ``first * second.plan.scale``."""
        return self.first * int(self.second.plan.scale)

    def value_at(self, context: int, totals: tuple[int, int]) -> int:
        """The packed value of final (hits, blocks) in a context."""
        return self.second.value_at(context, totals)

    def kept_value(self, context: int, kept: State) -> int:
        """Packed `scale`-weighted value of keeping `kept` in the first round (the rest rerolled)."""
        return self.kept_values[kept][context]

    def second_value(self, context: int, roll: int) -> int:
        """Packed `second.plan.scale`-weighted value of a whole roll before the second round (H2)."""
        return self.second.expected_at(context, self.second.choice_at(context, roll))

    def removals(self, context: int, states: Sequence[int]) -> list[list[tuple[int, int]]]:
        """The dice best play rerolls in the first round from each whole roll (a `second.plan` state),
        as (kind, distinct face) pairs."""
        index = {s: i for i, s in enumerate(self.second.plan.roll_states())}
        counts = self.second.plan.roll_counts()
        out = []
        for state in states:
            roll, kept = counts[index[state]], self.choices[context][index[state]]
            out.append([(k, f) for k, (r, c) in enumerate(zip(roll, kept)) for f in range(len(r))
                        for _ in range(r[f] - c[f])])
        return out


def two_rounds(kinds: Kinds, rerolls: int, second: Search, contexts: int, to_hits: int, to_blocks: int
               ) -> TwoRounds:
    """Best play of both rounds, the second searched by `second` (an engine's one-round search).

    Args:
        kinds: the side's dice (`costs.kinds_of`, cards played).
        rerolls: the first round's rerolls (Command Cards).
        second: the one-round search of the second round (the cards' rerolls) over the packed values.
        contexts: how many contexts `second` searched.
        to_hits, to_blocks: the side's conversions (after both rounds).

    >>> from explorer.games.assault_of_the_giants.best.roll_pure import roll_plan
    >>> from explorer.games.assault_of_the_giants.best.solve_pure import solve_roll
    >>> coin = ((1, 0, 0), (0, 0, 0))
    >>> second = solve_roll(roll_plan(((coin, 1),), 1), 0, 0, [[[0]], [[1]]])
    >>> two = two_rounds(((coin, 1),), 1, second, 1, 0, 0)
    >>> two.finals, two.total_weight  # a miss is rerolled, and rerolled again if it misses: 7 in 8
    (({(0, 0): 1, (1, 0): 7},), 8)
    """
    table = _table(kinds)
    plan = second.plan
    rolls = [tuple(tuple(int(v) for v in c) for c in counts) for counts in plan.roll_counts()]
    rerolls = min(rerolls, sum(n for _, _, n in table))
    sides = [sum(c) for _, c, _ in table]
    # Every kept multiset: (counts per kind, dice removed, move, kept sum), kind by kind.
    rows: list[tuple[State, int, tuple[int, ...], tuple[int, int, int]]] = [((), 0, (), (0, 0, 0))]
    for faces, _, n in table:
        options = [(c, n - sum(c), tuple(sum(v * f[j] for v, f in zip(c, faces)) for j in range(3)))
                   for c in _sub_multisets(len(faces), n, max(0, n - rerolls))]
        rows = [(s + (c,), t + m, mv + (m,), (h + k[0], b + k[1], a + k[2]))
                for s, t, mv, (h, b, a) in rows for c, m, k in options if t + m <= rerolls]
    states = [r[0] for r in rows]
    number = {s: i for i, s in enumerate(states)}
    removed = [r[1] for r in rows]
    power = [math.prod(p ** m for p, m in zip(sides, r[2])) for r in rows]
    first = math.lcm(*power) if power else 1
    ups: list[list[tuple[int, int]]] = []  # one die more, of the first kind a state lacks: (state, copies)
    downs: list[list[int]] = []  # one die fewer, any face (while rerolls are left)
    for s, t, mv, _ in rows:
        k = next((k for k, m in enumerate(mv) if m), -1)
        ups.append([] if k < 0 else [(number[s[:k] + (s[k][:f] + (s[k][f] + 1,) + s[k][f + 1:],) + s[k + 1:]], copies)
                                     for f, copies in enumerate(table[k][1])])
        downs.append([number[s[:j] + (s[j][:f] + (s[j][f] - 1,) + s[j][f + 1:],) + s[j + 1:]]
                      for j in range(len(s)) for f in range(len(s[j])) if s[j][f]] if t < rerolls else [])
    ordered = sorted(range(len(states)), key=removed.__getitem__)  # whole rolls first
    roll_of = [number[r] for r in rolls]
    picked, worth = second.chosen()
    grid = second.value_grid()
    summed: list[list[int]] = [[]] * len(states)
    for i, r in enumerate(roll_of):
        summed[r] = [worth[c][i] for c in range(contexts)]
    check("rerolls", "best play's first round")
    for i in ordered:
        if ups[i]:
            total: list[int] | None = None
            for j, copies in ups[i]:
                vector = summed[j] if copies == 1 else [v * copies for v in summed[j]]
                total = vector if total is None else list(map(add, total, vector))
            summed[i] = total or [0] * contexts
    kept_values = {s: [v * (first // power[i]) for v in summed[i]] for i, s in enumerate(states)}
    by_rank = sorted(range(len(states)), key=lambda i: (-removed[i], rows[i][3], rows[i][2], states[i]))
    rank = [0] * len(states)
    for position, i in enumerate(by_rank):
        rank[i] = position
    count = len(by_rank)
    best: list[list[int]] = [[]] * len(states)
    for i in reversed(ordered):  # most removed first
        key = [v * count + rank[i] for v in kept_values[states[i]]]
        best[i] = list(map(max, key, *[best[j] for j in downs[i]])) if downs[i] else key
    choices = tuple(tuple(states[by_rank[best[r][c] % count]] for r in roll_of) for c in range(contexts))
    weights = [int(w) for w in plan.weights]
    lying = _lying(contexts, weights, choices, number, ordered, ups, power, first)
    spreads: dict[int, list[tuple[int, int]]] = {}
    afters: dict[tuple[tuple[int, int], ...], dict[int, int]] = {}  # contexts alike in both rounds share cells
    finals = []
    for c in range(contexts):
        by_choice: dict[int, int] = {}
        for g, r in zip(picked[c], roll_of):
            w = lying[r][c] if lying[r] else 0
            if w:
                by_choice[g] = by_choice.get(g, 0) + w
        alike = tuple(sorted(by_choice.items()))
        if alike not in afters:
            check("rerolls", "best play's two rounds")
            afters[alike] = _after(plan, by_choice, table, spreads)
        finals.append(_split(plan, second.shift, afters[alike], grid[c], to_hits, to_blocks))
    total_weight = sum(weights) * first * int(plan.scale)
    return TwoRounds(second, rerolls, first, tuple(states[i] for i in by_rank),
                     {states[i]: rank[i] for i in range(len(states))}, kept_values, choices, tuple(finals),
                     total_weight, tuple(finals), tuple(range(contexts)))


def _lying(contexts: int, weights: list[int], choices: Sequence[Sequence[State]], number: dict[State, int],
           ordered: list[int], ups: list[list[tuple[int, int]]], power: list[int], first: int) -> list[list[int]]:
    """Per state, per context: the weight of the dice lying so after the first round (whole rolls only;
    each whole roll's weight put on the multiset it keeps, then spread one fresh die at a time, up)."""
    at: list[list[int]] = [[] for _ in number]
    for c in range(contexts):
        for w, k in zip(weights, choices[c]):
            i = number[k]
            if not at[i]:
                at[i] = [0] * contexts
            at[i][c] += w * (first // power[i])
    for i in reversed(ordered):  # most removed first: push each weight one die up
        if ups[i] and at[i]:
            vector, at[i] = at[i], []
            for j, copies in ups[i]:
                add_on = vector if copies == 1 else [v * copies for v in vector]
                at[j] = list(map(add, at[j], add_on)) if at[j] else add_on
    return at


def _after(plan: Any, by_choice: dict[int, int], table: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]],
           spreads: dict[int, list[tuple[int, int]]]) -> dict[int, int]:
    """Weights of the (hits, blocks, arcane) cells after both rounds, from the weight on each second-round
    candidate (`spreads`, shared by the contexts, memoised)."""
    out: dict[int, int] = {}
    for g, weight in by_choice.items():
        if g not in spreads:
            spreads[g] = _spread(plan, table, g)
        for cell, w in spreads[g]:
            out[cell] = out.get(cell, 0) + weight * w
    return out


def _split(plan: Any, shift: tuple[int, int], after: dict[int, int], grid: list[list[int]], to_hits: int,
           to_blocks: int) -> dict[tuple[int, int], int]:
    """Weights of the final (hits, blocks) from the cells after both rounds, each split best over
    `grid` (the values ``[hits][blocks]`` of one context; among equals the most to hits, then to blocks)."""
    B, A = plan.dims[1:]
    splits = conversions(A - 1, to_hits, to_blocks)
    dh, db = shift
    out: dict[tuple[int, int], int] = {}
    for cell, weight in after.items():
        a, rest = cell % A, cell // A
        h, b = divmod(rest, B)
        x, y = splits[max((grid[h + 2 * x + dh][b + y + db], i) for i, (x, y) in enumerate(splits) if x + y <= a)[1]]
        key = (h + 2 * x + dh, b + y + db)
        out[key] = out.get(key, 0) + weight
    return {k: w for k, w in sorted(out.items()) if w}


def _spread(plan: Any, table: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]], g: int
            ) -> list[tuple[int, int]]:
    """Cells after the second round's reroll from candidate `g` (move, kept cell), weighing ``plan.scale``."""
    H, B, A = plan.dims
    move_index, cell = divmod(g, H * B * A)
    dist = {cell: 1}
    total = 1
    for (faces, copies, _), m in zip(table, plan.moves[move_index]):
        for _ in range(int(m)):
            nxt: dict[int, int] = {}
            for c, w in dist.items():
                for (fh, fb, fa), p in zip(faces, copies):
                    d = c + (fh * B + fb) * A + fa
                    nxt[d] = nxt.get(d, 0) + w * p
            dist, total = nxt, total * sum(copies)
    factor = int(plan.scale) // total
    return [(c, w * factor) for c, w in dist.items()]
