"""Reading a plan of battles: the optional keys ``armies``, ``plan`` and ``standings``.

These keys go beyond scenario format v1; a file without them keeps its v1 meaning (one battle,
top-level ``attacker`` and ``defender``). A file with ``plan`` reads:

* ``armies`` (required): name -> ``{"player", "units", "race", "npc", "giantslayers",
  "occupies_region"}``. ``units`` as in v1 (1 to `MAX_ARMY_UNITS`), each non-champion unit with its
  ``wounded_fortitude`` (a unit wounded in one battle fights the next on that side); an army stands in
  one region, so a storm army holds at most 3 units (p.9). ``player`` is
  required, except for NPC giants, who belong to no player. ``occupies_region`` (default true,
  false for giantslayers) says whether the player loses a region occupied when the army is wiped out.
* ``plan`` (required): 1 to `MAX_BATTLES` battles in order, each ``{"attacker", "defender", "name"}``;
  a side is ``{"army": name}`` plus any key of a v1 side except those the army owns (``units``,
  ``player``, ``race``, ``npc``, ``giantslayers``): ``pool``, ``commands``, ``rerolls``,
  ``arcane_to_hits``, ``arcane_to_blocks``, ``casualty_order``, ``reroll_policy``, ...
* ``standings`` (optional): player -> ``{"ordning_points", "resource_cards", "regions"}`` before the
  plan (defaults 0, 0, and one region per army of the player that occupies one). A player named
  only here takes part in the final standings without fighting.
* ``dice``, ``title``, ``notes``, ``format``, ``game``: as in v1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.scenario import check_stacking, parse_dice, parse_side
from explorer.games.assault_of_the_giants.plan.battles import Army, Plan, PlanBattle, PlanSide, PlayerStanding
from explorer.games.assault_of_the_giants.rules.data import CASTE_ORDER, DEFAULT_DICE
from explorer.games.assault_of_the_giants.rules.model import CombatDie
from explorer.scenario.fields import Fields, describe, near_miss
from explorer.scenario.loader import check_format

__all__ = ["PLAN_KEYS", "ARMY_KEYS", "is_plan", "parse_plan", "MAX_BATTLES", "MAX_ARMIES", "MAX_ARMY_UNITS",
           "MAX_PLAN_DICE", "MAX_STANDING"]

PLAN_KEYS = ("armies", "plan", "standings")
"""Top-level keys that make a scenario a plan of battles."""

ARMY_KEYS = ("units", "player", "race", "npc", "giantslayers")
"""Keys of a v1 side that belong to the army in a plan (the battle sides may not set them)."""

MAX_BATTLES = 8
"""Most battles in a plan (a computing limit)."""
MAX_ARMIES = 6
"""Most armies in a plan."""
MAX_ARMY_UNITS = 8
"""Most units in one army of a plan (a computing limit: every unit's status is followed)."""
MAX_PLAN_DICE = 12
"""Most dice one side rolls in a battle of a plan (a computing limit; the box holds 6 basic dice
and one special die per race)."""
MAX_STANDING = 1000
"""Largest Ordning Points, Resource Cards or regions in ``standings``."""

Armies = dict[str, tuple[Army, list[Any]]]
"""Army name -> the army, and its units as the scenario lists them."""


def is_plan(data: Any) -> bool:
    """True when a scenario mapping asks for a plan of battles (has ``armies``, ``plan`` or ``standings``).

    >>> is_plan({"game": "aotg", "attacker": {}}), is_plan({"game": "aotg", "plan": []})
    (False, True)
    """
    return isinstance(data, Mapping) and any(key in data for key in PLAN_KEYS)


def parse_plan(data: Any) -> Plan:
    """A whole plan scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> plan = parse_plan({"game": "aotg",
    ...     "armies": {"fire": {"player": "fire", "units": [{"fortitude": 3, "wounded_fortitude": 2,
    ...                                                     "ordning_value": 2}]},
    ...                "hill": {"player": "hill", "units": [{"fortitude": 2, "wounded_fortitude": 1,
    ...                                                     "ordning_value": 1}]}},
    ...     "plan": [{"attacker": {"army": "fire", "pool": {"basic": 2}},
    ...               "defender": {"army": "hill", "pool": {"basic": 1}}}],
    ...     "standings": {"hill": {"ordning_points": 3}}})
    >>> plan.players, plan.standings[1], plan.armies[1].units[0].name
    (('fire', 'hill'), PlayerStanding(ordning_points=3, resource_cards=0, regions=1), 'hill 1')
    """
    top = Fields(data, "", allowed=("format", "game"))
    check_format(top.data)
    for key in ("attacker", "defender"):
        if key in top.data:
            raise ScenarioError(key, "is not used with plan: each battle of the plan names its attacker and defender")
    if "plan" not in top.data:
        raise ScenarioError("plan", "is required with armies and standings: a list of battles in order")
    dice = dict(DEFAULT_DICE)
    if top.has("dice"):
        dice.update(parse_dice(top.raw("dice")))
    title, notes = top.meta()
    armies = _armies(top.child("armies"), dice)
    listed = top.items("plan")
    if not 1 <= len(listed) <= MAX_BATTLES:
        raise ScenarioError("plan", f"must list 1 to {MAX_BATTLES} battles, got {len(listed)}")
    battles = tuple(_battle(b, f"plan[{i}]", armies, dice) for i, b in enumerate(listed))
    players, standings = _standings(top.child("standings", default={}), [a for a, _ in armies.values()])
    top.done()
    return Plan(tuple(a for a, _ in armies.values()), battles, players, standings, title, notes)


def _armies(table: Fields, dice: Mapping[str, CombatDie]) -> Armies:
    names = list(table.data)
    if not 2 <= len(names) <= MAX_ARMIES:
        raise ScenarioError(table.path, f"must name 2 to {MAX_ARMIES} armies, got {len(names)}")
    armies: Armies = {}
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(table.path, f"an army's name must be a non-empty text, got {describe(name)}")
        armies[name] = _army(name, table.child(name), dice)
    table.done()
    return armies


def _army(name: str, f: Fields, dice: Mapping[str, CombatDie]) -> tuple[Army, list[Any]]:
    npc = f.flag("npc", False)
    slayers = f.flag("giantslayers", False)
    if npc and slayers:
        raise ScenarioError(f.at("giantslayers"), "must be false for NPC giants (giantslayers are a player's)")
    if npc and f.has("player"):
        raise ScenarioError(f.at("player"), "must be left out: NPC giants belong to no player and earn nothing "
                                            "(rulebook p.20)")
    player = None if npc else f.text("player")
    if slayers and f.has("race"):
        raise ScenarioError(f.at("race"), "must be left out: giantslayers are not giants of a race")
    race = f.choice("race", CASTE_ORDER) if f.has("race") else None
    if npc and f.has("occupies_region"):
        raise ScenarioError(f.at("occupies_region"), "must be left out: regions count for players, and NPC "
                                                     "giants belong to no player")
    occupies = f.flag("occupies_region", not slayers and not npc)
    listed = f.items("units")
    if not 1 <= len(listed) <= MAX_ARMY_UNITS:
        raise ScenarioError(f.at("units"), f"must list 1 to {MAX_ARMY_UNITS} units, got {len(listed)}")
    check_stacking(race, len(listed), f.at("units"))  # an army stands in one region (p.9: storm, 3 units)
    side = parse_side({"pool": {}, "units": listed, "giantslayers": slayers}, f.path, dice, attacker=True)
    units = []
    for i, (raw, unit) in enumerate(zip(listed, side.units)):
        if not unit.champion and "wounded_fortitude" not in raw:
            raise ScenarioError(f"{f.at('units')}[{i}].wounded_fortitude",
                                "is required in a plan: a unit wounded in one battle fights the next on its "
                                "wounded side (rulebook p.17)")
        units.append(unit if "name" in raw else replace(unit, name=f"{name} {i + 1}"))
    f.done()
    return Army(name, tuple(units), player, npc, slayers, race, occupies), listed


def _battle(data: Any, path: str, armies: Armies, dice: Mapping[str, CombatDie]) -> PlanBattle:
    f = Fields(data, path)
    name = f.string("name", "")
    attacker = _plan_side(f.raw("attacker"), f.at("attacker"), armies, dice, attacker=True)
    defender = _plan_side(f.raw("defender"), f.at("defender"), armies, dice, attacker=False)
    f.done()
    there = f"{f.at('defender')}.army"
    if attacker.army == defender.army:
        raise ScenarioError(there, "must differ from the attacker's army: an army cannot fight itself")
    player = armies[attacker.army][0].player
    if player is not None and player == armies[defender.army][0].player:
        raise ScenarioError(there, f"belongs to {player}, like the attacking army: no one attacks their own giants "
                                   f"(rulebook p.19)")
    return PlanBattle(attacker, defender, name)


def _plan_side(data: Any, path: str, armies: Armies, dice: Mapping[str, CombatDie], *, attacker: bool) -> PlanSide:
    f = Fields(data, path)
    known = ", ".join(f'"{n}"' for n in armies)
    name = f.raw("army")
    if not isinstance(name, str) or name not in armies:
        raise ScenarioError(f.at("army"), f"must name one of the armies ({known}), got {describe(name)}")
    army, listed = armies[name]
    if attacker and army.npc:
        raise ScenarioError(f.at("army"), f"names NPC giants ({name}): they never attack, only defend "
                                          f"(rulebook pp.19-20)")
    if not attacker and army.giantslayers:
        raise ScenarioError(f.at("army"), f"names giantslayers ({name}): giants cannot attack giantslayers "
                                          f"(rulebook p.19)")
    for key in ARMY_KEYS:
        if key in f.data:
            raise ScenarioError(f.at(key), f"belongs to the army: set it in armies.{name}")
    merged = {k: v for k, v in f.data.items() if k != "army"}
    merged.update(units=listed, npc=army.npc, giantslayers=army.giantslayers, player=army.player or f"NPC {name}")
    if army.race:
        merged["race"] = army.race
    try:
        side = parse_side(merged, path, dice, attacker)
    except ScenarioError as error:
        raise _retold(error, path) from None
    if side.dice_count > MAX_PLAN_DICE:
        raise ScenarioError(f.at("pool"), f"at most {MAX_PLAN_DICE} dice a side in a plan, got {side.dice_count}")
    return PlanSide(name, replace(side, units=army.units))


def _retold(error: ScenarioError, path: str) -> ScenarioError:
    """An unknown-key error of a battle side, listing the keys a side in a plan allows."""
    marker = "unknown key (allowed here: "
    if not error.field.startswith(path + ".") or not error.problem.startswith(marker):
        return error
    listed = [k.strip() for k in error.problem[len(marker):].rstrip(")").split(",")]
    allowed = sorted({k for k in listed if k and k not in ARMY_KEYS} | {"army"}, key=lambda k: (k == "...", k))
    return ScenarioError(error.field, f"{marker}{', '.join(allowed)})")


def _standings(table: Fields, armies: list[Army]) -> tuple[tuple[str, ...], tuple[PlayerStanding, ...]]:
    players = list(dict.fromkeys(a.player for a in armies if a.player is not None))
    held = {p: sum(1 for a in armies if a.player == p and a.occupies_region) for p in players}
    for name in table.data:
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(table.path, f"a player's name must be a non-empty text, got {describe(name)}")
        if name not in players:
            guess = near_miss(name, players)
            if guess is not None:
                raise ScenarioError(table.at(name), f'names no player of the armies; did you mean "{guess}"? '
                                                    f'(a player without an army needs a name of its own)')
            players.append(name)
            held[name] = 0
    if len(players) > MAX_ARMIES:
        raise ScenarioError(table.path, f"at most {MAX_ARMIES} players in all, got {len(players)}")
    standings = []
    for player in players:
        row = table.child(player, default={})
        regions = row.whole("regions", held[player], maximum=MAX_STANDING)
        if regions < held[player]:
            raise ScenarioError(row.at("regions"), f"must be at least {held[player]}: each army of {player} in the "
                                                   f"plan occupies a region (occupies_region)")
        standings.append(PlayerStanding(row.whole("ordning_points", 0, maximum=MAX_STANDING),
                                        row.whole("resource_cards", 0, maximum=MAX_STANDING), regions))
        row.done()
    table.done()
    return tuple(players), tuple(standings)
