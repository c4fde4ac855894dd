"""Brute-force Assault of the Giants resolver: every die rolled one by one, every order tried.

Written straight from the scenario spec, sharing no code with the fast path
(`explorer.games.assault_of_the_giants`) beyond the frozen input types, so that the two
can be compared on many small random battles.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import replace
from fractions import Fraction

from explorer.games.assault_of_the_giants.rules.model import Battle, Modifiers, Side, Unit

Dists = dict[str, Counter]


def _worth_rank(side: Side) -> list[int]:
    """Rank of each pool entry: fresh-roll worth, best first, ties by pool position."""
    mods = side.modifiers
    value = 2 if mods.arcane_to_hits else 1 if mods.arcane_to_blocks else 0
    worth = [Fraction(sum(h + b + value * a for h, b, a in die.faces), 6) for die, _ in side.pool]
    order = sorted(range(len(side.pool)), key=lambda k: (-worth[k], k))
    return [order.index(k) for k in range(len(side.pool))]


def _choose(side: Side, kinds: list[int], faces: tuple, rerolls: int) -> list[int]:
    """Indices of the dice rerolled, by the named policy, one die at a time (at most `rerolls`)."""
    mods, rank = side.modifiers, _worth_rank(side)
    if side.reroll_policy == "none":
        return []
    blanks = sorted((i for i, f in enumerate(faces) if f == (0, 0, 0)), key=lambda i: (rank[kinds[i]], i))
    chosen = blanks[:rerolls]
    if side.reroll_policy == "blanks":
        return chosen
    spare = sum(f[2] for f in faces) - mods.arcane_to_hits - mods.arcane_to_blocks
    arcane_only = sorted((i for i, f in enumerate(faces) if f[0] == f[1] == 0 and f[2] > 0),
                         key=lambda i: (faces[i][2], rank[kinds[i]], i))
    for i in arcane_only:
        if len(chosen) < rerolls and faces[i][2] <= spare:
            chosen.append(i)
            spare -= faces[i][2]
    return chosen


def with_cards(side: Side) -> tuple[Side, tuple[int, int], int]:
    """The side with its cards written out, their flat (hits, blocks), and the second round's rerolls.

    Each card's dice are appended to the pool as entries of their own, its conversions added to
    the modifiers; its rerolls are a second round after the Command rerolls (p.16), or join them
    with ``card_rerolls: "with commands"``; the flat hits and blocks go to the final totals.
    """
    pool = side.pool + tuple(entry for card in side.cards for entry in card.dice)
    mods = side.modifiers
    extra = sum(c.rerolls for c in side.cards)
    merged = side.card_rerolls == "with commands"
    total = Modifiers(mods.rerolls + (extra if merged else 0),
                      mods.arcane_to_hits + sum(c.arcane_to_hits for c in side.cards),
                      mods.arcane_to_blocks + sum(c.arcane_to_blocks for c in side.cards))
    shift = (sum(c.hits for c in side.cards), sum(c.blocks for c in side.cards))
    second = (0 if merged else extra) + mods.card_rerolls
    return replace(side, pool=pool, modifiers=total, cards=()), shift, second


def _round(side: Side, kinds: list[int], dice: list, rolls: Counter, rerolls: int) -> Counter:
    """Every face sequence after one round of `rerolls` (each roll's chosen dice rolled again),
    weighed over 6^(most dice the round may take)."""
    most = min(rerolls, len(dice))
    out: Counter = Counter()
    for faces, w in rolls.items():
        chosen = _choose(side, kinds, faces, rerolls)
        for fresh in itertools.product(*(dice[i].faces for i in chosen)):
            final = list(faces)
            for i, f in zip(chosen, fresh):
                final[i] = f
            out[tuple(final)] += w * 6 ** (most - len(chosen))
    return out


def brute_totals(side: Side) -> Counter:
    """(hits, blocks) -> weight over 6^(dice + most rerolls of each round) equally likely sequences
    (cards included): the Command round, then the cards' round on the dice as they then lie."""
    side, (dh, db), second = with_cards(side)
    kinds = [k for k, (_, n) in enumerate(side.pool) for _ in range(n)]
    dice = [side.pool[k][0] for k in kinds]
    rolls = Counter(itertools.product(*(d.faces for d in dice)))
    for rerolls in (side.modifiers.rerolls, second):
        rolls = _round(side, kinds, dice, rolls, rerolls)
    out: Counter = Counter()
    for final, w in rolls.items():
        hits = sum(f[0] for f in final)
        blocks = sum(f[1] for f in final)
        arcane = sum(f[2] for f in final)
        to_hits = min(arcane, side.modifiers.arcane_to_hits)
        to_blocks = min(arcane - to_hits, side.modifiers.arcane_to_blocks)
        out[(hits + 2 * to_hits + dh, blocks + to_blocks + db)] += w
    return out


def _take(unit: Unit, status: str, damage: int) -> tuple[str, int]:
    fortitude = unit.wounded_fortitude if status == "wounded" else unit.fortitude
    if unit.champion:
        if fortitude > damage:
            return status, 0
        return "defeated", damage - fortitude
    if damage >= fortitude:
        return "defeated", damage - fortitude
    return ("wounded" if status == "healthy" else "defeated"), 0


def _reward(victim: Side, victor: Side, unit: Unit) -> tuple[int, int]:
    """(Ordning Points, Resource Cards) the victor earns for defeating `unit`."""
    if victor.npc:
        return 0, 0
    if victim.giantslayers:
        return 0, 1
    if victor.giantslayers:
        return math.ceil(unit.ordning_value / 2), 0
    return unit.ordning_value, 0


def brute_casualties(victim: Side, victor: Side, damage: int) -> tuple[str, ...]:
    """Try every order allowed (champions first); keep the policy's choice."""
    units = victim.units
    champs = [i for i, u in enumerate(units) if u.champion]
    others = [i for i, u in enumerate(units) if not u.champion]
    best = None
    for a in itertools.permutations(champs):
        for b in itertools.permutations(others):
            statuses = ["wounded" if u.wounded else "healthy" for u in units]
            left = damage
            for i in a + b:
                if left <= 0:
                    break
                statuses[i], left = _take(units[i], statuses[i], left)
            if victim.casualty_order == "listed":
                return tuple(statuses)
            dead = [i for i, s in enumerate(statuses) if s == "defeated"]
            key = (sum(_reward(victim, victor, units[i])[0] for i in dead), len(dead))
            if best is None or key < best[0]:
                best = (key, tuple(statuses))
    return best[1] if best else ()


def brute_battle(battle: Battle) -> dict[str, Dists]:
    """Per side: Counters of hits, blocks, damage_taken, ordning_points, resource_cards, units."""
    atk, dfn = battle.attacker, battle.defender
    ta, td = brute_totals(atk), brute_totals(dfn)
    result = {name: {q: Counter() for q in ("hits", "blocks", "damage_taken", "ordning_points",
                                             "resource_cards")} for name in ("attacker", "defender")}
    for name in result:
        side = atk if name == "attacker" else dfn
        result[name]["units"] = [Counter() for _ in side.units]
    for (ha, ba), wa in ta.items():
        for (hd, bd), wd in td.items():
            w = wa * wd
            for name, me, enemy, hits, blocks, in_hits in (
                ("attacker", atk, dfn, ha, ba, hd), ("defender", dfn, atk, hd, bd, ha)):
                damage = max(0, in_hits - blocks)
                mine = brute_casualties(me, enemy, damage)
                r = result[name]
                r["hits"][hits] += w
                r["blocks"][blocks] += w
                r["damage_taken"][damage] += w
                for i, s in enumerate(mine):
                    r["units"][i][s] += w
            # Rewards: each side earns from the other's casualties.
            for name, me, enemy, damage in (("attacker", atk, dfn, max(0, ha - bd)),
                                             ("defender", dfn, atk, max(0, hd - ba))):
                theirs = brute_casualties(enemy, me, damage)
                rewards = [_reward(enemy, me, enemy.units[i]) for i, s in enumerate(theirs) if s == "defeated"]
                result[name]["ordning_points"][sum(r[0] for r in rewards)] += w
                result[name]["resource_cards"][sum(r[1] for r in rewards)] += w
    return result


def normalise(counter: Counter) -> dict:
    """Counter -> outcome: Fraction, zero outcomes dropped."""
    total = sum(counter.values())
    return {k: Fraction(v, total) for k, v in counter.items() if v}
