"""Test helper: a copy of a scenario with one value replaced, by dotted path."""

from __future__ import annotations

import copy
from typing import Any


def edited(base: dict[str, Any], path: str, value: object) -> dict[str, Any]:
    """A deep copy of `base` with the value at `path` (``a.b.0.c``; numbers index lists) set.

    >>> edited({"a": [{"b": 1}]}, "a.0.b", 2)
    {'a': [{'b': 2}]}
    """
    data = copy.deepcopy(base)
    *parents, last = path.split(".")
    target: Any = data
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target.setdefault(key, {})
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return data
