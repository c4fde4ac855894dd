"""Game-agnostic chance building blocks beside the engine: exploding chains and draws from a deck.

* `explode`: a die that adds another die on some faces, chaining without limit,
  cut where the remaining mass falls below a threshold and the cut reported.
* `deal`: draws without replacement from a deck (card odds).

A die face itself is one tuple of symbol counts (`explorer.core.engine.types.Face`), the one
form the engine, the dice labs and the games share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from fractions import Fraction
from typing import TypeVar

from explorer.core.dist import Dist

__all__ = ["explode", "deal"]

T = TypeVar("T", bound=Hashable)


def explode(
    die: Dist[T],
    explodes: Callable[[T], bool],
    add: Callable[[T, T], T],
    *,
    cut_below: float = 1e-12,
) -> Dist[T]:
    """Roll `die`; every outcome for which `explodes` is true adds one more roll, without limit.

    The chain is followed until the probability still pending is below `cut_below`;
    that pending mass is kept as the result's `cut` weight, so `cut_mass()` reports it
    (with any cut `die` already carried).

    Raises:
        ValueError: `cut_below` is not > 0, or every outcome of `die` explodes (no roll would end).

    >>> coin = Dist.uniform([(1, 0), (0, 1)])  # (success, crit)
    >>> chain = explode(coin, lambda o: o[1] > 0, lambda a, b: (a[0] + b[0], a[1] + b[1]))
    >>> float(chain.cut_mass()) < 1e-12
    True
    >>> explode(coin, lambda o: True, lambda a, b: a)
    Traceback (most recent call last):
    ...
    ValueError: every face of the die explodes, so no roll ever ends: at least one face must stop the chain
    """
    if cut_below <= 0:
        raise ValueError("cut_below must be > 0: an exploding chain never ends on its own")
    if all(explodes(outcome) for outcome in die):
        raise ValueError("every face of the die explodes, so no roll ever ends: at least one face must stop the chain")
    total = die.total
    done: dict[T, int] = {}
    pending: dict[T, int] = {}
    for outcome, w in die.items():
        (pending if explodes(outcome) else done)[outcome] = w
    scale = total
    while pending and Fraction(sum(pending.values()), scale) >= Fraction(cut_below):
        done = {o: w * total for o, w in done.items()}
        fresh: dict[T, int] = {}
        for acc, wa in pending.items():
            for outcome, wb in die.items():
                key = add(acc, outcome)
                target = fresh if explodes(outcome) else done
                target[key] = target.get(key, 0) + wa * wb
        pending = fresh
        scale *= total
    # Every weight is on the scale total**rolls: what `done` lacks is the pending chains plus any
    # cut the die itself carried, so both are reported.
    return Dist(done, scale - sum(done.values()))


def deal(deck: Mapping[T, int], n: int) -> Dist[tuple[tuple[T, int], ...]]:
    """Draw `n` cards without replacement from a deck of card -> copies.

    Only draws that can still be completed are followed, so the work grows with the number of
    outcomes (times the number of names), never with the 2^names ways to fail.

    >>> deal({"plot": 2, "other": 2}, 2).probability((("plot", 1), ("other", 1)))
    Fraction(2, 3)
    >>> len(deal({i: 1 for i in range(60)}, 60))  # one outcome: every card
    1
    """
    cards = list(deck.items())
    if n > sum(deck.values()):
        raise ValueError(f"cannot draw {n} cards from a deck of {sum(deck.values())}")
    behind = [0] * (len(cards) + 1)  # behind[i]: copies of the cards after the first i
    for i in range(len(cards) - 1, -1, -1):
        behind[i] = behind[i + 1] + cards[i][1]
    # Card by card (no recursion: a hand may name a thousand cards): each partial draw is
    # (cards taken so far, cards still to draw, weight); distinct choices never merge.
    partial: list[tuple[tuple[tuple[T, int], ...], int, int]] = [((), n, 1)]
    for i, (card, copies) in enumerate(cards):
        partial = [(acc + ((card, k),) if k else acc, left - k, weight * math.comb(copies, k))
                   for acc, left, weight in partial
                   for k in range(max(0, left - behind[i + 1]), min(copies, left) + 1)]
    states = {acc: weight for acc, _, weight in partial}
    return Dist(states)
