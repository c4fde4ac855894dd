"""What the rules of the table allow, each answer with its reason and page (pp.11, 18-20).

For one state of the table (`table.TableState`) and one race: may its giants pass through a region,
and at what cost; may a move end there; may they attack it; where may the race recruit; and, for
the whole table, the turns left once the Endgame begins. Every answer names the ruling it applies
(`table.rulings.TABLE_RULINGS`), so a report can say which answers rest on an inferred ruling.

>>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
>>> state = TableState((Race("hill", 1), Race("stone", npc=True)),
...     (Region("Sumber Hills", "starting", home="hill", occupied_by="hill"),
...      Region("Stone Home", "starting", home="stone")), Pools(3, 5), "hill")
>>> may_end_move(state, "hill", "Stone Home").allowed
False
>>> may_end_move(TableState(state.races, state.regions, Pools(0, 5), "hill"), "hill", "Stone Home").allowed
True
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.games.assault_of_the_giants.plan.endgame import Phase, endgame_turns
from explorer.games.assault_of_the_giants.rules.data import GIANTSLAYER_ACTIONS, GIANTSLAYER_FIGURES
from explorer.games.assault_of_the_giants.table.phase import Region, TableState, phase
from explorer.games.assault_of_the_giants.table.rulings import ruling

__all__ = ["Answer", "Recruit", "Turns", "move_through", "may_end_move", "may_attack", "recruit_places",
           "turns_left", "npc_controller", "seats_fall", "slayer_recruit_places", "slayer_may_end_move"]

_WOUND = "1 wound to one of the giants passing through"


@dataclass(frozen=True, slots=True)
class Answer:
    """Whether something is allowed, what it costs, why, and where the rule is."""

    allowed: bool
    reason: str
    page: str
    """Rulebook pages, such as ``"p.20"`` or ``"pp.11, 20"``."""
    costs: tuple[str, ...] = ()
    """Ways to pay, one of which must be chosen (empty: free)."""
    rulings: tuple[str, ...] = ()
    """Keys of the `table.rulings.TABLE_RULINGS` this answer applies."""

    @property
    def inferred(self) -> bool:
        """True when the answer rests on a ruling we inferred."""
        return any(ruling(key).inferred for key in self.rulings)


@dataclass(frozen=True, slots=True)
class Recruit:
    """Where a race may recruit (p.20): no place means it cannot use the Recruit Command now."""

    places: tuple[str, ...]
    reason: str
    page: str
    rulings: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        """True when the race has somewhere to recruit."""
        return bool(self.places)

    @property
    def inferred(self) -> bool:
        """True when the answer rests on a ruling we inferred."""
        return any(ruling(key).inferred for key in self.rulings)


@dataclass(frozen=True, slots=True)
class Turns:
    """The turns left once the second pool has run out, in order (p.20)."""

    turns: tuple[str, ...]
    after: str
    """The player on whose turn the pool ran out (the turns listed come after that turn)."""
    begun: bool
    """False when the Endgame has not begun: the list is what would follow if it began on `after`'s turn."""
    equal: bool
    """True when the seating gives every player the same number of turns in the game (p.10)."""
    reason: str
    page: str = "p.20"
    rulings: tuple[str, ...] = ("endgame-turns", "seats")


def _npc_mover(state: TableState, race: str, what: str) -> Answer | None:
    if state.is_npc(race):
        return Answer(False, f"{race} giants are NPC giants: they never {what}, they only defend", "p.19",
                      rulings=("npc-only-defend",))
    return None


def _slayers(region: Region) -> str:
    return "; giantslayers there do not stop giants" if region.giantslayers else ""


def _pages(*pages: int) -> str:
    """``p.11`` or ``pp.11, 19``, in order and once each.

    >>> _pages(20, 11, 20), _pages(11)
    ('pp.11, 20', 'p.11')
    """
    found = sorted(set(pages))
    return f"p.{found[0]}" if len(found) == 1 else "pp." + ", ".join(str(p) for p in found)


