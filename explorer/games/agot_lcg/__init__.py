"""A Game of Thrones: The Card Game, 2nd edition (FFG 2015): one challenge, resolved exactly.

Edition and sources: the 2nd edition core set Rules Reference (2015), as transcribed by ThronesDB
and checked against the printed pages 23 and 28 (``shared/rules/agot-lcg.md``); p.23 (Unopposed,
Winning a Challenge, Winning the Game, "Would") is the project's seed page. Page numbers in this
package refer to that Rules Reference. Steps follow framework 4.2.2 to 4.2.6 (`timing`).

Rulings chosen where the rules are silent or ambiguous (each is a place to check):

* Winner (4.2.2, p.23): the side with the higher total STR is the candidate, a tie goes to the
  attacker; if the candidate counts 0 STR or has no participating character, no one wins. There
  is no fallback to the other side (INFERRED from the wording; throneteki does the same).
* Total STR = the participating characters' STR plus the optional ``str_modifiers``, never below
  0 (INFERRED). An empty ``attackers`` list is allowed: the attackers left the challenge before
  4.2.2, so the attacker cannot win. STR below 0 on a character is refused.
* Unopposed is fixed at 4.2.2 (the attacker wins, the defending side counts 0 STR, with or without
  defenders); the +1 goes on the attacker's faction card at 4.2.3.
* Claim (4.2.4), only when the attacker wins; claim 0 does nothing. Power: min(claim, power on the
  defender's faction card) moves to the attacker's faction card; power on other cards is never
  taken. Military: the defender chooses ``claim`` characters to kill, fewer if
  ``defender.characters`` says they control fewer; without it the number is an upper bound
  (``upper_bound``). Power on killed characters is not modeled: military and intrigue claims move
  no power (spec). Intrigue: ``claim`` cards at random; with ``defender.hand`` the exact odds of
  which cards go (drawn without replacement, `explorer.dice.deal`).
* Renown (4.2.5) says "may"; it is always used (no reason to refuse power in one challenge; the
  throneteki default). The power goes on the character, so it counts in ``cards``. The other
  resolution keywords of the winner (insight, pillage; intimidate for an attacker) are accepted,
  not resolved, and listed in ``keywords_not_modeled``; the first player's keyword order cannot
  change power, since only renown moves it. Other glossary keywords (stealth, ambush, ...) act
  before 4.2.2 and are accepted silently; a word not in the glossary is refused (a typo would
  otherwise silently drop renown).
* Winning the game (p.23): the victory check runs on the starting position and after every step;
  the game ends at the first step where it succeeds and the later steps are not resolved. A
  position already won before the challenge resolves nothing (``winner`` "none").
* Simultaneous victory (p.23: "the first player determines which of those players wins"): with
  ``first_player`` given, the first player picks themselves (ruling); without it ``game_winner``
  is null and ``game_end.decided_by`` is "undecided". One player reaching 15 while the other's
  opponent is eliminated counts as simultaneous too.
* Elimination (p.23): ``deck: 0`` means an empty draw deck, the player is eliminated at once and
  the opponent wins. Both decks empty: the first player orders the eliminations; the ruling is
  that they eliminate their opponent first and win as the remaining player (INFERRED).
* "Would" (p.23): cancels first, then every "would" interrupt before any "is" interrupt, forced
  before optional within each; equals keep the players' order; after an interrupt that changes
  what was about to happen (a save, a cancel) no further interrupt to that trigger is used.
"""

from __future__ import annotations

from explorer.games.agot_lcg.model import (
    CHALLENGE_TYPES,
    KEYWORDS,
    VICTORY_POWER,
    Challenge,
    Character,
    Power,
    Side,
)
from explorer.games.agot_lcg.report import ChallengeReport
from explorer.games.agot_lcg.rules import (
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
from explorer.games.agot_lcg.scenario import parse_challenge
from explorer.games.agot_lcg.timing import (
    FRAMEWORK_STEPS,
    TRIGGER_SEQUENCE,
    FrameworkStep,
    Interrupt,
    order_interrupts,
    usable_interrupts,
)

__all__ = [
    "CHALLENGE_TYPES", "FRAMEWORK_STEPS", "KEYWORDS", "TRIGGER_SEQUENCE", "VICTORY_POWER", "Challenge",
    "ChallengeReport", "ChallengeResult", "Character", "ClaimEffect", "FrameworkStep", "GameEnd",
    "Interrupt", "Power", "Side", "challenge_winner", "claim_result", "is_unopposed", "order_interrupts",
    "parse_challenge", "renown_gained", "resolve", "resolve_challenge", "usable_interrupts", "victory",
]


def resolve(data: object) -> ChallengeReport:
    """Parse a challenge scenario mapping and resolve it.

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
    return ChallengeReport(resolve_challenge(parse_challenge(data)))
