"""Exact convolution of count-vector distributions by big-integer multiplication.

A distribution over small non-negative integer vectors is packed into one Python integer:
each outcome gets a slot of `width` bits at position ``sum(coordinate * stride)``.
Multiplying two packed integers then convolves the distributions (the outcomes add,
the weights multiply) inside CPython's big-integer arithmetic, exactly, with no per-pair
Python loop. Slots must be wide enough for the largest weight of the result and strides
large enough that no coordinate overflows into the next one.

The first coordinate is the most significant one. It may *saturate*: `fold` adds every slot
whose first coordinate is at or above `cap` into the slot with first coordinate `cap`, which is
how a count is kept "capped" (say, arcane symbols beyond what the conversions can use).
Because the first coordinate sits on top, a product may run past it without corrupting the
others, and `fold` then brings it back.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal, TypeVar

Outcome = TypeVar("Outcome", bound=tuple[int, ...])
"""A tuple of whole numbers, one per coordinate of a layout (any fixed length)."""

__all__ = ["Packing", "times_small"]


class Packing:
    """A layout of vector outcomes into slots of a big integer.

    >>> p = Packing(shape=(3, 3), width=8)
    >>> a = p.pack({(0, 0): 1, (1, 1): 1})
    >>> p.unpack(a * a)
    {(0, 0): 1, (1, 1): 2, (2, 2): 1}
    """

    def __init__(self, shape: Sequence[int], width: int) -> None:
        """Slots for outcomes with coordinate i in range(shape[i]), `width` bits per weight.

        Products only stay exact while every result coordinate stays below its shape (the first
        one may run over if `fold` follows) and every result weight below 2**width; choose them
        from the operands' maxima and totals.
        """
        self.shape = tuple(shape)
        size = max(1, (width + 7) // 8)
        # Slots of 1, 2, 4 or 8 bytes are read back through a typed memoryview (fast);
        # wider slots (huge weights) are sliced one by one.
        self.bytes = next((b for b in (1, 2, 4, 8) if size <= b), size)
        self.bits = self.bytes * 8
        strides = []
        step = 1
        for extent in reversed(self.shape):
            strides.append(step)
            step *= extent
        self.strides = tuple(reversed(strides))
        self.slots = step
        self.layer_bits = self.strides[0] * self.bits if self.shape else self.bits
        """Bits of one value of the first coordinate (all slots below it)."""

    def offset(self, vector: Sequence[int]) -> int:
        """Bit position of the slot of `vector`.

        >>> Packing((2, 4), 8).offset((1, 2))
        48
        """
        return sum(c * s for c, s in zip(vector, self.strides)) * self.bits

    def monomial(self, vector: Sequence[int], weight: int = 1) -> int:
        """A packed distribution with the single outcome `vector`.

        >>> p = Packing((2, 4), 8); p.unpack(p.monomial((1, 3), 5))
        {(1, 3): 5}
        """
        return weight << self.offset(vector)

    def pack(self, weights: Mapping[Outcome, int] | Iterable[tuple[Outcome, int]]) -> int:
        """Pack outcome weights into one integer (each outcome listed once)."""
        width = self.bytes
        strides = self.strides
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        placed = [(sum(c * s for c, s in zip(outcome, strides)) * width, weight) for outcome, weight in pairs]
        buffer = bytearray(max((i for i, _ in placed), default=0) + width)
        for index, weight in placed:
            buffer[index:index + width] = weight.to_bytes(width, "little")
        return int.from_bytes(buffer, "little")

    def weights(self, value: int) -> Iterable[tuple[int, int]]:
        """Pairs of slot number and weight, for the slots of `value` that are not zero."""
        width = self.bytes
        count = max(1, (value.bit_length() + self.bits - 1) // self.bits)
        data = value.to_bytes(count * width, "little")
        if width in _FORMATS and sys.byteorder == "little":
            cells: Iterable[int] = memoryview(data).cast(_FORMATS[width])
        else:
            cells = (int.from_bytes(data[i:i + width], "little") for i in range(0, len(data), width))
        return ((slot, weight) for slot, weight in enumerate(cells) if weight)

    def unpack(self, value: int) -> dict[tuple[int, ...], int]:
        """Outcome weights of a packed integer (slots that are zero are skipped)."""
        out: dict[tuple[int, ...], int] = {}
        shape = self.shape
        for slot, weight in self.weights(value):
            coords = []
            rest = slot
            for extent in reversed(shape[1:]):
                coords.append(rest % extent)
                rest //= extent
            coords.append(rest)
            out[tuple(reversed(coords))] = weight
        return out

    def fold(self, value: int, cap: int) -> int:
        """Saturate the first coordinate at `cap`: slots at or above it add into slot `cap`.

        >>> p = Packing((3, 2), 8)
        >>> p.unpack(p.fold(p.pack({(0, 1): 1, (2, 0): 2, (4, 0): 3, (5, 1): 4}), 2))
        {(0, 1): 1, (2, 0): 5, (2, 1): 4}
        """
        top = cap * self.layer_bits
        high = value >> top
        if not high:
            return value
        mask = (1 << self.layer_bits) - 1
        total = 0
        while high:
            total += high & mask
            high >>= self.layer_bits
        return (value & ((1 << top) - 1)) | (total << top)

    def layers(self, value: int) -> Iterable[tuple[int, int]]:
        """Pairs of first coordinate and the slots below it, for the layers that are not empty.

        >>> p = Packing((3, 2), 8)
        >>> [(c, p.unpack(v)) for c, v in p.layers(p.pack({(0, 1): 1, (2, 0): 2}))]
        [(0, {(0, 1): 1}), (2, {(0, 0): 2})]
        """
        mask = (1 << self.layer_bits) - 1
        coordinate = 0
        while value:
            layer = value & mask
            if layer:
                yield coordinate, layer
            value >>= self.layer_bits
            coordinate += 1


def times_small(value: int, terms: Sequence[tuple[int, int]]) -> int:
    """Multiply a packed value by a small packed polynomial given as (bit offset, weight) terms.

    Shifts and adds, no general multiplication: linear in the size of `value`, which is what
    a Horner step over one die's faces needs.

    >>> p = Packing((4,), 8)
    >>> p.unpack(times_small(p.pack({(0,): 1, (1,): 1}), [(0, 1), (8, 2)]))
    {(0,): 1, (1,): 3, (2,): 2}
    """
    total = 0
    for shift, weight in terms:
        part = value << shift if shift else value
        total += part if weight == 1 else part * weight
    return total


_FORMATS: dict[int, Literal["B", "H", "I", "Q"]] = {1: "B", 2: "H", 4: "I", 8: "Q"}
