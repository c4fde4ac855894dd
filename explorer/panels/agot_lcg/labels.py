"""The labels the A Game of Thrones panel shows for a round's fields, for the messages beside its inputs.

The resolver names a bad input by its field path (``players.first.characters[0].str``, as the
command line shows it); beside the input the panel says what the user sees instead ("Sworn
Knight, STR"). Characters go by their names and challenges by their names on screen ("Military
challenge 1"), so the table is made from the inputs as they are now (`round_labels`), over the
fixed part (`FIELD_LABELS`). The card-odds inputs have their own fixed table (`ODDS_LABELS`).

>>> names = round_labels({"first": ["Sworn Knight"], "second": []}, ["Military challenge 1"])
>>> names.label("players.first.characters[0].str"), names.label("players.first.characters[0].standing")
('Sworn Knight, STR', 'Sworn Knight, knelt')
>>> names.label("challenges[0].attackers[1]"), names.label("players.second.faction")
('Military challenge 1, attackers', 'Second player, faction power')
>>> names.label("challenges[4].type"), FieldNames(FIELD_LABELS).label("players.second.characters[3].power")
('Challenge 5, type', 'Second player, character 4, power')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from explorer.panels.common.field_names import FieldNames

__all__ = ["FIELD_LABELS", "ODDS_LABELS", "round_labels"]

_PLAYERS = {"first": "First player", "second": "Second player"}

_SIDE = {"faction": "faction power", "gold": "gold", "claim": "claim", "deck": "deck", "hand": "hand"}
"""A player's boxes, by key: their labels on screen."""

_CHARACTER = {"name": "name", "str": "STR", "icons": "icons", "icons[*]": "icons", "keywords": "keywords",
              "keywords[*]": "keywords", "standing": "knelt", "power": "power"}
"""A character's boxes, by key (after its name on screen)."""

_CHALLENGE = {"attacker": "attacking player", "type": "challenge type", "attackers": "attackers",
              "attackers[*]": "attackers", "defenders": "defenders", "defenders[*]": "defenders"}
"""A challenge's inputs, by key (after the challenge's name on screen)."""


def _table(prefix: str, who: str, keys: Mapping[str, str]) -> dict[str, str]:
    return {prefix: who, **{f"{prefix}.{key}": f"{who}, {label}" for key, label in keys.items()}}


FIELD_LABELS: dict[str, str] = {
    **{path: label for key, player in _PLAYERS.items()
       for path, label in (_table(f"players.{key}", player, _SIDE)
                           | _table(f"players.{key}.characters[*]", f"{player}, character {{n}}", _CHARACTER)).items()},
    **_table("challenges[*]", "Challenge {n}", _CHALLENGE),
}
"""The fixed labels: each player's boxes, and characters and challenges by their place."""

ODDS_LABELS = FieldNames({
    "intrigue": "Intrigue claim", "intrigue.hand": "Intrigue claim, hand", "intrigue.copies": "Intrigue claim, copies",
    "intrigue.claim": "Intrigue claim, claim",
    "draw": "Finding a card", "draw.deck": "Finding a card, deck", "draw.copies": "Finding a card, copies",
    "draw.rounds": "Finding a card, rounds",
    "deck_out": "Running out", "deck_out.deck": "Running out, deck",
    "deck_out.insight": "Running out, insight a round", "deck_out.pillage": "Running out, pillage a round",
    "power_race": "Race to 15",
    **{f"power_race.{key}.{part}": f"Race to 15, {key} {word}" for key in ("first", "second")
       for part, word in (("power", "power"), ("gains", "gains"))},
})
"""The card-odds inputs' labels, by the odds scenario's field paths.

>>> ODDS_LABELS.label("draw.deck"), ODDS_LABELS.label("power_race.second.gains")
('Finding a card, deck', 'Race to 15, second gains')
"""


def round_labels(characters: Mapping[str, Sequence[str]], challenges: Sequence[str]) -> FieldNames:
    """The labels of a round's fields as the panel now shows them.

    Args:
        characters: each player's key -> the characters' names in order ("" for one not named yet).
        challenges: each challenge's name on screen, in order ("Military challenge 1").
    """
    # Every row by its exact path (a pattern would outrank an exact path: `FieldNames` ranks by length).
    labels = {path: label for path, label in FIELD_LABELS.items() if "[*]." not in path and not path.endswith("[*]")}
    for key, names in characters.items():
        for i, name in enumerate(names):
            labels |= _table(f"players.{key}.characters[{i}]", name.strip() or f"{_PLAYERS[key]}, character {i + 1}",
                             _CHARACTER)
    for i, title in enumerate(challenges):
        labels |= _table(f"challenges[{i}]", title, _CHALLENGE)
    return FieldNames(labels)
