"""One sampled battle, step by step in the rulebook's order: a teaching aid and a cross-check.

`trace_battle` rolls real dice with a seeded `random.Random`, so a trace is reproducible.
It makes the same choices as the exact resolver (`reroll_choice` for rerolls, `convert` for
conversions, `absorb` and the side's casualty order for casualties, `points_for` and
`resource_cards_for` for rewards), so over many seeds its frequencies approach the resolver's
probabilities. The exact resolver (`resolve_battle`) stays the answer; a trace is one story.

Whatever a side's policy, the reroll and conversion steps also show what best play for the side's
objective would do with the same dice (`advice`), and what each choice is worth: the defender's
advice knows the attacker's recorded totals (p.17). A side playing ``best`` makes that choice.
When best play's search is too big for a side that does not play it, the comparison is left out.
A side's cards (p.16-17) are folded in as the resolver folds them (`cards.played`): their dice are
rolled with the pool, their conversions used with the Commands', their rerolls a second round
("2. Rerolls (cards, second round)", the policy applied again to the dice as the first round left
them; with ``card_rerolls: "with commands"``, in the first), and a step "Cards (before final
totals)" lists each card's effect and adds its flat hits and blocks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
from explorer.games.assault_of_the_giants.best.trace_advice import Advisor, advisor_for, reroll_advice, split_advice
from explorer.games.assault_of_the_giants.rules.cards import ENTER_NOTE, card_shift, card_to_dict, effect_text, played
from explorer.games.assault_of_the_giants.rules.casualties import (
    absorb,
    best_order,
    listed_order,
)
from explorer.games.assault_of_the_giants.rules.combat import (
    control_of,
    kind_order,
    reroll_choice,
    split_rerolls,
)
from explorer.games.assault_of_the_giants.rules.model import (
    Battle,
    CombatDie,
    FixedPolicy,
    Side,
    Status,
    Symbols,
    Unit,
)
from explorer.games.assault_of_the_giants.rules.outcome import points_for, resource_cards_for
from explorer.games.assault_of_the_giants.rules.words import face_name, show_faces
from explorer.scenario.trace import TraceStep, trace_text

__all__ = ["TraceStep", "face_name", "trace_battle", "trace_scenario", "trace_text"]

_TOKENS = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
"""Decision tokens (`combat.control_of`) in the order dice of one kind are rerolled."""


def _plural(n: int, word: str, plural: str = "") -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _allowance(side: Side, key: str) -> str:
    """Why the side has this many of a modification: its command row, the NPC limits, or the scenario,
    and the cards it plays (`side` as entered, its cards not folded in)."""
    mods = side.modifiers
    n = getattr(mods, key)
    base, _, rest = mods.source.partition(" ")
    why = "set in the scenario"
    if key not in rest and base == "npc":
        why = "NPC giants' limit (p.20)"
    elif key not in rest and base == "commands":
        card, where = {"rerolls": ("Leader", "right"), "arcane_to_blocks": ("Magic", "right"),
                       "arcane_to_hits": ("Attack", "left")}[key]
        why = f"{card} has {_plural(n, 'card')} to its {where}"
    if key == "rerolls" and played(side).modifiers.card_rerolls:  # the cards' rerolls are the second round
        return why
    extra = [f"{c.name} +{getattr(c, key)}" for c in side.cards if getattr(c, key)]
    return why + (f"; cards: {', '.join(extra)}" if extra else "")


def _policy_picks(side: Side, policy: FixedPolicy, entries: Sequence[tuple[CombatDie, int]], kinds: Sequence[int],
                  faces: Sequence[Symbols]) -> tuple[list[int], tuple[int, ...], int]:
    """The dice a fixed policy rerolls: the resolver's decision per kind, then concrete dice of each kind."""
    mods = side.modifiers
    controls = [(0, 0, 0)] * len(entries)
    for k, face in zip(kinds, faces):
        controls[k] = tuple(a + b for a, b in zip(controls[k], control_of(face)))  # type: ignore[assignment]
    arcane = sum(f[2] for f in faces)
    order = kind_order([die for die, _ in entries], mods)
    per_kind, removed = reroll_choice(policy, controls, arcane, mods, order)
    picks: list[int] = []
    for k, need in enumerate(per_kind):
        for token, count in zip(_TOKENS, split_rerolls(controls[k], need)):
            same = [i for i in range(len(faces)) if kinds[i] == k and control_of(faces[i]) == token]
            picks += same[:count]
    picks.sort()
    if sum(faces[i][2] for i in picks) != removed:
        raise AssertionError("the rerolled dice disagree with the resolver's decision")
    return picks, per_kind, removed


