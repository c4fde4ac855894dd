"""Arcadia Quest (CMON, 2014): one attack, one encounter, a sequence of attacks, exactly.

Three questions (``encounter.scenario.question_of``): the spec's one attack (scenario format v1,
"Arcadia Quest: one attack"; files without ``question``, ``hero`` or ``party`` keep that meaning),
an *encounter* (one hero action: the attack, the target's Payback, the Close Monsters' Guard, coins)
and a *sequence* (a party attacking one Monster in turn until it dies). Presets of heroes, starter
Attack cards and level-1 Monsters, all fan-collected and marked so, are in `data`; the dice lab
engine is `lab.ArcadiaLabEngine`.

Edition and sources (``shared/rules/arcadia-quest.md``): the base rulebook (AQ-RB, 19 pp.,
transcribed by libble.de; its pp.20-21 spread, Overkill, Payback and Guard, is the project's seed
page), the Inferno rulebook (INF-RB, 40 pp., the same core rules), its Reroll Pool section
(INF-manualzz) and the official FAQ v1.0 (February 2015). The rulebook prints the die faces as
icons only: the faces used here are INFERRED from two fan implementations that agree
(`model.ATTACK_DIE`, `model.DEFENCE_DIE`, marked with `explorer.scenario.sourced.Sourced`); a scenario's
``dice`` key replaces them.

What is modelled (VERIFIED in the rules file unless marked):

* Successes: a melee attack on melee-hit and CRIT faces, a ranged attack on ranged-hit and CRIT
  faces, a defence roll on shield and CRIT faces (AQ-RB p.9, INF-RB p.18). Faces: attack die 3
  melee, 2 ranged, 1 CRIT; defence die 1 shield, 1 CRIT, 4 blanks (INFERRED, spec).
* A CRIT is one success and adds a die to that roll, which may CRIT again, without limit
  (INF-RB p.18; defence CRITs too, Example 3). Wounds = max(0, hits - saves) (INF-RB p.18).
* The reroll pool is at the roller's disposal in full for every roll (INF-manualzz); each point
  rerolls one die, the new result replaces the old; CRIT extra dice may be rerolled.
* Killed: wounds >= Life - Wounds already on the target (AQ-RB p.10, p.12). Overkilled: this one
  attack's wounds >= Overkill, whatever wounds were there (p.21); no Overkill rating: never.

Rulings chosen where the rules are silent or ambiguous (each is a place to check):

* Rerolls are spent greedily: every point goes on a die showing a failure while any shows one.
  A failure counts nothing and a fresh roll counts at least nothing (and may add dice), so this is
  never worse than keeping the point, in every outcome. Each roll is a fresh independent die, so the
  order (reroll before or after rolling the CRITs' extra dice) does not change the distribution.
* The same die may be rerolled again while points remain (INFERRED, spec; the rulebook is silent).
* A CRIT is never rerolled. The FAQ allows it before the extra die is rolled, but a CRIT (a success
  and one more die) beats any fresh roll, so no player would, and the spec forbids it.
* The endless CRIT chains are followed until the mass still open is below 1e-12: each of the two
  rolls is cut below 5e-13, so that the attack's whole cut (hits or saves cut) is below 1e-12.
  The cut mass is reported (``cut``, and ``cuts`` per distribution), not spread over the outcomes
  (not renormalised): kill and overkill are lower bounds, short of the truth by at most ``cut``.
* Both players maximise their own successes. In the one-attack question card and ability effects
  (CRIT effects, Daze, Guild abilities) are not modelled: give the dice and rerolls they leave
  (encounters and sequences offer the abilities of `data.ABILITIES` as options). Kill and overkill are reported
  separately as the spec defines them; an Overkill rating below the target's Life is refused, as in
  encounters (printed p.21: an overkill is a kill); ``target.overkill_below_life: "as given"`` keeps
  the reading before issue 21 (the rating taken as given).
* No ``defence``: the target rolls no dice ("Most Monsters have no Defense", AQ-RB p.21).

Pages: the seed spread is the base rulebook's printed pp.20-21 (libble page 11: Guard, Payback,
Monster anatomy, Overkill); other AQ-RB pages are libble's, as in the rules notes (p.12 is the
worked Payback example with Schmetterling the Troll).

Rulings of the encounter and the sequence (also in `rulings`, printed in every report):

* Order: the hero's attack, then the target's Payback, then each Close Monster's Guard attack in
  the listed order. The rulebook puts both reactions after the attack and does not order them;
  the order matters only for Daze and "extra die while wounded" effects.
* Killed but not overkilled: the target still makes its Payback with its full dice, then leaves;
  wounds reaching its Overkill in this one attack remove it at once (printed p.21, AQ-RB p.12).
* Payback needs the target to reach the hero and its controller to attack: both are inputs
  (movement and line of sight are not modelled; by default the controller always strikes).
* Guard: every Close Monster attacks when the hero's attack targets none of them; a Close target,
  or a special effect that also targets a Close Monster, fends all of them off (printed p.20).
  When the opponent does not attack, no Guard attack is made and the report says why.
* Several targets: the one attack roll's hits go to each targeted Monster (``also_targets``), and
  each rolls its own Defense (Nova Bolt, AQ-RB p.10: both targets suffer the full hits; the own
  Defense is INFERRED); the target, listed first, decides the hero's "extra-die-vs-flanked".
* Payback with several targets: only one targeted Monster is activated, and the opponent chooses
  (printed p.21): after the attack's results are known, among the targets not overkilled whose
  Payback reaches the hero, the one worst for the hero: highest P(hero killed) in the action, then
  most Wounds expected, then the first listed; ``payback_by`` may name one (when it cannot pay
  back, the worst of the others does). ``attack.also_targets_close`` keeps its old meaning (it
  only switches Guard off): it cannot give the second Monster a Payback, ``also_targets`` can.
* A Monster's Overkill below its Life is refused, since an overkill is a kill; no Overkill rating
  (Lord Fang, forum answer): never overkilled, always pays back.
* Monster attacks stop once the hero is killed; his wounds are reported capped at his Life left.
* Each roll uses its roller's full reroll pool: a hero's for his attack and every defence roll,
  a Monster's for its attack and defence (INF-RB Reroll Pool; printed p.21 "M. Reroll").
* Abilities act at each roll: a Monster wounded by the attack pays back with its extra die, and a
  hero wounded earlier in the action defends (and attacks) with his.
* Daze takes effect after the attack that causes it: a Dazed hero rolls no Defense dice against the
  later attacks of the same encounter; a Dazed Monster stays Dazed until killed (FAQ).
* Coins: the killer's Guild gets the Reward of every targeted Monster it kills; each other Guild
  holding a token on a killed Villain target gets its Reward too; a Monster killing the hero pays 1 coin to every other Guild
  (AQ-RB pp.10, 12, 13). Wounding a Villain without killing it is reported as a token placed.
* Card and ability effects not offered as options (Life Drain, Vengeance, monster healing, a
  Monster's own multi-target attack) are not modelled: edit the dice instead; a hero's attack on
  several Monsters is (an encounter's ``also_targets``).
* Sequence: Wounds and Daze stay on the Monster between attacks until it is killed (AQ-RB p.12).
* Sequence: the heroes attack in the listed order, round and round; a killed hero drops out
  (coming back needs a Rest turn, INF-RB p.19, not modelled).
* Sequence: after each attack the Monster pays back the attacker unless overkilled; no Guard, and
  no healing between attacks.
* Sequence: the Reward goes to the hero who deals the killing Wound (AQ-RB p.10).
* Sequence cap: attacks are followed up to ``max_attacks``, or until at most 1e-15 is undecided;
  the undecided mass is reported as beyond the cap (a computing limit, not a rule).
"""

