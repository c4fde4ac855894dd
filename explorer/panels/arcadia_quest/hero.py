"""The active Hero and his Attack card: two `explorer.panels.arcadia_quest.editor.Editor` specs.

What each picker changes, and what it keeps:

* **Hero**: a preset sets Defense and Life (fan-collected) and the abilities the preset has for
  the card's group (Greensleeves' Bow Mastery needs a Bow card); Wounds taken go back to 0.
  The reroll pool (it comes from his cards), Dazed and flanked are kept. He is offered the
  abilities some Hero card has (`HERO_ABILITIES`), a custom hero too; one a loaded scenario gives
  him besides (a Monster's) shows while ticked, marked as not a hero's.
* **Attack card**: a preset sets its dice, melee or ranged, group and the Defense dice it adds.
  A new group changes the hero's abilities only while you have not ticked them yourself.
* "custom" keeps every value and lets you name the hero or the card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from explorer.games.arcadia_quest import ATTACK_CARDS, HEROES, AttackCard, Hero
from explorer.panels.arcadia_quest.editor import CUSTOM, Editor, Field, Section, Spec, kept
from explorer.panels.arcadia_quest.values import HERO_ABILITIES

__all__ = ["CARD", "HERO", "CardEditor", "HeroEditor", "preset_abilities"]

HERO = Spec(
    css="aq-hero", presets=HEROES,
    fields=(
        Field("defence", "Defense", "white Defense dice: a whole number, 0 or more", short="Defense", preset="card"),
        Field("life", "Life", "a whole number, 1 or more", short="Life", preset="card"),
        Field("wounds", "Wounds on him", "already on him before this action: 0 up to Life - 1", "150px",
              short="Wounds", preset="reset"),
        Field("rerolls", "reroll pool", "the rerolls his cards give, for attack and Defense rolls", "140px", short="rerolls"),
        Field("dazed", "Dazed (rolls no Defense dice)", input="check", css=""),
        Field("flanked", "flanked (another enemy is Close to him)", input="check", css=""),
    ),
    written=("defence", "life", "wounds", "rerolls", "abilities", "dazed", "flanked"),
    layout=Section("Hero", picker="Hero", width="210px", first="Greensleeves", custom="custom hero", name="Hero",
                   custom_note="your own hero: name him and set every value", rows=(("dazed", "flanked"),),
                   abilities_note="Abilities that change the dice (a preset ticks its own; point at one for its "
                                  "source):"),
    keep=kept("name"),
    abilities=HERO_ABILITIES,
)
"""The active hero: his card's Defense and Life, his state, his conditions and abilities."""

CARD = Spec(
    css="aq-card", presets=ATTACK_CARDS, preset_key="card",
    fields=(
        Field("dice", "attack dice", "black Attack dice: a whole number, 0 or more", "130px", short="dice",
              preset="card"),
        Field("kind", tip="melee: melee-hit faces score; ranged: ranged-hit faces score (Arcadia Quest rulebook p.9)", input="kind",
              short="type", preset="card"),
        Field("group", "group", input="group", short="group", preset="card"),
        Field("defence_bonus", "Defense dice it adds",
              "added to its owner's Defense, exhausted or not (Inferno rulebook p.16)", "170px",
              short="Defense bonus", preset="card"),
        Field("also_targets_close", "a special effect also targets a Close Monster (no Guard, p.20)", input="check",
              css="aq-also-targets-close"),
    ),
    written=("dice", "defence_bonus", "kind", "group", "also_targets_close"),
    layout=Section("Attack card", picker="Attack card", width="250px", first="Slingshot", custom="custom card",
                   name="Attack card", custom_note="your own card: name it and set every value",
                   rows=(("also_targets_close",),)),
    keep=kept("name"),
)
"""The Attack card: its dice, melee or ranged, group, the Defense dice it adds, and its reach."""


def preset_abilities(hero: str, group: str) -> tuple[str, ...]:
    """The abilities a preset hero has with a card of `group` (as the scenario reader gives them).

    >>> preset_abilities("Greensleeves", "bow"), preset_abilities("Greensleeves", "sword")
    (('extra-hit-per-crit',), ())
    """
    return tuple(a for a, needs in HEROES[hero].value.abilities if needs in ("", group))


class HeroEditor(Editor):
    """The active hero (`HERO`): preset, Defense, Life, Wounds taken, reroll pool, conditions and abilities.

    Args:
        changed: called after every change by the user.
        group: the Attack card's group now (for the preset's abilities).
    """

    def __init__(self, changed: Callable[[], None], group: Callable[[], str]) -> None:
        self._group = group
        super().__init__(HERO, changed)
        self.dazed, self.flanked = self["dazed"], self["flanked"]

    def preset_abilities(self, name: str) -> tuple[str, ...]:
        """The abilities preset `name` has with the card's group now (`preset_abilities`)."""
        return preset_abilities(name, self._group())

    def follow_group(self, group: str) -> None:
        """The card's group changed: a preset's abilities follow it unless the user ticked his own."""
        if self.abilities and self.preset.value != CUSTOM and not self.abilities.edited:
            self.abilities.set(preset_abilities(self.preset.value, group))

    def load(self, raw: Mapping[str, Any], hero: Hero) -> None:
        """Show a hero read from a scenario (`raw` is its ``hero`` object, `hero` as the reader made it)."""
        self.show_loaded(raw, hero)


class CardEditor(Editor):
    """The Attack card (`CARD`): preset, dice, melee or ranged, group, the Defense dice it adds, and its reach.

    Args:
        changed: called after every change by the user.
        on_group: called with the new group when it changes (the hero's abilities may follow).
    """

    def __init__(self, changed: Callable[[], None], on_group: Callable[[str], None]) -> None:
        super().__init__(CARD, changed, hooks={"group": on_group})
        self.kind, self.group, self.also_targets_close = self["kind"], self["group"], self["also_targets_close"]

    def load(self, raw: Mapping[str, Any], card: AttackCard, also_targets_close: bool) -> None:
        """Show a card read from a scenario (`raw` is its ``attack`` object)."""
        self.show_loaded(raw, card, {"also_targets_close": also_targets_close})