def _side_steps(side: Side, label: str, rng: random.Random, page: str,
                advisor: Advisor | None = None) -> tuple[list[TraceStep], tuple[int, int]]:
    """Roll, reroll, convert and total one side's dice (steps 1-3 for the attacker, 4 for the defender)."""
    entered, side = side, played(side)
    entries = [(die, n) for die, n in side.pool if n]
    kinds = [k for k, (_, n) in enumerate(entries) for _ in range(n)]
    dice = [entries[k][0] for k in kinds]
    named = len(entries) > 1
    mods, policy = side.modifiers, side.reroll_policy
    mod_page = "rulebook p.20" if side.npc else page
    faces = [rng.choice(die.faces) for die in dice]
    counted = " and ".join(f"{n} {die.name} {'die' if n == 1 else 'dice'}" for die, n in entries)
    from_cards = ", ".join(f"{n} {die.name} {'die' if n == 1 else 'dice'} from {c.name}"
                           for c in entered.cards for die, n in c.dice)
    counted += f" ({from_cards})" if from_cards else ""
    rolled = f"rolls {counted}: {show_faces(dice, faces, named, range(len(dice)))}" if dice else "rolls no dice"
    steps = [TraceStep(label, "1. Roll", rolled, page,
                       {"dice": tuple(d.name for d in dice), "faces": tuple(faces)})]

    # 2. Rerolls: the policy's choice (best play's own for "best"), shown next to best play's.
    if policy == "best":
        assert advisor is not None
        picks = list(advisor.reroll(dice, faces)[0].reroll)
        per_kind = tuple(sum(1 for i in picks if kinds[i] == k) for k in range(len(entries)))
        removed = sum(faces[i][2] for i in picks)
    else:
        picks, per_kind, removed = _policy_picks(side, policy, entries, kinds, faces)
    compared, advice = reroll_advice(advisor, dice, kinds, faces, picks, named)
    after = list(faces)
    for i in picks:
        after[i] = rng.choice(dice[i].faces)
    convertible = mods.arcane_to_hits + mods.arcane_to_blocks
    unusable = f"arcane its {_plural(convertible, 'conversion')} cannot use"
    reasons = [("best play" if policy == "best" else unusable if faces[i][2] else "a miss") for i in picks]
    allowance = f"{_plural(mods.rerolls, 'reroll')}: {_allowance(entered, 'rerolls')}"
    if picks:
        which = f"the {face_name(faces[picks[0]])} die" if len(picks) == 1 else f"{len(picks)} dice"
        changes = ", ".join(f"{show_faces(dice, faces, named, [i])} -> {show_faces(dice, after, named, [i])} ({r})"
                            for i, r in zip(picks, reasons))
        text = f"rerolls {which} ({allowance}): {changes}"
        if mods.rerolls > len(picks):
            text += f"; {_plural(mods.rerolls - len(picks), 'reroll')} unused"
    elif not mods.rerolls:
        text = "has no rerolls; keeps every die"
    elif policy in ("none", "best"):
        text = f"keeps every die (reroll policy \"{policy}\"; {allowance})"
    else:
        text = f"keeps every die: none shows a miss or arcane it cannot convert ({allowance})"
    steps.append(TraceStep(label, "2. Rerolls", text + compared, mod_page, {
        "before": tuple(faces), "after": tuple(after), "rerolled": tuple(picks), "per_kind": tuple(per_kind),
        "removed_arcane": removed, "rerolls": mods.rerolls, "policy": policy, **advice}))

    if mods.card_rerolls:  # the cards' rerolls: a second round on the dice as they now lie (p.16)
        steps.append(_second_round(entered, side, label, rng, (entries, kinds, dice), after, named, picks, advisor))

    # 3. Conversions (after every reroll): arcane to 2 hits first, then to 1 block; the rest is a miss.
    symbols: Symbols = tuple(sum(f[j] for f in after) for j in range(3))  # type: ignore[assignment]
    splits = advisor.conversion(symbols) if advisor else []
    if policy == "best":
        to_hits, to_blocks = splits[0].to_hits, splits[0].to_blocks
    else:
        to_hits = min(symbols[2], mods.arcane_to_hits)
        to_blocks = min(symbols[2] - to_hits, mods.arcane_to_blocks)
    hits, blocks = symbols[0] + 2 * to_hits, symbols[1] + to_blocks
    unused = symbols[2] - to_hits - to_blocks
    parts = []
    if to_hits:
        parts.append(f"{to_hits} arcane into {2 * to_hits} hits ({_allowance(entered, 'arcane_to_hits')})")
    if to_blocks:
        parts.append(f"{to_blocks} arcane into {_plural(to_blocks, 'block')} "
                     f"({_allowance(entered, 'arcane_to_blocks')})")
    text = ("converts " + " and ".join(parts)) if parts else "has no conversions"
    if not symbols[2]:
        text = "no arcane to convert"
    if unused:
        text += f"; {unused} unconverted arcane " + ("counts as a miss" if unused == 1 else "count as misses")
    if label == "defender" and not any(c.arcane_to_hits for c in entered.cards):
        text += " (the defender cannot use the Attack conversion, p.17)"
    compared, advice = split_advice(advisor, splits, (to_hits, to_blocks))
    steps.append(TraceStep(label, "3. Conversions", text + compared, mod_page,
                           {"symbols": symbols, "to_hits": to_hits, "to_blocks": to_blocks, "unused_arcane": unused,
                            **advice}))
    if entered.cards:
        steps.append(_cards_step(entered, label, hits, blocks))
        hits, blocks = hits + card_shift(entered)[0], blocks + card_shift(entered)[1]
    steps.append(TraceStep(label, "Totals", f"records {_plural(hits, 'hit')} and {_plural(blocks, 'block')}",
                           "rulebook p.17", {"faces": tuple(after), "symbols": symbols, "hits": hits, "blocks": blocks}))
    return steps, (hits, blocks)


