"""Reading an Assault of the Giants scenario (format v1, ``shared/specs/scenario-v1.md``).

Keys beyond the spec, all optional: ``title`` and ``notes`` at the top level; per side
``player`` (who earns the points, for plans), ``race`` (adds that race's default special die
name to the dice available, and checks that NPC giants roll it), ``giantslayers`` (the side is
giantslayers, attacker only), ``reroll_policy`` (``misses``, ``blanks``, ``none`` or ``best``) and
``objective`` (what ``best`` maximises, `OBJECTIVES`; ``ordning-points`` when absent) and
``cards`` (Spell and Resource Cards played before final totals, with the effects entered from
the cards, `cards`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.rules.cards import card_to_dict, parse_card_rerolls, parse_cards
from explorer.games.assault_of_the_giants.rules.combat import modifiers_from_commands
from explorer.games.assault_of_the_giants.rules.data import (
    CASTE_ORDER,
    DEFAULT_DICE,
    FACE_LIMITS,
    FACES_PER_DIE,
    GIANTSLAYER_ACTIONS,
    GIANTSLAYER_FIGURES,
    MAX_DICE_PER_SIDE,
    NPC_MODIFIERS,
    STACKING_LIMITS,
)
from explorer.games.assault_of_the_giants.rules.model import (
    CASUALTY_ORDERS,
    OBJECTIVES,
    REROLL_POLICIES,
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Unit,
)
from explorer.scenario.fields import Fields, describe

__all__ = ["parse_battle", "parse_dice", "battle_to_dict", "check_stacking", "rest_actions"]

_SYMBOLS = ("hit", "block", "arcane")

MAX_FEWEST_OP_UNITS = 12
"""Largest army whose best casualty order is searched (a computing limit, about 0.2 s)."""

MAX_FORTITUDE = 100
"""Largest ``fortitude`` / ``wounded_fortitude`` of a unit (printed values are single digits)."""
MAX_ORDNING_VALUE = 1000
"""Largest ``ordning_value`` of a unit."""
MAX_REROLLS = MAX_DICE_PER_SIDE
"""Largest ``rerolls``: more than the dice rolled reroll nothing more."""
MAX_CONVERSIONS = MAX_DICE_PER_SIDE * 2
"""Largest ``arcane_to_hits`` / ``arcane_to_blocks``: 2 arcane a face at most on every die."""
MAX_UNITS = 100
"""Most units on one side."""
MAX_COMMANDS = 20
"""Most Command Cards in a side's row (the pages we have name 8 cards)."""


def parse_face(data: Any, path: str) -> tuple[int, int, int]:
    """One face: counts of hit, block and arcane, each within the rulebook's limits (p.16).

    >>> parse_face({"hit": 2}, "dice.basic[0]")
    (2, 0, 0)
    """
    face = Fields(data, path)
    counts = tuple(face.whole(s, 0, maximum=FACE_LIMITS[s].value) for s in _SYMBOLS)
    face.done()
    return counts  # type: ignore[return-value]


def parse_dice(data: Any, path: str = "dice") -> dict[str, CombatDie]:
    """The scenario's ``dice`` object: name -> list of exactly six faces.

    >>> parse_dice({"d": [{"hit": 1}, {}, {}, {}, {}, {"arcane": 1}]})["d"].faces[5]
    (0, 0, 1)
    """
    table = Fields(data, path)
    dice: dict[str, CombatDie] = {}
    for name in list(table.data):
        faces = table.items(str(name))
        where = table.at(str(name))
        if len(faces) != FACES_PER_DIE:
            raise ScenarioError(where, f"must list exactly {FACES_PER_DIE} faces, got {len(faces)}")
        parsed = tuple(parse_face(f, f"{where}[{i}]") for i, f in enumerate(faces))
        dice[str(name)] = CombatDie(str(name), parsed, "scenario")
    table.done()
    return dice


