"""The game-agnostic core: distributions, pools, explosions, draws, and the layering rule."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.core.dice import deal, explode
from explorer.core.dist import Dist, add_vectors
from explorer.games.assault_of_the_giants import CombatDie, Modifiers, Side, side_totals
from tests.core.dice_oracle import Face, pool_counts

weights = st.dictionaries(st.integers(-3, 6), st.integers(1, 9), min_size=1, max_size=5)


@settings(deadline=None)
@given(weights, weights)
def test_sum_matches_icepool(a: dict[int, int], b: dict[int, int]) -> None:
    ours = Dist(a) + Dist(b)
    theirs = icepool.Die(a) + icepool.Die(b)
    assert ours.probabilities() == {o: Fraction(theirs.quantity(o), theirs.denominator()) for o in theirs.outcomes()
                                    if theirs.quantity(o)}


@settings(deadline=None)
@given(weights, st.integers(1, 6))
def test_repeat_matches_icepool(a: dict[int, int], n: int) -> None:
    ours = Dist(a).repeat(n, lambda x, y: x + y)
    theirs = n @ icepool.Die(a)
    assert ours == Dist({o: theirs.quantity(o) for o in theirs.outcomes()})


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 2)), min_size=6, max_size=6),
       st.integers(0, 8))
def test_plain_symbol_sums_match_icepool(faces: list[tuple[int, int, int]], n: int) -> None:
    """No reroll, no conversion: hits are a plain sum, which icepool computes independently."""
    totals = side_totals(Side(((CombatDie("d", tuple(faces)), n),), Modifiers(), ()))
    theirs = n @ icepool.Die([f[0] for f in faces]) if n else icepool.Die([0])
    assert totals.marginal(0).probabilities() == {
        o: Fraction(theirs.quantity(o), theirs.denominator()) for o in theirs.outcomes() if theirs.quantity(o)}


def test_dist_is_an_exact_value() -> None:
    assert Dist({1: 2, 2: 2}) == Dist({1: 1, 2: 1})
    assert hash(Dist({1: 2})) == hash(Dist({1: 5}))
    assert repr(Dist({2: 1, 1: 3})) == "Dist({1: 3, 2: 1})"
    with pytest.raises(ValueError):
        Dist({1: -1})
    with pytest.raises(ValueError):
        Dist({})


@settings(deadline=None)
@given(st.dictionaries(st.sampled_from("abc"), st.integers(1, 5), min_size=1), st.integers(0, 5))
def test_pool_counts_match_enumeration(die: dict[str, int], n: int) -> None:
    faces = [o for o, w in die.items() for _ in range(w)]
    brute: Counter = Counter()
    for roll in itertools.product(faces, repeat=n):
        counts = Counter(roll)
        brute[tuple((o, counts[o]) for o in die if counts[o])] += 1
    assert pool_counts(Dist(die), n) == Dist(dict(brute))


def test_explode_reports_the_cut_and_matches_the_geometric_series() -> None:
    # A d6 whose 6 adds another die: P(k sixes) = (1/6)^k (5/6).
    die = Dist.uniform([(1, 0)] * 5 + [(1, 1)])
    chain = explode(die, lambda o: o[1] > 0, add_vectors, cut_below=1e-12)
    assert 0 < chain.cut_mass() < Fraction(1, 10**12)
    crits = chain.map(lambda o: o[1])
    for k in range(5):
        assert crits.probability(k) == Fraction(5, 6) * Fraction(1, 6) ** k
    # Independently: after k rolls the chain is still open with probability (1/6)^k; it is cut at the
    # first k where that falls below 1e-12, k = 16, and exactly that much is reported.
    assert chain.cut_mass() == Fraction(1, 6) ** 16
    assert Fraction(1, 6) ** 15 >= Fraction(1, 10**12) > Fraction(1, 6) ** 16


def test_explode_refuses_a_die_that_always_explodes() -> None:
    always = Dist.uniform([(1, 1), (2, 1)])
    with pytest.raises(ValueError, match="every face of the die explodes"):
        explode(always, lambda o: o[1] > 0, add_vectors)


def test_explode_keeps_the_cut_the_die_carried() -> None:
    die = Dist({(1, 0): 2, (0, 1): 1}, cut=1)  # a quarter of the die's mass was cut before
    chain = explode(die, lambda o: o[1] > 0, add_vectors, cut_below=1e-6)
    # Each roll keeps a quarter aside: P(cut) = 1/4 + (1/4)(1/4) + ... (plus the open chain).
    assert Fraction(1, 3) <= chain.cut_mass() < Fraction(1, 3) + Fraction(1, 10**6)


cuts = st.integers(0, 3)


@settings(deadline=None)
@given(weights, cuts, st.dictionaries(st.integers(-3, 6), st.tuples(weights, cuts), min_size=7, max_size=7))
def test_bind_keeps_every_cut_like_a_hand_computation(first: dict[int, int], cut: int,
                                                      then: dict[int, tuple[dict[int, int], int]]) -> None:
    """Dist.bind against the law of total probability written out with Fractions: the first step's cut
    stays cut, and each outcome passes on its share of the second step's cut."""
    follow = {o: then.get(o) or ({0: 1}, 1) for o in first}
    total = sum(first.values()) + cut
    expected: dict[int, Fraction] = {}
    expected_cut = Fraction(cut, total)
    for o, w in first.items():
        second, second_cut = follow[o]
        second_total = sum(second.values()) + second_cut
        for x, v in second.items():
            expected[x] = expected.get(x, Fraction(0)) + Fraction(w, total) * Fraction(v, second_total)
        expected_cut += Fraction(w, total) * Fraction(second_cut, second_total)
    got = Dist(first, cut).bind(lambda o: Dist(follow[o][0], follow[o][1]))
    assert got.probabilities() == {x: p for x, p in sorted(expected.items())}
    assert got.cut_mass() == expected_cut


