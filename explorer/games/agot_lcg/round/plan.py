"""The attacker's best plan for the round, found by comparing every plan against the best defence.

A plan is the challenges one player makes while active (types, order, attackers, stealth
targets); each challenge is answered by the best defence (`explorer.games.agot_lcg.round.defence`),
then dominance is determined (5.2). Every plan is compared; the search is refused up front
when the board is too large (`MAX_PLAN_CHARACTERS`, `MAX_PLANS`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from itertools import combinations
from math import comb

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, Declaration
from explorer.games.agot_lcg.challenge.model import CHALLENGE_TYPES, ChallengeType
from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome, play_challenge
from explorer.games.agot_lcg.challenge.winning import GameEnd
from explorer.games.agot_lcg.round.defence import DefenceChoice, best_defence, stealth_options
from explorer.games.agot_lcg.round.phase import DominanceResult, dominance

__all__ = [
    "MAX_PLANS", "MAX_PLAN_CHARACTERS", "PLAN_TERMS", "Plan", "PlanChallenge", "PlanSearch", "best_plan",
    "count_plans",
]

MAX_PLAN_CHARACTERS = 6
"""Most characters a side for the best plan search."""

MAX_PLANS = 5_000
"""Most plans compared (each against up to 2 ** 6 defences): measured at 85 to 540 microseconds a
plan (a thousand named cards in hand at the top), so at most about 2 s; refused up front beyond."""

PLAN_TERMS = ("game", "power swing", "characters killed", "cards from hand", "cards from deck",
              "standing STR lead")
"""What a plan's value measures, term by term, for the planning player (compared in this order)."""


