"""Fuzzing: mutated scenarios of every game, as mappings, JSON and TOML text, through every entry point.

Each example file is mutated (values replaced, nudged, retyped, keys dropped, misspelt or added,
lists stretched) and sent to the loader, `explorer.resolve`, the command line (in this process)
and a headless Load box. The answer must be a report or the project's error (`ExplorerError`:
one line of at most 200 characters, the field path first; exit code 2 for the command line),
never another exception, and each example must finish within the deadline.
"""

from __future__ import annotations

import atexit
import copy
import json
import math
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from explorer import ExplorerError, ScenarioError, find_game, resolve
from explorer.scenario.loader import read_scenario_text
from tests.scenario.scenario_support import EXAMPLES, GAMES, check_box, check_cli, check_error, load_box, run_cli

FUZZ = settings(max_examples=int(os.environ.get("EXPLORER_FUZZ_EXAMPLES", "30")), deadline=timedelta(seconds=20), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
"""Few examples a test (the whole file takes seconds; ``EXPLORER_FUZZ_EXAMPLES=2000`` digs deeper);
the deadline catches a hang, not a slow machine."""

NAMES = sorted(EXAMPLES)


def _words(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _words(item)
    elif isinstance(value, list):
        for item in value:
            yield from _words(item)
    elif isinstance(value, str):
        yield value


WORDS = sorted({w for data in EXAMPLES.values() for w in _words(data)} | {"X", "best", "round", "odds", "timing"})
"""Every key and text of the examples: mutations swap in words the readers know."""

TEXT = st.one_of(st.sampled_from(WORDS), st.text(max_size=12),
                 st.sampled_from(["", " ", "\x1b[2J", "a\nb", "\u202e", "\x00", "prized (99999)", "x" * 1001]))


class Huge(int):
    """10**5000: beyond Python's int-to-text limit, yet printable in a falsifying example."""

    def __repr__(self) -> str:
        return "10**5000"


NUMBER = st.one_of(st.integers(-3, 70), st.sampled_from([10**9, 10**9 + 1, -(10**9) - 1, 2**63, 10**30, Huge(10**5000)]),
                   st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([1.0, 0.5, -0.0]))
LEAF = st.one_of(st.none(), st.booleans(), NUMBER, TEXT)
VALUE = st.recursive(LEAF, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                     max_leaves=8)
PYTHON_ONLY = st.one_of(st.binary(max_size=4), st.sets(st.integers(0, 3), max_size=2), st.builds(object),
                        st.tuples(st.integers(0, 3)), st.dictionaries(st.integers(0, 3), st.integers(0, 3), max_size=2))
BOUNDS = [7, 9, 12, 15, 20, 30, 50, 60, 100, 101, 115, 120, 1000, 1001]
"""The upper ends of the fields' ranges: the largest inputs each reader still accepts, and one more."""
OPS = ("replace", "nudge", "retype", "delete", "rename", "add", "stretch")


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _nodes(item, path + (i,))


def _typo(draw: st.DrawFn, key: str) -> str:
    if len(key) < 2:
        return key + "s"
    i = draw(st.integers(0, len(key) - 2))
    kind = draw(st.sampled_from(("drop", "swap", "double")))
    if kind == "drop":
        return key[:i] + key[i + 1:]
    if kind == "swap":
        return key[:i] + key[i + 1] + key[i] + key[i + 2:]
    return key[:i] + key[i] + key[i:]


def _mutate(draw: st.DrawFn, data: dict[str, Any], python: bool) -> None:
    path = draw(st.sampled_from(list(_nodes(data))))
    parent: Any = data
    for step in path[:-1]:
        parent = parent[step]
    key, value = path[-1], parent[path[-1]]
    op = draw(st.sampled_from(OPS))
    if op == "replace":
        parent[key] = draw(st.one_of(VALUE, PYTHON_ONLY) if python else VALUE)
    elif op == "nudge" and isinstance(value, int) and not isinstance(value, bool):
        parent[key] = draw(st.sampled_from([value - 1, value + 1, 0, -1, value * 10, 10**9, 2**64] + BOUNDS))
    elif op == "retype":
        as_float = float(value) if isinstance(value, int) and abs(value) < 2**1000 else value  # a huge int has no float
        parent[key] = draw(st.sampled_from([str(value), [value], {"v": value}, as_float,
                                            int(value) if isinstance(value, bool) else True]))
    elif op == "delete":
        del parent[key]
    elif op == "rename" and isinstance(parent, dict):
        parent[_typo(draw, str(key))] = parent.pop(key)
    elif op == "add":
        if isinstance(parent, dict):
            parent[draw(TEXT)] = draw(VALUE)
        else:
            parent.append(copy.deepcopy(value))
    elif op == "stretch" and isinstance(value, list) and value:
        parent[key] = [copy.deepcopy(value[i % len(value)]) for i in range(draw(st.sampled_from([2, 13, 31, 101])) * len(value))]


@st.composite
def scenarios(draw: st.DrawFn, python: bool = False) -> tuple[str, dict[str, Any]]:
    """An example's name and a mutated copy of it (1 to 3 mutations)."""
    name = draw(st.sampled_from(NAMES))
    data = copy.deepcopy(EXAMPLES[name])
    for _ in range(draw(st.integers(1, 3))):
        _mutate(draw, data, python)
    return name, data


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_value(value: Any) -> str:
    if value is None:
        return "{}"  # TOML has no null
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, int) and abs(value) > _HUGE:
        return ("-" if value < 0 else "") + "1" + "0" * 5000
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def toml_text(data: dict[str, Any]) -> str:
    """The scenario as TOML (inline tables), the same structure as its JSON."""
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in data.items())


