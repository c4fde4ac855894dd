"""Reading an Arcadia Quest scenario (format v1, "Arcadia Quest: one attack" in ``shared/specs/scenario-v1.md``).

Keys beyond the spec, all optional: ``title`` and ``notes`` at the top level; ``defence`` may be
left out (no defence roll, like most Monsters, AQ-RB p.21 "K. Defense"); ``rerolls`` and
``target.wounds`` default to 0; ``target.overkill`` may be ``null`` (JSON) as well as absent, and is
refused below ``target.life`` (an overkill is a kill, printed p.21) unless ``target.overkill_below_life``
is ``"as given"`` (the reading before issue 21: the rating taken as given);
``dice`` replaces the inferred faces: ``{"attack": [six of "melee", "ranged", "crit", "blank"],
"defence": [six of "shield", "crit", "blank"]}``; ``question`` may be ``"attack"``. The encounter and
sequence questions, and their keys, are in `explorer.games.arcadia_quest.encounter.scenario` (and docs/arcadia-quest.md).
"""

from __future__ import annotations

from typing import Any

from explorer.games.arcadia_quest.attack.model import (
    ATTACK_DIE,
    ATTACK_FACES,
    DEFENCE_DIE,
    DEFENCE_FACES,
    Attack,
    AttackFace,
    AttackScenario,
    Defence,
    DefenceFace,
    Target,
    check_die,
)
from explorer.scenario.fields import Fields

__all__ = ["parse_attack", "read_common", "read_dice", "scenario_to_dict"]


def _attack(f: Fields) -> Attack:
    attack = Attack(f.raw("dice"), f.raw("kind"), f.raw("rerolls", 0))
    f.done()
    return attack


def _defence(f: Fields) -> Defence:
    defence = Defence(f.raw("dice"), f.raw("rerolls", 0))
    f.done()
    return defence


def _target(f: Fields) -> Target:
    target = Target(f.raw("life"), f.raw("wounds", 0), f.raw("overkill", None), f.raw("overkill_below_life", "refuse"))
    f.done()
    return target


def parse_attack(data: Any) -> AttackScenario:
    """A whole Arcadia Quest scenario (one attack).

    Raises:
        ScenarioError: naming the first bad key (``attack.kind``, ``target.wounds``, ...) and what it allows.

    >>> s = parse_attack({"game": "arcadia-quest", "attack": {"dice": 3, "kind": "melee", "rerolls": 1},
    ...                   "defence": {"dice": 2, "rerolls": 0}, "target": {"life": 4, "wounds": 0, "overkill": 6}})
    >>> s.attack.dice, s.target.overkill, s.defence_die.count("blank")
    (3, 6, 4)
    """
    top = Fields(data, "", allowed=("game",))
    title = read_common(top, "attack")
    attack = _attack(top.child("attack"))
    defence = _defence(top.child("defence")) if top.has("defence") else Defence()
    target = _target(top.child("target"))
    attack_die, defence_die, source = read_dice(top)
    top.done()
    return AttackScenario(attack, defence, target, attack_die, defence_die, source, title)


def read_common(top: Fields, question: str) -> str:
    """Read the keys every Arcadia Quest scenario may carry (``format``, ``question``, ``title``, ``notes``).

    A ``question`` must be the one this reader answers (`encounter.scenario.question_of` tells which).

    Returns:
        The title ("" when absent).
    """
    if top.has("format"):
        top.choice("format", (1,))
    if top.has("question"):
        top.choice("question", (question,))
    return top.meta()[0]


def read_dice(top: Fields) -> tuple[tuple[AttackFace, ...], tuple[DefenceFace, ...], str]:
    """The ``dice`` key: attack faces, defence faces and their provenance (the inferred faces when absent).

    >>> read_dice(Fields({"dice": {"defence": ["shield"] * 3 + ["blank"] * 3}}, ""))[1][:4]
    ('shield', 'shield', 'shield', 'blank')
    """
    attack_die, defence_die, source = ATTACK_DIE.value, DEFENCE_DIE.value, ATTACK_DIE.source
    if top.has("dice"):
        dice = top.child("dice")
        attack_die = check_die(dice.raw("attack", attack_die), dice.at("attack"), ATTACK_FACES)
        defence_die = check_die(dice.raw("defence", defence_die), dice.at("defence"), DEFENCE_FACES)
        dice.done()
        source = "scenario" + ("" if dice.data.keys() >= {"attack", "defence"} else " (the other die: " + source + ")")
    return attack_die, defence_die, source


def scenario_to_dict(scenario: AttackScenario) -> dict[str, Any]:
    """The scenario form of an attack (faces written out only when they differ from the defaults).

    >>> s = parse_attack({"attack": {"dice": 2, "kind": "ranged"}, "target": {"life": 3}})
    >>> parse_attack(scenario_to_dict(s)) == s
    True
    """
    target: dict[str, Any] = {"life": scenario.target.life, "wounds": scenario.target.wounds}
    if scenario.target.overkill is not None:
        target["overkill"] = scenario.target.overkill
    if scenario.target.overkill_below_life != "refuse":
        target["overkill_below_life"] = scenario.target.overkill_below_life
    out: dict[str, Any] = {
        "format": 1, "game": "arcadia-quest",
        "attack": {"dice": scenario.attack.dice, "kind": scenario.attack.kind, "rerolls": scenario.attack.rerolls},
        "defence": {"dice": scenario.defence.dice, "rerolls": scenario.defence.rerolls},
        "target": target,
    }
    if scenario.title:
        out["title"] = scenario.title
    if (scenario.attack_die, scenario.defence_die) != (ATTACK_DIE.value, DEFENCE_DIE.value):
        out["dice"] = {"attack": list(scenario.attack_die), "defence": list(scenario.defence_die)}
    return out
