"""Reading an A Game of Thrones LCG challenge scenario (format v1, ``shared/specs/scenario-v1.md``).

Keys beyond the spec, all optional (files without them keep their meaning):

* top level: ``title``, ``notes``; ``question`` (``"challenge"``, the default here; see the
  package for ``"round"``, ``"odds"`` and ``"timing"``); ``first_player`` (``"attacker"`` or
  ``"defender"``), who decides a simultaneous victory and orders the resolution keywords;
  ``x``, the value of X (default 0, Rules Reference p.23), used by ``"str": "X"``, by
  ``"claim": "X"`` and by keyword values such as ``"prized (X)"``;
* a character: ``power`` (power on that card, default 0; it counts toward 15 and goes back to
  the treasury if the card leaves play); keyword values ``"prized (2)"`` (plain ``"prized"`` is
  prized (X)); ``others`` characters also take ``standing`` (default true);
* ``challenge.str_modifiers``: ``{"attacker": n, "defender": n}``, STR a side counts beyond its
  characters (any whole number; a side's total never drops below 0);
* ``challenge.stealth``: ``{"attacker name": "bypassed name"}``, the stealth targets chosen at
  initiation (a bypassed character cannot be among the defenders);
* ``challenge.kill``: names the defender chooses for a military claim (default: the choice that
  loses the least power); ``challenge.intimidate``: the character the attacker kneels (default:
  the standing one with the highest STR within the margin); ``challenge.keyword_order``: the
  first player's order of ``insight``, ``intimidate``, ``pillage``, ``renown``;
* ``attacker`` / ``defender``: ``deck`` (cards left in the draw deck; 0 = eliminated), ``others``
  (listed characters that do not participate); ``defender`` also ``hand`` (card name -> copies,
  or a number of cards, none named, as in a round) and ``characters`` (how many characters the
  defender controls, listed or not);
* names are unique for a side (participants and ``others``); ``kill`` names each character once;
  two stealth attackers may not name the same target; ``intimidate`` needs an attacker with
  intimidate;
* ``power.<side>.cards`` (default 0): power on cards the scenario does not list.
"""

from __future__ import annotations

import re
from typing import Any, cast

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.model import (
    CHALLENGE_TYPES,
    KEYWORDS,
    PLAYERS,
    RESOLUTION_KEYWORDS,
    Challenge,
    ChallengeType,
    Character,
    Keyword,
    Player,
    Power,
    ResolutionKeyword,
    Side,
)
from explorer.scenario.fields import Fields, check_option, describe

__all__ = [
    "MAX_CHARACTERS", "MAX_CLAIM", "MAX_DECK", "MAX_HAND", "MAX_POWER", "MAX_X", "parse_challenge",
    "parse_character", "parse_keywords",
    "parse_x", "read_hand", "read_head", "check_intimidate", "check_unique_names", "KILL_ONCE",
]

MAX_HAND = 100
"""Largest hand in a challenge scenario (the odds are a formula; a hand is rarely above 15)."""

MAX_MODIFIER = 100
"""Largest STR modifier, either way."""

MAX_X = 100
"""Largest value of X."""

MAX_CHARACTERS = 30
"""Most characters listed on one side."""

MAX_STR = 100
"""Largest STR or power on one card."""

MAX_POWER = 100
"""Largest power on a faction card, or on the cards a scenario does not list (15 wins the game)."""

MAX_CLAIM = 100
"""Largest claim value."""

MAX_DECK = 1000
"""Most cards in a draw deck (and in hand in a round scenario)."""

MAX_IN_PLAY = 100
"""Most characters a player controls (``characters``)."""

_VALUED = re.compile(r"^(ambush|bestow|shadow|prized)\s*\(\s*(\d+|x)\s*\)$")


def parse_x(top: Fields) -> int:
    """The scenario's X (p.23: X is 0 unless something sets it)."""
    return top.whole("x", 0, maximum=MAX_X)


