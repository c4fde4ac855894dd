"""The rulings chosen for the encounter and the sequence, as data: every report prints them.

Each is one sentence, with the page or source it rests on; the package docstring lists the same
rulings (a test checks that each one's opening words appear there).

>>> all(ruling.endswith(")") for ruling in REACTION_RULINGS + ENCOUNTER_RULINGS + SEQUENCE_RULINGS)
True
"""

from __future__ import annotations

__all__ = ["ENCOUNTER_RULINGS", "REACTION_RULINGS", "SEQUENCE_RULINGS"]

REACTION_RULINGS: tuple[str, ...] = (
    "Killed but not overkilled: the target still makes its Payback, with its full dice, then leaves; wounds "
    "reaching its Overkill in this one attack remove it at once, with no Payback (printed p.21, Arcadia Quest rulebook p.12)",
    "Payback needs the target to reach the hero (an input: movement and line of sight are not modelled) and the "
    "controlling player to attack (an input, default yes: the Monster's controller always strikes) (printed p.21)",
    "A Monster's Overkill below its Life is refused, since an overkill is a kill; no Overkill rating: never "
    "overkilled, always pays back (Lord Fang, forum answer; rules notes §3.2)",
    "Monster attacks stop once the hero is killed (he is removed to his Hero card); the hero's wounds are reported "
    "capped at his Life left (Arcadia Quest rulebook p.10)",
    "Each roll uses its roller's full reroll pool, spent greedily on failed dice; a hero's pool serves his attack "
    "and every defence roll alike, a Monster's its attack and defence (Inferno rulebook, Reroll Pool; printed p.21 'M. Reroll')",
    "Abilities act at each roll: a Monster wounded by the hero's attack pays back with the extra die of '+1 die in "
    "every roll while wounded', and a hero wounded earlier in the action defends (and attacks) with his (rules notes "
    "§4.1)",
    "Daze takes effect after the attack that causes it, so a Dazed hero rolls no Defense dice against the later "
    "attacks of the same encounter (Inferno rulebook, Daze; rules notes §2.5)",
    "Card and ability effects not listed as options (Life Drain, Vengeance, monster healing, a Monster's own "
    "multi-target attack) are not modelled: edit the dice instead; a hero's attack on several Monsters is "
    "modelled, as an encounter's other targets (rules notes §3.4, §4)",
)
"""Rulings of every hero attack and the Monster's Payback, in an encounter or a sequence."""

ENCOUNTER_RULINGS: tuple[str, ...] = (
    "Order: the hero's attack, then the target's Payback, then each Close Monster's Guard attack in the listed "
    "order; both reactions come after the attack is fully resolved and the rulebook does not order them "
    "(printed pp.20-21)",
    "Guard: every Close Monster attacks the hero when his attack targets none of them; a Close target, or a "
    "special effect that also targets a Close Monster (the Attack card's, or a Close Monster among the other "
    "targets), fends all of them off; when the opponent does not attack there is no Guard attack and the "
    "report says so (printed p.20)",
    "Several targets: the one attack roll's hits go to each targeted Monster (Cleave, Nova Bolt's "
    "second target), and each rolls its own Defense against them, so each takes its own Wounds and may be "
    "killed or overkilled on its own; the target, listed first, decides the hero's +1 attack die against a flanked "
    "target (Nova Bolt: both targets suffer the full hits, Arcadia Quest rulebook p.10; each its own Defense INFERRED, rules notes §2.3)",
    "Payback with several targets: only one targeted Monster is activated, chosen by the opponent (printed p.21); "
    "he chooses after the attack's results are known, among those not overkilled whose Payback reaches the hero, "
    "the one worst for the hero: highest chance that the hero is killed in this action (Payback then Guard), then "
    "most Wounds expected, then the first listed; the scenario may name one instead (Payback by), and when it cannot pay back the worst of "
    "the others does (printed p.21; the choice is a ruling)",
    "Coins: the killer's Guild gets the Reward of every targeted Monster it kills; each other Guild with a token on "
    "a killed Villain target gets its Reward too; a Monster killing the hero pays 1 coin to every other Guild "
    "(Arcadia Quest rulebook pp.10, 12, 13)",
)
"""Rulings of one encounter only (``"question": "encounter"``): order, Guard, coins."""

SEQUENCE_RULINGS: tuple[str, ...] = (
    "Wounds and Daze stay on the Monster between attacks until it is killed (Arcadia Quest rulebook p.12; FAQ on Daze)",
    "The heroes attack in the listed order, round and round; a killed hero drops out, since coming back needs a "
    "Rest turn, which is not modelled (Inferno rulebook p.19)",
    "After each attack the Monster pays back the attacker unless overkilled, a killed one included; there is no "
    "Guard in a sequence, and heroes do not heal between attacks (printed p.21)",
    "The Reward goes to the hero who deals the killing Wound (Arcadia Quest rulebook p.10)",
    "Attacks are followed up to max_attacks, or until at most 1e-15 is left undecided; what is left undecided is "
    "reported as beyond the cap (a computing limit, not a rule)",
)
"""Rulings of a sequence of attacks only (``"question": "sequence"``)."""
