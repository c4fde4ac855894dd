"""Frozen value types of an Assault of the Giants battle: dice, modifiers, units, sides."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Literal, get_args

from explorer.core.dist import Dist
from explorer.scenario.sourced import EXAMPLE

__all__ = [
    "Symbols", "CombatDie", "Modifiers", "Unit", "Side", "Battle", "Status", "BattleCard",
    "CASUALTY_ORDERS", "REROLL_POLICIES", "FIXED_POLICIES", "OBJECTIVES", "CARD_KINDS", "CARD_REROLLS",
    "CasualtyOrder", "RerollPolicy", "FixedPolicy", "Objective", "CardKind", "CardRerolls",
]

Symbols = tuple[int, int, int]
"""Counts on one die face: (hit, block, arcane), a `explorer.core.engine.Face` in that order; a blank face, a miss, is (0, 0, 0)."""

CasualtyOrder = Literal["listed", "fewest-op"]
"""How a side picks which unit absorbs damage next (scenario key ``casualty_order``)."""
CASUALTY_ORDERS: tuple[CasualtyOrder, ...] = get_args(CasualtyOrder)
"""The values of `CasualtyOrder`, in the order the scenario reader lists them."""

FixedPolicy = Literal["misses", "blanks", "none"]
"""Reroll policies that read only the side's own roll (the count engine's, `combat.POLICIES`)."""
FIXED_POLICIES: tuple[FixedPolicy, ...] = get_args(FixedPolicy)
"""The values of `FixedPolicy`."""

RerollPolicy = Literal[FixedPolicy, "best"]
"""Which dice a side rerolls (scenario key ``reroll_policy``); ``misses`` is the spec's.
``best`` rerolls and converts to maximise the side's `Objective` (`best`)."""
REROLL_POLICIES: tuple[RerollPolicy, ...] = get_args(RerollPolicy)
"""The values of `RerollPolicy`: `FIXED_POLICIES`, then ``best``."""

Objective = Literal["ordning-points", "net-ordning-points", "damage", "wipe-out"]
"""What a side playing ``best`` maximises (scenario key ``objective``): its expected Ordning Points
earned, earned minus conceded, expected damage dealt, or the chance the enemy army is wiped out."""
OBJECTIVES: tuple[Objective, ...] = get_args(Objective)
"""The values of `Objective`."""


class Status(Enum):
    """What a unit looks like after the battle."""

    HEALTHY = "healthy"
    """Unharmed, healthy side up."""
    WOUNDED = "wounded"
    """Flipped to (or still on) its wounded side."""
    DEFEATED = "defeated"
    """Removed from the board."""


@dataclass(frozen=True, slots=True)
class CombatDie:
    """A combat die: six faces, each a (hit, block, arcane) count.

    >>> die = CombatDie("coin", ((1, 0, 0), (0, 0, 0)) * 3)
    >>> die.dist().probability((1, 0, 0))
    Fraction(1, 2)
    """

    name: str
    faces: tuple[Symbols, ...]
    source: str = EXAMPLE

    def dist(self) -> Dist[Symbols]:
        """Distribution of the face rolled."""
        return Dist.uniform(self.faces)

    def worth(self, arcane_value: int) -> Fraction:
        """Expected hits + blocks of a fresh roll, an arcane counted as `arcane_value`.

        >>> CombatDie("d", ((1, 0, 0), (0, 1, 0), (0, 0, 1)) * 2).worth(2)
        Fraction(4, 3)
        """
        total = sum(h + b + arcane_value * a for h, b, a in self.faces)
        return Fraction(total, len(self.faces))


@dataclass(frozen=True, slots=True)
class Modifiers:
    """The dice modifications a side may use in one battle (each used once, all at once)."""

    rerolls: int = 0
    """Dice that may be rerolled (cards right of Leader; NPC: up to 2)."""
    arcane_to_hits: int = 0
    """Arcane results that may each become 2 hits (cards left of Attack; attacker only)."""
    arcane_to_blocks: int = 0
    """Arcane results that may each become 1 block (cards right of Magic; NPC: up to 2)."""
    source: str = "explicit"
    """Where the numbers came from: "commands", "npc", "explicit" or a mix."""
    card_rerolls: int = 0
    """Dice that may be rerolled in a second round, after the first round's results are known
    (the cards' rerolls, p.16: cards come after the Command Cards); a die may be rerolled again."""


