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
# # A Game of Thrones: a challenge, a round, and the odds of the cards
#
# In *A Game of Thrones: The Card Game* (2nd edition) there are no dice: a challenge is decided
# by comparing strength (STR), and chance enters only through the cards. This lesson follows
# one challenge step by step, then a round of challenges with dominance, then the card odds the
# explorer computes exactly. Steps and pages refer to the **Rules Reference** (RR).
#
# The characters in the examples are made up to show one rule each; they are not real cards.

# %%
import explorer
from explorer import lessons
from explorer.app import show

# %% [markdown]
# ## 1. One challenge, D.U.C.K.
#
# After attackers and defenders are declared, a challenge resolves in four steps, often
# remembered as D.U.C.K. (RR 4.2.2 to 4.2.5): **D**etermine the winner (more STR wins, a tie goes
# to the attacker, and a side needs at least 1 STR to win), the **U**nopposed bonus (1 power if
# the defence counted 0 STR), the **C**laim (here a power claim: power moves from the loser's
# faction card to the winner's), then the **K**eywords such as renown.
#
# The example: an attacker on 13 power attacks with 5 STR against a kneeling steward of 0 STR.

# %%
challenge = lessons.example("agot-power-challenge.json")
report = explorer.resolve(challenge)
lessons.records(report, "steps", {"step (RR)": "step", "what happens": "event", "power": "power"})

# %% [markdown]
# The unopposed bonus and one power of claim bring the attacker to 15: the game ends at once
# (RR p.23), before renown would add anything. With a defender of some STR the challenge is no
# longer unopposed; here is what the defender's STR changes:

# %%
lessons.vary(challenge, "challenge.defenders[0].str", range(0, 7), {
    "winner": "winner",
    "unopposed": "unopposed",
    "attacker's power after": "power_after.attacker",
})

# %% [markdown]
# ## 2. A military claim kills
#
# A military claim makes the loser kill as many of their characters as the claim says, chosen
# by the loser, participating or not (RR "Claim"). The explorer's default choice is the one that
# loses the least power; the example also uses **prized**, which pays the attacker power for a
# prized character killed:

# %%
military = explorer.resolve(lessons.example("agot-military-claim.json"))
lessons.value(military, "claim_effects")

# %% [markdown]
# ## 3. A round of challenges, then dominance
#
# Each player may make one challenge of each type (military, intrigue, power), the first player
# first. Every attacker and defender kneels, which matters at **dominance**: each player counts
# the STR of their *standing* characters plus their gold, and the higher total gains 1 power
# (RR 5.2). The round the app opens with (`lessons.start`), so the panel below shows it too:

# %%
round_report = explorer.resolve(lessons.start("agot-lcg"))
lessons.records(round_report, "challenges", {"attacking player": "attacker", "challenge": "type",
                                             "attackers": "attackers", "defenders": "defenders",
                                             "winner": "winner_player", "not made because": "dropped"})

# %%
lessons.value(round_report, "power_before"), lessons.value(round_report, "dominance"), lessons.value(round_report, "power_after")

# %% [markdown]
# ## 4. The odds of the cards
#
# Where chance does enter, it is exact: an **intrigue claim** discards cards at random from the
# loser's hand (RR "Claim"); a **draw** of 2 cards a round follows a setup hand of 7 and an
# optional mulligan (RR "Setup"). The chance of having found at least one of 3 copies in a
# 60-card deck, round by round (round 0 is the setup hand):

# %%
odds = explorer.resolve(lessons.example("agot-card-odds.json"))
lessons.distributions(odds, {"chance of at least one copy": "draw.by_round"}, rows="round")

# %% [markdown]
# ## Your turn
#
# The panel holds the same round of challenges: change a character's STR, a player's gold, who
# is first, and see the power and the claims follow; its second tab has the card odds.
# `22-workshop-a-game-of-thrones` has exercises for a group.

# %%
show("agot-lcg")
