"""Every key of every Arcadia Quest report is named in the format's documentation (docs/arcadia-quest.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import explorer
from explorer.scenario.loader import read_scenario_file

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "arcadia-quest.md").read_text(encoding="utf-8")
REPORTS = DOC.split("## Reports", 1)[1].split("\n## ", 1)[0]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("arcadia-*"))


def documented(key: str) -> bool:
    return re.search(rf"`{re.escape(key)}`", REPORTS) is not None


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_top_level_key_is_documented(name: str) -> None:
    report = explorer.resolve(read_scenario_file(ROOT / "examples" / name)).to_dict()
    missing = [key for key in report if not documented(key)]
    assert not missing, f"{name}: keys not in docs/arcadia-quest.md's Reports: {missing}"


def test_the_keys_inside_guard_and_payback_by_are_documented() -> None:
    report = explorer.resolve(read_scenario_file(ROOT / "examples" / "arcadia-encounter-cleave.json")).to_dict()
    assert all(documented(key) for key in report["guard"]), list(report["guard"])
    assert all(documented(key) for key in report["payback_by"] if key != "exact"), list(report["payback_by"])


def test_a_key_the_docs_do_not_name_fails_this_check() -> None:
    assert not documented("no_such_key")
