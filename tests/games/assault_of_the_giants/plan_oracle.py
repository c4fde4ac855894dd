"""Brute-force plans of Assault of the Giants battles, read straight from a scenario mapping.

Written from the rulebook pages (p.16-20) and the plan keys of docs/assault-of-the-giants.md, sharing no code with
the explorer: it reads the scenario itself, rolls every die of every battle one face at a time
(rerolled dice too), assigns damage by the p.17 procedure unit by unit (trying every order for
``fewest-op``), carries every unit's status, every player's Ordning Points and Resource Cards to
the next battle, and ranks the players by p.20's chain at the end. Probabilities are Fractions.

Supported subset (what the tests generate): dice given in the scenario, explicit ``rerolls`` /
``arcane_to_hits`` / ``arcane_to_blocks`` (no Command rows), reroll policies ``none`` and
``blanks``, casualty orders ``listed`` and ``fewest-op``.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

SIXTH = Fraction(1, 6)


@dataclass
class Trooper:
    """A unit as the scenario lists it."""

    fortitude: int
    wounded_fortitude: int
    ordning_value: int
    champion: bool


@dataclass
class Force:
    """An army as the scenario lists it."""

    name: str
    player: str | None
    npc: bool
    slayers: bool
    occupies: bool
    troopers: list[Trooper]
    start: tuple[str, ...]


def _forces(data: dict[str, Any]) -> list[Force]:
    out = []
    for name, a in data["armies"].items():
        troopers = [Trooper(u["fortitude"], u.get("wounded_fortitude", u["fortitude"]), u.get("ordning_value", 0),
                            u.get("champion", False)) for u in a["units"]]
        start = tuple("wounded" if u.get("wounded") else "healthy" for u in a["units"])
        slayers = a.get("giantslayers", False)
        npc = a.get("npc", False)
        out.append(Force(name, a.get("player"), npc, slayers, a.get("occupies_region", not slayers and not npc),
                         troopers, start))
    return out


def roll_totals(dice: dict[str, list[dict[str, int]]], side: dict[str, Any]) -> dict[tuple[int, int], Fraction]:
    """Every roll of the side's pool, die by die, then its rerolls die by die: (hits, blocks) -> chance."""
    faces = [[(f.get("hit", 0), f.get("block", 0), f.get("arcane", 0)) for f in dice[name]]
             for name, n in side["pool"].items() for _ in range(n)]
    rerolls = side.get("rerolls", 0)
    to_hits, to_blocks = side.get("arcane_to_hits", 0), side.get("arcane_to_blocks", 0)
    arcane_worth = 2 if to_hits else 1 if to_blocks else 0
    worth = [sum(h + b + arcane_worth * a for h, b, a in die) for die in faces]
    out: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for first in itertools.product(*(range(6) for _ in faces)):
        chance = SIXTH ** len(faces)
        rolled = [faces[i][k] for i, k in enumerate(first)]
        chosen: list[int] = []
        if side.get("reroll_policy", "misses") == "blanks":
            blanks = [i for i, f in enumerate(rolled) if f == (0, 0, 0)]
            # the die worth most when rolled afresh first; equal worth: the first listed in the pool
            blanks.sort(key=lambda i: (-worth[i], i))
            chosen = blanks[:rerolls]
        elif side.get("reroll_policy", "misses") != "none" and rerolls:
            raise ValueError("the oracle knows the policies none and blanks")
        for again in itertools.product(*(range(6) for _ in chosen)):
            final = list(rolled)
            for i, k in zip(chosen, again):
                final[i] = faces[i][k]
            hits = sum(f[0] for f in final)
            blocks = sum(f[1] for f in final)
            arcane = sum(f[2] for f in final)
            hit_conversions = min(arcane, to_hits)
            block_conversions = min(arcane - hit_conversions, to_blocks)
            out[(hits + 2 * hit_conversions, blocks + block_conversions)] += chance * SIXTH ** len(chosen)
    return dict(out)


