"""The project's exceptions: every bad input names its field and what is allowed.

A message is always one line of at most `MAX_MESSAGE` characters, the field path first: control
characters a hostile file put in a key or a value are shown as visible escapes (``\\x1b``), and so
are lone surrogates (``\\ud800``, which no UTF-8 output can write); an overlong path or problem is
shortened in the middle or at the end.
"""

from __future__ import annotations

import re

__all__ = ["ExplorerError", "ScenarioError", "MAX_MESSAGE", "visible"]

MAX_MESSAGE = 200
"""Longest error message, in characters ("field: problem")."""

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str, keep: str = "") -> str:
    """`text` with control characters (C0, DEL, C1, bidirectional overrides) and lone surrogates as escapes.

    Args:
        text: any text.
        keep: control characters to leave as they are (``"\\n"`` for multi-line output).

    >>> visible("Orc\\x1b[31m\\tboss\\u202e"), visible("a\\ud800b").encode("utf-8")
    ('Orc\\\\x1b[31m\\\\x09boss\\\\u202e', b'a\\\\ud800b')
    """
    def escape(match: re.Match[str]) -> str:
        char = match.group()
        if char in keep:
            return char
        code = ord(char)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _CONTROL.sub(escape, text)


class ExplorerError(Exception):
    """Base class of every error the explorer raises on purpose."""


class ScenarioError(ExplorerError, ValueError):
    """A scenario (file, dict or widget value) is invalid.

    Attributes:
        field: dotted path of the offending key, such as ``attacker.units[0].fortitude``.
        problem: what is wrong and what is allowed.

    >>> str(ScenarioError("attacker.pool.basic", "must be a whole number >= 0, got -1"))
    'attacker.pool.basic: must be a whole number >= 0, got -1'
    >>> len(str(ScenarioError("units[0].name\\n", "x" * 500))), str(ScenarioError("a\\x1b", "b"))
    (200, 'a\\\\x1b: b')
    """

    def __init__(self, field: str, problem: str) -> None:
        field, problem = visible(str(field)), visible(str(problem))
        if len(field) > MAX_MESSAGE // 2:
            half = MAX_MESSAGE // 4
            field = field[:half] + "..." + field[-half:]
        room = MAX_MESSAGE - (len(field) + 2 if field else 0)
        if len(problem) > room:
            problem = problem[:room - 3] + "..."
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)