def _unit(data: Any, path: str, giantslayers: bool) -> Unit:
    f = Fields(data, path)
    name = f.text("name", path.rsplit(".", 1)[-1])
    fortitude = f.whole("fortitude", minimum=1, maximum=MAX_FORTITUDE)
    wounded = f.flag("wounded", False)
    champion = f.flag("champion", False)
    if champion and wounded:
        raise ScenarioError(f.at("wounded"), "must be false for a champion: champions have no wounded side, they "
                                             "shrug off smaller damage unharmed (rulebook p.17)")
    # The wounded side only matters for a unit that starts wounded: a unit wounded in
    # this battle always uses up the remaining damage (p.17).
    if wounded and not f.has("wounded_fortitude"):
        raise ScenarioError(f.at("wounded_fortitude"), "is required when wounded is true")
    wounded_fortitude = f.whole("wounded_fortitude", fortitude, minimum=1, maximum=MAX_FORTITUDE)
    ordning_value = (f.whole("ordning_value", 0, maximum=MAX_ORDNING_VALUE) if giantslayers
                     else f.whole("ordning_value", maximum=MAX_ORDNING_VALUE))
    unit = Unit(name, fortitude, wounded_fortitude, ordning_value, wounded, champion)
    f.done()
    return unit


def _pool(f: Fields, dice: Mapping[str, CombatDie]) -> tuple[tuple[CombatDie, int], ...]:
    pool = f.child("pool")
    entries = []
    for name in list(pool.data):
        if name not in dice:
            known = ", ".join(f'"{n}"' for n in dice)
            raise ScenarioError(pool.at(str(name)), f"unknown die (known dice: {known})")
        entries.append((dice[name], pool.whole(str(name), minimum=0, maximum=MAX_DICE_PER_SIDE)))
    pool.done()
    if sum(n for _, n in entries) > MAX_DICE_PER_SIDE:
        raise ScenarioError(pool.path, f"at most {MAX_DICE_PER_SIDE} dice per side, got {sum(n for _, n in entries)}")
    return tuple(entries)


def _modifiers(f: Fields, commands: tuple[str, ...], npc: bool, attacker: bool) -> Modifiers:
    """Derived from the command row (p.16) or the NPC limits (p.20); explicit keys override."""
    if npc:
        limits = NPC_MODIFIERS.value
        ignored = " (command row ignored: NPC giants use the p.20 limits)" if commands else ""
        base = Modifiers(limits["rerolls"], 0, limits["arcane_to_blocks"], "npc" + ignored)
    else:
        base = modifiers_from_commands(commands, attacker=attacker)
    explicit = {
        "rerolls": f.whole("rerolls", None, maximum=MAX_REROLLS),
        "arcane_to_hits": f.whole("arcane_to_hits", None, maximum=MAX_CONVERSIONS) if attacker else _defender_hits(f),
        "arcane_to_blocks": f.whole("arcane_to_blocks", None, maximum=MAX_CONVERSIONS),
    }
    values = {k: getattr(base, k) if v is None else v for k, v in explicit.items()}
    overridden = [k for k, v in explicit.items() if v is not None]
    source = base.source + (f" (overridden: {', '.join(overridden)})" if overridden else "")
    return Modifiers(values["rerolls"], values["arcane_to_hits"], values["arcane_to_blocks"], source)


def _defender_hits(f: Fields) -> int | None:
    value = f.whole("arcane_to_hits", None, maximum=MAX_CONVERSIONS)
    if value:
        raise ScenarioError(f.at("arcane_to_hits"), "must be 0 or absent: the defender cannot use the Attack Command's conversion (rulebook p.17)")
    return value


def _check_attack_last(f: Fields, commands: tuple[str, ...]) -> None:
    """In a giant's battle the Attack Command is the card just played: the row's last (p.17)."""
    row = [c.strip().lower() for c in commands]
    if "attack" in row and row[-1] != "attack":
        later = ", ".join(c[:20] for c in commands[row.index("attack") + 1:][:3])
        raise ScenarioError(f.at("commands"), f"Attack must be the last card: the battle starts with the Attack "
                                              f"Command just played, so no card can follow it (got {later} after "
                                              f"it; rulebook p.17)")


def _no_attack_bonus(f: Fields) -> None:
    """A giantslayer attack is a Rest Command action: no Attack Command bonus (p.17)."""
    if f.data.get("arcane_to_hits"):
        raise ScenarioError(f.at("arcane_to_hits"), "must be 0 or absent for giantslayers: the Attack Command's "
                                                    "bonus applies only in the battle it starts (rulebook p.17)")


