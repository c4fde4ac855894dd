"""One Hero action against a Monster: the attack, its Payback, the Guard of the Close Monsters, and coins.

The procedure, in the order of the rulings (package docstring):

1. the hero's attack on the target: wounds W (`fighters.strike`);
2. unless W reaches the target's Overkill (AQ-RB printed p.21), its Payback against the hero,
   if it can reach him and its controller attacks (killed-but-not-overkilled Monsters too);
3. if the attack targets no Close Monster (the target is not Close, and no special effect hits
   a Close Monster), the Guard attack of every Close Monster, in the listed order (printed p.20).

A killed hero takes no further attack. The hero's side is a fold over his state (wounds taken,
Dazed) through the monsters' attacks; it depends on W only through "was there a Payback" and
"is the target wounded" (for "extra-die-while-wounded"), so it is computed once per such class.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, CUT_BELOW, DEFENCE_DIE, AttackFace, DefenceFace
from explorer.games.arcadia_quest.encounter.fighters import AttackCard, Hero, Monster, attack_roll, defence_roll, strike
from explorer.scenario.fields import check_whole

__all__ = [
    "MAX_CLOSE_MONSTERS", "MAX_GUILDS", "ROLL_CUT", "Encounter", "EncounterResult", "bind_keeping_cut",
    "monster_strikes", "resolve_encounter",
]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)

ROLL_CUT = CUT_BELOW / 512
"""Each roll's CRIT chains are cut below this, so that an encounter (at most 22 rolls) or a sequence
(at most 4 rolls per attack, at most `sequence.MAX_ATTACKS` attacks) loses less than `CUT_BELOW`."""
MAX_CLOSE_MONSTERS = 9
"""Most Close Monsters: a Space holds at most two Characters (INF-RB p.13); the hero's Space and
its four neighbours leave room for nine others."""
MAX_GUILDS = 4
"""Arcadia Quest is played by 2 to 4 Guilds."""


def bind_keeping_cut(dist: Dist[T], function: Callable[[T], Dist[U]]) -> Dist[U]:
    """`Dist.bind`: the cut weight of `dist` stays cut (not spread over the outcomes), which
    `Dist.bind` itself now promises; kept under this name for the callers that say so.

    >>> bind_keeping_cut(Dist({0: 3}, cut=1), lambda x: Dist.uniform([x, x + 1])).cut_mass()
    Fraction(1, 4)
    """
    return dist.bind(function)


@dataclass(frozen=True, slots=True)
class Encounter:
    """One hero action: hero, Attack card, target, reactions, coins' context and the dice faces.

    >>> hero = Hero("Grom", defence=1, life=5)
    >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
    >>> Encounter(hero, AttackCard("Rusty Sword", 3, "melee"), orc, close_monsters=(orc,)).guard_attackers
    (Monster(name='Orc Marauder', attack=3, kind='melee', life=2, defence=0, overkill=3, reward=1, rerolls=0, villain=False, abilities=(), wounds=0, dazed=False, flanked=False, movement=None, source=''),)
    """

    hero: Hero
    card: AttackCard
    target: Monster
    target_close: bool = False
    """The target is Close to the hero: attacking it fends off every Close Monster (no Guard)."""
    also_targets_close: bool = False
    """A special effect of the attack also targets a Close Monster (Cleave, say): no Guard."""
    payback_reaches: bool = True
    """The target can move into range and attack the hero (movement and line of sight are not modelled)."""
    opponent_attacks: bool = True
    """The player to the right attacks with the Monsters whenever allowed (False: never)."""
    close_monsters: tuple[Monster, ...] = ()
    """The other Monsters Close to the hero (Guard), in the order they attack."""
    guilds: int = MAX_GUILDS
    """Guilds in the game (every other Guild gets 1 coin when a Monster kills the hero)."""
    other_guild_tokens: int = 0
    """Other Guilds already holding a token on a Villain target (each is paid its Reward if it dies)."""
    attack_die: tuple[AttackFace, ...] = ATTACK_DIE.value
    defence_die: tuple[DefenceFace, ...] = DEFENCE_DIE.value
    dice_source: str = ATTACK_DIE.source
    title: str = ""

    def __post_init__(self) -> None:
        if len(self.close_monsters) > MAX_CLOSE_MONSTERS:
            raise ScenarioError("close_monsters", f"at most {MAX_CLOSE_MONSTERS} Close Monsters (two Characters a "
                                                  f"Space, INF-RB p.13), got {len(self.close_monsters)}")
        check_whole(self.guilds, "guilds", minimum=2, maximum=MAX_GUILDS)
        check_whole(self.other_guild_tokens, "target.other_guild_tokens", maximum=self.guilds - 1)
        if self.other_guild_tokens and not self.target.villain:
            raise ScenarioError("target.other_guild_tokens", "only a Villain carries Guild tokens (AQ-RB p.12); "
                                                              "set target.villain or leave this at 0")

    @property
    def guard_triggered(self) -> bool:
        """True when the attack targets no Close Monster (printed p.20) and some Monster is Close."""
        return bool(self.close_monsters) and not (self.target_close or self.also_targets_close)

    @property
    def guard_attackers(self) -> tuple[Monster, ...]:
        """The Monsters that make a Guard attack (none when the opponent never attacks)."""
        return self.close_monsters if self.guard_triggered and self.opponent_attacks else ()

    def pays_back(self, wounds: int) -> bool:
        """True if the target makes its Payback after taking `wounds` from the hero's attack (p.21)."""
        return self.opponent_attacks and self.payback_reaches and not self.target.overkilled_by(wounds)


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


