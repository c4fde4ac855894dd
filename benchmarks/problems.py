"""The benchmark problems: our exact answer, the peers' (icepool, dyce), brute force, Monte Carlo.

Each problem builds fresh objects on every call (no peer gets a warm object). Our side is timed
cold: `clear_all` forgets every cached result of the engine and the casualty search first.
The Monte Carlo estimates are seeded numpy simulations written here from the rules, sharing no
code with the engine (the casualty tables, a pure rule with no chance in it, are looked up).
"""

from __future__ import annotations

import warnings
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np

from explorer.core.dist import Dist
from explorer.core.engine import REROLL_BLANKS, Conversion, clear_caches, roll_counts
from explorer.games.assault_of_the_giants.battle import battle as aotg_battle
from explorer.games.assault_of_the_giants.battle.battle import points_for
from explorer.games.assault_of_the_giants.rules import casualties, outcome
from explorer.games.assault_of_the_giants.rules.data import DEFAULT_DICE
from explorer.games.assault_of_the_giants.rules.model import Battle, Modifiers, Side, Unit

MC_SAMPLES = 250_000
"""Samples for a standard error of at most 1e-3 on any probability: sqrt(0.25 / n) <= 1e-3."""
MC_TOLERANCE = 5e-3
"""Largest gap allowed between an exact probability and its estimate (5 standard errors)."""

PEER_FACES = ("hit", "hit", "block", "arcane", "miss", "miss")
"""The peers' problem die (shared/research/peers.md): arcane counts 2 hits; misses may be rerolled."""
_PEER_VECTORS = tuple({"hit": (1, 0, 0), "block": (0, 1, 0), "arcane": (0, 0, 1), "miss": (0, 0, 0)}[f]
                      for f in PEER_FACES)


def clear_all() -> None:
    """Forget every cached result of our engine, so that a call pays its full cost."""
    clear_caches()
    casualties._values.cache_clear()
    outcome._casualty_table.cache_clear()


# ----------------------------------------------------------------------------- the peers' problem
def ours_peer(dice: int, rerolls: int) -> Dist[tuple[int]]:
    """Hits (as 1-tuples) of `dice` peer dice with up to `rerolls` misses rerolled (our count engine)."""
    arcane = Conversion("arcane", (("hit", 2),), dice)
    return roll_counts([(_PEER_VECTORS, dice)], ("hit", "block", "arcane"), rerolls=rerolls, policy=REROLL_BLANKS,
                       conversions=[arcane], report=("hit",))


def icepool_peer(dice: int, rerolls: int) -> Any:
    """icepool: a plain pool sum, or `reroll_to_pool` for the shared budget (block counts -1, kept out)."""
    import icepool

    if not rerolls:
        return icepool.Die([1, 1, 0, 2, 0, 0]).pool(dice).sum()
    face = icepool.Die([1, 1, -1, 2, 0, 0])
    return face.reroll_to_pool(dice, [0], max_rerolls=rerolls).keep_outcomes(lambda o: o > 0).sum()


def dyce_peer(dice: int, rerolls: int) -> Any:
    """dyce 0.7: `dice @ H` for the plain sum; `expand` over the pool for the shared budget, exact."""
    from dyce import H, P, expand

    hits = H({1: 2, 0: 3, 2: 1})
    if not rerolls:
        return dice @ hits
    face = H({1: 2, -1: 1, 2: 1, 0: 2})

    def resolve(result: Any) -> Any:
        misses = result.roll.count(0)
        kept = sum(o for o in result.roll if o > 0)
        return kept + (min(misses, rerolls) @ hits) if misses else kept

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return expand(resolve, dice @ P(face), min_path_probability=Fraction(0))


def as_fractions(result: Any) -> dict[int, Fraction]:
    """A peer's or our result as outcome -> exact probability (zero outcomes left out)."""
    if isinstance(result, Dist):
        return {o[0] if isinstance(o, tuple) else o: p for o, p in result.probabilities().items()}
    if hasattr(result, "quantity"):  # icepool
        total = result.denominator()
        return {o: Fraction(result.quantity(o), total) for o in result.outcomes() if result.quantity(o)}
    total = sum(result.values())  # dyce H
    return {o: Fraction(c, total) for o, c in sorted(result.items()) if c}


