"""Values that carry where they came from, so the UI can show what to check against a box."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Sourced", "EXAMPLE", "rulebook"]

T = TypeVar("T")

EXAMPLE = "example, not from the rulebook"
"""Provenance of a value we made up because the rulebook text was not available."""


def rulebook(page: int | str, note: str = "") -> str:
    """Provenance text for a value read in the rulebook.

    >>> rulebook(17)
    'rulebook p.17'
    >>> rulebook(17, "worked example")
    'rulebook p.17 (worked example)'
    """
    return f"rulebook p.{page}" + (f" ({note})" if note else "")


@dataclass(frozen=True, slots=True)
class Sourced(Generic[T]):
    """A value and its provenance.

    >>> Sourced(2, rulebook(20)).is_example
    False
    """

    value: T
    source: str

    @property
    def is_example(self) -> bool:
        """True when the value is a placeholder to be checked against one's own box."""
        return self.source.startswith("example") or "inferred" in self.source
