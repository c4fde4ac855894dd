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
# # Assault of the Giants: one battle, step by step
#
# A battle in *D&D: Assault of the Giants* (WizKids 2017) has four moving parts, and this lesson
# takes them one at a time: **the dice** each side rolls, **the command row** that rerolls and
# converts them, **the casualties** the damage causes, and **the Ordning Points** the winner
# scores. Page numbers are the English rulebook's.
#
# The battle is the one the app opens with (`lessons.start`), so the panel at the end shows the
# same numbers. **Check them against your box.** The pages we could read print neither the dice
# faces nor the units' Fortitude and Ordning Values, so the battle uses *example* values (`dice`
# and `units` in the scenario): the method is the rulebook's, the numbers are not.

# %%
import explorer
from explorer import charts, lessons
from explorer.app import show

battle = lessons.start("assault-of-the-giants")
report = explorer.resolve(battle)

# %% [markdown]
# ## 1. The dice
#
# Both sides roll: the attacker a pool of basic dice plus its race's special die, the defender
# likewise. A face can show several symbols (up to 4 hits, 2 blocks or 2 arcane, p.16); an
# arcane counts for nothing unless a card converts it. The battle's basic die:

# %%
battle["dice"]["basic"]

# %% [markdown]
# ## 2. The command row
#
# Before totals are counted, the attacker may use its face-up Command Cards (p.16): each card to
# the **right** of Leader rerolls one die, each card to the **right** of Magic turns one arcane
# into a block, each card to the **left** of Attack turns one arcane into two hits. The battle
# starts when Attack is played, so Attack is the last card of the row (p.17). The attacker's
# row, and what it gives:

# %%
battle["attacker"]["commands"], lessons.value(report, "attacker.modifiers")

# %% [markdown]
# The same row read as numbers: change the order and the numbers move. Here the attacker's
# expected hits for three orders of the same four cards:

# %%
orders = {
    "Leader, Move, Magic, Attack": ["Leader", "Move", "Magic", "Attack"],
    "Magic, Leader, Move, Attack": ["Magic", "Leader", "Move", "Attack"],
    "Move, Magic, Leader, Attack": ["Move", "Magic", "Leader", "Attack"],
}
lessons.vary(battle, "attacker.commands", orders, {
    "expected hits": "attacker.means.hits",
    "expected blocks": "attacker.means.blocks",
    "expected damage to the defender": "defender.means.damage_taken",
}).round(3)

# %% [markdown]
# ## 3. Hits, blocks and damage
#
# Each block cancels one of the other side's hits; what remains is damage (p.17). The
# defender's blocks matter as much as the attacker's hits:

# %%
lessons.distributions(report, {
    "attacker hits": "attacker.hits",
    "defender blocks": "defender.blocks",
    "damage to the defender": "defender.damage_taken",
})

# %% [markdown]
# ## 4. Casualties
#
# The defender gives the damage to one unit at a time (p.17). A unit whose Fortitude is higher
# than the damage left is wounded (flipped); a wounded unit hit again, or one whose Fortitude the
# damage reaches, is defeated, and the damage left goes on to the next unit. Both sides here
# take their units in the order listed, champions first (`casualty_order` in the scenario; the
# other choice, `fewest-op`, picks the order that gives away the fewest Ordning Points).

# %%
lessons.fates(report, "defender")

# %%
charts.battle_figures(report.result)["casualties"]

# %% [markdown]
# ## 5. Ordning Points
#
# Each side earns the Ordning Value of every enemy unit it defeats: that is the score of the
# game. The attacker's points follow the defender's losses, and the other way round:

# %%
lessons.distributions(report, {
    "attacker earns": "attacker.ordning_points",
    "defender earns": "defender.ordning_points",
})

# %% [markdown]
# ## 6. NPC giants
#
# In games with fewer than five players some races are not played (NPC giants). They only
# defend, reroll up to 2 dice, turn up to 2 arcane into blocks and always roll their special
# die; defeating them scores as usual, while the units they defeat score for no one (p.20).
# The example has storm giants attack NPC stone giants:

# %%
npc = explorer.resolve(lessons.example("npc-stone-giants.toml"))
lessons.value(npc, "defender.modifiers")

# %% [markdown]
# And the chance that the storm giants defeat every stone giant:

# %%
lessons.chances(npc, {"the stone giants are wiped out": "defender.wiped_out"})

# %% [markdown]
# ## Your turn
#
# The panel holds the same battle: try a wounded unit, another race, or the NPC switch, and
# watch the four charts. The workshop notebook `20-workshop-assault-of-the-giants` has
# exercises to do with a group.

# %%
show("assault-of-the-giants")