def mc_peer(dice: int, rerolls: int, seed: int = 2026) -> dict[int, float]:
    """Monte Carlo of the peers' problem: roll, reroll up to `rerolls` misses, count hits."""
    rng = np.random.default_rng(seed)
    value = np.array([1, 1, 0, 2, 0, 0])
    roll = rng.integers(0, 6, size=(MC_SAMPLES, dice))
    miss = roll >= 4
    again = miss & (np.cumsum(miss, axis=1) <= rerolls)
    roll = np.where(again, rng.integers(0, 6, size=roll.shape), roll)
    return _frequencies(value[roll].sum(axis=1))


# ----------------------------------------------------------------------------- Assault of the Giants
def army(count: int) -> tuple[Unit, ...]:
    """`count` varied units (Fortitude 2-4, Ordning Value 1-4); the last is a champion."""
    return tuple(Unit(f"giant {i}", 2 + i % 3, 1 + i % 2, 1 + i % 4, champion=(i == count - 1 and count > 1))
                 for i in range(count))


def aotg_battle_of(basic: int, rerolls: int, units: int) -> Battle:
    """The issue's battle: `basic` basic dice and one special die a side (fire attacks hill),
    `rerolls` rerolls, 2 conversions of each kind the side may use, `units` units a side, fewest-op."""
    attacker = Side(((DEFAULT_DICE["basic"], basic), (DEFAULT_DICE["fire"], 1)), Modifiers(rerolls, 2, 2),
                    army(units), casualty_order="fewest-op")
    defender = Side(((DEFAULT_DICE["basic"], basic), (DEFAULT_DICE["hill"], 1)), Modifiers(rerolls, 0, 2),
                    army(units), casualty_order="fewest-op")
    return Battle(attacker, defender)


def _worth_order(side: Side) -> list[int]:
    """Kinds by the worth of a fresh roll (hits + blocks + arcane at what it converts into)."""
    mods = side.modifiers
    value = 2 if mods.arcane_to_hits else 1 if mods.arcane_to_blocks else 0
    worth = [Fraction(sum(h + b + value * a for h, b, a in die.faces), 6) for die, _ in side.pool]
    return sorted(range(len(side.pool)), key=lambda k: (-worth[k], k))


