"""Charts show exactly the numbers of the distributions they are given."""

from __future__ import annotations

from fractions import Fraction

import pytest

from explorer.charts import (
    SIDE_COLORS,
    VIEWS,
    battle_figures,
    casualties_figure,
    compare_figure,
    distribution_figure,
    sides_figure,
    sweep_heatmap,
    symbols_figure,
    view_values,
)
from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants import Status, parse_battle, resolve_battle

# 0, 2, 3 with a gap at 1: weights 1, 2, 3 of 6
GAPPY = Dist({0: 1, 2: 2, 3: 3})
TWO_DICE = Dist.uniform(range(1, 7)) + Dist.uniform(range(1, 7))


@pytest.fixture(scope="module")
def result():
    return resolve_battle(parse_battle({
        "game": "assault-of-the-giants",
        "attacker": {"pool": {"basic": 3}, "rerolls": 1, "units": [
            {"name": "Fire giant", "fortitude": 3, "ordning_value": 2},
            {"name": "Fire giant", "fortitude": 3, "ordning_value": 2},
        ]},
        "defender": {"pool": {"basic": 2}, "units": [
            {"name": "Hill giant", "fortitude": 2, "ordning_value": 1},
            {"name": "Hill giant", "fortitude": 2, "ordning_value": 1},
            {"name": "Hill elite", "fortitude": 3, "ordning_value": 2},
        ]},
    }))


def floats(values):
    return [float(v) for v in values]


# ----------------------------------------------------------------------------- view_values
def test_exactly_fills_gaps_with_zero():
    assert view_values(GAPPY, "exactly") == ([0, 1, 2, 3], [1 / 6, 0.0, 2 / 6, 3 / 6])


@pytest.mark.parametrize("dist", [GAPPY, TWO_DICE, Dist.single(4)])
def test_views_match_dist(dist):
    xs, exactly = view_values(dist, "exactly")
    _, at_least = view_values(dist, "at least")
    _, at_most = view_values(dist, "at most")
    assert xs == list(range(min(dist), max(dist) + 1))
    assert exactly == [float(dist.probability(k)) for k in xs]
    assert at_least == [float(dist.at_least(k)) for k in xs]
    assert at_most == [float(dist.at_most(k)) for k in xs]
    assert at_least[0] == 1.0 and at_most[-1] == 1.0
    assert all(a >= b for a, b in zip(at_least, at_least[1:]))
    assert all(a <= b for a, b in zip(at_most, at_most[1:]))


def test_unknown_view_is_refused():
    with pytest.raises(ValueError, match="at least"):
        view_values(GAPPY, "more than")


# ----------------------------------------------------------------------------- distribution_figure
@pytest.mark.parametrize("view", VIEWS)
def test_distribution_figure_bars_are_the_view(view):
    fig = distribution_figure(TWO_DICE, title="Two dice", x_title="pips", view=view)
    xs, ys = view_values(TWO_DICE, view)
    assert len(fig.data) == 1 and fig.data[0].type == "bar"
    assert list(fig.data[0].x) == xs
    assert list(fig.data[0].y) == ys
    assert fig.layout.yaxis.tickformat.endswith("%")
    assert fig.layout.yaxis.title.text == "probability"


def test_distribution_figure_marks_the_mean():
    fig = distribution_figure(GAPPY, title="t", x_title="hits")
    (line,) = fig.layout.shapes
    assert line.x0 == line.x1 == float(GAPPY.mean())
    assert line.line.dash == "dash"
    assert fig.layout.annotations[0].text == f"mean {float(GAPPY.mean()):.2f}" == "mean 2.17"


def test_distribution_hover_has_exact_fraction():
    dist = Dist({0: 137, 3: 25})  # P(3) = 25/162
    fig = distribution_figure(dist, title="t", x_title="hits")
    assert fig.data[0].customdata[3][0] == "P(hits = 3) = 15.43% (25/162)"
    assert fig.data[0].customdata[3][1] == "25/162"
    assert "%{customdata[0]}" in fig.data[0].hovertemplate


def test_at_least_hover_uses_the_view():
    fig = distribution_figure(GAPPY, title="t", x_title="damage", view="at least")
    assert fig.data[0].customdata[2][0] == "P(damage ≥ 2) = 83.33%"
    assert fig.data[0].customdata[2][1] == "5/6"


