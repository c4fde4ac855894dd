"""One sampled encounter, step by step in the rulebook's order: a teaching aid and a cross-check.

`trace_encounter` rolls real dice with a seeded `random.Random`, so a trace is reproducible: the
hero's attack (his dice, the CRITs' extra dice, his rerolls), the target's Defense roll, the
Wounds, the target's Payback, the Guard attack of each Close Monster, and the coins. It reads the
same rolls as the exact resolver (`fighters.attack_roll`, `fighters.defence_roll`: dice, reroll
pool, what a CRIT is worth, the abilities) and makes the same choices (rerolls on failed dice, a
CRIT never rerolled), so over many seeds its frequencies approach the resolver's probabilities.
The exact resolver (`encounter.resolve_encounter`) stays the answer; a trace is one story.

How one roll is told: the pool's dice are rolled; each CRIT (a success) adds a die, which may
CRIT again (INF-RB p.18); then each reroll point rerolls a die showing a failure while one shows
(INF-RB Reroll Pool), a CRIT of a rerolled die adding its die too. Every die roll is an
independent roll of the same die, so telling the CRITs before the rerolls gives the same chances
as any other order (the package's rulings).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from explorer.games.arcadia_quest.encounter.action import (
    Encounter,
    PaybackChooser,
    hero_attack_roll,
    target_defence_roll,
)
from explorer.games.arcadia_quest.encounter.fighters import Monster, Roll, attack_roll, defence_roll
from explorer.games.arcadia_quest.encounter.payback import Targeted
from explorer.games.arcadia_quest.encounter.scenario import parse_encounter
from explorer.scenario.trace import TraceStep, trace_text

__all__ = ["RolledDice", "TraceStep", "roll_dice", "trace_encounter", "trace_scenario", "trace_text"]

_WORDS = {"melee": "melee hit", "ranged": "ranged hit", "crit": "CRIT", "blank": "blank", "shield": "shield"}
ROLL_PAGES = "Inferno rulebook p.16, p.18; faces Arcadia Quest rulebook p.9"
REROLL_PAGE = "Inferno rulebook, Reroll Pool; FAQ"
PAYBACK_PAGE = "printed p.21; Arcadia Quest rulebook p.12"
GUARD_PAGE = "printed p.20"


@dataclass(frozen=True, slots=True)
class RolledDice:
    """One roll as it happened: the pool, the CRITs' extra dice, the rerolls, and what shows at the end."""

    scores: str
    """The face that scores besides CRIT: ``"melee"``, ``"ranged"`` or ``"shield"``."""
    worth: int
    """Successes one CRIT counts (2 with "extra-hit-per-crit")."""
    pool: int
    """Reroll points the roller had."""
    first: tuple[str, ...]
    """The pool's dice as first rolled."""
    extra: tuple[str, ...]
    """The dice the CRITs of the first roll added, in order (chains included)."""
    rerolls: tuple[tuple[str, str, tuple[str, ...]], ...]
    """Each reroll: the failed face, the new face, and the dice the new face's CRITs added."""
    final: tuple[str, ...]
    """Every die as it shows at the end."""

    @property
    def successes(self) -> int:
        """Hits (or saves): each scoring face 1, each CRIT `worth`."""
        return sum(self.worth if face == "crit" else face == self.scores for face in self.final)

    @property
    def crits(self) -> int:
        """CRITs showing at the end (each added one die)."""
        return self.final.count("crit")


def _chain(rng: random.Random, faces: tuple[str, ...], crits: int) -> list[str]:
    """The extra dice `crits` CRITs add, each extra CRIT adding one more (INF-RB p.18)."""
    out: list[str] = []
    while crits:
        face = rng.choice(faces)
        out.append(face)
        crits += int(face == "crit") - 1
    return out


