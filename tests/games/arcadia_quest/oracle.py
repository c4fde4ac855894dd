"""An independent oracle for Arcadia Quest encounters and sequences, written from the rules, not from the resolver.

Nothing here imports `explorer`: the dice faces, the abilities and the reactions are written out
again from ``shared/rules/arcadia-quest.md`` and the seed page (printed pp.20-21), and every roll is
enumerated face by face, round by round, as players roll:

* a round rolls a batch of dice and shows every face combination (itertools.product);
* reroll points go on the failed dice of the batch, up to the points left; each rerolled die, and
  one extra die per CRIT, make up the next batch (a rerolled die may be rerolled again);
* rounds deeper than `depth` are cut; their probability is returned as the cut.

Exact `Fraction`s throughout; slow, so for small pools only.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

ATTACK_FACES = ("melee", "melee", "melee", "ranged", "ranged", "crit")
DEFENCE_FACES = ("shield", "crit", "blank", "blank", "blank", "blank")

Dist = dict[int, Fraction]


@cache
def roll(dice: int, rerolls: int, faces: tuple[str, ...], scores: str, crit_worth: int = 1,
         depth: int = 14) -> tuple[tuple[tuple[int, Fraction], ...], Fraction]:
    """Successes of one roll: ((successes, probability), ...) and the probability cut at `depth` rounds."""
    if dice == 0:
        return ((0, Fraction(1)),), Fraction(0)
    if depth == 0:
        return (), Fraction(1)
    out: Dist = {}
    cut = Fraction(0)
    each = Fraction(1, len(faces) ** dice)
    for shown in product(faces, repeat=dice):
        failed = sum(face not in (scores, "crit") for face in shown)
        crits = shown.count("crit")
        plain = dice - failed - crits
        again = min(rerolls, failed)
        rest, rest_cut = roll(again + crits, rerolls - again, faces, scores, crit_worth, depth - 1)
        cut += each * rest_cut
        for k, p in rest:
            total = plain + crit_worth * crits + k
            out[total] = out.get(total, Fraction(0)) + each * p
    return tuple(sorted(out.items())), cut


def wounds(hits: tuple[tuple[int, Fraction], ...], saves: tuple[tuple[int, Fraction], ...]) -> Dist:
    """max(0, hits - saves) of two independent rolls."""
    out: Dist = {}
    for h, p in hits:
        for s, q in saves:
            out[max(0, h - s)] = out.get(max(0, h - s), Fraction(0)) + p * q
    return out


def attack(attacker: dict, target: dict, *, attacker_wounded: bool, target_wounded: bool,
           target_dazed: bool) -> tuple[Dist, Fraction]:
    """Wounds of one attack between two plain dicts (keys: dice, kind, rerolls, abilities; defence,
    flanked), abilities applied from the rules notes (§4.1, §3.4, §2.5)."""
    skills = attacker.get("abilities", ())
    dice = attacker["dice"] + ("extra-die-while-wounded" in skills and attacker_wounded) \
        + ("extra-die-vs-flanked" in skills and target.get("flanked", False))
    worth = 2 if "extra-hit-per-crit" in skills else 1
    hits, cut_a = roll(dice, attacker.get("rerolls", 0), ATTACK_FACES, attacker["kind"], worth)
    if target_dazed or "ignore-defence" in skills:
        saves, cut_d = ((0, Fraction(1)),), Fraction(0)
    else:
        extra = "extra-die-while-wounded" in target.get("abilities", ()) and target_wounded
        saves, cut_d = roll(target.get("defence", 0) + extra, target.get("rerolls", 0), DEFENCE_FACES, "shield")
    return wounds(hits, saves), cut_a + cut_d - cut_a * cut_d


def encounter(hero: dict, target: dict, guards: list[dict], *, target_close: bool = False,
              opponent_attacks: bool = True, reaches: bool = True) -> tuple[dict[tuple[int, int], Fraction], Fraction]:
    """Joint (wounds the hero's attack deals, wounds the hero takes, capped at his Life left) and the cut.

    `hero`: dice, kind, rerolls, abilities, defence, life, wounds, flanked, dazed.
    `target`, each guard: dice, kind, rerolls, abilities, defence, life, wounds, overkill (None), flanked, dazed.
    """
    life_left = hero["life"] - hero.get("wounds", 0)
    hero_wounded = hero.get("wounds", 0) > 0
    first, cut = attack(hero, target, attacker_wounded=hero_wounded, target_wounded=target.get("wounds", 0) > 0,
                        target_dazed=target.get("dazed", False))
    as_defender = {"defence": hero["defence"], "rerolls": hero.get("rerolls", 0), "abilities": hero.get("abilities", ()),
                   "flanked": hero.get("flanked", False)}
    joint: dict[tuple[int, int], Fraction] = {}
    for w, p in first.items():
        overkilled = target.get("overkill") is not None and w >= target["overkill"]
        attackers = []
        if opponent_attacks and reaches and not overkilled:
            attackers.append((target, target.get("wounds", 0) + w > 0))
        if opponent_attacks and not target_close:
            attackers += [(g, g.get("wounds", 0) > 0) for g in guards]
        # the hero's state: (wounds taken, dazed) -> probability
        states = {(0, hero.get("dazed", False)): Fraction(1)}
        for monster, wounded in attackers:
            nxt: dict[tuple[int, bool], Fraction] = {}
            for (taken, dazed), q in states.items():
                if taken >= life_left:
                    nxt[(taken, dazed)] = nxt.get((taken, dazed), Fraction(0)) + q
                    continue
                hurt, lost = attack(monster, as_defender, attacker_wounded=wounded,
                                    target_wounded=hero_wounded or taken > 0, target_dazed=dazed)
                cut += p * q * lost
                for h, r in hurt.items():
                    key = (min(life_left, taken + h), dazed or ("daze-on-wound" in monster.get("abilities", ()) and h > 0))
                    nxt[key] = nxt.get(key, Fraction(0)) + q * r
            states = nxt
        for (taken, _), q in states.items():
            joint[(w, taken)] = joint.get((w, taken), Fraction(0)) + p * q
    return joint, cut


def attacks_to_kill(hero: dict, target: dict, cap: int) -> tuple[dict[int, Fraction], Fraction, Fraction]:
    """One hero attacking one Monster again and again, Payback after each attack unless overkilled.

    Returns (attack number -> P(killed on it), P(hero killed first), P(neither within `cap`)), by a
    memoised recursion on (attacks made, Wounds on the Monster, wounds the hero has taken)."""
    life_left = hero["life"] - hero.get("wounds", 0)
    as_defender = {"defence": hero["defence"], "rerolls": hero.get("rerolls", 0), "abilities": hero.get("abilities", ())}

    @cache
    def go(n: int, on_monster: int, taken: int) -> tuple[tuple[tuple[int, Fraction], ...], Fraction, Fraction]:
        """From attack `n` on, for unit mass: (kills by attack number, hero dead, beyond the cap)."""
        if n > cap:
            return (), Fraction(0), Fraction(1)
        kills: dict[int, Fraction] = {}
        dead = beyond = Fraction(0)
        first, _ = attack(hero, {**target, "wounds": on_monster}, attacker_wounded=hero.get("wounds", 0) + taken > 0,
                          target_wounded=on_monster > 0, target_dazed=False)
        for w, q in first.items():
            after = min(target["life"], on_monster + w)
            overkilled = target.get("overkill") is not None and w >= target["overkill"]
            hurt = {0: Fraction(1)}
            if not overkilled:
                hurt, _ = attack(target, as_defender, attacker_wounded=after > 0,
                                 target_wounded=hero.get("wounds", 0) + taken > 0, target_dazed=False)
            for h, r in hurt.items():
                mass = q * r
                if after >= target["life"]:
                    kills[n] = kills.get(n, Fraction(0)) + mass
                elif taken + h >= life_left:
                    dead += mass
                else:
                    later, later_dead, later_beyond = go(n + 1, after, taken + h)
                    for m, k in later:
                        kills[m] = kills.get(m, Fraction(0)) + mass * k
                    dead += mass * later_dead
                    beyond += mass * later_beyond
        return tuple(sorted(kills.items())), dead, beyond

    kills, dead, beyond = go(1, target.get("wounds", 0), 0)
    return dict(kills), dead, beyond


def _hero_after(hero: dict, attackers: list[tuple[dict, bool]]) -> tuple[dict[int, Fraction], Fraction]:
    """Wounds the hero takes (capped at his Life left) from `attackers` (monster, is it wounded) in turn."""
    life_left = hero["life"] - hero.get("wounds", 0)
    hero_wounded = hero.get("wounds", 0) > 0
    as_defender = {"defence": hero["defence"], "rerolls": hero.get("rerolls", 0), "abilities": hero.get("abilities", ()),
                   "flanked": hero.get("flanked", False)}
    states = {(0, hero.get("dazed", False)): Fraction(1)}
    cut = Fraction(0)
    for monster, wounded in attackers:
        nxt: dict[tuple[int, bool], Fraction] = {}
        for (taken, dazed), q in states.items():
            if taken >= life_left:
                nxt[(taken, dazed)] = nxt.get((taken, dazed), Fraction(0)) + q
                continue
            hurt, lost = attack(monster, as_defender, attacker_wounded=wounded,
                                target_wounded=hero_wounded or taken > 0, target_dazed=dazed)
            cut += q * lost
            for h, r in hurt.items():
                key = (min(life_left, taken + h), dazed or ("daze-on-wound" in monster.get("abilities", ()) and h > 0))
                nxt[key] = nxt.get(key, Fraction(0)) + q * r
        states = nxt
    out: dict[int, Fraction] = {}
    for (taken, _), q in states.items():
        out[taken] = out.get(taken, Fraction(0)) + q
    return out, cut


def several_targets(hero: dict, targets: list[dict], guards: list[dict], *, payback_by: str | None = None,
                    opponent_attacks: bool = True) -> tuple[dict[tuple[int, int], Fraction], dict[str, Fraction],
                                                            list[Fraction], Fraction]:
    """An attack on several Monsters (printed p.21, the rules notes §2.3), enumerated outcome by outcome.

    One attack roll; each target (``name``, the monster keys, ``close``, ``reaches``) rolls its own
    Defense against its hits. Of the targets not overkilled whose Payback reaches the hero, one pays
    back: the one named `payback_by` if it can, else the one giving the highest P(hero killed), then
    the most expected wounds, then the first listed. Then the Guard of `guards`, unless a target is
    Close. Returns (joint (wounds to the first target, hero wounds), P(who pays back, "nobody"
    included), P(each target killed), cut).
    """
    life_left = hero["life"] - hero.get("wounds", 0)
    skills = hero.get("abilities", ())
    dice = hero["dice"] + ("extra-die-while-wounded" in skills and hero.get("wounds", 0) > 0) \
        + ("extra-die-vs-flanked" in skills and targets[0].get("flanked", False))
    hits, cut = roll(dice, hero.get("rerolls", 0), ATTACK_FACES, hero["kind"], 2 if "extra-hit-per-crit" in skills else 1)
    saves = []
    for t in targets:
        if t.get("dazed", False) or "ignore-defence" in skills:
            saves.append((((0, Fraction(1)),), Fraction(0)))
        else:
            extra = "extra-die-while-wounded" in t.get("abilities", ()) and t.get("wounds", 0) > 0
            saves.append(roll(t.get("defence", 0) + extra, t.get("rerolls", 0), DEFENCE_FACES, "shield"))
    kept = Fraction(1) - cut
    for _, lost in saves:
        kept *= 1 - lost
    guard = [] if not opponent_attacks or any(t.get("close", False) for t in targets) else \
        [(g, g.get("wounds", 0) > 0) for g in guards]
    joint: dict[tuple[int, int], Fraction] = {}
    payers: dict[str, Fraction] = {}
    killed = [Fraction(0)] * len(targets)
    side_cut = Fraction(0)

    @cache
    def side_of(i: int | None, wounded: bool) -> tuple[dict[int, Fraction], Fraction]:
        """The hero's wounds after target `i`'s Payback (None: none) and the Guard."""
        return _hero_after(hero, guard if i is None else [(targets[i], wounded), *guard])

    def spread(h: int, i: int, mass: Fraction, so_far: tuple[int, ...]) -> None:
        """Every combination of the targets' saves against `h` hits, target by target."""
        if i == len(targets):
            finish(so_far, mass)
            return
        for s, q in saves[i][0]:
            spread(h, i + 1, mass * q, (*so_far, max(0, h - s)))

    def finish(ws: tuple[int, ...], mass: Fraction) -> None:
        nonlocal side_cut
        for i, (t, w) in enumerate(zip(targets, ws)):
            if w >= t["life"] - t.get("wounds", 0):
                killed[i] += mass
        can = [i for i, (t, w) in enumerate(zip(targets, ws)) if opponent_attacks and t.get("reaches", True)
               and not (t.get("overkill") is not None and w >= t["overkill"])]
        sides = {i: side_of(i, targets[i].get("wounds", 0) + ws[i] > 0) for i in can}
        named = [i for i in can if targets[i]["name"] == payback_by]
        if named:
            payer = named[0]
        elif can:
            def badness(i: int) -> tuple[Fraction, Fraction, int]:
                dist = sides[i][0]
                return (sum((p for k, p in dist.items() if k >= life_left), Fraction(0)),
                        sum((k * p for k, p in dist.items()), Fraction(0)), -i)
            payer = max(can, key=badness)
        else:
            payer = None
        side, lost = sides[payer] if payer is not None else side_of(None, False)
        side_cut += mass * lost
        who = "nobody" if payer is None else targets[payer]["name"]
        payers[who] = payers.get(who, Fraction(0)) + mass
        for k, p in side.items():
            joint[(ws[0], k)] = joint.get((ws[0], k), Fraction(0)) + mass * p

    for h, p in hits:
        spread(h, 0, p, ())
    return joint, payers, killed, (1 - kept) + side_cut
