"""One Hero action against a Monster: the attack, its Payback, the Guard of the Close Monsters, and coins.

The procedure, in the order of the rulings (package docstring):

1. the hero's attack: one attack roll; each targeted Monster (the target, and the
   ``also_targets`` of a Cleave-like attack) rolls its own Defense against the same hits, so it
   takes its own wounds W_i (`fighters.strike`; INF-RB p.18, Nova Bolt AQ-RB p.10);
2. one Payback: of the targeted Monsters that are not overkilled (W_i below its Overkill, printed
   p.21) and can reach the hero, the opponent activates one (printed p.21), the worst for the hero
   unless the file names it (`payback.choose_payback`), if its controller attacks at all;
3. if the attack targets no Close Monster (no targeted Monster is Close, and no special effect hits
   a Close Monster), the Guard attack of every Close Monster, in the listed order (printed p.20).

A killed hero takes no further attack. The hero's side is a fold over his state (wounds taken,
Dazed) through the monsters' attacks; it depends on the W_i only through "which Monster pays
back" and "is it wounded" (for "extra-die-while-wounded"), so it is computed once per such class.
The other targets' wounds are followed as their class (none, a wound, a kill, an overkill:
`_class_of`), all that their chances, coins and Payback depend on, so the outcomes stay few; the
target's (the first) are followed exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from explorer.core.dist import Dist
from explorer.games.arcadia_quest.attack.model import CUT_BELOW, AttackFace, DefenceFace
from explorer.games.arcadia_quest.encounter.fighters import (
    AttackCard,
    Hero,
    Monster,
    Roll,
    attack_roll,
    defence_roll,
    strike,
)
from explorer.games.arcadia_quest.encounter.payback import PaybackChoice, choose_payback, hero_risk
from explorer.games.arcadia_quest.encounter.setting import MAX_CLOSE_MONSTERS, MAX_GUILDS, Encounter

__all__ = [
    "MAX_CLOSE_MONSTERS", "MAX_GUILDS", "ROLL_CUT", "Encounter", "EncounterResult", "Outcome", "PaybackChooser",
    "bind_keeping_cut", "hero_attack_roll", "monster_strikes", "resolve_encounter", "target_defence_roll",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

ROLL_CUT = CUT_BELOW / 512
"""Each roll's CRIT chains are cut below this, so that an encounter (at most 22 rolls) or a sequence
(at most 4 rolls per attack, at most `sequence.MAX_ATTACKS` attacks) loses less than `CUT_BELOW`."""
def bind_keeping_cut(dist: Dist[T], function: Callable[[T], Dist[U]]) -> Dist[U]:
    """`Dist.bind`: the cut weight of `dist` stays cut (not spread over the outcomes), which
    `Dist.bind` itself now promises; kept under this name for the callers that say so.

    >>> bind_keeping_cut(Dist({0: 3}, cut=1), lambda x: Dist.uniform([x, x + 1])).cut_mass()
    Fraction(1, 4)
    """
    return dist.bind(function)


def monster_strikes(monster: Monster, hero: Hero, card: AttackCard, *, monster_wounds: int, hero_wounded: bool,
                    hero_dazed: bool, attack_die: tuple[AttackFace, ...],
                    defence_die: tuple[DefenceFace, ...]) -> Dist[int]:
    """Wounds of a Monster's attack on the hero (his Defense pool includes the card's Defense dice, INF-RB p.16)."""
    attack = attack_roll(monster.attack, monster.kind, monster.rerolls, monster.abilities, wounded=monster_wounds > 0,
                         target_flanked=hero.flanked, attack_die=attack_die)
    defence = defence_roll(hero.defence + card.defence_bonus, hero.rerolls, hero.abilities, wounded=hero_wounded,
                           dazed=hero_dazed, attacker_abilities=monster.abilities, defence_die=defence_die)
    return strike(attack, defence, ROLL_CUT)


HeroState = tuple[int, bool]
"""Wounds the hero has taken in the encounter (capped at his Life left) and whether he is Dazed."""


def _monster_attack(states: Dist[HeroState], monster: Monster, monster_wounds: int, enc: Encounter) -> Dist[HeroState]:
    """The hero's state after one Monster attack; a killed hero is attacked no more."""
    hero, dazes = enc.hero, "daze-on-wound" in monster.abilities

    def step(state: HeroState) -> Dist[HeroState]:
        taken, dazed = state
        if taken >= hero.life_left:
            return Dist.single(state)
        wounds = monster_strikes(monster, hero, enc.card, monster_wounds=monster_wounds,
                                 hero_wounded=hero.wounds + taken > 0, hero_dazed=dazed,
                                 attack_die=enc.attack_die, defence_die=enc.defence_die)
        return wounds.map(lambda w: (min(hero.life_left, taken + w), dazed or (dazes and w > 0)))

    return bind_keeping_cut(states, step)