def parse_keywords(data: Any, path: str, x: int = 0) -> tuple[tuple[Keyword, ...], int]:
    """A character's keywords, lower case, and its prized value; unknown or repeated ones are refused.

    ``"Ambush (3)"`` is read as ``"ambush"``: the cost does not matter to a challenge.
    ``"prized (2)"`` gives a prized value of 2; plain ``"prized"`` and ``"prized (X)"`` give X.

    >>> parse_keywords(["Renown", "ambush (2)", "Prized (X)"], "k", x=3)
    (('renown', 'ambush', 'prized'), 3)
    """
    if isinstance(data, (str, bytes)) or not isinstance(data, list):
        raise ScenarioError(path, f"must be a list of keywords, got {describe(data)}")
    seen: list[Keyword] = []
    prized = 0
    for i, word in enumerate(data):
        where = f"{path}[{i}]"
        if not isinstance(word, str):
            raise ScenarioError(where, f"must be a keyword, got {describe(word)}")
        key = " ".join(word.lower().split())
        if match := _VALUED.match(key):
            key, value = match.group(1), match.group(2)
            if key == "prized":
                if value != "x" and (len(value) > 3 or int(value) > MAX_X):
                    raise ScenarioError(where, f"prized value must be from 0 to {MAX_X}, got {describe(word)}")
                prized = x if value == "x" else int(value)
        elif key == "prized":
            prized = x
        if key not in KEYWORDS:
            raise ScenarioError(where, f"unknown keyword {describe(word)} (known: {', '.join(KEYWORDS)})")
        if key in seen:
            raise ScenarioError(where, f'"{key}" is listed twice')
        seen.append(key)
    return tuple(seen), prized


def _strength(f: Fields, x: int) -> int:
    value = f.raw("str")
    if isinstance(value, str) and value.strip().lower() == "x":
        return x
    return f.whole("str", minimum=0, maximum=MAX_STR)


def parse_character(data: Any, path: str, x: int = 0, extra: tuple[str, ...] = ()) -> Character:
    """One character: ``name``, ``str`` (>= 0, or ``"X"``), optional ``keywords`` and ``power``.

    `extra` names the further keys allowed here: ``standing``, ``icons``.

    >>> parse_character({"name": "Knight", "str": 3, "keywords": ["renown"]}, "c")
    Character(name='Knight', strength=3, keywords=('renown',), icons=(), standing=True, power=0, prized=0)
    >>> parse_character({"name": "Sentry", "str": "X"}, "c", x=2).strength
    2
    """
    f = Fields(data, path)
    keywords, prized = parse_keywords(f.raw("keywords", []), f.at("keywords"), x)
    icons: tuple[ChallengeType, ...] = ()
    if "icons" in extra and f.has("icons"):
        icons = _icons(f)
    standing = f.flag("standing", True) if "standing" in extra else True
    character = Character(f.text("name"), _strength(f, x), keywords, icons, standing,
                          f.whole("power", 0, maximum=MAX_STR), prized)
    f.done()
    return character


def _icons(f: Fields) -> tuple[ChallengeType, ...]:
    listed = f.items("icons")
    icons = tuple(check_option(icon, CHALLENGE_TYPES, f"{f.at('icons')}[{i}]") for i, icon in enumerate(listed))
    if len(set(icons)) != len(icons):
        raise ScenarioError(f.at("icons"), "lists an icon twice")
    return icons


def characters(f: Fields, key: str, x: int, extra: tuple[str, ...] = (), default: Any = ...) -> tuple[Character, ...]:
    """The list of characters under `key`, at most `MAX_CHARACTERS`."""
    items = f.items(key) if default is ... else f.items(key, default)
    if len(items) > MAX_CHARACTERS:
        raise ScenarioError(f.at(key), f"at most {MAX_CHARACTERS} characters, got {len(items)}")
    return tuple(parse_character(c, f"{f.at(key)}[{i}]", x, extra) for i, c in enumerate(items))


def _power(data: Any, path: str) -> Power:
    f = Fields(data, path)
    power = Power(f.whole("faction", maximum=MAX_POWER), f.whole("cards", 0, maximum=MAX_POWER))
    f.done()
    return power