@dataclass(frozen=True, slots=True)
class PlanChallenge:
    """One challenge of a plan: what was declared and how the best defence answered it."""

    type: ChallengeType
    attackers: tuple[int, ...]
    stealth: tuple[tuple[int, int], ...]
    defence: DefenceChoice

    @property
    def outcome(self) -> ChallengeOutcome:
        """The challenge resolved against the best defence."""
        return self.defence.outcome


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole plan, its value and where it leaves the game."""

    challenges: tuple[PlanChallenge, ...]
    value: tuple[int, ...]
    dominance: DominanceResult | None
    after: Board
    game_end: GameEnd | None
    index: int

    @property
    def order(self) -> tuple[ChallengeType, ...]:
        """The challenge types in the order made."""
        return tuple(c.type for c in self.challenges)

    def label(self, player: str) -> str:
        """The plan in words, such as ``military: Ned, Robb (defended by Jaime: won)``.

        `player` is the planning player's key.
        """
        if not self.challenges:
            return "make no challenge"
        parts = []
        for c in self.challenges:
            out = c.outcome
            att, dfn = out.before.player(player), out.before.player(out.before.other(player))
            who = ", ".join(att.characters[i].name for i in c.attackers)
            sneak = "; bypassing " + ", ".join(dfn.characters[t].name for _, t in c.stealth) if c.stealth else ""
            defenders = ", ".join(dfn.characters[i].name for i in out.declaration.defenders) or "no one"
            result = {"attacker": "won", "defender": "lost", "none": "no winner"}[out.winner]
            parts.append(f"{c.type}: {who}{sneak} (defended by {defenders}: {result})")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class PlanSearch:
    """Every plan compared: the best, the best for each order of types, and the leading plans."""

    player: str
    start: Board
    considered: int
    best: Plan
    by_order: tuple[Plan, ...]
    top: tuple[Plan, ...]


def check_plan_size(board: Board, player: str, field: str = "best_plan") -> int:
    """Refuse a board too large for the search; returns the number of plans to compare.

    Raises:
        ScenarioError: naming the player's characters (more than 6) or `field` (too many plans).
    """
    for key, state in zip(board.keys, board.players):
        if len(state.in_play()) > MAX_PLAN_CHARACTERS:
            raise ScenarioError(f"players.{key}.characters", f"the best plan search compares every plan: at most "
                                                             f"{MAX_PLAN_CHARACTERS} characters a side, got "
                                                             f"{len(state.in_play())}")
    plans = count_plans(board, player)
    if plans > MAX_PLANS:
        raise ScenarioError(field, f"{plans} plans to compare, more than the {MAX_PLANS} the search allows "
                                   "(fewer characters, icons or stealth attackers)")
    return plans


def count_plans(board: Board, player: str) -> int:
    """How many plans the search compares at most (every type order, attackers and stealth choice).

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> one = PlayerState((Character("A", 1, (), ("military", "power")),))
    >>> count_plans(Board(("p", "q"), (one, PlayerState())), "p")
    3
    """
    att, opp = board.player(player), board.player(board.other(player))
    eligible = {t: att.eligible(t) for t in CHALLENGE_TYPES}
    targets = {t: sum(1 for i in opp.eligible(t) if not opp.characters[i].has("stealth")) for t in CHALLENGE_TYPES}

    @cache
    def count(used: frozenset[int], types: tuple[ChallengeType, ...]) -> int:
        total = 1
        for t in types:
            free = [i for i in eligible[t] if i not in used]
            rest = tuple(x for x in types if x != t)
            for k in range(1, len(free) + 1):
                for subset in combinations(free, k):
                    sneaks = sum(1 for i in subset if att.characters[i].has("stealth"))
                    ways = sum(comb(targets[t], j) for j in range(min(sneaks, targets[t]) + 1))
                    total += ways * count(used | frozenset(subset), rest)
        return total

    return count(frozenset(), CHALLENGE_TYPES)


def _value(start: Board, end_board: Board, player: str, end: GameEnd | None, counts: tuple[int, int, int]
           ) -> tuple[int, ...]:
    opp = start.other(player)
    game = 0 if end is None or end.winner is None else (1 if end.winner == player else -1)
    before, after = start.totals(), end_board.totals()
    swing = (after[player] - before[player]) - (after[opp] - before[opp])
    lead = end_board.player(player).standing_str() - end_board.player(opp).standing_str()
    return (game, swing, *counts, lead)


def _cached_defence(cache: dict[tuple[object, ...], DefenceChoice], state: Board, decl: Declaration
                    ) -> DefenceChoice:
    """The best defence, shared between boards that differ only where a challenge cannot reach.

    A challenge reads the defender's whole side but, of the attacker's, only the attackers, the
    power total (victory), the deck (pillage, insight) and the hand; two boards equal in these
    have the same defence options and gains, so the choice is reused and only the chosen defence
    is played again on the board at hand.
    """
    exact = (state, decl)
    if exact in cache:
        return cache[exact]
    att = state.player(decl.attacker)
    key = (state.player(state.other(decl.attacker)), tuple(att.characters[i] for i in decl.attackers), att.total,
           att.deck, att.hand, state.first_player, state.keyword_order, decl.type, decl.claim, decl.stealth)
    if key not in cache:
        cache[key] = cache[exact] = best_defence(state, decl)
        return cache[key]
    known = cache[key]
    outcome = play_challenge(state, replace(decl, defenders=known.defenders))
    cache[exact] = DefenceChoice(known.defenders, outcome, known.gain, known.considered)
    return cache[exact]


def best_plan(board: Board, player: str, field: str = "best_plan") -> PlanSearch:
    """Compare every plan of `player` for the round against the best defence.

    >>> from explorer.games.agot_lcg.challenge.board import PlayerState
    >>> from explorer.games.agot_lcg.challenge.model import Character
    >>> me = PlayerState((Character("A", 2, (), ("power",)),), claim=1)
    >>> search = best_plan(Board(("p", "q"), (me, PlayerState(faction=3)), "p"), "p")
    >>> search.considered, search.best.label("p"), search.best.value
    (2, 'power: A (defended by no one: won)', (0, 3, 0, 0, 0, 0))

    Raises:
        ScenarioError: the board is too large (see `check_plan_size`).
    """
    check_plan_size(board, player, field)
    plans: list[Plan] = []
    defences: dict[tuple[object, ...], DefenceChoice] = {}

    def finish(state: Board, prefix: tuple[PlanChallenge, ...], counts: tuple[int, int, int],
               end: GameEnd | None) -> None:
        result = None
        if end is None:
            result = dominance(state)
            state, end = result.after, result.game_end
        plans.append(Plan(prefix, _value(board, state, player, end, counts), result, state, end, len(plans)))

    def walk(state: Board, types: tuple[ChallengeType, ...], prefix: tuple[PlanChallenge, ...],
             counts: tuple[int, int, int]) -> None:
        finish(state, prefix, counts, None)
        att = state.player(player)
        for t in types:
            rest = tuple(x for x in types if x != t)
            eligible = att.eligible(t)
            for k in range(1, len(eligible) + 1):
                for subset in combinations(eligible, k):
                    decl = Declaration(player, t, subset, (), att.claim, where=field)
                    for stealth in stealth_options(state, decl):
                        decl = Declaration(player, t, subset, (), att.claim, stealth, where=field)
                        choice = _cached_defence(defences, state, decl)
                        step = PlanChallenge(t, subset, stealth, choice)
                        g = choice.gain
                        more = (counts[0] + g[2], counts[1] + g[3], counts[2] + g[4])
                        if choice.outcome.game_end is not None:
                            finish(choice.outcome.after, prefix + (step,), more, choice.outcome.game_end)
                        else:
                            walk(choice.outcome.after, rest, prefix + (step,), more)

    walk(board, CHALLENGE_TYPES, (), (0, 0, 0))
    ranked = sorted(plans, key=lambda p: (tuple(-v for v in p.value), len(p.challenges), p.index))
    by_order: dict[tuple[ChallengeType, ...], Plan] = {}
    for plan in ranked:
        by_order.setdefault(plan.order, plan)
    orders = sorted(by_order.values(), key=lambda p: (tuple(-v for v in p.value), len(p.challenges), p.index))
    return PlanSearch(player, board, len(plans), ranked[0], tuple(orders), tuple(ranked[:10]))
