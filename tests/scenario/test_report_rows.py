"""Every report's long table without pandas (`explorer.scenario.report.Rows`), and the same bytes as pandas.

The app's "Report as CSV" writes ``report.to_rows().to_csv()``, which needs no pandas (the
in-browser build has none). Where pandas is installed, these tests check that the CSV is byte for
byte what ``report.to_frame().to_csv(index=False)`` writes, for every example, the panels' and
lessons' default scenarios and a few more (a table with a battle, cards, intrigue discards, best
play), and for any table hypothesis makes up (floats, whole numbers, booleans, empty cells,
quoting). Without pandas those tests skip; the rest run either way.
"""

from __future__ import annotations

import copy
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import lessons
from explorer.resolver import load_scenario, resolve
from explorer.scenario.report import Rows, missing_pandas

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p for p in (ROOT / "examples").iterdir() if p.suffix in (".json", ".toml"))


def _more() -> dict[str, dict[str, Any]]:
    """Scenarios beyond the examples that reach every kind of row."""
    fire = lessons.example("fire-vs-hill.json")
    table = lessons.example("aotg-table.json")
    both = {**copy.deepcopy(fire), "table": table["table"]}
    cards = lessons.changed(fire, {"attacker.cards": [{"name": "Ore", "hits": 1}],
                                   "defender.cards": [{"name": "Weaponry", "blocks": 2}]})
    intrigue = lessons.changed(lessons.example("agot-power-challenge.json"),
                               {"challenge.type": "intrigue", "defender.hand": {"A": 1, "B": 2}})
    best = {"attacker.reroll_policy": "best", "defender.reroll_policy": "best"}
    claim = {"intrigue": {"hand": {"Wildfire": 2, "Other cards": 5}, "card": "Wildfire", "claim": 2}}
    return {"table with a battle": both, "cards": cards, "intrigue discards": intrigue,
            "lesson: magic first": lessons.changed(fire, {"attacker.commands": ["Magic", "Leader", "Move", "Attack"]}),
            "lesson: a claim of 2": lessons.changed(lessons.example("agot-card-odds.json"), claim),
            "best play": lessons.changed(fire, best), "table with best play": lessons.changed(both, best)}


def _panel_defaults() -> dict[str, dict[str, Any]]:
    from explorer.app import Explorer
    from explorer.panels.agot_lcg.odds import OddsPanel
    from explorer.panels.assault_of_the_giants.plan_tab import plan_from_battle
    from explorer.panels.assault_of_the_giants.table_tab import TableTab

    app = Explorer()
    out = {f"panel: {game}": app.panel(game).scenario() for game in app.names}
    out["panel: plan tab"] = plan_from_battle(app.panel("assault-of-the-giants").scenario())
    out["panel: table tab"] = {"game": "assault-of-the-giants", "table": TableTab().table()}
    out["panel: odds"] = OddsPanel().scenario()
    return out


# --- without pandas -------------------------------------------------------------------------------


def test_rows_write_pandas_rules_without_pandas() -> None:
    rows = Rows(("n", "x", "ok", "maybe", "text", "mixed"), (
        {"n": 3, "x": 0.1, "ok": True, "maybe": True, "text": 'say "hi", twice', "mixed": 1},
        {"n": 4, "x": 1, "ok": False, "text": "two\nlines", "mixed": "a"},
        {"x": float("nan"), "ok": True, "maybe": None, "text": None, "mixed": 2.5},
    ))
    assert rows.to_csv() == ('n,x,ok,maybe,text,mixed\n'
                             '3.0,0.1,True,True,"say ""hi"", twice",1\n'
                             '4.0,1.0,False,,"two\nlines",a\n'
                             ',,True,,,2.5\n')
    assert Rows((), ()).to_csv() == "\n" and Rows(("a", "b"), ()).to_csv() == "a,b\n"
    assert rows.column("n") == [3, 4, None] and len(rows.where(ok=True)) == 2
    with pytest.raises(KeyError):
        rows.column("nope")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_gives_rows_and_csv(path: Path) -> None:
    report = resolve(load_scenario(path))
    rows = report.to_rows()
    assert rows.columns and len(rows) > 0
    assert all(set(record) <= set(rows.columns) for record in rows.records)
    assert rows.to_csv().splitlines()[0] == ",".join(rows.columns)


def test_to_frame_without_pandas_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails, as where it is not installed
    with pytest.raises(ModuleNotFoundError) as info:
        resolve(lessons.example("arcadia-troll.json")).to_frame()
    assert str(info.value) == str(missing_pandas("to_frame"))
    assert "pip install 'explorer[frames]'" in str(info.value) and "\n" not in str(info.value)


# --- the same bytes as pandas ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def scenarios() -> dict[str, dict[str, Any]]:
    found = {path.name: load_scenario(path) for path in EXAMPLES}
    return found | _more() | _panel_defaults()


def test_report_csv_is_pandas_csv_for_every_scenario(scenarios: dict[str, dict[str, Any]]) -> None:
    pytest.importorskip("pandas")
    from explorer.panels.common.exports import report_csv

    assert len(scenarios) >= len(EXAMPLES) + 8
    differ = []
    for name, scenario in scenarios.items():
        report = resolve(scenario)
        frame = report.to_frame()
        if report_csv(scenario) != frame.to_csv(index=False):
            differ.append(name)
        assert list(frame.columns) == list(report.to_rows().columns), name
    assert differ == [], f"the CSV differs from pandas' for {differ}"


CELLS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**62), 2**62), st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=-1e-3, max_value=1e-3), st.sampled_from([0.0, -0.0, 1.0, 1e16, 1e-5, 0.1, 1 / 3]),
    st.text(alphabet=st.sampled_from(list('ab ,"\n\r;1.')), max_size=6),
)


@st.composite
def _tables(draw: st.DrawFn) -> Rows:
    columns = tuple(draw(st.lists(st.text(alphabet="abc", min_size=1, max_size=3), min_size=1, max_size=4,
                                  unique=True)))
    kinds = {c: draw(st.sampled_from(["any", "int", "float", "bool", "text"])) for c in columns}
    pools = {"any": CELLS, "int": st.integers(-(2**62), 2**62), "float": st.floats(), "bool": st.booleans(),
             "text": st.text(max_size=4)}
    records = draw(st.lists(st.fixed_dictionaries({}, optional={
        c: st.one_of(st.none(), pools[kinds[c]]) if draw(st.booleans()) else pools[kinds[c]] for c in columns}),
        max_size=6))
    return Rows(columns, tuple(records))


@settings(max_examples=300, deadline=None)
@given(_tables())
def test_any_table_is_written_as_pandas_writes_it(rows: Rows) -> None:
    pd = pytest.importorskip("pandas")
    expected = pd.DataFrame([dict(r) for r in rows.records], columns=list(rows.columns)).to_csv(index=False)
    assert rows.to_csv() == expected


def test_floats_are_written_as_their_repr() -> None:
    rows = Rows(("p",), tuple({"p": p} for p in (0.1, 1 / 3, 1e-17, 123456789.123, math.pi)))
    assert rows.to_csv().splitlines()[1:] == [repr(p) for p in (0.1, 1 / 3, 1e-17, 123456789.123, math.pi)]
