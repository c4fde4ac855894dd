"""Exact convolution of count-vector distributions by big-integer multiplication.

A distribution over small non-negative integer vectors is packed into one Python integer:
each outcome gets a slot of `width` bits at position ``sum(coordinate * stride)``.
Multiplying two packed integers then convolves the distributions (the outcomes add,
the weights multiply) inside CPython's big-integer arithmetic, exactly, with no per-pair
Python loop. Slots must be wide enough for the largest weight of the result and strides
large enough that no coordinate overflows into the next one.
"""

from __future__ import annotations

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
        self.bytes = max(1, (width + 7) // 8)
        strides = []
        step = 1
        for extent in reversed(self.shape):
            strides.append(step)
            step *= extent
        self.strides = tuple(reversed(strides))
        self.slots = step

    def pack(self, weights: Mapping[tuple[int, ...], int] | Iterable[tuple[tuple[int, ...], int]]) -> int:
        """Pack outcome weights into one integer."""
        width = self.bytes
        buffer = bytearray(self.slots * width)
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        strides = self.strides
        for outcome, weight in pairs:
            index = sum(c * s for c, s in zip(outcome, strides)) * width
            buffer[index:index + width] = weight.to_bytes(width, "little")
        return int.from_bytes(buffer, "little")

    def unpack(self, value: int) -> dict[tuple[int, ...], int]:
        """Outcome weights of a packed integer (slots that are zero are skipped)."""
        width = self.bytes
        data = value.to_bytes(self.slots * width, "little")
        zero = bytes(width)
        out: dict[tuple[int, ...], int] = {}
        shape = self.shape
        for slot in range(self.slots):
            chunk = data[slot * width:(slot + 1) * width]
            if chunk == zero:
                continue
            coords = []
            rest = slot
            for extent in reversed(shape):
                coords.append(rest % extent)
                rest //= extent
            out[tuple(reversed(coords))] = int.from_bytes(chunk, "little")
        return out