def move_through(state: TableState, race: str, region: str) -> Answer:
    """May `race`'s giants pass through `region` on a move, and what it costs (pp.11, 20).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> state = TableState((Race("hill", 1), Race("fire", npc=True)),
    ...     (Region("Ember", "small-folk", occupied_by="fire"),), Pools(1, 1), "hill")
    >>> move_through(state, "hill", "Ember").costs[0]
    'discard 1 Resource Card of your choice (the NPC giants give it to no one)'
    """
    refused = _npc_mover(state, race, "move")
    if refused:
        return refused
    here = state.region(region)
    keys: tuple[str, ...] = ()
    pages = [11] + [19] * bool(here.giantslayers)
    if here.is_starting and here.home != race:
        if state.is_npc(here.home):
            keys, pages = ("pass-cost",), pages + [20]
        elif phase(state) is Phase.NORMAL:  # from the Final Ordning on, a move may even end there (p.20)
            keys, pages = ("pass-starting",), pages + [18]
        else:
            pages.append(20)
    holder = here.occupied_by
    if holder is None or holder == race:
        what = "a friendly region" if holder == race else "an empty region"
        where = f", the {here.home} Starting Region," if here.is_starting and here.home != race else ""
        return Answer(True, f"{here.name}{where} is {what}: free to pass{_slayers(here)}", _pages(*pages),
                      rulings=keys)
    keys = tuple(dict.fromkeys(keys + ("pass-cost",)))
    if state.is_npc(holder):
        return Answer(True, f"NPC {holder} giants stand in {here.name}: pass by paying once this turn",
                      _pages(*pages, 20),
                      ("discard 1 Resource Card of your choice (the NPC giants give it to no one)", _WOUND), keys)
    return Answer(True, f"{holder} giants stand in {here.name}: pass by paying once this turn", _pages(*pages),
                  (f"pay the {holder} player 1 Resource Card of your choice", _WOUND), keys)


def may_end_move(state: TableState, race: str, region: str) -> Answer:
    """May a move of `race`'s giants end in `region` (pp.11, 20).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> state = TableState((Race("hill", 1), Race("frost", 3)),
    ...     (Region("High Moor", "small-folk", occupied_by="frost"),), Pools(0, 0), "hill")
    >>> may_end_move(state, "hill", "High Moor").reason
    'frost giants stand in High Moor: a move may end only in an empty or friendly region'
    """
    refused = _npc_mover(state, race, "move")
    if refused:
        return refused
    here = state.region(region)
    holder = here.occupied_by
    if holder is not None and holder != race:
        return Answer(False, f"{holder} giants stand in {here.name}: a move may end only in an empty or friendly "
                             "region", "p.11", rulings=("end-move",))
    if holder == race:
        return Answer(True, f"{here.name} is a friendly region", "p.11", rulings=("end-move",))
    if not here.is_starting or here.home == race:
        own = "your own empty Starting Region" if here.is_starting else "an empty region"
        return Answer(True, f"{here.name} is {own}{_slayers(here)}", _pages(11, *[19] * bool(here.giantslayers)),
                      rulings=("end-move",))
    npc = "NPC " if state.is_npc(here.home) else ""
    if phase(state) is Phase.NORMAL:
        return Answer(False, f"{here.name} is the {npc}{here.home} giants' Starting Region: no move may end there "
                             f"until the Final Ordning (first pool: {state.pools.first} left)", "p.20",
                      rulings=("end-move",))
    return Answer(True, f"{here.name}, the {npc}{here.home} giants' Starting Region, is undefended and open since "
                        f"the Final Ordning{_slayers(here)}", _pages(20, *[19] * bool(here.giantslayers)),
                      rulings=("end-move",))


def npc_controller(state: TableState) -> str:
    """The player who decides for NPC giants in a battle: the one to the current player's right (p.20).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, TableState
    >>> npc_controller(TableState((Race("storm", 6), Race("cloud", 5), Race("hill", 1)), (), Pools(1, 1), "storm"))
    'hill'
    """
    names = [r.name for r in state.players]
    return names[(names.index(state.current) - 1) % len(names)]


