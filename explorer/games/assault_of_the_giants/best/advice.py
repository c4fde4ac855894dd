"""Decision support for best play: for a roll, every way to reroll and to convert, with its value.

A player learns the rule of thumb by seeing, for the dice actually showing, what each choice is
worth for the side's objective (`rules.model.OBJECTIVES`): `advise_reroll` lists every distinct set of
dice to reroll (at most the side's rerolls), `advise_conversion` every split of the arcane after
the reroll, both best first, with exact expected values; `reroll_habits` says how often best play
rerolls each face over all rolls. Values follow how the other side plays in the battle (its fixed
policy, or, for the attacker facing a defender playing best, the defender's best answer); the
defender decides knowing the attacker's totals (p.17), so its advice needs them. A side's cards
are folded in (`cards.played`): a roll lists the cards' dice too, and a split's totals include the
cards' flat hits and blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from explorer.core.errors import ScenarioError
from explorer.games.assault_of_the_giants.best.play import (
    attacker_solution,
    attacker_totals,
    defender_response,
    final_bounds,
)
from explorer.games.assault_of_the_giants.best.search import Search, conversions
from explorer.games.assault_of_the_giants.best.two_rounds import TwoRounds
from explorer.games.assault_of_the_giants.best.values import Lex
from explorer.games.assault_of_the_giants.rules.cards import played
from explorer.games.assault_of_the_giants.rules.combat import side_totals
from explorer.games.assault_of_the_giants.rules.model import Battle, CombatDie, Side, Symbols

__all__ = ["Alternative", "Split", "FaceHabit", "advise_reroll", "advise_conversion", "reroll_habits"]

Values = tuple[Fraction, Fraction, Fraction]


@dataclass(frozen=True, slots=True)
class Alternative:
    """One way to play a roll: which dice to reroll, and what that is worth (best splits after)."""

    reroll: tuple[int, ...]
    """Positions of the dice rerolled, in the pool's order (0-based)."""
    faces: tuple[Symbols, ...]
    """The faces those dice showed."""
    value: Fraction
    """Expected value of the side's objective."""
    values: Values
    """Expected (objective, net Ordning Points, damage dealt - damage taken): the tie-breakers."""
    best: bool
    """Whether best play makes this choice (the first alternative listed)."""


@dataclass(frozen=True, slots=True)
class Split:
    """One split of the arcane showing after the reroll, and what it is worth."""

    to_hits: int
    """Arcane turned into 2 hits each."""
    to_blocks: int
    """Arcane turned into 1 block each."""
    totals: tuple[int, int]
    """The final (hits, blocks) recorded, the cards' flat hits and blocks included."""
    value: Fraction
    values: Values
    best: bool


@dataclass(frozen=True, slots=True)
class FaceHabit:
    """How often best play rerolls a die showing a face, over every roll of the battle."""

    die: str
    face: Symbols
    rerolled: Fraction
    """Dice rerolled showing this face, per die showing it."""


@dataclass(frozen=True, slots=True)
class _Player:
    side: Side
    solved: Search | TwoRounds
    lex: Lex
    denominator: int
    context: int

    def decode(self, packed: int, scale: int) -> Values:
        """Expected value tuple of a packed `scale`-weighted value."""
        a, b, c = (v / self.denominator for v in self.lex.unpack(packed, scale))
        return a, b, c


def _player(battle: Battle, role: str, attacker_totals: tuple[int, int] | None) -> _Player:
    """The side's best-play solution and context (the attacker's totals, for the defender)."""
    if role == "attacker":
        solution = attacker_solution(battle)
        return _Player(played(battle.attacker), solution.solved, solution.lex, solution.denominator, 0)
    if role != "defender":
        raise ScenarioError("role", f'must be "attacker" or "defender", got {role!r}')
    if attacker_totals is None:
        raise ScenarioError("attacker_totals", "the defender decides knowing the attacker's final hits and blocks "
                                               "(rulebook p.17): give them")
    response = defender_response(battle)
    bounds = response.bounds
    hits, blocks = attacker_totals
    if not (0 <= hits < bounds[0] and 0 <= blocks < bounds[1]):
        raise ScenarioError("attacker_totals", f"the attacker can record 0..{bounds[0] - 1} hits and "
                                               f"0..{bounds[1] - 1} blocks, got {attacker_totals}")
    return _Player(played(battle.defender), response.solved, response.lex, 1, response.context_of(hits, blocks))


def _dice(side: Side) -> list[CombatDie]:
    return [die for die, n in side.pool for _ in range(n)]


def _kinds(side: Side) -> list[int]:
    """The search's kind of each die (pool entries with dice, in order)."""
    kinds, k = [], 0
    for _, n in side.pool:
        if n:
            kinds += [k] * n
            k += 1
    return kinds


