"""Reading a timing scenario (``"question": "timing"``): a trigger and the abilities that refer to it.

Keys: ``trigger`` (required: the triggering condition, in words), ``abilities`` (required: a
list of ``name``, ``kind`` (one of ``cancel``, ``would interrupt``, ``forced interrupt``,
``interrupt``, ``forced reaction``, ``reaction``), and optionally ``forced`` (a forced "would"
interrupt), ``changes`` (an interrupt that changes what would happen, such as a save),
``replacement`` (an interrupt whose effect says "instead"), ``player`` (``first`` or
``second``), ``then`` (a nested ``{"trigger", "abilities"}`` that the ability's effect
creates)); also ``title``, ``notes``, ``format``.
"""

from __future__ import annotations

from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.model import PLAYER_KEYS
from explorer.games.agot_lcg.timing.explain import ABILITY_KINDS, Ability, Trigger
from explorer.scenario.fields import Fields

__all__ = ["MAX_ABILITIES", "MAX_DEPTH", "parse_timing", "parse_trigger"]

MAX_ABILITIES = 40
"""Most abilities in one timing scenario, nested ones included."""

MAX_DEPTH = 5
"""Deepest nesting of triggers."""

_INTERRUPTS = ABILITY_KINDS[:4]


def _ability(data: Any, path: str, depth: int, count: list[int]) -> Ability:
    f = Fields(data, path)
    count[0] += 1
    if count[0] > MAX_ABILITIES:
        raise ScenarioError(path, f"at most {MAX_ABILITIES} abilities in all, nested ones included")
    kind = f.choice("kind", ABILITY_KINDS)
    forced = f.flag("forced", False)
    if forced and kind != "would interrupt":
        raise ScenarioError(f.at("forced"), f"applies to a \"would interrupt\" only: write the kind as \"forced "
                                            f"interrupt\" or \"forced reaction\" (got kind {kind!r})")
    flags = {k: f.flag(k, False) for k in ("changes", "replacement")}
    for k, on in flags.items():
        if on and kind not in _INTERRUPTS[1:]:
            raise ScenarioError(f.at(k), f"applies to interrupts only (would interrupt, forced interrupt, interrupt), "
                                         f"got kind {kind!r}")
    player = f.choice("player", PLAYER_KEYS) if f.has("player") else None
    then = parse_trigger(f.raw("then"), f.at("then"), depth + 1, count) if f.has("then") else None
    ability = Ability(f.text("name"), kind, forced, flags["changes"], flags["replacement"], player, then)
    f.done()
    return ability


def parse_trigger(data: Any, path: str, depth: int = 0, count: list[int] | None = None) -> Trigger:
    """A trigger and its abilities (nested triggers at most `MAX_DEPTH` deep)."""
    if depth > MAX_DEPTH:
        raise ScenarioError(path, f"triggers nest at most {MAX_DEPTH} deep")
    count = [0] if count is None else count
    f = Fields(data, path, allowed=("game", "question") if depth == 0 else ())
    if depth == 0:
        if f.has("format"):
            f.choice("format", (1,))
        f.meta()
    condition = f.text("trigger")
    items = f.items("abilities")
    trigger = Trigger(condition, tuple(_ability(a, f"{f.at('abilities')}[{i}]", depth, count)
                                       for i, a in enumerate(items)))
    f.done()
    return trigger


def parse_timing(data: Any) -> Trigger:
    """A timing scenario.

    >>> parse_timing({"trigger": "Ned would be killed", "abilities": [{"name": "Save", "kind": "would interrupt",
    ...               "changes": True}]}).abilities[0].changes
    True
    """
    return parse_trigger(data, "")