def _hero_side(enc: Encounter, payback: bool, target_wounds: int) -> Dist[HeroState]:
    """The hero's state after Payback (if made) and Guard; `target_wounds` now on the target (0 or more)."""
    states: Dist[HeroState] = Dist.single((0, enc.hero.dazed))
    if payback:
        states = _monster_attack(states, enc.target, target_wounds, enc)
    for monster in enc.guard_attackers:
        states = _monster_attack(states, monster, monster.wounds, enc)
    return states


@dataclass(frozen=True, slots=True)
class EncounterResult:
    """Exact distributions of one encounter; every `Dist` carries the cut (truncated) weight.

    `joint` is over (wounds the hero's attack deals, wounds the hero takes in the encounter, capped
    at his Life left); the other quantities follow from it.
    """

    encounter: Encounter
    hits: Dist[int]
    saves: Dist[int]
    joint: Dist[tuple[int, int]]

    @property
    def monster_wounds(self) -> Dist[int]:
        """Wounds the hero's attack deals (not capped; the target's earlier Wounds not included)."""
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
        """P(the target makes a Payback attack)."""
        return self._p(lambda w, h: self.encounter.pays_back(w))

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
        """Coins of the active hero's Guild: the target's Reward if he kills it (AQ-RB p.10, p.13)."""
        enc = self.encounter
        return self.joint.map(lambda o: enc.target.reward if o[0] >= enc.target.life_left else 0)

    @property
    def coins_others(self) -> Dist[int]:
        """Coins of every other Guild together: 1 each if a Monster kills the hero (AQ-RB p.13), and
        the Villain's Reward to each other Guild holding its token if it dies (AQ-RB p.12)."""
        enc, others = self.encounter, self.encounter.guilds - 1

        def coins(o: tuple[int, int]) -> int:
            villain = enc.target.villain and o[0] >= enc.target.life_left
            return others * (o[1] >= enc.hero.life_left) + villain * enc.other_guild_tokens * enc.target.reward

        return self.joint.map(coins)

    @property
    def villain_token(self) -> Fraction:
        """P(the hero wounds a Villain without killing it: his Guild's token, paid if it dies later)."""
        enc = self.encounter
        return self._p(lambda w, h: enc.target.villain and 0 < w < enc.target.life_left)

    @property
    def cut(self) -> Fraction:
        """The probability truncated from the whole encounter (open CRIT chains), < `CUT_BELOW`."""
        return self.joint.cut_mass()


def resolve_encounter(enc: Encounter) -> EncounterResult:
    """The whole encounter, exactly.

    >>> hero = Hero("Grom", defence=1, life=5)
    >>> orc = Monster("Orc Marauder", attack=3, kind="melee", life=2, overkill=3, reward=1)
    >>> result = resolve_encounter(Encounter(hero, AttackCard("Rusty Sword", 3, "melee"), orc))
    >>> result.kill >= result.overkill, float(result.cut) < 1e-12
    (True, True)
    """
    target = enc.target
    attack = attack_roll(enc.card.dice, enc.card.kind, enc.hero.rerolls, enc.hero.abilities,
                         wounded=enc.hero.wounds > 0, target_flanked=target.flanked, attack_die=enc.attack_die)
    defence = defence_roll(target.defence, target.rerolls, target.abilities, wounded=target.wounds > 0,
                           dazed=target.dazed, attacker_abilities=enc.hero.abilities, defence_die=enc.defence_die)
    hits, saves = attack.successes(ROLL_CUT), defence.successes(ROLL_CUT)
    wounds = strike(attack, defence, ROLL_CUT)
    sides: dict[tuple[bool, int], Dist[HeroState]] = {}

    def joint(w: int) -> Dist[tuple[int, int]]:
        key = (enc.pays_back(w), int(target.wounds + w > 0))
        if key not in sides:
            sides[key] = _hero_side(enc, *key)
        return sides[key].map(lambda state: (w, state[0]))

    return EncounterResult(enc, hits, saves, bind_keeping_cut(wounds, joint))
