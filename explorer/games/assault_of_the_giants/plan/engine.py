"""The engine of a plan: every army's statuses and every player's gains, battle after battle.

A state is every army's statuses (one letter per unit) and every player's Ordning Points and
Resource Cards, the latter packed into one integer (`Packing`) so that a battle's gains are one
addition. Each battle groups the states by the statuses of its two armies, works out the battle
once per group (`plan.battles.outcome_weights`), and follows every state of the group down every
outcome; equal states merge. An army that fights no more battles is folded (`fold`).

Cost: a plan's work is estimated before each battle is worked out and refused past `BUDGET`
(`ScenarioError` naming ``plan``), so a plan runs about two seconds at most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.plan.battles import (
    CODE_OF,
    Army,
    Plan,
    PlanBattle,
    PlanState,
    damage_of_totals,
    joint_damage,
    outcome_weights,
    reads_units,
    side_losses,
    side_totals_of,
    wiped_out,
)
from explorer.games.assault_of_the_giants.rules.casualties import Casualties
from explorer.games.assault_of_the_giants.rules.model import Battle, Side, Unit

__all__ = ["Key", "States", "Packing", "StepResult", "Budget", "fold", "advance", "BUDGET", "COSTS"]

Key = tuple[tuple[str, ...], int]
"""A packed state: every army's statuses, and every player's gains packed (`Packing`)."""

Earned = tuple[bool, int, int, int, int]
"""(battle took place, attacker's points, defender's points, attacker's cards, defender's cards)."""

BUDGET = 2_000_000
"""Most work a plan may take, in work units of about a microsecond each (so about two seconds)."""

COSTS = {"outer": 3.5, "inner": 0.3, "pair": 0.5, "damage": 1.0, "listed": 2.0, "fewest-op": 6.0, "best": 10_000.0}
"""Work units (measured on a busy 2-core machine): per state of the armies not fighting followed
down one outcome (``outer``), and per player's gains carried along (``inner``); per pair of the two
sides' (hits, blocks) combined into the joint damage; per joint-damage entry mapped for one pair of
armies; per (damage, unit) of a casualty table in listed order, per (damage, subset of units) in
fewest-op order; per fight played ``best``, on top of the search's own estimate (`best.search_seconds`)."""


