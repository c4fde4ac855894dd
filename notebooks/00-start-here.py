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
# # A ten-minute tour of the rules explorer
#
# The explorer answers one kind of question exactly: *given these dice, these cards and these
# units, what can happen in this fight, and how likely is each outcome?* No sampling: every
# probability below is computed from every way the dice can fall.
#
# Three games are covered: **D&D: Assault of the Giants**, **Arcadia Quest** and **A Game of
# Thrones: The Card Game** (2nd edition). This tour uses the first; each game has its own lesson
# (`10-...`, `11-...`, `12-...`) and a workshop notebook with exercises (`20-...` to `22-...`).
#
# *Run each cell in turn (Shift+Enter). Nothing here needs editing to work.*

# %%
import explorer
from explorer import charts, lessons
from explorer.app import show

# %% [markdown]
# ## 1. A scenario is a small file
#
# Every question starts as a **scenario**: a JSON or TOML file that says which game, who attacks,
# with which dice and units (the `examples/` folder holds some). This tour takes the battle the
# app opens with, fire giants attacking a hill giant army, so the numbers below are the ones the
# app shows at the end. Its dice faces and unit values are *examples*: the rulebook pages we could
# read do not print them, so check them against your own box.

# %%
battle = lessons.start("assault-of-the-giants")
battle["attacker"]["commands"], battle["attacker"]["pool"], battle["defender"]["pool"]

# %% [markdown]
# ## 2. One call resolves it
#
# `explorer.resolve` reads the scenario and returns a **report**. The attacker's row of Command
# Cards becomes rerolls and conversions (rulebook p.16): one reroll per card to the right of
# Leader, one arcane turned into a block per card to the right of Magic, one arcane turned into
# two hits per card to the left of Attack.

# %%
report = explorer.resolve(battle)
lessons.value(report, "attacker.modifiers")

# %% [markdown]
# ## 3. What the dice give
#
# The attacker's hits against the defender's blocks, and the damage that gets through
# (hits minus blocks, never below zero). Outcomes are in numeric order and every cell is a
# chance in percent; outcomes under 0.1% in every column, if any, are gathered in one last row.

# %%
lessons.distributions(report, {
    "attacker hits": "attacker.hits",
    "defender blocks": "defender.blocks",
    "damage to the defender": "defender.damage_taken",
})

# %% [markdown]
# ## 4. Who falls
#
# Damage is absorbed one unit at a time (rulebook p.17): a unit takes as much as it can, is
# wounded or defeated, and what is left goes to the next unit. For each hill giant, the chance
# of each fate:

# %%
lessons.fates(report, "defender")

# %% [markdown]
# ## 5. The same numbers as a chart
#
# Charts come from `explorer.charts`; this one gives both sides' Ordning Points, the game's
# score, earned for the enemy units each side defeats.

# %%
charts.battle_figures(report.result)["ordning_points"]

# %% [markdown]
# ## 6. The same numbers from the command line
#
# In a terminal, from the project folder, `python -m explorer resolve battle.json` prints the
# report of a scenario file as text (the app's **Scenario** tab downloads the battle you built as
# such a file; `examples/` holds more); add `--json` for the machine-readable form. The first
# lines of this battle's report:

# %%
print("\n".join(report.to_text().splitlines()[:6]))

# %% [markdown]
# ## 7. Change anything
#
# The panel below is the explorer's app for this game: change a die count, move a card, add a
# unit, and every chart follows. Its **Scenario** tab has *Copy link*: a link that opens the app
# on exactly what you built, to send to someone else.
#
# Where next: `01-what-if` (sweeps and tables to export), then the lesson for your game.

# %%
show("assault-of-the-giants")
