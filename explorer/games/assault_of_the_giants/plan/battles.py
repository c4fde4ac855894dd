"""A plan of several battles, exactly: wounds and defeats carry forward from battle to battle.

The armies are named; each battle of the plan names its attacking and its defending army and
gives each side's dice, Command row and orders, while the units come from the army as the
earlier battles left it. The plan is resolved over the armies' *states*: every unit's status
(healthy, wounded, defeated), every player's Ordning Points and every player's Resource Cards.
Each battle branches every state over the battle's joint outcome (both sides' casualties and
rewards, `battle_outcomes`), and equal states merge, so the answer is exact and the work grows
with the number of different states, not with the number of dice rolled.

Rulings of a plan are data, `PLAN_RULINGS`, printed in every plan report with the battle's own
(`rulings.BATTLE_RULINGS`), which apply to every battle of the plan.

>>> all(ruling.endswith(")") for ruling in PLAN_RULINGS)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.battle.battle import casualty_table, points_for, resource_cards_for
from explorer.games.assault_of_the_giants.rules.casualties import Casualties
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.data import RaceName
from explorer.games.assault_of_the_giants.rules.model import FIXED_POLICIES, Battle, Side, Status, Unit

__all__ = [
    "Army", "PlanSide", "PlanBattle", "PlayerStanding", "Plan", "PlanState", "BattleOutcome", "Losses",
    "battle_outcomes", "outcome_weights", "side_losses", "joint_damage", "damage_of_totals", "side_totals_of",
    "reads_units", "wiped_out", "PLAN_RULINGS", "STATUS_CODES", "CODE_OF",
]

STATUS_CODES: Mapping[str, Status] = {"h": Status.HEALTHY, "w": Status.WOUNDED, "d": Status.DEFEATED}
"""One letter per unit status, as an army's statuses are written in a `PlanState`."""

CODE_OF: Mapping[Status, str] = {status: code for code, status in STATUS_CODES.items()}
"""The letter of each status."""

PLAN_RULINGS: tuple[str, ...] = (
    "Wounds and defeats carry forward: a unit wounded in one battle fights its later battles on its wounded "
    "side (its wounded_fortitude) and any damage defeats it; a defeated unit is gone; nothing heals between "
    "the battles of a plan (rulebook p.17; healing is on pages we do not have)",
    "A battle whose attacking or defending army has no units left does not take place: nothing changes and "
    "no one earns anything (a ruling: moving into an empty region is on pages we do not have)",
    "Each battle rolls the pool, Command row and modifiers written for it, whatever units the army has left "
    "(a ruling: how many dice an army rolls is on pages we do not have)",
    "The battles are fought in the order listed, with no retreat, advance or other move between them "
    "(a ruling: steps 6 and later of a battle are on pages we do not have)",
    "Regions occupied start from the standings, by default one per army of the player; an army wiped out no "
    "longer occupies its region, unless marked occupies_region false (inferred from rulebook p.20)",
    "The winner has the most Ordning Points; tied players compare Resource Cards, then regions occupied; "
    "players still tied share the victory (rulebook p.20)",
    "Resource Cards change only by giantslayers defeated in the plan; cards spent or drawn otherwise are not "
    "modelled (rulebook p.19)",
    "NPC giants belong to no player: they never attack, earn nothing and cannot win (rulebook pp.19-20)",
    "Giants cannot attack giantslayers, and no army attacks an army of its own player (rulebook p.19)",
)
"""How a plan of battles is read where the rules we have are silent."""


@dataclass(frozen=True, slots=True)
class Army:
    """Units of one player (or of NPC giants) standing together in one region.

    >>> Army("hill", (Unit("a", 2, 1, 1, wounded=True), Unit("b", 3, 2, 2)), "hill").start
    'wh'
    """

    name: str
    units: tuple[Unit, ...]
    player: str | None
    """Who earns what the army wins; None for NPC giants."""
    npc: bool = False
    giantslayers: bool = False
    race: RaceName | None = None
    occupies_region: bool = True
    """Whether the player loses a region occupied when the army is wiped out."""

    @property
    def start(self) -> str:
        """The units' statuses before the plan, one letter each (`STATUS_CODES`)."""
        return "".join("w" if unit.wounded else "h" for unit in self.units)


@dataclass(frozen=True, slots=True)
class PlanSide:
    """One side of a battle in a plan: the army, and its dice and orders for this battle."""

    army: str
    side: Side
    """The battle's side with the army's units as they stand before the plan."""


