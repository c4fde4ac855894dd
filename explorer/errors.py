"""The project's exceptions: every bad input names its field and what is allowed."""

from __future__ import annotations

__all__ = ["ExplorerError", "ScenarioError"]


class ExplorerError(Exception):
    """Base class of every error the explorer raises on purpose."""


class ScenarioError(ExplorerError, ValueError):
    """A scenario (file, dict or widget value) is invalid.

    Attributes:
        field: dotted path of the offending key, such as ``attacker.units[0].fortitude``.
        problem: what is wrong and what is allowed.

    >>> str(ScenarioError("attacker.pool.basic", "must be a whole number >= 0, got -1"))
    'attacker.pool.basic: must be a whole number >= 0, got -1'
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)