def roll_dice(rng: random.Random, roll: Roll, faces: tuple[str, ...], scores: str) -> RolledDice:
    """Roll `roll` (dice, reroll pool, CRIT worth) with a die of `faces`, scoring on `scores` and CRIT.

    >>> from explorer.games.arcadia_quest.attack.model import Trial
    >>> rolled = roll_dice(random.Random(3), Roll(3, 1, Trial(2, 3, 1)), ("melee",) * 3 + ("ranged",) * 2 + ("crit",),
    ...                    "melee")
    >>> len(rolled.final) == 3 + rolled.crits, len(rolled.rerolls) <= 1
    (True, True)
    """
    first = [rng.choice(faces) for _ in range(roll.dice)]
    extra = _chain(rng, faces, first.count("crit"))
    final = first + extra
    rerolls = []
    for _ in range(roll.rerolls):
        failed = next((i for i, face in enumerate(final) if face not in (scores, "crit")), None)
        if failed is None:
            break
        old, final[failed] = final[failed], rng.choice(faces)
        added = _chain(rng, faces, int(final[failed] == "crit"))
        final += added
        rerolls.append((old, final[failed], tuple(added)))
    return RolledDice(scores, roll.crit_worth, roll.rerolls if roll.dice else 0, tuple(first), tuple(extra),
                      tuple(rerolls), tuple(final))


def _show(faces: Iterable[str]) -> str:
    return " ".join(f"[{_WORDS.get(face, face)}]" for face in faces) or "none"


def _owner(name: str) -> str:
    """The possessive of a name ("Greensleeves'", "Grom's")."""
    return name + ("'" if name.endswith("s") else "'s")


def _n(count: int, word: str, plural: str = "") -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _crit_text(rolled: RolledDice) -> str:
    crits = rolled.first.count("crit")
    if not crits:
        return "no CRIT: no extra die"
    worth = f" (each counts {rolled.worth} hits: extra-hit-per-crit)" if rolled.worth > 1 else ""
    return f"{_n(crits, 'CRIT')}, each a success{worth} that adds a die: {_show(rolled.extra)}"


def _reroll_text(rolled: RolledDice, miss: str) -> str:
    if not rolled.pool:
        return "no reroll pool: keeps every die"
    parts = [f"{_show([old])} -> {_show([new])}" + (f", its CRIT adds {_show(added)}" if added else "")
             for old, new, added in rolled.rerolls]
    unused = rolled.pool - len(rolled.rerolls)
    if not parts:
        return f"keeps every die: none shows {miss} ({_n(unused, 'reroll')} unused)"
    return (f"reroll pool {rolled.pool}: rerolls " + "; ".join(parts) + (f" ({_n(unused, 'reroll')} unused: no "
            f"die shows {miss})" if unused else "") + " (a CRIT is never rerolled)")


def _total_text(rolled: RolledDice, noun: str) -> str:
    plain, crits = rolled.final.count(rolled.scores), rolled.crits
    total = _n(rolled.successes, noun)
    return f"{total}: {_n(plain, _WORDS[rolled.scores])} + {_n(crits, 'CRIT')}" + (
        f" x {rolled.worth}" if rolled.worth > 1 and crits else "")


def _extra_dice(abilities: tuple[str, ...], wounded: bool, flanked: bool) -> str:
    reasons = [why for name, on, why in (("extra-die-while-wounded", wounded, "extra-die-while-wounded: wounded"),
                                         ("extra-die-vs-flanked", flanked, "extra-die-vs-flanked: the target is flanked"))
               if name in abilities and on]
    return "".join(f" + 1 die ({why})" for why in reasons)


def _no_defence(who: str, dice: int, dazed: bool, attacker_abilities: tuple[str, ...]) -> str | None:
    """Why `who` rolls no Defense dice, or None."""
    if dazed:
        return f"{who} is Dazed: rolls no Defense dice (Inferno rulebook, Daze)"
    if "ignore-defence" in attacker_abilities:
        return f"{who} rolls no Defense dice (the attacker's ignore-defence)"
    return None if dice else f"{who} has no Defense: rolls no dice"


def _defence_text(who: str, rolled: RolledDice, why_none: str | None) -> str:
    if why_none:
        return why_none
    return (f"{who} rolls {_n(len(rolled.first), 'white die', 'white dice')}: {_show(rolled.first)}; "
            f"{_crit_text(rolled)}; {_reroll_text(rolled, 'a blank')}; {_total_text(rolled, 'save')}")


HeroState = tuple[int, bool]
"""Wounds the hero has taken in the encounter (capped at his Life left) and whether he is Dazed."""