def _hero_side(enc: Encounter, payer: int | None, payer_wounds: int) -> Dist[HeroState]:
    """The hero's state after the Payback of targeted Monster `payer` (None: none) and Guard;
    `payer_wounds` now on the Monster that pays back (0 or more)."""
    states: Dist[HeroState] = Dist.single((0, enc.hero.dazed))
    if payer is not None:
        states = _monster_attack(states, enc.targets[payer].monster, payer_wounds, enc)
    for monster in enc.guard_attackers:
        states = _monster_attack(states, monster, monster.wounds, enc)
    return states


class PaybackChooser:
    """The opponent's Payback choice for each outcome of the attack, and the hero's side that follows.

    Both are cached: the side by (who pays back, is it wounded), the choice by what it depends on.

    >>> from explorer.games.arcadia_quest.encounter.payback import Targeted
    >>> hero = Hero("Grom", defence=1, life=5)
    >>> orc = Monster("Orc", attack=3, kind="melee", life=2, overkill=3)
    >>> goblin = Monster("Goblin", attack=1, kind="ranged", life=1, overkill=2)
    >>> chooser = PaybackChooser(Encounter(hero, AttackCard("Cleave", 3, "melee"), orc,
    ...                                    also_targets=(Targeted(goblin, at="also_targets[0]"),)))
    >>> chooser.choose((1, 1)).index, chooser.choose((3, 1)).index, chooser.choose((3, 2)).index
    (0, 1, None)
    """

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.names = [spot.monster.name for spot in enc.targets]
        self._sides: dict[tuple[int | None, bool], Dist[HeroState]] = {}
        self._choices: dict[tuple[tuple[int, bool], ...], PaybackChoice] = {}

    def side(self, payer: int | None, wounds: tuple[int, ...]) -> Dist[HeroState]:
        """The hero's state after the Payback of `payer` (None: none) and the Guard attacks."""
        wounded = payer is not None and self.enc.targets[payer].monster.wounds + wounds[payer] > 0
        key = (payer, wounded)
        if key not in self._sides:
            self._sides[key] = _hero_side(self.enc, payer, int(wounded))
        return self._sides[key]

    def choose(self, wounds: tuple[int, ...]) -> PaybackChoice:
        """Who pays back when the targets took `wounds` (one per target), and why (`payback.choose_payback`)."""
        candidates = self.enc.payback_candidates(wounds)
        key = tuple((i, self.enc.targets[i].monster.wounds + wounds[i] > 0) for i in candidates)
        if key not in self._choices:
            if not self.enc.opponent_attacks:
                choice = PaybackChoice(None, "no Payback: the opponent does not attack with the Monsters (an input)")
            else:
                choice = choose_payback(self.names, candidates,
                                        lambda i: hero_risk(self.side(i, wounds), self.enc.hero.life_left),
                                        self.enc.payback_by)
            self._choices[key] = choice
        return self._choices[key]


Outcome = tuple[tuple[int, ...], int, int]
"""One outcome of an encounter: the wounds each targeted Monster takes (the target's exact, the others'
as the smallest wounds of their class, `_class_of`), who pays back (an index into `Encounter.targets`, -1: nobody) and
the wounds the hero takes (capped at his Life left)."""


