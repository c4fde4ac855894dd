"""The `resolve` report of one A Game of Thrones LCG challenge (scenario format v1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.agot_lcg.model import PLAYERS
from explorer.games.agot_lcg.rules import ChallengeResult, ClaimEffect, GameEnd
from explorer.report import fmt_percent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ChallengeReport"]


def _label(outcome: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{n} x {card}" for card, n in outcome) or "nothing"


def _claim_dict(claim: ClaimEffect | None) -> dict[str, Any] | None:
    if claim is None:
        return None
    out: dict[str, Any] = {"type": claim.type, "claim": claim.claim, "power_moved": claim.power_moved,
                           "limited_by": claim.limit, "upper_bound": claim.upper_bound}
    if claim.type == "military":
        out.update(characters_to_kill=claim.kills, chosen_by="defender")
    if claim.type == "intrigue":
        out["cards_to_discard"] = claim.discards
        if claim.discard_dist is not None:
            dist = claim.discard_dist
            rows = sorted(dist.probabilities().items(), key=lambda item: (-item[1], item[0]))
            out["discards"] = {_label(o): float(p) for o, p in rows}
            out["discards_exact"] = {_label(o): str(p) for o, p in rows}
            out["discard_chance"] = claim.discard_chance()
    return out


def _end_dict(end: GameEnd | None, first_player: str | None) -> dict[str, Any] | None:
    if end is None:
        return None
    return {"winner": end.winner, "reason": end.reason, "step": end.step,
            "contenders": list(end.contenders), "eliminated": list(end.eliminated),
            "decided_by": end.decided_by, "first_player": first_player}


@dataclass(frozen=True, slots=True)
class ChallengeReport:
    """Exact answer to one challenge scenario; `to_dict` is the spec's JSON."""

    result: ChallengeResult

    @property
    def game_winner(self) -> str | None:
        """``"attacker"``, ``"defender"`` or None (game goes on, or an undecided tie)."""
        return self.result.game_end.winner if self.result.game_end else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the spec's keys, then STR, power detail, claim, renown and the steps.

        >>> from explorer.games.agot_lcg import resolve
        >>> resolve({"challenge": {"type": "power", "claim": 1, "attackers": [{"name": "K", "str": 1}],
        ...          "defenders": []}, "power": {"attacker": {"faction": 0}, "defender": {"faction": 0}}}
        ...         ).to_dict()["power_after"]
        {'attacker': 1, 'defender': 0}
        """
        r, c = self.result, self.result.challenge
        return {
            "format": 1, "game": "agot-lcg",
            "winner": r.winner, "unopposed": r.unopposed,
            "power_after": {p: r.after(p).total for p in PLAYERS},
            "game_winner": self.game_winner,
            "challenge_type": c.type, "claim": c.claim,
            "str": dict(zip(PLAYERS, r.strength)),
            "participants": {p: len(c.side(p).characters) for p in PLAYERS},
            "power_before": {p: {"faction": c.side(p).power.faction, "cards": c.side(p).power.cards,
                                 "total": c.side(p).power.total} for p in PLAYERS},
            "power_after_detail": {p: {"faction": r.after(p).faction, "cards": r.after(p).cards,
                                       "total": r.after(p).total} for p in PLAYERS},
            "unopposed_bonus": r.bonus,
            "power_moved": r.power_moved,
            "renown_gained": dict(zip(PLAYERS, r.renown)),
            "claim_effects": _claim_dict(r.claim),
            "keywords_not_modeled": list(r.keywords_not_modeled),
            "first_player": c.first_player,
            "game_end": _end_dict(r.game_end, c.first_player),
            "steps": [{"step": s.number, "event": s.event, "power": dict(zip(PLAYERS, s.totals))}
                      for s in r.steps],
        }

    def to_frame(self) -> pd.DataFrame:
        """Long table: quantity, side, value, probability (1 except for intrigue discards)."""
        import pandas as pd

        d, r = self.to_dict(), self.result
        rows: list[dict[str, Any]] = [
            {"quantity": q, "side": "", "value": d[q], "probability": 1.0}
            for q in ("winner", "unopposed", "game_winner", "power_moved", "unopposed_bonus")
        ]
        for q in ("str", "power_after", "renown_gained"):
            rows += [{"quantity": q, "side": p, "value": d[q][p], "probability": 1.0} for p in PLAYERS]
        if r.claim and r.claim.discard_dist is not None:
            rows += [{"quantity": "discarded", "side": "defender", "value": _label(o), "probability": float(p)}
                     for o, p in r.claim.discard_dist.probabilities().items()]
        return pd.DataFrame(rows, columns=["quantity", "side", "value", "probability"])

    def to_text(self) -> str:
        """A readable account for the command line: result, power, steps, claim odds."""
        r, c = self.result, self.result.challenge
        lines = [f"{c.type.upper()} CHALLENGE, claim {c.claim}"]
        for p, strength in zip(PLAYERS, r.strength):
            side = c.side(p)
            names = ", ".join(f"{ch.name} ({ch.strength}{''.join(' ' + k for k in ch.keywords)})"
                              for ch in side.characters) or "no characters"
            mod = f" {side.str_modifier:+d} modifier" if side.str_modifier else ""
            lines.append(f"  {p:<9} STR {strength:>2}: {names}{mod}")
        if r.game_end is not None and r.game_end.step == "start":
            lines.append("  not resolved: the game was over before the challenge")
        else:
            lines.append(f"  winner: {r.winner}" + ("  (unopposed)" if r.unopposed else ""))
        lines.append("STEPS")
        lines += [f"  {s.number:<6} {s.event}  [power {s.totals[0]} / {s.totals[1]}]" for s in r.steps]
        lines.append("POWER (faction + cards = total)")
        for p in PLAYERS:
            before, after = c.side(p).power, r.after(p)
            lines.append(f"  {p:<9} {before.faction} + {before.cards} = {before.total}  ->  "
                         f"{after.faction} + {after.cards} = {after.total}")
        if r.claim and r.claim.discard_dist is not None:
            lines.append("INTRIGUE CLAIM: cards discarded at random")
            for o, p in sorted(r.claim.discard_dist.probabilities().items(), key=lambda i: (-i[1], i[0])):
                lines.append(f"  {fmt_percent(p):>8}  {_label(o)}")
        if r.keywords_not_modeled:
            lines.append("NOT MODELED (may-keywords of the winner): " + "; ".join(r.keywords_not_modeled))
        lines.append(self._end_text())
        return "\n".join(lines) + "\n"

    def _end_text(self) -> str:
        end = self.result.game_end
        if end is None:
            return "GAME: goes on (no one has 15 power)"
        where = "before the challenge" if end.step == "start" else f"after step {end.step}"
        if end.reason != "simultaneous":
            why = ("15 or more power" if end.reason == "power"
                   else f"{', '.join(end.eliminated)} eliminated (empty deck)")
            return f"GAME: {end.winner} wins {where} ({why})"
        out = f" ({', '.join(end.eliminated)} eliminated)" if end.eliminated else ""
        if end.winner is None:
            return (f"GAME: tie {where}: both players meet a victory condition at once{out}; the first player "
                    "decides (Rules Reference p.23), and no first_player was given")
        return f"GAME: {end.winner} wins {where}: simultaneous victory{out} decided by the first player ({end.winner})"