def _monster_attack(rng: random.Random, enc: Encounter, monster: Monster, monster_wounds: int, state: HeroState,
                    step: str, page: str, why: str) -> tuple[list[TraceStep], HeroState]:
    """One Monster attack on the hero, as the resolver's `encounter._monster_attack` reads it."""
    hero, (taken, dazed) = enc.hero, state
    attack = attack_roll(monster.attack, monster.kind, monster.rerolls, monster.abilities, wounded=monster_wounds > 0,
                         target_flanked=hero.flanked, attack_die=enc.attack_die)
    wounded = hero.wounds + taken > 0
    defence = defence_roll(hero.defence + enc.card.defence_bonus, hero.rerolls, hero.abilities, wounded=wounded,
                           dazed=dazed, attacker_abilities=monster.abilities, defence_die=enc.defence_die)
    hits = roll_dice(rng, attack, enc.attack_die, monster.kind)
    saves = roll_dice(rng, defence, enc.defence_die, "shield")
    miss = "a ranged hit" if monster.kind == "melee" else "a melee hit"
    more = _extra_dice(monster.abilities, monster_wounds > 0, hero.flanked)
    text = (f"{why}: rolls {monster.attack} black dice ({monster.kind}){more}: {_show(hits.first)}; {_crit_text(hits)}; "
            f"{_reroll_text(hits, 'a failure')}; {_total_text(hits, 'hit')} ({miss} misses, Arcadia Quest rulebook p.9)")
    wounds = max(0, hits.successes - saves.successes)
    after = min(hero.life_left, taken + wounds)
    dazes = "daze-on-wound" in monster.abilities and wounds > 0
    left = hero.life_left - after
    verdict = f"{hero.name} is killed (Arcadia Quest rulebook p.10)" if left == 0 else f"{hero.name} can take {_n(left, 'more Wound')}"
    bonus = f" + {enc.card.defence_bonus} from the {enc.card.name}" if enc.card.defence_bonus else ""
    extra = _extra_dice(hero.abilities, wounded, False)
    who = f"{hero.name} (Defense {hero.defence}{bonus}{extra})"
    result = (f"{_defence_text(who, saves, _no_defence(hero.name, defence.dice, dazed, monster.abilities))}. "
              f"{_n(hits.successes, 'hit')} - {_n(saves.successes, 'save')} = {_n(wounds, 'Wound')}: {verdict}"
              + ("; a Wound from it Dazes him: no Defense dice from now on" if dazes and not dazed and left else ""))
    steps = [TraceStep(monster.name, step, text, page, {"monster": monster.name, "roll": hits}),
             TraceStep("hero", step, result, "Inferno rulebook p.16, p.18", {
                 "monster": monster.name, "roll": saves, "hits": hits.successes, "saves": saves.successes,
                 "wounds": wounds, "taken": after, "dazed": dazed or dazes})]
    return steps, (after, dazed or dazes)


def _hero_attack(rng: random.Random, enc: Encounter) -> tuple[list[TraceStep], tuple[int, ...]]:
    """Steps 1 to 5: the hero's one roll, then each targeted Monster's Defense roll and its Wounds."""
    hero, card, target = enc.hero, enc.card, enc.target
    attack = hero_attack_roll(enc)
    hits = roll_dice(rng, attack, enc.attack_die, card.kind)
    miss = "a ranged hit" if card.kind == "melee" else "a melee hit"
    more = _extra_dice(hero.abilities, hero.wounds > 0, target.flanked)
    others = "".join(f" and the {t.monster.name}" for t in enc.also_targets)
    steps = [
        TraceStep("hero", "1. Attack roll", f"{hero.name} attacks the {target.name}{others} with the {card.name} "
                  f"({card.kind}, {_n(card.dice, 'die', 'dice')}){more}: rolls {_show(hits.first)}"
                  + (" (one roll for every target)" if others else ""), ROLL_PAGES, {"roll": hits}),
        TraceStep("hero", "2. CRITs", _crit_text(hits), "Inferno rulebook p.18", {"roll": hits}),
        TraceStep("hero", "3. Rerolls", _reroll_text(hits, f"a failure ({miss} misses in a {card.kind} attack)"),
                  REROLL_PAGE, {"roll": hits}),
        TraceStep("hero", "Hits", _total_text(hits, "hit") + f" ({miss} misses, Arcadia Quest rulebook p.9)", "Arcadia Quest rulebook p.9; Inferno rulebook p.18",
                  {"hits": hits.successes}),
    ]
    wounds = []
    for spot in enc.targets:
        more_steps, w = _target_wounds(rng, enc, spot, hits.successes)
        steps += more_steps
        wounds.append(w)
    return steps, tuple(wounds)


