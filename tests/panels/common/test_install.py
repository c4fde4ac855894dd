"""The chart widget's installer picks plotly.js safely: a verified cartesian bundle, else the full one.

No test here uses the network: the downloader is replaced by one that fails unless a test says
otherwise, and the cache lives in a temporary folder.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import tarfile
import urllib.error
from pathlib import Path

import pytest

from explorer.panels.common import install as inst

SCRIPT = f"/**\n* plotly.js (cartesian - minified) v{inst.CARTESIAN_VERSION}\n*/\nwindow.Plotly = {{}};\n".encode()
LICENSE = b"MIT License\n\nCopyright (c) Plotly Technologies Inc.\n"


def tarball(*files: tuple[str, bytes], links: tuple[tuple[str, str], ...] = ()) -> bytes:
    """A gzipped tarball holding `files` (name, contents) and symbolic `links` (name, target)."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, target in links:
            info = tarfile.TarInfo(name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            archive.addfile(info)
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def integrity(data: bytes) -> str:
    """The npm ``integrity`` string of `data`."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


GOOD = tarball(("package/package.json", b"{}"), ("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", SCRIPT))


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A private cache, the default choice, and a downloader that fails (as offline); returns its calls."""
    monkeypatch.setenv("EXPLORER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("EXPLORER_PLOTLY", raising=False)
    calls: list[str] = []

    def no_network(url: str, *args: object, **kwargs: object) -> bytes:
        calls.append(url)
        raise urllib.error.URLError("no network in tests")

    monkeypatch.setattr(inst, "_download", no_network)
    return calls


def serve(monkeypatch: pytest.MonkeyPatch, data: bytes, pinned: bytes | None = None) -> list[str]:
    """Let the downloader return `data` while `pinned` (default: `data`) is the pinned tarball."""
    calls: list[str] = []

    def download(url: str, *args: object, **kwargs: object) -> bytes:
        calls.append(url)
        return data

    monkeypatch.setattr(inst, "_download", download)
    monkeypatch.setattr(inst, "CARTESIAN_INTEGRITY", integrity(data if pinned is None else pinned))
    return calls


def test_the_pinned_constants_agree_with_each_other() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", inst.CARTESIAN_VERSION)
    assert inst.CARTESIAN_URL == ("https://registry.npmjs.org/plotly.js-cartesian-dist-min/-/"
                                  f"plotly.js-cartesian-dist-min-{inst.CARTESIAN_VERSION}.tgz")
    algorithm, _, digest = inst.CARTESIAN_INTEGRITY.partition("-")
    assert algorithm == "sha512" and len(base64.b64decode(digest, validate=True)) == 64


def test_a_good_tarball_is_installed_with_its_licence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = serve(monkeypatch, GOOD)
    said: list[str] = []
    target = inst.install(tmp_path / "env", say=said.append)
    assert (target / "static" / "plotly.min.js").read_bytes() == SCRIPT
    assert (target / "static" / "plotly-LICENSE.txt").read_bytes() == LICENSE
    assert (target / "package.json").read_bytes() == (inst._BUILT / "package.json").read_bytes()
    assert calls == [inst.CARTESIAN_URL]
    assert len(said) == 1 and said[0].startswith("plotly.js: cartesian bundle") and "downloaded and verified" in said[0]


def test_the_second_run_uses_the_cache_without_downloading(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = serve(monkeypatch, GOOD)
    assert inst.plotly_bundle().kind == "cartesian" and len(calls) == 1
    assert list((tmp_path / "cache").iterdir()) == [tmp_path / "cache" / inst.CARTESIAN_URL.rsplit("/", 1)[1]]
    again = inst.plotly_bundle()
    assert again.kind == "cartesian" and again.script == SCRIPT and "from the cache" in again.note
    assert len(calls) == 1


def test_a_tampered_download_is_refused_and_the_full_bundle_installed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    tampered = tarball(("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", SCRIPT + b"evil();"))
    serve(monkeypatch, tampered, pinned=GOOD)
    said: list[str] = []
    target = inst.install(tmp_path / "env", say=said.append)
    plotly_js = (target / "static" / "plotly.min.js").read_text()
    assert "window.Plotly" in plotly_js and len(plotly_js) > 3_000_000 and "evil()" not in plotly_js
    assert not (target / "static" / "plotly-LICENSE.txt").exists()
    assert len(said) == 1 and "full bundle" in said[0] and "SHA-512" in said[0]
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())  # never cached


def test_a_tampered_cache_is_dropped_and_fetched_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = serve(monkeypatch, GOOD)
    inst.plotly_bundle()
    (cached,) = (tmp_path / "cache").iterdir()
    cached.write_bytes(tarball(("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", b"evil();")))
    bundle = inst.plotly_bundle()
    assert bundle.script == SCRIPT and "downloaded" in bundle.note and len(calls) == 2
    assert cached.read_bytes() == GOOD


def test_offline_falls_back_to_the_full_bundle(offline: list[str]) -> None:
    bundle = inst.plotly_bundle()
    assert bundle.kind == "full" and bundle.license is None and b"window.Plotly" in bundle.script
    assert "could not be had" in bundle.note and "URLError" in bundle.note and "\n" not in bundle.note
    assert offline == [inst.CARTESIAN_URL]


def test_the_full_bundle_can_be_asked_for_without_any_download(monkeypatch: pytest.MonkeyPatch, offline: list[str]) -> None:
    monkeypatch.setenv("EXPLORER_PLOTLY", "full")
    bundle = inst.plotly_bundle()
    assert bundle.kind == "full" and bundle.note.endswith("because EXPLORER_PLOTLY=full") and offline == []
    assert inst.plotly_bundle("typo").kind == "full" and offline == []


def test_path_traversal_and_links_are_never_followed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    hostile = tarball(("../plotly-cartesian.min.js", b"evil();"), ("/tmp/evil.js", b"evil();"),
                      ("package/../package/plotly-cartesian.min.js", b"evil();"),
                      ("./package/plotly-cartesian.min.js", b"evil();"),
                      ("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", SCRIPT),
                      links=(("package/plotly-cartesian.min.js", "/etc/passwd"),))
    assert inst.members(hostile) == {"package/plotly-cartesian.min.js": SCRIPT, "package/LICENSE": LICENSE}
    serve(monkeypatch, hostile)
    monkeypatch.chdir(tmp_path)
    target = inst.install(tmp_path / "env", say=lambda line: None)
    assert (target / "static" / "plotly.min.js").read_bytes() == SCRIPT
    written = {path.relative_to(tmp_path).as_posix() for path in tmp_path.rglob("*") if path.is_file()}
    assert not any("evil" in name or name.endswith("plotly-cartesian.min.js") for name in written)


def test_a_tarball_without_the_bundle_or_with_it_twice_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    only_hostile = tarball(("../package/plotly-cartesian.min.js", SCRIPT), ("package/LICENSE", LICENSE))
    serve(monkeypatch, only_hostile)
    bundle = inst.plotly_bundle()
    assert bundle.kind == "full" and "lacks package/plotly-cartesian.min.js" in bundle.note
    twice = tarball(("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", SCRIPT),
                    ("package/plotly-cartesian.min.js", b"evil();"))
    with pytest.raises(ValueError, match="twice"):
        inst.members(twice)
    serve(monkeypatch, b"not a tarball")
    assert "could not be had" in inst.plotly_bundle().note


def test_a_bundle_of_another_version_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    serve(monkeypatch, tarball(("package/LICENSE", LICENSE), ("package/plotly-cartesian.min.js", b"/* v9.9.9 */")))
    assert "does not announce" in inst.plotly_bundle().note


def test_another_plotly_js_in_the_plotly_package_is_named_but_the_pin_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    import plotly.offline

    serve(monkeypatch, GOOD)
    monkeypatch.setattr(plotly.offline, "get_plotlyjs_version", lambda: "9.9.9")
    bundle = inst.plotly_bundle()
    assert bundle.kind == "cartesian" and "the plotly package ships plotly.js 9.9.9" in bundle.note
