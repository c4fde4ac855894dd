"""Reading encounter and sequence scenarios (scenario format v1 plus optional keys; old files unchanged).

Which question a file asks: ``"question"`` (``"attack"``, ``"encounter"`` or ``"sequence"``); without it,
a file with ``party`` is a sequence, one with ``hero`` an encounter, anything else the spec's one attack.

Encounter keys (all new, all optional unless marked):

* ``hero``: ``preset`` (a name in `data.HEROES`) or both ``defence`` and ``life``; ``name``, ``wounds``
  (already on him), ``rerolls`` (his reroll pool), ``abilities`` (names in `data.ABILITIES`; default:
  the preset's, those tied to a card group only with that group), ``dazed``, ``flanked``.
* ``attack``: ``card`` (a name in `data.ATTACK_CARDS`) or both ``dice`` and ``kind``; ``name``,
  ``group`` (one of `data.CARD_GROUPS`), ``defence_bonus`` (Defense dice the card adds to the hero),
  ``also_targets_close`` (a special effect also targets a Close Monster: no Guard).
* ``target`` (required) and each of ``close_monsters`` (a list): ``preset`` (a name in
  `data.MONSTERS`) or ``attack`` (``{"dice": n, "kind": "melee" | "ranged"}``) and ``life``; ``name``,
  ``defence``, ``rerolls``, ``wounds``, ``overkill`` (>= ``life``; ``null``: none), ``reward``,
  ``villain``, ``abilities``, ``dazed``, ``flanked``, ``movement``. Target only: ``close`` (it is
  Close to the hero; default false), ``reaches`` (its Payback can reach the hero; default true),
  ``other_guild_tokens`` (other Guilds holding a token on this Villain; default 0).
* ``also_targets`` (a list, at most 3): the other Monsters the attack targets (Cleave, Nova Bolt's
  second target), each as ``target`` (with ``close``, ``reaches``, ``other_guild_tokens``); the one
  attack roll goes to each, each rolls its own Defense. Names must differ from each other and
  from the target's (a preset's name is its own; give ``name`` to tell two Orcs apart).
* ``payback_by``: which targeted Monster the opponent activates for Payback (printed p.21):
  ``"worst for the hero"`` (default) or the ``name`` of one (`payback.choose_payback`).
* ``opponent_attacks`` (default true), ``guilds`` (2 to 4, default 4), ``dice`` (as for one attack).

Sequence keys: ``party`` (1 to 4 of ``{"hero": {...}, "attack": {...}}``, as above, without
``also_targets_close``), ``target`` (as above, without ``close`` and ``other_guild_tokens``),
``max_attacks`` (1 to 50, default 10), ``opponent_attacks``, ``dice``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields as dataclass_fields
from typing import Any, Literal, get_args

from explorer.core.errors import ScenarioError
from explorer.games.arcadia_quest.attack.model import ATTACK_DIE, DEFENCE_DIE, AttackFace, DefenceFace
from explorer.games.arcadia_quest.attack.scenario import read_common, read_dice
from explorer.games.arcadia_quest.data import ATTACK_CARDS, HEROES, MONSTERS
from explorer.games.arcadia_quest.encounter.action import MAX_CLOSE_MONSTERS, MAX_GUILDS, Encounter
from explorer.games.arcadia_quest.encounter.fighters import AttackCard, Hero, Monster
from explorer.games.arcadia_quest.encounter.payback import MAX_TARGETS, WORST, Targeted
from explorer.games.arcadia_quest.encounter.sequence import MAX_PARTY, AttackSequence
from explorer.scenario.fields import Fields, check_option, describe
from explorer.scenario.sourced import Sourced

__all__ = ["QUESTIONS", "Question", "encounter_to_dict", "parse_encounter", "parse_sequence", "question_of",
           "sequence_to_dict"]

Question = Literal["attack", "encounter", "sequence"]
"""What an Arcadia Quest scenario asks: one attack (the spec), one encounter, or a sequence of attacks."""
QUESTIONS: tuple[Question, ...] = get_args(Question)
"""The values of `Question` (scenario key ``question``)."""


def question_of(data: Any) -> Question:
    """The question a scenario mapping asks (see the module docstring).

    >>> question_of({"hero": {}}), question_of({"attack": {}})
    ('encounter', 'attack')
    """
    if isinstance(data, Mapping) and "question" in data:
        return check_option(data["question"], QUESTIONS, "question")
    if isinstance(data, Mapping) and "party" in data:
        return "sequence"
    return "encounter" if isinstance(data, Mapping) and "hero" in data else "attack"


def _preset(f: Fields, table: dict[str, Sourced[Any]], key: str = "preset") -> tuple[str, Sourced[Any]] | None:
    if not f.has(key):
        return None
    name = f.raw(key)
    for known, value in table.items():
        if isinstance(name, str) and name.strip().lower() == known.lower():
            return known, value
    allowed = ", ".join(f'"{k}"' for k in table)
    raise ScenarioError(f.at(key), f"must be one of {allowed}, got {describe(name)}")


def _source(preset: tuple[str, Sourced[Any]] | None, f: Fields, preset_values: dict[str, Any]) -> str:
    """Where the values come from: the preset's provenance and the keys the scenario changed."""
    if preset is None:
        return "scenario"
    edited = [k for k, v in preset_values.items() if k in f.data and f.data[k] != v]
    note = getattr(preset[1].value, "note", "")
    return (f"{preset[0]}: {preset[1].source}" + (f"; card note: {note}" if note else "")
            + (f"; edited in the scenario: {', '.join(edited)}" if edited else ""))


