"""One hero action as the rules see it before any die is rolled: the hero, his card, the targeted
Monsters, the Close Monsters, the opponent, the Guilds and the dice (`action.resolve_encounter`
rolls it).

Which reactions the rules call for follows from these alone: whether the Close Monsters guard
(printed p.20, `Encounter.guard_reason` says why or why not) and which targeted Monsters could
pay back after given wounds (printed p.21).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, DEFENCE_DIE, AttackFace, DefenceFace
from explorer.games.arcadia_quest.encounter.fighters import AttackCard, Hero, Monster
from explorer.games.arcadia_quest.encounter.payback import WORST, Targeted, check_targets
from explorer.scenario.fields import check_whole

__all__ = ["MAX_CLOSE_MONSTERS", "MAX_GUILDS", "Encounter"]

MAX_CLOSE_MONSTERS = 9
"""Most Close Monsters: a Space holds at most two Characters (INF-RB p.13); the hero's Space and
its four neighbours leave room for nine others."""
MAX_GUILDS = 4
"""Arcadia Quest is played by 2 to 4 Guilds."""


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
    also_targets: tuple[Targeted, ...] = ()
    """The other Monsters this attack targets (Cleave, Nova Bolt's second target), each with its own wounds."""
    payback_by: str = WORST
    """Which targeted Monster the opponent activates for Payback: `payback.WORST` or one's name."""

    def __post_init__(self) -> None:
        if len(self.close_monsters) > MAX_CLOSE_MONSTERS:
            raise ScenarioError("close_monsters", f"at most {MAX_CLOSE_MONSTERS} Close Monsters (two Characters a "
                                                  f"Space, Inferno rulebook p.13), got {len(self.close_monsters)}")
        check_whole(self.guilds, "guilds", minimum=2, maximum=MAX_GUILDS)
        check_whole(self.other_guild_tokens, "target.other_guild_tokens", maximum=self.guilds - 1)
        if self.other_guild_tokens and not self.target.villain:
            raise ScenarioError("target.other_guild_tokens", "only a Villain carries Guild tokens (Arcadia Quest rulebook p.12); "
                                                              "make it a Villain or leave this at 0")
        check_targets(self.targets, self.payback_by, self.guilds)

    @property
    def targets(self) -> tuple[Targeted, ...]:
        """Every Monster the attack targets: the target first, then `also_targets`."""
        return (Targeted(self.target, self.target_close, self.payback_reaches, self.other_guild_tokens),
                *self.also_targets)

    @property
    def guard_triggered(self) -> bool:
        """True when the rules call for Guard: the attack targets no Close Monster (printed p.20) and some
        Monster is Close. Whether anyone attacks also needs the opponent to (`guard_attackers`)."""
        targets_close = self.target_close or self.also_targets_close or any(t.close for t in self.also_targets)
        return bool(self.close_monsters) and not targets_close

    @property
    def guard_attackers(self) -> tuple[Monster, ...]:
        """The Monsters that make a Guard attack (none when the opponent never attacks)."""
        return self.close_monsters if self.guard_triggered and self.opponent_attacks else ()

    @property
    def guard_reason(self) -> str:
        """Why the Close Monsters do or do not make their Guard attacks (printed p.20), in a sentence."""
        if not self.close_monsters:
            return "no other Monster is Close to the hero: close_monsters is empty"
        if not self.guard_triggered:
            how = ("a targeted Monster is Close to him" if self.target_close or any(t.close for t in self.also_targets)
                   else "a special effect also targets a Close Monster (attack.also_targets_close)")
            return f"the attack targets a Close Monster ({how}), which fends off all of them (printed p.20)"
        if not self.opponent_attacks:
            return ("the opponent does not attack with the Monsters (opponent_attacks: false), though the attack "
                    "targets none of the Close Monsters")
        return "the attack targets none of the Close Monsters: each attacks the hero after the Payback (printed p.20)"

    def pays_back(self, wounds: int) -> bool:
        """True if the target could make its Payback after taking `wounds` from the hero's attack (p.21); with
        several targets the opponent still activates only one of those that could (`PaybackChooser`)."""
        return self.opponent_attacks and self.payback_reaches and not self.target.overkilled_by(wounds)

    def payback_candidates(self, wounds: tuple[int, ...]) -> tuple[int, ...]:
        """The targeted Monsters (by index) that could pay back after taking `wounds` (one per target)."""
        if not self.opponent_attacks:
            return ()
        return tuple(i for i, (spot, w) in enumerate(zip(self.targets, wounds))
                     if spot.reaches and not spot.monster.overkilled_by(w))
