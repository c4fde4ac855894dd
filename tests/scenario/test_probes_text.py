"""Probes of hostile text and broken links: refused with one line naming the field, or read right, never worse.

Kept from the probes of issue 18 (part 4 and the link part of 5), so that no change reopens them:

* links: cut short, bytes after the compressed stream, a second stream, a zip bomb, the wrong
  game, bad base64, text that is not UTF-8 or not JSON: `explorer.share.decode` and
  `parse_query` refuse each with the project's error line;
* text no UTF-8 output can write (lone surrogates) in **every** text value and key of every
  example of every game: refused naming that field by the loader (mappings and JSON text), the
  command line (exit 2, one line), `encode` (what a link would carry) and `decode` (a link made
  without `encode`'s checks); TOML text too;
* control characters, NUL, overlong text and values of other types in every text: read and
  printed safely, or refused with an error line; never another exception;
* a hypothesis property: random text (surrogates and control characters included) in names loads
  and comes back equal through a share link, or is refused with `ScenarioError`.

The panels' side (the Load box, Open file and links in the app, headless) is in
`tests/panels/common/test_probes_text.py`; the real-browser probe in `tests/browser/test_probes_text.py`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer import ScenarioError, resolve
from explorer.cli import safe_text
from explorer.scenario.fields import MAX_TEXT, join_path
from explorer.scenario.loader import MAX_KEY, read_scenario_text
from explorer.share import MAX_JSON_BYTES, MAX_LINK_CHARS, decode, encode, parse_query, share_query
from tests.scenario.probes_support import CONTROLS, SURROGATES, Text, json_bytes, raw_link, replaced, texts
from tests.scenario.scenario_support import EXAMPLES, ROOT, check_error, check_line, run_cli

NAMES = sorted(EXAMPLES)
QUICK = [n for n in NAMES if n not in ("aotg-plan.json", "arcadia-sequence-minotaur.json")]
"""The examples that resolve in well under 0.1 s (the probes that resolve every variant use these)."""
PROPERTY = settings(max_examples=int(os.environ.get("EXPLORER_FUZZ_EXAMPLES", "40")), deadline=None,
                    database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def refused_by(call: Any, field: str | None) -> ScenarioError:
    """`call()` raises the project's error, one line naming `field` first (any field if None)."""
    with pytest.raises(ScenarioError) as caught:
        call()
    check_error(caught.value, field)
    return caught.value


# ----------------------------------------------------------------------------- links

A_LINK = encode(EXAMPLES["fire-vs-hill.json"])
PACKED = zlib.compress(json_bytes(EXAMPLES["fire-vs-hill.json"]), 9)


def test_a_link_cut_anywhere_is_refused() -> None:
    data = A_LINK[3:]
    for end in [*range(0, 40), *range(40, len(data) - 1, 7), len(data) - 2, len(data) - 1]:
        cut = "v1." + data[:end]
        error = refused_by(lambda: decode(cut), None)
        assert error.field == "link", str(error)
        refused_by(lambda: parse_query("token=t&game=aotg&scenario=" + cut), "link")


@pytest.mark.parametrize("extra", [b"x", b"\x00" * 3, PACKED, zlib.compress(b'{"game": "aq"}'), b"\x78\x9c"])
def test_bytes_after_the_compressed_stream_are_refused(extra: bytes) -> None:
    link = raw_link(PACKED + extra, compress=False)
    error = refused_by(lambda: decode(link), "link")
    assert f"holds {len(extra)} bytes after the end" in str(error)
    refused_by(lambda: parse_query("scenario=" + link), "link")


def test_a_zip_bomb_is_stopped_without_inflating_it() -> None:
    bomb = raw_link(b'{"game": "aotg", "title": "' + b" " * 6_000_000 + b'"}')
    assert len(bomb) < MAX_LINK_CHARS
    start = time.perf_counter()
    error = refused_by(lambda: decode(bomb), "link")
    assert f"larger than {MAX_JSON_BYTES} bytes" in str(error) and time.perf_counter() - start < 0.5


