"""The A Game of Thrones LCG (2nd ed.) challenge as frozen data: characters, sides, the challenge.

Page numbers refer to the 2015 Rules Reference (``shared/rules/agot-lcg.md``); glossary entries
are named where their page was not seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

__all__ = [
    "CHALLENGE_TYPES", "KEYWORDS", "PLAYERS", "PLAYER_KEYS", "RESOLUTION_KEYWORDS", "VICTORY_POWER",
    "Challenge", "ChallengeType", "Character", "Keyword", "Player", "PlayerKey", "Power", "ResolutionKeyword", "Side",
]

ChallengeType = Literal["military", "intrigue", "power"]
"""The three challenge types, each with its own claim result (Appendix I, 4.2.4); also the challenge icons."""
CHALLENGE_TYPES: tuple[ChallengeType, ...] = get_args(ChallengeType)
"""The values of `ChallengeType` (scenario keys ``type`` and ``icons``)."""

Player = Literal["attacker", "defender"]
"""The two players of a challenge, in the scenario's words (``first_player`` of a challenge scenario)."""
PLAYERS: tuple[Player, Player] = get_args(Player)
"""The values of `Player`."""

PlayerKey = Literal["first", "second"]
"""The players of a round (or of a timing ability), in player order: the first player is active first."""
PLAYER_KEYS: tuple[PlayerKey, PlayerKey] = get_args(PlayerKey)
"""The values of `PlayerKey` (scenario keys ``attacker`` and ``best_plan`` of a round, ``player`` of an ability)."""

VICTORY_POWER = 15
"""Power (faction card plus cards) that wins the game (Rules Reference p.23, "Winning the Game")."""

Keyword = Literal[
    "ambush", "assault", "bestow", "insight", "intimidate", "limited", "no attachments",
    "pillage", "prized", "renown", "shadow", "stealth", "terminal",
]
"""Keywords of the Rules Reference glossary ("Keywords"); any other word in ``keywords`` is refused."""
KEYWORDS: tuple[Keyword, ...] = get_args(Keyword)
"""The values of `Keyword`, in alphabetical order."""

ResolutionKeyword = Literal["insight", "intimidate", "pillage", "renown"]
"""Challenge resolution keywords (framework step 4.2.5), in the default processing order."""
RESOLUTION_KEYWORDS: tuple[ResolutionKeyword, ...] = get_args(ResolutionKeyword)
"""The values of `ResolutionKeyword` (scenario key ``keyword_order`` lists them in another order)."""


@dataclass(frozen=True, slots=True)
class Character:
    """A character: name, STR, keywords, and where it stands on the board.

    Attributes:
        name: the card's title (unique among its controller's listed characters in a round).
        strength: STR, with X already read as the scenario's X (p.23, "The letter X").
        keywords: glossary keywords, lower case, without their (X) values.
        icons: challenge icons (``military``, ``intrigue``, ``power``); only checked when declaring.
        standing: False for a kneeling character (it can neither attack nor defend).
        power: power on this card; it goes back to the treasury when the card leaves play.
        prized: the X of prized (X): the opponent gains X power when the card leaves play.

    >>> Character("Knight", 3, ("renown",)).has("renown")
    True
    """

    name: str
    strength: int
    keywords: tuple[Keyword, ...] = ()
    icons: tuple[ChallengeType, ...] = ()
    standing: bool = True
    power: int = 0
    prized: int = 0

    def has(self, keyword: Keyword) -> bool:
        """True if the character has `keyword`."""
        return keyword in self.keywords


@dataclass(frozen=True, slots=True)
class Power:
    """Power a player controls: on the faction card and on cards the scenario does not list.

    >>> Power(5, 2).total
    7
    """

    faction: int = 0
    cards: int = 0

    @property
    def total(self) -> int:
        """Faction card plus unlisted cards (listed characters carry their own power)."""
        return self.faction + self.cards

    def gain(self, faction: int = 0, cards: int = 0) -> Power:
        """A new `Power` with the amounts added (negative amounts remove).

        >>> Power(3, 0).gain(faction=-1)
        Power(faction=2, cards=0)
        """
        return Power(self.faction + faction, self.cards + cards)


@dataclass(frozen=True, slots=True)
class Side:
    """One player's side of a challenge: participating characters, power and the optional extras.

    Attributes:
        characters: the participating characters (attackers or defenders).
        power: power on the faction card and on unlisted cards before the challenge.
        str_modifier: STR the side counts beyond its characters' (p.23: "any other modifiers").
        deck: cards left in the draw deck, None if not given (0 means eliminated, p.23).
        hand: the hand as (card name, copies) pairs, None if not given (intrigue claim).
        in_play: characters the player controls, listed or not, None if not given (military claim).
        others: listed characters the player controls that do not participate.
        hand_count: cards in hand, None if not given (``hand`` as a number names no card; with
            names, the sum of their copies).

    >>> Side((Character("Guard", 2),), str_modifier=1).total_str
    3
    >>> Side(hand_count=5).hand_size, Side(hand=(("Ned", 2),)).hand_size
    (5, 2)
    """

    characters: tuple[Character, ...] = ()
    power: Power = Power()
    str_modifier: int = 0
    deck: int | None = None
    hand: tuple[tuple[str, int], ...] | None = None
    in_play: int | None = None
    others: tuple[Character, ...] = ()
    hand_count: int | None = None

    @property
    def total_str(self) -> int:
        """Total STR counted: characters plus modifier, never below 0."""
        return max(0, sum(c.strength for c in self.characters) + self.str_modifier)

    @property
    def hand_size(self) -> int | None:
        """Cards in hand, None if the hand was not given."""
        if self.hand_count is not None:
            return self.hand_count
        return None if self.hand is None else sum(n for _, n in self.hand)

    @property
    def total_power(self) -> int:
        """The player's power total: faction card, unlisted cards and every listed character."""
        return self.power.total + sum(c.power for c in self.characters + self.others)


@dataclass(frozen=True, slots=True)
class Challenge:
    """One challenge: its type, the attacker's claim value, both sides, the first player.

    Attributes:
        stealth: (attacker, bypassed character) names chosen at initiation (glossary "Stealth").
        kill: names the defender chooses for a military claim, None to let the rules choose.
        intimidate: the character the attacker kneels with intimidate, None to let the rules choose.
        keyword_order: the order the first player processes the resolution keywords (4.2.5).
        x: the value of X (p.23: 0 unless set).

    >>> Challenge("power", 1, Side(), Side()).type
    'power'
    """

    type: ChallengeType
    claim: int
    attacker: Side
    defender: Side
    first_player: Player | None = None
    stealth: tuple[tuple[str, str], ...] = ()
    kill: tuple[str, ...] | None = None
    intimidate: str | None = None
    keyword_order: tuple[ResolutionKeyword, ...] = RESOLUTION_KEYWORDS
    x: int = 0

    def side(self, player: Player) -> Side:
        """The side of ``"attacker"`` or ``"defender"``."""
        return self.attacker if player == "attacker" else self.defender
