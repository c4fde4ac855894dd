"""Independent oracles for A Game of Thrones LCG: brute force and the rules' own wording.

Nothing here imports the explorer: every answer is found by enumerating deals, shuffles and
branches with `Fraction`s, or by reading a rule as literally as possible, so that the fast
path (formulas, integer-weight dynamic programmes, the step engine) is checked against code
that shares none of it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import chain, combinations

__all__ = [
    "best_power_defence_swing", "deck_out_rounds", "draw_chances", "intrigue_survival", "power_race_outcomes",
    "winner",
]

VICTORY = 15


def winner(attacker_str: int, defender_str: int, attackers: int, defenders: int) -> str:
    """Rules Reference p.23, "Winning a Challenge", bullet by bullet.

    A player needs at least 1 STR and at least 1 participating character to win; the higher
    total wins; a tie at 1 or more goes to the attacker if they have a participant; if neither
    can meet the requirements, no one wins. (4.2.2: the candidate is fixed first, no fallback.)
    """
    can_attacker = attacker_str >= 1 and attackers >= 1
    can_defender = defender_str >= 1 and defenders >= 1
    if attacker_str > defender_str:
        return "attacker" if can_attacker else "none"
    if defender_str > attacker_str:
        return "defender" if can_defender else "none"
    return "attacker" if can_attacker else "none"


def intrigue_survival(hand: int, copies: int, claim: int, at_least: int = 1) -> Fraction:
    """Deal every set of discarded positions from a hand whose first `copies` cards are the card."""
    n = min(claim, hand)
    deals = list(combinations(range(hand), n))
    kept = sum(1 for gone in deals if copies - sum(1 for i in gone if i < copies) >= at_least)
    return Fraction(kept, len(deals))


def _placements(deck: int, copies: int) -> list[frozenset[int]]:
    return [frozenset(p) for p in combinations(range(deck), copies)]


def draw_chances(deck: int, copies: int, rounds: int, at_least: int = 1, mulligan: bool = True,
                 setup_cards: int = 0, draws: int = 2) -> list[Fraction]:
    """Shuffle the deck every way (positions of the copies), keep or take the mulligan by what the
    hand shows, and count the shuffles that reach `at_least` copies by each round."""
    shuffles = _placements(deck, copies)
    out = []
    for r in range(rounds + 1):
        seen = 7 + setup_cards + draws * r

        def hits(p: frozenset[int], upto: int) -> int:
            return sum(1 for i in p if i < upto)

        fresh = Fraction(sum(1 for p in shuffles if hits(p, seen) >= at_least), len(shuffles))
        total = Fraction(0)
        for shown in range(copies + 1):
            group = [p for p in shuffles if hits(p, 7) == shown]
            if not group:
                continue
            weight = Fraction(len(group), len(shuffles))
            keep = Fraction(sum(1 for p in group if hits(p, seen) >= at_least), len(group))
            total += weight * (keep if shown >= at_least or not mulligan else max(keep, fresh))
        out.append(total)
    return out


def _branches(dist: dict[int, int]) -> list[tuple[int, Fraction]]:
    total = sum(dist.values())
    return [(k, Fraction(w, total)) for k, w in dist.items() if w]


def deck_out_rounds(deck: int, draws: int, insight: dict[int, int], pillage: dict[int, int],
                    max_rounds: int) -> dict[int, Fraction]:
    """Follow every branch round by round: draw phase, insight (never the last card), pillage."""
    result: dict[int, Fraction] = {}

    def walk(left: int, r: int, p: Fraction) -> None:
        if r > max_rounds:
            result[max_rounds + 1] = result.get(max_rounds + 1, Fraction(0)) + p
            return
        left = max(0, left - draws)
        if left == 0:
            result[r] = result.get(r, Fraction(0)) + p
            return
        for i, pi in _branches(insight):
            after = left - min(i, left - 1)
            for k, pk in _branches(pillage):
                rest = max(0, after - k)
                if rest == 0:
                    result[r] = result.get(r, Fraction(0)) + p * pi * pk
                else:
                    walk(rest, r + 1, p * pi * pk)

    walk(deck, 1, Fraction(1))
    return result


def power_race_outcomes(first: tuple[int, dict[int, int]], second: tuple[int, dict[int, int]],
                        max_rounds: int) -> dict[tuple[int, str], Fraction]:
    """Follow every branch of both players' gains; the first player takes a same-round tie."""
    result: dict[tuple[int, str], Fraction] = {}

    def walk(a: int, b: int, r: int, p: Fraction) -> None:
        if r > max_rounds:
            result[(max_rounds + 1, "none")] = result.get((max_rounds + 1, "none"), Fraction(0)) + p
            return
        for x, px in _branches(first[1]):
            for y, py in _branches(second[1]):
                na, nb, q = a + x, b + y, p * px * py
                if na >= VICTORY:
                    result[(r, "first")] = result.get((r, "first"), Fraction(0)) + q
                elif nb >= VICTORY:
                    result[(r, "second")] = result.get((r, "second"), Fraction(0)) + q
                else:
                    walk(na, nb, r + 1, q)

    walk(first[0], second[0], 1, Fraction(1))
    return result


def _subsets(items: Sequence[int]) -> chain[tuple[int, ...]]:
    return chain.from_iterable(combinations(items, k) for k in range(len(items) + 1))


def best_power_defence_swing(attacker_strs: Sequence[int], defender_strs: Sequence[int], claim: int,
                             defender_faction: int, renown: Callable[[int], int] = lambda i: 0) -> int:
    """The least power swing a defender can allow in a power challenge without other keywords.

    Swing = attacker's power change minus the defender's. Attacker wins: +1 unopposed bonus if the
    defence counts 0 STR, the claim moves min(claim, faction) (twice that in swing). Defender
    wins: minus the renown of the defenders (`renown(i)` is 1 for a defender with renown).
    """
    a = sum(attacker_strs)
    best = None
    for chosen in _subsets(range(len(defender_strs))):
        d = sum(defender_strs[i] for i in chosen)
        who = winner(a, d, len(attacker_strs), len(chosen))
        if who == "attacker":
            swing = (1 if d == 0 else 0) + 2 * min(claim, defender_faction)
        elif who == "defender":
            swing = -sum(renown(i) for i in chosen)
        else:
            swing = 0
        best = swing if best is None else min(best, swing)
    assert best is not None
    return best