def _check_roll(side: Side, roll: Sequence[tuple[str, Symbols]]) -> list[Symbols]:
    dice = _dice(side)
    if len(roll) != len(dice):
        raise ScenarioError("roll", f"must give a face for each of the side's {len(dice)} dice, got {len(roll)}")
    faces = []
    for i, ((name, face), die) in enumerate(zip(roll, dice)):
        face = tuple(int(v) for v in face)  # type: ignore[assignment]
        if name != die.name or face not in die.faces:
            raise ScenarioError(f"roll[{i}]", f"die {i} is a {die.name!r} die showing one of {list(die.faces)}, "
                                              f"got {name!r} showing {face}")
        faces.append(face)
    return faces


def advise_reroll(battle: Battle, role: str, roll: Sequence[tuple[str, Symbols]], *,
                  attacker_totals: tuple[int, int] | None = None, second_round: bool = False) -> list[Alternative]:
    """Every distinct choice of dice to reroll from `roll`, with its exact value, best first.

    A side whose cards reroll in a second round after its Command rerolls (p.16, `two_rounds`) has
    two choices: by default the first round's (each choice worth its expectation with the second round
    played best on what it leaves), and with `second_round` the second's, on `roll` as the dice lie
    after the first (any die, rerolled or not, at most the cards' rerolls).

    Args:
        battle: the battle (the other side plays as set there).
        role: ``"attacker"`` or ``"defender"``.
        roll: (die name, face) for each die, in the pool's order.
        attacker_totals: the attacker's final (hits, blocks); required for the defender.
        second_round: advise the cards' second round of rerolls (only for a side with two rounds).

    Raises:
        ScenarioError: the roll does not fit the side's dice, totals are missing or impossible, or
            `second_round` is asked of a side with one round.

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Unit
    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 1), (0, 0, 0)) * 2)
    >>> atk = Side(((die, 2),), Modifiers(rerolls=1), (), objective="damage")
    >>> battle = Battle(atk, Side((), Modifiers(), (Unit("g", 5, 5),)))
    >>> [(a.reroll, a.value) for a in advise_reroll(battle, "attacker", [("d", (0, 0, 0)), ("d", (1, 0, 0))])]
    [((0,), Fraction(4, 3)), ((), Fraction(1, 1)), ((1,), Fraction(1, 3))]
    """
    player = _player(battle, role, attacker_totals)
    solved = player.solved
    if second_round and not isinstance(solved, TwoRounds):
        raise ScenarioError("second_round", "the side has one round of rerolls (its cards reroll with the "
                                            "Command rerolls, or it has no Command rerolls or no card rerolls)")
    faces, kinds, plan = _check_roll(player.side, roll), _kinds(player.side), solved.plan
    shown: list[dict[Symbols, list[int]]] = [{} for _ in plan.kinds]
    for i, (face, k) in enumerate(zip(faces, kinds)):
        shown[k].setdefault(face, []).append(i)
    first = isinstance(solved, TwoRounds) and not second_round
    rerolls = solved.rerolls if isinstance(solved, TwoRounds) and first else plan.rerolls
    options = [[c for c in product(*(range(len(ix) + 1) for ix in part.values())) if sum(c) <= rerolls]
               for part in shown]
    total = [sum(f[j] for f in faces) for j in range(3)]
    H, B, A = plan.dims
    out = []
    for choice in product(*options):
        if sum(map(sum, choice)) > rerolls:
            continue
        picked = sorted(i for part, counts in zip(shown, choice) for ix, c in zip(part.values(), counts) for i in ix[:c])
        if isinstance(solved, TwoRounds) and first:  # the kept multiset, face by face (`two_rounds.State`)
            kept = tuple(tuple(len(part.get(face, ())) - dict(zip(part, counts)).get(face, 0) for face in kind.faces)
                         for part, counts, kind in zip(shown, choice, plan.kinds))
            packed = solved.kept_value(player.context, kept)
            out.append(((packed, solved.rank[kept]), tuple(picked), player.decode(packed, solved.scale)))
            continue
        search = solved.second if isinstance(solved, TwoRounds) else solved
        h, b, a = (total[j] - sum(faces[i][j] for i in picked) for j in range(3))
        g = (plan.move_index(tuple(map(sum, choice))) * H + h) * B * A + b * A + a  # (move, kept sum) as in `search`
        packed = search.expected_at(player.context, g)
        values = player.decode(packed, plan.scale)
        out.append(((packed, plan.rank_of(g)), tuple(picked), values))
    out.sort(key=lambda item: item[0], reverse=True)
    return [Alternative(picked, tuple(faces[i] for i in picked), values[0], values, n == 0)
            for n, (_, picked, values) in enumerate(out)]


