"""Gzip for the explorer's server, each static file compressed once rather than on every request.

Tornado's `GZipContentEncoding` compresses every response as it is sent. A page of the app asks
for about a hundred static files (Voila's and the widgets' scripts, plotly.js: some 3 MB), the
same for every person, so a room of people opening the app together had the server compress the
same 3 MB again for each of them: about 0.2 CPU-seconds a page, a tenth of what a page costs the
server and its kernel (`benchmarks/bench_room.py`). Sent uncompressed, the same page would be
three times the bytes on a room's Wi-Fi.

`CachedGZip` compresses a response the first time and keeps the compressed bytes, keyed by the
request's path and the response's ``Etag``, ``Last-Modified`` and length (tornado keeps a static
file's hash for as long as it runs, so its date and size are what tell a changed file); the next
request for the same content gets them without compressing. Only ``200`` answers to a ``GET``
with an ``Etag`` and a ``Content-Length`` are kept, and only when every byte of the file went
through the compressor: a client that drops the connection mid-download (a closed tab, a reload
during a first load, or a hostile page) makes tornado finish the response with the body cut
short, and a body kept from it would be served cut to every later visitor. The cache holds up to
`CACHE_BYTES` in all (the oldest dropped first); everything else is compressed as tornado does.

>>> cache = Compressed(limit=10)
>>> cache.put(("/a", "e1"), b"123456")
>>> cache.put(("/b", "e2"), b"7890123")  # over the limit: the oldest goes
>>> cache.get(("/a", "e1")) is None, cache.get(("/b", "e2"))
(True, b'7890123')
"""

from __future__ import annotations

from collections import OrderedDict

from tornado import httputil
from tornado.web import GZipContentEncoding

__all__ = ["CACHE_BYTES", "CachedGZip", "Compressed"]

CACHE_BYTES = 64 * 2**20
"""The most compressed bytes kept (the app's static files take about 1 MB compressed)."""


class Compressed:
    """Compressed bodies by key, at most `limit` bytes in all, the oldest dropped first."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self._bodies: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._size = 0

    def get(self, key: tuple[str, str]) -> bytes | None:
        """The body kept for `key`, if any."""
        body = self._bodies.get(key)
        if body is not None:
            self._bodies.move_to_end(key)
        return body

    def put(self, key: tuple[str, str], body: bytes) -> None:
        """Keep `body` for `key` (not if it alone is over the limit)."""
        if len(body) > self.limit or key in self._bodies:
            return
        self._bodies[key] = body
        self._size += len(body)
        while self._size > self.limit:
            _, dropped = self._bodies.popitem(last=False)
            self._size -= len(dropped)


COMPRESSED = Compressed()
"""The server's one cache."""


class CachedGZip(GZipContentEncoding):
    """Tornado's gzip transform, reusing the compressed bytes of a response already sent (see the module)."""

    def __init__(self, request: httputil.HTTPServerRequest) -> None:
        super().__init__(request)
        self._path = request.path
        self._key: tuple[str, str] | None = None  # the response being compressed, to keep
        self._parts: list[bytes] = []
        self._expected = -1  # the file's length, as its response announced it
        self._read = 0  # bytes of it that went through the compressor so far
        self._get = request.method == "GET"
        self._served = False  # the whole body went out with the first chunk, from the cache

    def transform_first_chunk(self, status_code: int, headers: httputil.HTTPHeaders, chunk: bytes,
                              finishing: bool) -> tuple[int, httputil.HTTPHeaders, bytes]:
        """Send the kept compressed body if there is one; else compress, keeping what is sent."""
        etag = headers.get("Etag")
        length = str(headers.get("Content-Length", ""))
        wanted = (self._gzipping and self._get and status_code == 200 and etag is not None
                  and length.isdigit() and "Content-Encoding" not in headers
                  and self._compressible_type(str(headers.get("Content-Type", "")).split(";")[0]))
        if wanted:
            key = (self._path, f"{etag} {headers.get('Last-Modified', '')} {headers.get('Content-Length', '')}")
            body = COMPRESSED.get(key)
            if body is not None:
                headers["Vary"] = f"{headers['Vary']}, Accept-Encoding" if "Vary" in headers else "Accept-Encoding"
                headers["Content-Encoding"] = "gzip"
                headers["Content-Length"] = str(len(body))
                self._served = True
                return status_code, headers, body
            self._key, self._expected = key, int(length)
        # tornado's first chunk goes through `transform_chunk` below, which keeps it
        return super().transform_first_chunk(status_code, headers, chunk, finishing)

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        """The next piece: nothing after a kept body; else compressed, and kept if wanted."""
        if self._served:
            return b""
        self._read += len(chunk)
        chunk = super().transform_chunk(chunk, finishing)
        self._keep(chunk, finishing)
        return chunk

    def _keep(self, chunk: bytes, finishing: bool) -> None:
        if self._key is None or not self._gzipping:
            return
        self._parts.append(chunk)
        if finishing:
            if self._read == self._expected:  # the whole file, not what a dropped response managed to send
                COMPRESSED.put(self._key, b"".join(self._parts))
            self._key, self._parts = None, []
