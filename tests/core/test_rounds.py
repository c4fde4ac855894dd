"""Two rounds of rerolls in the count engine (`explorer.core.engine.rounds`, ``second_rerolls``).

The oracle here enumerates every face sequence die by die with Fractions, the second round's
policy reading the dice as the first round left them; it shares no code with the engine.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.engine import REROLL_BLANKS, Conversion, CountPolicy, Pass, by_worth, roll_cost, roll_counts
from explorer.core.errors import ScenarioError

SYMBOLS = ("hit", "block", "arcane")
MISSES = CountPolicy((Pass(), Pass((("arcane", 1),), guard="arcane"), Pass((("arcane", 2),), guard="arcane")),
                     order=by_worth)
BLANKS = CountPolicy((Pass(),), order=by_worth)


def _worth(faces: tuple[tuple[int, ...], ...], to_hits: int, to_blocks: int) -> Fraction:
    value = 2 if to_hits else 1 if to_blocks else 0
    return Fraction(sum(h + b + value * a for h, b, a in faces), len(faces))


def _choose(pool: list[tuple[tuple[tuple[int, ...], ...], int]], kinds: list[int], faces: tuple[tuple[int, ...], ...],
            rerolls: int, policy: str, to_hits: int, to_blocks: int) -> list[int]:
    """The dice a policy rerolls, written die by die: blanks, then (misses) arcane-only dice spare."""
    worth = [_worth(f, to_hits, to_blocks) for f, _ in pool]
    rank = sorted(range(len(pool)), key=lambda k: (-worth[k], k))
    blanks = sorted((i for i, f in enumerate(faces) if f == (0, 0, 0)), key=lambda i: (rank.index(kinds[i]), i))
    chosen = blanks[:rerolls]
    if policy == "misses":
        spare = sum(f[2] for f in faces) - to_hits - to_blocks
        for amount in (1, 2):
            for i in sorted((i for i, f in enumerate(faces) if f == (0, 0, amount)), key=lambda i: (rank.index(kinds[i]), i)):
                if len(chosen) < rerolls and spare >= amount:
                    chosen.append(i)
                    spare -= amount
    return chosen


def oracle(pool: list[tuple[tuple[tuple[int, ...], ...], int]], rounds: tuple[int, ...], policy: str,
           to_hits: int, to_blocks: int) -> dict[tuple[int, int], Fraction]:
    """P(final hits, blocks): every face sequence of the roll and of each round's rerolled dice."""
    kinds = [k for k, (_, n) in enumerate(pool) for _ in range(n)]
    dice = [pool[k][0] for k in kinds]
    states: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for faces in itertools.product(*dice):
        states[faces] += 1
    probability = {s: Fraction(w, sum(states.values())) for s, w in states.items()}
    for rerolls in rounds:
        nxt: dict[tuple[tuple[int, ...], ...], Fraction] = {}
        for faces, p in probability.items():
            chosen = _choose(pool, kinds, faces, rerolls, policy, to_hits, to_blocks)
            outcomes = list(itertools.product(*(dice[i] for i in chosen)))
            for fresh in outcomes:
                after = list(faces)
                for i, f in zip(chosen, fresh):
                    after[i] = f
                nxt[tuple(after)] = nxt.get(tuple(after), Fraction(0)) + p / len(outcomes)
        probability = nxt
    out: dict[tuple[int, int], Fraction] = {}
    for faces, p in probability.items():
        hits, blocks, arcane = (sum(f[j] for f in faces) for j in range(3))
        h = min(arcane, to_hits)
        b = min(arcane - h, to_blocks)
        key = (hits + 2 * h, blocks + b)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def engine(pool: list[tuple[tuple[tuple[int, ...], ...], int]], rounds: tuple[int, int], policy: str, to_hits: int,
           to_blocks: int) -> dict[tuple[int, ...], Fraction]:
    conversions = (Conversion("arcane", (("hit", 2),), to_hits), Conversion("arcane", (("block", 1),), to_blocks))
    return roll_counts(pool, SYMBOLS, rerolls=rounds[0], second_rerolls=rounds[1],
                       policy=MISSES if policy == "misses" else BLANKS, conversions=conversions,
                       report=SYMBOLS[:2]).probabilities()


HALF = ((1, 0, 0), (0, 0, 0)) * 3
"""A die hitting on 3 of its 6 faces, blank on the others."""


