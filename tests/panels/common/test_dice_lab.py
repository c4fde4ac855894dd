"""The Dice lab panel shows exactly `side_totals` for the pool typed in, and reports bad input in place."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import pytest

from explorer.charts import VIEWS
from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games import find_game, labs
from explorer.games.assault_of_the_giants.battle.lab import AssaultLabEngine
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE, FACE_LIMITS
from explorer.games.assault_of_the_giants.rules.model import (
    FIXED_POLICIES,
    CombatDie,
    Modifiers,
    Side,
)
from explorer.panels.common.chart import Chart
from explorer.panels.common.dice_lab import DiceLab
from explorer.scenario.lab import CUSTOM, JOINT, LabDie, LabModifier, describe_face, parse_custom_die
from tests.panels.common.accessible import unnamed

SYMBOLS = ("hit", "block", "arcane")
LIMITS = {name: limit.value for name, limit in FACE_LIMITS.items()}


def expected(pool: dict[str, int], mods: Modifiers = Modifiers(), policy: str = "misses",
             custom: CombatDie | None = None) -> Dist:
    dice = dict(DEFAULT_DICE, **({CUSTOM: custom} if custom else {}))
    return side_totals(Side(tuple((dice[n], k) for n, k in pool.items() if k), mods, (), reroll_policy=policy))


def exact_floats(dist: Dist, view: str = "exactly") -> tuple[list[int], list[float]]:
    xs = list(range(min(dist), max(dist) + 1))
    read = {"exactly": dist.probability, "at least": dist.at_least, "at most": dist.at_most}[view]
    return xs, [float(read(x)) for x in xs]


def bars(lab: DiceLab) -> tuple[list[int], list[float]]:
    trace = lab.distribution.data[0]
    return list(trace.x), list(trace.y)


def set_pool(lab: DiceLab, pool: dict[str, int]) -> None:
    for name, w in lab.counts.items():
        w.value = pool.get(name, 0)


def row_of(lab: DiceLab, control: widgets.Widget) -> widgets.HBox:
    """The HBox holding `control`."""
    def walk(box: widgets.Widget):
        for child in getattr(box, "children", ()):
            if child is control:
                return box
            found = walk(child)
            if found is not None:
                return found
        return None
    return walk(lab.widget)


@pytest.fixture
def lab() -> DiceLab:
    return DiceLab()


# ----------------------------------------------------------------------------- exact numbers
def test_default_chart_is_side_totals_of_three_basic_dice(lab):
    joint = expected({"basic": 3})
    assert bars(lab) == exact_floats(joint.marginal(0))
    assert lab.result[JOINT] == joint


@pytest.mark.parametrize("pool, mods, policy", [
    ({"basic": 2, "fire": 1}, Modifiers(rerolls=2, arcane_to_hits=1, arcane_to_blocks=1), "misses"),
    ({"hill": 1, "storm": 2, "cloud": 1}, Modifiers(rerolls=1, arcane_to_blocks=2), "blanks"),
    ({"frost": 3}, Modifiers(rerolls=3, arcane_to_hits=2), "none"),
    ({}, Modifiers(), "misses"),
])
def test_charts_follow_pool_modifiers_and_policy(lab, pool, mods, policy):
    set_pool(lab, pool)
    lab.modifiers["rerolls"].value = mods.rerolls
    lab.modifiers["arcane_to_hits"].value = mods.arcane_to_hits
    lab.modifiers["arcane_to_blocks"].value = mods.arcane_to_blocks
    lab.policy.value = policy
    joint = expected(pool, mods, policy)
    assert lab.error_texts() == {}
    assert bars(lab) == exact_floats(joint.marginal(0))
    lab.outcome.value = "blocks"
    assert bars(lab) == exact_floats(joint.marginal(1))
    heat = lab.symbols.data[0]
    assert [list(row) for row in heat.z] == [[float(joint.probability((h, b))) for h in heat.x] for b in heat.y]
    assert sum(map(sum, heat.z)) == pytest.approx(1)


@pytest.mark.parametrize("view", VIEWS)
def test_view_shows_exactly_at_least_or_at_most(lab, view):
    lab.counts["storm"].value = 1
    lab.view.value = view
    assert bars(lab) == exact_floats(expected({"basic": 3, "storm": 1}).marginal(0), view)


def test_custom_dice_join_the_pool(lab):
    lab.custom_faces.value = "2 hits, block, arcane, -, hit+block, 4 hit"
    lab.custom_count.value = 2
    lab.modifiers["arcane_to_hits"].value = 1
    die = CombatDie(CUSTOM, ((2, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (1, 1, 0), (4, 0, 0)))
    joint = expected({"basic": 3, CUSTOM: 2}, Modifiers(arcane_to_hits=1), custom=die)
    assert bars(lab) == exact_floats(joint.marginal(0))


def test_view_change_does_not_recompute(lab, monkeypatch):
    calls = []
    compute = lab.engine.compute
    monkeypatch.setattr(lab.engine, "compute", lambda *a: calls.append(a) or compute(*a))
    lab.view.value = "at least"
    lab.outcome.value = "blocks"
    assert calls == []
    lab.counts["basic"].value = 1
    assert len(calls) == 1


def test_summary_has_means_and_chance_of_at_least_k(lab):
    joint = expected({"basic": 3})
    lab.threshold.value = 3
    text = lab.summary.value
    assert f"{float(joint.marginal(0).mean()):.2f}" in text and f"{float(joint.marginal(1).mean()):.2f}" in text
    assert f"chance of at least 3 hits: <b>{float(joint.marginal(0).at_least(3)):.2%}</b>" in text
    assert "P(" not in text
    assert str(joint.marginal(0).at_least(3)) in text
    assert lab.threshold.max == max(joint.marginal(0))


# ----------------------------------------------------------------------------- persistent widgets
def test_same_chart_widgets_across_updates(lab):
    dist_fig, sym_fig = lab.distribution, lab.symbols
    assert isinstance(dist_fig, Chart) and isinstance(sym_fig, Chart)
    before, revision = bars(lab), dist_fig.revision
    lab.counts["fire"].value = 2
    lab.view.value = "at most"
    lab.outcome.value = "blocks"
    assert lab.distribution is dist_fig and lab.symbols is sym_fig
    assert dist_fig.revision > revision and not dist_fig.note
    assert bars(lab) != before


def test_css_classes(lab):
    assert "lab-root" in lab.widget._dom_classes
    assert lab.errors and all("lab-error" in m.widget._dom_classes for m in lab.errors.values())


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("control, value, key, words", [
    (lambda lab: lab.counts["basic"], -1, "basic", ["basic dice", "0 to 60", "-1"]),
    (lambda lab: lab.counts["fire"], 58, "pool", ["pool", "at most 60", "got 61"]),
    (lambda lab: lab.custom_count, -2, "custom count", ["custom dice", "0 to 60"]),
    (lambda lab: lab.custom_faces, "hit, block", "custom faces", ["custom die", "exactly 6 faces", "got 2"]),
    (lambda lab: lab.custom_faces, "   ", "custom faces", ["custom die", "no faces"]),
    (lambda lab: lab.custom_faces, "hit, hitt, -, -, -, -", "custom faces", ["custom die, face 2", "'hitt'", "hit, block, arcane"]),
    (lambda lab: lab.custom_faces, "5 hit, -, -, -, -, -", "custom faces", ["custom die, face 1", "at most 4 hit", "got 5"]),
    (lambda lab: lab.modifiers["rerolls"], -1, "rerolls", ["rerolls", "0 to 60"]),
    (lambda lab: lab.modifiers["arcane_to_blocks"], -3, "arcane_to_blocks", ["arcane → block", "0 to 120"]),
])
def test_bad_input_is_reported_next_to_it_and_keeps_the_chart(lab, control, value, key, words):
    widget = control(lab)
    good = widget.value
    before, heat_before = bars(lab), [list(r) for r in lab.symbols.data[0].z]
    widget.value = value                       # must not raise: no traceback reaches the output
    errors = lab.error_texts()
    assert list(errors) == [key]
    for word in words:
        assert word in errors[key]
    if key != "pool":
        assert lab.errors[key].widget in row_of(lab, widget).children
    assert bars(lab) == before and [list(r) for r in lab.symbols.data[0].z] == heat_before
    lab.view.value = "at least"                # other inputs still work but the chart waits for valid input
    assert bars(lab) == before
    widget.value = good
    assert lab.error_texts() == {}
    assert bars(lab) == exact_floats(expected({"basic": 3}).marginal(0), "at least")


def test_valid_value_after_an_error_updates_the_chart(lab):
    lab.counts["basic"].value = -1
    assert "basic" in lab.error_texts()
    lab.counts["basic"].value = 5
    assert lab.error_texts() == {}
    assert lab.errors["basic"].widget.layout.display == "none"
    assert bars(lab) == exact_floats(expected({"basic": 5}).marginal(0))


def test_two_errors_at_once_then_fixed_one_by_one(lab):
    lab.counts["basic"].value = -1
    lab.custom_faces.value = "zap, -, -, -, -, -"
    assert set(lab.error_texts()) == {"basic", "custom faces"}
    lab.counts["basic"].value = 1
    assert set(lab.error_texts()) == {"custom faces"}
    assert bars(lab) == exact_floats(expected({"basic": 3}).marginal(0))
    lab.custom_faces.value = "hit, -, -, -, -, -"
    assert lab.error_texts() == {}
    assert bars(lab) == exact_floats(expected({"basic": 1}).marginal(0))


# ----------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("text, faces", [
    ("hit, 2 hit, block, arcane, blank, hit+block", ((1, 0, 0), (2, 0, 0), (0, 1, 0), (0, 0, 1), (0, 0, 0), (1, 1, 0))),
    ("HITS+Block, 2x hits, 4 hit, -, miss, ", ((1, 1, 0), (2, 0, 0), (4, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0))),
    ("hit+hit, 2 arcane, 2 blocks, arcane + arcane, ,blank", ((2, 0, 0), (0, 0, 2), (0, 2, 0), (0, 0, 2), (0, 0, 0), (0, 0, 0))),
    ("4 hit + 2 block + 2 arcane,-,-,-,-,-", ((4, 2, 2),) + ((0, 0, 0),) * 5),
])
def test_parse_custom_die_good(text, faces):
    assert parse_custom_die(text, SYMBOLS, LIMITS, 6) == faces


@pytest.mark.parametrize("text, field, problem", [
    ("", "custom die", "has no faces"),
    ("hit, hit, hit, hit, hit", "custom die", "exactly 6 faces"),
    ("hit, hit, hit, hit, hit, hit, hit", "custom die", "got 7"),
    ("hit, -, -, -, -, crit", "custom die, face 6", "unknown symbol 'crit'"),
    ("hit+, -, -, -, -, -", "custom die, face 1", "unknown symbol ''"),
    ("2, -, -, -, -, -", "custom die, face 1", "unknown symbol '2'"),
    ("blank+hit, -, -, -, -, -", "custom die, face 1", "unknown symbol 'blank'"),
    ("-, 3 hit + 2 hit, -, -, -, -", "custom die, face 2", "at most 4 hit"),
    ("-, -, 3 blocks, -, -, -", "custom die, face 3", "at most 2 block"),
    ("-, -, -, arcane+arcane+arcane, -, -", "custom die, face 4", "at most 2 arcane"),
])
def test_parse_custom_die_bad(text, field, problem):
    with pytest.raises(ScenarioError) as info:
        parse_custom_die(text, SYMBOLS, LIMITS, 6)
    assert info.value.field == field
    assert problem in info.value.problem


def test_unknown_symbol_message_lists_allowed_values():
    with pytest.raises(ScenarioError, match="allowed: hit, block, arcane.*blank / miss / -"):
        parse_custom_die("zap, -, -, -, -, -", SYMBOLS, LIMITS, 6)


def test_faces_in_words_and_provenance_shown(lab):
    row = row_of(lab, lab.counts["basic"])
    text = " ".join(getattr(w, "value", "") for w in row.children if isinstance(w, widgets.HTML))
    assert "hit · 2 hits · block · arcane · blank · hit + block" in text
    assert "example, not from the rulebook" in text
    assert describe_face((0, 2, 1), SYMBOLS) == "2 blocks + arcane"


# ----------------------------------------------------------------------------- engines
def test_registry_and_engine_protocol():
    assert "assault-of-the-giants" in labs()
    engine = find_game("aotg").lab_engine()
    assert isinstance(engine, AssaultLabEngine)
    assert engine.outcomes == ("hits", "blocks") and engine.symbols == SYMBOLS
    assert engine.policies == FIXED_POLICIES  # "best" needs an opponent: battles only
    assert [m.name for m in engine.modifiers()] == ["rerolls", "arcane_to_hits", "arcane_to_blocks"]
    assert set(engine.dice()) == set(DEFAULT_DICE)
    with pytest.raises(ScenarioError, match="unknown die"):
        engine.compute({"nope": 1}, {}, {}, "misses")


class CoinEngine:
    """A made-up game: two-faced dice, a crit worth 2 hits; proves the panel is game-agnostic."""

    title = "Coins"
    symbols = ("hit", "crit")
    face_limits = {"hit": 1, "crit": 1}
    faces_per_die = 2
    max_dice = 3
    outcomes = ("hits", "crits")
    policies = ("none",)

    def dice(self):
        return {"coin": LabDie(((1, 0), (0, 1)), "made up")}

    def modifiers(self):
        return (LabModifier("bonus", "bonus hits", 5),)

    def compute(self, pool, custom, modifiers, policy):
        faces = [f for name, n in pool.items() for f in [(self.dice().get(name) or LabDie(custom[name], "")).faces] * n]
        joint = Dist.single((modifiers["bonus"], 0))
        for fs in faces:
            joint = joint.combine(Dist.uniform(fs), lambda a, f: (a[0] + f[0] + 2 * f[1], a[1] + f[1]))
        return {"hits": joint.marginal(0), "crits": joint.marginal(1), JOINT: joint}


def test_another_engine_slots_in():
    lab = DiceLab(CoinEngine(), pool={"coin": 2}, custom_faces="crit, -")
    assert bars(lab) == ([2, 3, 4], [0.25, 0.5, 0.25])
    lab.modifiers["bonus"].value = 1
    assert bars(lab) == ([3, 4, 5], [0.25, 0.5, 0.25])
    lab.counts["coin"].value = 4
    assert "0 to 3" in lab.error_texts()["coin"]
    lab.counts["coin"].value = 2
    lab.custom_count.value = 2
    assert "at most 3 dice in total" in lab.error_texts()["pool"]
    lab.counts["coin"].value = 1
    lab.custom_count.value = 1
    assert lab.error_texts() == {}
    assert bars(lab) == ([2, 3, 4, 5], [0.25] * 4)            # coin 1|2, custom crit-or-blank 2|0, bonus 1
    lab.outcome.value = "crits"
    assert lab.result["crits"].probabilities() == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


# ----------------------------------------------------------------------------- number boxes
def typed(box: widgets.Widget, text: str) -> None:
    """What the browser sends when text is typed into a box and committed."""
    box.set_state({"value": text})


def shown(box: widgets.Widget) -> str:
    """What the browser shows in a box."""
    return box.get_state()["value"]


@pytest.mark.parametrize("name, control, words", [
    ("basic", lambda lab: lab.counts["basic"], ["basic dice", "0 to 60", "'2.5'"]),
    ("custom count", lambda lab: lab.custom_count, ["custom dice", "0 to 60", "'2.5'"]),
    ("rerolls", lambda lab: lab.modifiers["rerolls"], ["rerolls", "0 to 60", "'2.5'"]),
])
def test_dice_lab_box_refuses_a_fraction_and_uses_what_it_shows(name: str, control: Any, words: list[str]) -> None:
    lab = DiceLab()
    box = control(lab)
    before = lab.distribution.figure
    typed(box, "2.5")
    assert shown(box) == "2.5"
    text = lab.error_texts()[name]
    assert all(word in text for word in words)
    assert lab.distribution.figure == before
    typed(box, "2")
    assert lab.error_texts() == {} and shown(box) == "2" and box.value == 2
    pool, _custom, mods, _policy = lab._key                   # what the chart was computed from
    used = dict(mods)["rerolls"] if name == "rerolls" else dict(pool)["custom" if name == "custom count" else name]
    assert used == 2


@pytest.mark.parametrize("game", labs())
def test_every_input_of_the_dice_lab_is_named(game: str) -> None:
    lab = DiceLab(game)
    assert unnamed(lab.widget) == []
    assert all(box.tooltip for box in [*lab.counts.values(), lab.custom_count, *lab.modifiers.values()])