def may_attack(state: TableState, race: str, region: str) -> Answer:
    """May `race`'s giants attack the giants in `region` (pp.19-20); adjacency is not checked.

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> state = TableState((Race("hill", 1), Race("fire", npc=True)),
    ...     (Region("Fire Home", "starting", home="fire", occupied_by="fire"),), Pools(4, 4), "hill")
    >>> may_attack(state, "hill", "Fire Home").allowed
    False
    """
    refused = _npc_mover(state, race, "attack")
    if refused:
        return refused
    here = state.region(region)
    holder = here.occupied_by
    if holder is None:
        what = ("only giantslayers are here, and giants cannot attack giantslayers on a normal turn"
                if here.giantslayers else "no giants are here to attack")
        return Answer(False, f"{here.name}: {what}", "p.19", rulings=("attack",))
    if holder == race:
        return Answer(False, f"{here.name} holds your own giants", "p.20", rulings=("attack",))
    npc = state.is_npc(holder)
    if here.is_starting and phase(state) is Phase.NORMAL:
        return Answer(False, f"{here.name} is the {'NPC ' * state.is_npc(here.home)}{here.home} giants' Starting "
                             f"Region: no attack on it until the Final Ordning (first pool: {state.pools.first} left)",
                      "p.20", rulings=("attack",))
    target = f"NPC {holder} giants" if npc else f"the {holder} giants"
    opened = ", a Starting Region open since the Final Ordning" if here.is_starting else ""
    decides = f"; {npc_controller(state)} decides for them (seated to the current player's right)" if npc else ""
    return Answer(True, f"{here.name}{opened}: attack {target} if adjacent{decides}", "p.20",
                  rulings=("attack",) + (("npc-control",) if npc else ()))


def recruit_places(state: TableState, race: str) -> Recruit:
    """Where `race` may recruit now: its Starting Region, Lyn Armaal's region, or as homeless giants (p.20).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> state = TableState((Race("hill", 1), Race("frost", 3)),
    ...     (Region("Sumber Hills", "starting", home="hill", occupied_by="frost"),
    ...      Region("High Moor", "small-folk", occupied_by="hill")), Pools(0, 2), "hill")
    >>> recruit_places(state, "hill").places
    ('High Moor',)
    """
    if state.is_npc(race):
        return Recruit((), f"{race} giants are NPC giants: they never recruit", "p.19", ("npc-only-defend",))
    home = state.starting_region(race)
    if home is None:
        return Recruit((), f"the {race} Starting Region is not listed", "p.20", ("recruit-place",))
    keys = ("lyn-armaal", "homeless") if race == "cloud" else ("homeless",)
    if home.occupied_by not in (None, race):
        held = f"{home.occupied_by} giants hold {home.name}, the {race} Starting Region"
        friendly = tuple(r.name for r in state.friendly_regions(race))
        if friendly:
            return Recruit(friendly, f"homeless: {held}; recruit in any friendly region", "p.20", keys)
        return Recruit((), f"homeless: {held}, and no friendly region is left: no Recruit Command until "
                           f"{home.name} is free again (Plunder, Trade and the like can still be played)", "p.20", keys)
    slayers = ("slayers-no-army",) if home.giantslayers else ()
    if race == "cloud":
        lyn = next((r for r in state.regions if r.lyn_armaal), home)
        if lyn.occupied_by not in (None, "cloud"):
            return Recruit((), f"Lyn Armaal is in {lyn.name}, where {lyn.occupied_by} giants stand: no place to "
                               "recruit", "p.20", ("lyn-armaal-held",))
        return Recruit((lyn.name,), f"the cloud giants recruit where Lyn Armaal is: {lyn.name}", "p.20",
                       ("lyn-armaal",) + slayers)
    return Recruit((home.name,), f"recruit in your Starting Region, {home.name}", "p.20", ("recruit-place",) + slayers)


def seats_fall(state: TableState) -> bool:
    """True when Ordning Numbers fall along the seats from the highest, as at setup (p.9).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, TableState
    >>> seats = (Race("hill", 1), Race("storm", 6), Race("fire", 4))
    >>> seats_fall(TableState(seats, (), Pools(0, 0), "hill"))
    True
    """
    numbers = [r.ordning_number or 0 for r in state.players]
    top = numbers.index(max(numbers))
    turned = numbers[top:] + numbers[:top]
    return all(a > b for a, b in zip(turned, turned[1:]))


