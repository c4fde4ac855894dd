"""The exact engine of symbol dice: pools of kinds of dice, rerolls decided on counts, conversions.

One way through, in one direction: `types` (dice as count tuples, conversions, policies, the plan
of a request) ← `plan` (lays a request out) ← `cost` (weighs it before computing) ← `parts` and
`dp` (compute it) ← `roll` (the entry point, cached); `rounds` computes two rounds of rerolls (a
second round's policy reading the dice as the first left them: `roll_counts(second_rerolls=...)`).
Games import this package's names:

>>> from explorer.core.engine import REROLL_BLANKS, roll_counts
>>> roll_counts([(((1,), (0,)), 2)], ["hit"], rerolls=1, policy=REROLL_BLANKS).probability((2,))
Fraction(1, 2)
"""

from explorer.core.engine.roll import clear_caches, planned, roll_cost, roll_counts, roll_weight
from explorer.core.engine.types import (
    MAX_WORK,
    NO_REROLLS,
    REROLL_BLANKS,
    Conversion,
    CountPolicy,
    Face,
    Faces,
    Pass,
    by_worth,
    convert,
    multinomial,
    symbol_values,
)

__all__ = [
    "MAX_WORK", "NO_REROLLS", "REROLL_BLANKS", "Conversion", "CountPolicy", "Face", "Faces", "Pass", "by_worth",
    "clear_caches", "convert", "planned", "multinomial", "roll_cost", "roll_counts", "roll_weight", "symbol_values",
]