def test_golden_one_die_two_rounds_hits_seven_times_in_eight() -> None:
    # Rulebook p.16: cards modify the dice after the Command Cards, so a second reroll may take the die again.
    two = engine([(HALF, 1)], (1, 1), "misses", 0, 0)
    assert two[(1, 0)] == Fraction(7, 8)
    merged = roll_counts([(HALF, 1)], SYMBOLS, rerolls=2, policy=MISSES, report=SYMBOLS[:2]).probabilities()
    assert merged[(1, 0)] == Fraction(3, 4)  # one round of 2 rerolls: the die is taken once


def test_a_round_of_nothing_is_one_round() -> None:
    coin = ((1,), (0,))
    for first, second in ((0, 2), (2, 0)):
        assert roll_counts([(coin, 2)], ["hit"], rerolls=first, second_rerolls=second, policy=REROLL_BLANKS) == \
            roll_counts([(coin, 2)], ["hit"], rerolls=2, policy=REROLL_BLANKS)


FACES = st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 2)).filter(lambda f: f[0] + f[1] + f[2] <= 2)
DIE = st.lists(st.sampled_from([(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0), (0, 1, 0), (1, 0, 1)]) | FACES,
               min_size=2, max_size=4).map(tuple)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(DIE, st.integers(0, 2)), min_size=1, max_size=2), st.integers(0, 2), st.integers(0, 2),
       st.sampled_from(["misses", "blanks"]), st.integers(0, 1), st.integers(0, 2))
def test_two_rounds_equal_the_face_by_face_oracle(pool: list[tuple[tuple[tuple[int, ...], ...], int]], first: int,
                                                  second: int, policy: str, to_hits: int, to_blocks: int) -> None:
    if sum(n for _, n in pool) > 3:
        pool = pool[:1]
    assert engine(pool, (first, second), policy, to_hits, to_blocks) == oracle(pool, (first, second), policy,
                                                                                to_hits, to_blocks)


def test_a_second_round_never_hurts_a_reroll_of_misses() -> None:
    # More rerolls in a later round keep every die the first kept, and a blank can only improve.
    basic = ((1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (1, 1, 0))
    one = roll_counts([(basic, 4)], SYMBOLS, rerolls=2, policy=MISSES, report=SYMBOLS[:2]).marginal(0).mean()
    two = roll_counts([(basic, 4)], SYMBOLS, rerolls=2, second_rerolls=1, policy=MISSES,
                      report=SYMBOLS[:2]).marginal(0).mean()
    assert two > one


def test_two_rounds_too_big_are_refused_up_front_not_computed() -> None:
    basic = ((1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (1, 1, 0))
    other = ((2, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (0, 0, 0))
    third = ((4, 0, 0), (2, 0, 0), (0, 2, 0), (0, 0, 1), (1, 1, 0), (0, 0, 0))
    with pytest.raises(ScenarioError) as refused:
        roll_cost([(basic, 20), (other, 20), (third, 20)], SYMBOLS, rerolls=5, second_rerolls=5, policy=MISSES)
    assert refused.value.field in ("pool", "second_rerolls") and "two rounds" in refused.value.problem
    assert 0 < roll_cost([(basic, 6)], SYMBOLS, rerolls=2, second_rerolls=1, policy=MISSES) < 2_000_000


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(DIE, st.integers(0, 4)), min_size=1, max_size=3), st.integers(0, 4),
       st.sampled_from(["misses", "blanks"]), st.integers(0, 2), st.integers(0, 2))
def test_one_round_of_the_rounds_engine_equals_the_one_round_engine(
        pool: list[tuple[tuple[tuple[int, ...], ...], int]], rerolls: int, policy: str, to_hits: int,
        to_blocks: int) -> None:
    # Bigger pools than the oracle can list: the layouts of `explorer.core.engine.dp` and `rounds` differ.
    from explorer.core.engine import rounds

    conversions = (Conversion("arcane", (("hit", 2),), to_hits), Conversion("arcane", (("block", 1),), to_blocks))
    chosen = MISSES if policy == "misses" else BLANKS
    kinds = tuple((tuple(f), n) for f, n in pool)
    laid = rounds.layout(kinds, SYMBOLS, (rerolls,), chosen, conversions, SYMBOLS[:2])
    assert rounds.solve(laid) == roll_counts(pool, SYMBOLS, rerolls=rerolls, policy=chosen, conversions=conversions,
                                             report=SYMBOLS[:2])
