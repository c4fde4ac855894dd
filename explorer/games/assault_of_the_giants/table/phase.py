"""The table of Assault of the Giants: races, regions and pools, and the phase that follows (p.20).

A small, explicit model of what the rules of p.20 need, and nothing more:

* the races at the table: the players in seat order (which is the turn order), each with the
  Ordning Number on its Giant Race Token, then the NPC races, which take no turns;
* the regions: a Starting Region (of one race) or a Small Folk Region, which race's giants stand
  there (one race at most: no giants may end a move in an enemy region, p.11), how many
  giantslayers, and whether the cloud giants' Lyn Armaal token is there;
* the two pools of Ordning Point tokens, the player whose turn it is and, once the Endgame has
  begun, the player on whose turn the second pool ran out.

The phase is not stored: it follows from the pools (`phase`). Checking that a state makes sense
is the scenario reader's work (`table.scenario`), which names the offending key.

>>> state = TableState((Race("storm", 6), Race("hill", 1), Race("fire", npc=True)),
...     (Region("Maelstrom", "starting", home="storm", occupied_by="storm"),), Pools(0, 4), "storm")
>>> phase(state).value, [r.name for r in state.players]
('final ordning', ['storm', 'hill'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from explorer.games.assault_of_the_giants.plan.endgame import Phase
from explorer.games.assault_of_the_giants.rules.data import RaceName

__all__ = ["KINDS", "Race", "Region", "RegionKind", "Pools", "TableState", "phase", "phase_reason", "take_token"]

RegionKind = Literal["starting", "small-folk"]
"""The kinds of region: a race's Starting Region, or a Small Folk Region (p.18)."""
KINDS: tuple[RegionKind, ...] = get_args(RegionKind)
"""The values of `RegionKind` (scenario key ``kind`` of a region)."""


@dataclass(frozen=True, slots=True)
class Race:
    """One giant race at the table: a player's race, or NPC giants (p.19)."""

    name: RaceName
    """The race, in the rulebook's words: ``hill``, ``stone``, ``frost``, ``fire``, ``cloud``, ``storm``."""
    ordning_number: int | None = None
    """The number on the race's Giant Race Token (p.9); only players' numbers matter (p.20)."""
    npc: bool = False
    """True for NPC giants: they never move, attack or take a turn; they only defend (p.19)."""


@dataclass(frozen=True, slots=True)
class Region:
    """One region of the board, as far as the rules of p.20 see it."""

    name: str
    kind: RegionKind
    """``starting`` (a race's Starting Region) or ``small-folk``."""
    home: RaceName | None = None
    """For a Starting Region, the race it belongs to; None for a Small Folk Region."""
    occupied_by: RaceName | None = None
    """The race whose giants stand here; None when no giants do (an empty region, p.11)."""
    giantslayers: int = 0
    """Giantslayer figures here: they neither block giants nor make a region enemy (p.19)."""
    lyn_armaal: bool = False
    """True where the cloud giants' Lyn Armaal token is (set up in their Starting Region, p.9)."""
    units: int | None = None
    """How many units of `occupied_by` stand here, when given (checked against stacking limits, p.9)."""

    @property
    def is_starting(self) -> bool:
        """True for a Starting Region."""
        return self.kind == "starting"


@dataclass(frozen=True, slots=True)
class Pools:
    """Ordning Point tokens left in the first and the second pool (sizes are not in our pages)."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything the rules of p.20 ask about a moment of the game."""

    races: tuple[Race, ...]
    """Players in seat order (the turn order), then NPC races (their place in the tuple is ignored)."""
    regions: tuple[Region, ...]
    pools: Pools
    current: RaceName
    """The player whose turn it is."""
    endgame_began_with: RaceName | None = None
    """The player on whose turn the second pool ran out (Endgame only); None: the current player."""

    @property
    def players(self) -> tuple[Race, ...]:
        """The players' races in seat order (NPC races left out)."""
        return tuple(r for r in self.races if not r.npc)

    def race(self, name: str) -> Race:
        """The race called `name` (KeyError if it is not at the table)."""
        for race in self.races:
            if race.name == name:
                return race
        raise KeyError(name)

    def region(self, name: str) -> Region:
        """The region called `name` (KeyError if it is not listed)."""
        for region in self.regions:
            if region.name == name:
                return region
        raise KeyError(name)

    def starting_region(self, race: str) -> Region | None:
        """The Starting Region of `race`, if listed."""
        return next((r for r in self.regions if r.is_starting and r.home == race), None)

    def friendly_regions(self, race: str) -> tuple[Region, ...]:
        """Regions holding at least one of `race`'s giants (the rulebook's friendly regions, pp.11, 20)."""
        return tuple(r for r in self.regions if r.occupied_by == race)

    def is_npc(self, race: str | None) -> bool:
        """True when `race` is NPC giants."""
        return race is not None and any(r.name == race and r.npc for r in self.races)

    def numbers(self) -> dict[str, int]:
        """Each player's Ordning Number."""
        return {r.name: r.ordning_number or 0 for r in self.players}


def phase(state: TableState | Pools) -> Phase:
    """Where the game stands: normal play, the Final Ordning, or the Endgame (p.20).

    The Final Ordning begins once the first pool is empty, the Endgame once the second is too;
    the Endgame keeps the Final Ordning's freedoms ("from this point forward", p.20).

    >>> [phase(Pools(*p)).name for p in ((3, 9), (0, 9), (0, 0))]
    ['NORMAL', 'FINAL_ORDNING', 'ENDGAME']
    """
    pools = state.pools if isinstance(state, TableState) else state
    if pools.first > 0:
        return Phase.NORMAL
    return Phase.FINAL_ORDNING if pools.second > 0 else Phase.ENDGAME


def phase_reason(state: TableState | Pools) -> str:
    """Why the game is in its phase, citing p.20.

    >>> phase_reason(Pools(0, 5))
    'the first pool is empty and the second holds 5 tokens: the Final Ordning has begun (p.20)'
    """
    pools = state.pools if isinstance(state, TableState) else state
    found = phase(pools)
    if found is Phase.NORMAL:
        return (f"the first pool still holds {pools.first} token{'s' * (pools.first != 1)}: normal play; "
                "the Final Ordning begins when it runs out (p.20)")
    if found is Phase.FINAL_ORDNING:
        return (f"the first pool is empty and the second holds {pools.second} token"
                f"{'s' * (pools.second != 1)}: the Final Ordning has begun (p.20)")
    return ("both pools are empty: the Endgame has begun; the Final Ordning's rules still hold and "
            "Ordning Points are still earned, from the tokens returned to the box (p.20)")


def take_token(pools: Pools) -> Pools:
    """The pools after one token is awarded: from the first pool while it lasts, then the second.

    The pools run out in order (a ruling: the pages describing them are missing). Empty pools stay
    empty; later points come from the box (p.20).

    >>> take_token(Pools(1, 2)), take_token(Pools(0, 2)), take_token(Pools(0, 0))
    (Pools(first=0, second=2), Pools(first=0, second=1), Pools(first=0, second=0))
    """
    if pools.first:
        return Pools(pools.first - 1, pools.second)
    return Pools(0, max(pools.second - 1, 0))
