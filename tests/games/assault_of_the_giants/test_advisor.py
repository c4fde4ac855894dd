"""The command-row advisor (issue 9, part 3): rows ending with Attack, valued exactly.

Each option's modifiers are checked against the p.16 position rules counted by hand here, and
its value against a battle built directly with those modifiers (not through the advisor).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants import parse_battle, resolve_battle
from explorer.games.assault_of_the_giants.best.row_advisor import objective_value, row_options
from explorer.games.assault_of_the_giants.rules.model import Modifiers

FIRE_VS_HILL = json.loads(Path("examples/fire-vs-hill.json").read_text())


def _battle(commands: list[str]):  # type: ignore[no-untyped-def]
    data = json.loads(json.dumps(FIRE_VS_HILL))
    data["attacker"]["commands"] = commands
    return parse_battle(data)


def _by_hand(row: tuple[str, ...]) -> tuple[int, int, int]:
    """p.16 counted directly: cards right of Leader, left of Attack, right of Magic."""
    rerolls = len(row) - 1 - row.index("Leader") if "Leader" in row else 0
    blocks = len(row) - 1 - row.index("Magic") if "Magic" in row else 0
    return rerolls, row.index("Attack"), blocks


def test_every_option_ends_with_attack_and_gives_what_its_row_gives() -> None:
    battle = _battle(["Move"])
    options = row_options(battle, ["Leader", "Magic", "Trade", "Recruit"], most=3)
    assert options and all(o.row[-1] == "Attack" and o.row[0] == "Move" for o in options)
    assert [o.extra_cards for o in options if o.extra_cards == 0] == [0]   # attacking now is one option
    for option in options:
        assert _by_hand(option.row) == (option.modifiers.rerolls, option.modifiers.arcane_to_hits,
                                        option.modifiers.arcane_to_blocks)
        direct = dataclasses.replace(battle, attacker=dataclasses.replace(
            battle.attacker, modifiers=Modifiers(*_by_hand(option.row))))
        assert option.value == resolve_battle(direct).attacker.ordning_points.mean()
    assert [o.value for o in options] == sorted((o.value for o in options), reverse=True)


def test_no_option_is_beaten_on_every_modifier_by_another_with_as_many_cards() -> None:
    options = row_options(_battle([]), ["Leader", "Magic", "Trade", "Move", "Rest"], most=3)
    for a in options:
        for b in options:
            if a is not b and a.extra_cards == b.extra_cards:
                ka = (a.modifiers.rerolls, a.modifiers.arcane_to_hits, a.modifiers.arcane_to_blocks)
                kb = (b.modifiers.rerolls, b.modifiers.arcane_to_hits, b.modifiers.arcane_to_blocks)
                assert not all(x >= y for x, y in zip(kb, ka)) or ka == kb


def test_final_attack_in_the_row_is_the_card_about_to_be_played() -> None:
    now = row_options(_battle(["Leader", "Move", "Magic", "Attack"]), [], most=2)
    assert [(o.row, _by_hand(o.row)) for o in now] == [(("Leader", "Move", "Magic", "Attack"), (3, 3, 1))]


@pytest.mark.parametrize("objective", ["ordning-points", "net-ordning-points", "damage", "wipe-out"])
def test_objectives_read_the_battle_result(objective: str) -> None:
    options = row_options(_battle(["Leader"]), ["Trade"], objective=objective, most=1)
    for option in options:
        result = resolve_battle(dataclasses.replace(_battle(list(option.row)), attacker=dataclasses.replace(
            _battle(list(option.row)).attacker, modifiers=Modifiers(*_by_hand(option.row)))))
        expected = {"ordning-points": result.attacker.ordning_points.mean(),
                    "net-ordning-points": result.attacker.ordning_points.mean() - result.defender.ordning_points.mean(),
                    "damage": result.defender.damage_taken.mean(),
                    "wipe-out": result.defender.wiped_out()}[objective]
        assert option.value == expected == objective_value(result, "attacker", objective)


def test_refusals_name_the_field() -> None:
    with pytest.raises(ScenarioError, match="^attacker.commands: the Attack Command is already"):
        battle = _battle([])
        row_options(dataclasses.replace(battle, attacker=dataclasses.replace(battle.attacker,
                                                                             commands=("Attack", "Move"))), [])
    with pytest.raises(ScenarioError, match="^hand:"):
        row_options(_battle([]), [], most=9)


def test_advisor_tab_shows_the_options_and_follows_the_row() -> None:
    from explorer.panels.assault_of_the_giants.panel import AssaultPanel

    panel = AssaultPanel()
    advisor = panel.row_advisor
    assert advisor.options == []                         # nothing computed while the tab is closed
    panel.extras.selected_index = panel.extras.titles.index("Which row? (advisor)")
    assert advisor.options and list(advisor.chart.data[0].x) == [float(o.value) for o in advisor.options]
    assert "attack now" in advisor.table.value
    advisor.hand_boxes["Trade"].value = False
    advisor.hand_boxes["Recruit"].value = False
    advisor.hand_boxes["Plunder"].value = False
    advisor.hand_boxes["Rest"].value = False
    assert all("Trade" not in o.row for o in advisor.options)
    panel.commands["attacker"].move(0, "remove")         # Leader back into hand: offered again
    assert not advisor.hand_boxes["Leader"].disabled
    assert any("Leader" in o.played for o in advisor.options)


def test_advisor_key_in_a_scenario_answers_beside_the_battle() -> None:
    from explorer import resolve
    from explorer.cli import main

    data = json.loads(Path("examples/aotg-row-advisor.json").read_text())
    out = resolve(data).to_dict()
    advice = out["row_advice"]
    battle = parse_battle({k: v for k, v in data.items() if k != "advisor"})
    expected = row_options(battle, data["advisor"]["hand"], most=data["advisor"]["cards_first"])
    assert [o["row"] for o in advice["options"]] == [list(o.row) for o in expected]
    assert [o["exact"] for o in advice["options"]] == [str(o.value) for o in expected]
    assert out["attacker"]["hits"]                              # the battle itself is still reported
    assert main(["resolve", "examples/aotg-row-advisor.json"]) == 0
    for bad, field in (({"hand": ["Leader", "leader"]}, "advisor.hand"), ({"cards_first": 7}, "advisor.cards_first"),
                       ({"objective": "glory"}, "advisor.objective"), ({"hnad": []}, "advisor")):
        with pytest.raises(ScenarioError) as caught:
            resolve({**data, "advisor": bad})
        assert caught.value.field.startswith(field), caught.value
