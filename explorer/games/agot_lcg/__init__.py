"""A Game of Thrones: The Card Game, 2nd edition (FFG 2015): challenges, a round, card odds, timing.

Edition and sources: the 2nd edition core set Rules Reference (2015), as transcribed by ThronesDB
and checked against the printed pages 23 and 28 (``shared/rules/agot-lcg.md``); p.23 (Unopposed,
Winning a Challenge, Winning the Game, "Would", the letter X) is the project's seed page. The
ThronesDB FAQ (v4.1) answers a few questions (stealth targets, processing keywords). Page numbers
refer to that Rules Reference; glossary entries are named where their page was not seen.

Questions (``question`` key, or inferred from the keys present):

* ``"challenge"`` (the spec's one challenge, `parse_challenge`): steps 4.2.2 to 4.2.6 with claims
  and keywords;
* ``"round"`` (a ``players`` key): a whole challenges phase and dominance, the best defence,
  the best plan (`explorer.games.agot_lcg.round.scenario`);
* ``"odds"`` (an ``intrigue``, ``draw``, ``deck_out`` or ``power_race`` key): exact card odds;
* ``"timing"`` (a ``trigger`` key): the order abilities to one trigger may resolve in.

Rulings chosen where the rules are silent or ambiguous (`rulings` holds them as data and every
report prints them):

* Winner: the side with the higher total STR is the candidate, a tie goes to the attacker; a
  candidate with 0 STR or no participant wins nothing, and there is no fallback (p.23; inferred).
* Total STR is the characters' STR plus modifiers, never below 0 (p.23; "Modifiers").
* Unopposed is fixed when the winner is determined (p.23).
* Claim 0 does nothing, and a power claim only takes power from the faction card (4.2.4).
* Military claim: the defender kills the named characters, or else the choice that loses the
  least power (power on the card, prized X, kneeling before standing, lowest STR).
* Power on a killed character goes back to the treasury; prized X goes to the attacker at once.
* Intrigue claim: each card in hand is equally likely to go; odds by formula, never by dealing.
* Keywords that say "may" are always used, but insight never draws a deck's last card.
* Resolution keywords are processed one type at a time in the first player's order (default
  insight, intimidate, pillage, renown), with a victory check after each type (4.2.5; FAQ).
* Intimidate needs a participating attacker and the attacker's win; it kneels the named, else
  the strongest standing character within the margin.
* Stealth targets are those the scenario names in one challenge, a different one for each stealth
  attacker; in a round with the best defence the attacker picks the best ones.
* Pillage that empties the loser's deck eliminates the loser there, and the winner wins (p.23).
* Ambush, assault, bestow, limited, no attachments, shadow and terminal do not act in a
  challenge; the report says so for each.
* X is 0 unless the scenario's ``x`` sets it (p.23), in STR, claim and keyword values.
* The victory check runs at the start and after every step; the game ends at the first success.
* Simultaneous victory: the first player picks themselves; with no first player, undecided.
* An empty draw deck eliminates at once; both empty: the first player wins (inferred).
* Power sits on the faction card, on listed characters and on unlisted cards (``cards``).
* The first player makes all their challenges first, one of each type at most (4.2, 4.3).
* Attackers and defenders must be standing, in play, with the icon; a listed one that is kneeling
  when its challenge comes (``standing: false`` from the start, or knelt earlier in the round) or
  died is dropped with a note in the report; one without the icon is refused.
* Best defence: the defender tries every set of eligible defenders, minimising the attacker's
  gain (game, power swing, kills, cards); ties kneel the least STR; no look-ahead.
* With the best defence and no named stealth targets, the attacker's best targets are chosen.
* Dominance comes after the challenges: standing STR plus gold; a tie gives no one power (5.2).
* The round stops at the first victory.
* A plan is one player's challenges for the round against the best defence, the opponent making
  none, then dominance.
* Plans are compared by game, power swing, kills, cards, then standing STR; first found wins ties.
* The search compares every plan: at most 6 characters a side and 5000 plans (about 2 s).
* Intrigue claim discards are drawn uniformly at random (card odds).
* Draw odds: a setup hand of 7, the mulligan taken when it helps, then 2 cards a round.
* Deck out: each round the draw phase, then insight, then the opponent's pillage.
* Power race: each side's gains are independent; ties go to the first player.
* Around a triggering condition: cancels, "would" interrupts, forced interrupts, interrupts,
  the condition, forced reactions, reactions (p.23 "Would"; "Triggering Condition").
* A cancel stops the condition and everything after it.
* An interrupt that changes what would happen (a save) ends the interrupts, and reactions to the
  condition are no longer possible.
* Replacement effects (instead) let the condition occur; the most recent one is used.
* A nested trigger runs its whole sequence first (last in, first out).
* Within one window the listed order stands for the players' choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, Declaration, PlayerState
from explorer.games.agot_lcg.challenge.grid import WinnerGrid, winner_grid
from explorer.games.agot_lcg.challenge.model import (
    CHALLENGE_TYPES,
    KEYWORDS,
    VICTORY_POWER,
    Challenge,
    ChallengeType,
    Character,
    Keyword,
    Player,
    PlayerKey,
    Power,
    ResolutionKeyword,
    Side,
)
from explorer.games.agot_lcg.challenge.report import ChallengeReport
from explorer.games.agot_lcg.challenge.rules import (
    ChallengeResult,
    ClaimEffect,
    GameEnd,
    challenge_winner,
    claim_result,
    is_unopposed,
    renown_gained,
    resolve_challenge,
    victory,
)
from explorer.games.agot_lcg.challenge.scenario import parse_challenge
from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome, play_challenge
from explorer.games.agot_lcg.odds.cost import check_odds
from explorer.games.agot_lcg.odds.dists import (
    deck_out_dist,
    draw_round_dist,
    intrigue_survival_dist,
    power_race_dist,
    race_round_dist,
    race_winner_dist,
)
from explorer.games.agot_lcg.odds.report import OddsReport, answer_odds
from explorer.games.agot_lcg.odds.scenario import SECTIONS, OddsQuestion, parse_odds
from explorer.games.agot_lcg.round.cost import costliest_field, round_seconds
from explorer.games.agot_lcg.round.defence import best_defence, challenge_gain
from explorer.games.agot_lcg.round.phase import RoundResult, dominance, play_round
from explorer.games.agot_lcg.round.plan import best_plan, check_plan_size
from explorer.games.agot_lcg.round.report import RoundReport, plan_round
from explorer.games.agot_lcg.round.scenario import parse_round
from explorer.games.agot_lcg.round.sweep import summary
from explorer.games.agot_lcg.round.trace import challenge_label, challenge_title, round_trace
from explorer.games.agot_lcg.timing.explain import Ability, AbilityKind, Trigger, explain
from explorer.games.agot_lcg.timing.report import TimingReport
from explorer.games.agot_lcg.timing.scenario import parse_timing
from explorer.games.agot_lcg.timing.steps import (
    FRAMEWORK_STEPS,
    TRIGGER_SEQUENCE,
    FrameworkStep,
    Interrupt,
    order_interrupts,
    usable_interrupts,
)
from explorer.scenario.fields import check_option, describe

__all__ = [
    "summary",
    "Ability", "AbilityKind", "Board", "CHALLENGE_TYPES", "Challenge", "ChallengeOutcome", "ChallengeReport",
    "ChallengeType", "Keyword", "Player", "PlayerKey", "Question", "ResolutionKeyword",
    "ChallengeResult", "Character", "ClaimEffect", "Declaration", "FRAMEWORK_STEPS", "FrameworkStep",
    "GameEnd", "Interrupt", "KEYWORDS", "OddsQuestion", "OddsReport", "PlayerState", "Power", "QUESTIONS",
    "RoundReport", "RoundResult", "SECTIONS", "ScenarioError", "Side", "TRIGGER_SEQUENCE", "TimingReport",
    "Trigger", "VICTORY_POWER", "WinnerGrid", "answer_odds", "best_defence", "best_plan", "challenge_gain",
    "challenge_label", "challenge_title", "challenge_winner", "check_odds", "check_plan_size", "claim_result",
    "costliest_field", "deck_out_dist",
    "describe", "dominance", "draw_round_dist", "estimate", "explain", "intrigue_survival_dist",
    "is_unopposed", "order_interrupts", "parse_challenge", "parse_odds", "parse_round", "parse_timing",
    "plan_round", "play_challenge", "play_round", "power_race_dist", "question_of", "race_round_dist",
    "race_winner_dist", "renown_gained", "resolve", "resolve_challenge", "round_seconds", "round_trace",
    "usable_interrupts", "victory", "winner_grid",
]

Question = Literal["challenge", "round", "odds", "timing"]
"""The questions an A Game of Thrones scenario may ask (scenario key ``question``)."""
QUESTIONS: tuple[Question, ...] = get_args(Question)
"""The values of `Question`."""


def question_of(data: Any) -> Question:
    """The question a scenario asks: its ``question`` key, else inferred from the keys present.

    >>> question_of({"players": {}}), question_of({"trigger": "x"}), question_of({"draw": {}})
    ('round', 'timing', 'odds')
    """
    if isinstance(data, Mapping) and "question" in data:
        return check_option(data["question"], QUESTIONS, "question")
    if not isinstance(data, Mapping):
        return "challenge"
    if "players" in data:
        return "round"
    if "trigger" in data:
        return "timing"
    if any(key in data for key in SECTIONS):
        return "odds"
    return "challenge"


PLAN_SECONDS = 540e-6
"""Work of one plan of the best-plan search, at most (`plan.MAX_PLANS`: 85 to 540 microseconds a plan)."""

SMALL_SECONDS = 0.005
"""Work of one challenge or one timing question: a few milliseconds."""


def estimate(data: object) -> float:
    """Seconds `resolve(data)` and its report are estimated at, before anything is computed (for a grid
    of scenarios, `explorer.resolver.estimate`): a round's challenges (`round_cost.round_seconds`) or its
    best-plan search (`plan.count_plans`), the card odds (`odds_cost.odds_seconds`), else `SMALL_SECONDS`.

    Raises:
        ScenarioError: the scenario does not read, or is too big on its own.

    >>> estimate({"game": "agot-lcg", "challenge": {"type": "power", "claim": 1,
    ...     "attackers": [{"name": "Knight", "str": 3}], "defenders": []},
    ...     "power": {"attacker": {"faction": 5}, "defender": {"faction": 3}}})
    0.005
    """
    question = question_of(data)
    if question == "round":
        parsed = parse_round(data)
        if parsed.best_plan is not None:
            return SMALL_SECONDS + PLAN_SECONDS * check_plan_size(parsed.round.board, parsed.best_plan)
        return round_seconds(parsed.round)
    if question == "odds":
        return SMALL_SECONDS + check_odds(parse_odds(data))
    if question == "timing":
        parse_timing(data)
    else:
        parse_challenge(data)
    return SMALL_SECONDS


def resolve(data: object) -> ChallengeReport | RoundReport | OddsReport | TimingReport:
    """Parse a scenario mapping and answer its question exactly.

    Raises:
        ScenarioError: naming the first bad key (such as ``challenge.attackers[0].str``).

    >>> report = resolve({"game": "agot-lcg",
    ...     "challenge": {"type": "power", "claim": 1,
    ...                   "attackers": [{"name": "Knight", "str": 3, "keywords": ["renown"]}],
    ...                   "defenders": [{"name": "Guard", "str": 2}]},
    ...     "power": {"attacker": {"faction": 5, "cards": 2}, "defender": {"faction": 3, "cards": 0}}})
    >>> d = report.to_dict()
    >>> d["winner"], d["unopposed"], d["power_after"], d["game_winner"]
    ('attacker', False, {'attacker': 9, 'defender': 2}, None)
    """
    question = question_of(data)
    if question == "round":
        parsed = parse_round(data)
        if parsed.best_plan is not None:
            search = best_plan(parsed.round.board, parsed.best_plan)
            return RoundReport(plan_round(search, search.best), search)
        return RoundReport(play_round(parsed.round))
    if question == "odds":
        return OddsReport(answer_odds(parse_odds(data)))
    if question == "timing":
        return TimingReport(parse_timing(data))
    return ChallengeReport(resolve_challenge(parse_challenge(data)))
