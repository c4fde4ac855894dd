"""What a battle, its report and a grid of battles cost, weighed before anything is computed.

Every request is weighed up front and refused past about 2 s (`MAX_SECONDS`, the count
engine's `explorer.core.engine.roll.MAX_WORK`), naming the input to change; the backstop
(`explorer.core.backstop`) stops the rare request an estimate let through. The parts of a battle:

* a side playing a fixed policy: its roll in the count engine (`combat.side_cost`);
* a side playing ``best``: its search (`search_seconds`), the defender's once per attacker
  total it may face (`defender_contexts`), and the grids that join the two sides (`grid_seconds`);
* the report's best-play summary (only when a side plays ``best``): the same battle with that
  side playing ``misses``, weighed the same way (`report_costs`).

Parts the same computation shares (a roll computed once is cached, the defender's answers do
not depend on how the attacker rerolls) are counted once (`Cost.key`), also across the cells of
a sweep or the rows of the row advisor (`total`).

One estimate serves both paths of best play (with numpy, and the pure-Python one of the browser
build), so both accept and refuse the same requests: measured on CPython, numpy finishes in a
quarter to a half of the estimate, the pure path in about the estimate (benchmarks/bench_pure.py).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.search import Kinds
from explorer.games.assault_of_the_giants.best.two_rounds import first_scale, rounds_of, two_round_size
from explorer.games.assault_of_the_giants.best.values import INT64_SAFE, dealt_table, stakes, taken_table
from explorer.games.assault_of_the_giants.rules.cards import card_shift, played
from explorer.games.assault_of_the_giants.rules.combat import side_cost, side_weight
from explorer.games.assault_of_the_giants.rules.model import Battle, Side

__all__ = ["MAX_SECONDS", "MAX_BYTES", "NS_PER_LINK", "NS_PER_CELL", "BYTES_PER_CELL", "POLICY_HINT", "Cost",
           "kinds_of", "final_bounds", "search_size", "search_seconds", "search_bytes", "check_search", "rounds_of",
           "two_round_size", "NS_PER_TWO_ROUND",
           "check_defender", "defender_contexts", "defender_keys_big", "grid_seconds", "grid_bytes", "battle_costs",
           "report_costs", "report_seconds", "total", "check_costs", "check_report", "REPORT_WHAT"]

MAX_SECONDS = 2.0
"""Longest request accepted, estimated up front: a battle, a report, a sweep, the row advisor."""

NS_PER_LINK = (300, 15, 150)
"""Cost of one state link (`search_size`), in nanoseconds: one context (the attacker, values
held as Python integers), and per context of many (the defender's answers) with 64-bit keys or with
keys too big for them (Python integers, `defender_keys_big`); measured (about 6 and 70 ns), then doubled."""

NS_PER_CELL = (40, 400)
"""Cost of one cell of the grids that join the two sides (`grid_seconds`), in nanoseconds: with 64-bit
weights, and with weights too big for them (Python integers); measured, then doubled."""

NS_PER_TWO_ROUND = (2500, 100, 150)
"""Cost of the first round over the second's values (`two_round_size`, plain Python in both engines),
in nanoseconds: per state link once, per state link and context, and per whole roll's spread and
context; measured on CPython (CPU time, about 1200, 50 and 60), then doubled."""

MAX_BYTES = 200_000_000
"""Most memory a best-play request's arrays may take, estimated up front (`search_bytes`, `grid_bytes`)."""

BYTES_PER_CELL = (80, 250, 1600)
"""Memory per (context, candidate) of a search, and per (context, final total) of the grids, in bytes:
about ten arrays alive at once, of 64-bit integers, of Python integers (the defender's keys), and of
the attacker's larger ones (values weighed by every total of the defender); measured (80, 210 and
1400 at most), then rounded up."""

POLICY_HINT = "use fewer dice or rerolls, or reroll_policy misses, blanks or none"

REPORT_WHAT = "best play and its 'misses' baseline"
"""What a report's refusal weighs: the battle and its best-play summary (`report_costs`)."""
"""What a refusal of best play suggests."""


@dataclass(frozen=True, slots=True)
class Cost:
    """One part of a request's work, estimated.

    >>> Cost(0.5, "attacker.pool", "the attacker's roll", ("roll",)).seconds
    0.5
    """

    seconds: float
    field: str
    """The input that makes this part big, to name in a refusal (``attacker.pool``...)."""
    what: str
    """What this part computes, for the message."""
    key: tuple[Any, ...]
    """Parts with the same key are the same computation, done once (cached)."""
    bytes: int = 0
    """Memory its arrays take at most, estimated."""


def kinds_of(side: Side) -> Kinds:
    """A side's pool, its cards' dice included, as the search's kinds: (faces, count) per kind of die."""
    return tuple((die.faces, n) for die, n in played(side).pool)


def final_bounds(side: Side) -> tuple[int, int]:
    """One more than the most final hits and blocks the side can record (the search's final grid).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers
    >>> die = CombatDie("d", ((2, 0, 0), (0, 1, 1)) * 3)
    >>> final_bounds(Side(((die, 2),), Modifiers(arcane_to_hits=1), ()))
    (7, 3)
    """
    side = played(side)
    most = [sum(n * max(f[j] for f in die.faces) for die, n in side.pool if n) for j in range(3)]
    mods, (hits, blocks) = side.modifiers, card_shift(side)
    return (most[0] + 2 * min(most[2], mods.arcane_to_hits) + hits + 1,
            most[1] + min(most[2], mods.arcane_to_blocks) + blocks + 1)


def search_size(kinds: Kinds, rerolls: int) -> int:
    """Work of a side's search, counted without building it (for the cost limit).

    States times their links, plus the grid of (hits, blocks, arcane) once per move and face.

    >>> search_size(((((1, 0, 0), (0, 0, 0)), 2),), 1)
    33
    """
    kinds = tuple((f, n) for f, n in kinds if n)
    rerolls = min(rerolls, sum(n for _, n in kinds))
    states, links, moves = 1, 1, [1] + [0] * rerolls
    for faces, n in kinds:
        d = len(set(faces))
        states *= sum(math.comb(size + d - 1, size) for size in range(max(0, n - rerolls), n + 1))
        links += d
        moves = [sum(moves[t - j] for j in range(min(t, n) + 1)) for t in range(rerolls + 1)]
    cells = math.prod(sum(n * max(f[j] for f in faces) for faces, n in kinds) + 1 for j in range(3))
    return states * links + sum(moves) * links * cells


def search_seconds(side: Side, contexts: int, rerolls: int | None = None, big: bool = False) -> float:
    """Estimated seconds of a side's best-play search over `contexts` opponent totals (`big`: the
    defender's keys are Python integers, `defender_keys_big`).

    >>> from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> side = Side(((DEFAULT_DICE["basic"], 5),), Modifiers(rerolls=3), ())
    >>> 0.001 < search_seconds(side, 1) < 0.1
    True
    """
    first, second = rounds_of(side)
    size = search_size(kinds_of(side), (second or first) if rerolls is None else rerolls)
    seconds = size * (NS_PER_LINK[0] if contexts == 1 else NS_PER_LINK[2 if big else 1] * contexts) * 1e-9
    if second and rerolls is None:
        links, spread = two_round_size(kinds_of(side), first, second)
        once, per_link, per_spread = NS_PER_TWO_ROUND
        seconds += (links * (once + per_link * contexts) + spread * per_spread * contexts) * 1e-9
    return seconds


def defender_keys_big(battle: Battle) -> bool:
    """Whether the defender's search compares keys too big for 64-bit integers (numpy's `roll.solve_roll`).

    A key is a packed value tuple (`values.Lex`: each term's spread times the common scale of
    the fresh rolls, 6^rerolls) times the candidates (moves x (hits, blocks, arcane) cells): spreads
    bounded from the stakes, without building any grid.
    """
    atk, dfn = battle.attacker, battle.defender
    most_dealt, most_taken = final_bounds(dfn)[0] - 1, final_bounds(atk)[0] - 1
    mine = stakes(dfn, atk, most_dealt, most_taken)
    spreads = [max(f) - min(f) + max(g) - min(g) for f, g in zip(dealt_table(mine), taken_table(mine))]
    kinds = tuple((faces, n) for faces, n in kinds_of(dfn) if n)
    first, second = rounds_of(dfn)
    rerolls = min(second or first, sum(n for _, n in kinds))
    scale = math.prod(len(faces) ** min(n, rerolls) for faces, n in kinds) * (first_scale(kinds, first) if second else 1)
    top = 0
    for spread in spreads:
        top = top * (spread * scale + 1) + spread
    return bool((top + 1) * scale * _candidates(kinds, rerolls) >= INT64_SAFE)


def search_bytes(side: Side, contexts: int, big: bool) -> int:
    """Estimated memory of a side's best-play search over `contexts` opponent totals (`BYTES_PER_CELL`).

    >>> from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers
    >>> search_bytes(Side(((DEFAULT_DICE["basic"], 5),), Modifiers(rerolls=3), ()), 1, True) < 10**7
    True
    """
    kinds = tuple((faces, n) for faces, n in kinds_of(side) if n)
    rerolls = min(played(side).modifiers.rerolls, sum(n for _, n in kinds))
    return contexts * _candidates(kinds, rerolls) * BYTES_PER_CELL[2 if contexts == 1 and big else int(big)]


def grid_bytes(battle: Battle) -> int:
    """Estimated memory of the grids joining the two sides (`grid_seconds`)."""
    if battle.defender.reroll_policy != "best":
        return 0
    hd, bd = final_bounds(battle.defender)
    return defender_contexts(battle) * hd * bd * BYTES_PER_CELL[int(_big_weights(battle))] // 2


def _candidates(kinds: Kinds, rerolls: int) -> int:
    """Candidates of a search (`search.Plan`: `roll.RollPlan.candidates`): moves x (hits, blocks, arcane) cells."""
    moves = [1] + [0] * rerolls
    for _, n in kinds:
        moves = [sum(moves[t - j] for j in range(min(t, n) + 1)) for t in range(rerolls + 1)]
    cells = math.prod(sum(n * max(f[j] for f in faces) for faces, n in kinds) + 1 for j in range(3))
    return sum(moves) * cells


def check_defender(battle: Battle) -> int:
    """Refuse, before anything is built, a defender's best answers estimated above `MAX_SECONDS`;
    else the number of attacker totals it answers (`defender_contexts`).

    Raises:
        ScenarioError: naming ``defender.pool`` or ``defender.rerolls``.
    """
    contexts = defender_contexts(battle)
    check_search(battle.defender, "defender", contexts)  # at once for the hopeless, before any stakes
    big = defender_keys_big(battle)
    check_search(battle.defender, "defender", contexts, big)
    needs = search_bytes(battle.defender, contexts, big) + grid_bytes(battle)
    if needs > MAX_BYTES:
        field = "defender.rerolls" if sum(rounds_of(battle.defender)) > 1 else "defender.pool"
        raise ScenarioError(field, f"best play would need about {needs / 1e6:.0f} MB to answer {contexts} attacker "
                                   f"totals, over the limit of {MAX_BYTES / 1e6:.0f} MB: {POLICY_HINT}")
    return contexts


def _search_field(side: Side, contexts: int, big: bool = False) -> str:
    """``rerolls`` when a search with at most one reroll would fit the limit, else ``pool``."""
    first, second = rounds_of(side)
    fewer = min(1, second or first)
    if search_seconds(side, contexts, fewer, big) > MAX_SECONDS:
        return "pool"
    return "card_rerolls" if second and search_seconds(side, contexts, second, big) > MAX_SECONDS else "rerolls"


def check_search(side: Side, role: str, contexts: int, big: bool = False) -> None:
    """Refuse, before searching, a best-play search estimated above `MAX_SECONDS` on its own (both
    rounds of rerolls when there are two, `rounds_of`).

    Raises:
        ScenarioError: naming ``<role>.pool``, ``<role>.rerolls`` or ``<role>.card_rerolls``.
    """
    seconds = search_seconds(side, contexts, big=big)
    if seconds <= MAX_SECONDS:
        return
    field = _search_field(side, contexts, big)
    per = f", answering {contexts} attacker totals" if contexts > 1 else ""
    raise ScenarioError(f"{role}.{field}", f"best play would take about {seconds:.0f} s to search every "
                        f"choice of rerolls{per}, over the limit of {MAX_SECONDS:.0f} s: "
                        f"use fewer {'dice' if field == 'pool' else 'rerolls'} or another reroll policy")


def defender_contexts(battle: Battle) -> int:
    """How many different attacker totals a defender playing ``best`` answers, counted without listing them.

    The defender's values depend on the attacker's final hits (each its own: the damage the
    defender takes) and on the attacker's blocks only up to the defender's most hits (beyond, the
    defender deals no damage whatever it rolls): hits x min(blocks, defender's most hits + 1).

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers
    >>> die = CombatDie("d", ((1, 1, 0),) * 6)
    >>> defender_contexts(Battle(Side(((die, 3),), Modifiers(), ()), Side(((die, 1),), Modifiers(), ())))
    8
    """
    hits, blocks = final_bounds(battle.attacker)
    return hits * min(blocks, final_bounds(battle.defender)[0])


def _big_weights(battle: Battle) -> bool:
    """Whether the weights joining the two sides may outgrow 64 bits (then held as Python integers)."""
    sides = (played(battle.attacker), played(battle.defender))
    rolled = sum(side.dice_count + 2 * (side.modifiers.rerolls + side.modifiers.card_rerolls) for side in sides)
    return rolled * 2.6 > 60  # a die has up to 6 faces: 2.6 bits of weight each, a reroll ~ two dice


def grid_seconds(battle: Battle) -> float:
    """Estimated seconds of the grids that join the two sides when one plays ``best``.

    With a defender playing ``best``: its values in every context, its answers weighed by the
    attacker's totals and the attacker's values against them, about 6 cells per (context, final
    hits, final blocks) of the defender. With a defender's fixed policy: the attacker's totals
    against the defender's hits and blocks, a few cells per pair.
    """
    (ha, ba), (hd, bd) = final_bounds(battle.attacker), final_bounds(battle.defender)
    if battle.defender.reroll_policy == "best":
        cells = 6 * defender_contexts(battle) * hd * bd
    else:
        cells = 6 * (ha * ba + hd * bd + ha * bd + hd * ba)
    return cells * NS_PER_CELL[_big_weights(battle)] * 1e-9


def _roll_key(side: Side) -> tuple[Any, ...]:
    """What the count engine's cached roll of a side depends on."""
    side = played(side)
    mods = side.modifiers
    return ("roll", side.pool, mods.rerolls, mods.card_rerolls, mods.arcane_to_hits, mods.arcane_to_blocks,
            side.reroll_policy)


def _roll(side: Side, role: str, many: bool) -> Cost:
    """The count engine's roll of a side playing a fixed policy (`many`: small pools weighed too)."""
    try:
        micro = side_weight(side) if many else side_cost(side)
    except ScenarioError as error:
        raise ScenarioError(f"{role}.{error.field}", error.problem) from None
    return Cost(micro / 1e6, f"{role}.pool", f"the {role}'s roll", _roll_key(side))


def battle_costs(battle: Battle, many: bool = False) -> list[Cost]:
    """Each part of `battle.resolve_battle` for `battle`, estimated.

    Args:
        battle: the battle.
        many: the battle is one of many weighed together (a sweep, the row advisor): a small roll,
            which a battle alone never refuses, is weighed too (`combat.side_weight`).

    Raises:
        ScenarioError: one part alone is over its limit (the engine's or the search's own refusal).
    """
    atk, dfn = battle.attacker, battle.defender
    if "best" not in (atk.reroll_policy, dfn.reroll_policy):
        return [_roll(atk, "attacker", many), _roll(dfn, "defender", many)]
    parts = []
    if atk.reroll_policy == "best":
        check_search(atk, "attacker", 1)
        parts.append(Cost(search_seconds(atk, 1), f"attacker.{_search_field(atk, 1)}", "the attacker's best play",
                          ("attacker search", battle), search_bytes(atk, 1, True)))
    else:
        parts.append(_roll(atk, "attacker", many))
    if dfn.reroll_policy == "best":
        contexts = check_defender(battle)
        big = defender_keys_big(battle)
        neutral = replace(battle, attacker=replace(atk, reroll_policy="none"))  # its answers ignore how atk rerolls
        parts.append(Cost(search_seconds(dfn, contexts, big=big), f"defender.{_search_field(dfn, contexts, big)}",
                          "the defender's best answers", ("defender search", neutral), search_bytes(dfn, contexts, big)))
    else:
        parts.append(_roll(dfn, "defender", many))
    bigger = "attacker" if atk.dice_count >= dfn.dice_count else "defender"
    parts.append(Cost(grid_seconds(battle), f"{bigger}.pool", "the grids joining both sides", ("grids", battle),
                      grid_bytes(battle)))
    return parts


def report_costs(battle: Battle, many: bool = False) -> list[Cost]:
    """The parts of a battle's report: the battle and, per side playing ``best``, its best-play summary
    (the same battle with that side playing ``misses``); `many` as for `battle_costs`.

    Raises:
        ScenarioError: one part alone is over its limit.
    """
    parts = battle_costs(battle, many)
    for role in ("attacker", "defender"):
        side: Side = getattr(battle, role)
        if side.reroll_policy == "best":
            misses = replace(side, reroll_policy="misses")
            baseline = replace(battle, attacker=misses) if role == "attacker" else replace(battle, defender=misses)
            parts += battle_costs(baseline, many)
    return parts


def check_report(battle: Battle) -> None:
    """Refuse, before anything is computed, a battle whose report costs too much: when a side plays
    ``best``, the battle and its best-play summary together (`report_costs`). A battle without best
    play is weighed by `battle.resolve_battle` itself (`combat.check_battle_cost`).

    Raises:
        ScenarioError: naming the costliest part's input (``attacker.rerolls``...).
    """
    if "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy):
        check_costs(report_costs(battle), REPORT_WHAT)


def report_seconds(battle: Battle) -> float:
    """Seconds a battle's report is estimated at (`report_costs`), refused past the limit (`check_report`).

    Raises:
        ScenarioError: naming the costliest part's input.
    """
    if "best" in (battle.attacker.reroll_policy, battle.defender.reroll_policy):
        return check_costs(report_costs(battle), REPORT_WHAT)
    return total(battle_costs(battle))[0]


def total(parts: Iterable[Cost]) -> tuple[float, list[Cost]]:
    """Seconds of the parts, each computation counted once, and the distinct parts, costliest first."""
    distinct: dict[tuple[Any, ...], Cost] = {}
    for part in parts:
        distinct.setdefault(part.key, part)
    ordered = sorted(distinct.values(), key=lambda p: -p.seconds)
    return sum(p.seconds for p in ordered), ordered


def check_costs(parts: Iterable[Cost], what: str, hint: str = POLICY_HINT, field: str | None = None) -> float:
    """Refuse a request whose parts together are estimated above `MAX_SECONDS`; else its seconds.

    Args:
        parts: the request's parts (`battle_costs`, `report_costs`, ...).
        what: what the request is, for the message (`REPORT_WHAT`).
        hint: what to change.
        field: the input to name; by default the costliest part's.

    Raises:
        ScenarioError: naming `field` or the costliest part's input.
    """
    seconds, ordered = total(parts)
    needs = sum(p.bytes for p in ordered)
    if needs > MAX_BYTES:
        top = max(ordered, key=lambda p: p.bytes)
        raise ScenarioError(field or top.field, f"{what}: about {needs / 1e6:.0f} MB estimated (limit "
                                                f"{MAX_BYTES / 1e6:.0f} MB; {top.what} {top.bytes / 1e6:.0f} MB): {hint}")
    if seconds <= MAX_SECONDS:
        return seconds
    top = ordered[0]
    raise ScenarioError(field or top.field, f"{what}: about {seconds:.1f} s of work estimated (limit "
                                            f"{MAX_SECONDS:.0f} s; {top.what} {top.seconds:.1f} s): {hint}")
