"""Pixels of a screenshot: a small PNG reader (8-bit RGB or RGBA, not interlaced), as Chromium writes them.

The tests read colours Chrome drew (under its vision-deficiency emulation, which no script in the
page can see) from ``page.screenshot``'s PNG bytes; the project has no image library to do it.
"""

from __future__ import annotations

import struct
import zlib
from collections import Counter

RGB = tuple[int, int, int]


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def pixels(png: bytes) -> tuple[int, int, list[RGB]]:
    """Width, height and the RGB pixels, row by row, of an 8-bit RGB or RGBA PNG that is not interlaced.

    >>> import zlib, struct
    >>> def chunk(kind, body):
    ...     return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    >>> png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 1, 8, 2, 0, 0, 0))
    ...        + chunk(b"IDAT", zlib.compress(bytes([1, 10, 20, 30, 5, 5, 5]))) + chunk(b"IEND", b""))
    >>> pixels(png)
    (2, 1, [(10, 20, 30), (15, 25, 35)])
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, data, width, height, step = 8, b"", 0, 0, 3
    while pos < len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise ValueError(f"a PNG this reader does not read: depth {depth}, colour type {colour}")
            step = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            data += body
        pos += 12 + length
    raw, stride = zlib.decompress(data), width * step
    out: list[RGB] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b = previous[i]
            c = previous[i - step] if i >= step else 0
            line[i] = (line[i] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]) & 255
        out.extend((line[x * step], line[x * step + 1], line[x * step + 2]) for x in range(width))
        previous = line
    return width, height, out


def commonest(png: bytes, leave_out: tuple[RGB, ...] = ((255, 255, 255),)) -> RGB:
    """The colour most pixels of a screenshot have, leaving out `leave_out` and colours near them."""
    _, _, found = pixels(png)
    near = [c for c in found if all(sum(abs(x - y) for x, y in zip(c, o)) > 24 for o in leave_out)]
    return Counter(near).most_common(1)[0][0]