@dataclass(frozen=True, slots=True)
class PlanBattle:
    """One battle of a plan."""

    attacker: PlanSide
    defender: PlanSide
    name: str = ""

    def label(self, index: int) -> str:
        """How reports name the battle: "battle 2: fire attacks hill (name)"."""
        named = f" ({self.name})" if self.name else ""
        return f"battle {index + 1}: {self.attacker.army} attacks {self.defender.army}{named}"


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """A player's position before the plan: Ordning Points, Resource Cards, regions occupied."""

    ordning_points: int = 0
    resource_cards: int = 0
    regions: int = 0


@dataclass(frozen=True, slots=True)
class Plan:
    """Armies, the battles they fight in order, and the players' standings before them."""

    armies: tuple[Army, ...]
    battles: tuple[PlanBattle, ...]
    players: tuple[str, ...]
    standings: tuple[PlayerStanding, ...]
    """One per player, in the order of `players`."""
    title: str = ""
    notes: tuple[str, ...] = ()

    def army_index(self, name: str) -> int:
        """Position of the army called `name`."""
        return [army.name for army in self.armies].index(name)

    def army(self, name: str) -> Army:
        """The army called `name`."""
        return self.armies[self.army_index(name)]

    def last_battle(self, army: str) -> int:
        """Index of the last battle `army` fights in (-1 if none)."""
        fights = [i for i, b in enumerate(self.battles) if army in (b.attacker.army, b.defender.army)]
        return fights[-1] if fights else -1

    def start(self) -> PlanState:
        """The state before the first battle."""
        return PlanState(tuple(army.start for army in self.armies),
                         tuple(s.ordning_points for s in self.standings),
                         tuple(s.resource_cards for s in self.standings))

    def regions(self, state: PlanState) -> tuple[int, ...]:
        """Regions each player occupies in `state`: the standing, less its armies wiped out."""
        lost = [0] * len(self.players)
        for army, statuses in zip(self.armies, state.statuses):
            if army.player is not None and army.occupies_region and wiped_out(statuses):
                lost[self.players.index(army.player)] += 1
        return tuple(s.regions - n for s, n in zip(self.standings, lost))


class PlanState(NamedTuple):
    """Where a plan stands between battles."""

    statuses: tuple[str, ...]
    """Per army, one letter per unit (`STATUS_CODES`). An army that fights no more battles is
    *folded*: all ``d`` if wiped out, else ``-`` per unit, as only that still matters (regions);
    its units' statuses after its last battle are in that battle's step."""
    points: tuple[int, ...]
    """Ordning Points per player (`Plan.players` order)."""
    cards: tuple[int, ...]
    """Resource Cards per player."""


class BattleOutcome(NamedTuple):
    """Everything a battle changes: both sides' casualties and what each side earns."""

    attacker: Casualties
    """The attacker's units' statuses after the battle."""
    defender: Casualties
    """The defender's units' statuses after the battle."""
    attacker_points: int
    """Ordning Points the attacker earns."""
    defender_points: int
    """Ordning Points the defender earns."""
    attacker_cards: int
    """Resource Cards the attacker draws."""
    defender_cards: int
    """Resource Cards the defender draws (for giantslayers it defeats)."""


def reads_units(battle: Battle) -> bool:
    """True when a side's dice decisions depend on the units fighting (reroll policy ``best``)."""
    return any(side.reroll_policy not in FIXED_POLICIES for side in (battle.attacker, battle.defender))


def side_totals_of(side: Side, role: str) -> Dist[tuple[int, int]]:
    """`side_totals`, a computing limit reported against the side's own keys."""
    try:
        return side_totals(side)
    except ScenarioError as error:
        raise ScenarioError(f"{role}.{error.field}", error.problem) from None


def joint_damage(battle: Battle) -> Dist[tuple[int, int]]:
    """Joint (damage the attacker sustains, damage the defender sustains) of one battle.

    Each side's hits and blocks come from its own roll, so the two damages are correlated:
    the attacker's roll gives both its hits (damage dealt) and its blocks (damage saved).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers
    >>> both = CombatDie("both", ((1, 1, 0), (0, 0, 0)) * 3)
    >>> side = Side(((both, 1),), Modifiers(), ())
    >>> joint_damage(Battle(side, side))
    Dist({(0, 0): 2, (0, 1): 1, (1, 0): 1})

    A side playing ``best`` answers the other's totals, so then the joint totals come from best play
    (`best.play.best_joint`).

    Raises:
        ScenarioError: a side's dice are too many for the exact engine (field ``attacker.pool``, say).
    """
    if reads_units(battle):
        from explorer.games.assault_of_the_giants.best.play import best_joint

        return best_joint(battle).map(lambda t: (max(0, t[2] - t[1]), max(0, t[0] - t[3])))
    return damage_of_totals(side_totals_of(battle.attacker, "attacker"), side_totals_of(battle.defender, "defender"))


