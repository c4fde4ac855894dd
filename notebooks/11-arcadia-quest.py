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
# # Arcadia Quest: one attack, then a whole hero action
#
# In *Arcadia Quest* (CMON 2014) a hero attacks with black dice, the target defends with white
# ones, and every CRIT is a success **and** rolls one more die, with no limit. This lesson builds
# up from one roll to a whole hero action: the attack, the monster's Payback and the Guard of
# the monsters standing close. Pages: **AQ-RB** is the base rulebook, **INF-RB** the Inferno
# rulebook, which restates the same core rules.
#
# **About the numbers.** The rulebooks print the dice icons but not the faces of each die; the
# explorer uses the faces two independent fan apps agree on (attack die: 3 melee hits, 2 ranged
# hits, 1 CRIT; defence die: 1 shield, 1 CRIT, 4 blanks), and fan-collected hero and monster
# cards. Check them against your copy.

# %%
import explorer
from explorer import lessons
from explorer.app import show
from explorer.charts.arcadia_quest import encounter_figures

# %% [markdown]
# ## 1. CRITs explode
#
# A CRIT always counts as a success and lets the roller add one more die; a CRIT on that die adds
# another, and so on (AQ-RB p.9). So three attack dice can give more than three hits. The chain
# never ends in principle; the explorer follows it until what is left is below one in a million
# million (1e-12) and says how much it left out (the table's last row).

# %%
attack = {"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee"}, "defence": {"dice": 0},
          "target": {"life": 3}}
lessons.distributions(explorer.resolve(attack), {"melee hits from 3 dice": "hits"})

# %% [markdown]
# A ranged attack succeeds on fewer faces of the same die (2 ranged hits and the CRIT, against
# 3 melee hits and the CRIT), so the same three dice do less:

# %%
lessons.vary(attack, "attack.kind", ["melee", "ranged"], {
    "expected hits": "means.hits",
    "probability of killing a Life 3 target": "kill",
}).round(3)

# %% [markdown]
# ## 2. Wounds are hits minus saves
#
# Each save blocks one hit; the hits left are Wounds (INF-RB p.18). The rulebook's troll,
# Schmetterling, defends with 3 dice and 2 rerolls and already carries 3 Wounds (AQ-RB p.12):

# %%
troll = lessons.example("arcadia-troll.json")
troll_report = explorer.resolve(troll)
lessons.distributions(troll_report, {"hits": "hits", "saves": "saves", "wounds": "wounds"}, cut=0.005)

# %% [markdown]
# ## 3. Killed, or overkilled
#
# A monster dies when its Wounds reach its Life. If one attack's Wounds also reach its
# **Overkill** value, it leaves at once; otherwise it still takes its Payback before going
# (AQ-RB p.12). Against the troll:

# %%
lessons.chances(troll_report, {"the troll dies": "kill", "it is overkilled (no Payback)": "overkill"})

# %% [markdown]
# ## 4. A whole hero action: Payback and Guard
#
# Attacking a monster wakes it: it may move and attack the hero back (**Payback**). Monsters
# close to the hero that were not attacked strike too (**Guard**, AQ-RB p.11). The action is the
# one the app opens with (`lessons.start`), the rulebook's Guard example: Greensleeves shoots a
# beastman while an orc and a goblin stand close to her.

# %%
action = explorer.resolve(lessons.start("arcadia-quest"))
lessons.chances(action, {"the beastman dies": "kill", "it pays back": "payback", "Greensleeves dies": "hero_killed",
                         "she kills it and survives": "kill_and_survive"})

# %%
encounter_figures(action.result)["outcomes"]

# %% [markdown]
# ## Your turn
#
# The panel holds the same hero action: change the hero, the card, the target or the monsters
# close by, and the charts follow. `21-workshop-arcadia-quest` has exercises for a group.

# %%
show("arcadia-quest")
