"""Reading a round scenario (``"question": "round"``): a board, the challenges, dominance, a best plan.

Keys (optional unless marked):

* ``players`` (required): ``first`` and ``second`` (the first player is active first, 4.2), each
  with ``faction`` (required, power on the faction card), ``cards`` (power on unlisted cards,
  default 0), ``gold`` (gold pool, for dominance, default 0), ``claim`` (claim value of the
  revealed plot; required for a player who makes a challenge), ``deck`` (cards in the draw deck),
  ``hand`` (a number of cards, or card name -> copies, the two forms a challenge's
  ``defender.hand`` also takes), ``characters`` (required, may be empty:
  ``name`` (unique for that player), ``str`` (or ``"X"``), ``icons`` (required: a list of
  ``military``, ``intrigue``, ``power``), ``keywords``, ``standing`` (default true), ``power``);
* ``challenges``: in the order made, the first player's first: ``attacker`` (``first`` or
  ``second``), ``type``, ``attackers`` (names, each once, with the challenge's icon; one that
  kneels, from the start (``standing: false``) or since it took part in an earlier challenge,
  or that was killed, is dropped with a note in the report: a kneeling character cannot be
  declared, 4.2), ``defenders`` (names, or ``"best"``, the default:
  the best defence), ``stealth`` (attacker name -> bypassed name; without it and with the best
  defence, the attacker's best targets), ``kill`` (names for a military claim, each once), ``intimidate``
  (a name; only with listed defenders and an attacker with intimidate), ``str_modifiers`` (``{"attacker": n, "defender": n}``);
* ``best_plan``: ``"first"`` or ``"second"``: compare every plan of that player's challenges
  against the best defence, then dominance (then ``challenges`` must be empty);
* ``x`` (default 0), ``keyword_order``, ``title``, ``notes``, ``format``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.board import Board, PlayerState
from explorer.games.agot_lcg.challenge.model import CHALLENGE_TYPES, PLAYER_KEYS, ChallengeType, PlayerKey
from explorer.games.agot_lcg.challenge.scenario import (
    KILL_ONCE,
    MAX_CLAIM,
    MAX_DECK,
    MAX_MODIFIER,
    MAX_POWER,
    characters,
    check_intimidate,
    keyword_order,
    parse_x,
    read_hand,
    stealth_pairs,
)
from explorer.games.agot_lcg.round.phase import PlannedChallenge, Round
from explorer.scenario.fields import Fields, describe

__all__ = ["MAX_DECK", "PLAYER_KEYS", "RoundQuestion", "parse_round"]

@dataclass(frozen=True, slots=True)
class RoundQuestion:
    """A parsed round scenario: the round, and whose best plan to search for (if asked)."""

    round: Round
    best_plan: PlayerKey | None = None


def _player(data: Any, path: str, x: int) -> tuple[PlayerState, int | None]:
    f = Fields(data, path)
    chars = characters(f, "characters", x, ("standing", "icons"))
    for i, (c, raw) in enumerate(zip(chars, f.items("characters"))):
        if "icons" not in raw:
            raise ScenarioError(f"{path}.characters[{i}].icons", "is required: a list of the character's challenge "
                                                                 "icons (military, intrigue, power), [] for none")
        if [d.name for d in chars].count(c.name) > 1:
            raise ScenarioError(f"{path}.characters[{i}].name", f"{c.name!r} is listed twice: names must be unique "
                                                                "for a player, since challenges refer to them")
    hand, named = read_hand(f, MAX_DECK)
    claim = f.whole("claim", None, maximum=MAX_CLAIM)
    state = PlayerState(chars, f.whole("faction", maximum=MAX_POWER), f.whole("cards", 0, maximum=MAX_POWER),
                        f.whole("deck", None, maximum=MAX_DECK),
                        hand, named, 0, f.whole("gold", 0, maximum=1000), claim or 0)
    f.done()
    return state, claim


def _index(state: PlayerState, name: Any, field: str, owner: str) -> int:
    if isinstance(name, str) and any(c.name == name for c in state.characters):
        return state.index(name)
    known = ", ".join(repr(c.name) for c in state.characters) or "none"
    raise ScenarioError(field, f"{describe(name)} is not one of {owner}'s characters ({known})")


def _indices(f: Fields, key: str, state: PlayerState, owner: str, why: str) -> tuple[int, ...]:
    """The characters named under `key`; a name given twice is refused at its place, saying `why`."""
    names = f.items(key)
    out = tuple(_index(state, n, f"{f.at(key)}[{i}]", owner) for i, n in enumerate(names))
    for j, i in enumerate(out):
        if i in out[:j]:
            raise ScenarioError(f"{f.at(key)}[{j}]", f"{names[j]!r} repeats {f.at(key)}[{out.index(i)}]: {why}")
    return out


DECLARED_ONCE = "a character is declared once in a challenge (4.2, 4.2.1)"
"""Why a name may not repeat among the attackers or the defenders."""


def _check_icons(board: Board, key: str, indices: tuple[int, ...], kind: ChallengeType, field: str, role: str) -> None:
    """A listed attacker or defender must have the challenge's icon (4.2, 4.2.1), whatever the round does.

    One kneeling or killed when its challenge comes is dropped with a note instead (`phase.play_planned`):
    whether it still stands depends on the challenges before it.
    """
    state = board.player(key)
    for j, i in enumerate(indices):
        c = state.characters[i]
        if kind not in c.icons:
            raise ScenarioError(f"{field}[{j}]", f"{c.name} has no {kind} icon and cannot {role} in a {kind} challenge")


def _challenge(data: Any, path: str, board: Board, seen: set[tuple[str, str]]) -> PlannedChallenge:
    f = Fields(data, path)
    key = f.choice("attacker", PLAYER_KEYS)
    other = board.other(key)
    kind = f.choice("type", CHALLENGE_TYPES)
    if (key, kind) in seen:
        raise ScenarioError(f.at("type"), f"{key} already makes a {kind} challenge: one of each type (4.2)")
    seen.add((key, kind))
    attackers = _indices(f, "attackers", board.player(key), key, DECLARED_ONCE)
    if not attackers:
        raise ScenarioError(f.at("attackers"), "at least one character must attack (4.2)")
    _check_icons(board, key, attackers, kind, f.at("attackers"), "attack")
    defenders = None
    if f.has("defenders") and f.raw("defenders") != "best":
        defenders = _indices(f, "defenders", board.player(other), other, DECLARED_ONCE)
        _check_icons(board, other, defenders, kind, f.at("defenders"), "defend")
    stealth = None
    if f.has("stealth"):
        where = f.child("stealth").at
        stealth = tuple((_index(board.player(key), a, where(a), key),
                         _index(board.player(other), t, where(a), other)) for a, t in stealth_pairs(f))
    kill = _indices(f, "kill", board.player(other), other, KILL_ONCE) if f.has("kill") else None
    intimidate = None
    if f.has("intimidate"):
        if defenders is None:
            raise ScenarioError(f.at("intimidate"), "name the intimidate target only with listed defenders: with the "
                                                    "best defence the margin is not known in advance")
        listed = tuple(board.player(key).characters[i] for i in attackers)
        check_intimidate(tuple(c.name for c in listed), listed, f.at("intimidate"))
        intimidate = _index(board.player(other), f.raw("intimidate"), f.at("intimidate"), other)
    mods = (0, 0)
    if f.has("str_modifiers"):
        m = f.child("str_modifiers")
        mods = (m.whole("attacker", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER),
                m.whole("defender", 0, minimum=-MAX_MODIFIER, maximum=MAX_MODIFIER))
        m.done()
    f.done()
    return PlannedChallenge(key, kind, attackers, defenders, stealth, kill, intimidate, mods, path)


def parse_round(data: Any) -> RoundQuestion:
    """A round scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> q = parse_round({"players": {
    ...     "first": {"faction": 2, "claim": 1, "characters": [{"name": "Ned", "str": 4, "icons": ["power"]}]},
    ...     "second": {"faction": 3, "characters": []}},
    ...     "challenges": [{"attacker": "first", "type": "power", "attackers": ["Ned"]}]})
    >>> q.round.challenges[0].attackers, q.round.challenges[0].defenders
    ((0,), None)
    """
    top = Fields(data, "", allowed=("game", "question"))
    if top.has("format"):
        top.choice("format", (1,))
    top.meta()
    x = parse_x(top)
    order = keyword_order(top)
    table = top.child("players")
    parsed: dict[str, tuple[PlayerState, int | None]] = {k: _player(table.raw(k), table.at(k), x) for k in PLAYER_KEYS}
    table.done()
    board = Board(PLAYER_KEYS, (parsed["first"][0], parsed["second"][0]), "first", order)
    best = top.choice("best_plan", PLAYER_KEYS) if top.has("best_plan") else None
    items = top.items("challenges", [])
    if best is not None and items:
        raise ScenarioError("challenges", "must be empty with best_plan: the search makes the challenges")
    seen, planned = set[tuple[str, str]](), list[PlannedChallenge]()
    for i, item in enumerate(items):
        challenge = _challenge(item, f"challenges[{i}]", board, seen)
        if planned and planned[-1].attacker == "second" and challenge.attacker == "first":
            raise ScenarioError(f"challenges[{i}].attacker", "the first player makes all their challenges before "
                                                             "the second player's (4.2, 4.3)")
        planned.append(challenge)
    top.done()
    for key in {c.attacker for c in planned} | ({best} if best else set()):
        if parsed[key][1] is None:
            raise ScenarioError(f"players.{key}.claim", f"is required: the claim value of {key}'s revealed plot, "
                                                        f"since {key} makes challenges")
    return RoundQuestion(Round(board, tuple(planned)), best)
