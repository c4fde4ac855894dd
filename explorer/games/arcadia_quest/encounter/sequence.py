"""Attacks in turn on one Monster until it dies: how many it takes, and the Payback taken on the way.

Wounds stay on a Monster between attacks (AQ-RB p.12, Schmetterling "already has 3 Wounds").
The heroes of a party attack in the listed order, again and again, a killed hero dropping out
(resurrection needs a Rest turn, INF-RB p.19, not modelled). After each attack the Monster makes
its Payback against the attacker unless it was overkilled (AQ-RB printed p.21); a killed but not
overkilled Monster still pays back, then leaves. There is no Guard here (no Close Monsters).

The state after each attack is (Wounds on the Monster, its Daze, each hero's wounds taken and
Daze, whose turn); probabilities are exact `Fraction`s. The number of attacks is capped
(`AttackSequence.max_attacks`); the mass still undecided at the cap is reported, not dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm, prod
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, DEFENCE_DIE, AttackFace, DefenceFace
from explorer.games.arcadia_quest.encounter.action import ROLL_CUT
from explorer.games.arcadia_quest.encounter.fighters import (
    AttackCard,
    Hero,
    Monster,
    Roll,
    attack_roll,
    defence_roll,
    strike,
)
from explorer.scenario.fields import check_whole

__all__ = ["MAX_ATTACKS", "MAX_PARTY", "MAX_WORK", "SETTLED", "AttackSequence", "SequenceResult", "resolve_sequence"]

MAX_ATTACKS = 50
"""Largest cap on the number of attacks."""
MAX_PARTY = 4
"""Most heroes taking turns (a Guild has 3 Heroes; allies of several Guilds are allowed up to 4)."""
MAX_WORK = 2_000_000
"""Largest estimated work (microseconds, about 2 s; `AttackSequence.work`), checked before any of it."""
STEP_COST = 2.0
"""Microseconds per inner step of an attack (measured: 0.01 to 1.9 for sequences of 0.1 to 20 s), so
that the estimate stays above the time taken."""
WORD_BITS = 3000
"""Bits of weight after which an inner step costs twice as much (the weights grow at every attack)."""
SETTLED = Fraction(1, 10**15)
"""Attacks stop being followed once the probability still undecided is at most this (reported)."""

@dataclass(frozen=True, slots=True)
class AttackSequence:
    """Heroes (each with his Attack card) attacking one Monster in turn, at most `max_attacks` times.

    >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
    >>> AttackSequence(((Hero("Grom", 1, 5), AttackCard("Rusty Sword", 3, "melee")),), orc).max_attacks
    10
    """

    party: tuple[tuple[Hero, AttackCard], ...]
    target: Monster
    max_attacks: int = 10
    payback_reaches: bool = True
    opponent_attacks: bool = True
    attack_die: tuple[AttackFace, ...] = ATTACK_DIE.value
    defence_die: tuple[DefenceFace, ...] = DEFENCE_DIE.value
    dice_source: str = ATTACK_DIE.source
    title: str = ""

    def __post_init__(self) -> None:
        if not 1 <= len(self.party) <= MAX_PARTY:
            raise ScenarioError("party", f"must list 1 to {MAX_PARTY} heroes, got {len(self.party)}")
        check_whole(self.max_attacks, "max_attacks", minimum=1, maximum=MAX_ATTACKS)
        work = self.estimate()
        if work > MAX_WORK:
            raise ScenarioError("party", f"too big to follow exactly: about {work / 1e6:.1f} s of work estimated "
                                         f"(limit {MAX_WORK / 1e6:.0f} s: up to {self.state_bound()} states, "
                                         f"{self.max_attacks} attacks); use fewer heroes, lower Life or a smaller "
                                         "max_attacks")

    def estimate(self) -> float:
        """Estimated microseconds of `resolve_sequence`: inner steps of an attack (`work`) at `STEP_COST`
        each, over `max_attacks` attacks whose weights grow by the same bits every attack.

        >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
        >>> AttackSequence(((Hero("Grom", 1, 5), AttackCard("Rusty Sword", 3, "melee")),), orc).estimate() < 1e5
        True
        """
        steps, bits = self.work()
        attacks = self.max_attacks
        return STEP_COST * steps * (attacks + bits * attacks * (attacks + 1) / (2 * WORD_BITS))

    def work(self) -> tuple[int, int]:
        """What following the attacks costs, estimated before any of it: (inner steps of one attack
        over every state it can hold, bits its weights gain per attack).

        An attack's inner steps are, per state, the Wound classes of the hero's strike times the
        classes of the Payback (both capped by the Life left, and by the outcomes the rolls have).
        """
        target, party = self.target, self.party
        dazes_monster = any("daze-on-wound" in hero.abilities for hero, _ in party)
        dazes_heroes = "daze-on-wound" in target.abilities
        sizes = [(hero.life_left + 1) * (1 + dazes_heroes) for hero, _ in party]
        steps, bits = 0, 0
        for turn, (hero, card) in enumerate(party):
            hits, hit_bits, paid, paid_bits = _strike_sizes(self, hero, card)
            bits = max(bits, hit_bits + paid_bits)
            others = prod(sizes) // sizes[turn] * (1 + dazes_monster) * (1 + dazes_heroes)
            on_monster = sum(min(target.life - mw + 1, hits) + (target.overkill is not None)
                             for mw in range(target.wounds, target.life))
            on_hero = sum(min(hero.life_left - taken + 1, paid) for taken in range(hero.life_left))
            steps += others * on_monster * max(1, on_hero * (1 + dazes_heroes))
        return steps, bits

    def state_bound(self) -> int:
        """Most states one step can hold (Monster wounds and Daze, heroes' wounds and Daze, turn)."""
        dazes_monster = any("daze-on-wound" in hero.abilities for hero, _ in self.party)
        dazes_heroes = "daze-on-wound" in self.target.abilities
        heroes = prod((hero.life_left + 1) * (1 + dazes_heroes) for hero, _ in self.party)
        return self.target.life_left * (1 + dazes_monster) * heroes * len(self.party)


@dataclass(frozen=True, slots=True)
class SequenceResult:
    """Exact outcome of a sequence of attacks.

    Attributes:
        kills: attack number -> P(the Monster dies on that attack).
        killers: per hero, P(he deals the killing Wound and his Guild gets the Reward).
        party_killed: P(every hero is killed while the Monster lives).
        beyond_cap: P(the Monster and some hero are still standing after the attacks followed).
        followed: attacks followed: `max_attacks`, or fewer once at most `SETTLED` was left undecided.
        hero_wounds: per hero, wounds taken over the sequence (capped at his Life left) -> probability.
        cut: probability truncated from open CRIT chains (not renormalised).
    """

    sequence: AttackSequence
    kills: dict[int, Fraction]
    killers: tuple[Fraction, ...]
    party_killed: Fraction
    beyond_cap: Fraction
    hero_wounds: tuple[dict[int, Fraction], ...]
    cut: Fraction
    followed: int

    @property
    def killed(self) -> Fraction:
        """P(the Monster dies within the cap)."""
        return sum(self.kills.values(), Fraction(0))

    def mean_attacks_to_kill(self) -> Fraction | None:
        """Mean number of attacks among the sequences that kill it within the cap (None if none do)."""
        killed = self.killed
        return sum((n * p for n, p in self.kills.items()), Fraction(0)) / killed if killed else None

    def heroes_killed(self) -> tuple[Fraction, ...]:
        """Per hero, P(he is killed during the sequence)."""
        return tuple(wounds.get(hero.life_left, Fraction(0))
                     for (hero, _), wounds in zip(self.sequence.party, self.hero_wounds))


Table = tuple[tuple[tuple[Any, ...], int], ...]
"""Classes of one attack's outcomes with integer weights over the attack's total weight."""


def _strike_sizes(seq: AttackSequence, hero: Hero, card: AttackCard) -> tuple[int, int, int, int]:
    """Most outcomes, and most bits of the total weight, of the hero's strike and of the Payback to it."""
    target = seq.target
    hits, hit_bits, paid, paid_bits = 1, 1, 1, 1
    for wounded in (False, True):
        for dazed in (False, True):
            attack = attack_roll(card.dice, card.kind, hero.rerolls, hero.abilities, wounded=wounded,
                                 target_flanked=target.flanked, attack_die=seq.attack_die)
            defence = defence_roll(target.defence, target.rerolls, target.abilities, wounded=wounded, dazed=dazed,
                                   attacker_abilities=hero.abilities, defence_die=seq.defence_die)
            dist = strike(attack, defence, ROLL_CUT)
            hits, hit_bits = max(hits, len(dist)), max(hit_bits, dist.total.bit_length())
            if seq.opponent_attacks and seq.payback_reaches:
                back = attack_roll(target.attack, target.kind, target.rerolls, target.abilities, wounded=wounded,
                                   target_flanked=hero.flanked, attack_die=seq.attack_die)
                parry = defence_roll(hero.defence + card.defence_bonus, hero.rerolls, hero.abilities, wounded=wounded,
                                     dazed=dazed, attacker_abilities=target.abilities, defence_die=seq.defence_die)
                dist = strike(back, parry, ROLL_CUT)
                paid, paid_bits = max(paid, len(dist)), max(paid_bits, dist.total.bit_length())
    return hits, hit_bits, paid, paid_bits


@lru_cache(maxsize=4096)
def _on_monster(attack: Roll, defence: Roll, wounds: int, life: int, overkill: int | None,
                dazes: bool) -> tuple[Table, int, int]:
    """The hero's attack in (Wounds on the Monster after, overkilled, Dazed by it) classes; total and cut weights."""
    dist = strike(attack, defence, ROLL_CUT)
    classes: dict[tuple[Any, ...], int] = {}
    for w, weight in dist.items():
        key = (min(life, wounds + w), overkill is not None and w >= overkill, dazes and w > 0)
        classes[key] = classes.get(key, 0) + weight
    return tuple(classes.items()), dist.total, dist.cut


@lru_cache(maxsize=4096)
def _on_hero(attack: Roll, defence: Roll, taken: int, life_left: int, dazes: bool) -> tuple[Table, int, int]:
    """A Payback in (wounds the hero has taken after, capped at his Life left, Dazed by it) classes; total, cut."""
    dist = strike(attack, defence, ROLL_CUT)
    classes: dict[tuple[Any, ...], int] = {}
    for w, weight in dist.items():
        key = (min(life_left, taken + w), dazes and w > 0)
        classes[key] = classes.get(key, 0) + weight
    return tuple(classes.items()), dist.total, dist.cut


def _next_turn(turn: int, alive: list[bool]) -> int | None:
    n = len(alive)
    for step in range(1, n + 1):
        if alive[(turn + step) % n]:
            return (turn + step) % n
    return None


HeroStates = tuple[tuple[int, bool], ...]
State = tuple[int, bool, HeroStates, int]
"""Wounds on the Monster, its Daze, each hero's (wounds taken, Daze), whose turn."""
Branch = tuple[tuple[Any, ...], int, "tuple[Table, int, int] | None"]


def _branches(seq: AttackSequence, mw: int, mdazed: bool, turn: int, taken: int,
              hdazed: bool) -> tuple[tuple[Table, int, int], list[Branch]]:
    """The attack made by hero `turn` (`taken` wounds, Dazed or not) on the Monster (`mw` Wounds, Dazed or not):
    the hero's attack table and, per class, the Payback table (None: no Payback)."""
    target = seq.target
    hero, card = seq.party[turn]
    attack = attack_roll(card.dice, card.kind, hero.rerolls, hero.abilities, wounded=hero.wounds + taken > 0,
                         target_flanked=target.flanked, attack_die=seq.attack_die)
    defence = defence_roll(target.defence, target.rerolls, target.abilities, wounded=mw > 0, dazed=mdazed,
                           attacker_abilities=hero.abilities, defence_die=seq.defence_die)
    table = _on_monster(attack, defence, mw, target.life, target.overkill, "daze-on-wound" in hero.abilities)
    branches: list[Branch] = []
    for key, weight in table[0]:
        new_mw, overkilled, _ = key
        payback = None
        if not overkilled and seq.opponent_attacks and seq.payback_reaches:
            strike_back = attack_roll(target.attack, target.kind, target.rerolls, target.abilities, wounded=new_mw > 0,
                                      target_flanked=hero.flanked, attack_die=seq.attack_die)
            parry = defence_roll(hero.defence + card.defence_bonus, hero.rerolls, hero.abilities,
                                 wounded=hero.wounds + taken > 0, dazed=hdazed, attacker_abilities=target.abilities,
                                 defence_die=seq.defence_die)
            payback = _on_hero(strike_back, parry, taken, hero.life_left, "daze-on-wound" in target.abilities)
        branches.append((key, weight, payback))
    return table, branches


def resolve_sequence(seq: AttackSequence) -> SequenceResult:
    """Follow every attack, exactly, until the Monster dies, the party dies, or the cap.

    Each step keeps integer weights over one common denominator (the product of the least common
    multiples of the attack tables' totals), which keeps big-integer work linear in the steps.

    >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
    >>> result = resolve_sequence(AttackSequence(((Hero("Grom", 1, 5), AttackCard("Rusty Sword", 3, "melee")),), orc))
    >>> result.killed + result.party_killed + result.beyond_cap + result.cut == 1
    True
    """
    target, party = seq.target, seq.party
    heroes = [hero for hero, _ in party]
    life_left = [hero.life_left for hero in heroes]
    states: dict[State, int] = {(target.wounds, target.dazed, tuple((0, h.dazed) for h in heroes), 0): 1}
    den, followed = 1, 0
    memo: dict[tuple[int, bool, int, int, bool], tuple[tuple[Table, int, int], list[Branch]]] = {}
    kills: dict[int, Fraction] = {}
    killers = [Fraction(0)] * len(party)
    party_killed, cut = Fraction(0), Fraction(0)
    wounds_end: list[dict[int, Fraction]] = [{} for _ in party]
    for number in range(1, seq.max_attacks + 1):
        plans = []
        for state, mass in states.items():
            mw, mdazed, hs, turn = state
            attacker = (mw, mdazed, turn, *hs[turn])
            if attacker not in memo:
                memo[attacker] = _branches(seq, *attacker)
            plans.append((state, mass, *memo[attacker]))
        lcm_m = lcm(*(table[1] for _, _, table, _ in plans))
        lcm_h = lcm(1, *(b[2][1] for *_, branches in plans for b in branches if b[2] is not None))
        step: dict[State, int] = {}
        killed_n, cut_n, party_n = 0, 0, 0
        killers_n = [0] * len(party)
        wounds_n: list[dict[int, int]] = [{} for _ in party]
        for (mw, mdazed, hs, turn), mass, (_, total, lost), branches in plans:
            scale = lcm_m // total
            cut_n += mass * lost * scale * lcm_h
            taken, hdazed = hs[turn]
            for (new_mw, _, dazed_now), weight, payback in branches:
                base = mass * weight * scale
                if payback is None:
                    outcomes: Table = (((taken, False), lcm_h),)
                else:
                    outcomes, h_total, h_lost = payback
                    h_scale = lcm_h // h_total
                    outcomes = tuple((key, w * h_scale) for key, w in outcomes)
                    cut_n += base * h_lost * h_scale
                for (new_taken, hero_dazed_now), w in outcomes:
                    m = base * w
                    new_hs = hs[:turn] + ((new_taken, hdazed or hero_dazed_now),) + hs[turn + 1:]
                    alive = [t < life for (t, _), life in zip(new_hs, life_left)]
                    nxt = _next_turn(turn, alive)
                    if new_mw >= target.life or nxt is None:
                        if new_mw >= target.life:
                            killed_n += m
                            killers_n[turn] += m
                        else:
                            party_n += m
                        for i, (t, _) in enumerate(new_hs):
                            wounds_n[i][t] = wounds_n[i].get(t, 0) + m
                    else:
                        key = (new_mw, mdazed or dazed_now, new_hs, nxt)
                        step[key] = step.get(key, 0) + m
        den *= lcm_m * lcm_h
        if killed_n:
            kills[number] = Fraction(killed_n, den)
        killers = [k + Fraction(n, den) for k, n in zip(killers, killers_n)]
        party_killed += Fraction(party_n, den)
        cut += Fraction(cut_n, den)
        for i, counts in enumerate(wounds_n):
            for t, n in counts.items():
                wounds_end[i][t] = wounds_end[i].get(t, Fraction(0)) + Fraction(n, den)
        states = step
        followed = number
        if sum(states.values()) * SETTLED.denominator <= den * SETTLED.numerator:
            break  # what is still undecided is reported as beyond_cap
    for (_, _, hs, _), mass in states.items():
        for i, (t, _) in enumerate(hs):
            wounds_end[i][t] = wounds_end[i].get(t, Fraction(0)) + Fraction(mass, den)
    beyond = Fraction(sum(states.values()), den)
    hero_wounds = tuple(dict(sorted(w.items())) for w in wounds_end)
    return SequenceResult(seq, kills, tuple(killers), party_killed, beyond, hero_wounds, cut, followed)
