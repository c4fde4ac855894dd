"""Exact convolution of count-vector distributions by big-integer multiplication.

A distribution over small non-negative integer vectors is packed into one Python integer:
each outcome gets a slot of `width` bits at position ``sum(coordinate * stride)``.
Multiplying two packed integers then convolves the distributions (the outcomes add,
the weights multiply) inside CPython's big-integer arithmetic, exactly, with no per-pair
Python loop. Slots must be wide enough for the largest weight of the result and strides
large enough that no coordinate overflows into the next one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence

__all__ = ["Packing"]


class Packing:
    """A layout of vector outcomes into slots of a big integer.

    >>> p = Packing(shape=(3, 3), width=8)
    >>> a = p.pack({(0, 0): 1, (1, 1): 1})
    >>> p.unpack(a * a)
    {(0, 0): 1, (1, 1): 2, (2, 2): 1}
    """

    def __init__(self, shape: Sequence[int], width: int) -> None:
        """Slots for outcomes with coordinate i in range(shape[i]), `width` bits per weight.

        Products only stay exact while every result coordinate stays below its shape and every
        result weight below 2**width; choose them from the operands' maxima and totals.
        """
        self.shape = tuple(shape)
        size = max(1, (width + 7) // 8)
        # Slots of 1, 2, 4 or 8 bytes are read back through a typed memoryview (fast);
        # wider slots (huge weights) are sliced one by one.
        self.bytes = next((b for b in (1, 2, 4, 8) if size <= b), size)
        strides = []
        step = 1
        for extent in reversed(self.shape):
            strides.append(step)
            step *= extent
        self.strides = tuple(reversed(strides))
        self.slots = step

    def pack(self, weights: Mapping[tuple[int, ...], int] | Iterable[tuple[tuple[int, ...], int]]) -> int:
        """Pack outcome weights into one integer (each outcome listed once)."""
        width = self.bytes
        strides = self.strides
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        placed = [(sum(c * s for c, s in zip(outcome, strides)) * width, weight) for outcome, weight in pairs]
        buffer = bytearray(max((i for i, _ in placed), default=0) + width)
        for index, weight in placed:
            buffer[index:index + width] = weight.to_bytes(width, "little")
        return int.from_bytes(buffer, "little")

    def unpack(self, value: int) -> dict[tuple[int, ...], int]:
        """Outcome weights of a packed integer (slots that are zero are skipped)."""
        width = self.bytes
        data = value.to_bytes(self.slots * width, "little")
        if width in _FORMATS and sys.byteorder == "little":
            weights: Iterable[int] = memoryview(data).cast(_FORMATS[width])
        else:
            weights = (int.from_bytes(data[i:i + width], "little") for i in range(0, len(data), width))
        out: dict[tuple[int, ...], int] = {}
        shape = self.shape
        for slot, weight in enumerate(weights):
            if not weight:
                continue
            coords = []
            rest = slot
            for extent in reversed(shape):
                coords.append(rest % extent)
                rest //= extent
            out[tuple(reversed(coords))] = weight
        return out


_FORMATS = {1: "B", 2: "H", 4: "I", 8: "Q"}
