"""Reading an odds scenario (``"question": "odds"``): one or more of four questions about cards.

Sections (at least one; every size is capped so that nothing runs for long):

* ``intrigue``: ``hand`` (a number of cards, or card name -> copies), ``claim`` (required),
  ``card`` (a name in ``hand``) or ``copies`` (with a numeric hand), ``at_least`` (copies that
  must stay, default 1): the chance the card survives an intrigue claim;
* ``draw``: ``deck`` (cards before the setup hand), ``copies``, ``rounds`` (required), ``at_least``
  (default 1), ``mulligan`` (default true), ``setup_cards`` (cards placed in setup, refilled,
  default 0), ``draws`` (a round, default 2): the chance of at least one copy by each round;
* ``deck_out``: ``deck`` (cards at the start of round 1), ``draws`` (default 2), ``insight`` and
  ``pillage`` (cards a round: a number, or a distribution such as ``{"0": 1, "1": 1}``, default 0),
  ``max_rounds`` (default 50): the round the deck runs out;
* ``power_race``: ``first`` and ``second``, each ``{"power": n, "gains": {"0": w, "1": w, ...}}``
  (power now, and the power gained in a round with its weight), ``max_rounds`` (default 30):
  the round someone reaches 15 and who, the first player winning ties.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer.core.dist import Dist
from explorer.core.errors import ScenarioError
from explorer.games.agot_lcg.challenge.model import VICTORY_POWER
from explorer.scenario.fields import Fields, check_whole, describe, join_path

__all__ = [
    "MAX_CARDS", "MAX_ROUNDS", "DeckOut", "DrawOdds", "IntrigueOdds", "OddsQuestion", "PowerRace", "parse_odds",
]

MAX_CARDS = 1000
"""Most cards in a hand or deck (the odds are formulas, so this is only a sanity bound)."""

MAX_ROUNDS = 100
"""Most rounds followed by the draw, deck-out and power-race questions."""

MAX_GAIN = 15
"""Largest power gain in one round (a whole race)."""

SECTIONS = ("intrigue", "draw", "deck_out", "power_race")
"""The odds questions a scenario may ask."""


@dataclass(frozen=True, slots=True)
class IntrigueOdds:
    """Does a card survive an intrigue claim? (hand size, copies, claim, at least, card name)."""

    hand: int
    copies: int
    claim: int
    at_least: int = 1
    card: str = "the card"


@dataclass(frozen=True, slots=True)
class DrawOdds:
    """At least `at_least` copies drawn by each round up to `rounds`."""

    deck: int
    copies: int
    rounds: int
    at_least: int = 1
    mulligan: bool = True
    setup_cards: int = 0
    draws: int = 2


@dataclass(frozen=True, slots=True)
class DeckOut:
    """The round a deck runs out, with draws, insight and pillage each round."""

    deck: int
    draws: int = 2
    insight: Dist[int] = Dist.single(0)
    pillage: Dist[int] = Dist.single(0)
    max_rounds: int = 50


@dataclass(frozen=True, slots=True)
class PowerRace:
    """Each player's power now and power gained a round; the first player decides ties."""

    first: tuple[int, Dist[int]]
    second: tuple[int, Dist[int]]
    max_rounds: int = 30


@dataclass(frozen=True, slots=True)
class OddsQuestion:
    """The sections an odds scenario asks (None where not asked)."""

    intrigue: IntrigueOdds | None = None
    draw: DrawOdds | None = None
    deck_out: DeckOut | None = None
    power_race: PowerRace | None = None


