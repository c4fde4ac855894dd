"""The fast Assault of the Giants resolver against the brute-force enumerator (tests/games/assault_of_the_giants/oracle.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.games.assault_of_the_giants import (
    Battle,
    CombatDie,
    Modifiers,
    Side,
    Unit,
    resolve_battle,
)
from explorer.games.assault_of_the_giants.battle.battle import points_for
from explorer.games.assault_of_the_giants.rules.casualties import assign_damage
from tests.games.assault_of_the_giants.oracle import brute_battle, brute_casualties, normalise

faces = st.tuples(st.integers(0, 4), st.integers(0, 2), st.integers(0, 2)) | st.sampled_from(
    [(0, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 0), (0, 1, 0)])
dice = st.builds(lambda name, fs: CombatDie(name, tuple(fs)), st.sampled_from(["a", "b"]),
                 st.lists(faces, min_size=6, max_size=6))
units = st.builds(Unit, st.sampled_from(["u", "v"]), st.integers(1, 4), st.integers(1, 3), st.integers(0, 3),
                  st.booleans(), st.booleans())


@st.composite
def sides(draw, attacker: bool, max_dice: int = 3) -> Side:
    first, second = draw(dice), draw(dice)
    n1 = draw(st.integers(0, max_dice))
    n2 = draw(st.integers(0, max_dice - n1))
    pool = ((CombatDie("k1", first.faces), n1), (CombatDie("k2", second.faces), n2))
    mods = Modifiers(draw(st.integers(0, 3)), draw(st.integers(0, 2)) if attacker else 0, draw(st.integers(0, 2)))
    return Side(pool, mods, tuple(draw(st.lists(units, max_size=3))),
                npc=draw(st.booleans()), giantslayers=attacker and draw(st.booleans()),
                casualty_order=draw(st.sampled_from(["listed", "fewest-op"])),
                reroll_policy=draw(st.sampled_from(["misses", "misses", "blanks", "none"])))


def _fast(result, name):
    side = getattr(result, name)
    return {q: getattr(side, q).probabilities() for q in ("hits", "blocks", "damage_taken", "ordning_points",
                                                          "resource_cards")}


@settings(max_examples=150, deadline=None)
@given(sides(True), sides(False))
def test_fast_battle_equals_brute_force(attacker: Side, defender: Side) -> None:
    battle = Battle(attacker, defender)
    fast, slow = resolve_battle(battle), brute_battle(battle)
    for name in ("attacker", "defender"):
        expected = {q: normalise(c) for q, c in slow[name].items() if q != "units"}
        assert _fast(fast, name) == expected
        side = getattr(fast, name)
        for i, counter in enumerate(slow[name]["units"]):
            got = {s.value: p for s, p in side.unit_status(i).probabilities().items()}
            assert got == normalise(counter)


@settings(max_examples=300, deadline=None)
@given(st.lists(units, max_size=5), st.integers(0, 14), st.booleans(), st.booleans())
def test_fewest_op_casualties_equal_every_order_tried(roster, damage, npc_victor, slayers) -> None:
    victim = Side((), Modifiers(), tuple(roster), giantslayers=slayers, casualty_order="fewest-op")
    victor = Side((), Modifiers(), (), npc=npc_victor)
    fast = assign_damage(victim.units, damage, "fewest-op", points_for(victim, victor))
    assert tuple(s.value for s in fast) == brute_casualties(victim, victor, damage)


@settings(max_examples=100, deadline=None)
@given(sides(True, max_dice=5), sides(False, max_dice=5))
def test_damage_and_statuses_follow_from_the_rolls_and_the_casualty_table(attacker: Side, defender: Side) -> None:
    """Bigger pools than the brute force takes, checked another way: damage is the enemy's hits less
    one's own blocks (p.17), convolved here from each side's own roll; each unit's status is the
    casualty table read at that damage."""
    from explorer.games.assault_of_the_giants import side_totals
    from explorer.games.assault_of_the_giants.battle.battle import casualty_table

    result = resolve_battle(Battle(attacker, defender))
    rolls = {"attacker": side_totals(attacker), "defender": side_totals(defender)}
    for name, enemy, side, victor in (("attacker", "defender", attacker, defender),
                                      ("defender", "attacker", defender, attacker)):
        got = getattr(result, name)
        damage = rolls[enemy].combine(rolls[name], lambda e, own: max(0, e[0] - own[1]))
        assert got.damage_taken == damage
        table = casualty_table(side, victor, max(damage))
        for i in range(len(side.units)):
            assert got.unit_status(i) == damage.map(lambda d: table[d][i])


@settings(max_examples=60, deadline=None)
@given(sides(True, max_dice=4), st.integers(1, 3))
def test_a_reroll_never_lowers_expected_hits_or_blocks(side: Side, extra: int) -> None:
    """Rerolling a blank or an unusable arcane cannot make the roll worse, die by die."""
    from dataclasses import replace

    from explorer.games.assault_of_the_giants import side_totals

    more = replace(side, modifiers=replace(side.modifiers, rerolls=side.modifiers.rerolls + extra))
    before, after = side_totals(side), side_totals(more)
    worth = lambda t: t[0] + t[1]  # noqa: E731
    assert after.map(worth).mean() >= before.map(worth).mean()


@settings(max_examples=80, deadline=None)
@given(sides(True, max_dice=4))
def test_fast_path_equals_the_generic_pool_engine(side: Side) -> None:
    """The game's fast path (count engine) and the plain multiset engine asking the game's own
    face-by-face reroll choice agree exactly."""
    from explorer.games.assault_of_the_giants import side_totals
    from tests.core.pool_oracle import roll_multisets
    from tests.games.assault_of_the_giants.pool_oracle import side_as_pool

    generic = roll_multisets(**side_as_pool(side, faces=True)).map(lambda v: (v[0], v[1]))
    assert side_totals(side) == generic
