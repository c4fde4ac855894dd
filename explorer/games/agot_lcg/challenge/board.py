"""The board between challenges: each player's characters, power, deck and hand, as frozen data.

Power sits on the faction card (``faction``), on each listed character (``Character.power``)
and on cards the scenario does not list (``cards``); the total counts toward the 15-power
victory (Rules Reference "Power"; p.23 "Winning the Game").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from explorer.games.agot_lcg.challenge.model import RESOLUTION_KEYWORDS, ChallengeType, Character, ResolutionKeyword

__all__ = ["Board", "Declaration", "Hand", "PlayerState"]

Hand = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player's side of the board.

    Attributes:
        characters: listed characters, dead ones included (their index never changes).
        faction: power on the faction card.
        cards: power on cards not listed (locations, characters the scenario only counts).
        deck: cards in the draw deck, None if unknown.
        hand: cards in hand, None if unknown.
        hand_cards: named cards in hand as (name, copies); the other ``hand`` cards are unknown.
        unlisted: characters in play that are not listed (no known power or STR), None if unknown.
        gold: gold in the gold pool (dominance adds it).
        claim: claim value of the revealed plot.
        dead: indices of listed characters killed (in the dead pile).

    >>> PlayerState((Character("Ned", 4, power=2),), faction=3, cards=1).total
    6
    """

    characters: tuple[Character, ...] = ()
    faction: int = 0
    cards: int = 0
    deck: int | None = None
    hand: int | None = None
    hand_cards: Hand | None = None
    unlisted: int | None = 0
    gold: int = 0
    claim: int = 0
    dead: frozenset[int] = frozenset()
    total: int = field(init=False, repr=False, compare=False)
    """The power total that the 15-power victory counts (faction, unlisted cards, characters in play)."""

    def __post_init__(self) -> None:
        # Computed once: the victory check reads it after every step. The dead carry no power.
        object.__setattr__(self, "total", self.faction + self.cards + sum(c.power for c in self.characters))

    def in_play(self) -> tuple[tuple[int, Character], ...]:
        """Listed characters still in play, as (index, character)."""
        return tuple((i, c) for i, c in enumerate(self.characters) if i not in self.dead)

    def standing_str(self) -> int:
        """STR of the standing characters in play (what dominance counts, 5.2).

        >>> PlayerState((Character("A", 3), Character("B", 2, standing=False))).standing_str()
        3
        """
        return sum(c.strength for _, c in self.in_play() if c.standing)

    def eligible(self, kind: ChallengeType) -> tuple[int, ...]:
        """Indices of characters that may attack or defend in a `kind` challenge: standing, in play,
        with the matching icon (Appendix I 4.2, 4.2.1)."""
        return tuple(i for i, c in self.in_play() if c.standing and kind in c.icons)

    def evolve(self, characters: tuple[Character, ...] | None = None, *, faction: int | None = None,
               deck: int | None | bool = False, hand: int | None | bool = False,
               hand_cards: Hand | None | bool = False, unlisted: int | None | bool = False,
               dead: frozenset[int] | None = None) -> PlayerState:
        """A copy with the given fields changed (False or None: unchanged, where None is not a value).

        A plain constructor call: `dataclasses.replace` is slow in the plan search's inner loop.
        """
        return PlayerState(
            self.characters if characters is None else characters,
            self.faction if faction is None else faction, self.cards,
            self.deck if deck is False else deck,
            self.hand if hand is False else hand,
            self.hand_cards if hand_cards is False else hand_cards,  # type: ignore[arg-type]
            self.unlisted if unlisted is False else unlisted,
            self.gold, self.claim, self.dead if dead is None else dead)

    def kneel(self, indices: Iterable[int]) -> PlayerState:
        """A copy with the characters at `indices` kneeling."""
        chars = list(self.characters)
        for i in indices:
            c = chars[i]
            chars[i] = Character(c.name, c.strength, c.keywords, c.icons, False, c.power, c.prized)
        return self.evolve(tuple(chars))

    def with_power(self, index: int, power: int) -> PlayerState:
        """A copy with `power` on the character at `index` (the dead carry none)."""
        chars = list(self.characters)
        c = chars[index]
        chars[index] = Character(c.name, c.strength, c.keywords, c.icons, c.standing, power, c.prized)
        return self.evolve(tuple(chars))

    def index(self, name: str) -> int:
        """Index of the listed character called `name`.

        Raises:
            KeyError: no listed character has that name.
        """
        for i, c in enumerate(self.characters):
            if c.name == name:
                return i
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Board:
    """Both players' states, keyed by the scenario's names for them, and the first player.

    >>> b = Board(("first", "second"), (PlayerState(faction=2), PlayerState(faction=5)))
    >>> b.totals(), b.other("first")
    ({'first': 2, 'second': 5}, 'second')
    """

    keys: tuple[str, str]
    players: tuple[PlayerState, PlayerState]
    first_player: str | None = None
    keyword_order: tuple[ResolutionKeyword, ...] = RESOLUTION_KEYWORDS

    def player(self, key: str) -> PlayerState:
        """The state of the player `key`."""
        return self.players[self.keys.index(key)]

    def other(self, key: str) -> str:
        """The opponent's key."""
        return self.keys[1 - self.keys.index(key)]

    def with_player(self, key: str, state: PlayerState) -> Board:
        """A copy with the player `key` replaced."""
        players = (state, self.players[1]) if key == self.keys[0] else (self.players[0], state)
        return Board(self.keys, players, self.first_player, self.keyword_order)

    def totals(self) -> dict[str, int]:
        """Each player's power total."""
        return {self.keys[0]: self.players[0].total, self.keys[1]: self.players[1].total}

    def decks(self) -> dict[str, int | None]:
        """Each player's deck size (None: unknown)."""
        return {k: p.deck for k, p in zip(self.keys, self.players)}


@dataclass(frozen=True, slots=True)
class Declaration:
    """One challenge as declared: who attacks, the type, the characters and the choices made.

    Attributes:
        attacker: key of the attacking player.
        type: ``military``, ``intrigue`` or ``power``.
        attackers: indices of the attacking characters.
        defenders: indices of the defending characters.
        claim: the attacker's claim value.
        stealth: (attacker index, bypassed defender-side index) pairs chosen at initiation.
        kill: military claim victims named by the scenario (indices), None for the ruling's choice.
        intimidate: the character named for intimidate (index), None for the ruling's choice.
        str_modifiers: STR each side counts beyond its characters (attacker, defender).
        where: the scenario path of this challenge, for error messages.
    """

    attacker: str
    type: ChallengeType
    attackers: tuple[int, ...]
    defenders: tuple[int, ...] = ()
    claim: int = 0
    stealth: tuple[tuple[int, int], ...] = ()
    kill: tuple[int, ...] | None = None
    intimidate: int | None = None
    str_modifiers: tuple[int, int] = (0, 0)
    where: str = "challenge"
