"""Gzip with each static file compressed once (`explorer.server_gzip.CachedGZip`), on a real tornado server.

Every response must unzip to the file's bytes, the first time (compressed as it is sent) and the
next (from the cache), for a file sent in one piece and one sent in many; a changed file must not
get the old bytes; a client that does not accept gzip gets the plain file.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from tornado.testing import AsyncHTTPTestCase
from tornado.web import Application, StaticFileHandler

from explorer import server_gzip
from explorer.server_gzip import CachedGZip, Compressed

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