def test_distribution_colour_and_name():
    fig = distribution_figure(GAPPY, title="t", x_title="hits", name="attacker", color="#123456")
    assert fig.data[0].name == "attacker" and fig.data[0].marker.color == "#123456"
    assert fig.layout.shapes[0].line.color == "#123456"
    assert fig.layout.height <= 400 and fig.layout.title.text == "t"


# ----------------------------------------------------------------------------- sides_figure
@pytest.mark.parametrize("view", VIEWS)
def test_sides_figure_two_grouped_traces(view):
    fig = sides_figure(GAPPY, TWO_DICE, title="Damage taken", x_title="damage", view=view)
    assert [t.name for t in fig.data] == ["attacker", "defender"]
    assert fig.layout.barmode == "group"
    assert list(fig.data[0].y) == view_values(GAPPY, view)[1]
    assert list(fig.data[1].y) == view_values(TWO_DICE, view)[1]
    assert [t.marker.color for t in fig.data] == [SIDE_COLORS["attacker"], SIDE_COLORS["defender"]]
    assert [s.x0 for s in fig.layout.shapes] == [float(GAPPY.mean()), 7.0]


# ----------------------------------------------------------------------------- battle charts
def test_battle_figures_keys_and_numbers(result):
    figs = battle_figures(result)
    assert set(figs) == {"hits", "damage", "casualties", "ordning_points"}
    pairs = {"hits": ("hits", "hits"), "damage": ("damage_taken", "damage"),
             "ordning_points": ("ordning_points", "Ordning Points")}
    for key, (attr, x_title) in pairs.items():
        fig = figs[key]
        assert fig.layout.xaxis.title.text == x_title
        for trace, side in zip(fig.data, (result.attacker, result.defender)):
            dist = getattr(side, attr)
            assert list(trace.y) == view_values(dist, "exactly")[1]
    assert figs["hits"].layout.title.text == "Hits after rerolls and conversions"
    assert figs["damage"].layout.title.text == "Damage taken"
    assert figs["ordning_points"].layout.title.text == "Ordning Points earned"


def test_battle_figures_follow_the_view(result):
    fig = battle_figures(result, view="at least")["damage"]
    ys = list(fig.data[1].y)
    assert ys[0] == 1.0 and ys == view_values(result.defender.damage_taken, "at least")[1]


def test_casualties_bars_per_unit(result):
    fig = casualties_figure(result)
    assert [t.name for t in fig.data] == ["healthy", "wounded", "defeated"]
    assert all(t.orientation == "h" for t in fig.data) and fig.layout.barmode == "stack"
    labels = list(fig.data[0].y)
    assert labels == ["attacker: Fire giant 1", "attacker: Fire giant 2",
                      "defender: Hill giant 1", "defender: Hill giant 2", "defender: Hill elite"]
    assert len(set(labels)) == len(labels)
    units = [(result.attacker, 0), (result.attacker, 1), (result.defender, 0), (result.defender, 1),
             (result.defender, 2)]
    for j, (side, i) in enumerate(units):
        for trace, status in zip(fig.data, Status):
            assert trace.x[j] == float(side.unit_status(i).probability(status))
    defeated = result.defender.unit_status(0).probability(Status.DEFEATED)
    assert 0 < defeated < 1  # the battle is not trivial
    # Independently: the first listed Hill giant (Fortitude 2) falls exactly when 2 damage or more gets through.
    assert fig.data[2].x[2] == float(result.defender.damage_taken.at_least(2))
    assert fig.data[2].customdata[2].endswith(f"defeated: {float(defeated):.2%} ({defeated})")
    assert fig.data[2].customdata[2].startswith("defender: Hill giant 1 (Fortitude 2)<br>")


def test_casualties_colours_are_distinct(result):
    colours = [t.marker.color for t in casualties_figure(result).data]
    assert len(set(colours)) == 3


def test_casualties_with_no_units():
    empty = resolve_battle(parse_battle({
        "game": "assault-of-the-giants",
        "attacker": {"pool": {"basic": 1}, "units": []}, "defender": {"pool": {}, "units": []},
    }))
    fig = casualties_figure(empty)
    assert len(fig.data) == 3 and all(len(t.x) == 0 for t in fig.data)
    assert fig.layout.annotations[0].text == "no units in this battle"