@dataclass(frozen=True, slots=True)
class EncounterResult:
    """Exact distributions of one encounter; every `Dist` carries the cut (truncated) weight.

    `joint` is over (wounds the hero's attack deals to the target, wounds the hero takes in the
    encounter, capped at his Life left); `outcomes` adds every target's wounds and who paid back.
    """

    encounter: Encounter
    hits: Dist[int]
    saves: Dist[int]
    joint: Dist[tuple[int, int]]
    outcomes: Dist[Outcome]

    @property
    def monster_wounds(self) -> Dist[int]:
        """Wounds the hero's attack deals to the target (not capped; its earlier Wounds not included)."""
        return self.joint.marginal(0)

    @property
    def hero_wounds(self) -> Dist[int]:
        """Wounds the hero takes from Payback and Guard (capped at his Life left: he is then killed)."""
        return self.joint.marginal(1)

    def _p(self, predicate: Callable[[int, int], bool]) -> Fraction:
        return self.joint.where(lambda o: predicate(o[0], o[1]))

    @property
    def kill(self) -> Fraction:
        """P(the hero's attack kills the target)."""
        return self._p(lambda w, h: w >= self.encounter.target.life_left)

    @property
    def overkill(self) -> Fraction:
        """P(the target is overkilled: removed at once, no Payback)."""
        return self._p(lambda w, h: self.encounter.target.overkilled_by(w))

    @property
    def payback(self) -> Fraction:
        """P(a Payback attack is made, by the target or by another targeted Monster)."""
        return self.outcomes.where(lambda o: o[1] >= 0)

    @property
    def payback_by(self) -> Dist[int]:
        """Who pays back: an index into `Encounter.targets`, -1 for nobody."""
        return self.outcomes.map(lambda o: o[1])

    def target_chances(self, index: int) -> dict[str, Fraction]:
        """For targeted Monster `index`: P(killed), P(overkilled), P(it pays back), P(wounded)."""
        monster = self.encounter.targets[index].monster
        return {"kill": self.outcomes.where(lambda o: o[0][index] >= monster.life_left),
                "overkill": self.outcomes.where(lambda o: monster.overkilled_by(o[0][index])),
                "payback": self.outcomes.where(lambda o: o[1] == index),
                "wounded": self.outcomes.where(lambda o: o[0][index] > 0)}

    @property
    def hero_killed(self) -> Fraction:
        """P(the hero is killed by the Payback or a Guard attack)."""
        return self._p(lambda w, h: h >= self.encounter.hero.life_left)

    @property
    def hero_killed_and_monster_survives(self) -> Fraction:
        """P(the hero is killed and the target is not)."""
        enc = self.encounter
        return self._p(lambda w, h: h >= enc.hero.life_left and w < enc.target.life_left)

    @property
    def kill_and_survive(self) -> Fraction:
        """P(the target is killed and the hero is not)."""
        enc = self.encounter
        return self._p(lambda w, h: h < enc.hero.life_left and w >= enc.target.life_left)

    @property
    def coins_active(self) -> Dist[int]:
        """Coins of the active hero's Guild: the Reward of every targeted Monster he kills (AQ-RB p.10, p.13)."""
        spots = self.encounter.targets
        return self.outcomes.map(lambda o: sum(t.monster.reward for t, w in zip(spots, o[0])
                                               if w >= t.monster.life_left))

    @property
    def coins_others(self) -> Dist[int]:
        """Coins of every other Guild together: 1 each if a Monster kills the hero (AQ-RB p.13), and
        each killed Villain's Reward to each other Guild holding its token (AQ-RB p.12)."""
        enc, others = self.encounter, self.encounter.guilds - 1

        def coins(o: Outcome) -> int:
            tokens = sum(t.other_guild_tokens * t.monster.reward for t, w in zip(enc.targets, o[0])
                         if t.monster.villain and w >= t.monster.life_left)
            return others * (o[2] >= enc.hero.life_left) + tokens

        return self.outcomes.map(coins)

    @property
    def villain_token(self) -> Fraction:
        """P(the hero wounds a targeted Villain without killing it: his Guild's token, paid if it dies later)."""
        spots = self.encounter.targets
        return self.outcomes.where(lambda o: any(t.monster.villain and 0 < w < t.monster.life_left
                                                 for t, w in zip(spots, o[0])))

    @property
    def cut(self) -> Fraction:
        """The probability truncated from the whole encounter (open CRIT chains), < `CUT_BELOW`."""
        return self.joint.cut_mass()