def damage_of_totals(attacker: Dist[tuple[int, int]], defender: Dist[tuple[int, int]]) -> Dist[tuple[int, int]]:
    """`joint_damage` from the two sides' independent (hits, blocks).

    >>> damage_of_totals(Dist({(2, 0): 1}), Dist({(1, 1): 1, (0, 0): 1}))
    Dist({(0, 2): 1, (1, 1): 1})
    """
    weights: dict[tuple[int, int], int] = {}
    for (hits, blocks), w in attacker.items():
        for (their_hits, their_blocks), v in defender.items():
            key = (max(0, their_hits - blocks), max(0, hits - their_blocks))
            weights[key] = weights.get(key, 0) + w * v
    return Dist.of_counts(weights)


def _earned(casualties: Casualties, per_unit: tuple[int, ...]) -> int:
    return sum(v for s, v in zip(casualties, per_unit) if s is Status.DEFEATED)


Losses = tuple[tuple[int, ...], tuple[tuple[Casualties, int, int], ...]]
"""A side's losses for each damage 0..most: the index of its outcome, and the different outcomes:
casualties, and the Ordning Points and Resource Cards the victor earns for them."""


def side_losses(victim: Side, victor: Side, most: int) -> Losses:
    """The victim's casualties for each damage 0..`most`, grouped, with what the victor earns.

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> giant = Side((), Modifiers(), (Unit("g", 2, 1, 3),))
    >>> classes, outcomes = side_losses(giant, Side((), Modifiers(), ()), 3)
    >>> classes, [(c[0].value, points) for c, points, _ in outcomes]
    ((0, 1, 2, 2), [('healthy', 0), ('wounded', 0), ('defeated', 3)])
    """
    points, cards = points_for(victim, victor), resource_cards_for(victim, victor)
    seen: dict[Casualties, int] = {}
    classes = tuple(seen.setdefault(c, len(seen)) for c in casualty_table(victim, victor, most))
    return classes, tuple((c, _earned(c, points), _earned(c, cards)) for c in seen)


def outcome_weights(damage: Dist[tuple[int, int]], attacker: Sequence[int], defender: Sequence[int]
                    ) -> dict[tuple[int, int], int]:
    """The weight of each pair (attacker's outcome, defender's outcome) of a battle.

    Args:
        damage: the battle's joint damage (`joint_damage`); the weights returned add up to its total.
        attacker: the attacker's outcome for each damage it may sustain (`side_losses`).
        defender: the same for the defender.

    >>> outcome_weights(Dist({(0, 0): 1, (0, 2): 3, (1, 1): 4}), [0, 1], [0, 1, 1])
    {(0, 0): 1, (0, 1): 3, (1, 1): 4}
    """
    out: dict[tuple[int, int], int] = {}
    for (to_a, to_d), w in damage.items():
        key = (attacker[to_a], defender[to_d])
        out[key] = out.get(key, 0) + w
    return out


def battle_outcomes(battle: Battle) -> Dist[BattleOutcome]:
    """Joint distribution of one battle's casualties on both sides and both sides' rewards.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers
    >>> coin = CombatDie("coin", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> atk = Side(((coin, 1),), Modifiers(), (Unit("a", 1, 1, 2),))
    >>> dfn = Side(((coin, 1),), Modifiers(), (Unit("d", 1, 1, 3),))
    >>> outcomes = battle_outcomes(Battle(atk, dfn))
    >>> both_fall = (Status.DEFEATED,), (Status.DEFEATED,), 3, 2, 0, 0
    >>> len(outcomes), outcomes.probability(BattleOutcome(*both_fall))
    (4, Fraction(1, 4))
    """
    damage = joint_damage(battle)
    most = max(max(pair) for pair in damage)
    atk = side_losses(battle.attacker, battle.defender, most)
    dfn = side_losses(battle.defender, battle.attacker, most)
    weights: dict[BattleOutcome, int] = {}
    for (i, j), w in outcome_weights(damage, atk[0], dfn[0]).items():
        (lost, dfn_points, dfn_cards), (felled, atk_points, atk_cards) = atk[1][i], dfn[1][j]
        weights[BattleOutcome(lost, felled, atk_points, dfn_points, atk_cards, dfn_cards)] = w
    return Dist.of_counts(weights)


def wiped_out(statuses: str) -> bool:
    """True when every unit of an army is defeated (an army without units counts as wiped out).

    >>> wiped_out("dd"), wiped_out("dw")
    (True, False)
    """
    return statuses.count("d") == len(statuses)