def _second_round(entered: Side, side: Side, label: str, rng: random.Random,
                  pool: tuple[Sequence[tuple[CombatDie, int]], Sequence[int], Sequence[CombatDie]],
                  after: list[Symbols], named: bool, first: Sequence[int], advisor: Advisor | None = None
                  ) -> TraceStep:
    """Step 2, second round: the cards' rerolls, the policy applied again to the dice as the Command
    rerolls left them (`first`: the dice they rerolled, which may be rerolled again); best play's own
    second-round choice for ``best``, chosen knowing the first round's results, and compared with
    the policy's otherwise (`advisor`); `pool` is (entries, kind of each die, each die); `after` is
    updated in place."""
    mods, policy = side.modifiers, side.reroll_policy
    entries, kinds, dice = pool
    second = replace(side, modifiers=replace(mods, rerolls=mods.card_rerolls, card_rerolls=0))
    before = tuple(after)
    advisor = advisor if advisor is not None and advisor.two_rounds else None
    if policy == "best" and advisor is not None:
        picks = list(advisor.reroll(dice, before, True)[0].reroll)
        per_kind = tuple(sum(1 for i in picks if kinds[i] == k) for k in range(len(entries)))
        removed = sum(before[i][2] for i in picks)
    elif policy == "best":  # no dice: nothing to reroll
        picks, per_kind, removed = [], tuple(0 for _ in entries), 0
    else:
        picks, per_kind, removed = _policy_picks(second, policy, entries, kinds, before)
    compared, advice = reroll_advice(advisor, dice, kinds, list(before), picks, named, True)
    for i in picks:
        after[i] = rng.choice(dice[i].faces)
    cards = ", ".join(f"{c.name} +{c.rerolls}" for c in entered.cards if c.rerolls)
    allowance = f"{_plural(mods.card_rerolls, 'reroll')} from cards: {cards}"
    unusable = f"arcane its {_plural(mods.arcane_to_hits + mods.arcane_to_blocks, 'conversion')} cannot use"
    if picks:
        which = f"the {face_name(before[picks[0]])} die" if len(picks) == 1 else f"{len(picks)} dice"
        changes = ", ".join(f"{show_faces(dice, before, named, [i])} -> {show_faces(dice, after, named, [i])} "
                            f"({'best play' if policy == 'best' else unusable if before[i][2] else 'a miss'}"
                            f"{', again' if i in first else ''})"
                            for i in picks)
        text = f"rerolls {which} ({allowance}): {changes}"
        if mods.card_rerolls > len(picks):
            text += f"; {_plural(mods.card_rerolls - len(picks), 'reroll')} unused"
    elif policy in ("none", "best"):
        text = f"keeps every die (reroll policy \"{policy}\"; {allowance})"
    else:
        text = f"keeps every die: none shows a miss or arcane it cannot convert ({allowance})"
    text += " [second round, after the Command rerolls' results]" + compared
    return TraceStep(label, "2. Rerolls (cards, second round)", text, "rulebook p.16", {
        "before": before, "after": tuple(after), "rerolled": tuple(picks), "per_kind": tuple(per_kind),
        "removed_arcane": removed, "rerolls": mods.card_rerolls, "policy": policy, "round": 2, **advice})