def check_stacking(race: str | None, count: int, path: str) -> None:
    """Refuse more units of `race` in one region than its stacking limit (storm: 3, rulebook p.9).

    Every unit counts, champions, leaders and NPC giants included (`data.STACKING_LIMITS`).

    >>> check_stacking("storm", 3, "defender.units"); check_stacking("hill", 9, "defender.units")
    >>> check_stacking("storm", 4, "defender.units")
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: defender.units: at most 3 storm giant units in one region (stacking limit, rulebook p.9), got 4; every unit counts, champions, leaders and NPC storm giants too
    """
    limit = STACKING_LIMITS.get(race or "")
    if limit is not None and count > limit.value:
        raise ScenarioError(path, f"at most {limit.value} {race} giant units in one region (stacking limit, rulebook "
                                  f"p.9), got {count}; every unit counts, champions, leaders and NPC {race} giants too")


def rest_actions(commands: tuple[str, ...]) -> int | None:
    """Giantslayer Actions the row's Rest Command gives: one per card to its left (p.18); None without Rest.

    >>> rest_actions(("Leader", "Move", "Rest")), rest_actions(("Leader", "Attack"))
    (2, None)
    """
    row = [c.strip().lower() for c in commands]
    return row.index("rest") if "rest" in row else None


def _check_giantslayer_row(f: Fields, commands: tuple[str, ...], slayers: int) -> None:
    """A giantslayer attack is a Rest Command's action: 1 action per attacking giantslayer (p.18).

    The Rest Command is the card just played, the row's last; the cards to its left pay for every
    action of this Rest, Recruit (2) and Move (1 a region) included. A row without Rest is not checked.
    """
    units = f.at("units")
    figures = GIANTSLAYER_FIGURES.value
    if slayers > figures:
        raise ScenarioError(units, f"at most {figures} giantslayers attack: the box holds {figures} figures")
    actions = rest_actions(commands)
    if actions is None:
        return
    row = [c.strip().lower() for c in commands]
    if row.count("rest") > 1 or row[-1] != "rest":
        raise ScenarioError(f.at("commands"), "Rest must be the last card, once: the giantslayers attack by the "
                                              "Rest Command just played (rulebook p.18)")
    cost = GIANTSLAYER_ACTIONS["attack"].value * slayers
    if cost > actions:
        raise ScenarioError(f.at("commands"), f"cannot pay for the attack: Rest gives 1 Giantslayer Action per "
                                              f"card to its left ({actions} here) and each of the {slayers} "
                                              f"attacking giantslayers takes 1 (rulebook p.18)")


def _commands(f: Fields) -> tuple[str, ...]:
    row = f.items("commands", [])
    if len(row) > MAX_COMMANDS:
        raise ScenarioError(f.at("commands"), f"at most {MAX_COMMANDS} Command Cards in a row, got {len(row)}")
    for i, card in enumerate(row):
        if not isinstance(card, str) or not card.strip():
            raise ScenarioError(f"{f.at('commands')}[{i}]", f"must be a Command Card name, got {describe(card)}")
    lowered = [c.strip().lower() for c in row]
    for name in ("leader", "magic", "attack"):
        if lowered.count(name) > 1:
            raise ScenarioError(f.at("commands"), f"a row holds one {name.title()} Command, got {lowered.count(name)}")
    return tuple(row)


def parse_side(data: Any, path: str, dice: Mapping[str, CombatDie], attacker: bool) -> Side:
    """One side (``attacker`` or ``defender``) of the scenario."""
    f = Fields(data, path)
    npc = f.flag("npc", False)
    giantslayers = f.flag("giantslayers", False)
    if giantslayers and not attacker:
        raise ScenarioError(f.at("giantslayers"), "only the attacking side can be giantslayers (rulebook p.19)")
    if npc and attacker:
        raise ScenarioError(f.at("npc"), "must be false for the attacker: NPC giants never move or attack, they "
                                         "only defend (rulebook pp.19-20)")
    race = f.choice("race", CASTE_ORDER, None) if f.has("race") else None
    commands = _commands(f)
    if attacker and not giantslayers:
        _check_attack_last(f, commands)
    if giantslayers:
        _no_attack_bonus(f)
    modifiers = _modifiers(f, commands, npc, attacker and not giantslayers)
    pool = _pool(f, dice)
    cards = parse_cards(f, dice, "attacker" if attacker else "defender", npc)
    with_cards = sum(n for _, n in pool) + sum(n for card in cards for _, n in card.dice)
    if with_cards > MAX_DICE_PER_SIDE:
        raise ScenarioError(f.at("cards"), f"at most {MAX_DICE_PER_SIDE} dice per side, pool and cards together, "
                                           f"got {with_cards}")
    if npc and race and not any(die.name == race and n for die, n in pool):
        raise ScenarioError(f.at("pool"), f'NPC giants always roll their special die (rulebook p.20): add "{race}": 1')
    units_path = f.at("units")
    listed = f.items("units")
    if len(listed) > MAX_UNITS:
        raise ScenarioError(units_path, f"at most {MAX_UNITS} units on a side, got {len(listed)}")
    units = tuple(_unit(u, f"{units_path}[{i}]", giantslayers) for i, u in enumerate(listed))
    if giantslayers:
        _check_giantslayer_row(f, commands, len(units))
    else:
        check_stacking(race, len(units), units_path)
    casualty_order = f.choice("casualty_order", CASUALTY_ORDERS, "listed")
    if casualty_order == "fewest-op" and len(units) > MAX_FEWEST_OP_UNITS:
        raise ScenarioError(units_path, f'at most {MAX_FEWEST_OP_UNITS} units with casualty_order "fewest-op" '
                                        f'(it compares every order), got {len(units)}; use "listed"')
    side = Side(
        pool=pool, modifiers=modifiers, units=units, npc=npc, giantslayers=giantslayers,
        casualty_order=casualty_order,
        reroll_policy=f.choice("reroll_policy", REROLL_POLICIES, "misses"),
        objective=f.choice("objective", OBJECTIVES, "ordning-points"),
        commands=commands, player=f.text("player", "attacker" if attacker else "defender"), cards=cards,
        card_rerolls=parse_card_rerolls(f),
    )
    f.done()
    return side


