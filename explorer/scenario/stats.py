"""The numbers users of dice calculators expect of a report's headline outcome.

Every game's report names one headline outcome (damage taken, wounds dealt, power claimed...) and
gives, for it, the mean and standard deviation, the median, and "at least k" / "at most k" for
every k its outcomes reach. `headline` works them out from a `Dist` of whole numbers; the report
writes `Headline.to_dict` under the key ``headline`` of its JSON, `Headline.text_lines` in its text,
and the panels show `Headline.rows`.

Mass cut on purpose (the endless CRIT chains' tail, below 1e-12) counts as nothing, as in
`Dist.mean`: "at least" and "at most" then add up to a little under 1.

>>> from explorer.core.dist import Dist
>>> h = headline(Dist.uniform(range(1, 5)), "wounds dealt")
>>> h.mean, h.median, h.at_least[3], h.at_most[1]
(Fraction(5, 2), 2, Fraction(1, 2), Fraction(1, 4))
>>> round(h.sd, 4)
1.118
>>> print(h.text_lines()[0])
wounds dealt: mean 2.50, standard deviation 1.12, median 2
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from explorer.core.dist import Dist

__all__ = ["Headline", "headline", "MAX_STEPS", "TAIL"]

MAX_STEPS = 60
"""Most values of k listed for "at least k" / "at most k" (the outcomes' range, cut to this)."""

TAIL = Fraction(1, 10_000)
"""k is listed while P(at least k) is at least this: a long tail of 0.0 % cells says nothing."""


@dataclass(frozen=True)
class Headline:
    """The summary of one whole-number outcome.

    Attributes:
        of: what the outcome is, in the rulebook's words (``"damage taken by the defender"``).
        mean: exact mean.
        variance: exact variance.
        median: the smallest k with P(outcome <= k) >= 1/2 (None if the cut holds half).
        at_least: k -> P(outcome >= k), for every k from the smallest outcome up to the last whose
            chance is at least `TAIL` (one in ten thousand).
        at_most: k -> P(outcome <= k), for the same k.
    """

    of: str
    mean: Fraction
    variance: Fraction
    median: int | None
    at_least: dict[int, Fraction]
    at_most: dict[int, Fraction]

    @property
    def sd(self) -> float:
        """The standard deviation (a float: the square root of the exact variance)."""
        return math.sqrt(max(float(self.variance), 0.0))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: floats, with the mean and variance also exact (``"p/q"``).

        >>> headline(Dist.uniform([0, 1]), "hits").to_dict()["at_least"]
        {'0': 1.0, '1': 0.5}
        """
        return {"of": self.of, "mean": float(self.mean), "sd": self.sd, "median": self.median,
                "at_least": {str(k): float(p) for k, p in self.at_least.items()},
                "at_most": {str(k): float(p) for k, p in self.at_most.items()},
                "exact": {"mean": str(self.mean), "variance": str(self.variance)}}

    def rows(self) -> list[tuple[int, Fraction, Fraction]]:
        """(k, P(at least k), P(at most k)) for every k, smallest first."""
        return [(k, self.at_least[k], self.at_most[k]) for k in self.at_least]

    @property
    def certain(self) -> int | None:
        """The one outcome, when there is no chance in it (variance 0, nothing cut), else None.

        >>> headline(Dist.single(4), "power").certain, headline(Dist.uniform([0, 1]), "hits").certain
        (4, None)
        """
        if self.variance == 0 and self.median is not None and self.at_least.get(self.median) == 1 \
                and self.at_most.get(self.median) == 1:
            return self.median
        return None

    def text_lines(self) -> list[str]:
        """The report's text: one line of mean, standard deviation and median, then the two chances
        (one line only when the outcome is certain: there is no chance to list).

        >>> headline(Dist.uniform([0, 1]), "hits").text_lines()[1:]
        ['  at least k: 0: 100.0%, 1: 50.0%', '  at most k:  0: 50.0%, 1: 100.0%']
        >>> headline(Dist.single(4), "power gained").text_lines()
        ['power gained: 4, always (no chance in it)']
        """
        if self.certain is not None:
            return [f"{self.of}: {self.certain}, always (no chance in it)"]
        median = "none (the cut holds half)" if self.median is None else str(self.median)
        first = f"{self.of}: mean {float(self.mean):.2f}, standard deviation {self.sd:.2f}, median {median}"
        least = ", ".join(f"{k}: {_percent(p)}" for k, p in self.at_least.items())
        most = ", ".join(f"{k}: {_percent(p)}" for k, p in self.at_most.items())
        return [first, f"  at least k: {least}", f"  at most k:  {most}"]


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def headline(dist: Dist[Any], of: str) -> Headline:
    """The `Headline` of a distribution of whole numbers.

    Args:
        dist: the outcome's exact distribution (whole-number outcomes).
        of: what the outcome is, shown beside every number.

    >>> headline(Dist({0: 1, 10: 1}), "x").at_least[5]
    Fraction(1, 2)
    >>> list(headline(Dist({0: 10000, 1: 9999, 2: 1}), "x").at_least)  # P(2) is under one in 10,000
    [0, 1]
    """
    outcomes = [o for o, _ in dist.items()]
    low = min(outcomes)
    high = max((o for o in outcomes if dist.at_least(o) >= TAIL), default=low)
    step = max(1, math.ceil((high - low + 1) / MAX_STEPS))
    ks = list(range(low, high + 1, step))
    if ks[-1] != high:
        ks.append(high)
    return Headline(of, dist.mean(), dist.variance(), dist.median(),
                    {k: dist.at_least(k) for k in ks}, {k: dist.at_most(k) for k in ks})