def _cards_step(side: Side, label: str, hits: int, blocks: int) -> TraceStep:
    """Each card the side plays and its effect; the flat hits and blocks are added here (p.16-17)."""
    dh, db = card_shift(side)
    played_ = "; ".join(f"{c.name} ({c.kind}): {effect_text(c)}" for c in side.cards)
    text = (f"plays {played_} [effects: {ENTER_NOTE}]; adds {_plural(dh, 'hit')} and {_plural(db, 'block')}: "
            f"{_plural(hits + dh, 'hit')} and {_plural(blocks + db, 'block')}")
    if any(c.dice or c.rerolls or c.arcane_to_hits or c.arcane_to_blocks for c in side.cards):
        text += " (the cards' dice, rerolls and conversions are in the steps above)"
    return TraceStep(label, "Cards (before final totals)", text, "rulebook pp.16-17",
                     {"cards": tuple(card_to_dict(c) for c in side.cards), "hits_added": dh, "blocks_added": db,
                      "hits": hits + dh, "blocks": blocks + db})


def _absorb_text(unit: Unit, before: Status, after: Status, damage: int, rest: int) -> str:
    fortitude = unit.wounded_fortitude if before is Status.WOUNDED else unit.fortitude
    notes = ("wounded, " if before is Status.WOUNDED else "") + ("champion, " if unit.champion else "")
    who = f"{unit.name} ({notes}Fortitude {fortitude})"
    if after is before:
        return f"{who} shrugs off all {damage} damage (a champion ignores damage below its Fortitude); 0 left"
    outcome = "is defeated" if after is Status.DEFEATED else "is wounded (flipped to its wounded side)"
    if after is Status.DEFEATED and damage < fortitude:
        outcome += " (it was already wounded)"
    return f"{who} absorbs {damage - rest} of {damage} damage and {outcome}; {rest} left"


def _casualty_steps(victim: Side, victor: Side, label: str, damage: int) -> tuple[list[TraceStep], tuple[Status, ...]]:
    """Step 5 (and its inferred twin for the attacker): unit by unit, in the side's casualty order."""
    units, page = victim.units, "rulebook p.17"
    concede = points_for(victim, victor)
    if victim.casualty_order == "listed":
        order, how = listed_order(units), "champions first, then the listed order"
    elif victim.casualty_order == "fewest-op":
        order = best_order(tuple(units), damage, tuple(concede))
        how = "champions first, then the order conceding the fewest Ordning Points, then the fewest units"
    else:
        raise ValueError(f"unknown casualty order {victim.casualty_order!r}")
    statuses = [Status.WOUNDED if u.wounded else Status.HEALTHY for u in units]
    if damage <= 0:
        head = "sustains no damage"
    elif not units:
        head = f"sustains {damage} damage but has no units"
    else:
        head = f"sustains {damage} damage; picks units {how}"
        if label == "attacker":
            head += " (p.17's procedure; the attacker's own step is on a missing page)"
    steps = [TraceStep(label, "5. Casualties", head, page, {"damage": damage, "order": tuple(order)})]
    left = damage
    for i in order:
        if left <= 0:
            break
        before = statuses[i]
        statuses[i], rest = absorb(units[i], before, left)
        steps.append(TraceStep(label, "5. Casualties", _absorb_text(units[i], before, statuses[i], left, rest), page,
                               {"unit": i, "name": units[i].name, "damage": left, "left": rest,
                                "before": before.value, "status": statuses[i].value}))
        left = rest
    summary = ", ".join(f"{u.name} {s.value}" for u, s in zip(units, statuses)) or "no units"
    if left > 0 and units:
        summary += f" ({left} damage left over: no unit remains)"
    steps.append(TraceStep(label, "5. Casualties", f"after the battle: {summary}", page,
                           {"statuses": tuple(s.value for s in statuses), "left_over": max(0, left)}))
    return steps, tuple(statuses)