@pytest.mark.parametrize("query, field, words", [
    ("game=agot&scenario=" + encode({"game": "aq"}), "game", 'names "agot-lcg" but its scenario is for "arcadia-quest"'),
    ("game=chess", "game", "chess"),
    ("scenario=" + raw_link(b'{"title": "no game"}'), "game", "names no game"),
    ("scenario=" + raw_link(b'{"game": "\\ud800"}'), "game", "lone surrogate"),
    ("scenario=" + raw_link(b'{"game": 3}'), "game", ""),
    ("scenario=v1.abc$def", "link", "characters a scenario link never has"),
    ("scenario=v1.ab%2Bc%2Fd", "link", "characters a scenario link never has"),
    ("scenario=v1.ab=c", "link", "characters a scenario link never has"),
    ("scenario=v1.A", "link", "bad base64"),
    ("scenario=v1.AAAAA", "link", "bad base64"),
    ("scenario=" + raw_link(b"not zlib at all", compress=False), "link", "does not unpack"),
    ("scenario=" + raw_link(b'{"game": "aotg", "title": "\xff"}'), "link", "not UTF-8"),
    ("scenario=" + raw_link(b'{"game": "aotg",'), "scenario", "not valid JSON"),
    ("scenario=" + raw_link(b'["aotg"]'), "scenario", "must be an object"),
    ("scenario=" + raw_link(b'{"game": "aotg", "game": "aq"}'), "game", "given twice"),
    ("scenario=v2.abc", "link", "format is 'v2'"),
    ("scenario=", "link", "holds no scenario"),
    ("scenario=v1." + "A" * (MAX_LINK_CHARS + 1), "link", "too long"),
    ("scenario=" + encode({"game": "aq"}) + "&scenario=" + encode({"game": "aq"}), "link", "more than one"),
])
def test_every_broken_link_is_refused_with_one_line(query: str, field: str, words: str) -> None:
    error = refused_by(lambda: parse_query("token=abc&" + query), field)
    assert words in str(error)


# ----------------------------------------------------------------------------- lone surrogates


def _surrogate_variants(name: str) -> list[tuple[Text, str, dict[str, Any]]]:
    out = []
    for i, text in enumerate(texts(EXAMPLES[name])):
        bad = SURROGATES[i % len(SURROGATES)]
        new = (text.value + bad) if i % 2 else (bad + text.value)
        out.append((text, new, replaced(EXAMPLES[name], text, new)))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_lone_surrogate_in_any_text_is_refused_naming_its_field(name: str, tmp_path: Path) -> None:
    variants = _surrogate_variants(name)
    assert len(variants) >= 6
    for text, new, data in variants:
        field = text.field_with(new)
        message = str(refused_by(lambda: resolve(data), field))
        assert "cannot be written as UTF-8" in message and "lone surrogate" in message, message
        assert str(refused_by(lambda: read_scenario_text(json.dumps(data)), field)) == message  # JSON text, \ud800
        assert str(refused_by(lambda: encode(data), field)) == message  # a link is never made
        assert str(refused_by(lambda: decode(raw_link(json_bytes(data))), field)) == message  # nor read
        path = tmp_path / "s.json"
        path.write_bytes(json_bytes(data))
        code, out, err = run_cli("resolve", str(path))
        assert (code, out, err) == (2, "", f"error: {message}\n")
        err.encode("ascii")  # the line itself is printable anywhere


@pytest.mark.parametrize("name", [n for n in NAMES if n.endswith(".toml")])
def test_toml_text_with_a_lone_surrogate_is_refused(name: str, tmp_path: Path) -> None:
    text = (ROOT / "examples" / name).read_text()
    quoted = [i for i, c in enumerate(text) if c == '"']
    assert len(quoted) >= 4
    for start in quoted[::2]:
        pasted = text[:start + 1] + "\udc80" + text[start + 1:]  # a raw surrogate, as pasted text can hold
        error = refused_by(lambda: read_scenario_text(pasted), None)
        assert error.field != "scenario" and "lone surrogate" in str(error)
        escaped = text[:start + 1] + "\\ud800" + text[start + 1:]  # the escape TOML does not allow
        refused_by(lambda: read_scenario_text(escaped, kind="toml"), "scenario")
        path = tmp_path / "s.toml"
        path.write_text(escaped)
        code, out, err = run_cli("resolve", str(path))
        assert code == 2 and not out and err.startswith("error: scenario: not valid TOML") and err.count("\n") == 1


def test_a_lone_surrogate_from_python_is_refused_too() -> None:
    data = replaced(EXAMPLES["fire-vs-hill.json"], Text(("attacker", "units", 0, "name"), "", "", False), "\ud83d\ude00")
    refused_by(lambda: resolve(data), "attacker.units[0].name")  # two halves are two lone surrogates in Python
    joined = json.loads('"\\ud83d\\ude00"')  # JSON's escaped pair is one character: fine
    assert resolve(replaced(data, Text(("attacker", "units", 0, "name"), "", "", False), joined)).to_dict()


# ----------------------------------------------------------------------------- other hostile text


@pytest.mark.parametrize("name", QUICK)
def test_control_characters_and_nul_in_any_text_are_read_safely(name: str) -> None:
    hostile = "".join(CONTROLS)
    for text in texts(EXAMPLES[name]):
        new = text.value + hostile
        data = replaced(EXAMPLES[name], text, new)
        try:
            report = resolve(data)
        except ScenarioError as error:
            check_error(error)
            continue
        shown = safe_text(report.to_text())
        assert not any(c in shown for c in "\x00\x1b\x07\r\u202e\x9b"), (text.field, shown[:300])
        shown.encode("utf-8")
        json.dumps(report.to_dict()).encode("ascii")
        assert decode(encode(data)) == data  # a link carries the text exactly


