"""Options are typed: each option set is a ``Literal`` with its tuple of values derived from it, and
each is checked once, where the scenario is read, with the message naming the field and the values.

The messages pinned here are the ones the readers gave before the options were typed.
"""

from __future__ import annotations

import copy
from typing import Any, get_args

import pytest

import explorer.games.agot_lcg as agot
import explorer.games.arcadia_quest.encounter.scenario as aq_scenario
from explorer import ScenarioError, resolve
from explorer.charts import kit
from explorer.games.agot_lcg.challenge import model as agot_model
from explorer.games.agot_lcg.timing import explain as agot_timing
from explorer.games.arcadia_quest import data as aq_data
from explorer.games.arcadia_quest.attack import model as aq_model
from explorer.games.assault_of_the_giants.rules import data as aotg_data
from explorer.games.assault_of_the_giants.rules import model as aotg_model
from explorer.games.assault_of_the_giants.table import phase as aotg_table
from explorer.scenario.fields import Fields, check_option
from tests.scenario.scenario_support import EXAMPLES

OPTION_SETS = [
    (aotg_model.CasualtyOrder, aotg_model.CASUALTY_ORDERS),
    (aotg_model.FixedPolicy, aotg_model.FIXED_POLICIES),
    (aotg_model.RerollPolicy, aotg_model.REROLL_POLICIES),
    (aotg_model.Objective, aotg_model.OBJECTIVES),
    (aotg_model.CardKind, aotg_model.CARD_KINDS),
    (aotg_data.RaceName, aotg_data.CASTE_ORDER),
    (aotg_table.RegionKind, aotg_table.KINDS),
    (aq_model.AttackKind, aq_model.KINDS),
    (aq_model.AttackFace, aq_model.ATTACK_FACES),
    (aq_model.DefenceFace, aq_model.DEFENCE_FACES),
    (aq_data.CardGroup, aq_data.CARD_GROUPS),
    (aq_data.AbilityName, aq_data.ABILITY_NAMES),
    (aq_scenario.Question, aq_scenario.QUESTIONS),
    (agot_model.ChallengeType, agot_model.CHALLENGE_TYPES),
    (agot_model.Player, agot_model.PLAYERS),
    (agot_model.PlayerKey, agot_model.PLAYER_KEYS),
    (agot_model.Keyword, agot_model.KEYWORDS),
    (agot_model.ResolutionKeyword, agot_model.RESOLUTION_KEYWORDS),
    (agot_timing.AbilityKind, agot_timing.ABILITY_KINDS),
    (agot.Question, agot.QUESTIONS),
    (kit.View, kit.VIEWS),
]


@pytest.mark.parametrize(("literal", "values"), OPTION_SETS, ids=[str(v[:2]) for _, v in OPTION_SETS])
def test_each_tuple_of_values_is_its_literal(literal: Any, values: tuple[str, ...]) -> None:
    assert values == get_args(literal) and len(set(values)) == len(values)


def test_the_values_keep_their_order_and_nest() -> None:
    assert aotg_model.REROLL_POLICIES == ("misses", "blanks", "none", "best")
    assert aq_model.ATTACK_FACES[:2] == aq_model.KINDS
    assert set(agot_model.RESOLUTION_KEYWORDS) <= set(agot_model.KEYWORDS)
    assert aq_data.ABILITY_NAMES == tuple(aq_data.ABILITIES)


def test_check_option_returns_the_option_or_names_the_field() -> None:
    assert check_option("fewest-op", aotg_model.CASUALTY_ORDERS, "attacker.casualty_order") == "fewest-op"
    assert Fields({"format": 1}, "").choice("format", (1,)) == 1
    for bad in (True, 1.0, ["listed"], {"a": 1}, None, "Listed"):
        with pytest.raises(ScenarioError, match=r'^x\.y: must be one of "listed", "fewest-op", got '):
            check_option(bad, aotg_model.CASUALTY_ORDERS, "x.y")
    with pytest.raises(ScenarioError, match="^format: must be one of 1, got true$"):
        Fields({"format": True}, "").choice("format", (1,))


def _edited(name: str, path: tuple[Any, ...], value: object) -> dict[str, Any]:
    data = copy.deepcopy(EXAMPLES[name])
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


