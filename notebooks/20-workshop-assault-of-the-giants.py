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
# # Workshop: Assault of the Giants, predict then reveal
#
# **How to use this notebook with a group.** Run the cells one at a time. For each question,
# everyone writes down a guess (on paper, or in the box) *before* anyone presses **Reveal**; the
# answer is computed by the explorer when the cell runs and stays hidden until then. Then
# discuss: who was close, and why? Each answer comes with a short explanation, and some with a
# table to look at together.
#
# The battle is the one the app opens with (fire giants attack a hill giant army), so the app
# shows the same numbers. Its dice and unit values are examples, not the printed ones: the method
# is the rulebook's, the numbers are not.

# %%
import explorer
from explorer import lessons
from explorer.panels.common.exercise import Predict

battle = lessons.start("assault-of-the-giants")
report = explorer.resolve(battle)
battle["attacker"]["commands"], battle["attacker"]["pool"], battle["defender"]["pool"]

# %% [markdown]
# ## 1. How hard do the fire giants hit?
#
# Five dice (four basic, one fire), three rerolls from the cards after Leader, and three arcane
# results that can become two hits each (cards before Attack, rulebook p.16).

# %%
Predict("On average, how many hits do the fire giants score, after rerolls and conversions?",
        lessons.value(report, "attacker.means.hits"), kind="number", tolerance=0.5,
        explain="The average counts every way the five dice can fall, each rerolled miss and each converted "
                "arcane included. The table shows how spread out the hits are around that average.",
        then=lessons.distributions(report, {"attacker hits": "attacker.hits"}))

# %% [markdown]
# ## 2. Does the hill army survive?

# %%
Predict("What is the chance that all three hill giants are defeated in this battle?",
        lessons.value(report, "defender.wiped_out"), kind="chance", tolerance=5,
        explain="Damage is hits minus blocks, absorbed one unit at a time in the order listed (p.17): the "
                "hill elite, last in line, falls only when the damage gets past both giants, so its chance "
                "is the whole army's.",
        then=lessons.fates(report, "defender"))

# %% [markdown]
# ## 3. A die or a reroll?
#
# The fire player could add one more basic die, or get one more reroll (one more card after
# Leader, four rerolls instead of three). Which raises the expected damage to the hill army more?

# %%
options = {
    "one more die": lessons.changed(battle, {"attacker.pool.basic": battle["attacker"]["pool"]["basic"] + 1}),
    "one more reroll": lessons.changed(battle, {"attacker.rerolls": 4}),
}
choice = lessons.compare(options, {"expected damage to the defender": "defender.means.damage_taken"})
Predict("Which adds more expected damage: 'one more die' or 'one more reroll'?",
        choice["expected damage to the defender"].idxmax(), kind="text",
        explain="A reroll only helps when a die shows nothing useful, and the rerolled die can fail again; a "
                "new die always adds a whole roll. How often the example die shows nothing decides which wins.",
        then=choice.round(3))

# %% [markdown]
# ## 4. A wounded elite instead of a healthy one
#
# The hill elite, last in line, starts the battle healthy. If it were already wounded, how
# likely would the wipe-out be?

# %%
wounded = lessons.changed(battle, {"defender.units[2].wounded": True})
Predict("With the hill elite wounded, what is the chance the whole hill army falls?",
        lessons.answer(wounded, "defender.wiped_out"), kind="chance", tolerance=5,
        explain="A healthy unit whose Fortitude is more than the damage left is only wounded; a wounded one is "
                "defeated by any damage that reaches it (p.17). Compare with question 2.")

# %% [markdown]
# ## 5. Points on the board
#
# Each defeated enemy unit gives its Ordning Value to the side that defeated it.

# %%
Predict("How many Ordning Points does the fire side earn on average from this battle?",
        lessons.value(report, "attacker.means.ordning_points"), kind="number", tolerance=0.5,
        explain="The average over every outcome: each defeated hill giant gives 1 point and the hill elite 2 "
                "(example values), so the whole army is worth 4 and the average follows the casualties.",
        then=lessons.distributions(report, {"Ordning Points": "attacker.ordning_points"}))

# %% [markdown]
# ## To discuss
#
# - Which guesses were furthest off, and what did people overlook?
# - Open the app (`explorer.ipynb`, or the Binder link) and build a battle from your own box:
#   *Copy link* in its Scenario tab gives a link to send to the group.
