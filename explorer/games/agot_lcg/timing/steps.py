"""Timing as data: the framework steps of challenge resolution and "would" interrupt priority.

Sources: Rules Reference (2015) Appendix I, p.28 (steps 4.2 to 4.2.2 seen on the page; 4.2.3 to
4.2.6 from the full transcription, page not verified), the "Unopposed" entry p.23 (the bonus is
gained during 4.2.3), the "Would" entry p.23, and the "Triggering Condition", "Cancel" and
"Forced" entries (pages not verified). See ``shared/rules/agot-lcg.md`` sections 1.1 and 4.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "FRAMEWORK_STEPS", "TRIGGER_SEQUENCE", "FrameworkStep", "Interrupt", "order_interrupts",
    "priority", "step", "usable_interrupts",
]


@dataclass(frozen=True, slots=True)
class FrameworkStep:
    """One framework step of challenge resolution and the timing window that follows it."""

    number: str
    name: str
    source: str
    window_after: str


_P28 = "Rules Reference p.28 (Appendix I)"
_APPENDIX = "Rules Reference Appendix I (page not verified)"

FRAMEWORK_STEPS: tuple[FrameworkStep, ...] = (
    FrameworkStep("4.2", "Challenge is initiated (type, opponent, attackers knelt at once)", _P28,
                  "action window"),
    FrameworkStep("4.2.1", "Defending player declares defenders", _P28, "action window"),
    FrameworkStep("4.2.2", "Compare STR to determine challenge winner (and unopposed)", _P28,
                  "reactions to winning and/or losing the challenge"),
    FrameworkStep("4.2.3", "Gain challenge bonuses (unopposed: +1 power on the attacker's faction card)",
                  _APPENDIX + "; Rules Reference p.23 (Unopposed)", "interrupts and reactions to the gain"),
    FrameworkStep("4.2.4", "Apply claim result (attacker wins only)", _APPENDIX,
                  "interrupts and reactions to the claim"),
    FrameworkStep("4.2.5", "Process challenge resolution keywords (insight, intimidate, pillage, renown)",
                  _APPENDIX, "interrupts and reactions to each keyword"),
    FrameworkStep("4.2.6", "Challenge ends (characters stop participating)", _APPENDIX,
                  "action window before the next challenge"),
)
"""The framework steps 4.2.x in order, with the window that follows each."""

TRIGGER_SEQUENCE: tuple[str, ...] = (
    "the triggering condition becomes imminent",
    "'would' interrupts to it may be used (cancels work here)",
    "forced interrupts resolve, in the order the first player chooses",
    "the interrupt window opens; it closes when all players pass in succession",
    "the triggering condition occurs",
    "forced reactions resolve, in the order the first player chooses",
    "the reaction window opens; it closes when all players pass in succession",
)
"""What happens around every triggering condition (Rules Reference "Triggering Condition")."""


def step(number: str) -> FrameworkStep:
    """The framework step numbered `number`.

    >>> step("4.2.3").window_after
    'interrupts and reactions to the gain'

    Raises:
        KeyError: no step has that number.
    """
    for candidate in FRAMEWORK_STEPS:
        if candidate.number == number:
            return candidate
    raise KeyError(number)


_WOULD = re.compile(r"\bwould\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Interrupt:
    """An interrupt ability to one triggering condition.

    Attributes:
        name: the card or ability.
        trigger: its triggering condition as printed, such as "when a character would be killed".
        forced: a forced interrupt.
        cancel: a cancel ability (it also stops the trigger).
        changes_outcome: using it changes what was about to happen (a save, say).

    >>> Interrupt("Bodyguard", "when a character would be killed").would
    True
    """

    name: str
    trigger: str
    forced: bool = False
    cancel: bool = False
    changes_outcome: bool = False

    @property
    def would(self) -> bool:
        """True for a "would" interrupt: its condition contains the word "would" (p.23)."""
        return bool(_WOULD.search(self.trigger))


def priority(interrupt: Interrupt) -> tuple[int, int, int]:
    """Sort key, lowest first: cancels, then "would" before "is", then forced before optional.

    >>> priority(Interrupt("x", "when a character is killed"))
    (1, 1, 1)
    """
    return (0 if interrupt.cancel else 1, 0 if interrupt.would else 1, 0 if interrupt.forced else 1)


def order_interrupts(interrupts: Iterable[Interrupt]) -> list[Interrupt]:
    """Order interrupts to one trigger by timing priority; equals keep the order given.

    All "would be X" interrupts come before any "is X" interrupt (Rules Reference p.23, "Would");
    cancels come first of all ("Cancel"), forced ones before optional ones of the same kind
    ("Forced"). The order given stands for the players' order among equals.

    >>> [i.name for i in order_interrupts([Interrupt("is", "when a character is killed"),
    ...                                    Interrupt("would", "when a character would be killed")])]
    ['would', 'is']
    """
    return sorted(interrupts, key=priority)


def usable_interrupts(interrupts: Iterable[Interrupt]) -> tuple[list[Interrupt], list[Interrupt]]:
    """Which interrupts can be used, in order, and which are left unusable.

    Once an interrupt changes the nature of what was about to occur (a save or a cancel), the
    trigger is no longer imminent and no further interrupt to it may be used (p.23, "Would").

    >>> used, blocked = usable_interrupts([
    ...     Interrupt("Grief", "when a character is killed"),
    ...     Interrupt("Bodyguard", "when a character would be killed", changes_outcome=True)])
    >>> [i.name for i in used], [i.name for i in blocked]
    (['Bodyguard'], ['Grief'])
    """
    ordered = order_interrupts(interrupts)
    for i, interrupt in enumerate(ordered):
        if interrupt.cancel or interrupt.changes_outcome:
            return ordered[: i + 1], ordered[i + 1:]
    return ordered, []