def read_card(f: Fields) -> AttackCard:
    """The ``attack`` object of a hero (a `data.ATTACK_CARDS` preset and overrides); the caller calls ``done``."""
    preset = _preset(f, ATTACK_CARDS, "card")
    base = preset[1].value if preset else None
    name = f.text("name", preset[0] if preset else "Attack card")
    dice = f.raw("dice", base.dice if base else None)
    kind = f.raw("kind", base.kind if base else None)
    if base is None and (dice is None or kind is None):
        raise ScenarioError(f.at("dice" if dice is None else "kind"), "is required without a card preset "
                            f"(cards: {', '.join(ATTACK_CARDS)})")
    group = f.raw("group", base.group if base else "other")
    bonus = f.raw("defence_bonus", base.defence_bonus if base else 0)
    source = _source(preset, f, {k: getattr(base, k) for k in ("dice", "kind", "group", "defence_bonus")} if base else {})
    return AttackCard(name, dice, kind, group, bonus, source, at=f.path)


def read_hero(f: Fields, card: AttackCard) -> Hero:
    """The ``hero`` object (a `data.HEROES` preset and overrides); abilities tied to a card group need that group."""
    preset = _preset(f, HEROES)
    base = preset[1].value if preset else None
    name = f.text("name", preset[0] if preset else "Hero")
    values = {}
    for key in ("defence", "life"):
        values[key] = f.raw(key, getattr(base, key) if base else None)
        if values[key] is None:
            raise ScenarioError(f.at(key), f"is required without a hero preset (heroes: {', '.join(HEROES)})")
    if f.has("abilities"):
        abilities = tuple(f.items("abilities"))
    else:
        abilities = tuple(a for a, group in (base.abilities if base else ()) if group in ("", card.group))
    hero = Hero(name, values["defence"], values["life"], f.raw("wounds", 0), f.raw("rerolls", 0), abilities,
                f.flag("dazed", False), f.flag("flanked", False), _source(preset, f, {"defence": base.defence, "life": base.life} if base else {}), at=f.path)
    f.done()
    return hero


def read_monster(f: Fields) -> Monster:
    """A Monster object (a `data.MONSTERS` preset and overrides); the caller reads any extra key and calls ``done``."""
    preset = _preset(f, MONSTERS)
    base = preset[1].value if preset else None
    name = f.text("name", preset[0] if preset else "Monster")
    dice, kind = (base.attack, base.kind) if base else (None, None)
    if f.has("attack") or base is None:
        attack = f.child("attack")
        dice, kind = attack.raw("dice", dice), attack.raw("kind", kind)
        attack.done()
    if dice is None or kind is None:
        raise ScenarioError(f.at("attack." + ("dice" if dice is None else "kind")),
                            f"is required without a monster preset (monsters: {', '.join(MONSTERS)})")
    life = f.raw("life", base.life if base else None)
    if life is None:
        raise ScenarioError(f.at("life"), f"is required without a monster preset (monsters: {', '.join(MONSTERS)})")
    options = {key: f.raw(key, getattr(base, key) if base else default)
               for key, default in (("defence", 0), ("overkill", None), ("reward", 0), ("rerolls", 0),
                                    ("movement", None))}
    villain = f.flag("villain", base.villain if base else False)
    abilities = tuple(f.items("abilities", list(base.abilities) if base else []))
    source = _source(preset, f, {"attack": {"dice": base.attack, "kind": base.kind}, "abilities": list(base.abilities),
                                 **{k: getattr(base, k) for k in ("life", "defence", "overkill", "reward", "rerolls",
                                                                  "villain", "movement")}} if base else {})
    return Monster(name, dice, kind, life, abilities=abilities, villain=villain, wounds=f.raw("wounds", 0),
                   dazed=f.flag("dazed", False), flanked=f.flag("flanked", False), source=source, at=f.path, **options)


