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
# # What if? Sweeps, comparisons and tables to take away
#
# A rules question is often a comparison: *is this card worth more than that die?* This
# notebook answers three such questions exactly, then saves the tables as CSV files for a
# spreadsheet or a handout. Every row is one exact resolution, so the tables are not noisy:
# a difference of 0.1 points is a real difference.
#
# The Assault of the Giants battle is the one the app opens with (`lessons.start`), so the app
# shows the same numbers. Its values are the explorer's **examples** (the rulebook pages we have
# print no dice faces or unit values): put your own in the scenario before concluding anything
# about your box.

# %%
from explorer import charts, lessons

battle = lessons.start("assault-of-the-giants")
battle["attacker"]["commands"], battle["attacker"]["pool"]

# %% [markdown]
# ## 1. A card's position against one more die
#
# The attacker played Leader first and Attack last (the battle starts with Attack, p.17): three
# cards after Leader give three rerolls, three cards before Attack turn up to three arcane
# results into two hits each, and one card after Magic turns one arcane into a block (p.16).
# What if Magic had come first instead (fewer rerolls, more blocks), or the row were one card
# shorter? And is one more basic die worth more than a card's position?

# %%
options = {
    "as played": battle,
    "Magic first": lessons.changed(battle, {"attacker.commands": ["Magic", "Leader", "Move", "Attack"]}),
    "one card fewer": lessons.changed(battle, {"attacker.commands": ["Leader", "Magic", "Attack"]}),
    "one more basic die": lessons.changed(battle, {"attacker.pool.basic": battle["attacker"]["pool"]["basic"] + 1}),
}
outcomes = {
    "expected damage to the defender": "defender.means.damage_taken",
    "probability the defender is wiped out": "defender.wiped_out",
    "expected Ordning Points (attacker)": "attacker.means.ordning_points",
}
table = lessons.compare(options, outcomes).round(3)
table

# %% [markdown]
# ## 2. A sweep: basic dice against rerolls
#
# Each cell is one exact battle: the attacker's basic dice across, the rerolls (as if from the
# command row) down, the chance the whole hill army falls in the cell.

# %%
grid = lessons.grid(battle, "attacker.pool.basic", range(2, 8), "attacker.rerolls", range(0, 4), "defender.wiped_out")
charts.sweep_heatmap(grid.columns, grid.index, grid.values, x_title="attacker basic dice",
                     y_title="attacker rerolls", outcome_title="chance the defender is wiped out")

# %% [markdown]
# Read a row from left to right to see what one more die buys, a column from top to bottom for
# one more reroll. Where a reroll buys about as much as a die, the card is worth a die.

# %% [markdown]
# ## 3. The same tool on another game
#
# Arcadia Quest: the Rusty Sword against the Troll of the rulebook's example (AQ rulebook p.12).
# How does the chance to kill grow with the attack dice (across) and the rerolls in the pool (down)?

# %%
troll = lessons.example("arcadia-troll.json")
lessons.grid(troll, "attack.dice", range(2, 6), "attack.rerolls", range(0, 3), "kill", as_percent=True)

# %% [markdown]
# ## 4. Tables to take away
#
# Every table here saves itself: `to_csv` for a spreadsheet, `to_html` for a handout (a pandas
# DataFrame where pandas is installed, the same table without it, as in the in-browser lab). `lessons.output_file` names a file under `build/exports/`.

# %%
table.to_csv(lessons.output_file("what-if-options.csv"))
grid.round(4).to_csv(lessons.output_file("what-if-sweep.csv"))
lessons.output_file("what-if-options.csv").read_text().splitlines()[:3]
