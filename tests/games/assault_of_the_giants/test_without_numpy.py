"""Without numpy (the in-browser build has none): every battle answers, best play included, as with numpy."""

from __future__ import annotations

import json
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
print(json.dumps(explorer.resolve(battle).to_dict()["attacker"]["best_play"], sort_keys=True))
print("numpy" in sys.modules and sys.modules["numpy"] is not None)
"""


def test_battles_and_best_play_answer_without_numpy_as_with_it() -> None:
    import explorer

    expected = round(float(explorer.resolve(ROOT / "examples" / "fire-vs-hill.json").to_dict()
                           ["attacker"]["means"]["ordning_points"]), 6)
    battle = json.loads((ROOT / "examples" / "fire-vs-hill.json").read_text())
    battle["attacker"]["reroll_policy"] = "best"
    best = json.loads(json.dumps(explorer.resolve(battle).to_dict()["attacker"]["best_play"], sort_keys=True))
    run = subprocess.run([sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    mean, summary, imported = run.stdout.strip().splitlines()
    assert float(mean) == expected
    assert json.loads(summary) == best
    assert imported == "False"
