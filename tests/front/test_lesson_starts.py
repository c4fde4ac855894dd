"""The lessons start where the app does, and say what their tables and exercises mean.

- Every lesson that hands over to a game's app panel (``show("<game>")``), and every workshop,
  begins from the scenario that panel opens with: the notebook's own cells are run up to the
  variable that holds it, and the value is compared with a freshly built panel's ``scenario()``
  (or with its report). A lesson that went back to an example file of its own would fail here.
- What the lessons' prose says about those starting scenarios (five dice, the command row, the
  hill elite last in line...) is still true of them.
- The lesson tables of chances show a % sign (or words), never "-0", and a distribution's column
  still adds up to 100% once its rarer outcomes are gathered in one row.
- Every exercise uses the tolerant checker: a number or a chance with an explicit tolerance, a
  word answer whose quoted choices the checker knows (`MEANINGS`, or ``accept=``).
"""

from __future__ import annotations

import ast
import math
import re
from pathlib import Path
from typing import Any

import jupytext
import pytest

from explorer import lessons, resolve
from explorer.app import build_panel
from explorer.core.errors import ScenarioError
from explorer.panels.common.exercise import MEANINGS, words_of

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

STARTS: dict[str, tuple[str, str]] = {
    "00-start-here": ("battle", "assault-of-the-giants"),
    "01-what-if": ("battle", "assault-of-the-giants"),
    "10-assault-of-the-giants": ("battle", "assault-of-the-giants"),
    "20-workshop-assault-of-the-giants": ("battle", "assault-of-the-giants"),
    "11-arcadia-quest": ("action", "arcadia-quest"),
    "21-workshop-arcadia-quest": ("action", "arcadia-quest"),
    "12-a-game-of-thrones": ("round_report", "agot-lcg"),
    "22-workshop-a-game-of-thrones": ("round_report", "agot-lcg"),
}
"""Lesson -> (the variable holding the scenario, or report, it shares with the app; the game)."""


def _code_cells(stem: str) -> list[str]:
    notebook = jupytext.read(NOTEBOOKS / f"{stem}.py")
    return [cell.source for cell in notebook.cells if cell.cell_type == "code"]


