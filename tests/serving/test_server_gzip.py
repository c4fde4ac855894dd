"""Gzip with each static file compressed once (`explorer.serving.compression.CachedGZip`), on a real tornado server.

Every response must unzip to the file's bytes, the first time (compressed as it is sent) and the
next (from the cache), for a file sent in one piece and one sent in many; a changed file must not
get the old bytes; a client that does not accept gzip gets the plain file.
"""

from __future__ import annotations

import asyncio
import gzip
import os
import tempfile
from pathlib import Path

import pytest
from tornado.httpclient import AsyncHTTPClient
from tornado.testing import AsyncHTTPTestCase, gen_test
from tornado.web import Application, StaticFileHandler

from explorer.serving import compression as server_gzip
from explorer.serving.compression import CachedGZip, Compressed

SMALL = b"console.log('hello');\n" * 100  # one write
BIG = bytes(range(32, 127)) * 20_000  # 1.9 MB: StaticFileHandler writes it in 64 kB pieces


class CachedGZipServer(AsyncHTTPTestCase):
    """A tornado app serving a folder with the explorer's transform."""

    folder: Path

    def get_app(self) -> Application:
        return Application([(r"/static/(.*)", StaticFileHandler, {"path": str(self.folder)})],
                           transforms=[CachedGZip])

    def fetch_file(self, name: str, accept_gzip: bool = True) -> tuple[bytes, dict[str, str]]:
        headers = {"Accept-Encoding": "gzip"} if accept_gzip else {"Accept-Encoding": "identity"}
        response = self.fetch(f"/static/{name}", headers=headers, decompress_response=False)
        assert response.code == 200, response.code
        body = response.body
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        return body, dict(response.headers)


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch: pytest.MonkeyPatch) -> Compressed:
    cache = Compressed()
    monkeypatch.setattr(server_gzip, "COMPRESSED", cache)
    return cache


def serve(tmp_path: Path) -> CachedGZipServer:
    (tmp_path / "small.js").write_bytes(SMALL)
    (tmp_path / "big.js").write_bytes(BIG)
    CachedGZipServer.folder = tmp_path
    case = CachedGZipServer()
    case.setUp()
    return case


@pytest.mark.parametrize("name, content", [("small.js", SMALL), ("big.js", BIG)])
def test_every_response_unzips_to_the_file_first_and_from_the_cache(
        tmp_path: Path, fresh_cache: Compressed, name: str, content: bytes) -> None:
    case = serve(tmp_path)
    try:
        first, headers = case.fetch_file(name)
        assert headers["Content-Encoding"] == "gzip" and first == content
        assert len(fresh_cache._bodies) == 1  # kept
        for _ in range(2):
            again, headers = case.fetch_file(name)
            assert headers["Content-Encoding"] == "gzip" and again == content
            assert int(headers["Content-Length"]) < len(content)
    finally:
        case.tearDown()


def test_the_cached_body_is_what_was_sent(tmp_path: Path, fresh_cache: Compressed) -> None:
    case = serve(tmp_path)
    try:
        case.fetch_file("big.js")
        (kept,) = fresh_cache._bodies.values()
        assert gzip.decompress(kept) == BIG
    finally:
        case.tearDown()


def test_a_changed_file_is_not_served_from_the_cache(tmp_path: Path) -> None:
    case = serve(tmp_path)
    try:
        case.fetch_file("small.js")
        (tmp_path / "small.js").write_bytes(b"changed();\n" * 200)  # another size, and a second later:
        stamp = (tmp_path / "small.js").stat().st_mtime + 2
        os.utime(tmp_path / "small.js", (stamp, stamp))
        body, _ = case.fetch_file("small.js")
        assert body == b"changed();\n" * 200
    finally:
        case.tearDown()


def test_a_client_without_gzip_gets_the_plain_file(tmp_path: Path) -> None:
    case = serve(tmp_path)
    try:
        case.fetch_file("big.js")  # kept compressed
        body, headers = case.fetch_file("big.js", accept_gzip=False)
        assert "Content-Encoding" not in headers and body == BIG
    finally:
        case.tearDown()


RANDOM = os.urandom(6 * 2**20)  # 6 MB that gzip cannot shrink: more than the sockets' buffers hold


async def drop_after_first_bytes(port: int, path: str, method: str = "GET", keep: int = 4096) -> int:
    """Ask for `path` with gzip, read the first `keep` bytes, drop the connection; bytes read."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: gzip\r\n\r\n".encode())
    await writer.drain()
    got = b""
    try:
        while len(got) < keep:
            try:
                piece = await asyncio.wait_for(reader.read(keep - len(got)), timeout=1.0)
            except asyncio.TimeoutError:  # a HEAD answer: headers only, the connection kept open
                break
            if not piece:
                break
            got += piece
    finally:
        writer.transport.abort()  # a reset, as a closed tab or a killed client gives
    return len(got)


class DroppedDownloads(AsyncHTTPTestCase):
    """Connections dropped mid-download (and HEAD requests) must never leave a cut body in the cache.

    (`fresh_cache`, autouse, gives each test its own cache: pytest applies it to unittest cases too.)
    """

    def setUp(self) -> None:
        self.folder = tempfile.TemporaryDirectory()
        (Path(self.folder.name) / "random.js").write_bytes(RANDOM)
        super().setUp()

    def tearDown(self) -> None:
        super().tearDown()
        self.folder.cleanup()

    def get_app(self) -> Application:
        return Application([(r"/static/(.*)", StaticFileHandler, {"path": self.folder.name})],
                           transforms=[CachedGZip])

    @gen_test(timeout=60)
    async def test_every_later_response_is_the_whole_file(self) -> None:
        port = self.get_http_port()
        for method in ("GET", "HEAD", "GET", "GET"):
            await drop_after_first_bytes(port, "/static/random.js", method)
            await asyncio.sleep(0.3)  # the server notices the drop and finishes the response
        client = AsyncHTTPClient()
        for _ in range(3):
            response = await client.fetch(self.get_url("/static/random.js"), headers={"Accept-Encoding": "gzip"},
                                          decompress_response=False)
            body = response.body
            if response.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            assert len(body) == len(RANDOM) and body == RANDOM
        assert all(gzip.decompress(kept) == RANDOM for kept in server_gzip.COMPRESSED._bodies.values())
        assert len(server_gzip.COMPRESSED._bodies) == 1  # kept once the whole file went through

