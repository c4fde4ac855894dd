"""The successes of one roll in closed form: counting sequences of die rolls instead of walking them.

A roll (INF-RB p.18, Reroll Pool) is a stream of independent die rolls. A CRIT scores and keeps its
die rolling (the extra die); a plain success scores and ends its die; a failure is rerolled while
reroll points last (each point once, greedily, as in `model.roll_successes`) and otherwise ends its
die. Split the stream into its non-CRIT rolls and the CRITs between them:

* the non-CRIT rolls hold ``s`` successes and ``f`` failures. With ``R`` reroll points and ``d`` dice,
  either ``f <= R`` and ``s = d`` (the last roll is a success: C(s + f - 1, f) orders), or
  ``f > R`` and ``s = d + R - f`` (every order ends the roll on its last die: C(s + f, f) orders);
* the ``c`` CRITs fall anywhere before the last roll: C(n + c - 1, c) ways among ``n = s + f``.

Successes = s + worth * c. Terms are added CRIT count by CRIT count until the mass left is below
the cut, which is reported (not renormalised). `model.roll_successes` walks the same stream
die by die; the two agree within their cuts (tests), and this one is much faster for big pools.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from explorer.core.dist import Dist
from explorer.games.arcadia_quest.attack.model import CUT_BELOW, Trial

__all__ = ["chain_successes"]


def _non_crit_runs(dice: int, rerolls: int, trial: Trial) -> list[tuple[int, int, int]]:
    """(successes s, non-CRIT rolls n, weight of the s/f orders) for every possible failure count f."""
    runs = []
    for f in range(dice + rerolls + 1):
        if f <= rerolls:
            s, orders = dice, comb(dice + f - 1, f)
        else:
            s, orders = dice + rerolls - f, comb(dice + rerolls, f)
        weight = orders * trial.plain ** s * trial.fail ** f
        if weight:
            runs.append((s, s + f, weight))
    return runs


@lru_cache(maxsize=1024)
def chain_successes(dice: int, rerolls: int, trial: Trial, crit_worth: int = 1,
                    cut_below: float = CUT_BELOW) -> Dist[int]:
    """Exact successes of a roll of `dice` dice with `rerolls` reroll points; CRIT chains cut below `cut_below`.

    Args:
        dice: dice rolled (>= 0).
        rerolls: reroll points, each rerolls one failed die (>= 0).
        trial: weights of one die roll (fail, plain success, CRIT); not all CRIT.
        crit_worth: successes one CRIT counts (2 with "extra-hit-per-crit").
        cut_below: the probability under which the CRIT tail is cut (> 0).

    >>> chain_successes(1, 1, Trial(fail=1, plain=1, crit=0)).probability(0)
    Fraction(1, 4)
    >>> round(float(chain_successes(1, 0, Trial(2, 3, 1)).mean()), 9)  # melee: 4/6 / (1 - 1/6)
    0.8
    """
    if trial.crit >= trial.total:
        raise ValueError("a die whose every face is a CRIT never stops rolling")
    if dice == 0:
        return Dist.single(0)
    runs = _non_crit_runs(dice, rerolls, trial)
    longest = max(n for _, n, _ in runs)
    total = trial.total
    terms: dict[int, int] = {}      # successes -> weight over total ** (longest + crits)
    crits, scale, kept = 0, total ** longest, 0
    num, den = Fraction(cut_below).as_integer_ratio()
    while True:
        for s, n, weight in runs:
            w = weight * comb(n + crits - 1, crits) * trial.crit ** crits * total ** (longest - n)
            if w:
                k = s + crit_worth * crits
                terms[k] = terms.get(k, 0) + w
                kept += w
        if trial.crit == 0 or (scale - kept) * den < num * scale:
            break
        crits += 1
        scale *= total
        kept *= total
        terms = {k: w * total for k, w in terms.items()}
    return Dist(terms, scale - kept)
