"""The benchmarks still run: every script imports, and the quick ones run to their end with their answers checked.

Speed is measured by the benchmarks, never asserted here (a shared machine's times move by tens of
percent): these tests only keep ``make bench`` and the scripts the docs name from breaking
unnoticed when the package moves (the layout of issue 19 had left `benchmarks/run.py`,
`problems.py` and `bench_best.py` pointing at names that no longer existed). What they do assert
is what the scripts compute besides times: our exact answers against icepool's and dyce's (or the
Monte Carlo's), and the pure-Python path's answers against numpy's.
"""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=lambda p: p.name)
def test_every_benchmark_script_imports(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(script.parent))
    names = runpy.run_path(str(script), run_name="imported")  # not "__main__": nothing runs
    assert names.get("__doc__"), f"{script.name} says nothing of what it times"


def _run(*args: str) -> str:
    run = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{' '.join(args)} exited {run.returncode}:\n{(run.stdout + run.stderr)[-3000:]}"
    return run.stdout


def test_make_bench_runs_and_every_answer_agrees_with_the_peers(tmp_path: Path) -> None:
    out = _run("benchmarks/run.py", "--quick", "--out", str(tmp_path))
    problems = [line for line in out.splitlines() if "PASS" in line or "FAIL" in line]
    assert len(problems) >= 8, out
    checked = [line for line in problems if "[exact:" in line or "[monte carlo:" in line]
    assert len(checked) >= 5, out
    assert all("[exact: same]" in line or "[monte carlo: agrees]" in line for line in checked), out
    assert "targets met" in out and (tmp_path / "results.csv").is_file()


def test_the_pure_path_benchmark_finds_the_same_answers_as_numpy(tmp_path: Path) -> None:
    out = _run("benchmarks/bench_pure.py", "--runs", "1", "--out", str(tmp_path))
    rows = [line for line in out.splitlines() if line.rstrip().endswith(("same", "DIFFERENT"))]
    assert len(rows) >= 5 and all(line.rstrip().endswith("same") for line in rows), out


@pytest.mark.parametrize("args", [("benchmarks/bench_best.py", "--runs", "3"), ("benchmarks/bench_arcadia.py",),
                                  ("benchmarks/bench_panel.py",)], ids=lambda a: a[0].split("/")[-1])
def test_the_quick_benchmarks_run_to_their_end(args: tuple[str, ...]) -> None:
    out = _run(*args)
    assert "ms" in out, out