def test_deal_is_hypergeometric() -> None:
    hands = deal({"ace": 4, "other": 48}, 5)
    assert hands.probability((("other", 5),)) == Fraction(1712304, 2598960)
    with pytest.raises(ValueError):
        deal({"a": 1}, 2)


def test_face_labels() -> None:
    assert Face.of(hit=2, block=1).label() == "1 block + 2 hit"
    assert Face.of().label() == "blank"


def test_core_imports_no_ui_library() -> None:
    code = ("import sys, explorer, explorer.resolver, explorer.cli, explorer.games.assault_of_the_giants;"
            "import explorer.games.assault_of_the_giants.battle.trace, explorer.games.assault_of_the_giants.battle.summary;"
            "import explorer.scenario.lab, explorer.games.arcadia_quest, explorer.games.agot_lcg;"
            "from explorer.games import GAMES; [g.lab_engine() for g in GAMES.values() if g.lab];"
            "explorer.resolve('examples/fire-vs-hill.json');"
            "bad = [m for m in ('ipywidgets', 'plotly', 'anywidget', 'IPython') if m in sys.modules];"
            "print(','.join(bad))")
    from pathlib import Path
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""


@settings(max_examples=40, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["hit", "crit", "shield"]), st.integers(0, 2), max_size=2),
                min_size=2, max_size=4), st.integers(0, 3), st.integers(0, 2))
def test_generic_pool_engine_matches_die_by_die_enumeration(faces, n, rerolls) -> None:
    """roll_pool (multisets, named policy, conversions) against rolling every die one by one."""
    from tests.core.dice_oracle import Die
    from tests.core.pool_oracle import Conversion, convert, roll_pool

    die = Die("d", tuple(Face.from_mapping(f) for f in faces))
    symbols = ("hit", "crit", "shield")
    conversions = (Conversion("crit", (("hit", 2),), 1),)
    fast = roll_pool([(die, n)], symbols, rerolls=rerolls, policy="blanks", conversions=conversions)
    k = len(die.faces)
    most = min(n, rerolls)
    brute: Counter = Counter()
    for roll in itertools.product(die.faces, repeat=n):
        blanks = [i for i, f in enumerate(roll) if f.is_blank][:rerolls]
        for fresh in itertools.product(die.faces, repeat=len(blanks)):
            final = list(roll)
            for i, f in zip(blanks, fresh):
                final[i] = f
            counts = convert({s: sum(f.count(s) for f in final) for s in symbols}, conversions)
            brute[tuple(counts[s] for s in symbols)] += k ** (most - len(blanks))
    assert fast == Dist(dict(brute))


def test_lint_is_clean() -> None:
    """ruff (configured in pyproject.toml): unused names, undefined names, import order."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-m", "ruff", "check", "explorer", "tests", "benchmarks"],
                         capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stdout + run.stderr