def mc_side(side: Side, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Monte Carlo of one side's final hits and blocks ("misses" policy), every die rolled."""
    kinds = [k for k in _worth_order(side) for _ in range(side.pool[k][1])]  # columns, best kind first
    faces = np.array([side.pool[k][0].faces for k in kinds])  # (dice, 6, 3)
    pick = rng.integers(0, 6, size=(MC_SAMPLES, len(kinds)))
    symbols = faces[np.arange(len(kinds)), pick]  # (samples, dice, 3)
    mods = side.modifiers
    plain_zero = (symbols[..., 0] == 0) & (symbols[..., 1] == 0)
    blank, one, two = plain_zero & (symbols[..., 2] == 0), plain_zero & (symbols[..., 2] == 1), \
        plain_zero & (symbols[..., 2] == 2)
    left = np.full(MC_SAMPLES, mods.rerolls)
    take_blank = np.minimum(blank.sum(axis=1), left)
    left -= take_blank
    spare = np.maximum(0, symbols[..., 2].sum(axis=1) - mods.arcane_to_hits - mods.arcane_to_blocks)
    take_one = np.minimum(np.minimum(one.sum(axis=1), left), spare)
    left, spare = left - take_one, spare - take_one
    take_two = np.minimum(np.minimum(two.sum(axis=1), left), spare // 2)
    again = np.zeros_like(blank)
    for mask, take in ((blank, take_blank), (one, take_one), (two, take_two)):
        again |= mask & (np.cumsum(mask, axis=1) <= take[:, None])
    fresh = faces[np.arange(len(kinds)), rng.integers(0, 6, size=pick.shape)]
    symbols = np.where(again[..., None], fresh, symbols).sum(axis=1)
    to_hits = np.minimum(symbols[:, 2], mods.arcane_to_hits)
    to_blocks = np.minimum(symbols[:, 2] - to_hits, mods.arcane_to_blocks)
    return symbols[:, 0] + 2 * to_hits, symbols[:, 1] + to_blocks


def mc_battle(battle: Battle, seed: int = 2026) -> dict[str, dict[int, float]]:
    """Monte Carlo of a battle: the defender's damage and both sides' Ordning Points."""
    rng = np.random.default_rng(seed)
    atk_hits, atk_blocks = mc_side(battle.attacker, rng)
    dfn_hits, dfn_blocks = mc_side(battle.defender, rng)
    to_defender = np.maximum(0, atk_hits - dfn_blocks)
    to_attacker = np.maximum(0, dfn_hits - atk_blocks)
    out = {"defender damage": _frequencies(to_defender)}
    for name, victim, victor, damage in (("attacker OP", battle.defender, battle.attacker, to_defender),
                                         ("defender OP", battle.attacker, battle.defender, to_attacker)):
        concede = points_for(victim, victor)
        table = casualties.casualties_by_damage(victim.units, victim.casualty_order, concede, int(damage.max()))
        earned = np.array([sum(p for s, p in zip(c, concede) if s.value == "defeated") for c in table])
        out[name] = _frequencies(earned[damage])
    return out


def exact_battle(result: aotg_battle.BattleResult) -> dict[str, dict[int, Fraction]]:
    """The same quantities as `mc_battle`, exactly."""
    return {"defender damage": result.defender.damage_taken.probabilities(),
            "attacker OP": result.attacker.ordning_points.probabilities(),
            "defender OP": result.defender.ordning_points.probabilities()}


# ----------------------------------------------------------------------------- Arcadia Quest
def aq_scenario(life: int = 30) -> dict[str, Any]:
    """The issue's attack: 10 melee dice with 3 rerolls against 6 defence dice with 1 reroll."""
    return {"game": "arcadia-quest", "attack": {"dice": 10, "kind": "melee", "rerolls": 3},
            "defence": {"dice": 6, "rerolls": 1}, "target": {"life": life}}


def _mc_roll(rng: np.random.Generator, dice: int, rerolls: int, p_plain: float, p_crit: float) -> np.ndarray:
    """Successes of a roll: a CRIT succeeds and adds a die; a failure is rerolled while points last."""
    left = np.full(MC_SAMPLES, dice)
    points = np.full(MC_SAMPLES, rerolls)
    wins = np.zeros(MC_SAMPLES, dtype=np.int64)
    while left.any():
        u = rng.random(MC_SAMPLES)
        active = left > 0
        crit = active & (u < p_crit)
        plain = active & (u >= p_crit) & (u < p_crit + p_plain)
        fail = active & ~crit & ~plain
        wins += crit | plain
        retry = fail & (points > 0)
        points -= retry
        left -= active & ~crit & ~retry
    return wins


def mc_attack(seed: int = 2026) -> dict[int, float]:
    """Monte Carlo of the attack's wounds: max(0, hits - saves), faces as the resolver's defaults."""
    rng = np.random.default_rng(seed)
    hits = _mc_roll(rng, 10, 3, 3 / 6, 1 / 6)   # attack die: 3 melee, 2 ranged, 1 CRIT
    saves = _mc_roll(rng, 6, 1, 1 / 6, 1 / 6)   # defence die: 1 shield, 1 CRIT, 4 blanks
    return _frequencies(np.maximum(0, hits - saves))


def _frequencies(values: np.ndarray) -> dict[int, float]:
    counts = Counter(values.tolist())
    return {int(v): c / len(values) for v, c in sorted(counts.items())}


def mc_gap(exact: dict[Any, Fraction], estimate: dict[Any, float]) -> float:
    """Largest gap between exact probabilities and their Monte Carlo estimates."""
    return max(abs(float(exact.get(k, 0)) - estimate.get(k, 0.0)) for k in set(exact) | set(estimate))