def hero_attack_roll(enc: Encounter) -> Roll:
    """The hero's one attack roll (the target, the first listed, decides "extra-die-vs-flanked")."""
    return attack_roll(enc.card.dice, enc.card.kind, enc.hero.rerolls, enc.hero.abilities,
                       wounded=enc.hero.wounds > 0, target_flanked=enc.target.flanked, attack_die=enc.attack_die)


def target_defence_roll(enc: Encounter, monster: Monster) -> Roll:
    """A targeted Monster's own Defense roll against the hero's attack."""
    return defence_roll(monster.defence, monster.rerolls, monster.abilities, wounded=monster.wounds > 0,
                        dazed=monster.dazed, attacker_abilities=enc.hero.abilities, defence_die=enc.defence_die)


def _class_of(monster: Monster, wounds: int) -> int:
    """The smallest wounds that do to a Monster other than the target what `wounds` do: none, a wound
    (0 < w < Life left), a kill (w >= Life left, below Overkill), an overkill (w >= Overkill).

    >>> orc = Monster("Orc", attack=3, kind="melee", life=3, overkill=5)
    >>> [_class_of(orc, w) for w in range(7)]
    [0, 1, 1, 3, 3, 5, 5]
    """
    if wounds == 0:
        return 0
    if monster.overkilled_by(wounds):
        return max(monster.overkill or 0, 1)
    return monster.life_left if wounds >= monster.life_left else 1


def _every_target(enc: Encounter, hits: Dist[int]) -> Dist[tuple[int, ...]]:
    """The wounds of every targeted Monster from the one roll's `hits`, each after its own Defense roll."""
    rows: Dist[tuple[int, ...]] = hits.map(lambda h: (h,))
    for i, spot in enumerate(enc.targets):
        other = None if i == 0 else spot.monster

        def add(row: tuple[int, ...], saves: int, other: Monster | None = other) -> tuple[int, ...]:
            w = max(0, row[0] - saves)
            return (*row, w if other is None else _class_of(other, w))

        rows = rows.combine(target_defence_roll(enc, spot.monster).successes(ROLL_CUT), add)
    return rows.map(lambda row: row[1:])


def resolve_encounter(enc: Encounter) -> EncounterResult:
    """The whole encounter, exactly.

    >>> hero = Hero("Grom", defence=1, life=5)
    >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
    >>> result = resolve_encounter(Encounter(hero, AttackCard("Rusty Sword", 3, "melee"), orc))
    >>> result.kill >= result.overkill, float(result.cut) < 1e-12
    (True, True)
    """
    attack = hero_attack_roll(enc)
    defence = target_defence_roll(enc, enc.target)
    hits, saves = attack.successes(ROLL_CUT), defence.successes(ROLL_CUT)
    wounds: Dist[tuple[int, ...]]
    if not enc.also_targets:
        wounds = strike(attack, defence, ROLL_CUT).map(lambda w: (w,))
    else:
        wounds = _every_target(enc, hits)
    chooser = PaybackChooser(enc)

    def outcome(ws: tuple[int, ...]) -> Dist[Outcome]:
        payer = chooser.choose(ws).index
        return chooser.side(payer, ws).map(lambda state: (ws, -1 if payer is None else payer, state[0]))

    outcomes = bind_keeping_cut(wounds, outcome)
    return EncounterResult(enc, hits, saves, outcomes.map(lambda o: (o[0][0], o[2])), outcomes)
