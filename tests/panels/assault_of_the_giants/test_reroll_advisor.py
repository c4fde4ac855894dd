"""The "What should I reroll?" tab: the roll set in the tab, valued by the advice module."""

from __future__ import annotations

from fractions import Fraction

from explorer.games.assault_of_the_giants import parse_battle
from explorer.games.assault_of_the_giants.best.advice import advise_reroll
from explorer.panels.assault_of_the_giants.panel import AssaultPanel


def _open(panel: AssaultPanel) -> None:
    panel.extras.selected_index = panel.extras.titles.index("What should I reroll?")


def test_nothing_is_computed_until_the_tab_opens(panel: AssaultPanel) -> None:
    assert panel.reroll_advisor.options == [] and panel.reroll_advisor.face_boxes == []
    _open(panel)
    assert len(panel.reroll_advisor.face_boxes) == sum(panel.pools["attacker"].to_dict().values())


def test_the_choices_shown_are_the_advice_for_the_faces_set(panel: AssaultPanel) -> None:
    _open(panel)
    tab = panel.reroll_advisor
    blank = (0, 0, 0)
    for box in tab.face_boxes:
        if blank in box.options or blank in [v for _, v in box.options]:
            box.value = blank
    roll = [(name, box.value) for (name, _), box in zip(tab._dice, tab.face_boxes)]
    expected = advise_reroll(parse_battle(panel.scenario()), "attacker", roll)
    assert [(o.reroll, o.value) for o in tab.options] == [(o.reroll, o.value) for o in expected]
    assert list(tab.chart.data[0].x) == [float(o.value) for o in expected[:10]]
    assert "keep all" in tab.table.value or len(expected) > 10
    # blanks are never worth keeping over a reroll here: the best choice rerolls dice showing blank
    assert all(tab.face_boxes[i].value == blank for i in tab.options[0].reroll)
    assert tab.options[0].value >= max(o.value for o in tab.options)


def test_more_rerolls_in_the_row_never_lower_the_best_choice(panel: AssaultPanel) -> None:
    _open(panel)
    before = panel.reroll_advisor.options[0].value
    panel.commands["attacker"].set_commands(["Leader", "Move", "Trade", "Magic", "Attack"])  # 4 rerolls, not 3
    after = panel.reroll_advisor.options[0].value
    assert isinstance(after, Fraction) and after >= before   # the same roll, one more reroll and conversion allowed


def test_defender_needs_the_attackers_totals_and_bad_ones_show_a_message(panel: AssaultPanel) -> None:
    _open(panel)
    tab = panel.reroll_advisor
    tab.role.value = "defender"
    assert tab.totals.layout.display == "" and tab.options
    tab.hits.value = "-2"
    assert "hits and blocks" in tab.error.text
    tab.hits.value = "5"
    assert tab.error.text == "" and tab.options


def test_rule_of_thumb_table(panel: AssaultPanel) -> None:
    _open(panel)
    panel.reroll_advisor.show_habits()
    assert "rerolled by best play" in panel.reroll_advisor.habits.value and "blank" in panel.reroll_advisor.habits.value


def test_a_side_with_two_rounds_picks_the_round_advised(panel: AssaultPanel) -> None:
    # The attacker's card rerolls once more after its Command rerolls (p.16): the tab shows the round
    # toggle, and each round's choices are the advice module's for that round.
    from explorer.games.assault_of_the_giants import BattleCard

    panel.cards["attacker"].set_cards((BattleCard("Haste", "spell", rerolls=1),), "second round")
    _open(panel)
    tab = panel.reroll_advisor
    assert tab.round.layout.display == ""
    battle = parse_battle(panel.scenario())
    roll = [(name, box.value) for (name, _), box in zip(tab._dice, tab.face_boxes)]
    first = advise_reroll(battle, "attacker", roll)
    assert [(o.reroll, o.value) for o in tab.options] == [(o.reroll, o.value) for o in first]
    assert "first round" in tab.summary.value
    tab.round.value = 2
    second = advise_reroll(battle, "attacker", roll, second_round=True)
    assert [(o.reroll, o.value) for o in tab.options] == [(o.reroll, o.value) for o in second]
    assert "up to 1 reroll;" in tab.summary.value and "second round" in tab.summary.value
    panel.cards["attacker"].set_cards((BattleCard("Haste", "spell", rerolls=1),), "with commands")
    assert tab.round.layout.display == "none"