from explorer.games.arcadia_quest.attack.model import (
    ATTACK_DIE,
    CUT_BELOW,
    DEFENCE_DIE,
    KINDS,
    Attack,
    AttackResult,
    AttackScenario,
    Defence,
    Target,
    Trial,
    resolve_attack,
    roll_successes,
    successes,
)
from explorer.games.arcadia_quest.attack.report import ArcadiaReport
from explorer.games.arcadia_quest.attack.scenario import parse_attack, scenario_to_dict
from explorer.games.arcadia_quest.data import ABILITIES, ATTACK_CARDS, CARD_GROUPS, HEROES, MONSTERS
from explorer.games.arcadia_quest.encounter.action import Encounter, EncounterResult, resolve_encounter
from explorer.games.arcadia_quest.encounter.fighters import AttackCard, Hero, Monster
from explorer.games.arcadia_quest.encounter.payback import MAX_TARGETS, Targeted
from explorer.games.arcadia_quest.encounter.payback import WORST as PAYBACK_WORST
from explorer.games.arcadia_quest.encounter.report import EncounterReport, SequenceReport
from explorer.games.arcadia_quest.encounter.scenario import (
    encounter_to_dict,
    monster_dict,
    parse_encounter,
    parse_sequence,
    question_of,
    sequence_to_dict,
)
from explorer.games.arcadia_quest.encounter.sequence import AttackSequence, SequenceResult, resolve_sequence
from explorer.games.arcadia_quest.encounter.summary import OUTCOMES, compare_rows, is_chance, summary_rows
from explorer.games.arcadia_quest.encounter.sweep import CELL_SECONDS, PARAMETERS, SWEEP
from explorer.games.arcadia_quest.encounter.trace import TraceStep, trace_encounter
from explorer.games.arcadia_quest.rulings import ENCOUNTER_RULINGS, REACTION_RULINGS