MESSAGES = [
    ("fire-vs-hill.json", ("attacker", "reroll_policy"), "all",
     'attacker.reroll_policy: must be one of "misses", "blanks", "none", "best", got \'all\''),
    ("fire-vs-hill.json", ("defender", "casualty_order"), 1,
     'defender.casualty_order: must be one of "listed", "fewest-op", got 1'),
    ("fire-vs-hill.json", ("attacker", "objective"), "win",
     'attacker.objective: must be one of "ordning-points", "net-ordning-points", "damage", "wipe-out", got \'win\''),
    ("fire-vs-hill.json", ("attacker", "race"), "elf",
     'attacker.race: must be one of "hill", "stone", "frost", "fire", "cloud", "storm", got \'elf\''),
    ("fire-vs-hill.json", ("attacker", "cards"), [{"name": "Zap", "kind": "trap"}],
     'attacker.cards[0].kind: must be one of "spell", "resource", got \'trap\''),
    ("aotg-row-advisor.json", ("advisor", "objective"), None,
     'advisor.objective: must be one of "ordning-points", "net-ordning-points", "damage", "wipe-out", got null'),
    ("aotg-table.json", ("table", "regions", 0, "kind"), "city",
     'table.regions[0].kind: must be one of "starting", "small-folk", got \'city\''),
    ("aotg-table.json", ("table", "current"), "elf",
     'table.current: must be one of "storm", "cloud", "stone", "hill", got \'elf\''),
    ("arcadia-troll.json", ("attack", "kind"), "magic",
     'attack.kind: must be one of "melee", "ranged", got \'magic\''),
    ("arcadia-troll.json", ("question",), "battle",
     'question: must be one of "attack", "encounter", "sequence", got \'battle\''),
    ("arcadia-troll.json", ("dice",), {"defence": ["shield"] * 5 + ["hit"]},
     'dice.defence[5]: must be one of "shield", "crit", "blank", got \'hit\''),
    ("arcadia-encounter-guard.json", ("attack", "group"), "axe",
     'attack.group: must be one of "sword", "bow", "magic", "lance", "other", got \'axe\''),
    ("agot-power-challenge.json", ("challenge", "type"), "battle",
     'challenge.type: must be one of "military", "intrigue", "power", got \'battle\''),
    ("agot-power-challenge.json", ("first_player",), "first",
     'first_player: must be one of "attacker", "defender", got \'first\''),
    ("agot-power-challenge.json", ("question",), "war",
     'question: must be one of "challenge", "round", "odds", "timing", got \'war\''),
    ("agot-round.json", ("challenges", 0, "attacker"), "attacker",
     'challenges[0].attacker: must be one of "first", "second", got \'attacker\''),
    ("agot-round.json", ("players", "first", "characters", 0, "icons"), ["money"],
     'players.first.characters[0].icons[0]: must be one of "military", "intrigue", "power", got \'money\''),
    ("agot-best-plan.toml", ("best_plan",), "both",
     'best_plan: must be one of "first", "second", got \'both\''),
    ("agot-timing.json", ("abilities", 0, "kind"), "action",
     'abilities[0].kind: must be one of "cancel", "would interrupt", "forced interrupt", "interrupt", '
     '"forced reaction", "reaction", got \'action\''),
    ("agot-timing.json", ("abilities", 0, "player"), "third",
     'abilities[0].player: must be one of "first", "second", got \'third\''),
]


@pytest.mark.parametrize(("name", "path", "value", "message"), MESSAGES, ids=[m[3].split(":")[0] for m in MESSAGES])
def test_each_option_is_refused_where_it_is_read_in_the_same_words(name: str, path: tuple[Any, ...], value: object,
                                                                     message: str) -> None:
    with pytest.raises(ScenarioError) as error:
        resolve(_edited(name, path, value))
    assert str(error.value) == message


def test_a_chart_view_is_checked_once_with_the_same_message() -> None:
    from explorer.core.dist import Dist

    with pytest.raises(ValueError, match="^view must be one of exactly, at least, at most; got 'above'$"):
        kit.view_values(Dist.single(1), "above")  # type: ignore[arg-type]
