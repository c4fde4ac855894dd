"""The timing explainer: in what order abilities to one triggering condition may resolve, and which
are no longer possible, as an ordered trace citing the rules.

The sequence around every triggering condition is data (`SEQUENCE`), from the Rules Reference
entries "Triggering Condition", "Would" (p.23), "Cancel", "Forced Interrupts / Forced
Reactions", "Interrupts", "Reactions", "Replacement Effects", "Save" and "Nested Ability
Sequences" (pages other than 23 not verified).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from explorer.games.agot_lcg.challenge.model import PlayerKey

__all__ = ["ABILITY_KINDS", "SEQUENCE", "Ability", "AbilityKind", "TraceEntry", "Trigger", "explain"]

_RR = "Rules Reference"
_TC = f'{_RR} "Triggering Condition"'

AbilityKind = Literal["cancel", "would interrupt", "forced interrupt", "interrupt", "forced reaction", "reaction"]
"""The kinds of ability the explainer orders, in the order of their windows (scenario key ``kind``)."""
ABILITY_KINDS: tuple[AbilityKind, ...] = get_args(AbilityKind)
"""The values of `AbilityKind`, in window order: the first four are interrupts."""

SEQUENCE: tuple[tuple[str, str, str], ...] = (
    ("imminent", "the triggering condition becomes imminent", _TC),
    ("cancel", "cancels come first of all interrupts", f'{_RR} "Cancel"'),
    ("would interrupt", '"would" interrupts, forced ones first, before any interrupt without "would"',
     f'{_RR} p.23 "Would"; "Forced Interrupts / Forced Reactions"'),
    ("forced interrupt", "forced interrupts resolve, in the order the first player chooses",
     f'{_TC}; "Forced Interrupts / Forced Reactions"'),
    ("interrupt", "the interrupt window: the first player has the first opportunity, then player order "
                  "until all pass in succession", f'{_TC}; "Interrupts"'),
    ("occurs", "the triggering condition occurs", _TC),
    ("forced reaction", "forced reactions resolve, in the order the first player chooses",
     f'{_TC}; "Forced Interrupts / Forced Reactions"'),
    ("reaction", "the reaction window: the first player has the first opportunity, then player order "
                 "until all pass in succession", f'{_TC}; "Reactions"'),
)
"""The steps around a triggering condition: (kind or step, what happens, source)."""

_RULE = {kind: rule for kind, _, rule in SEQUENCE}


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability that refers to one triggering condition.

    Attributes:
        name: the card or ability.
        kind: its window (`AbilityKind`).
        forced: a forced "would" interrupt (the other kinds say forced in their kind).
        changes: an interrupt that changes what was about to happen (a save): nothing else may
            interrupt that condition, and it does not occur.
        replacement: an interrupt that makes the condition resolve another way ("instead").
        player: whose ability it is, for the trace (``first`` or ``second``), if given.
        then: a new triggering condition its effect creates, explained in full at once (LIFO).
    """

    name: str
    kind: AbilityKind
    forced: bool = False
    changes: bool = False
    replacement: bool = False
    player: PlayerKey | None = None
    then: Trigger | None = None


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggering condition and the abilities that refer to it."""

    condition: str
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True)
class TraceEntry:
    """One line of the trace.

    Attributes:
        depth: 0 for the first condition, 1 for a condition nested in it, and so on.
        condition: the triggering condition this line belongs to.
        step: the step of `SEQUENCE` (``imminent``, ``cancel``, ..., ``reaction``).
        ability: the ability's name, None for a line about the condition itself.
        status: ``"resolves"``, ``"not possible"`` or ``"event"``.
        text: what happens, in words.
        rule: the rule it rests on.
    """

    depth: int
    condition: str
    step: str
    ability: str | None
    status: str
    text: str
    rule: str


def _who(ability: Ability) -> str:
    return f" ({ability.player} player)" if ability.player else ""


def _ordered(trigger: Trigger) -> list[Ability]:
    """Abilities in resolution order: by window, forced "would" interrupts first; else as listed."""
    def key(a: Ability) -> tuple[int, int]:
        return ABILITY_KINDS.index(a.kind), 0 if a.kind != "would interrupt" or a.forced else 1
    return sorted(trigger.abilities, key=key)


def explain(trigger: Trigger, depth: int = 0) -> tuple[TraceEntry, ...]:
    """The order in which the abilities may resolve, and which are no longer possible.

    >>> t = Trigger("Ned Stark would be killed", (
    ...     Ability("Grief", "reaction"), Ability("Bodyguard", "would interrupt", changes=True),
    ...     Ability("Peek", "interrupt")))
    >>> [(e.ability, e.status) for e in explain(t) if e.ability]
    [('Bodyguard', 'resolves'), ('Peek', 'not possible'), ('Grief', 'not possible')]
    """
    c = trigger.condition
    out = [TraceEntry(depth, c, "imminent", None, "event", f"{c}: the triggering condition becomes imminent", _TC)]
    replacements: list[str] = []
    state, stopper, occurred = "imminent", "", False
    for ability in _ordered(trigger):
        interrupt = ability.kind in ABILITY_KINDS[:4]
        if not interrupt and not occurred:
            out.append(_occurs(depth, c, state, stopper, replacements))
            occurred = True
        rule = _RULE[ability.kind]
        if interrupt and state != "imminent":
            why = ("the condition was canceled" if state == "canceled"
                   else f"{stopper} changed what was about to happen: no further interrupts to it")
            out.append(TraceEntry(depth, c, ability.kind, ability.name, "not possible", f"{ability.name}: {why}",
                                  rule + ('; p.23 "Would"' if state == "changed" else '; "Cancel"')))
            continue
        if not interrupt and state != "imminent":
            why = "the condition was canceled" if state == "canceled" else "the condition did not occur"
            out.append(TraceEntry(depth, c, ability.kind, ability.name, "not possible",
                                  f"{ability.name}: {why}, so there is nothing to react to", rule))
            continue
        label = ("forced " if ability.forced else "") + ability.kind
        effect = ""
        if ability.kind == "cancel":
            state, stopper, effect = "canceled", ability.name, ": the condition is canceled"
        elif ability.changes:
            state, stopper, effect = "changed", ability.name, ": it changes what was about to happen"
        elif ability.replacement:
            replacements.append(ability.name)
            effect = ": a replacement effect (instead)"
        out.append(TraceEntry(depth, c, ability.kind, ability.name, "resolves",
                              f"{ability.name}{_who(ability)} resolves as a {label}{effect}", rule))
        if ability.then is not None:
            out.extend(explain(ability.then, depth + 1))
    if not occurred:
        out.append(_occurs(depth, c, state, stopper, replacements))
    return tuple(out)


def _occurs(depth: int, condition: str, state: str, stopper: str, replacements: list[str]) -> TraceEntry:
    if state == "canceled":
        return TraceEntry(depth, condition, "occurs", None, "event",
                          f"{condition}: canceled by {stopper}, it does not occur", f'{_RR} "Cancel"')
    if state == "changed":
        return TraceEntry(depth, condition, "occurs", None, "event",
                          f"{condition}: changed by {stopper}, it does not occur as it was",
                          f'{_RR} p.23 "Would"; "Save"')
    if replacements:
        others = f" ({', '.join(replacements[:-1])} overridden)" if len(replacements) > 1 else ""
        return TraceEntry(depth, condition, "occurs", None, "event",
                          f"{condition}: occurs, resolved by {replacements[-1]} instead{others}",
                          f'{_RR} "Replacement Effects"')
    return TraceEntry(depth, condition, "occurs", None, "event", f"{condition}: occurs", _TC)
