"""The rulings behind the rules of the table (p.20 and its neighbours), as data.

Each ruling is one sentence in our own words, ending with the page it rests on. A ruling marked
`Ruling.inferred` fills a gap: the text it would need is cut off or on a page we do not have
(``shared/rules/assault-of-the-giants.md``, NOT FOUND notes); its sentence says why we chose it.
Every table report and the panel's "Rules of the table" tab list them.

>>> all(r.text.endswith(")") for r in TABLE_RULINGS), len({r.key for r in TABLE_RULINGS}) == len(TABLE_RULINGS)
(True, True)
>>> ruling("recruit-place").inferred
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Ruling", "TABLE_RULINGS", "ruling"]


@dataclass(frozen=True, slots=True)
class Ruling:
    """One rule of the table as we apply it."""

    key: str
    """Short name answers refer to."""
    text: str
    """The rule in our words, ending with its page."""
    inferred: bool = False
    """True when the rulebook text we have does not settle it and we chose."""


TABLE_RULINGS: tuple[Ruling, ...] = (
    Ruling("phases", "The Final Ordning begins once the first pool of Ordning Point tokens is empty and the "
                     "Endgame once the second is; its freedoms stay in force to the end (rulebook p.20)"),
    Ruling("pools-in-order", "Tokens come from the first pool until it is empty, then from the second, so a "
                             "second pool empty before the first is refused; pool sizes are not in our pages "
                             "(inferred from rulebook p.20)", inferred=True),
    Ruling("pass-cost", "Passing through a region where another race's giants stand costs, once per region per "
                        "turn, 1 Resource Card of your choice or 1 wound to a giant passing through; for NPC "
                        "giants the card is discarded, given to no one (rulebook pp.11, 20)"),
    Ruling("pass-starting", "Giants may pass through any Starting Region; p.20 says so for NPC giants and p.18 for "
                            "giantslayers, and we apply it to players' Starting Regions too (inferred from "
                            "rulebook pp.18, 20)", inferred=True),
    Ruling("end-move", "No move may end where another race's giants stand; another race's empty Starting Region "
                       "may be entered to stay only from the Final Ordning on (rulebook pp.11, 20)"),
    Ruling("attack", "Giants attack another race's giants, NPC ones included, but not a Starting Region before "
                     "the Final Ordning, and never giantslayers on a normal turn; whether the region is adjacent "
                     "is the players' to check, as the map is not in our pages (rulebook pp.19-20)"),
    Ruling("npc-only-defend", "NPC giants never move, attack, recruit or take a turn; they only defend (inferred "
                              "for recruiting and turns from rulebook p.19)", inferred=True),
    Ruling("recruit-place", "A race recruits in its Starting Region; the Recruit Command's own page is cut off, "
                            "and p.20's rule for homeless giants implies it (inferred from rulebook pp.13, 20)",
           inferred=True),
    Ruling("homeless", "A race whose Starting Region holds another race's giants is homeless: it recruits in any "
                       "friendly region, or not at all while it has none (rulebook p.20)"),
    Ruling("slayers-no-army", "Giantslayers alone in a Starting Region make no one homeless: p.20 speaks of an "
                              "enemy army, and giants share regions with giantslayers freely (inferred from "
                              "rulebook pp.19-20)", inferred=True),
    Ruling("lyn-armaal", "The cloud giants recruit where Lyn Armaal is; when their Starting Region, read as the "
                         "Evermoors where Lyn Armaal is set up, holds another race's giants, they recruit in any "
                         "friendly region (inferred from rulebook pp.9, 20)", inferred=True),
    Ruling("lyn-armaal-held", "When another race's giants stand where Lyn Armaal is, the cloud giants cannot "
                              "recruit there, since recruits would share a region with enemies (inferred from "
                              "rulebook pp.11, 20)", inferred=True),
    Ruling("giantslayers", "Giantslayers act only through the Rest Command, one Giantslayer Action per card to its "
                           "left, in the order Recruit (2 actions, into a Small Folk Region), Move (1 action a "
                           "region; through enemy regions too, but ending in a Starting Region only from the Final "
                           "Ordning on) and Attack (1 action per attacking giantslayer) (rulebook p.18)"),
    Ruling("stacking", "The storm giants have at most 3 units in one region, every unit counted, champions, leaders "
                       "and NPC storm giants too; the other races' limits are not in our pages and are not checked "
                       "(rulebook p.9; whom it counts inferred from the storm setup)", inferred=True),
    Ruling("seats", "Seats are listed leftwards from the start player, in turn order; at setup the start player "
                    "takes the highest Ordning Number and each next player the next highest, which gives everyone "
                    "equal turns; another seating is accepted and flagged (rulebook pp.9-10)"),
    Ruling("npc-control", "In a battle against NPC giants, the player seated to the current player's right, the "
                          "one before them in seat order, decides for the NPC giants (rulebook p.20)"),
    Ruling("endgame-turns", "After the turn in which the second pool ran out, turns go on until the player with "
                            "the lowest Ordning Number has played, then every player has one final turn; that "
                            "turn itself is not counted (rulebook p.20; the last point inferred)", inferred=True),
    Ruling("ordning-numbers", "A race with no Ordning Number given takes its place in the caste order, hill 1 "
                              "up to storm 6; the tokens' printed numbers are not in our pages (inferred from "
                              "rulebook p.9)", inferred=True),
    Ruling("winner", "Most Ordning Points wins; tied players compare Resource Cards, then regions occupied, and "
                     "players still tied share the victory; a race with no forces left on the board is still "
                     "ranked (rulebook p.20)"),
    Ruling("regions-counted", "Regions occupied, when not given, are counted from the table: the regions where "
                              "the race's giants stand (inferred from rulebook p.20)", inferred=True),
)
"""The rulings of the table, in the order of the questions."""


def ruling(key: str) -> Ruling:
    """The ruling called `key` (KeyError if none is)."""
    for found in TABLE_RULINGS:
        if found.key == key:
            return found
    raise KeyError(key)
