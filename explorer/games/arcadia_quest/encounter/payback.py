"""An attack that targets several Monsters: who they are, and which one the opponent activates for Payback.

The rule (printed p.21, the seed page): when a Hero's attack targets more than one Monster, only
one of the targeted Monsters is activated for Payback, and the player to the right of the active
player (the opponent, who controls the Monsters) chooses which. A Monster the attack overkilled
is removed at once and cannot be chosen; one that is killed but not overkilled still can.

How the opponent chooses (the ruling, shown in every report): after the attack's results are
known, that is for each outcome of the one attack roll and the targets' Defense rolls, he
activates the targeted Monster that is *worst for the hero*: the one whose Payback, followed by
the Guard attacks, gives the highest chance that the hero is killed in this action; on equal
chances, the one that gives the most Wounds expected (capped at the hero's Life left); on equal
both, the first listed. A file may name the Monster instead (``payback_by``): that one pays back
whenever it can; when it cannot (overkilled, or its Payback cannot reach the hero), the opponent
falls back to the worst for the hero among the others.

>>> spot = Targeted(Monster("Orc", attack=3, kind="melee", life=2, overkill=3))
>>> spot.close, spot.reaches, spot.monster.name
(False, True, 'Orc')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.encounter.fighters import Monster

__all__ = ["MAX_TARGETS", "WORST", "PaybackChoice", "Targeted", "check_targets", "choose_payback", "hero_risk"]

WORST = "worst for the hero"
"""The default of ``payback_by``: the opponent activates the targeted Monster worst for the hero."""
MAX_TARGETS = 4
"""Most Monsters one attack targets (the target and three more): a computing limit (Cleave and
Nova Bolt hit one more; each extra target multiplies the outcomes followed)."""


@dataclass(frozen=True, slots=True)
class Targeted:
    """A Monster the hero's attack targets, and where it stands.

    Attributes:
        monster: its card and state (Wounds, Daze, ...).
        close: it is Close to the hero (targeting it fends off every Close Monster's Guard, printed p.20).
        reaches: its Payback can reach the hero (movement and line of sight are not modelled).
        other_guild_tokens: other Guilds holding a token on this Villain (each is paid its Reward if it dies).
    """

    monster: Monster
    close: bool = False
    reaches: bool = True
    other_guild_tokens: int = 0
    at: str = field(default="target", repr=False, compare=False)


def check_targets(targets: Sequence[Targeted], payback_by: str, guilds: int) -> None:
    """Refuse too many targets, two with one name, tokens on a non-Villain, or a ``payback_by`` naming none.

    Raises:
        ScenarioError: naming the field (``also_targets``, ``also_targets[0].name``, ``payback_by``, ...).

    >>> orc = Monster("Orc", attack=3, kind="melee", life=2)
    >>> check_targets([Targeted(orc), Targeted(orc, at="also_targets[0]")], WORST, 4)
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: also_targets[0].name: two targeted Monsters are named "Orc"; give each a name of its own (the Payback is chosen by name)
    """
    if len(targets) > MAX_TARGETS:
        raise ScenarioError("also_targets", f"at most {MAX_TARGETS - 1} more targets (a computing limit), "
                                            f"got {len(targets) - 1}")
    seen: set[str] = set()
    for spot in targets:
        name = spot.monster.name
        if name in seen:
            raise ScenarioError(f"{spot.at}.name", f'two targeted Monsters are named "{name}"; give each a name of '
                                                   "its own (the Payback is chosen by name)")
        seen.add(name)
        if not 0 <= spot.other_guild_tokens <= guilds - 1:
            raise ScenarioError(f"{spot.at}.other_guild_tokens", f"must be 0 to guilds - 1 ({guilds - 1}), got "
                                                                 f"{spot.other_guild_tokens}")
        if spot.other_guild_tokens and not spot.monster.villain:
            raise ScenarioError(f"{spot.at}.other_guild_tokens", "only a Villain carries Guild tokens (Arcadia Quest rulebook p.12); "
                                                                 "make it a Villain or leave this at 0")
    if payback_by != WORST and payback_by not in seen:
        allowed = ", ".join(f'"{n}"' for n in [WORST, *seen])
        raise ScenarioError("payback_by", f"must be one of {allowed} (a targeted Monster's name), got "
                                          f"{payback_by!r}")


def hero_risk(side: Dist[tuple[int, bool]], life_left: int) -> tuple[Fraction, Fraction]:
    """How bad the rest of the action is for the hero: (P(he is killed), expected Wounds he takes).

    >>> hero_risk(Dist.uniform([(0, False), (2, False)]), 2)
    (Fraction(1, 2), Fraction(1, 1))
    """
    return side.where(lambda state: state[0] >= life_left), side.map(lambda state: state[0]).mean()


@dataclass(frozen=True, slots=True)
class PaybackChoice:
    """Which targeted Monster pays back in one outcome of the attack (None: none), and why."""

    index: int | None
    reason: str


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def choose_payback(names: Sequence[str], candidates: Sequence[int],
                   risk: Callable[[int], tuple[Fraction, Fraction]], payback_by: str) -> PaybackChoice:
    """The opponent's choice among `candidates` (indices into `names`); `risk(i)` is candidate i's `hero_risk`,
    asked for only when there is a choice to make.

    >>> risks = {0: (Fraction(1, 10), Fraction(1)), 1: (Fraction(1, 3), Fraction(1, 2))}
    >>> choose_payback(["Orc", "Goblin"], [0, 1], risks.__getitem__, WORST).index
    1
    >>> choose_payback(["Orc", "Goblin"], [0, 1], risks.__getitem__, "Orc").index
    0
    >>> choose_payback(["Orc", "Goblin"], [], risks.__getitem__, WORST).index is None
    True
    """
    if not candidates:
        return PaybackChoice(None, "no targeted Monster can pay back (each is overkilled or cannot reach the hero)")
    if payback_by in names and names.index(payback_by) in candidates:
        return PaybackChoice(names.index(payback_by), f"the file names the {payback_by} (payback_by)")
    fallback = f"the {payback_by} (payback_by) cannot pay back; " if payback_by != WORST else ""
    if len(candidates) == 1:
        return PaybackChoice(candidates[0], f"{fallback}the only targeted Monster that can pay back is the "
                                            f"{names[candidates[0]]}")
    risks = [risk(i) for i in candidates]
    chosen = candidates[max(range(len(candidates)), key=lambda j: (risks[j], -candidates[j]))]
    table = "; ".join(f"{names[i]}: P(hero killed) {_percent(k)}, {float(w):.2f} Wounds expected"
                      for i, (k, w) in zip(candidates, risks))
    return PaybackChoice(chosen, f"{fallback}the opponent picks the {names[chosen]}, the worst for the hero (highest "
                                 f"P(hero killed), then most Wounds expected, then first listed): {table}")