def parse_hand(data: Any, path: str, limit: int = MAX_HAND) -> tuple[tuple[str, int], ...]:
    """A hand as card name -> copies, at most `limit` cards."""
    f = Fields(data, path)
    hand = tuple((str(name), f.whole(str(name), maximum=limit)) for name in list(f.data))
    f.done()
    if sum(n for _, n in hand) > limit:
        raise ScenarioError(path, f"at most {limit} cards, got {sum(n for _, n in hand)}")
    return hand


def read_hand(f: Fields, limit: int) -> tuple[int | None, tuple[tuple[str, int], ...] | None]:
    """``hand``, in either form both files take: a number of cards (none named) or card name -> copies.

    Returns (cards in hand, the named cards), each None when not given.

    >>> read_hand(Fields({"hand": 5}, ""), 100), read_hand(Fields({"hand": {"Ned": 2}}, ""), 100)
    ((5, None), (2, (('Ned', 2),)))
    """
    if not f.has("hand"):
        return None, None
    if isinstance(f.raw("hand"), dict):
        named = parse_hand(f.raw("hand"), f.at("hand"), limit)
        return sum(n for _, n in named), named
    return f.whole("hand", maximum=limit), None


def _extras(data: Any, path: str, defender: bool, x: int) -> dict[str, Any]:
    f = Fields(data, path)
    extras: dict[str, Any] = {"deck": f.whole("deck", None, maximum=MAX_DECK),
                              "others": characters(f, "others", x, ("standing",), [])}
    if defender:
        extras["hand_count"], extras["hand"] = read_hand(f, MAX_HAND)
        extras["in_play"] = f.whole("characters", None, maximum=MAX_IN_PLAY)
    f.done()
    return extras


def read_head(top: Fields) -> tuple[Player | None, int]:
    """The keys every question shares: ``format``, ``title``, ``notes``, ``question``, ``first_player``, ``x``."""
    if top.has("format"):
        top.choice("format", (1,))
    top.meta()
    top.raw("question", None)
    first = top.choice("first_player", PLAYERS) if top.has("first_player") else None
    return first, parse_x(top)


def _names(f: Fields, key: str, unique: str = "") -> tuple[str, ...]:
    """Character names under `key`; with `unique` (why a name may not repeat), a repeat is refused."""
    names = f.items(key)
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise ScenarioError(f"{f.at(key)}[{i}]", f"must be a character's name, got {describe(name)}")
        if unique and name in names[:i]:
            raise ScenarioError(f"{f.at(key)}[{i}]", f"{name!r} repeats {f.at(key)}[{names.index(name)}]: {unique}")
    return tuple(names)


KILL_ONCE = 'the military claim kills different characters, each chosen once (glossary "Military Claim")'
"""Why a name may not repeat in ``kill``."""


def check_unique_names(groups: list[tuple[str, tuple[Character, ...]]]) -> None:
    """Refuse a character name used twice on one side: ``stealth``, ``kill`` and ``intimidate`` name characters.

    `groups` are (scenario path of the list, its characters), all of one side.

    >>> check_unique_names([("challenge.defenders", (Character("A", 1),)), ("defender.others", (Character("A", 2),))])
    Traceback (most recent call last):
    ...
    explorer.core.errors.ScenarioError: defender.others[0].name: 'A' repeats challenge.defenders[0]: ...
    """
    seen: dict[str, str] = {}
    for path, chars in groups:
        for i, c in enumerate(chars):
            if c.name in seen:
                raise ScenarioError(f"{path}[{i}].name", f"{c.name!r} repeats {seen[c.name]}: names must be unique "
                                                         "for a side, since stealth, kill and intimidate refer to "
                                                         "characters by name")
            seen[c.name] = f"{path}[{i}]"