def turns_left(state: TableState) -> Turns:
    """The turns after the one in which the second pool ran out, in order (p.20).

    Before the Endgame, the list is what would follow if the pool ran out on the current turn.

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, TableState
    >>> state = TableState((Race("storm", 6), Race("fire", 4), Race("hill", 1)), (), Pools(0, 0), "fire")
    >>> turns_left(state).turns
    ('hill', 'storm', 'fire', 'hill')
    """
    begun = phase(state) is Phase.ENDGAME
    after = (state.endgame_began_with or state.current) if begun else state.current
    numbers = state.numbers()
    names = [r.name for r in state.players]
    turns = tuple(endgame_turns(names, numbers, after))
    last = min(names, key=lambda n: numbers[n])
    then = f"play goes on until {last} (lowest Ordning Number, {numbers[last]}) has played, then one final round"
    equal = seats_fall(state)
    flag = "" if equal else "; this seating is not the setup's, so players do not all get equal turns (p.10)"
    if begun:
        reason = f"the second pool ran out on {after}'s turn: {then}{flag}"
    else:
        reason = f"not the Endgame yet; were the second pool to run out on {after}'s turn, {then}{flag}"
    return Turns(turns, after, begun, equal, reason)


def _actions(what: str) -> str:
    n = GIANTSLAYER_ACTIONS[what].value
    return f"{n} Giantslayer Action{'s' * (n != 1)}"


def slayer_recruit_places(state: TableState) -> Recruit:
    """Where a giantslayer may be recruited: any Small Folk Region, for 2 Giantslayer Actions (p.18).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> state = TableState((Race("hill", 1),), (Region("Sumber Hills", "starting", home="hill"),
    ...     Region("Triboar", "small-folk", giantslayers=1)), Pools(3, 3), "hill")
    >>> slayer_recruit_places(state).places
    ('Triboar',)
    """
    figures = GIANTSLAYER_FIGURES.value
    on_board = sum(r.giantslayers for r in state.regions)
    if on_board >= figures:
        return Recruit((), f"all {figures} giantslayer figures are on the board already", "p.18", ("giantslayers",))
    places = tuple(r.name for r in state.regions if not r.is_starting)
    if not places:
        return Recruit((), "no Small Folk Region is listed: giantslayers are recruited only there", "p.18",
                       ("giantslayers",))
    return Recruit(places, f"into any Small Folk Region, never a Starting Region; costs {_actions('recruit')} of "
                           "the Rest Command (one per card to its left); the giantslayer comes back fully healed",
                   "p.18", ("giantslayers",))


def slayer_may_end_move(state: TableState, region: str) -> Answer:
    """May a giantslayer's move end in `region`: anywhere but a Starting Region before the Final Ordning (p.18).

    >>> from explorer.games.assault_of_the_giants.table.phase import Pools, Race, Region, TableState
    >>> home = Region("Sumber Hills", "starting", home="hill", occupied_by="hill")
    >>> slayer_may_end_move(TableState((Race("hill", 1),), (home,), Pools(3, 3), "hill"), "Sumber Hills").allowed
    False
    >>> slayer_may_end_move(TableState((Race("hill", 1),), (home,), Pools(0, 3), "hill"), "Sumber Hills").allowed
    True
    """
    here = state.region(region)
    cost = (f"{_actions('move')} per region moved",)
    if here.is_starting and phase(state) is Phase.NORMAL:
        return Answer(False, f"{here.name} is the {here.home} giants' Starting Region: a giantslayer may pass "
                             f"through but not end a move there until the Final Ordning (first pool: "
                             f"{state.pools.first} left)", "p.18", cost, ("giantslayers",))
    if here.is_starting:
        return Answer(True, f"{here.name}, the {here.home} giants' Starting Region, is open to giantslayers since "
                            "the Final Ordning", "p.18", cost, ("giantslayers",))
    enemy = f"; {here.occupied_by} giants here do not stop giantslayers" if here.occupied_by else ""
    return Answer(True, f"{here.name} is a Small Folk Region{enemy}", "p.18", cost, ("giantslayers",))