@dataclass(frozen=True, slots=True)
class Unit:
    """One giant (or giantslayer) unit, with the values printed on its token.

    >>> Unit("hill giant", fortitude=3, wounded_fortitude=2, ordning_value=1).current_fortitude
    3
    """

    name: str
    fortitude: int
    wounded_fortitude: int
    ordning_value: int = 0
    wounded: bool = False
    champion: bool = False

    @property
    def current_fortitude(self) -> int:
        """Fortitude of the side showing at the start of the battle."""
        return self.wounded_fortitude if self.wounded else self.fortitude

    def giantslayer_reward(self) -> int:
        """Ordning Points a giantslayer attack earns for defeating this unit: half, rounded up.

        Integer arithmetic, so it stays exact for any whole number (float division does not).

        >>> Unit("g", 3, 2, ordning_value=3).giantslayer_reward()
        2
        >>> Unit("g", 3, 2, ordning_value=10**17 + 1).giantslayer_reward() == 5 * 10**16 + 1
        True
        """
        return (self.ordning_value + 1) // 2


CardKind = Literal["spell", "resource"]
"""Kinds of card a side may play in battle, before final totals (p.16: Spell Cards and Resource Cards)."""
CARD_KINDS: tuple[CardKind, ...] = get_args(CardKind)
"""The values of `CardKind`."""

CardRerolls = Literal["second round", "with commands"]
"""When a side's card rerolls are taken (scenario key ``card_rerolls``). ``second round``, the
default: after the Command rerolls' results are known, in a round of their own that may reroll a
die again (p.16: Spell and Resource Cards modify the dice after the Command Cards). ``with
commands``: together with the Command rerolls, all at once, each die once (the reading before
this ruling, kept as an option)."""
CARD_REROLLS: tuple[CardRerolls, ...] = get_args(CardRerolls)
"""The values of `CardRerolls`, the default first."""


@dataclass(frozen=True, slots=True)
class BattleCard:
    """A Spell or Resource Card played in battle "before determining your final totals" (p.16-17).

    The card texts are not in the pages we have: every effect is what the user enters from the
    card (0 when left out). `cards.played` folds the effects into the side's roll.

    >>> card = BattleCard("Ore", "resource", hits=1, rerolls=1)
    >>> card.flat()
    BattleCard(name='Ore', kind='resource', hits=1, blocks=0, rerolls=0, arcane_to_hits=0, arcane_to_blocks=0, dice=())
    """

    name: str
    kind: CardKind
    hits: int = 0
    """Hits added to the final hit total (after conversions)."""
    blocks: int = 0
    """Blocks added to the final block total (after conversions)."""
    rerolls: int = 0
    """More dice that may be rerolled: in a second round after the Command rerolls, or with them
    (`Side.card_rerolls`)."""
    arcane_to_hits: int = 0
    """More arcane results that may each become 2 hits."""
    arcane_to_blocks: int = 0
    """More arcane results that may each become 1 block."""
    dice: tuple[tuple[CombatDie, int], ...] = ()
    """More dice rolled with the side's pool: (die, how many)."""

    def flat(self) -> BattleCard:
        """The card with only its flat hits and blocks (what is left once its other effects are folded in)."""
        return BattleCard(self.name, self.kind, self.hits, self.blocks)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a battle: its dice, its modifiers and its units."""

    pool: tuple[tuple[CombatDie, int], ...]
    modifiers: Modifiers
    units: tuple[Unit, ...]
    npc: bool = False
    giantslayers: bool = False
    casualty_order: CasualtyOrder = "listed"
    reroll_policy: RerollPolicy = "misses"
    commands: tuple[str, ...] = ()
    player: str = ""
    objective: Objective = "ordning-points"
    cards: tuple[BattleCard, ...] = ()
    """Spell and Resource Cards played before final totals (p.16-17), on top of `pool` and `modifiers`."""
    card_rerolls: CardRerolls = "second round"
    """When the cards' rerolls are taken (`CardRerolls`)."""

    @property
    def dice_count(self) -> int:
        """Number of dice rolled: the pool's and the cards' (`BattleCard.dice`)."""
        return sum(n for _, n in self.pool) + sum(n for card in self.cards for _, n in card.dice)


@dataclass(frozen=True, slots=True)
class Battle:
    """An attacker and a defender; both roll, both sustain casualties."""

    attacker: Side
    defender: Side
    notes: tuple[str, ...] = field(default=())