def parse_battle(data: Any) -> Battle:
    """A whole Assault of the Giants scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> battle = parse_battle({"game": "assault-of-the-giants",
    ...     "attacker": {"pool": {"basic": 2}, "units": []},
    ...     "defender": {"pool": {"basic": 1}, "units": [{"fortitude": 2, "ordning_value": 1}]}})
    >>> battle.attacker.dice_count, battle.defender.units[0].name
    (2, 'units[0]')
    """
    top = Fields(data, "", allowed=("format", "game"))
    if top.has("format"):
        top.choice("format", (1,))
    dice = dict(DEFAULT_DICE)
    if top.has("dice"):
        dice.update(parse_dice(top.raw("dice")))
    _title, notes = top.meta()
    battle = Battle(parse_side(top.raw("attacker"), "attacker", dice, True),
                    parse_side(top.raw("defender"), "defender", dice, False), notes)
    top.done()
    if battle.attacker.player == battle.defender.player:
        raise ScenarioError("defender.player", "must differ from attacker.player")
    return battle


def battle_to_dict(battle: Battle) -> dict[str, Any]:
    """The scenario form of a battle (all dice written out), for saving and sharing."""
    dice: dict[str, Any] = {}

    def side(s: Side, attacker: bool) -> dict[str, Any]:
        for die, _ in s.pool:
            dice[die.name] = [dict(zip(_SYMBOLS, f)) for f in die.faces]
        out: dict[str, Any] = {
            "pool": {die.name: n for die, n in s.pool},
            "rerolls": s.modifiers.rerolls, "arcane_to_blocks": s.modifiers.arcane_to_blocks,
            "npc": s.npc,
            "units": [{"name": u.name, "fortitude": u.fortitude, "wounded_fortitude": u.wounded_fortitude,
                       "wounded": u.wounded, "champion": u.champion, "ordning_value": u.ordning_value}
                      for u in s.units],
            "casualty_order": s.casualty_order, "reroll_policy": s.reroll_policy, "player": s.player,
        }
        if s.commands:
            out["commands"] = list(s.commands)
        if s.objective != "ordning-points":
            out["objective"] = s.objective
        if s.cards:
            for card in s.cards:
                for die, _ in card.dice:
                    dice[die.name] = [dict(zip(_SYMBOLS, f)) for f in die.faces]
            out["cards"] = [card_to_dict(card) for card in s.cards]
        if s.card_rerolls != "second round":
            out["card_rerolls"] = s.card_rerolls
        if attacker:
            out["arcane_to_hits"] = s.modifiers.arcane_to_hits
            out["giantslayers"] = s.giantslayers
        return out

    result = {"format": 1, "game": "assault-of-the-giants",
              "attacker": side(battle.attacker, True), "defender": side(battle.defender, False)}
    result["dice"] = {k: [{s: n for s, n in f.items() if n} for f in v] for k, v in dice.items()}
    if battle.notes:
        result["notes"] = list(battle.notes)
    return result