def parse_encounter(data: Any) -> Encounter:
    """An encounter scenario.

    Raises:
        ScenarioError: naming the first bad key (``target.overkill``, ``close_monsters[1].attack.kind``, ...).

    >>> enc = parse_encounter({"game": "arcadia-quest", "hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"},
    ...                        "target": {"preset": "Orc Captain"}, "close_monsters": [{"preset": "Goblin Archer"}]})
    >>> enc.hero.abilities, enc.target.rerolls, enc.guard_triggered
    (('extra-die-while-wounded',), 1, True)
    """
    top = Fields(data, "", allowed=("game",))
    title = read_common(top, "encounter")
    attack = top.child("attack")
    card = read_card(attack)
    also = attack.flag("also_targets_close", False)
    attack.done()
    hero = read_hero(top.child("hero"), card)
    tf = top.child("target")
    target = read_monster(tf)
    close, reaches = tf.flag("close", False), tf.flag("reaches", True)
    tokens = tf.raw("other_guild_tokens", 0)
    tf.done()
    others = top.items("also_targets", [])
    if len(others) > MAX_TARGETS - 1:
        raise ScenarioError("also_targets", f"at most {MAX_TARGETS - 1} more targets (a computing limit), "
                                            f"got {len(others)}")
    more = []
    for i, item in enumerate(others):
        mf = Fields(item, f"also_targets[{i}]")
        more.append(Targeted(read_monster(mf), mf.flag("close", False), mf.flag("reaches", True),
                             mf.raw("other_guild_tokens", 0), at=mf.path))
        mf.done()
    payback_by = top.text("payback_by", WORST)
    payback_by = WORST if payback_by.strip().lower() == WORST else payback_by
    listed = top.items("close_monsters", [])
    if len(listed) > MAX_CLOSE_MONSTERS:
        raise ScenarioError("close_monsters", f"at most {MAX_CLOSE_MONSTERS} Close Monsters (two Characters a "
                                              f"Space, Inferno rulebook p.13), got {len(listed)}")
    guards = []
    for i, item in enumerate(listed):
        mf = Fields(item, f"close_monsters[{i}]")
        guards.append(read_monster(mf))
        mf.done()
    opponent = top.flag("opponent_attacks", True)
    guilds = top.raw("guilds", MAX_GUILDS)
    attack_die, defence_die, source = read_dice(top)
    top.done()
    return Encounter(hero, card, target, close, also, reaches, opponent, tuple(guards), guilds, tokens,
                     attack_die, defence_die, source, title, tuple(more), payback_by)


def parse_sequence(data: Any) -> AttackSequence:
    """A sequence scenario: a party attacking one Monster in turn.

    >>> seq = parse_sequence({"party": [{"hero": {"preset": "Scarlet"}, "attack": {"card": "Rusty Sword"}}],
    ...                       "target": {"preset": "Minotaur", "wounds": 2}, "max_attacks": 6})
    >>> seq.party[0][0].abilities, seq.target.life_left, seq.max_attacks
    (('extra-die-vs-flanked',), 3, 6)
    """
    top = Fields(data, "", allowed=("game",))
    title = read_common(top, "sequence")
    members = top.items("party")
    if not 1 <= len(members) <= MAX_PARTY:
        raise ScenarioError("party", f"must list 1 to {MAX_PARTY} heroes, got {len(members)}")
    party = []
    for i, item in enumerate(members):
        mf = Fields(item, f"party[{i}]")
        attack = mf.child("attack")
        card = read_card(attack)
        attack.done()
        party.append((read_hero(mf.child("hero"), card), card))
        mf.done()
    tf = top.child("target")
    target = read_monster(tf)
    reaches = tf.flag("reaches", True)
    tf.done()
    cap = top.raw("max_attacks", 10)
    opponent = top.flag("opponent_attacks", True)
    attack_die, defence_die, source = read_dice(top)
    top.done()
    return AttackSequence(tuple(party), target, cap, reaches, opponent, attack_die, defence_die, source, title)