@dataclass(frozen=True, slots=True)
class Packing:
    """Every player's Ordning Points, then Resource Cards, packed in one integer.

    >>> packing = Packing(players=2, width=8)
    >>> value = packing.pack((3, 5), (1, 0))
    >>> packing.unpack(value + packing.gain(1, 2, 1))
    ((3, 7), (1, 1))
    """

    players: int
    width: int
    """Bits per number: enough for the most any player can hold."""

    @classmethod
    def for_plan(cls, plan: Plan) -> Packing:
        """Wide enough for the standings plus every unit's Ordning Value and every giantslayer's card."""
        most = max((max(s.ordning_points, s.resource_cards) for s in plan.standings), default=0)
        most += sum(max(u.ordning_value, 1) for a in plan.armies for u in a.units)
        return cls(len(plan.players), most.bit_length() + 1)

    def pack(self, points: Iterable[int], cards: Iterable[int]) -> int:
        """The numbers packed: points of player i at slot i, cards at slot players + i."""
        return sum(v << (self.width * k) for k, v in enumerate((*points, *cards)))

    def unpack(self, value: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Points and cards per player."""
        mask = (1 << self.width) - 1
        numbers = [(value >> (self.width * k)) & mask for k in range(2 * self.players)]
        return tuple(numbers[:self.players]), tuple(numbers[self.players:])

    def gain(self, player: int | None, points: int, cards: int) -> int:
        """What adding `points` and `cards` to `player` (None: nobody) adds to a packed value."""
        if player is None:
            return 0
        return (points << (self.width * player)) + (cards << (self.width * (self.players + player)))


States = Mapping[tuple[str, ...], Mapping[int, int]]
"""Joint states: every army's statuses -> every player's packed gains (`Packing`) -> weight."""


@dataclass(frozen=True, slots=True)
class StepResult:
    """One battle of a plan: what it gave, and the states after it."""

    battle: PlanBattle
    earned: Dist[Earned]
    """Joint (took place, attacker's points, defender's points, attacker's cards, defender's cards)."""
    armies: tuple[tuple[str, Dist[str]], ...]
    """The two fighting armies (attacker first), each with its units' joint statuses after the battle."""
    packed: States
    """Joint states after the battle, armies that fight no more folded (`fold`)."""

    def states(self, packing: Packing) -> Dist[PlanState]:
        """The joint states, unpacked."""
        return Dist.of_counts({PlanState(statuses, *packing.unpack(score)): w
                               for statuses, scores in self.packed.items() for score, w in scores.items()})


@dataclass
class Budget:
    """Work spent so far on a plan, against `BUDGET`."""

    spent: float = 0.0
    limit: float = field(default_factory=lambda: BUDGET)

    def spend(self, work: float, index: int, what: str) -> None:
        """Add `work`, refusing the plan once it goes past the limit."""
        self.spent += work
        if self.spent > self.limit:
            raise ScenarioError("plan", f"too big to work out exactly in about {self.limit / 1e6:.0f} s: battle "
                                        f"{index + 1} would need about {work / 1e6:.1f} s more ({what}); use "
                                        f"fewer battles, units or dice")


def fold(army: Army, statuses: str) -> str:
    """An army's statuses once it fights no more: all defeated, or ``-`` per unit.

    >>> fold(Army("hill", (Unit("a", 2, 1), Unit("b", 2, 1)), "hill"), "dw")
    '--'
    """
    return statuses if wiped_out(statuses) else "-" * len(army.units)


def _alive(army: Army, statuses: str) -> tuple[tuple[int, ...], tuple[Unit, ...]]:
    """Indices and units (wounded side up where wounded) of the army's undefeated units."""
    indices = tuple(i for i, code in enumerate(statuses) if code != "d")
    return indices, tuple(replace(army.units[i], wounded=statuses[i] == "w") for i in indices)


def _after(statuses: str, alive: tuple[int, ...], casualties: Casualties) -> str:
    letters = list(statuses)
    for i, status in zip(alive, casualties):
        letters[i] = CODE_OF[status]
    return "".join(letters)


Outcome = tuple[str, str, int, int, int, int, bool]
"""(attacker's statuses, defender's statuses after, points and cards each side earns, took place)."""

Table = tuple[list[tuple[Outcome, int]], int]
"""A group's outcomes with their weights, and the weights' total."""


class _Fight:
    """One battle of a plan, worked out for the pairs of its armies' statuses, with shared parts cached."""

    def __init__(self, plan: Plan, index: int, budget: Budget) -> None:
        self.battle = plan.battles[index]
        self.armies = (plan.army(self.battle.attacker.army), plan.army(self.battle.defender.army))
        self.sides = (self.battle.attacker.side, self.battle.defender.side)
        self.shared: Dist[tuple[int, int]] | None = None
        self.per_fight = 0.0
        """Work of one fight's own joint damage (best play is searched afresh for each pair of armies)."""
        if reads_units(Battle(*self.sides)):
            self.most = max(_most_hits(side) for side in self.sides)  # no damage can exceed it
            self.pairs = (self.most + 1) ** 2
            self.per_fight = _best_work(*self.sides)
        else:
            totals = side_totals_of(self.sides[0], "attacker"), side_totals_of(self.sides[1], "defender")
            budget.spend(COSTS["pair"] * len(totals[0]) * len(totals[1]), index, "the joint damage")
            self.shared = damage_of_totals(*totals)
            self.most = max(max(pair) for pair in self.shared)
            self.pairs = len(self.shared)
        self._losses: tuple[dict[str, tuple[Side, tuple[int, ...], list[tuple[str, int, int]]]], ...] = ({}, {})

    def work(self, groups: Iterable[tuple[str, str]]) -> float:
        """Estimated work of the casualty tables and the damage mappings of the pairs of armies in `groups`."""
        work = 0.0
        for position, side in enumerate(self.sides):
            for statuses in {group[position] for group in groups}:
                alive = len(statuses) - statuses.count("d")
                if side.casualty_order == "fewest-op":
                    work += COSTS["fewest-op"] * (1 << alive) * (self.most + 1)
                else:
                    work += COSTS["listed"] * alive * (self.most + 1)
        fights = sum(1 for a, d in groups if not wiped_out(a) and not wiped_out(d))
        return work + fights * (self.per_fight + COSTS["damage"] * self.pairs)

    def losses(self, position: int, statuses: str) -> tuple[Side, tuple[int, ...], list[tuple[str, int, int]]]:
        """The side with the army's units as they stand, its outcome per damage, and the outcomes:
        the army's statuses after, and what the enemy earns."""
        cached = self._losses[position].get(statuses)
        if cached is None:
            alive, units = _alive(self.armies[position], statuses)
            victim = replace(self.sides[position], units=units)
            classes, outcomes = side_losses(victim, self.sides[1 - position], self.most)
            cached = victim, classes, [(_after(statuses, alive, c), p, k) for c, p, k in outcomes]
            self._losses[position][statuses] = cached
        return cached

    def outcomes(self, key: tuple[str, str]) -> Table:
        """The battle's outcomes for its two armies as they stand (`key`), and their total weight."""
        before_a, before_d = key
        if wiped_out(before_a) or wiped_out(before_d):
            return [((before_a, before_d, 0, 0, 0, 0, False), 1)], 1
        side_a, classes_a, outcomes_a = self.losses(0, before_a)
        side_d, classes_d, outcomes_d = self.losses(1, before_d)
        damage = self.shared if self.shared is not None else joint_damage(Battle(side_a, side_d))
        table = []
        for (i, j), w in outcome_weights(damage, classes_a, classes_d).items():
            (after_a, dfn_points, dfn_cards), (after_d, atk_points, atk_cards) = outcomes_a[i], outcomes_d[j]
            table.append(((after_a, after_d, atk_points, dfn_points, atk_cards, dfn_cards, True), w))
        return table, sum(w for _, w in table)


def _best_work(attacker: Side, defender: Side) -> float:
    """Work of the best-play search of one fight (`best.search_seconds`), in work units."""
    from explorer.games.assault_of_the_giants.best.play import final_bounds, search_seconds

    seconds = 0.0
    if attacker.reroll_policy == "best":
        seconds += search_seconds(attacker, 1)
    if defender.reroll_policy == "best":
        hits, blocks = final_bounds(attacker)
        seconds += search_seconds(defender, hits * blocks)
    return COSTS["best"] + seconds * 1e6


def _most_hits(side: Side) -> int:
    """The most final hits a side can record, its cards included (`best.final_bounds`)."""
    from explorer.games.assault_of_the_giants.best.play import final_bounds

    return final_bounds(side)[0] - 1


Member = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], Mapping[int, int]]
"""States of a group: the statuses before, between and after the two fighting armies, and the
weight of each packed gains."""


