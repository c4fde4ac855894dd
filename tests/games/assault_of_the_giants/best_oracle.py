"""Brute-force best play for Assault of the Giants: every die rolled one by one, every subset rerolled.

Written from the rules text (rulebook p.16-17) and the issue's definition of best play, sharing no
code with `explorer.games.assault_of_the_giants.best.play*`: dice are ordered, each subset of at most
`rerolls` dice is tried as the reroll (each die once, all at once), every fresh outcome is listed
one by one, and every split of the arcane (x into 2 hits, y into 1 block) is tried; probabilities
are Fractions. Casualties and rewards come from the plain brute force of `tests.games.assault_of_the_giants.oracle`.

Ties are broken as the module docstring of `best` states: the value tuple (objective, net Ordning
Points, damage dealt - damage taken), then the fewest dice rerolled, then the most (hits, blocks,
arcane) kept, then the most dice rerolled of the kinds listed first; splits: most to hits, then
most to blocks.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from explorer.games.assault_of_the_giants.rules.model import Battle, Side
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
    if second and side.modifiers.rerolls:
        raise NotImplementedError("this oracle searches one round of rerolls")
    if second:  # no Command rerolls: the cards' round is the only one
        side = replace(side, modifiers=replace(side.modifiers, rerolls=second))
    kinds = [k for k, (_, n) in enumerate(side.pool) for _ in range(n)]
    dice = [side.pool[k][0] for k in kinds]
    mods = side.modifiers
    most = min(mods.rerolls, len(dice))
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

    def outcomes(kept: tuple[int, int, int], chosen: tuple[int, ...]) -> list[tuple[Fraction, Values, Totals]]:
        """Every fresh roll of the chosen dice, one by one: probability, value, final totals."""
        out = []
        fresh_all = list(itertools.product(*(dice[i].faces for i in chosen)))
        for fresh in fresh_all:
            symbols = [kept[j] + sum(f[j] for f in fresh) for j in range(3)]
            v, final = best_split(*symbols)
            out.append((Fraction(1, len(fresh_all)), v, final))
        return out

    dist: dict[Totals, Fraction] = defaultdict(Fraction)
    expected = [Fraction(0)] * 3
    rolls = list(itertools.product(*(d.faces for d in dice)))
    for faces in rolls:
        best_key, best_outcomes = None, None
        for size in range(most + 1):
            for chosen in itertools.combinations(range(len(dice)), size):
                kept = tuple(sum(faces[i][j] for i in range(len(dice)) if i not in chosen) for j in range(3))
                listed = outcomes(kept, chosen)
                mean = tuple(sum(p * v[j] for p, v, _ in listed) for j in range(3))
                per_kind = tuple(sum(1 for i in chosen if kinds[i] == k) for k in range(len(side.pool)))
                key = (mean, -size, kept, per_kind)
                if best_key is None or key > best_key:
                    best_key, best_outcomes = key, listed
        for p, v, final in best_outcomes:
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
