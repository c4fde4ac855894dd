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

__all__ = ["TwoRounds", "two_rounds", "first_scale", "State"]

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

    >>> first_scale((((1, 0, 0), (0, 0, 0)) * 3, 2), ((((0, 0, 0),) * 6, 1),)), 2)
    36
    """
    table = _table(kinds)
    rerolls = min(rerolls, sum(n for _, _, n in table))
    powers = [math.prod(sum(c) ** m for (_, c, _), m in zip(table, move))
              for move in product(*(range(min(n, rerolls) + 1) for _, _, n in table)) if sum(move) <= rerolls]
    return math.lcm(*powers) if powers else 1


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
    """
    table = _table(kinds)
    plan = second.plan
    rolls = [tuple(tuple(int(v) for v in c) for c in counts) for counts in plan.roll_counts()]
    roll_index = {r: i for i, r in enumerate(rolls)}
    dice = sum(n for _, _, n in table)
    rerolls = min(rerolls, dice)
    sides = [sum(c) for _, c, _ in table]
    per_kind = [_sub_multisets(len(f), n, max(0, n - rerolls)) for f, _, n in table]
    states: list[State] = [s for s in product(*per_kind)
                           if sum(n - sum(c) for c, (_, _, n) in zip(s, table)) <= rerolls]

    def move(s: State) -> tuple[int, ...]:
        return tuple(n - sum(c) for c, (_, _, n) in zip(s, table))

    def kept_sum(s: State) -> tuple[int, ...]:
        return tuple(sum(v * f[j] for c, (fs, _, _) in zip(s, table) for v, f in zip(c, fs)) for j in range(3))

    power = {s: math.prod(sides[k] ** m for k, m in enumerate(move(s))) for s in states}
    first = math.lcm(*power.values()) if power else 1

    def up(s: State) -> list[tuple[State, int]]:
        """The multisets with one die more, of the first kind `s` lacks, and its face's copies."""
        k = next(k for k, m in enumerate(move(s)) if m)
        return [(s[:k] + (s[k][:f] + (s[k][f] + 1,) + s[k][f + 1:],) + s[k + 1:], copies)
                for f, copies in enumerate(table[k][1])]

    ordered = sorted(states, key=lambda s: sum(move(s)))  # whole rolls first
    h2 = {r: [second.expected_at(c, second.choice_at(c, i)) for c in range(contexts)] for r, i in roll_index.items()}
    summed: dict[State, list[int]] = {}
    for s in ordered:
        check("rerolls", "best play's first round")
        if not sum(move(s)):
            summed[s] = h2[s]
            continue
        total: list[int] | None = None
        for t, copies in up(s):
            vector = summed[t] if copies == 1 else [v * copies for v in summed[t]]
            total = vector if total is None else list(map(add, total, vector))
        summed[s] = total or [0] * contexts
    kept_values = {s: [v * (first // power[s]) for v in summed[s]] for s in states}
    by_rank = sorted(states, key=lambda s: (-sum(move(s)), kept_sum(s), move(s), s))
    rank = {s: i for i, s in enumerate(by_rank)}
    count = len(by_rank)
    keys = {s: [v * count + rank[s] for v in kept_values[s]] for s in states}
    best: dict[State, list[int]] = {}
    for s in reversed(ordered):  # most removed first
        below = [s[:k] + (s[k][:f] + (s[k][f] - 1,) + s[k][f + 1:],) + s[k + 1:]
                 for k in range(len(s)) for f in range(len(s[k])) if s[k][f]] if sum(move(s)) < rerolls else []
        best[s] = list(map(max, keys[s], *[best[b] for b in below])) if below else keys[s]
    choices = tuple(tuple(by_rank[best[r][c] % count] for r in rolls) for c in range(contexts))
    weights = [_ways(r, table) for r in rolls]
    finals = tuple(_finals(second, c, rolls, weights, choices[c], ordered, up, power, first, table, to_hits, to_blocks)
                   for c in range(contexts))
    total_weight = sum(weights) * first * int(plan.scale)
    return TwoRounds(second, rerolls, first, tuple(by_rank), rank, kept_values, choices, finals, total_weight,
                     finals, tuple(range(contexts)))


def _ways(roll: State, table: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]]) -> int:
    """Ordered outcomes of a whole roll."""
    ways = 1
    for counts, (_, copies, n) in zip(roll, table):
        ways *= math.factorial(n) // math.prod(math.factorial(c) for c in counts)
        ways *= math.prod(p ** c for p, c in zip(copies, counts))
    return ways


def _finals(second: Search, context: int, rolls: list[State], weights: list[int], kept: Sequence[State],
            ordered: list[State], up: Any, power: dict[State, int], first: int,
            table: list[tuple[tuple[tuple[int, int, int], ...], tuple[int, ...], int]], to_hits: int, to_blocks: int
            ) -> dict[tuple[int, int], int]:
    """Weights of the final (hits, blocks) in one context: each whole roll's weight spread by its first
    round's fresh dice onto the rolls before the second round, then by the second round's choice."""
    check("rerolls", "best play's two rounds")
    index = {r: i for i, r in enumerate(rolls)}
    at: dict[State, int] = {}
    for r, w, k in zip(rolls, weights, kept):
        at[k] = at.get(k, 0) + w * (first // power[k])
    for s in reversed(ordered):  # most removed first: push each weight one die up
        w = at.pop(s, 0) if s not in index else 0
        if w:
            for t, copies in up(s):
                at[t] = at.get(t, 0) + w * copies
    plan = second.plan
    B, A = plan.dims[1:]
    splits = conversions(A - 1, to_hits, to_blocks)
    dh, db = second.shift
    out: dict[tuple[int, int], int] = {}
    spreads: dict[int, list[tuple[int, int]]] = {}
    finals: dict[int, tuple[int, int]] = {}
    for roll, weight in at.items():
        g = second.choice_at(context, index[roll])
        if g not in spreads:
            spreads[g] = _spread(plan, table, g)
        for cell, w in spreads[g]:
            if cell not in finals:
                a, rest = cell % A, cell // A
                h, b = divmod(rest, B)
                options = [(second.value_at(context, (h + 2 * x + dh, b + y + db)), i)
                           for i, (x, y) in enumerate(splits) if x + y <= a]
                x, y = splits[max(options)[1]]
                finals[cell] = (h + 2 * x + dh, b + y + db)
            key = finals[cell]
            out[key] = out.get(key, 0) + weight * w
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