_HUGE = 10**4000
_MARK = "@@huge@@"


def _marked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_marked(v) for v in value]
    return _MARK if isinstance(value, int) and abs(value) > _HUGE else value


def as_text(data: dict[str, Any], kind: str) -> str:
    """JSON or TOML text of a mapping (numbers beyond Python's int-to-text limit written out too)."""
    if kind == "toml":
        return toml_text(data)
    return json.dumps(_marked(data), indent=1).replace(f'"{_MARK}"', "1" + "0" * 5000)


def check_resolves(data: Any) -> None:
    """A report whose JSON and text can be written, or the project's error line."""
    try:
        report = resolve(data)
    except ExplorerError as error:
        assert isinstance(error, ScenarioError)
        check_error(error)
        return
    event("report")
    json.dumps(report.to_dict())
    assert isinstance(report.to_text(), str)


@FUZZ
@given(scenarios(python=True))
def test_mutated_mappings_resolve_or_name_a_field(case: tuple[str, dict[str, Any]]) -> None:
    check_resolves(case[1])


@FUZZ
@given(scenarios(), st.sampled_from(["json", "toml"]))
def test_mutated_files_load_and_resolve_or_name_a_field(case: tuple[str, dict[str, Any]], kind: str) -> None:
    try:
        data = read_scenario_text(as_text(case[1], kind), kind=kind)
    except ScenarioError as error:
        check_error(error)
        return
    check_resolves(data)


@FUZZ
@given(st.sampled_from(NAMES), st.sampled_from(["json", "toml"]), st.lists(
    st.tuples(st.floats(0, 1), st.integers(0, 8), st.text(max_size=4) | st.sampled_from(['"', "{", "]", "=", "\n"])),
    min_size=1, max_size=3))
def test_damaged_text_loads_or_names_a_field(name: str, kind: str, edits: list[tuple[float, int, str]]) -> None:
    text = as_text(EXAMPLES[name], kind)
    for where, cut, insert in edits:
        at = int(where * len(text))
        text = text[:at] + insert + text[at + cut:]
    for given_kind in (kind, None):
        try:
            data = read_scenario_text(text, kind=given_kind)
        except ScenarioError as error:
            check_error(error)
            continue
        check_resolves(data)


FILES = Path(tempfile.mkdtemp(prefix="explorer-fuzz-"))
atexit.register(shutil.rmtree, FILES, ignore_errors=True)


@FUZZ
@given(scenarios(), st.sampled_from([".json", ".toml", ".txt"]), st.booleans())
def test_the_command_line_prints_a_report_or_one_error_line(case: tuple[str, dict[str, Any]], suffix: str,
                                                            as_json: bool) -> None:
    path = FILES / f"case{suffix}"
    path.write_text(as_text(case[1], "toml" if suffix == ".toml" else "json"), encoding="utf-8")
    code, out, err = run_cli("resolve", str(path), *(["--json"] if as_json else []))
    check_cli(code, out, err)
    assert "\x1b" not in out


@FUZZ
@given(scenarios(), st.sampled_from(["json", "toml"]), st.sampled_from(GAMES))
def test_the_load_box_loads_or_shows_one_error_line(case: tuple[str, dict[str, Any]], kind: str, game: str) -> None:
    name, data = case
    start = next(d for d in EXAMPLES.values() if d["game"] == game)
    text = as_text(data, kind)
    host, box = load_box(game, text, start)
    check_box(host, box, start, text)
    if not box.error.text:
        assert find_game(host.applied[0]["game"]).name == game, f"{name} (mutated) loaded in the {game} box"
