"""Brute-force best play for Assault of the Giants: every die rolled one by one, every subset rerolled,
in one round or two (the Command rerolls, then the cards', p.16).

Written from the rules text (rulebook p.16-17) and the issue's definition of best play, sharing no
code with `explorer.games.assault_of_the_giants.best.play*`: dice are ordered, each subset of at most
`rerolls` dice is tried as the reroll (each die once, all at once), every fresh outcome is listed
one by one, and every split of the arcane (x into 2 hits, y into 1 block) is tried; probabilities
are Fractions. Casualties and rewards come from the plain brute force of `tests.games.assault_of_the_giants.oracle`.

Ties are broken as the module docstring of `best` states: the value tuple (objective, net Ordning
Points, damage dealt - damage taken), then the fewest dice rerolled, then the most (hits, blocks,
arcane) kept, then the most dice rerolled of the kinds listed first; splits: most to hits, then
most to blocks. With two rounds (the side's cards reroll after its Command rerolls), the second
round is that search on the dice as they lie after the first (any die, rerolled or not), and each
first-round subset is worth the expectation of the best second round over its fresh rolls; first-round
ties as above, then keeping the dice whose counts of each distinct face (sorted), kind by kind, are
lexicographically largest.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from explorer.games.assault_of_the_giants.rules.model import Battle, Side, Symbols
from tests.games.assault_of_the_giants.oracle import _reward, brute_casualties, brute_totals, with_cards

Values = tuple[Fraction, Fraction, Fraction]
Totals = tuple[int, int]


@lru_cache(maxsize=None)
def points_earned(earner: Side, victim: Side, damage: int) -> int:
    """Ordning Points `earner` gets when `victim` takes `damage`."""
    statuses = brute_casualties(victim, earner, damage)
    return sum(_reward(victim, earner, victim.units[i])[0] for i, s in enumerate(statuses) if s == "defeated")


@lru_cache(maxsize=None)
def wiped_out(earner: Side, victim: Side, damage: int) -> int:
    """1 when `damage` defeats every unit of `victim` (which has units)."""
    statuses = brute_casualties(victim, earner, damage)
    return int(bool(statuses) and all(s == "defeated" for s in statuses))


def value_of(me: Side, enemy: Side, mine: Totals, theirs: Totals) -> Values:
    """(objective, net Ordning Points, damage dealt - damage taken) for the final totals of both sides."""
    dealt, taken = max(0, mine[0] - theirs[1]), max(0, theirs[0] - mine[1])
    earned, conceded = points_earned(me, enemy, dealt), points_earned(enemy, me, taken)
    objective = {"ordning-points": earned, "net-ordning-points": earned - conceded, "damage": dealt,
                 "wipe-out": wiped_out(me, enemy, dealt)}[me.objective]
    return Fraction(objective), Fraction(earned - conceded), Fraction(dealt - taken)


def best_side(side: Side, value: Callable[[Totals], Values]) -> tuple[dict[Totals, Fraction], Values]:
    """A side's final-totals distribution under best play for `value`, and the expected value tuple.

    The side's cards are written out (`tests.games.assault_of_the_giants.oracle.with_cards`): their flat hits and blocks
    are part of every final total that `value` scores.
    """
    side, (dh, db), second = with_cards(side)
    first = side.modifiers.rerolls
    if second and not first:  # no Command rerolls: the cards' round is the only one
        first, second = second, 0
    sorts = list(dict.fromkeys(die for die, _ in side.pool))  # a card's die already in the pool is that kind
    kinds = [sorts.index(die) for die, n in side.pool for _ in range(n)]
    dice = [sorts[k] for k in kinds]
    mods = side.modifiers
    split_memo: dict[tuple[int, int, int], tuple[Values, Totals]] = {}

    def best_split(hits: int, blocks: int, arcane: int) -> tuple[Values, Totals]:
        if (hits, blocks, arcane) not in split_memo:
            options = []
            for x in range(min(arcane, mods.arcane_to_hits) + 1):
                for y in range(min(arcane - x, mods.arcane_to_blocks) + 1):
                    final = (hits + 2 * x + dh, blocks + y + db)
                    options.append((value(final), x, y, final))
            top = max(options)
            split_memo[(hits, blocks, arcane)] = (top[0], top[3])
        return split_memo[(hits, blocks, arcane)]

    def fresh_rolls(faces: tuple[Symbols, ...], chosen: tuple[int, ...]) -> list[tuple[Fraction, tuple[Symbols, ...]]]:
        """Every fresh roll of the chosen dice, one by one: probability, the dice as they then lie."""
        out = []
        fresh_all = list(itertools.product(*(dice[i].faces for i in chosen)))
        for fresh in fresh_all:
            lie = list(faces)
            for i, f in zip(chosen, fresh):
                lie[i] = f
            out.append((Fraction(1, len(fresh_all)), tuple(lie)))
        return out

    def kept_of(faces: tuple[Symbols, ...], chosen: tuple[int, ...]) -> tuple[int, int, int]:
        return tuple(sum(faces[i][j] for i in range(len(dice)) if i not in chosen) for j in range(3))  # type: ignore

    def per_kind(chosen: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sum(1 for i in chosen if kinds[i] == k) for k in range(len(sorts)))

    def kept_counts(faces: tuple[Symbols, ...], chosen: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        """Per kind with dice, how many kept dice show each of its distinct faces (sorted)."""
        return tuple(tuple(sum(1 for i in range(len(dice)) if kinds[i] == k and i not in chosen and faces[i] == f)
                           for f in sorted(set(die.faces))) for k, die in enumerate(sorts))

    def subsets(most: int) -> list[tuple[int, ...]]:
        return [c for size in range(min(most, len(dice)) + 1) for c in itertools.combinations(range(len(dice)), size)]

    last_memo: dict[tuple[Symbols, ...], list[tuple[Fraction, Values, Totals]]] = {}

    def last_round(faces: tuple[Symbols, ...], most: int) -> list[tuple[Fraction, Values, Totals]]:
        """The (last) round of rerolls on the dice as they lie: its best choice's outcomes."""
        if faces not in last_memo:
            best_key, best_outcomes = None, None
            for chosen in subsets(most):
                listed = [(p,) + best_split(*(sum(f[j] for f in lie) for j in range(3)))
                          for p, lie in fresh_rolls(faces, chosen)]
                mean = tuple(sum(p * v[j] for p, v, _ in listed) for j in range(3))
                key = (mean, -len(chosen), kept_of(faces, chosen), per_kind(chosen))
                if best_key is None or key > best_key:
                    best_key, best_outcomes = key, listed
            last_memo[faces] = best_outcomes  # type: ignore[assignment]
        return last_memo[faces]

    def mean_of(listed: list[tuple[Fraction, Values, Totals]]) -> Values:
        return tuple(sum(p * v[j] for p, v, _ in listed) for j in range(3))  # type: ignore[return-value]

    def first_round(faces: tuple[Symbols, ...]) -> list[tuple[Fraction, Values, Totals]]:
        """The Command round when the cards reroll again after it: each choice worth the best second round."""
        best_key, best_outcomes = None, None
        for chosen in subsets(first):
            listed = [(p * q, v, final) for p, lie in fresh_rolls(faces, chosen)
                      for q, v, final in last_round(lie, second)]
            key = (mean_of(listed), -len(chosen), kept_of(faces, chosen), per_kind(chosen), kept_counts(faces, chosen))
            if best_key is None or key > best_key:
                best_key, best_outcomes = key, listed
        return best_outcomes  # type: ignore[return-value]

    dist: dict[Totals, Fraction] = defaultdict(Fraction)
    expected = [Fraction(0)] * 3
    rolls = list(itertools.product(*(d.faces for d in dice)))
    for faces in rolls:
        outcomes = first_round(faces) if second and dice else last_round(faces, first)
        for p, v, final in outcomes:
            dist[final] += p / len(rolls)
            for j in range(3):
                expected[j] += p * v[j] / len(rolls)
    return dict(dist), tuple(expected)  # type: ignore[return-value]


