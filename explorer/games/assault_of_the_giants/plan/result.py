"""The exact result of a plan of battles, and what charts and reports read from it."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants.plan.battles import STATUS_CODES, Plan, PlanState, wiped_out
from explorer.games.assault_of_the_giants.plan.endgame import decided_by, win_chances_final
from explorer.games.assault_of_the_giants.plan.engine import Budget, Packing, States, StepResult, advance
from explorer.games.assault_of_the_giants.rules.model import Status

__all__ = ["PlanResult", "resolve_plan", "ROLES", "GAINS", "Standings"]

ROLES = ("attacker", "defender")
"""The two sides of a battle."""

GAINS = ("ordning_points", "resource_cards")
"""What a side can earn in a battle."""

Standings = tuple[tuple[int, int, int], ...]
"""Every player's (Ordning Points, Resource Cards, regions occupied), in `Plan.players` order."""


def resolve_plan(plan: Plan, budget: Budget | None = None) -> PlanResult:
    """Resolve a plan of battles exactly, one battle after another.

    Raises:
        ScenarioError: ``plan``: the plan would take too long (`plan.engine.BUDGET`).

    >>> from explorer.games.assault_of_the_giants.plan.scenario import parse_plan
    >>> plan = parse_plan({"game": "aotg", "dice": {"hit": [{"hit": 1}] * 6},
    ...     "armies": {"fire": {"player": "fire", "units": [{"fortitude": 3, "wounded_fortitude": 1,
    ...                                                     "ordning_value": 2}]},
    ...                "hill": {"player": "hill", "units": [{"fortitude": 1, "wounded_fortitude": 1,
    ...                                                     "ordning_value": 1}]}},
    ...     "plan": [{"attacker": {"army": "hill", "pool": {"hit": 1}}, "defender": {"army": "fire", "pool": {}}},
    ...              {"attacker": {"army": "hill", "pool": {"hit": 1}}, "defender": {"army": "fire", "pool": {}}}]})
    >>> result = resolve_plan(plan)
    >>> [s.value for s in result.unit_statuses("fire", after=0)[0].probabilities()]
    ['wounded']
    >>> result.points("hill").probabilities(), result.win_chances()["hill"]["wins"]
    ({2: Fraction(1, 1)}, Fraction(1, 1))
    """
    budget = budget or Budget()
    start = plan.start()
    states: States = {start.statuses: {Packing.for_plan(plan).pack(start.points, start.cards): 1}}
    steps: list[StepResult] = []
    for index in range(len(plan.battles)):
        steps.append(advance(plan, index, states, budget))
        states = steps[-1].packed
    return PlanResult(plan, tuple(steps))


@dataclass(frozen=True)
class PlanResult:
    """Exact joint states after every battle of a plan, with the marginals people ask for.

    ``after`` arguments name a battle by its index (0 for the first); None means after the last
    battle, -1 before the first.
    """

    plan: Plan
    steps: tuple[StepResult, ...]
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def _memo(self, key: Any, compute: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def _after(self, after: int | None) -> int:
        return len(self.steps) - 1 if after is None else after

    def states(self, after: int | None = None) -> Dist[PlanState]:
        """Joint states after battle `after` (armies that fight no more are folded: `PlanState`)."""
        index = self._after(after)
        if index < 0:
            return Dist.single(self.plan.start())
        return self._memo(("states", index), lambda: self.steps[index].states(Packing.for_plan(self.plan)))  # type: ignore[no-any-return]

    def army_statuses(self, army: str, after: int | None = None) -> Dist[str]:
        """Joint statuses of `army`'s units after battle `after`, one letter per unit (`STATUS_CODES`)."""
        index = self._after(after)
        for step in reversed(self.steps[:index + 1]):
            for name, statuses in step.armies:
                if name == army:
                    return statuses
        return Dist.single(self.plan.army(army).start)

    def unit_statuses(self, army: str, after: int | None = None) -> tuple[Dist[Status], ...]:
        """Each unit's status in `army` after battle `after`, in the army's listed order."""
        letters = self.army_statuses(army, after)

        def unit(i: int) -> Dist[Status]:
            return letters.map(lambda c: STATUS_CODES[c[i]])

        return tuple(unit(i) for i in range(len(self.plan.army(army).units)))

    def wiped_out(self, army: str, after: int | None = None) -> Fraction:
        """Chance that every unit of `army` is defeated after battle `after`."""
        return self.army_statuses(army, after).where(wiped_out)

    def took_place(self, index: int) -> Fraction:
        """Chance that battle `index` was fought (both armies still had units)."""
        return self.steps[index].earned.where(lambda e: e[0])

    def earned(self, index: int, role: str = "attacker", gain: str = "ordning_points") -> Dist[int]:
        """What the `role` side (`ROLES`) earned in battle `index`: one of `GAINS`.

        A battle that did not take place counts as earning nothing.
        """
        position = 1 + ROLES.index(role) + 2 * GAINS.index(gain)
        return self.steps[index].earned.map(lambda e: e[position])

    def _player(self, player: str) -> int:
        return self.plan.players.index(player)

    def points(self, player: str, after: int | None = None) -> Dist[int]:
        """The player's Ordning Points (standings included) after battle `after`."""
        i = self._player(player)
        return self.states(after).map(lambda s: s.points[i])

    def resource_cards(self, player: str, after: int | None = None) -> Dist[int]:
        """The player's Resource Cards after battle `after`."""
        i = self._player(player)
        return self.states(after).map(lambda s: s.cards[i])

    def regions(self, player: str) -> Dist[int]:
        """The regions the player occupies at the end."""
        i = self._player(player)
        return self.standings().map(lambda s: s[i][2])

    def joint_points(self) -> Dist[tuple[int, ...]]:
        """Joint final Ordning Points of every player (`Plan.players` order)."""
        return self.standings().map(lambda s: tuple(p for p, _, _ in s))

    def standings(self) -> Dist[Standings]:
        """Joint final (Ordning Points, Resource Cards, regions occupied) of every player."""
        def standing(state: PlanState) -> Standings:
            return tuple(zip(state.points, state.cards, self.plan.regions(state)))

        return self._memo("standings", lambda: self.states().map(standing))  # type: ignore[no-any-return]

    def win_chances(self) -> dict[str, dict[str, Fraction]]:
        """Per player: ``wins`` (alone) and ``shares`` (the victory), with p.20's tiebreaks."""
        return self._memo("wins", lambda: win_chances_final(self.standings(), self.plan.players))  # type: ignore[no-any-return]

    def decided_by(self) -> dict[str, Fraction]:
        """Chance that Ordning Points, Resource Cards or regions decide the winner, or that it is shared."""
        return self._memo("decided", lambda: decided_by(self.standings()))  # type: ignore[no-any-return]