# ----------------------------------------------------------------------------- compare
def test_compare_overlays_both_scenarios():
    fig = compare_figure(GAPPY, TWO_DICE, title="Hits", x_title="hits", view="at most")
    assert [t.name for t in fig.data] == ["A (pinned)", "B (current)"]
    assert list(fig.data[0].y) == view_values(GAPPY, "at most")[1]
    assert list(fig.data[1].y) == view_values(TWO_DICE, "at most")[1]
    assert fig.layout.barmode == "overlay"
    assert [s.x0 for s in fig.layout.shapes] == [float(GAPPY.mean()), 7.0]
    assert [a.text for a in fig.layout.annotations] == ["A (pinned) mean 2.17", "B (current) mean 7.00"]


def test_compare_custom_labels():
    fig = compare_figure(GAPPY, GAPPY, labels=("before", "after"), title="t", x_title="hits")
    assert [t.name for t in fig.data] == ["before", "after"]


# ----------------------------------------------------------------------------- heatmaps
def test_sweep_heatmap_shape_and_percent_hover():
    z = [[Fraction(1, 3), 0.5, 1], [0, Fraction(1, 8), 0.25]]
    fig = sweep_heatmap([1, 2, 3], ["none", "one"], z, x_title="dice", y_title="rerolls",
                        outcome_title="P(defender wiped out)")
    (heat,) = fig.data
    assert [list(row) for row in heat.z] == [[1 / 3, 0.5, 1.0], [0.0, 0.125, 0.25]]
    assert len(heat.z) == 2 and all(len(row) == 3 for row in heat.z)
    assert "dice = %{x}" in heat.hovertemplate and "rerolls = %{y}" in heat.hovertemplate
    assert "%{z:.1%}" in heat.hovertemplate and "%" in heat.texttemplate


def test_sweep_heatmap_mean_values_use_decimals():
    fig = sweep_heatmap([0, 1], [0], [[1.5, 2.25]], x_title="rerolls", y_title="blocks",
                        outcome_title="mean damage")
    assert "%{z:.3f}" in fig.data[0].hovertemplate and "%}" not in fig.data[0].texttemplate
    assert "%{z:.1%}" in sweep_heatmap([0], [0], [[0.5]], x_title="a", y_title="b",
                                       outcome_title="chance to win").data[0].hovertemplate


def test_sweep_heatmap_refuses_ragged_z():
    with pytest.raises(ValueError, match="2 rows of 3"):
        sweep_heatmap([1, 2, 3], [0, 1], [[0, 0, 0], [0, 0]], x_title="a", y_title="b", outcome_title="P(x)")


def test_symbols_figure_is_the_joint_distribution(result):
    totals = result.attacker.totals
    fig = symbols_figure(totals)
    (heat,) = fig.data
    hits, blocks = list(heat.x), list(heat.y)
    assert hits == list(range(min(h for h, _ in totals), max(h for h, _ in totals) + 1))
    assert len(heat.z) == len(blocks) and all(len(row) == len(hits) for row in heat.z)
    for b, row in zip(blocks, heat.z):
        assert list(row) == [float(totals.probability((h, b))) for h in hits]
        assert sum(row) == pytest.approx(float(result.attacker.blocks.probability(b)))  # rows are blocks
    h, b = max(totals.probabilities().items(), key=lambda item: item[1])[0]
    cell = heat.customdata[blocks.index(b)][hits.index(h)]
    assert cell.endswith(f"({totals.probability((h, b))})") and cell.startswith(f"P(hits = {h}, blocks = {b})")
    assert fig.layout.title.text == "Hits and blocks"




# ----------------------------------------------------------------------------- safety and cost
EVIL = '<a href="http://x">click</a><b>%{x}</b>'
"""A name a user might type (or paste): markup, a link and a hover-template placeholder."""