def _target_wounds(rng: random.Random, enc: Encounter, spot: Targeted, hits: int) -> tuple[list[TraceStep], int]:
    """Steps 4 and 5 for one targeted Monster: its own Defense roll against the hits, and its Wounds."""
    target, hero = spot.monster, enc.hero
    defence = target_defence_roll(enc, target)
    saves = roll_dice(rng, defence, enc.defence_die, "shield")
    who = f"the {target.name} (Defense {target.defence}{_extra_dice(target.abilities, target.wounds > 0, False)})"
    why_none = _no_defence(f"the {target.name}", defence.dice, target.dazed, hero.abilities)
    steps = [TraceStep(target.name, "4. Defense roll", _defence_text(who, saves, why_none), "Inferno rulebook p.16, p.18",
                       {"roll": saves})]
    wounds = max(0, hits - saves.successes)
    killed, overkilled = wounds >= target.life_left, target.overkilled_by(wounds)
    before = f" ({_n(target.wounds, 'Wound')} on it before)" if target.wounds else ""
    if overkilled:
        verdict = f"overkilled ({wounds} >= its Overkill {target.overkill}): removed at once, no Payback"
    elif killed:
        rating = f"below its Overkill {target.overkill}" if target.overkill is not None else "it has no Overkill rating"
        verdict = f"killed, but {rating}: it still acts before it leaves"
    else:
        verdict = f"survives ({_n(target.life_left - wounds, 'more Wound')} would kill it)"
    steps.append(TraceStep("", "5. Wounds", f"{_n(hits, 'hit')} - {_n(saves.successes, 'save')} = "
                           f"{_n(wounds, 'Wound')} on the {target.name} (Life {target.life}{before}): {verdict}",
                           "Inferno rulebook p.18; Arcadia Quest rulebook p.10; printed p.21",
                           {"monster": target.name, "hits": hits, "saves": saves.successes, "wounds": wounds,
                            "killed": killed, "overkilled": overkilled}))
    return steps, wounds


def _payback(rng: random.Random, enc: Encounter, wounds: tuple[int, ...]) -> tuple[list[TraceStep], HeroState, str]:
    """Step 6: one Payback, by the targeted Monster the opponent activates (printed p.21), and why."""
    state = (0, enc.hero.dazed)
    if len(enc.targets) == 1:
        target, w = enc.target, wounds[0]
        if target.overkilled_by(w):
            why = f"no Payback: the {target.name} was overkilled"
        elif not enc.opponent_attacks:
            why = "no Payback: the opponent does not attack with the Monsters (an input)"
        elif not enc.payback_reaches:
            why = f"no Payback: the {target.name} cannot reach {enc.hero.name} (an input: movement is not modelled)"
        else:
            killed = w >= target.life_left
            why = f"the {target.name} pays back" + (", killed but not overkilled, before it leaves" if killed else "")
            steps, state = _monster_attack(rng, enc, target, target.wounds + w, state, "6. Payback", PAYBACK_PAGE, why)
            return steps, state, target.name
        return [TraceStep(target.name, "6. Payback", why, PAYBACK_PAGE, {"made": False, "by": None})], state, ""
    choice = PaybackChooser(enc).choose(wounds)
    if choice.index is None:
        why = f"no Payback: {choice.reason}" if enc.opponent_attacks else choice.reason
        return [TraceStep("", "6. Payback", why + " (only one targeted Monster may pay back, printed p.21)",
                          PAYBACK_PAGE, {"made": False, "by": None})], state, ""
    payer = enc.targets[choice.index].monster
    w = wounds[choice.index]
    killed = w >= payer.life_left
    why = (f"only one targeted Monster pays back, chosen by the opponent (printed p.21): {choice.reason}. The "
           f"{payer.name} pays back" + (", killed but not overkilled, before it leaves" if killed else ""))
    steps, state = _monster_attack(rng, enc, payer, payer.wounds + w, state, "6. Payback", PAYBACK_PAGE, why)
    steps[0] = TraceStep(steps[0].side, steps[0].step, steps[0].text, steps[0].page,
                         {**steps[0].data, "by": payer.name, "why": choice.reason})
    return steps, state, payer.name


