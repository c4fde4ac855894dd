# ---
# jupyter:
#   jupytext:
#     cell_metadata_filter: -all
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Workshop: A Game of Thrones, predict then reveal
#
# **How to use this notebook with a group.** Run the cells one at a time. Everyone writes down a
# guess *before* anyone presses **Reveal**; the explorer computes the answer when the cell runs
# and keeps it hidden until then. Then discuss. Questions 1 to 3 are about the rules (one answer,
# no luck); 4 and 5 about the odds of the cards.
#
# Characters in the examples are made up to show one rule each. Steps and pages refer to the
# Rules Reference (RR).

# %%
import explorer
from explorer import lessons
from explorer.panels.common.exercise import Predict

challenge = lessons.example("agot-power-challenge.json")

# %% [markdown]
# ## 1. A tie
#
# The attacker brings 5 STR to a power challenge. Suppose the defender's steward had 5 STR too.

# %%
tie = lessons.changed(challenge, {"challenge.defenders[0].str": 5})
Predict("With 5 STR on each side, who wins the challenge: 'attacker', 'defender' or 'no one'?",
        lessons.answer(tie, "winner") or "no one", kind="text",
        explain="A tie of 1 STR or more goes to the attacker (RR 4.2.2). Only a side with at least 1 STR "
                "and one participating character can win at all.")

# %% [markdown]
# ## 2. Unopposed
#
# Back to the example: the only defender is a kneeling steward with 0 STR.

# %%
Predict("How much power does the attacker have after this challenge (13 before it)?",
        lessons.answer(challenge, "power_after.attacker"), kind="number", tolerance=0,
        explain="0 defending STR makes the challenge unopposed: +1 power (RR 4.2.3). The power claim then "
                "moves what the loser's faction card holds, up to the claim. Reaching 15 ends the game at once.",
        then=lessons.records(explorer.resolve(challenge), "steps",
                             {"step (RR)": "step", "what happens": "event", "power": "power"}))

# %% [markdown]
# ## 3. Dominance
#
# In the round the app opens with, both players kneel characters to attack and defend. Dominance
# then counts each player's standing STR plus their gold (RR 5.2).

# %%
round_report = explorer.resolve(lessons.start("agot-lcg"))
Predict("Who wins dominance after the round: 'first', 'second' or 'no one'?",
        lessons.value(round_report, "dominance.winner") or "no one", kind="text",
        explain="Knelt characters do not count; gold does. A player who attacked with everything may lose "
                "dominance to one who kept gold.",
        then=lessons.value(round_report, "dominance"))

# %% [markdown]
# ## 4. An intrigue claim
#
# The loser of an intrigue challenge with claim 2 discards 2 cards at random from a hand of 7,
# which holds 2 copies of the card they need most.

# %%
odds = lessons.example("agot-card-odds.json")
claim = lessons.changed(odds, {"intrigue": {"hand": {"Wildfire": 2, "Other cards": 5}, "card": "Wildfire", "claim": 2}})
Predict("What is the chance that at least one Wildfire is still in hand after the claim?",
        lessons.answer(claim, "intrigue.survives"), kind="chance", tolerance=1,
        explain="Both copies must be among the 2 cards discarded for none to survive: 1 way out of the "
                "21 ways to pick 2 cards from 7.")

# %% [markdown]
# ## 5. Finding a card
#
# A 60-card deck holds 3 copies of a card. The setup hand is 7 cards, with one mulligan allowed.

# %%
Predict("What is the chance of having at least one copy in the setup hand (mulligan included)?",
        lessons.answer(odds, "draw.by_round.0"), kind="chance", tolerance=5,
        explain="Without the mulligan it is 1 minus the chance that all 7 cards miss the 3 copies; the mulligan "
                "gives a second try when the first hand has none.",
        then=lessons.distributions(explorer.resolve(odds), {"chance of at least one copy": "draw.by_round"},
                                   rows="round"))

# %% [markdown]
# ## To discuss
#
# - Questions 1 to 3 have no luck in them: which rule did people misremember?
# - In the app's A Game of Thrones tab, try keeping a character home: when does winning dominance
#   pay more than one more challenge?
