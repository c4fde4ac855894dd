"""Reading an A Game of Thrones LCG challenge scenario (format v1, ``shared/specs/scenario-v1.md``).

Keys beyond the spec, all optional:

* top level: ``title``, ``notes``; ``first_player`` (``"attacker"`` or ``"defender"``), who
  decides a simultaneous victory;
* ``challenge.str_modifiers``: ``{"attacker": n, "defender": n}``, STR a side counts beyond its
  characters (any whole number; a side's total never drops below 0);
* ``attacker`` / ``defender``: ``deck`` (cards left in the draw deck; 0 = eliminated);
  ``defender`` also ``hand`` (card name -> copies, for the exact odds of an intrigue claim) and
  ``characters`` (characters the defender controls, at least the defenders, for a military claim);
* ``power.<side>.cards`` defaults to 0.
"""

from __future__ import annotations

import re
from typing import Any

from explorer.errors import ScenarioError
from explorer.fields import Fields, describe
from explorer.games.agot_lcg.model import (
    CHALLENGE_TYPES,
    KEYWORDS,
    PLAYERS,
    Challenge,
    Character,
    Power,
    Side,
)

__all__ = ["MAX_HAND", "parse_challenge", "parse_character", "parse_keywords"]

MAX_HAND = 100
"""Largest hand whose intrigue discards are enumerated (a hand is rarely above 15 cards)."""

MAX_MODIFIER = 100
"""Largest STR modifier, either way."""

_VALUED = re.compile(r"^(ambush|bestow|shadow)\s*\(\s*\d+\s*\)$")


def parse_keywords(data: Any, path: str) -> tuple[str, ...]:
    """A character's keywords, lower case; unknown or repeated keywords are refused.

    ``"Ambush (3)"`` is read as ``"ambush"``: the cost does not matter to a challenge.

    >>> parse_keywords(["Renown", "ambush (2)"], "k")
    ('renown', 'ambush')
    """
    if isinstance(data, (str, bytes)) or not isinstance(data, list):
        raise ScenarioError(path, f"must be a list of keywords, got {describe(data)}")
    seen: list[str] = []
    for i, word in enumerate(data):
        where = f"{path}[{i}]"
        if not isinstance(word, str):
            raise ScenarioError(where, f"must be a keyword, got {describe(word)}")
        key = " ".join(word.lower().split())
        key = _VALUED.sub(r"\1", key)
        if key not in KEYWORDS:
            raise ScenarioError(where, f"unknown keyword {describe(word)} (known: {', '.join(KEYWORDS)})")
        if key in seen:
            raise ScenarioError(where, f'"{key}" is listed twice')
        seen.append(key)
    return tuple(seen)


def parse_character(data: Any, path: str) -> Character:
    """One participating character: ``name``, ``str`` (>= 0) and optional ``keywords``.

    >>> parse_character({"name": "Knight", "str": 3, "keywords": ["renown"]}, "c")
    Character(name='Knight', strength=3, keywords=('renown',))
    """
    f = Fields(data, path)
    character = Character(f.text("name"), f.whole("str", minimum=0),
                          parse_keywords(f.raw("keywords", []), f.at("keywords")))
    f.done()
    return character


def _characters(f: Fields, key: str) -> tuple[Character, ...]:
    return tuple(parse_character(c, f"{f.at(key)}[{i}]") for i, c in enumerate(f.items(key)))


def _power(data: Any, path: str) -> Power:
    f = Fields(data, path)
    power = Power(f.whole("faction"), f.whole("cards", 0))
    f.done()
    return power


def _hand(data: Any, path: str) -> tuple[tuple[str, int], ...]:
    f = Fields(data, path)
    hand = tuple((str(name), f.whole(str(name))) for name in list(f.data))
    f.done()
    if sum(n for _, n in hand) > MAX_HAND:
        raise ScenarioError(path, f"at most {MAX_HAND} cards, got {sum(n for _, n in hand)}")
    return hand


def _extras(data: Any, path: str, defender: bool) -> dict[str, Any]:
    f = Fields(data, path)
    extras: dict[str, Any] = {"deck": f.whole("deck", None)}
    if defender:
        extras["hand"] = _hand(f.raw("hand"), f.at("hand")) if f.has("hand") else None
        extras["in_play"] = f.whole("characters", None)
    f.done()
    return extras


def parse_challenge(data: Any) -> Challenge:
    """A whole challenge scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> c = parse_challenge({"game": "agot-lcg",
    ...     "challenge": {"type": "power", "claim": 1, "attackers": [{"name": "K", "str": 3}],
    ...                   "defenders": []},
    ...     "power": {"attacker": {"faction": 5, "cards": 2}, "defender": {"faction": 3}}})
    >>> c.attacker.total_str, c.defender.power.total
    (3, 3)
    """
    top = Fields(data, "", allowed=("game",))
    if top.has("format"):
        top.choice("format", (1,))
    top.raw("title", None)
    if top.has("notes"):
        top.items("notes")
    first_player = top.choice("first_player", PLAYERS) if top.has("first_player") else None

    ch = top.child("challenge")
    kind = ch.choice("type", CHALLENGE_TYPES)
    claim = ch.whole("claim", minimum=0)
    characters = {"attacker": _characters(ch, "attackers"), "defender": _characters(ch, "defenders")}
    modifiers = {p: 0 for p in PLAYERS}
    if ch.has("str_modifiers"):
        mods = ch.child("str_modifiers")
        modifiers = {p: mods.whole(p, 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER) for p in PLAYERS}
        mods.done()
    ch.done()

    table = top.child("power")
    power = {p: _power(table.raw(p), table.at(p)) for p in PLAYERS}
    table.done()

    extras = {p: _extras(top.raw(p), p, p == "defender") if top.has(p) else {} for p in PLAYERS}
    top.done()
    in_play = extras["defender"].get("in_play")
    if in_play is not None and in_play < len(characters["defender"]):
        raise ScenarioError("defender.characters", f"must be at least the {len(characters['defender'])} "
                                                   f"defender(s) declared, got {in_play}")
    sides = {p: Side(characters[p], power[p], modifiers[p], **extras[p]) for p in PLAYERS}
    return Challenge(kind, claim, sides["attacker"], sides["defender"], first_player)
