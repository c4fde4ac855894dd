"""Reading the optional ``table`` key of an Assault of the Giants scenario (beyond format v1).

``table`` describes a moment of the game for the rules of p.20 (every key optional unless marked):

* ``players`` (required): 1 to 6 races in seat order, leftwards from the start player (the turn
  order); each a race name, or ``{"race", "ordning_number"}`` (number 1 to 99, distinct; default:
  the caste order, hill 1 up to storm 6, a ruling).
* ``npc``: the NPC races, names (default none).
* ``regions`` (required): 1 to `MAX_REGIONS` of ``{"name" (required), "kind" ("starting" or
  "small-folk", required), "home" (the race of a Starting Region), "occupied_by" (the race whose
  giants stand there; null: none), "units" (how many units of ``occupied_by`` stand there: storm at
  most 3, p.9), "giantslayers" (0 to 3 in all; in a Starting Region only from the Final Ordning on,
  p.18), "lyn_armaal" (true on one region at most; default the cloud Starting Region)}``. Every
  player's Starting Region must be listed.
* ``pools``: ``{"first", "second"}`` Ordning Point tokens left (0 to `MAX_POOL`; default 1 and 1).
* ``current``: the player whose turn it is (default the first seat).
* ``endgame_began_with``: in the Endgame, the player on whose turn the second pool ran out
  (default ``current``).
* ``standings``: player -> ``{"ordning_points", "resource_cards", "regions"}`` at the end; every
  player listed. ``ordning_points`` is a whole number or, while still random, ``{"value": weight}``;
  ``regions`` defaults to the regions where the race's giants stand on the table.

A scenario with ``table`` and no ``attacker`` / ``defender`` answers the table's questions; with
them too, the report holds the battle (as in v1) and the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.scenario import check_stacking
from explorer.games.assault_of_the_giants.plan.endgame import Phase, Standing
from explorer.games.assault_of_the_giants.rules.data import CASTE_ORDER, GIANTSLAYER_FIGURES, RaceName
from explorer.games.assault_of_the_giants.table.phase import KINDS, Pools, Race, Region, TableState, phase
from explorer.games.assault_of_the_giants.table.winner import MAX_JOINT_OUTCOMES
from explorer.scenario.fields import Fields, check_option, check_whole, describe

__all__ = ["TableScenario", "parse_table", "MAX_REGIONS", "MAX_POOL", "MAX_GIANTSLAYERS", "MAX_STANDING",
           "MAX_REGION_UNITS", "MAX_POINT_OUTCOMES", "MAX_NAME"]

MAX_REGIONS = 30
"""Most regions listed (a teaching limit; the board's own count is not in our pages)."""
MAX_POOL = 500
"""Most Ordning Point tokens in one pool (the pool sizes are not in our pages)."""
MAX_GIANTSLAYERS = GIANTSLAYER_FIGURES.value
"""Giantslayer figures in the box (reviews: bonusstage.co.uk, wolfsgamingblog.com)."""
MAX_REGION_UNITS = 100
"""Most ``units`` in one region (only storm's stacking limit, 3, is in our pages)."""
MAX_NUMBER = 99
"""Largest Ordning Number accepted (the printed numbers are not in our pages)."""
MAX_STANDING = 10_000
"""Largest Ordning Points, Resource Cards or regions in ``standings``."""
MAX_POINT_OUTCOMES = 50
"""Most values in one player's random ``ordning_points``."""
MAX_NAME = 60
"""Longest region name."""
MAX_WEIGHT = 10**6
"""Largest weight of one value of random ``ordning_points``."""


@dataclass(frozen=True, slots=True)
class TableScenario:
    """A parsed ``table``: the state, and the final standings if given."""

    state: TableState
    standings: Mapping[str, Standing] | None = None
    regions_counted: tuple[str, ...] = ()
    """Players whose regions occupied were counted from the table (not given)."""


def _race_name(value: Any, path: str, allowed: tuple[RaceName, ...]) -> RaceName:
    return check_option(value, allowed, path)


def _players(f: Fields) -> list[Race]:
    listed = f.items("players")
    if not 1 <= len(listed) <= len(CASTE_ORDER):
        raise ScenarioError(f.at("players"), f"must list 1 to {len(CASTE_ORDER)} races in seat order, got {len(listed)}")
    races: list[Race] = []
    for i, entry in enumerate(listed):
        path = f"{f.at('players')}[{i}]"
        if isinstance(entry, str):
            name, number = _race_name(entry, path, CASTE_ORDER), None
        else:
            one = Fields(entry, path)
            name = _race_name(one.raw("race"), one.at("race"), CASTE_ORDER)
            number = one.whole("ordning_number", None, minimum=1, maximum=MAX_NUMBER)
            one.done()
        if any(r.name == name for r in races):
            raise ScenarioError(path, f'"{name}" is seated twice; each race is played by one player')
        race = Race(name, CASTE_ORDER.index(name) + 1 if number is None else number)
        if any(r.ordning_number == race.ordning_number for r in races):
            raise ScenarioError(path, f"Ordning Number {race.ordning_number} is taken twice; each Giant Race Token "
                                      "has its own (p.9)")
        races.append(race)
    return races


def _npc(f: Fields, players: list[Race]) -> list[Race]:
    listed = f.items("npc", [])
    names: list[RaceName] = []
    for i, entry in enumerate(listed):
        path = f"{f.at('npc')}[{i}]"
        name = _race_name(entry, path, CASTE_ORDER)
        if name in names or any(r.name == name for r in players):
            raise ScenarioError(path, f'"{name}" is at the table already; a race is a player or NPC giants, once')
        names.append(name)
    return [Race(name, npc=True) for name in names]


def _region(data: Any, path: str, races: tuple[RaceName, ...]) -> Region:
    f = Fields(data, path)
    name = f.text("name")
    if len(name) > MAX_NAME:
        raise ScenarioError(f.at("name"), f"at most {MAX_NAME} characters, got {len(name)}")
    kind = f.choice("kind", KINDS)
    home = None
    if kind == "starting":
        home = _race_name(f.raw("home"), f.at("home"), races)
    elif f.raw("home", None) is not None:
        raise ScenarioError(f.at("home"), 'only a Starting Region has a home race: set kind "starting" or drop home')
    holder = f.raw("occupied_by", None)
    occupied_by = None if holder is None else _race_name(holder, f.at("occupied_by"), races)
    units = None
    if f.has("units"):
        if occupied_by is None:
            raise ScenarioError(f.at("units"), "counts the units of occupied_by: set occupied_by, or drop units")
        units = f.whole("units", minimum=1, maximum=MAX_REGION_UNITS)
        check_stacking(occupied_by, units, f.at("units"))
    region = Region(name, kind, home, occupied_by,
                    f.whole("giantslayers", 0, maximum=MAX_GIANTSLAYERS), f.flag("lyn_armaal", False), units)
    f.done()
    return region


def _regions(f: Fields, players: list[Race], npcs: list[Race], current_phase: Phase) -> tuple[Region, ...]:
    listed = f.items("regions")
    at = f.at("regions")
    if not 1 <= len(listed) <= MAX_REGIONS:
        raise ScenarioError(at, f"must list 1 to {MAX_REGIONS} regions, got {len(listed)}")
    races = tuple(r.name for r in players + npcs)
    regions = [_region(entry, f"{at}[{i}]", races) for i, entry in enumerate(listed)]
    for i, region in enumerate(regions):
        path = f"{at}[{i}]"
        if any(other.name.casefold() == region.name.casefold() for other in regions[:i]):
            raise ScenarioError(f"{path}.name", f"{region.name!r} is listed twice; region names must differ")
        if region.is_starting and any(o.is_starting and o.home == region.home for o in regions[:i]):
            raise ScenarioError(f"{path}.home", f'"{region.home}" has one Starting Region, listed already')
        _check_occupant(region, f"{path}.occupied_by", npcs, current_phase)
        if region.is_starting and region.giantslayers and current_phase is Phase.NORMAL:
            raise ScenarioError(f"{path}.giantslayers", f"must be 0 before the Final Ordning: giantslayers may not "
                                                        f"end a move in a Starting Region ({region.home}'s here) "
                                                        f"until then, nor be recruited there (rulebook p.18)")
        if region.lyn_armaal and "cloud" not in races:
            raise ScenarioError(f"{path}.lyn_armaal", "must be false: the cloud giants are not at this table")
    if sum(r.giantslayers for r in regions) > MAX_GIANTSLAYERS:
        raise ScenarioError(at, f"at most {MAX_GIANTSLAYERS} giantslayers on the board in all (the box holds 3)")
    if sum(r.lyn_armaal for r in regions) > 1:
        raise ScenarioError(at, "Lyn Armaal is one token: lyn_armaal may be true on one region only")
    for race in players:
        if not any(r.is_starting and r.home == race.name for r in regions):
            raise ScenarioError(at, f'list the "{race.name}" Starting Region (kind "starting", home '
                                    f'"{race.name}"): recruiting depends on it (p.20)')
    if any(r.name == "cloud" for r in players) and not any(r.lyn_armaal for r in regions):
        regions = [replace(r, lyn_armaal=True) if r.is_starting and r.home == "cloud" else r for r in regions]
    return tuple(regions)


def _check_occupant(region: Region, path: str, npcs: list[Race], current_phase: Phase) -> None:
    holder = region.occupied_by
    if holder is None or not region.is_starting or holder == region.home:
        return
    if any(n.name == holder for n in npcs):
        raise ScenarioError(path, f'NPC "{holder}" giants never move, so they cannot stand in the "{region.home}" '
                                  "Starting Region (p.19)")
    if current_phase is Phase.NORMAL:
        raise ScenarioError(path, f'"{holder}" giants cannot stand in the "{region.home}" Starting Region before '
                                  "the Final Ordning: no move may end there (p.20); empty the first pool or change it")


def _pools(f: Fields) -> Pools:
    if not f.has("pools"):
        return Pools(1, 1)
    p = f.child("pools")
    pools = Pools(p.whole("first", maximum=MAX_POOL), p.whole("second", maximum=MAX_POOL))
    p.done()
    if pools.first and not pools.second:
        raise ScenarioError(p.at("second"), "cannot be 0 while the first pool holds tokens: the pools run out in "
                                            "order (ruling, p.20)")
    return pools


def _points(value: Any, path: str) -> Dist[int]:
    if not isinstance(value, Mapping):
        return Dist.single(check_whole(value, path, maximum=MAX_STANDING))
    if not 1 <= len(value) <= MAX_POINT_OUTCOMES:
        raise ScenarioError(path, f"must give 1 to {MAX_POINT_OUTCOMES} values with their weights, got {len(value)}")
    weights: dict[int, int] = {}
    for key, weight in value.items():
        text = str(key).strip()
        if not (text.isascii() and text.isdigit()) or int(text) > MAX_STANDING:
            raise ScenarioError(f"{path}.{key}", f"a value must be a whole number 0 to {MAX_STANDING}, got {describe(key)}")
        weights[int(text)] = weights.get(int(text), 0) + check_whole(weight, f"{path}.{key}", minimum=1,
                                                                     maximum=MAX_WEIGHT)
    return Dist(weights)


def _standings(f: Fields, state: TableState) -> tuple[dict[str, Standing] | None, tuple[str, ...]]:
    if not f.has("standings"):
        return None, ()
    table = f.child("standings")
    names = tuple(r.name for r in state.players)
    for key in table.data:
        if key not in names:
            listed = ", ".join(f'"{n}"' for n in names)
            raise ScenarioError(table.at(str(key)), f"must be a player ({listed}); NPC giants do not compete")
    standings: dict[str, Standing] = {}
    counted: list[str] = []
    for name in names:
        if name not in table.data:
            raise ScenarioError(table.path, f'missing "{name}": every player is ranked, even one with no forces '
                                            "left on the board (p.20)")
        one = table.child(name)
        points = _points(one.raw("ordning_points"), one.at("ordning_points"))
        cards = one.whole("resource_cards", 0, maximum=MAX_STANDING)
        if not one.has("regions"):
            counted.append(name)
        regions = one.whole("regions", len(state.friendly_regions(name)), maximum=MAX_STANDING)
        one.done()
        standings[name] = Standing(points, cards, regions)
    table.done()
    combinations = 1
    for standing in standings.values():
        combinations *= len(standing.points)
    if combinations > MAX_JOINT_OUTCOMES:
        raise ScenarioError(table.path, f"at most {MAX_JOINT_OUTCOMES} combinations of random Ordning Points "
                                        f"(the product of each player's values), got {combinations}")
    return standings, tuple(counted)


def _player(f: Fields, key: str, players: list[Race], default: RaceName) -> RaceName:
    value = f.raw(key, default)
    names = tuple(r.name for r in players)
    if isinstance(value, str) and value in CASTE_ORDER and value not in names:
        raise ScenarioError(f.at(key), f'"{value}" is not a player here; NPC giants take no turns (p.19)')
    return _race_name(value, f.at(key), names)


def parse_table(data: Any, path: str = "table") -> TableScenario:
    """The ``table`` object of a scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> scenario = parse_table({"players": ["storm", "hill"], "npc": ["fire"], "pools": {"first": 0, "second": 3},
    ...     "regions": [{"name": "Maelstrom", "kind": "starting", "home": "storm"},
    ...                 {"name": "Sumber Hills", "kind": "starting", "home": "hill", "occupied_by": "storm"}]})
    >>> scenario.state.current, scenario.state.race("storm").ordning_number
    ('storm', 6)
    >>> parse_table({"players": ["hill"], "regions": [{"name": "X", "kind": "small-folk"}]})
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: table.regions: list the "hill" Starting Region (kind "starting", home "hill"): recruiting depends on it (p.20)
    """
    f = Fields(data, path)
    players = _players(f)
    npcs = _npc(f, players)
    pools = _pools(f)
    regions = _regions(f, players, npcs, phase(pools))
    current = _player(f, "current", players, players[0].name)
    began = None
    if f.has("endgame_began_with"):
        if phase(pools) is not Phase.ENDGAME:
            raise ScenarioError(f.at("endgame_began_with"), "is for the Endgame only: both pools must be 0 (p.20)")
        began = _player(f, "endgame_began_with", players, current)
    state = TableState(tuple(players + npcs), regions, pools, current, began)
    standings, counted = _standings(f, state)
    f.done()
    return TableScenario(state, standings, counted)