@pytest.mark.parametrize("name", NAMES)
def test_text_too_long_is_refused_naming_its_field(name: str) -> None:
    for text in texts(EXAMPLES[name]):
        if text.key:
            long_key = text.value + "k" * MAX_KEY
            field = join_path(text.parent, long_key[:20] + "...")
            assert "key too long" in str(refused_by(lambda: resolve(replaced(EXAMPLES[name], text, long_key)), field))
        else:
            data = replaced(EXAMPLES[name], text, "x" * (MAX_TEXT + 1))
            error = refused_by(lambda: resolve(data), text.field)
            assert f"at most {MAX_TEXT} characters" in str(error)
            refused_by(lambda: decode(raw_link(json_bytes(data))), text.field)


@pytest.mark.parametrize("name", QUICK)
def test_other_types_where_text_is_expected_never_crash(name: str) -> None:
    refused = 0
    for text in texts(EXAMPLES[name]):
        if text.key:
            continue
        for value in (7, 1.5, True, None, [], {}, ["x"], {"name": "x"}):
            try:
                resolve(replaced(EXAMPLES[name], text, value))
            except ScenarioError as error:
                check_error(error)
                refused += 1
    assert refused > 0


def test_the_command_line_never_ends_in_a_traceback(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLES["fire-vs-hill.json"]))
    data["attacker"]["units"][0]["name"] = "Caf\u00e9 \U0001f409 \x1b[2J"
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(data))
    data["attacker"]["units"][0]["name"] = "\udc80"
    bad.write_bytes(json_bytes(data))
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    for args in ([str(good)], [str(good), "--json"]):
        run = subprocess.run([sys.executable, "-m", "explorer", "resolve", *args], capture_output=True, env=env,
                             cwd=ROOT, timeout=120)
        assert run.returncode == 0 and run.stderr == b"", run.stderr.decode(errors="replace")[-2000:]
        assert b"Caf\\xe9 \\U0001f409 \\x1b[2J" in run.stdout or b"Caf\\u00e9 \\ud83d\\udc09" in run.stdout
    run = subprocess.run([sys.executable, "-m", "explorer", "resolve", str(bad)], capture_output=True, cwd=ROOT,
                         timeout=120)
    assert run.returncode == 2 and run.stdout == b"" and b"Traceback" not in run.stderr
    line = run.stderr.decode("ascii")
    assert line.count("\n") == 1 and line.startswith("error: attacker.units[0].name: cannot be written as UTF-8")
    check_line(line[len("error: "):-1], "attacker.units[0].name")


# ----------------------------------------------------------------------------- the property

NAMED = [(name, text) for name in ("fire-vs-hill.json", "agot-power-challenge.json", "agot-round.json")
         for text in texts(EXAMPLES[name]) if not text.key and text.field.endswith("name")]
NAMED += [("arcadia-encounter-guard.json", Text((part, "name"), f"{part}.name", "", False))  # presets: names added
          for part in ("hero", "attack", "target")]
NAMED += [(name, Text(("title",), "title", "", False)) for name in ("fire-vs-hill.json", "arcadia-troll.json")]
HOSTILE = st.one_of(st.characters(), st.sampled_from([*SURROGATES, *"".join(CONTROLS), " ", "\U0001f409", "\u00e9"]))
NEW_TEXT = st.one_of(st.text(HOSTILE, max_size=40),
                     st.builds("{}{}{}".format, st.text(HOSTILE, max_size=12), st.sampled_from(SURROGATES),
                               st.text(HOSTILE, max_size=12)))
"""Any text, half of it holding a lone surrogate somewhere."""


def test_every_game_has_names_to_probe() -> None:
    fields = {name: [t.field for n, t in NAMED if n == name] for name, _ in NAMED}
    assert len(fields) == 5 and all(fields.values()), fields
    assert "attacker.units[0].name" in fields["fire-vs-hill.json"]
    assert "challenge.attackers[0].name" in fields["agot-power-challenge.json"]
    for part in ("hero", "attack", "target"):  # each name is read: the report uses it
        data = replaced(EXAMPLES["arcadia-encounter-guard.json"], Text((part, "name"), "", "", False), "Probe name")
        assert "Probe name" in resolve(data).to_text(), part


@PROPERTY
@given(st.sampled_from(NAMED), NEW_TEXT)
def test_random_text_in_a_name_round_trips_through_a_link_or_is_refused(named: tuple[str, Text], new: str) -> None:
    name, text = named
    data = replaced(EXAMPLES[name], text, new)
    lone = any("\ud800" <= c <= "\udfff" for c in new)
    try:
        report = resolve(data)
    except ScenarioError as error:  # a lone surrogate; or a blank name, a name other keys no longer find...
        check_error(error, text.field if lone else None)
        assert not lone or "lone surrogate" in str(error)
        return
    assert not lone
    assert read_scenario_text(json.dumps(data)) == data
    link = parse_query("token=abc&" + share_query(data))
    assert link.scenario == data
    assert resolve(link.scenario).to_dict() == report.to_dict()
    safe_text(report.to_text()).encode("utf-8")
