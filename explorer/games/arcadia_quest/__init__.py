"""Arcadia Quest (CMON, 2014): one attack, exactly (scenario format v1, "Arcadia Quest: one attack").

Edition and sources (``shared/rules/arcadia-quest.md``): the base rulebook (AQ-RB, 19 pp.,
transcribed by libble.de; its pp.20-21 spread, Overkill, Payback and Guard, is the project's seed
page), the Inferno rulebook (INF-RB, 40 pp., the same core rules), its Reroll Pool section
(INF-manualzz) and the official FAQ v1.0 (February 2015). The rulebook prints the die faces as
icons only: the faces used here are INFERRED from two fan implementations that agree
(`model.ATTACK_DIE`, `model.DEFENCE_DIE`, marked with `explorer.sourced.Sourced`); a scenario's
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
* Both players maximise their own successes; card and ability effects (CRIT effects, Daze, Guild
  abilities) are not modelled: give the dice and rerolls they leave. Kill and overkill are reported
  separately as the spec defines them (an Overkill rating below the Life left is taken as given).
* No ``defence``: the target rolls no dice ("Most Monsters have no Defense", AQ-RB p.21).
"""

from explorer.games.arcadia_quest.model import (
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
from explorer.games.arcadia_quest.report import ArcadiaReport
from explorer.games.arcadia_quest.scenario import parse_attack, scenario_to_dict

__all__ = [
    "ATTACK_DIE", "CUT_BELOW", "DEFENCE_DIE", "KINDS", "ArcadiaReport", "Attack", "AttackResult",
    "AttackScenario", "Defence", "Target", "Trial", "parse_attack", "resolve", "resolve_attack",
    "roll_successes", "scenario_to_dict", "successes",
]


def resolve(data: object) -> ArcadiaReport:
    """Parse a scenario mapping and resolve the attack exactly.

    Raises:
        ScenarioError: naming the bad key (``attack.kind``, ``target.wounds``, ...).

    >>> report = resolve({"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee", "rerolls": 1},
    ...     "defence": {"dice": 2, "rerolls": 0}, "target": {"life": 4, "wounds": 0, "overkill": 6}})
    >>> out = report.to_dict()
    >>> round(sum(out["wounds"].values()) + out["cut"], 12), out["cut"] < 1e-12
    (1.0, True)
    """
    return ArcadiaReport(resolve_attack(parse_attack(data)))