def advise_conversion(battle: Battle, role: str, symbols: Symbols, *,
                      attacker_totals: tuple[int, int] | None = None) -> list[Split]:
    """Every split of the arcane in `symbols` (hits, blocks, arcane after the reroll), best first.

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Unit
    >>> die = CombatDie("d", ((0, 0, 1),) * 6)
    >>> atk = Side(((die, 1),), Modifiers(arcane_to_hits=1, arcane_to_blocks=1), ())
    >>> dfn = Side(((CombatDie("h", ((2, 0, 0),) * 6), 1),), Modifiers(), (Unit("g", 2, 1, 3),))
    >>> atk = Side(atk.pool, atk.modifiers, (Unit("a", 2, 1, 3),), objective="net-ordning-points")
    >>> [(s.to_hits, s.to_blocks, s.value) for s in advise_conversion(Battle(atk, dfn), "attacker", (0, 0, 1))]
    [(1, 0, Fraction(0, 1)), (0, 1, Fraction(0, 1)), (0, 0, Fraction(-3, 1))]
    """
    player = _player(battle, role, attacker_totals)
    hits, blocks, arcane = (int(v) for v in symbols)
    dims = player.solved.plan.dims
    if not all(0 <= v < d for v, d in zip((hits, blocks, arcane), dims)):
        raise ScenarioError("symbols", f"the side's dice show at most {tuple(d - 1 for d in dims)}, got {symbols}")
    mods, (dh, db) = player.side.modifiers, player.solved.shift
    out = []
    for x, y in conversions(arcane, mods.arcane_to_hits, mods.arcane_to_blocks):
        final = (hits + 2 * x + dh, blocks + y + db)
        packed = player.solved.value_at(player.context, final)
        out.append(((packed, x, y), final, player.decode(packed, 1)))
    out.sort(key=lambda item: item[0], reverse=True)
    return [Split(key[1], key[2], final, values[0], values, n == 0) for n, (key, final, values) in enumerate(out)]


def reroll_habits(battle: Battle, role: str, *, attacker_totals: tuple[int, int] | None = None) -> list[FaceHabit]:
    """For each die and face: how often best play rerolls a die showing it (a rule of thumb).

    Over every roll, weighted by its chance; for the defender, over the attacker's totals as the
    battle is played, unless `attacker_totals` fixes them.

    >>> from explorer.games.assault_of_the_giants.rules.model import Modifiers, Unit
    >>> die = CombatDie("d", ((1, 0, 0), (0, 0, 1), (0, 0, 0)) * 2)
    >>> atk = Side(((die, 1),), Modifiers(rerolls=1), (), objective="damage")
    >>> battle = Battle(atk, Side((), Modifiers(), (Unit("g", 5, 5),)))
    >>> [(h.face, h.rerolled) for h in reroll_habits(battle, "attacker")]
    [((0, 0, 0), Fraction(1, 1)), ((0, 0, 1), Fraction(1, 1)), ((1, 0, 0), Fraction(0, 1))]
    """
    if role == "defender" and attacker_totals is None:
        contexts = _attacker_contexts(battle)
        player = _player(battle, role, next(iter(contexts_totals(battle))))
    else:
        player = _player(battle, role, attacker_totals)
        contexts = {player.context: 1}
    plan = player.solved.plan
    names = [die.name for die, n in player.side.pool if n]
    shown = [[0] * len(k.faces) for k in plan.kinds]  # dice showing each face: the same in every context
    for weight, roll in zip(plan.weights, plan.roll_counts()):
        for k, kind in enumerate(roll):
            for f, count in enumerate(kind):
                shown[k][f] += weight * count
    chances = sum(contexts.values())
    shown = [[n * chances for n in kind] for kind in shown]
    rerolled = [[0] * len(k.faces) for k in plan.kinds]
    states = plan.roll_states()
    for context, chance in contexts.items():
        for weight, removed in zip(plan.weights, player.solved.removals(context, states)):
            for k, f in removed:
                rerolled[k][f] += chance * weight
    return [FaceHabit(names[k] if k < len(names) else "", kind.faces[f], Fraction(rerolled[k][f], shown[k][f]))
            for k, kind in enumerate(plan.kinds) for f in range(len(kind.faces)) if shown[k][f]]


def contexts_totals(battle: Battle) -> dict[tuple[int, int], int]:
    """The attacker's final (hits, blocks) as the battle is played, with their weights."""
    if battle.attacker.reroll_policy == "best":
        return dict(attacker_totals(battle).items())
    return dict(side_totals(battle.attacker).items())


def _attacker_contexts(battle: Battle) -> dict[int, int]:
    """The defender's contexts weighted by the chance of the attacker totals they answer."""
    response = defender_response(battle)
    bounds = final_bounds(battle.attacker)
    out: dict[int, int] = {}
    for (h, b), w in contexts_totals(battle).items():
        if h < bounds[0] and b < bounds[1]:
            c = response.context_of(h, b)
            out[c] = out.get(c, 0) + w
    return out