def _reward_step(earner: Side, victim: Side, label: str, casualties: Sequence[Status]) -> TraceStep:
    """Battle Rewards (p.19-20): Ordning Points and Resource Cards for the victim's defeated units."""
    points, cards = points_for(victim, earner), resource_cards_for(victim, earner)
    defeated = [i for i, s in enumerate(casualties) if s is Status.DEFEATED]
    op, rc = sum(points[i] for i in defeated), sum(cards[i] for i in defeated)
    page = "rulebook p.19-20"
    if not defeated:
        why = "defeats no enemy unit"
    elif earner.npc:
        why, page = "NPC giants earn no Ordning Points, and no Resource Cards for giantslayers (p.20)", "rulebook p.20"
    elif victim.giantslayers:
        why, page = "defeated giantslayers give no Ordning Points but 1 Resource Card each (p.19)", "rulebook p.19"
    else:
        rule = "half of each Ordning Value, rounded up (giantslayers, p.19)" if earner.giantslayers else "each Ordning Value"
        values = ", ".join(f"{victim.units[i].name} {points[i]}" for i in defeated)
        why = f"{rule}: {values}"
        page = "rulebook p.19" if earner.giantslayers else page
    text = f"earns {_plural(op, 'Ordning Point')} and {_plural(rc, 'Resource Card')}: {why}"
    return TraceStep(label, "6. Battle Rewards", text, page,
                     {"ordning_points": op, "resource_cards": rc, "defeated": tuple(defeated)})


def trace_battle(battle: Battle, seed: int) -> tuple[TraceStep, ...]:
    """Sample one battle with `random.Random(seed)` and record every step in the rulebook's order.

    The attacker rolls, rerolls, converts and records totals (p.16-17); then the defender (p.17);
    damage (p.17); the defender's casualties, then the attacker's (p.17); rewards (p.19-20).
    The same seed always gives the same trace.

    >>> from explorer.games.assault_of_the_giants.rules.model import CombatDie, Modifiers, Unit
    >>> red = CombatDie("red", ((2, 0, 0),) * 6)
    >>> attacker = Side(((red, 2),), Modifiers(), (Unit("fire giant", 3, 2, 2),))
    >>> defender = Side((), Modifiers(), (Unit("hill giant", 3, 2, 1), Unit("hill giant", 2, 1, 1)))
    >>> steps = trace_battle(Battle(attacker, defender), seed=1)
    >>> steps[0].text
    'rolls 2 red dice: [2 hits] [2 hits]'
    >>> [s.text for s in steps if s.side == "defender" and s.step == "5. Casualties"][1]
    'hill giant (Fortitude 3) absorbs 3 of 4 damage and is defeated; 1 left'
    >>> steps[-2].text
    'earns 1 Ordning Point and 0 Resource Cards: each Ordning Value: hill giant 1'
    """
    rng = random.Random(seed)
    atk, dfn = battle.attacker, battle.defender
    atk_steps, (atk_hits, atk_blocks) = _side_steps(atk, "attacker", rng, "rulebook p.16",
                                                    advisor_for(battle, "attacker"))
    dfn_steps, (dfn_hits, dfn_blocks) = _side_steps(dfn, "defender", rng, "rulebook p.17",
                                                    advisor_for(battle, "defender", (atk_hits, atk_blocks)))
    to_dfn, to_atk = max(0, atk_hits - dfn_blocks), max(0, dfn_hits - atk_blocks)
    damage = TraceStep("", "4. Damage", (
        f"defender: attacker's {_plural(atk_hits, 'hit')} - {_plural(dfn_blocks, 'block')} = {to_dfn} damage; "
        f"attacker: defender's {_plural(dfn_hits, 'hit')} - {_plural(atk_blocks, 'block')} = {to_atk} damage"),
        "rulebook p.17", {"defender": to_dfn, "attacker": to_atk})
    dfn_losses, dfn_status = _casualty_steps(dfn, atk, "defender", to_dfn)
    atk_losses, atk_status = _casualty_steps(atk, dfn, "attacker", to_atk)
    rewards = [_reward_step(atk, dfn, "attacker", dfn_status), _reward_step(dfn, atk, "defender", atk_status)]
    return tuple(atk_steps + dfn_steps + [damage] + dfn_losses + atk_losses + rewards)


def trace_scenario(scenario: Mapping[str, Any], seed: int) -> tuple[TraceStep, ...]:
    """`trace_battle` of a scenario mapping (the registry's trace, `explorer.games.GameDef.trace_steps`)."""
    return trace_battle(parse_battle(scenario), seed)