def advance(plan: Plan, index: int, states: States, budget: Budget) -> StepResult:
    """Fight battle `index` of the plan from every state, merging equal states after it.

    Raises:
        ScenarioError: ``plan``: the plan's work would go past its `Budget`.
    """
    battle = plan.battles[index]
    a, d = plan.army_index(battle.attacker.army), plan.army_index(battle.defender.army)
    low, high = min(a, d), max(a, d)
    groups: dict[tuple[str, str], list[Member]] = {}
    for statuses, scores in states.items():
        member = (statuses[:low], statuses[low + 1:high], statuses[high + 1:], scores)
        groups.setdefault((statuses[a], statuses[d]), []).append(member)
    try:
        tables = _tables(plan, index, groups, budget)
    except ScenarioError as error:
        if error.field.startswith(("attacker.", "defender.")):
            raise ScenarioError(f"plan[{index}].{error.field}", error.problem) from None
        raise
    outer = sum(len(members) * len(tables[key][0]) for key, members in groups.items())
    inner = sum(len(member[3]) * len(tables[key][0]) for key, members in groups.items() for member in members)
    budget.spend(COSTS["outer"] * outer + COSTS["inner"] * inner, index, f"{inner:,} branches")
    return _follow(plan, index, groups, tables)


def _tables(plan: Plan, index: int, groups: dict[tuple[str, str], list[Member]], budget: Budget
            ) -> dict[tuple[str, str], Table]:
    """Each group's outcomes of battle `index`."""
    if all(wiped_out(x) or wiped_out(y) for x, y in groups):
        return {key: ([((key[0], key[1], 0, 0, 0, 0, False), 1)], 1) for key in groups}
    fight = _Fight(plan, index, budget)
    budget.spend(fight.work(groups), index, "casualty tables")
    return {key: fight.outcomes(key) for key in groups}