def _reward(victim: Force, victor: Force, trooper: Trooper) -> tuple[int, int]:
    """(Ordning Points, Resource Cards) the victor's player gets for defeating `trooper` (p.19-20)."""
    if victor.npc:
        return 0, 0
    if victim.slayers:
        return 0, 1
    if victor.slayers:
        return -(-trooper.ordning_value // 2), 0
    return trooper.ordning_value, 0


def _take_damage(force: Force, statuses: tuple[str, ...], order: list[int], damage: int) -> tuple[str, ...]:
    """p.17: each picked unit absorbs as much of the damage as it can, until none is left."""
    now = list(statuses)
    for i in order:
        if damage == 0:
            break
        t = force.troopers[i]
        fortitude = t.wounded_fortitude if now[i] == "wounded" else t.fortitude
        if damage >= fortitude:
            now[i] = "defeated"
            damage -= fortitude
        elif t.champion:
            damage = 0  # a champion shrugs off damage below its Fortitude
        else:
            now[i] = "wounded" if now[i] == "healthy" else "defeated"
            damage = 0
    return tuple(now)


def casualties(force: Force, victor: Force, statuses: tuple[str, ...], damage: int, rule: str) -> tuple[str, ...]:
    """The army's statuses after sustaining `damage`, champions first, by the casualty rule."""
    alive = [i for i, s in enumerate(statuses) if s != "defeated"]
    champions = [i for i in alive if force.troopers[i].champion]
    others = [i for i in alive if not force.troopers[i].champion]
    if rule == "listed":
        return _take_damage(force, statuses, champions + others, damage)
    best = None
    for front in itertools.permutations(champions):
        for back in itertools.permutations(others):
            after = _take_damage(force, statuses, list(front + back), damage)
            fallen = [i for i in alive if after[i] == "defeated"]
            score = (sum(_reward(force, victor, force.troopers[i])[0] for i in fallen), len(fallen))
            if best is None or score < best[0]:
                best = (score, after)
    assert best is not None
    return best[1]


@dataclass
class OracleResult:
    """Everything the oracle reports."""

    players: list[str]
    final: dict[tuple, Fraction]
    earned: list[dict[tuple, Fraction]] = field(default_factory=list)
    """Per battle: (fought, attacker's points, defender's points, attacker's cards, defender's cards) -> chance."""
    statuses: list[dict[str, list[dict[str, Fraction]]]] = field(default_factory=list)
    """Per battle: army -> per unit: status -> chance."""
    standings: dict[tuple, Fraction] = field(default_factory=dict)
    wins: dict[str, Fraction] = field(default_factory=dict)
    shares: dict[str, Fraction] = field(default_factory=dict)
    decided: dict[str, Fraction] = field(default_factory=dict)


def play(data: dict[str, Any]) -> OracleResult:
    """Enumerate the whole plan."""
    forces = _forces(data)
    players = list(dict.fromkeys(f.player for f in forces if f.player is not None))
    players += [p for p in data.get("standings", {}) if p not in players]
    table = data.get("standings", {})
    points0 = tuple(table.get(p, {}).get("ordning_points", 0) for p in players)
    cards0 = tuple(table.get(p, {}).get("resource_cards", 0) for p in players)
    regions0 = [table.get(p, {}).get("regions", sum(1 for f in forces if f.player == p and f.occupies))
                for p in players]
    states: dict[tuple, Fraction] = {(tuple(f.start for f in forces), points0, cards0): Fraction(1)}
    result = OracleResult(players, {})
    by_name = {f.name: i for i, f in enumerate(forces)}
    for battle in data["plan"]:
        a, d = by_name[battle["attacker"]["army"]], by_name[battle["defender"]["army"]]
        atk, dfn = forces[a], forces[d]
        atk_rolls = roll_totals(data["dice"], battle["attacker"])
        dfn_rolls = roll_totals(data["dice"], battle["defender"])
        after: dict[tuple, Fraction] = defaultdict(Fraction)
        earned: dict[tuple, Fraction] = defaultdict(Fraction)
        for (statuses, points, cards), p in states.items():
            if all(s == "defeated" for s in statuses[a]) or all(s == "defeated" for s in statuses[d]):
                after[(statuses, points, cards)] += p
                earned[(False, 0, 0, 0, 0)] += p
                continue
            for (ha, ba), pa in atk_rolls.items():
                for (hd, bd), pd in dfn_rolls.items():
                    new_a = casualties(atk, dfn, statuses[a], max(0, hd - ba),
                                       battle["attacker"].get("casualty_order", "listed"))
                    new_d = casualties(dfn, atk, statuses[d], max(0, ha - bd),
                                       battle["defender"].get("casualty_order", "listed"))
                    won_a = [_reward(dfn, atk, dfn.troopers[i]) for i in range(len(new_d))
                             if new_d[i] == "defeated" != statuses[d][i]]
                    won_d = [_reward(atk, dfn, atk.troopers[i]) for i in range(len(new_a))
                             if new_a[i] == "defeated" != statuses[a][i]]
                    gains = (sum(w[0] for w in won_a), sum(w[0] for w in won_d),
                             sum(w[1] for w in won_a), sum(w[1] for w in won_d))
                    new_points, new_cards = list(points), list(cards)
                    for force, pts, crd in ((atk, gains[0], gains[2]), (dfn, gains[1], gains[3])):
                        if force.player is not None:
                            new_points[players.index(force.player)] += pts
                            new_cards[players.index(force.player)] += crd
                    new_statuses = list(statuses)
                    new_statuses[a], new_statuses[d] = new_a, new_d
                    after[(tuple(new_statuses), tuple(new_points), tuple(new_cards))] += p * pa * pd
                    earned[(True,) + gains] += p * pa * pd
        states = dict(after)
        result.earned.append(dict(earned))
        marginals: dict[str, list[dict[str, Fraction]]] = {}
        for k, force in enumerate(forces):
            marginals[force.name] = [dict(sum((Counter({s[0][k][i]: q}) for s, q in states.items()), Counter()))
                                     for i in range(len(force.troopers))]
        result.statuses.append(marginals)
    result.final = states
    _rank(result, forces, regions0)
    return result


def _rank(result: OracleResult, forces: list[Force], regions0: list[int]) -> None:
    """p.20: most Ordning Points; tied, most Resource Cards; tied, most regions; still tied, shared."""
    players = result.players
    result.wins = {p: Fraction(0) for p in players}
    result.shares = {p: Fraction(0) for p in players}
    result.decided = defaultdict(Fraction)
    standings: dict[tuple, Fraction] = defaultdict(Fraction)
    for (statuses, points, cards), p in result.final.items():
        regions = list(regions0)
        for k, force in enumerate(forces):
            if force.player is not None and force.occupies and all(s == "defeated" for s in statuses[k]):
                regions[players.index(force.player)] -= 1
        row = tuple(zip(points, cards, regions))
        standings[row] += p
        tied = list(range(len(players)))
        decided = "shared"
        for level, name in enumerate(("ordning_points", "resource_cards", "regions")):
            top = max(row[i][level] for i in tied)
            tied = [i for i in tied if row[i][level] == top]
            if len(tied) == 1:
                decided = name
                break
        result.decided[decided] += p
        for i in tied:
            (result.wins if len(tied) == 1 else result.shares)[players[i]] += p
    result.standings = dict(standings)