def _card_dict(card: AttackCard) -> dict[str, Any]:
    out: dict[str, Any] = {"card": card.name} if card.name in ATTACK_CARDS else {"name": card.name}
    out.update(dice=card.dice, kind=card.kind, group=card.group, defence_bonus=card.defence_bonus)
    return out


def _hero_dict(hero: Hero) -> dict[str, Any]:
    out: dict[str, Any] = {"preset": hero.name} if hero.name in HEROES else {"name": hero.name}
    out.update(defence=hero.defence, life=hero.life, wounds=hero.wounds, rerolls=hero.rerolls,
               abilities=list(hero.abilities), dazed=hero.dazed, flanked=hero.flanked)
    return out


def monster_dict(monster: Monster) -> dict[str, Any]:
    """A Monster written out in full (preset name kept when it has one)."""
    out: dict[str, Any] = {"preset": monster.name} if monster.name in MONSTERS else {"name": monster.name}
    out["attack"] = {"dice": monster.attack, "kind": monster.kind}
    out.update({f.name: getattr(monster, f.name) for f in dataclass_fields(monster)
                if f.name not in ("name", "attack", "kind", "source", "at", "abilities")})
    out["abilities"] = list(monster.abilities)
    return out


def _dice_dict(attack_die: tuple[AttackFace, ...], defence_die: tuple[DefenceFace, ...]) -> dict[str, Any]:
    if (attack_die, defence_die) == (ATTACK_DIE.value, DEFENCE_DIE.value):
        return {}
    return {"dice": {"attack": list(attack_die), "defence": list(defence_die)}}


def encounter_to_dict(enc: Encounter) -> dict[str, Any]:
    """The scenario form of an encounter, every value written out (reads back to an equal encounter).

    >>> enc = parse_encounter({"hero": {"preset": "Seth"}, "attack": {"card": "Nova Bolt"}, "target": {"preset": "Troll"}})
    >>> parse_encounter(encounter_to_dict(enc)) == enc
    True
    """
    target = monster_dict(enc.target) | {"close": enc.target_close, "reaches": enc.payback_reaches,
                                         "other_guild_tokens": enc.other_guild_tokens}
    out: dict[str, Any] = {
        "format": 1, "game": "arcadia-quest", "question": "encounter", **({"title": enc.title} if enc.title else {}),
        "hero": _hero_dict(enc.hero), "attack": _card_dict(enc.card) | {"also_targets_close": enc.also_targets_close},
        "target": target, "close_monsters": [monster_dict(m) for m in enc.close_monsters],
        "opponent_attacks": enc.opponent_attacks, "guilds": enc.guilds,
    }
    if enc.also_targets or enc.payback_by != WORST:
        out["also_targets"] = [monster_dict(t.monster) | {"close": t.close, "reaches": t.reaches,
                                                          "other_guild_tokens": t.other_guild_tokens}
                               for t in enc.also_targets]
        out["payback_by"] = enc.payback_by
    return out | _dice_dict(enc.attack_die, enc.defence_die)


def sequence_to_dict(seq: AttackSequence) -> dict[str, Any]:
    """The scenario form of a sequence (reads back to an equal sequence).

    >>> seq = parse_sequence({"party": [{"hero": {"preset": "Grom"}, "attack": {"card": "Rusty Sword"}}],
    ...                       "target": {"preset": "Orc Captain"}})
    >>> parse_sequence(sequence_to_dict(seq)) == seq
    True
    """
    out: dict[str, Any] = {
        "format": 1, "game": "arcadia-quest", "question": "sequence", **({"title": seq.title} if seq.title else {}),
        "party": [{"hero": _hero_dict(hero), "attack": _card_dict(card)} for hero, card in seq.party],
        "target": monster_dict(seq.target) | {"reaches": seq.payback_reaches},
        "max_attacks": seq.max_attacks, "opponent_attacks": seq.opponent_attacks,
    }
    return out | _dice_dict(seq.attack_die, seq.defence_die)
