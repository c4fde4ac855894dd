"""The optional ``advisor`` key of a battle scenario: the command-row advisor beside the battle.

``"advisor": {"hand": ["Leader", "Trade", ...], "cards_first": 2, "objective": "damage"}`` asks,
for the scenario's attacker (its ``commands`` are the row so far), which row ending with the
Attack Command serves its objective best (`advisor.row_options`); the battle's report carries
the answer (``row_advice``). ``cards_first`` (0 to `advisor.MAX_EXTRA_CARDS`, default 2) is the
most cards played before Attack; ``objective`` defaults to the attacker's own.
"""

from __future__ import annotations

from typing import Any

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.row_advisor import MAX_EXTRA_CARDS, RowOption, row_options
from explorer.games.assault_of_the_giants.rules.model import OBJECTIVES, Battle, Objective
from explorer.scenario.fields import Fields

__all__ = ["parse_advisor", "MAX_HAND"]

MAX_HAND = 12
"""Most cards in hand the advisor takes (the hand holds nine, review arstechnica.co.uk)."""


def parse_advisor(data: Any, battle: Battle, already: float = 0.0) -> tuple[Objective, tuple[RowOption, ...]]:
    """Read the ``advisor`` key and answer it for `battle`: (objective, options best first).

    `already` is the work the battle's own report takes (seconds): the request is weighed as a whole.

    >>> from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
    >>> battle = parse_battle({"game": "aotg", "attacker": {"pool": {"basic": 2}, "units": [],
    ...     "commands": ["Leader"]}, "defender": {"pool": {}, "units": [{"fortitude": 2, "ordning_value": 1}]}})
    >>> goal, options = parse_advisor({"hand": ["Move"], "cards_first": 1}, battle)
    >>> goal, [o.row for o in options]
    ('ordning-points', [('Leader', 'Move', 'Attack'), ('Leader', 'Attack')])

    Raises:
        ScenarioError: a bad key, naming ``advisor.<key>``.
    """
    f = Fields(data, "advisor")
    hand = f.items("hand", [])
    if len(hand) > MAX_HAND:
        raise ScenarioError("advisor.hand", f"at most {MAX_HAND} cards, got {len(hand)}")
    for i, card in enumerate(hand):
        if not isinstance(card, str) or not card.strip() or len(card) > 40:
            raise ScenarioError(f"advisor.hand[{i}]", "must be a Command Card name (text, 1 to 40 characters)")
    if len({c.strip().lower() for c in hand}) != len(hand):
        raise ScenarioError("advisor.hand", "names each card once (a hand holds one of each Command Card)")
    most = f.whole("cards_first", 2, minimum=0, maximum=MAX_EXTRA_CARDS)
    objective = f.choice("objective", OBJECTIVES, battle.attacker.objective)
    f.done()
    try:
        options = row_options(battle, [str(c) for c in hand], objective=objective, most=most, already=already)
    except ScenarioError as error:
        if error.field in ("cards_first", "hand"):
            raise ScenarioError(f"advisor.{error.field}", error.problem) from None
        raise
    return objective, tuple(options)
