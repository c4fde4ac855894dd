"""Hostile files and values meet the one hardened loader: a one-line error naming the field, never a traceback."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from explorer import ScenarioError, load_scenario, resolve
from explorer.scenario.loader import MAX_DEPTH, MAX_FILE_BYTES, MAX_ITEMS, MAX_TEXT, read_scenario_text
from tests.scenario.scenario_support import (
    EXAMPLES,
    ROOT,
    check_box,
    check_cli,
    check_error,
    check_line,
    load_box,
    run_cli,
)

AOTG = EXAMPLES["fire-vs-hill.json"]
FILES = {"assault-of-the-giants": AOTG, "arcadia-quest": EXAMPLES["arcadia-troll.json"],
         "agot-lcg": EXAMPLES["agot-power-challenge.json"]}


def refused(source: Any, field: str | None) -> ScenarioError:
    """`resolve` (a path or a mapping) refuses `source` with a proper error line starting with `field`."""
    with pytest.raises(ScenarioError) as caught:
        resolve(source)
    check_error(caught.value, field)
    return caught.value


def write(tmp_path: Path, name: str, content: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return path


def test_binary_utf16_and_nul_bytes_are_named(tmp_path: Path) -> None:
    png = write(tmp_path, "s.json", b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    assert "s.json is not" in str(refused(png, "scenario"))
    utf16 = write(tmp_path, "u.json", "\ufeff" .encode("utf-16-le") + json.dumps(AOTG).encode("utf-16-le"))
    assert "UTF-16" in str(refused(utf16, "scenario"))
    no_bom = write(tmp_path, "n.json", json.dumps(AOTG).encode("utf-16-be"))
    assert "NUL bytes" in str(refused(no_bom, "scenario"))
    latin = write(tmp_path, "l.toml", 'game = "aotg"\ntitle = "Caf\xe9"'.encode("latin-1"))
    assert "not UTF-8" in str(refused(latin, "scenario"))


def test_a_utf8_byte_order_mark_is_allowed(tmp_path: Path) -> None:
    for name, text in (("b.json", json.dumps(AOTG)), ("b.toml", (ROOT / "examples/npc-stone-giants.toml").read_text())):
        path = write(tmp_path, name, b"\xef\xbb\xbf" + text.encode())
        assert resolve(path).to_dict()["game"] == "assault-of-the-giants"


@pytest.mark.parametrize("text", ["[" * 100_000, "{\"a\":" * 100_000, "a = " + "[" * 100_000,
                                  "a = " + "{b = " * 100_000, '{"game": ' + "[" * 40 + "]" * 40 + "}",
                                  "a" + ".a" * 200_000 + " = 1", "[" + "a." * 200_000 + "a]\nx = 1",
                                  "x = {" + "'k'." * 100_000 + "b = 1}"])
def test_deep_nesting_is_refused_before_the_parser_recurses(tmp_path: Path, text: str) -> None:
    for name in ("deep.json", "deep.toml", "deep.txt"):
        assert f"nested more than {MAX_DEPTH} deep" in str(refused(write(tmp_path, name, text), "scenario"))


def test_deep_or_cyclic_mappings_from_python_are_refused() -> None:
    deep: dict[str, Any] = {"game": "aotg"}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    assert "nested too deep" in str(refused(deep, ".".join(["x"] * MAX_DEPTH)))
    cycle: dict[str, Any] = {"game": "aotg"}
    cycle["attacker"] = cycle
    assert refused(cycle, None).field.startswith("attacker.attacker.")  # a long path, shortened


def test_numbers_of_thousands_of_digits(tmp_path: Path) -> None:
    data = copy.deepcopy(AOTG)
    data["attacker"]["pool"]["basic"] = 10**5000
    assert "about 5001 digits" in str(refused(data, "attacker.pool.basic"))
    data["attacker"]["pool"]["basic"] = "@"
    text = json.dumps(data).replace('"@"', "9" * 5000)
    refused(write(tmp_path, "big.json", text), "attacker.pool.basic")
    refused(write(tmp_path, "big.toml", "game = 'aotg'\nx = " + "7" * 5000), "scenario")
    refused(write(tmp_path, "big4k.toml", "game = 'aotg'\nx = " + "7" * 4000), "x")
    refused(write(tmp_path, "nan.json", '{"game": "aotg", "x": NaN}'), "x")
    refused(write(tmp_path, "inf.json", '{"game": "aotg", "x": [1e999]}'), "x[0]")
    refused(write(tmp_path, "inf.toml", "game = 'aotg'\nx = -inf"), "x")


def test_files_beyond_the_size_cap_and_special_files(tmp_path: Path) -> None:
    huge = write(tmp_path, "huge.json", json.dumps(AOTG) + " " * MAX_FILE_BYTES)
    assert "too big" in str(refused(huge, "scenario"))
    assert "a device" in str(refused("/dev/zero", "scenario"))
    assert "a directory" in str(refused(tmp_path, "scenario"))
    assert "cannot read" in str(refused(tmp_path / "missing.json", "scenario"))
    with pytest.raises(ScenarioError, match="too big"):
        read_scenario_text(" " * (MAX_FILE_BYTES + 1))


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    outcome: list[BaseException | None] = []

    def read() -> None:
        try:
            load_scenario(fifo)
            outcome.append(None)
        except BaseException as error:  # noqa: BLE001 - handed to the test thread
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    start = time.monotonic()
    reader.start()
    reader.join(5)
    if reader.is_alive():  # unblock a reader stuck in open() before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a FIFO blocked")
    assert time.monotonic() - start < 5 and isinstance(outcome[0], ScenarioError)
    check_error(outcome[0], "scenario")
    assert "FIFO" in str(outcome[0])


def test_duplicate_keys_are_refused_with_their_path(tmp_path: Path) -> None:
    data = copy.deepcopy(AOTG)
    data["attacker"]["pool"] = "@"
    text = json.dumps(data).replace('"@"', '{"basic": 4, "basic": 5}')
    refused(write(tmp_path, "dup.json", text), "attacker.pool.basic")
    refused(write(tmp_path, "dup.toml", 'game = "aotg"\ngame = "aq"'), "scenario")


@pytest.mark.parametrize("value", [True, 1.0, 2, "1", None, [1]])
def test_format_is_exactly_the_whole_number_1(value: object) -> None:
    for data in FILES.values():
        error = refused({**data, "format": value}, "format")
        assert "must be the whole number 1" in str(error)
    assert resolve({**AOTG, "format": 1})


@pytest.mark.parametrize("key, value, field", [("title", 3, "title"), ("title", ["x"], "title"),
                                               ("notes", "one", "notes"), ("notes", ["ok", 2], "notes[1]")])
def test_title_and_notes_are_typed_in_every_game(key: str, value: object, field: str) -> None:
    for data in EXAMPLES.values():
        refused({**data, key: value}, field)
        assert resolve({**data, "title": "", "notes": ["a", "b"]})


def test_misspelt_keys_are_named_with_a_guess() -> None:
    aotg = copy.deepcopy(AOTG)
    aotg["atacker"] = aotg.pop("attacker")
    assert str(refused(aotg, "atacker")) == 'atacker: unknown key; did you mean "attacker"?'
    aotg = copy.deepcopy(AOTG)
    aotg["attacker"]["units"][0]["fortitud"] = aotg["attacker"]["units"][0].pop("fortitude")
    assert 'did you mean "fortitude"' in str(refused(aotg, "attacker.units[0].fortitud"))
    aotg = copy.deepcopy(AOTG)
    aotg["defender"]["casualty_ordr"] = "listed"
    assert 'did you mean "casualty_order"' in str(refused(aotg, "defender.casualty_ordr"))
    aq = {**FILES["arcadia-quest"], "titel": "x"}
    assert 'did you mean "title"' in str(refused(aq, "titel"))
    assert 'did you mean "game"' in str(refused({"gmae": "aotg"}, "gmae"))
    refused({"attacker": {}}, "game")


def test_out_of_range_numbers_state_the_range() -> None:
    for path, value, field, allowed in [
        (("attacker", "units", 0, "fortitude"), 101, "attacker.units[0].fortitude", "<= 100"),
        (("attacker", "units", 0, "ordning_value"), 1001, "attacker.units[0].ordning_value", "<= 1000"),
        (("attacker", "rerolls"), 61, "attacker.rerolls", "<= 60"),
        (("defender", "arcane_to_blocks"), 121, "defender.arcane_to_blocks", "<= 120"),
    ]:
        data = copy.deepcopy(AOTG)
        node: Any = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
        assert allowed in str(refused(data, field))


def test_values_python_cannot_write_as_json_and_oversized_values() -> None:
    refused({**AOTG, "attacker": {**AOTG["attacker"], 3: 1}}, "attacker")
    refused({**AOTG, "notes": {"a", "b"}}, "notes")
    refused({**AOTG, "title": "x" * (MAX_TEXT + 1)}, "title")
    refused({**AOTG, "notes": ["n"] * (MAX_ITEMS + 1)}, "notes")
    refused([AOTG], "scenario")


def test_control_characters_never_reach_the_terminal(tmp_path: Path) -> None:
    data = copy.deepcopy(AOTG)
    data["attacker"]["units"][0]["name"] = "Orc\x1b[2J\x1b]0;owned\x07\r\u202eboss\x9b"
    path = write(tmp_path, "esc.json", json.dumps(data))
    for args in ((str(path),), (str(path), "--json")):
        code, out, err = run_cli("resolve", *args)
        assert code == 0 and not err
        assert not any(c in out for c in "\x1b\x07\r\u202e\x9b"), out
    code, out, _ = run_cli("resolve", str(path))
    assert "Orc\\x1b[2J" in out
    data["attacker"]["pool"] = {"\x1b[31mred\nline": 1}
    code, out, err = run_cli("resolve", str(write(tmp_path, "key.json", json.dumps(data))))
    check_cli(code, out, err)
    assert code == 2 and err.startswith('error: attacker.pool."\\u001b[31mred\\nline": unknown die')


def test_cli_errors_are_one_line_with_exit_2(tmp_path: Path) -> None:
    for target in ("/dev/zero", str(tmp_path), str(write(tmp_path, "b.json", b"\xff\xfe\x00"))):
        code, out, err = run_cli("resolve", target)
        check_cli(code, out, err)
        assert code == 2


def test_cli_survives_a_closed_pipe() -> None:
    for extra in (["--json"], []):
        run = subprocess.Popen([sys.executable, "-m", "explorer", "resolve", "examples/fire-vs-hill.json", *extra],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert run.stdout is not None and run.stderr is not None
        run.stdout.close()  # the reader is gone before the report is written
        err = run.stderr.read().decode()
        assert run.wait(60) in (0, 1) and "Traceback" not in err and "Error" not in err, err


def test_the_load_box_refuses_hostile_text_and_other_games() -> None:
    start = FILES["assault-of-the-giants"]
    for text, field in [('{"game": "chess"}', "game"), (json.dumps(FILES["arcadia-quest"]), "game"),
                        ("[" * 100_000, "scenario"), ('{"game": "aotg", "game": "aq"}', "game"),
                        (json.dumps({**start, "format": True}), "format"), ("x = " + "1" * 5000, "scenario"),
                        (json.dumps({**start, "atacker": {}}), "atacker"), ("", "scenario")]:
        host, box = load_box("assault-of-the-giants", text, start)
        check_box(host, box, start, text)
        check_line(box.error.text, field)
    host, box = load_box("assault-of-the-giants", json.dumps(start), start)
    assert box.error.text == "" and host.applied == [start]


def test_the_load_box_refuses_binary_uploads() -> None:
    start = FILES["arcadia-quest"]
    host, box = load_box("arcadia-quest", json.dumps(start), start)
    for content in ("\ufeff{}".encode("utf-16-le"), b"\x89PNG\x00", b"\xc3(", b" " * (MAX_FILE_BYTES + 1)):
        box.upload.value = ({"name": "x.json", "type": "application/json", "size": len(content),
                             "last_modified": datetime.now(timezone.utc), "content": memoryview(content)},)
        check_line(box.error.text, "scenario")
        assert len(host.applied) == 1