def _guard(rng: random.Random, enc: Encounter, state: HeroState) -> tuple[list[TraceStep], HeroState]:
    hero = enc.hero
    if not enc.close_monsters:
        return [TraceStep("", "7. Guard", f"no Monster is Close to {hero.name}: no Guard", GUARD_PAGE, {"made": 0})], state
    if not enc.guard_attackers:
        return [TraceStep("", "7. Guard", f"no Guard: {enc.guard_reason}", GUARD_PAGE, {"made": 0})], state
    steps: list[TraceStep] = []
    for monster in enc.close_monsters:
        if state[0] >= hero.life_left:
            steps.append(TraceStep(monster.name, "7. Guard", f"no Guard attack: {hero.name} is already killed",
                                   "Arcadia Quest rulebook p.10; printed p.20", {"made": False}))
            continue
        why = f"the {monster.name}, Close to {hero.name}, guards: his attack targeted none of the Close Monsters"
        more, state = _monster_attack(rng, enc, monster, monster.wounds, state, "7. Guard", GUARD_PAGE, why)
        steps += more
    return steps, state


def _coins(enc: Encounter, wounds: tuple[int, ...], taken: int) -> tuple[TraceStep, int, int]:
    hero = enc.hero
    hero_killed = taken >= hero.life_left
    guild = f"{_owner(hero.name)} Guild"
    active = tokens = 0
    killed_any = False
    parts = []
    for spot, w in zip(enc.targets, wounds):
        target = spot.monster
        if w >= target.life_left:
            active += target.reward
            killed_any = True
            parts.append(f"{guild} gets the {_owner(target.name)} Reward: {_n(target.reward, 'coin')}")
            if target.villain and spot.other_guild_tokens:
                tokens += target.reward * spot.other_guild_tokens
                parts.append(f"each of the {_n(spot.other_guild_tokens, 'other Guild')} with a token on the "
                             f"{target.name} gets {_n(target.reward, 'coin')}")
        elif target.villain and w > 0:
            parts.append(f"{guild} places a token on the {target.name} (paid if it dies later, Arcadia Quest rulebook p.12)")
    if not killed_any:
        parts.insert(0, f"{guild} gets no Reward")
    others = (enc.guilds - 1) * hero_killed + tokens
    if hero_killed:
        parts.append(f"a Monster killed {hero.name}: each of the {enc.guilds - 1} other Guilds gets 1 coin")
    return TraceStep("", "8. Coins", "; ".join(parts), "Arcadia Quest rulebook pp.10, 12, 13", {"active": active, "others": others}), \
        active, others


def trace_encounter(enc: Encounter, seed: int) -> tuple[TraceStep, ...]:
    """Sample one encounter with `random.Random(seed)` and record every step in the rulebook's order.

    The last step's data holds what the exact resolver's joint table is over: ``monster_wounds``
    (the attack's wounds) and ``hero_wounds`` (taken, capped at his Life left), and the coins.

    >>> from explorer.games.arcadia_quest import parse_encounter
    >>> enc = parse_encounter({"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                        "target": {"preset": "Orc Marauder"}, "close_monsters": [{"preset": "Goblin Archer"}]})
    >>> steps = trace_encounter(enc, 1)
    >>> [s.step for s in steps][:6]
    ['1. Attack roll', '2. CRITs', '3. Rerolls', 'Hits', '4. Defense roll', '5. Wounds']
    >>> steps == trace_encounter(enc, 1), steps[-1].step
    (True, 'Result')
    """
    rng = random.Random(seed)
    steps, wounds = _hero_attack(rng, enc)
    payback, state, payer = _payback(rng, enc, wounds)
    guard, (taken, _dazed) = _guard(rng, enc, state)
    coins, active, others = _coins(enc, wounds, taken)
    hero = enc.hero
    fate = "is killed" if taken >= hero.life_left else "survives"
    dealt = "; ".join(f"{_n(w, 'Wound')} to the {t.monster.name} ({'killed' if w >= t.monster.life_left else 'survives'})"
                      for t, w in zip(enc.targets, wounds))
    paid = f"; the {payer} paid back" if payer else "; no Payback"
    result = TraceStep("", "Result", f"{hero.name} dealt {dealt}{paid}; he took {_n(taken, 'Wound')} ({hero.name} "
                       f"{fate})", "",
                       {"monster_wounds": wounds[0], "target_wounds": wounds, "payback_by": payer or None,
                        "hero_wounds": taken, "coins_active": active, "coins_others": others})
    return tuple(steps + payback + guard + [coins, result])


def trace_scenario(scenario: Mapping[str, Any], seed: int) -> tuple[TraceStep, ...]:
    """`trace_encounter` of a scenario mapping (the registry's trace, `explorer.games.GameDef.trace_steps`)."""
    return trace_encounter(parse_encounter(scenario), seed)