def _run_until(stem: str, name: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The value of `name` once the lesson's code cells, in order, have defined it."""
    monkeypatch.chdir(NOTEBOOKS)  # where a kernel runs the lesson
    namespace: dict[str, Any] = {"__name__": "__lesson__"}
    for source in _code_cells(stem):
        exec(compile(source, f"{stem}.py", "exec"), namespace)  # noqa: S102 - the lesson's own cells
        if name in namespace:
            return namespace[name]
    raise AssertionError(f"{stem}: no cell defines {name!r}")


def test_every_lesson_that_shows_a_panel_and_every_workshop_is_checked() -> None:
    for path in sorted(NOTEBOOKS.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for game in re.findall(r'\bshow\("([\w-]+)"\)', text):
            assert path.stem in STARTS, f"{path.name} shows the {game} panel but its start is not checked here"
            assert STARTS[path.stem][1] == game, f"{path.name}: shows {game}, checked against {STARTS[path.stem][1]}"
        if path.stem.startswith("2"):
            assert path.stem in STARTS, f"{path.name}: a workshop whose start is not checked here"
    assert {game for _, game in STARTS.values()} == {"assault-of-the-giants", "arcadia-quest", "agot-lcg"}


@pytest.mark.parametrize("stem", list(STARTS))
def test_the_lesson_starts_from_the_scenario_the_app_opens_with(stem: str, monkeypatch: pytest.MonkeyPatch) -> None:
    name, game = STARTS[stem]
    found = _run_until(stem, name, monkeypatch)
    app = build_panel(game).scenario()
    if hasattr(found, "to_dict"):
        assert found.to_dict() == resolve(app).to_dict(), f"{stem}: {name} is not the report of the app's {game}"
    else:
        assert found == app, f"{stem}: {name} is not the scenario the app's {game} panel opens with"
        assert resolve(found).to_dict() == resolve(app).to_dict()


def test_what_the_prose_says_of_the_starting_battle_is_true() -> None:
    """00, 01, 10 and 20 describe the app's battle in words: check each claim."""
    battle = lessons.start("assault-of-the-giants")
    attacker, defender = battle["attacker"], battle["defender"]
    assert (attacker["race"], defender["race"]) == ("fire", "hill")  # "fire giants attack a hill giant army"
    assert attacker["pool"] == {"basic": 4, "fire": 1}  # 20: "Five dice (four basic, one fire)"
    assert attacker["commands"] == ["Leader", "Move", "Magic", "Attack"]  # 01 section 1, 20 question 1
    assert lessons.value(resolve(battle), "attacker.modifiers.rerolls") == 3  # 20: "four rerolls instead of three"
    assert attacker["casualty_order"] == defender["casualty_order"] == "listed"  # 10 section 4
    names = [unit["name"] for unit in defender["units"]]
    assert names == ["hill giant", "hill giant", "hill elite"]  # 20: "the hill elite, last in line"
    assert not any(unit["wounded"] or unit["champion"] for unit in defender["units"])  # 20 question 4: healthy
    assert [unit["ordning_value"] for unit in defender["units"]] == [1, 1, 2]  # 20 question 5


def test_what_the_prose_says_of_the_starting_hero_action_is_true() -> None:
    """11 and 21: Greensleeves shoots the Hammer Beastman; an Orc Marauder and a Goblin Archer are close."""
    action = lessons.start("arcadia-quest")
    assert action["hero"]["preset"] == "Greensleeves" and action["attack"]["kind"] == "ranged"
    assert action["target"]["preset"] == "Hammer Beastman" and action["target"]["close"] is False
    assert [m["preset"] for m in action["close_monsters"]] == ["Orc Marauder", "Goblin Archer"]


def test_start_gives_a_new_copy_and_names_the_games_it_knows() -> None:
    first = lessons.start("agot-lcg")
    first["players"]["first"]["gold"] = 99
    assert lessons.start("agot-lcg")["players"]["first"]["gold"] != 99
    with pytest.raises(ScenarioError) as refused:
        lessons.start("chess")
    assert refused.value.field == "game" and "agot-lcg" in str(refused.value)


# --- chances in the lesson tables --------------------------------------------------------------------------


def _percent(text: str) -> float:
    return float(text.rstrip("%"))


def test_a_distribution_shows_percentages_that_add_up_with_its_rarer_outcomes() -> None:
    report = resolve(lessons.example("arcadia-troll.json"))
    table = lessons.distributions(report, {"hits": "hits", "wounds": "wounds"}, cut=0.01)
    assert list(table.index)[-2:] == ["rarer outcomes (each under 1%)", "left out"]
    for column in ("hits", "wounds"):
        cells = table[column].tolist()
        assert all(isinstance(c, str) for c in cells)
        assert all(c.endswith("%") for c in cells[:-1]) and cells[-1] == "under one in a trillion"
        assert sum(_percent(c) for c in cells[:-1]) == pytest.approx(100, abs=0.01 * len(cells))
        assert not any(c.startswith("-") for c in cells)


def test_a_distribution_with_nothing_left_out_has_no_extra_rows() -> None:
    table = lessons.distributions(resolve(lessons.example("fire-vs-hill.json")),
                                  {"OP": "attacker.ordning_points"})
    assert list(table.index) == [0, 1, 3, 5] and table["OP"].tolist() == ["2.98%", "22.77%", "15.21%", "59.04%"]


def test_fates_number_repeated_unit_names_and_show_percentages() -> None:
    table = lessons.fates(resolve(lessons.start("assault-of-the-giants")), "defender")
    assert list(table.index) == ["hill giant 1", "hill giant 2", "hill elite"]
    for label in table.index:
        row = table.loc[label].to_dict()
        assert all(v.endswith("%") for v in row.values()), row
        assert sum(_percent(v) for v in row.values()) == pytest.approx(100, abs=0.02)


def test_chances_and_a_percent_grid_say_percent() -> None:
    troll = lessons.example("arcadia-troll.json")
    table = lessons.chances(resolve(troll), {"the troll dies": "kill", "it is overkilled": "overkill"})
    assert table["chance"].tolist() == ["41.26%", "0.18%"]
    grid = lessons.grid(troll, "attack.dice", [2, 3], "attack.rerolls", [0], "kill", as_percent=True)
    assert grid.to_dict() == {2: {0: "12.01%"}, 3: {0: "27.60%"}}


@pytest.mark.parametrize(("chance", "shown"), [(0.0, "0%"), (-1e-18, "0%"), (1.0, "100%"), (1e-13, "under 0.01%"),
                                               (0.99999, "over 99.99%"), (0.5, "50.00%"), (0.00005, "0.01%")])
def test_percent_never_shows_minus_zero_nor_rounds_the_possible_away(chance: float, shown: str) -> None:
    assert lessons.percent(chance) == shown


def test_rounding_noise_around_zero_is_zero_not_minus_zero() -> None:
    found = lessons.values({"mean": -1e-17, "other": -0.0, "real": -0.25}, "mean", "other", "real")
    assert found == {"mean": 0.0, "other": 0.0, "real": -0.25}
    assert math.copysign(1, found["mean"]) == math.copysign(1, found["other"]) == 1  # not -0.0, shown "-0.000"


def test_records_name_their_columns_for_people() -> None:
    round_report = resolve(lessons.start("agot-lcg"))
    table = lessons.records(round_report, "challenges", {"challenge": "type", "winner": "winner_player",
                                                         "attackers": "attackers"})
    assert list(table.columns) == ["challenge", "winner", "attackers"]
    assert table["attackers"].tolist()[0] == "Raider"
    assert "None" not in repr(table) and "NaN" not in repr(table)


# --- the exercises -----------------------------------------------------------------------------------------


def _predicts() -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(NOTEBOOKS.glob("2*-workshop-*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Predict":
                found.append((path.stem, node))
    return found


def test_there_are_exercises_in_every_workshop() -> None:
    assert {stem for stem, _ in _predicts()} == {stem for stem in STARTS if stem.startswith("2")}


@pytest.mark.parametrize(("stem", "call"), _predicts(), ids=lambda v: v if isinstance(v, str) else str(v.lineno))
def test_each_exercise_uses_the_tolerant_checker(stem: str, call: ast.Call) -> None:
    keywords = {k.arg: k.value for k in call.keywords}
    kind = ast.literal_eval(keywords["kind"]) if "kind" in keywords else "chance"
    question = ast.literal_eval(call.args[0])
    if kind in ("chance", "number"):
        assert "tolerance" in keywords, f"{stem}: {question!r} gives no tolerance"
        tolerance = ast.literal_eval(keywords["tolerance"])
        assert 0 <= tolerance <= (10 if kind == "chance" else 1), f"{stem}: {question!r}: tolerance {tolerance}"
    else:
        accepted = set(MEANINGS) | set(ast.literal_eval(keywords["accept"]) if "accept" in keywords else ())
        choices = re.findall(r"'([^']+)'", question)
        assert choices, f"{stem}: {question!r}: a word question names its choices in quotes"
        unknown = [c for c in choices if words_of(c) not in {words_of(a) for a in accepted}]
        assert not unknown, f"{stem}: {question!r}: the checker knows no other wording of {unknown}"
