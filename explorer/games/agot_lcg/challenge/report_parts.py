"""Pieces every A Game of Thrones LCG report shares: claims, keywords, steps, the game's end, rulings."""

from __future__ import annotations

from typing import Any

from explorer.core.dist import Dist
from explorer.games.agot_lcg.challenge.claims import ClaimEffect
from explorer.games.agot_lcg.challenge.steps import ChallengeOutcome
from explorer.games.agot_lcg.challenge.winning import GameEnd
from explorer.scenario.report import fmt_percent
from explorer.scenario.stats import Headline, headline

__all__ = [
    "claim_dict", "claim_lines", "end_dict", "end_text", "hand_label", "keyword_dicts", "power_headline",
    "rulings_lines", "step_dicts",
]


def power_headline(before: int, after: int, of: str) -> Headline:
    """The headline of a challenge or a round: the power a player gains, `after` minus `before` totals.

    A challenge and a round have no chance in their power (an intrigue claim's random discards
    move no power), so the outcome is one number: its mean, its median, and at least / at most k
    of 1 or 0. A loss (a power claim against the player) is a negative gain.

    >>> h = power_headline(5, 8, "power the attacker gains")
    >>> h.mean, h.median, h.sd, h.at_least
    (Fraction(3, 1), 3, 0.0, {3: Fraction(1, 1)})
    """
    return headline(Dist.single(after - before), of)


def hand_label(outcome: tuple[tuple[str, int], ...]) -> str:
    """A discard outcome in words.

    >>> hand_label((("Ned", 1), ("Robb", 2)))
    '1 x Ned, 2 x Robb'
    """
    return ", ".join(f"{n} x {card}" for card, n in outcome) or "nothing"


def claim_dict(claim: ClaimEffect | None) -> dict[str, Any] | None:
    """The claim result as JSON (None when no claim was applied)."""
    if claim is None:
        return None
    out: dict[str, Any] = {"type": claim.type, "claim": claim.claim, "power_moved": claim.power_moved,
                           "limited_by": claim.limit, "upper_bound": claim.upper_bound}
    if claim.type == "military":
        out.update(characters_to_kill=claim.kills, chosen_by="defender", choice=claim.chosen_by,
                   killed=list(claim.killed), unlisted_killed=claim.unlisted_killed,
                   power_returned_to_treasury=claim.power_returned, prized_power_gained=claim.prized_gained)
    if claim.type == "intrigue":
        out.update(cards_to_discard=claim.discards, hand_size=claim.hand_size)
        if claim.chances:
            out["discard_chance"] = claim.discard_chance()
            out["discard_chance_exact"] = {name: str(p) for name, p in claim.chances.items()}
            out["survival_chance"] = {name: float(1 - p) for name, p in claim.chances.items()}
        if claim.discard_dist is not None:
            rows = sorted(claim.discard_dist.probabilities().items(), key=lambda item: (-item[1], item[0]))
            out["discards"] = {hand_label(o): float(p) for o, p in rows}
            out["discards_exact"] = {hand_label(o): str(p) for o, p in rows}
        elif claim.hand is not None:
            out["discards_note"] = "too many outcomes to list one by one; see discard_chance per card"
    return out


def claim_lines(claim: ClaimEffect | None) -> list[str]:
    """Text lines for an intrigue claim's odds (empty otherwise)."""
    if claim is None or not claim.chances:
        return []
    lines = ["INTRIGUE CLAIM: chance each named card is discarded (at least one copy)"]
    lines += [f"  {fmt_percent(p):>8}  {name}" for name, p in claim.chances.items()]
    if claim.discard_dist is not None:
        lines.append("  cards discarded together:")
        for o, p in sorted(claim.discard_dist.probabilities().items(), key=lambda i: (-i[1], i[0])):
            lines.append(f"  {fmt_percent(p):>8}  {hand_label(o)}")
    return lines


def keyword_dicts(outcome: ChallengeOutcome) -> list[dict[str, Any]]:
    """The keywords that acted, as JSON rows."""
    return [{"keyword": k.keyword, "player": k.player, "characters": list(k.characters), "amount": k.amount,
             "target": k.target, "text": k.text} for k in outcome.keywords]


def step_dicts(outcome: ChallengeOutcome) -> list[dict[str, Any]]:
    """The steps as JSON rows: number, event, power totals after it, and the rule cited."""
    keys = outcome.before.keys
    return [{"step": s.number, "event": s.event, "power": dict(zip(keys, s.totals)), "rule": s.rule}
            for s in outcome.steps]


def end_dict(end: GameEnd | None, first_player: str | None) -> dict[str, Any] | None:
    """How the game ended, as JSON (None if it goes on)."""
    if end is None:
        return None
    return {"winner": end.winner, "reason": end.reason, "step": end.step,
            "contenders": list(end.contenders), "eliminated": list(end.eliminated),
            "decided_by": end.decided_by, "first_player": first_player}


def end_text(end: GameEnd | None, where: str) -> str:
    """The game's end in one line; `where` says when (such as "after step 4.2.3")."""
    if end is None:
        return "GAME: goes on (no one has 15 power)"
    if end.reason != "simultaneous":
        why = ("15 or more power" if end.reason == "power"
               else f"{', '.join(end.eliminated)} eliminated (empty deck)")
        return f"GAME: {end.winner} wins {where} ({why})"
    out = f" ({', '.join(end.eliminated)} eliminated)" if end.eliminated else ""
    if end.winner is None:
        return (f"GAME: tie {where}: both players meet a victory condition at once{out}; the first player "
                "decides (Rules Reference p.23), and no first_player was given")
    return f"GAME: {end.winner} wins {where}: simultaneous victory{out} decided by the first player ({end.winner})"


def rulings_lines(rulings: tuple[str, ...]) -> list[str]:
    """The rulings as numbered text lines."""
    return ["RULINGS"] + [f"  {i}. {r}" for i, r in enumerate(rulings, 1)]
