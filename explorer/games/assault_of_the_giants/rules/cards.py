"""Spell and Resource Cards played in battle, before final totals (rulebook pp.16-17).

After using its Command Cards, a side may modify its dice further with Spell and Resource Cards
that are activated in battle "before determining your final totals" (p.16). The defender may
play them too (p.17). The card texts are not in the pages we have, so a card is a name and the
effects the user enters from it ("enter from your card"). Every effect is a whole number, and 0
when left out:

* ``hits``, ``blocks``: added to the final totals after conversions (0 to 20 each);
* ``rerolls``: extra dice rerolled (0 to 10): by default in a second round, once the Command
  rerolls' results are known, which may reroll a die again (p.16: the cards come after the
  Command Cards); with the side's ``card_rerolls: "with commands"``, together with the Command
  rerolls instead, all at once, each die once (`parse_card_rerolls`);
* ``arcane_to_hits``, ``arcane_to_blocks``: extra arcane results that become 2 hits or 1 block
  each, with the Command conversions (0 to 10 each);
* ``dice``: extra dice rolled with the pool, ``{"die name": count}`` (0 to 6 each).

Who may play which card is data (`data.KNOWN_CARDS`, p.17): Ore only the attacker, Weaponry
either side. Any other name is the user's own card, and its ``kind`` (spell or resource) must be
given. NPC giants play no cards. `played` folds a side's cards into its pool and modifiers, and
it is the only place that does. The count engine, best play, advice and the trace all read the
side it returns. `card_shift` gives the flat hits and blocks added to the side's final totals.
Conversions come after every reroll, both rounds (a ruling: `rulings.BATTLE_RULINGS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.rules.data import KNOWN_CARDS
from explorer.games.assault_of_the_giants.rules.model import (
    CARD_KINDS,
    CARD_REROLLS,
    BattleCard,
    CardKind,
    CardRerolls,
    CombatDie,
    Modifiers,
    Side,
)
from explorer.scenario.fields import Fields

__all__ = ["ENTER_NOTE", "EFFECT_LIMITS", "MAX_CARDS_PER_SIDE", "MAX_CARD_DICE", "MAX_CARD_NAME", "played",
           "card_shift", "parse_cards", "parse_card_rerolls", "card_rerolls_text", "card_to_dict", "effect_text", "known_card", "cards_for"]

ENTER_NOTE = "enter from your card"
"""The label of every card effect: the card texts are not in the pages we have."""

EFFECT_LIMITS: Mapping[str, int] = {"hits": 20, "blocks": 20, "rerolls": 10, "arcane_to_hits": 10,
                                    "arcane_to_blocks": 10}
"""Largest value of each whole-number effect of one card (a sanity limit, not a rule)."""

MAX_CARD_DICE = 6
"""Most dice of one kind a card adds (the box has 6 basic dice)."""

MAX_CARDS_PER_SIDE = 6
"""Most cards one side plays in a battle (a sanity limit, not a rule)."""

MAX_CARD_NAME = 40
"""Longest card name, in characters."""


def known_card(name: str) -> str | None:
    """The name of a card in `data.KNOWN_CARDS` as printed there, whatever its case, or None.

    >>> known_card(" ore "), known_card("Fireball")
    ('Ore', None)
    """
    wanted = name.strip().casefold()
    return next((known for known in KNOWN_CARDS if known.casefold() == wanted), None)


def cards_for(role: str) -> tuple[str, ...]:
    """The known cards the side may play (p.17).

    >>> cards_for("attacker"), cards_for("defender")
    (('Ore', 'Weaponry'), ('Weaponry',))
    """
    return tuple(name for name, rule in KNOWN_CARDS.items() if role in rule.value[1])


def card_shift(side: Side) -> tuple[int, int]:
    """The flat (hits, blocks) a side's cards add to its final totals.

    >>> card_shift(Side((), Modifiers(), (), cards=(BattleCard("Ore", "resource", hits=2, blocks=1),)))
    (2, 1)
    """
    return sum(c.hits for c in side.cards), sum(c.blocks for c in side.cards)


def _with_dice(pool: tuple[tuple[CombatDie, int], ...], extra: tuple[tuple[CombatDie, int], ...]
               ) -> tuple[tuple[CombatDie, int], ...]:
    """`pool` with `extra` added: a die already in the pool counts more, a new die is appended."""
    entries = list(pool)
    for die, n in extra:
        at = next((i for i, (d, _) in enumerate(entries) if d == die), None)
        if at is None:
            entries.append((die, n))
        else:
            entries[at] = (die, entries[at][1] + n)
    return tuple(entries)


def played(side: Side) -> Side:
    """The side as it plays the battle: its cards' dice join the pool, their conversions join the
    modifiers, their rerolls make a second round (`Modifiers.card_rerolls`) or join the Command
    rerolls (``card_rerolls: "with commands"``, or no Command rerolls: then the rounds are one), and
    the cards keep only their flat hits and blocks (`card_shift`).

    Folding twice changes nothing, so every engine may call it on whatever side it gets.

    >>> die = CombatDie("d", ((1, 0, 0),) * 6)
    >>> card = BattleCard("Spell", "spell", hits=1, rerolls=2, dice=((die, 1),))
    >>> side = played(Side(((die, 2),), Modifiers(rerolls=1), (), cards=(card,)))
    >>> [(d.name, n) for d, n in side.pool], side.modifiers.rerolls, side.modifiers.card_rerolls, card_shift(side)
    ([('d', 3)], 1, 2, (1, 0))
    >>> merged = Side(((die, 2),), Modifiers(rerolls=1), (), cards=(card,), card_rerolls="with commands")
    >>> played(side) == side, played(merged).modifiers.rerolls, played(merged).modifiers.card_rerolls
    (True, 3, 0)
    """
    if not side.cards:
        return side
    mods = side.modifiers
    extra = sum(c.rerolls for c in side.cards)
    merged = side.card_rerolls == "with commands" or not mods.rerolls  # no first round: one round either way
    folded = Modifiers(mods.rerolls + (extra if merged else 0),
                       mods.arcane_to_hits + sum(c.arcane_to_hits for c in side.cards),
                       mods.arcane_to_blocks + sum(c.arcane_to_blocks for c in side.cards), mods.source,
                       mods.card_rerolls + (0 if merged else extra))
    pool = side.pool
    for card in side.cards:
        pool = _with_dice(pool, card.dice)
    return replace(side, pool=pool, modifiers=folded, cards=tuple(c.flat() for c in side.cards))


def parse_card_rerolls(f: Fields) -> CardRerolls:
    """A side's optional ``card_rerolls``: ``"second round"`` (the default) or ``"with commands"``.

    >>> parse_card_rerolls(Fields({"card_rerolls": "with commands"}, "attacker"))
    'with commands'
    >>> parse_card_rerolls(Fields({}, "attacker"))
    'second round'
    """
    return f.choice("card_rerolls", CARD_REROLLS, CARD_REROLLS[0])


def card_rerolls_text(side: Side) -> str:
    """The ruling a side's card rerolls follow, in words ("" when its cards reroll nothing).

    >>> card = BattleCard("Spell", "spell", rerolls=1)
    >>> card_rerolls_text(Side((), Modifiers(rerolls=1), (), cards=(card,)))
    'card rerolls: a second round after the Command rerolls, which may reroll a die again (rulebook p.16)'
    """
    if not any(c.rerolls for c in side.cards):
        return ""
    if side.card_rerolls == "with commands":
        return ('card rerolls: with the Command rerolls, all at once, each die once (card_rerolls "with '
                'commands", an option; the default is a second round, rulebook p.16)')
    return "card rerolls: a second round after the Command rerolls, which may reroll a die again (rulebook p.16)"


def _plural(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def effect_text(card: BattleCard) -> str:
    """A card's effects in words ("no effect entered" when all are 0).

    >>> die = CombatDie("basic", ((0, 0, 0),) * 6)
    >>> effect_text(BattleCard("Ore", "resource", hits=1, arcane_to_blocks=2, dice=((die, 1),)))
    '+1 hit, +2 arcane into a block each, +1 basic die'
    >>> effect_text(BattleCard("Weaponry", "resource"))
    'no effect entered'
    """
    parts = [f"+{_plural(card.hits, 'hit')}" if card.hits else "",
             f"+{_plural(card.blocks, 'block')}" if card.blocks else "",
             f"+{_plural(card.rerolls, 'reroll')}" if card.rerolls else "",
             f"+{card.arcane_to_hits} arcane into 2 hits each" if card.arcane_to_hits else "",
             f"+{card.arcane_to_blocks} arcane into a block each" if card.arcane_to_blocks else ""]
    parts += [f"+{n} {die.name} {'die' if n == 1 else 'dice'}" for die, n in card.dice]
    return ", ".join(p for p in parts if p) or "no effect entered"


def card_to_dict(card: BattleCard) -> dict[str, Any]:
    """A card in scenario form: name, kind, and the effects that are not 0.

    >>> card_to_dict(BattleCard("Weaponry", "resource", blocks=1))
    {'name': 'Weaponry', 'kind': 'resource', 'blocks': 1}
    """
    out: dict[str, Any] = {"name": card.name, "kind": card.kind}
    out.update({key: getattr(card, key) for key in EFFECT_LIMITS if getattr(card, key)})
    if card.dice:
        out["dice"] = {die.name: n for die, n in card.dice}
    return out


def _card_dice(f: Fields, dice: Mapping[str, CombatDie]) -> tuple[tuple[CombatDie, int], ...]:
    table = f.child("dice")
    out = []
    for name in list(table.data):
        if name not in dice:
            known = ", ".join(f'"{n}"' for n in dice)
            raise ScenarioError(table.at(str(name)), f"unknown die (known dice: {known})")
        n = table.whole(str(name), maximum=MAX_CARD_DICE)
        if n:
            out.append((dice[name], n))
    table.done()
    return tuple(out)


def _card(data: Any, path: str, dice: Mapping[str, CombatDie], role: str) -> BattleCard:
    f = Fields(data, path)
    name = f.text("name").strip()
    if len(name) > MAX_CARD_NAME:
        raise ScenarioError(f.at("name"), f"must be at most {MAX_CARD_NAME} characters, got {len(name)}")
    known = known_card(name)
    kind: CardKind
    if known is not None:
        (kind, roles), page = KNOWN_CARDS[known].value, KNOWN_CARDS[known].source.split(" (")[0]
        if role not in roles:
            others = ", ".join(cards_for(role))
            raise ScenarioError(f.at("name"), f"{known} can be played by the {' and the '.join(roles)} only, not "
                                              f"the {role} ({page}); the {role} may play {others} or own cards")
        name, kind = known, f.choice("kind", (kind,), kind)
    elif not f.has("kind"):
        raise ScenarioError(f.at("kind"), 'is required for a card the rules we have do not name (known: '
                                          f'{", ".join(KNOWN_CARDS)}): "spell" or "resource"')
    else:
        kind = f.choice("kind", CARD_KINDS)
    effects = {key: f.whole(key, 0, maximum=limit) for key, limit in EFFECT_LIMITS.items()}
    extra = _card_dice(f, dice) if f.has("dice") else ()
    f.done()
    return BattleCard(name, kind, dice=extra, **effects)


def parse_cards(f: Fields, dice: Mapping[str, CombatDie], role: str, npc: bool) -> tuple[BattleCard, ...]:
    """A side's optional ``cards``: a list of cards, each a name, a kind and effects (see the module).

    Args:
        f: the side's fields.
        dice: the dice a card may add, by name.
        role: ``"attacker"`` or ``"defender"``.
        npc: whether the side is NPC giants (they play no cards).

    Raises:
        ScenarioError: naming the first bad card key, such as ``defender.cards[0].name`` for Ore (p.17).

    >>> f = Fields({"cards": [{"name": "Ore", "hits": 1}]}, "defender")
    >>> parse_cards(f, {}, "defender", False)
    Traceback (most recent call last):
    explorer.core.errors.ScenarioError: defender.cards[0].name: Ore can be played by the attacker only, not the \
defender (rulebook p.17); the defender may play Weaponry or own cards
    """
    if not f.has("cards"):
        return ()
    listed, path = f.items("cards"), f.at("cards")
    if npc and listed:
        raise ScenarioError(path, "must be left out for NPC giants: they hold no cards and use only the p.20 "
                                  "rerolls and conversions (rulebook pp.19-20)")
    if len(listed) > MAX_CARDS_PER_SIDE:
        raise ScenarioError(path, f"at most {MAX_CARDS_PER_SIDE} cards per side, got {len(listed)}")
    return tuple(_card(card, f"{path}[{i}]", dice, role) for i, card in enumerate(listed))
