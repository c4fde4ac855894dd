"""Without numpy (the in-browser build has none): every battle but best play answers, and best play says why not."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

CODE = """
import sys, json
sys.modules["numpy"] = None  # import numpy now fails, as where it is not installed
import explorer
report = explorer.resolve("examples/fire-vs-hill.json").to_dict()
print(round(report["attacker"]["means"]["ordning_points"], 6))
battle = json.load(open("examples/fire-vs-hill.json"))
battle["attacker"]["reroll_policy"] = "best"
try:
    explorer.resolve(battle)
except explorer.ScenarioError as error:
    print(error)
print("numpy" in sys.modules and sys.modules["numpy"] is not None)
"""


def test_battles_answer_without_numpy_and_best_play_says_it_needs_it() -> None:
    import explorer

    expected = round(float(explorer.resolve(ROOT / "examples" / "fire-vs-hill.json").to_dict()
                           ["attacker"]["means"]["ordning_points"]), 6)
    run = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    mean, refusal, imported = run.stdout.strip().splitlines()
    assert float(mean) == expected
    assert refusal == "reroll_policy: best play needs the Python package 'numpy', which is not installed here"
    assert imported == "False"
