"""Keywords as data: when each acts in a challenge, and the Rules Reference entry it rests on.

Glossary entries of the 2015 Rules Reference are cited by name: their pages were not seen
(only pp.4, 23, 24 and 28 were). The words are ours, paraphrasing the entries.

>>> KEYWORD_RULES["pillage"].step
'4.2.5'
>>> [k for k, rule in KEYWORD_RULES.items() if rule.step is None]
['ambush', 'assault', 'bestow', 'limited', 'no attachments', 'shadow', 'terminal']
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.games.agot_lcg.challenge.model import KEYWORDS, Character, Keyword

__all__ = [
    "KEYWORD_RULES", "KeywordRule", "intimidate_target", "keyword_count", "not_acting_lines",
    "stealth_targets_allowed",
]


@dataclass(frozen=True, slots=True)
class KeywordRule:
    """What a glossary keyword does in a challenge.

    Attributes:
        name: the keyword, lower case.
        step: framework step where it acts ("4.2", "4.2.4", "4.2.5"), None if it does not act in a challenge.
        entry: the Rules Reference entry it rests on.
        summary: what it does here, in our words.
    """

    name: str
    step: str | None
    entry: str
    summary: str


def _entry(name: str) -> str:
    return f'Rules Reference, glossary "{name}" (page not verified)'


KEYWORD_RULES: dict[str, KeywordRule] = {rule.name: rule for rule in (
    KeywordRule("ambush", None, _entry("Ambush (X)"),
                "a way to put a card into play from hand for X gold during the challenges phase"),
    KeywordRule("assault", None, _entry("Assault"),
                "blanks and kneels a location; locations are not part of a scenario"),
    KeywordRule("bestow", None, _entry("Bestow"), "places gold on a card entering play"),
    KeywordRule("insight", "4.2.5", _entry("Insight"),
                "the winner draws 1 card for each of their participating characters with insight"),
    KeywordRule("intimidate", "4.2.5", _entry("Intimidate"),
                "an attacker who wins kneels one character of the loser with STR no more than the margin; "
                "at most one instance resolves per challenge"),
    KeywordRule("limited", None, _entry("Limited"), "limits marshaling to one limited card a round"),
    KeywordRule("no attachments", None, _entry("No Attachments"), "forbids attachments on the card"),
    KeywordRule("pillage", "4.2.5", _entry("Pillage"),
                "the winner discards 1 card from the top of the loser's deck for each of their participating "
                "characters with pillage; an empty deck eliminates its player (p.23)"),
    KeywordRule("prized", "4.2.4", _entry("Prized"),
                "when the card leaves play (a military claim kill), each opponent gains X power for their "
                "faction, before reactions"),
    KeywordRule("renown", "4.2.5", _entry("Renown"),
                "each participating character of the winner with renown gains 1 power (on the character)"),
    KeywordRule("shadow", None, _entry("Shadows"), "a way to marshal a card facedown and bring it out later"),
    KeywordRule("stealth", "4.2", _entry("Stealth"),
                "each attacker with stealth may choose one character without stealth of the defending player; "
                "that character cannot defend in this challenge"),
    KeywordRule("terminal", None, _entry("Terminal"), "discards an attachment whose host leaves play"),
)}
"""Every glossary keyword, with the step where it acts in a challenge (None: it does not)."""

assert tuple(sorted(KEYWORD_RULES)) == tuple(sorted(KEYWORDS))


def keyword_count(characters: tuple[Character, ...], keyword: Keyword) -> int:
    """How many of `characters` have `keyword`.

    >>> keyword_count((Character("A", 1, ("pillage",)), Character("B", 2)), "pillage")
    1
    """
    return sum(1 for c in characters if c.has(keyword))


def not_acting_lines(characters: tuple[Character, ...]) -> tuple[str, ...]:
    """A line for every keyword among `characters` that does not act in a challenge.

    >>> not_acting_lines((Character("Arya", 2, ("ambush", "renown")),))
    ('Arya: ambush does not act in a challenge (a way to put a card into play from hand for X gold during the challenges phase)',)
    """
    return tuple(f"{c.name}: {k} does not act in a challenge ({KEYWORD_RULES[k].summary})"
                 for c in characters for k in c.keywords if KEYWORD_RULES[k].step is None)


def stealth_targets_allowed(target: Character) -> bool:
    """A stealth attacker may only choose a character without stealth (glossary "Stealth").

    >>> stealth_targets_allowed(Character("Varys", 1, ("stealth",)))
    False
    """
    return not target.has("stealth")


def intimidate_target(candidates: tuple[tuple[int, Character], ...], margin: int) -> int | None:
    """The character the attacker kneels with intimidate, by the ruling: the highest STR it may reach.

    Candidates are the loser's standing characters as (index, character); the chosen one has STR
    no more than `margin` (glossary "Intimidate"). Among equal STR, the one with more power, then
    the first listed. None when no character qualifies.

    >>> intimidate_target(((0, Character("A", 1)), (1, Character("B", 3)), (2, Character("C", 5))), 4)
    1
    """
    eligible = [(c.strength, c.power, -i, i) for i, c in candidates if c.strength <= margin]
    return max(eligible)[3] if eligible else None