def parse_amounts(data: Any, path: str, maximum: int) -> Dist[int]:
    """A number, or a distribution written as amount -> weight (amounts as text keys, like JSON's).

    >>> parse_amounts({"0": 1, "2": 3}, "x", 15).probability(2)
    Fraction(3, 4)
    """
    if not isinstance(data, dict):
        return Dist.single(check_whole(data, path, maximum=maximum))
    weights: dict[int, int] = {}
    for key, weight in data.items():
        where = join_path(path, str(key))
        try:
            amount = int(str(key))
        except ValueError:
            raise ScenarioError(where, f"must be an amount from 0 to {maximum}, got {describe(key)}") from None
        check_whole(amount, where, maximum=maximum)
        weights[amount] = check_whole(weight, where, maximum=10**6)
    if not any(weights.values()):
        raise ScenarioError(path, "needs at least one amount with a positive weight")
    return Dist(weights)


def _intrigue(f: Fields) -> IntrigueOdds:
    claim = f.whole("claim", maximum=MAX_CARDS)
    at_least = f.whole("at_least", 1, minimum=1, maximum=MAX_CARDS)
    if isinstance(f.raw("hand"), dict):
        hand = Fields(f.raw("hand"), f.at("hand"))
        copies = {str(name): hand.whole(str(name), maximum=MAX_CARDS) for name in list(hand.data)}
        hand.done()
        card = f.choice("card", tuple(copies))
        size, n = sum(copies.values()), copies[card]
    else:
        size, n = f.whole("hand", maximum=MAX_CARDS), f.whole("copies", minimum=1, maximum=MAX_CARDS)
        card = f.text("card", "the card")
    if size > MAX_CARDS:
        raise ScenarioError(f.at("hand"), f"at most {MAX_CARDS} cards, got {size}")
    if n > size:
        raise ScenarioError(f.at("copies"), f"must be at most the {size} cards in hand, got {n}")
    if at_least > n:
        raise ScenarioError(f.at("at_least"), f"must be at most the {n} copies in hand, got {at_least}")
    return IntrigueOdds(size, n, claim, at_least, card)


def _draw(f: Fields) -> DrawOdds:
    deck = f.whole("deck", minimum=7, maximum=MAX_CARDS)
    copies = f.whole("copies", minimum=1, maximum=deck)
    odds = DrawOdds(deck, copies, f.whole("rounds", maximum=MAX_ROUNDS), f.whole("at_least", 1, minimum=1,
                                                                                 maximum=copies),
                    f.flag("mulligan", True), f.whole("setup_cards", 0, maximum=7), f.whole("draws", 2, maximum=20))
    return odds


def _deck_out(f: Fields) -> DeckOut:
    return DeckOut(f.whole("deck", minimum=1, maximum=MAX_CARDS), f.whole("draws", 2, maximum=20),
                   parse_amounts(f.raw("insight", 0), f.at("insight"), 20),
                   parse_amounts(f.raw("pillage", 0), f.at("pillage"), 20),
                   f.whole("max_rounds", 50, minimum=1, maximum=MAX_ROUNDS))


def _race(f: Fields) -> PowerRace:
    sides = []
    for key in ("first", "second"):
        side = f.child(key)
        sides.append((side.whole("power", maximum=VICTORY_POWER + 100),
                      parse_amounts(side.raw("gains"), side.at("gains"), MAX_GAIN)))
        side.done()
    return PowerRace(sides[0], sides[1], f.whole("max_rounds", 30, minimum=1, maximum=MAX_ROUNDS))


def parse_odds(data: Any) -> OddsQuestion:
    """An odds scenario.

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> parse_odds({"intrigue": {"hand": 100, "copies": 1, "claim": 4}}).intrigue.hand
    100
    """
    top = Fields(data, "", allowed=("game", "question"))
    if top.has("format"):
        top.choice("format", (1,))
    top.meta()
    readers = {"intrigue": _intrigue, "draw": _draw, "deck_out": _deck_out, "power_race": _race}
    parts: dict[str, Any] = {}
    for key, reader in readers.items():
        if top.has(key):
            f = top.child(key)
            parts[key] = reader(f)
            f.done()
    top.done()
    if not parts:
        raise ScenarioError("question", f"an odds scenario needs at least one of {', '.join(SECTIONS)}")
    return OddsQuestion(**parts)