def keyword_order(f: Fields) -> tuple[ResolutionKeyword, ...]:
    """``keyword_order``: the resolution keywords in the first player's order (4.2.5)."""
    if not f.has("keyword_order"):
        return RESOLUTION_KEYWORDS
    order = _names(f, "keyword_order")
    if sorted(order) != sorted(RESOLUTION_KEYWORDS):
        raise ScenarioError(f.at("keyword_order"), f"must list {', '.join(RESOLUTION_KEYWORDS)} once each, "
                                                   f"in any order, got {describe(list(order))}")
    return cast(tuple[ResolutionKeyword, ...], order)  # checked just above: each one once


def stealth_pairs(f: Fields) -> tuple[tuple[str, str], ...]:
    """``stealth``: attacker name -> bypassed character name; a target named twice is refused.

    >>> stealth_pairs(Fields({"stealth": {"Spy": "Guard", "Thief": "Guard"}}, "c"))
    Traceback (most recent call last):
    ...
    explorer.core.errors.ScenarioError: c.stealth.Thief: 'Guard' is already the stealth target of 'Spy': ...
    """
    if not f.has("stealth"):
        return ()
    table = f.child("stealth")
    pairs = tuple((str(a), table.text(str(a))) for a in list(table.data))
    table.done()
    for k, (a, t) in enumerate(pairs):
        for b, u in pairs[:k]:
            if u == t:
                raise ScenarioError(table.at(a), f"{t!r} is already the stealth target of {b!r}: each stealth "
                                                 "attacker chooses one character to bypass (glossary \"Stealth\"), "
                                                 "and a character bypassed twice is bypassed once; name another "
                                                 "character or leave this attacker out")
    return pairs


def check_intimidate(names: tuple[str, ...], attackers: tuple[Character, ...], field: str) -> None:
    """Refuse an intimidate target when no attacker has intimidate (glossary "Intimidate").

    `names` are the attackers' names (for the message), `attackers` the characters.
    """
    if not any(c.has("intimidate") for c in attackers):
        listed = ", ".join(repr(n) for n in names) or "none"
        raise ScenarioError(field, f"no attacker has intimidate (attackers: {listed}): a target can be named only "
                                   "when the attacker controls a participating character with intimidate "
                                   "(glossary \"Intimidate\"); remove this key or give an attacker the keyword")


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
    first_player, x = read_head(top)

    ch = top.child("challenge")
    kind = ch.choice("type", CHALLENGE_TYPES)
    claim = ch.whole("claim", minimum=0, maximum=MAX_CLAIM) if ch.raw("claim") not in ("X", "x") else x
    chars = {"attacker": characters(ch, "attackers", x), "defender": characters(ch, "defenders", x)}
    modifiers = {p: 0 for p in PLAYERS}
    if ch.has("str_modifiers"):
        mods = ch.child("str_modifiers")
        modifiers = {p: mods.whole(p, 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER) for p in PLAYERS}
        mods.done()
    stealth = stealth_pairs(ch)
    kill = _names(ch, "kill", KILL_ONCE) if ch.has("kill") else None
    intimidate = ch.text("intimidate") if ch.has("intimidate") else None
    if intimidate is not None:
        check_intimidate(tuple(c.name for c in chars["attacker"]), chars["attacker"], ch.at("intimidate"))
    order = keyword_order(ch)
    ch.done()

    table = top.child("power")
    power = {p: _power(table.raw(p), table.at(p)) for p in PLAYERS}
    table.done()

    extras = {p: _extras(top.raw(p), p, p == "defender", x) if top.has(p) else {} for p in PLAYERS}
    top.done()
    for p in PLAYERS:
        check_unique_names([(f"challenge.{p}s", chars[p]), (f"{p}.others", extras[p].get("others", ()))])
    in_play = extras["defender"].get("in_play")
    listed = len(chars["defender"]) + len(extras["defender"].get("others", ()))
    if in_play is not None and in_play < listed:
        raise ScenarioError("defender.characters", f"must be at least the {listed} listed character(s) "
                                                   f"(defenders and others), got {in_play}")
    sides = {p: Side(chars[p], power[p], modifiers[p], **extras[p]) for p in PLAYERS}
    return Challenge(kind, claim, sides["attacker"], sides["defender"], first_player, stealth, kill, intimidate,
                     order, x)
