"""The rulings chosen where the rules are silent or ambiguous, as data: every report prints them.

Each is one sentence in our words, ending with the source it rests on in parentheses; the
package docstring lists the same rulings (a test checks that each one's opening words appear
there). Glossary entries are named where their page was not seen.

>>> all(r.endswith(")") for r in CHALLENGE_RULINGS + ROUND_RULINGS + PLAN_RULINGS + ODDS_RULINGS + TIMING_RULINGS)
True
"""

from __future__ import annotations

__all__ = ["CHALLENGE_RULINGS", "ODDS_RULINGS", "PLAN_RULINGS", "ROUND_RULINGS", "TIMING_RULINGS"]

CHALLENGE_RULINGS: tuple[str, ...] = (
    "Winner: the side with the higher total STR is the candidate and a tie goes to the attacker; if the candidate "
    "counts 0 STR or has no participating character, no one wins, with no fallback to the other side "
    "(p.23 \"Winning a Challenge\"; 4.2.2 p.28; inferred from the wording)",
    "Total STR is the participating characters' STR plus the scenario's modifiers, never below 0 "
    "(p.23 \"any other modifiers\"; glossary \"Modifiers\")",
    "Unopposed is fixed when the winner is determined: characters killed later do not change it "
    "(p.23 \"Unopposed\"; 4.2.2)",
    "Claim 0 does nothing, and a power claim takes power from the defender's faction card only, never from "
    "other cards (glossary \"Power Claim\"; 4.2.4)",
    "Military claim: the defender kills the characters the scenario names, otherwise the choice that loses the "
    "least power: least power on the card, then least prized X, then kneeling before standing, then lowest STR, "
    "then first listed; characters the scenario only counts carry no known power (glossary \"Military Claim\")",
    "Power on a killed character goes back to the treasury, and a killed prized (X) character gives the attacker "
    "X power for their faction at once, before reactions (glossary \"Leaves Play\", \"Treasury\", \"Prized\")",
    "Intrigue claim: each card in hand is equally likely to be discarded; the odds come from a formula, and the "
    "outcomes are listed one by one only up to 2000 of them (glossary \"Intrigue Claim\")",
    "Keywords that say \"may\" (renown, insight, pillage, intimidate, stealth) are used whenever they act, except "
    "that insight never draws the last card of a deck, which would eliminate the drawer "
    "(glossary \"Abilities\", \"Insight\"; p.23 \"Winning the Game\")",
    "Resolution keywords are processed one type at a time in the first player's order (default insight, "
    "intimidate, pillage, renown), each type once, and the victory check runs after each type "
    "(4.2.5; FAQ \"Processing Keywords\")",
    "Intimidate needs a participating attacker with intimidate and the attacking player's win; it kneels the "
    "named character, otherwise the loser's standing character with the highest STR within the margin, and a "
    "kneeling character cannot be chosen since it cannot kneel again (glossary \"Intimidate\", \"Kneel\")",
    "Stealth targets are those the scenario names, a different character for each stealth attacker (a target "
    "named twice is refused); with the defenders already given, an unnamed target bypasses no one "
    "(glossary \"Stealth\"; 4.2)",
    "Pillage that empties the loser's deck eliminates the loser at that step and the winner wins; with the deck "
    "size unknown the discards are only counted (glossary \"Pillage\"; p.23 \"Winning the Game\")",
    "Ambush, assault, bestow, limited, no attachments, shadow and terminal do not act in a challenge and are "
    "reported as such; assault needs locations, which a scenario does not hold (glossary \"Keywords\")",
    "X is 0 unless the scenario's x sets it, in STR, claim and keyword values (p.23 \"The letter X\")",
    "The victory check runs on the starting position and after every step; the game ends at the first step "
    "where it succeeds and later steps are not resolved (p.23 \"Winning the Game\")",
    "Simultaneous victory: the first player picks themselves; without a first player the result is undecided "
    "(p.23 \"Winning the Game\")",
    "An empty draw deck eliminates at once; if both decks are empty the first player eliminates the opponent "
    "first and wins as the remaining player (p.23 \"Winning the Game\"; inferred)",
    "Power sits on the faction card, on listed characters (their power) and on unlisted cards (cards); power "
    "moved by claim is not gained, and renown puts its power on the character "
    "(glossary \"Power\", \"Moving Power\", \"Renown\")",
)
"""Rulings of every challenge (one challenge, or each challenge of a round)."""