def _fixed(side: Side) -> dict[Totals, Fraction]:
    counts = brute_totals(side)
    total = sum(counts.values())
    return {k: Fraction(v, total) for k, v in counts.items() if v}


def brute_best_joint(battle: Battle) -> dict[tuple[int, int, int, int], Fraction]:
    """Joint (attacker hits, blocks, defender hits, blocks) with each side's policy; ``best`` brute-forced.

    A best defender answers each attacker total it may face; a best attacker weighs each of its
    totals by the defender's answer (or the defender's fixed distribution).
    """
    atk, dfn = battle.attacker, battle.defender
    answers: dict[Totals, dict[Totals, Fraction]] = {}

    def defender_answer(attacker: Totals) -> dict[Totals, Fraction]:
        if dfn.reroll_policy != "best":
            if not answers:
                answers[(-1, -1)] = _fixed(dfn)
            return answers[(-1, -1)]
        if attacker not in answers:
            answers[attacker] = best_side(dfn, lambda mine: value_of(dfn, atk, mine, attacker))[0]
        return answers[attacker]

    def attacker_value(mine: Totals) -> Values:
        total = [Fraction(0)] * 3
        for theirs, p in defender_answer(mine).items():
            for j, v in enumerate(value_of(atk, dfn, mine, theirs)):
                total[j] += p * v
        return tuple(total)  # type: ignore[return-value]

    attacker = best_side(atk, attacker_value)[0] if atk.reroll_policy == "best" else _fixed(atk)
    joint: dict[tuple[int, int, int, int], Fraction] = defaultdict(Fraction)
    for mine, p in attacker.items():
        for theirs, q in defender_answer(mine).items():
            joint[mine + theirs] += p * q
    return {k: v for k, v in joint.items() if v}


def brute_expected(battle: Battle, role: str) -> Values:
    """A side's expected value tuple, as the battle is played (brute force)."""
    atk, dfn = battle.attacker, battle.defender
    me, enemy = (atk, dfn) if role == "attacker" else (dfn, atk)
    total = [Fraction(0)] * 3
    for (ha, ba, hd, bd), p in brute_best_joint(battle).items():
        mine, theirs = ((ha, ba), (hd, bd)) if role == "attacker" else ((hd, bd), (ha, ba))
        for j, v in enumerate(value_of(me, enemy, mine, theirs)):
            total[j] += p * v
    return tuple(total)  # type: ignore[return-value]
