"""The rulings chosen for an Assault of the Giants battle, as data: every report prints them.

Each is one sentence ending with the page or source it rests on; the package docstring lists the
same rulings (a test checks that each one's opening words appear there). `provenance` says, for
one battle, which of its values are examples rather than rulebook values.

>>> all(ruling.endswith(")") for ruling in BATTLE_RULINGS)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
from explorer.scenario.sourced import EXAMPLE

if TYPE_CHECKING:
    from explorer.games.assault_of_the_giants.rules.model import Battle

__all__ = ["BATTLE_RULINGS", "provenance"]

BATTLE_RULINGS: tuple[str, ...] = (
    "Both sides roll; each side's totals are independent of the other's dice, and the attacker fixes its "
    "totals before the defender decides (rulebook pp.16-17)",
    "Rerolls, policy misses: blanks first, then dice showing only arcane the side cannot convert, 1 arcane "
    "before 2, the die whose fresh roll is worth most first; each die once, all at once (rulebook p.16)",
    "Conversions: arcane to 2 hits first, then arcane to 1 block; unconverted arcane is a miss (rulebook p.16)",
    "The Attack Command's arcane-to-2-hits bonus applies only in the battle it starts, so a giantslayer attack "
    "(a Rest Command action) never has it, and in a giant's battle Attack is the last card of the row "
    "(rulebook p.17)",
    "Casualties: champions are picked first and shrug off damage below their Fortitude without being wounded; "
    "a unit that is only wounded uses up the remaining damage (rulebook p.17)",
    "Both sides sustain casualties; the attacker's step is inferred, since steps 6 and later are on pages we "
    "do not have (inferred from rulebook p.17)",
    "NPC giants only defend: they roll their special die, reroll up to 2 dice and convert up to 2 arcane to "
    "blocks, and earn nothing (rulebook pp.19-20)",
    "Best play (reroll_policy best): the side picks which dice to reroll and how to split its arcane to maximise "
    "its objective; a best defender answers the attacker's recorded totals; ties go to higher net Ordning "
    "Points, then damage dealt minus taken, then fewer dice rerolled (a ruling on rulebook pp.16-17)",
    "Rewards: a side earns the Ordning Value of each enemy unit it defeats; giantslayers earn half, rounded up, "
    "and each defeated giantslayer gives the defender 1 Resource Card unless it is NPC giants (rulebook pp.19-20)",
    "Cards in battle: Spell and Resource Cards add the effects entered from the card, before final totals: their "
    "dice join the pool; their rerolls are a second round once the Command rerolls' results are known, the reroll "
    "policy applied again to the dice as they then lie, and may reroll a die again (card_rerolls \"with commands\" "
    "takes them with the Command rerolls instead, each die once); their conversions join the Commands' and come "
    "after every reroll; their hits and blocks are added after conversions (rulebook pp.16-17)",
    "Stacking: a storm side (race storm) holds at most 3 units, every unit counted, champions, leaders and NPC "
    "storm giants too, since a side stands in one region; the other races' limits are not in our pages and are not "
    "checked (rulebook p.9; whom it counts inferred from the storm setup)",
    "Giantslayer Actions: the giantslayers attack by the Rest Command just played, the row's last card, which gives "
    "one action per card to its left; each attacking giantslayer takes 1, at most 3 attack, and a row without Rest "
    "is not checked (rulebook p.18)",
    "Who plays cards: Ore only the attacker, Weaponry both sides, any other card either side; NPC giants play "
    "none (they hold no cards); a spell whose target is a 'Giant' cannot target giantslayers, which the user "
    "checks (rulebook pp.17, 19-20)",
)
"""Rulings of every battle, in the order of the procedure."""


def provenance(battle: Battle) -> dict[str, str]:
    """Where each kind of value in `battle` comes from: rulebook, example or the user's entry.

    Args:
        battle: a parsed battle.

    Returns:
        Keys ``dice.<name>`` (one per die rolled, the cards' dice included: a die with the faces of the
        named default is that example, whoever wrote it out), ``units`` and, when a side plays cards,
        ``cards`` (and ``card_rerolls``, the ruling its cards' rerolls follow, when they reroll), each a
        provenance sentence.

    >>> from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
    >>> provenance(parse_battle({"game": "aotg", "attacker": {"pool": {"basic": 1}, "units": []},
    ...     "defender": {"pool": {}, "units": []}}))["dice.basic"]
    'example, not from the rulebook'
    """
    from explorer.games.assault_of_the_giants.rules.cards import card_rerolls_text, played
    out: dict[str, str] = {}
    for side in (battle.attacker, battle.defender):
        for die, count in played(side).pool:
            if count:
                default = DEFAULT_DICE.get(die.name)
                same = default is not None and default.faces == die.faces
                out[f"dice.{die.name}"] = (default.source if default is not None and same else die.source
                                           if die.source != "scenario" else "entered in the scenario")
    out["units"] = ("entered in the scenario: the rulebook pages we have give no Fortitude or Ordning Value "
                    f"(the panel's presets are marked '{EXAMPLE}')")
    if battle.attacker.cards or battle.defender.cards:
        out["cards"] = ("effects entered from your cards: the card texts are not in the pages we have; who may "
                        "play Ore and Weaponry is rulebook p.17")
    timing = [f"{role}'s {card_rerolls_text(side)}" for role, side in (("attacker", battle.attacker),
                                                                     ("defender", battle.defender))
              if card_rerolls_text(side)]
    if timing:
        out["card_rerolls"] = "; ".join(timing)
    return out