__all__ = [
    "ABILITIES", "ATTACK_CARDS", "ATTACK_DIE", "ArcadiaReport", "Attack", "AttackCard", "AttackResult",
    "AttackScenario", "AttackSequence", "CARD_GROUPS", "CELL_SECONDS", "CUT_BELOW", "DEFENCE_DIE", "Defence",
    "ENCOUNTER_RULINGS", "Encounter", "EncounterReport", "EncounterResult", "HEROES", "Hero", "KINDS",
    "MAX_TARGETS", "MONSTERS", "Monster", "OUTCOMES", "PARAMETERS", "PAYBACK_WORST", "REACTION_RULINGS", "SequenceReport", "SequenceResult",
    "Target", "Targeted", "TraceStep", "Trial", "compare_rows", "encounter_to_dict", "estimate", "is_chance",
    "monster_dict", "parse_attack", "parse_encounter", "parse_sequence", "question_of", "resolve",
    "resolve_attack", "resolve_encounter", "resolve_sequence", "roll_successes", "scenario_to_dict",
    "sequence_to_dict", "successes", "SWEEP", "summary_rows", "trace_encounter",
]

ATTACK_SECONDS = 0.01
"""Work of one attack at most (30 dice and 20 rerolls a side): a few milliseconds."""


def estimate(data: object) -> float:
    """Seconds `resolve(data)` and its report are estimated at, before anything is computed (for a grid
    of scenarios, `explorer.resolver.estimate`): a sequence's own estimate (`AttackSequence.estimate`),
    an encounter `sweep.CELL_SECONDS`, one attack `ATTACK_SECONDS`.

    Raises:
        ScenarioError: the scenario does not read, or is too big on its own.

    >>> estimate({"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee"}, "target": {"life": 4}})
    0.01
    """
    question = question_of(data)
    if question == "encounter":
        parse_encounter(data)
        return CELL_SECONDS
    if question == "sequence":
        return parse_sequence(data).estimate() / 1e6 + ATTACK_SECONDS
    parse_attack(data)
    return ATTACK_SECONDS


def resolve(data: object) -> ArcadiaReport | EncounterReport | SequenceReport:
    """Parse a scenario mapping and answer its question exactly (one attack, an encounter, a sequence).

    Raises:
        ScenarioError: naming the bad key (``attack.kind``, ``target.overkill``, ...).

    >>> report = resolve({"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee", "rerolls": 1},
    ...     "defence": {"dice": 2, "rerolls": 0}, "target": {"life": 4, "wounds": 0, "overkill": 6}})
    >>> out = report.to_dict()
    >>> round(sum(out["wounds"].values()) + out["cut"], 12), out["cut"] < 1e-12
    (1.0, True)
    """
    question = question_of(data)
    if question == "encounter":
        return EncounterReport(resolve_encounter(parse_encounter(data)))
    if question == "sequence":
        return SequenceReport(resolve_sequence(parse_sequence(data)))
    return ArcadiaReport(resolve_attack(parse_attack(data)))