ROUND_RULINGS: tuple[str, ...] = (
    "The first player makes all their challenges, then the other player; each player makes at most one "
    "challenge of each type, in the listed order (4.2, 4.3)",
    "Attackers and defenders must be standing, in play and have the challenge's icon, and they kneel; one listed "
    "in the file that is kneeling when its challenge comes (standing: false from the start, or knelt earlier in "
    "the round) or that died is dropped with a note, one without the icon is refused, and a challenge left "
    "without attackers is not initiated (4.2, 4.2.1, p.28)",
    "Best defence: the defender tries every set of eligible defenders and keeps the one giving the attacker the "
    "least, compared in order: game result, power swing, characters killed, cards lost from hand, cards lost from "
    "the deck; ties kneel the least STR, then the fewest characters; it does not look ahead to later challenges "
    "or dominance (4.2.1; a ruling)",
    "With the best defence and no stealth targets named, each stealth attacker picks a different target among the "
    "defender's eligible characters without stealth, the set that serves the attacker best against that defence "
    "(glossary \"Stealth\"; FAQ on stealth targets)",
    "Dominance comes after the challenges: standing characters' STR plus gold, the higher total gains 1 power for "
    "its faction and a tie gives no one the power (5.2)",
    "The round stops at the first step where a player meets a victory condition (p.23 \"Winning the Game\")",
)
"""Rulings of a whole challenges phase and dominance (``"question": "round"``)."""

PLAN_RULINGS: tuple[str, ...] = (
    "A plan is one player's challenges for the round (types, order, attackers, stealth targets), each answered by "
    "the best defence; the searched player's opponent declares no challenge, so the board is the board when that "
    "player becomes active, and dominance follows (4.2, 4.3, 5.2; a ruling)",
    "Plans are compared by game result, then power swing over the round with dominance, then characters killed, "
    "then cards lost by the opponent, then STR kept standing; among equals the plan found first wins, fewer "
    "challenges first and types in the order military, intrigue, power (a ruling)",
    "The search compares every plan: at most 6 characters a side and 5000 plans, refused up front beyond that "
    "(a computing limit, not a rule)",
)
"""Rulings of the best plan search (``best_plan``)."""

ODDS_RULINGS: tuple[str, ...] = (
    "Intrigue claim discards are drawn uniformly at random from the whole hand, without replacement "
    "(glossary \"Intrigue Claim\")",
    "Draw odds: a setup hand of 7, one mulligan taken only when it raises the chance of the goal by the round "
    "asked, setup cards placed are replaced when the hand is refilled to 7, then 2 cards each draw phase from "
    "round 1 on (glossary \"Setup\", \"Mulligan\"; 2.2)",
    "Deck out: each round the draw phase draws first, then the player's insight draws and the opponent's "
    "pillage discards; insight never draws the last card; a deck is out in the round it reaches 0 "
    "(2.2; glossary \"Insight\", \"Pillage\"; p.23)",
    "Power race: each side's gain is drawn independently each round, reaching 15 is checked at the end of each "
    "round, and when both reach it in the same round the first player decides, picking themselves "
    "(p.23 \"Winning the Game\")",
)
"""Rulings of the card odds (``"question": "odds"``)."""

TIMING_RULINGS: tuple[str, ...] = (
    "Around a triggering condition: cancels, then \"would\" interrupts (forced ones first), then forced "
    "interrupts in the first player's order, then the interrupt window, then the condition occurs, then forced "
    "reactions in the first player's order, then the reaction window (glossary \"Triggering Condition\", "
    "\"Would\" p.23, \"Forced Interrupts / Forced Reactions\", \"Cancel\")",
    "A cancel stops the condition: nothing after it in the sequence happens (glossary \"Cancel\")",
    "An interrupt that changes what would happen (a save) ends the interrupts to that condition, and since the "
    "condition does not occur, reactions to it are no longer possible (p.23 \"Would\"; glossary \"Save\")",
    "Replacement effects (instead) let the condition occur differently: the most recent replacement is the one "
    "used, and reactions still follow (glossary \"Replacement Effects\")",
    "A nested trigger runs its whole sequence before the next ability of the outer window, last in first out "
    "(glossary \"Nested Ability Sequences\")",
    "Within one window the listed order stands for the players' choices, the first player having the first "
    "opportunity; each ability is used at most once per condition (glossary \"Interrupts\", \"Reactions\")",
)
"""Rulings of the timing explainer (``"question": "timing"``)."""