def _strings(value):
    """Every string in a figure's JSON (keys and values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _assert_plain(fig):
    import json

    texts = list(_strings(json.loads(fig.to_json())))
    assert any("click" in t for t in texts), "the name should appear in the figure"
    for t in texts:
        assert "<a" not in t.lower() and "<b>" not in t.lower(), t
        assert "%{x}&lt;/b" not in t and "%{x}</b" not in t, t  # the user's placeholder is broken


def _evil_figures():
    """Every chart of every game, built from scenarios whose names are all `EVIL`."""
    from explorer.charts.agot_lcg import round_figures
    from explorer.charts.aotg_decisions import row_advice_figure
    from explorer.charts.arcadia_quest import encounter_figures
    from explorer.games.agot_lcg.challenge.grid import winner_grid
    from explorer.games.agot_lcg.round.phase import play_round
    from explorer.games.agot_lcg.round.scenario import parse_round
    from explorer.games.arcadia_quest import parse_encounter, resolve_encounter
    from explorer.games.assault_of_the_giants.best.row_advisor import RowOption
    from explorer.games.assault_of_the_giants.rules.model import Modifiers

    battle = resolve_battle(parse_battle({
        "game": "assault-of-the-giants",
        "attacker": {"player": EVIL, "pool": {"basic": 2}, "units": [{"name": EVIL, "fortitude": 2, "ordning_value": 1}]},
        "defender": {"pool": {"basic": 1}, "units": [{"name": EVIL, "fortitude": 1, "ordning_value": 2}]}}))
    figures = list(battle_figures(battle).values())
    figures += [distribution_figure(GAPPY, title=EVIL, x_title=EVIL, name=EVIL),
                sides_figure(GAPPY, TWO_DICE, title=EVIL, x_title=EVIL),
                compare_figure(GAPPY, TWO_DICE, labels=(EVIL, EVIL), title=EVIL, x_title=EVIL),
                sweep_heatmap([1, 2], [0], [[0.25, 0.5]], x_title=EVIL, y_title=EVIL, outcome_title=EVIL),
                symbols_figure(Dist.uniform([(1, 0), (0, 1)]), title=EVIL),
                row_advice_figure([RowOption((EVIL, "Attack"), 1, Modifiers(1, 0, 0), Fraction(1)),
                                   RowOption(("Attack", EVIL), 1, Modifiers(1, 0, 0), Fraction(1))], "damage")]
    encounter = resolve_encounter(parse_encounter({
        "hero": {"preset": "Grom", "name": EVIL}, "attack": {"card": "Rusty Sword", "name": EVIL},
        "target": {"preset": "Orc Marauder", "name": EVIL}}))
    figures += list(encounter_figures(encounter).values())
    question = parse_round({"players": {
        "first": {"faction": 2, "claim": 1, "characters": [{"name": EVIL, "str": 4, "icons": ["power"]}]},
        "second": {"faction": 3, "characters": []}},
        "challenges": [{"attacker": "first", "type": "power", "attackers": [EVIL]}]})
    figures += list(round_figures(play_round(question.round), winner_grid(2, 2)).values())
    return figures


def test_user_text_is_never_markup():
    """Names reach every chart as text: no <a> or <b> from the user, no live %{...} placeholder."""
    checked = 0
    for fig in _evil_figures():
        texts = [t for t in _strings(__import__("json").loads(fig.to_json())) if "click" in t]
        if texts:  # the charts that show a name at all
            _assert_plain(fig)
            checked += 1
    assert checked >= 10


def test_chart_cost_follows_the_outcomes_not_their_size():
    """An Ordning Value of a million: two outcomes, two bars, no tick per whole number, at once."""
    import time
    from dataclasses import replace

    from explorer.games.assault_of_the_giants.rules.model import Unit

    # Built past the scenario reader, which bounds Ordning Values: the chart must not need that bound.
    small = parse_battle({
        "game": "assault-of-the-giants",
        "attacker": {"pool": {"basic": 3}, "units": [{"name": "Giant", "fortitude": 2, "ordning_value": 1}]},
        "defender": {"pool": {"basic": 3}, "units": [{"name": "Giant", "fortitude": 1, "ordning_value": 1}]}})
    start = time.process_time()
    battle = resolve_battle(replace(small, attacker=replace(small.attacker, units=(Unit("Giant", 2, 2, 10**6),)),
                                    defender=replace(small.defender, units=(Unit("Giant", 1, 1, 10**6 - 1),))))
    figures = {view: battle_figures(battle, view) for view in VIEWS}
    assert time.process_time() - start < 1.0
    for view, figs in figures.items():
        fig = figs["ordning_points"]
        assert [len(t.x) for t in fig.data] == [len(battle.attacker.ordning_points), len(battle.defender.ordning_points)]
        assert fig.layout.xaxis.dtick is None
        defender = dict(zip(fig.data[1].x, fig.data[1].y))
        read = {"exactly": battle.defender.ordning_points.probability, "at least": battle.defender.ordning_points.at_least,
                "at most": battle.defender.ordning_points.at_most}[view]
        assert defender == {x: float(read(x)) for x in battle.defender.ordning_points}