def _follow(plan: Plan, index: int, groups: dict[tuple[str, str], list[Member]],
            tables: dict[tuple[str, str], Table]) -> StepResult:
    """Every state of every group down every outcome of its group's table."""
    battle = plan.battles[index]
    attacker, defender = plan.army(battle.attacker.army), plan.army(battle.defender.army)
    in_order = plan.army_index(attacker.name) < plan.army_index(defender.name)
    retire = [plan.last_battle(army.name) == index for army in (attacker, defender)]
    packing = Packing.for_plan(plan)
    owners = [plan.players.index(army.player) if army.player is not None else None for army in (attacker, defender)]
    scale = math.lcm(*(total for _, total in tables.values()))
    after: dict[tuple[str, ...], dict[int, int]] = {}
    earned: dict[Earned, int] = {}
    fought: tuple[dict[str, int], dict[str, int]] = ({}, {})
    for key, members in groups.items():
        outcomes, total = tables[key]
        factor = scale // total
        mass = sum(sum(member[3].values()) for member in members)
        paths: list[tuple[str, str, int, int]] = []
        for (new_a, new_d, ap, dp, ac, dc, took), v in outcomes:
            v *= factor
            earned[(took, ap, dp, ac, dc)] = earned.get((took, ap, dp, ac, dc), 0) + v * mass
            fought[0][new_a] = fought[0].get(new_a, 0) + v * mass
            fought[1][new_d] = fought[1].get(new_d, 0) + v * mass
            seen_a = fold(attacker, new_a) if retire[0] else new_a
            seen_d = fold(defender, new_d) if retire[1] else new_d
            x, y = (seen_a, seen_d) if in_order else (seen_d, seen_a)
            paths.append((x, y, packing.gain(owners[0], ap, ac) + packing.gain(owners[1], dp, dc), v))
        for prefix, middle, suffix, scores in members:
            for x, y, gain, v in paths:
                target = after.setdefault(prefix + (x,) + middle + (y,) + suffix, {})
                for score, w in scores.items():
                    score += gain
                    target[score] = target.get(score, 0) + w * v
    marginals = ((attacker.name, Dist.of_counts(fought[0])), (defender.name, Dist.of_counts(fought[1])))
    return StepResult(battle, Dist.of_counts(earned), marginals, _reduced(after))


def _reduced(states: dict[tuple[str, ...], dict[int, int]]) -> States:
    """The same states with the weights divided by their greatest common divisor."""
    divisor = math.gcd(*(w for scores in states.values() for w in scores.values()))
    if divisor > 1:
        for scores in states.values():
            for score in scores:
                scores[score] //= divisor
    return states
