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
# # Workshop: Arcadia Quest, predict then reveal
#
# **How to use this notebook with a group.** Run the cells one at a time. For each question,
# everyone writes down a guess *before* anyone presses **Reveal**; the explorer computes the
# answer when the cell runs and keeps it hidden until then. Then compare and discuss.
#
# Reminder of the dice the explorer uses (fan data; the rulebooks print icons only): the black
# attack die has 3 melee hits, 2 ranged hits and 1 CRIT; the white defence die has 1 shield,
# 1 CRIT and 4 blanks. A CRIT is a success and rolls one more die, again and again (AQ-RB p.9).

# %%
import explorer
from explorer import lessons
from explorer.panels.common.exercise import Predict

# %% [markdown]
# ## 1. Three dice, more than three hits?
#
# A melee attack with 3 dice against a target with no defence.

# %%
three = {"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee"}, "defence": {"dice": 0},
         "target": {"life": 3}}
three_report = explorer.resolve(three)
Predict("What is the chance of scoring at least 3 hits with 3 melee dice?",
        lessons.at_least(three_report, "hits", 3), kind="chance", tolerance=5,
        explain="Each die succeeds on 4 faces of 6 (3 melee hits and the CRIT), and every CRIT adds a die: "
                "3 dice can give 4, 5 or more hits.",
        then=lessons.distributions(three_report, {"hits": "hits"}))

# %% [markdown]
# ## 2. The rulebook's troll
#
# The Rusty Sword (3 melee dice, 1 reroll in this example) against Schmetterling: 3 defence
# dice, 2 rerolls, 3 Wounds already taken, Life 5 (AQ-RB p.12; the Life is an example).

# %%
troll = lessons.example("arcadia-troll.json")
troll_report = explorer.resolve(troll)
Predict("What is the chance that this attack kills the troll (2 more Wounds or better)?",
        lessons.value(troll_report, "kill"), kind="chance", tolerance=5,
        explain="Wounds are hits minus saves (INF-RB p.18); 2 or more Wounds kill it. The troll's rerolls make "
                "its saves better than 3 plain defence dice would.",
        then=lessons.distributions(troll_report, {"hits": "hits", "saves": "saves", "wounds": "wounds"}, cut=0.005))

# %% [markdown]
# ## 3. One more die, or one more reroll?

# %%
options = {
    "one more die": lessons.changed(troll, {"attack.dice": 4}),
    "one more reroll": lessons.changed(troll, {"attack.rerolls": 2}),
}
choice = lessons.compare(options, {"probability of a kill": "kill"})
Predict("Against the troll, which raises the chance to kill more: 'one more die' or 'one more reroll'?",
        choice["probability of a kill"].idxmax(), kind="text",
        explain="A reroll is spent only on a failed die and may fail again; an extra die is a whole new chance, "
                "with its own CRIT.",
        then=choice.round(3))

# %% [markdown]
# ## 4. A whole hero action
#
# The action the app opens with: Greensleeves shoots the Hammer Beastman while an Orc Marauder
# and a Goblin Archer stand close to her (the rulebook's Guard example). The beastman pays back
# unless overkilled; the two others guard (AQ-RB p.11).

# %%
action = explorer.resolve(lessons.start("arcadia-quest"))
Predict("What is the chance that Greensleeves kills the beastman AND survives the whole action?",
        lessons.value(action, "kill_and_survive"), kind="chance", tolerance=5,
        explain="She must kill, then live through the Payback (unless overkill) and both Guard attacks. Each "
                "reaction is one more roll against her small defence.")

# %% [markdown]
# ## To discuss
#
# - Which question surprised the group most, and why?
# - In the app's Arcadia Quest tab (it opens with question 4's action), which single change
#   (card, reroll, a monster moved away) raises question 4's chance the most?
