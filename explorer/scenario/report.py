"""What every game's report offers, and helpers to write distributions for JSON and tables."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol

from explorer.core.dist import Dist

if TYPE_CHECKING:  # pandas is imported lazily: the command line does not need it
    import pandas as pd

__all__ = ["Report", "dist_json", "dist_exact", "fmt_percent"]


class Report(Protocol):
    """The result of `explorer.resolve`: one per scenario, whatever the game."""

    def to_dict(self) -> dict[str, Any]:
        """The spec's JSON report (floats correct to 1e-9)."""

    def to_frame(self) -> pd.DataFrame:
        """The same numbers as a long pandas table."""

    def to_text(self) -> str:
        """A readable table for the command line."""


def dist_json(dist: Dist[Any]) -> dict[str, float]:
    """Outcome (as a string) -> probability, zero outcomes left out.

    >>> dist_json(Dist({0: 1, 2: 3}))
    {'0': 0.25, '2': 0.75}
    """
    return {str(o): float(p) for o, p in dist.probabilities().items()}


def dist_exact(dist: Dist[Any]) -> dict[str, str]:
    """Outcome -> exact probability as a fraction string.

    >>> dist_exact(Dist({0: 1, 2: 3}))
    {'0': '1/4', '2': '3/4'}
    """
    return {str(o): str(p) for o, p in dist.probabilities().items()}


def fmt_percent(p: Fraction | float) -> str:
    """A probability as a percentage for people.

    >>> fmt_percent(Fraction(1, 3))
    '33.33%'
    """
    return f"{float(p) * 100:.2f}%"
