"""The `resolve` report of a plan of battles: per battle, per army, per player, and who wins."""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from explorer.core.dist import Dist
from explorer.games.assault_of_the_giants.plan.battles import PLAN_RULINGS, Army
from explorer.games.assault_of_the_giants.plan.endgame import victory
from explorer.games.assault_of_the_giants.plan.result import GAINS, ROLES, PlanResult
from explorer.games.assault_of_the_giants.rules.model import Battle, Status
from explorer.games.assault_of_the_giants.rules.rulings import BATTLE_RULINGS, provenance
from explorer.scenario.report import Cell, Rows, dist_exact, dist_json, fmt_percent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PlanReport", "MOST_LIKELY"]

MOST_LIKELY = 10
"""How many of the most likely final standings the report lists."""

_DECIDERS = {"ordning_points": "Ordning Points", "resource_cards": "Resource Cards", "regions": "regions",
             "shared": "shared victory"}


@dataclass(frozen=True)
class PlanReport:
    """Exact answer to a plan scenario: `to_dict` (JSON), `to_text` (command line), `to_rows` (long table)."""

    result: PlanResult

    # ------------------------------------------------------------------ pieces
    def _statuses(self, army: Army, after: int | None) -> dict[str, Any]:
        statuses = self.result.unit_statuses(army.name, after)
        return {"units": [{s.value: float(d.probability(s)) for s in Status} for d in statuses],
                "wiped_out": float(self.result.wiped_out(army.name, after))}

    def values(self) -> dict[str, str]:
        """Where each die's faces and the units' values come from (examples are not rulebook values)."""
        out: dict[str, str] = {}
        for battle in self.result.plan.battles:
            out.update(provenance(Battle(battle.attacker.side, battle.defender.side)))
        out["units"] = out.pop("units")
        return out

    def _battle(self, index: int) -> dict[str, Any]:
        plan, result = self.result.plan, self.result
        battle = plan.battles[index]
        entry: dict[str, Any] = {"name": battle.label(index), "took_place": float(result.took_place(index))}
        for role in ROLES:
            army = plan.army(getattr(battle, role).army)
            side: dict[str, Any] = {"army": army.name, "player": army.player}
            for gain in GAINS:
                side[gain] = dist_json(result.earned(index, role, gain))
            side["means"] = {gain: float(result.earned(index, role, gain).mean()) for gain in GAINS}
            entry[role] = side
        entry["armies"] = {army.name: self._statuses(army, index) for army in plan.armies}
        return entry

    def _player(self, player: str, chances: dict[str, Fraction]) -> dict[str, Any]:
        points, cards, regions = (self.result.points(player), self.result.resource_cards(player),
                                  self.result.regions(player))
        return {"ordning_points": dist_json(points), "mean_ordning_points": float(points.mean()),
                "resource_cards": dist_json(cards), "regions": dist_json(regions),
                "wins": float(chances["wins"]), "shares": float(chances["shares"]),
                "exact": {"ordning_points": dist_exact(cast("Dist[Hashable]", points)), "wins": str(chances["wins"]),
                          "shares": str(chances["shares"])}}

    def most_likely(self, count: int = MOST_LIKELY) -> list[dict[str, Any]]:
        """The `count` most likely final standings, each with its winners and what decided."""
        players = self.result.plan.players
        standings = self.result.standings()
        ranked = heapq.nsmallest(count, standings.items(), key=lambda item: (-item[1], item[0]))
        rows = []
        for outcome, w in ranked:
            winners, decided = victory(outcome)
            rows.append({"probability": w / standings.total,
                         "standings": {name: {"ordning_points": s[0], "resource_cards": s[1], "regions": s[2]}
                                       for name, s in zip(players, outcome)},
                         "winners": [players[i] for i in winners], "decided_by": decided,
                         # deprecated aliases of standings (one number per player, not a distribution)
                         "ordning_points": {name: s[0] for name, s in zip(players, outcome)},
                         "resource_cards": {name: s[1] for name, s in zip(players, outcome)},
                         "regions": {name: s[2] for name, s in zip(players, outcome)}})
        return rows

    def decided_by(self) -> str | None:
        """The step of p.20's chain that decided, when the final standings are certain; else None
        (then `PlanResult.decided_by` gives each step's chance), as ``winner.decided_by`` of a table."""
        standings = self.result.standings()
        if len(standings) != 1:
            return None
        return victory(next(iter(standings)))[1]

    # ------------------------------------------------------------------ formats
    def to_dict(self) -> dict[str, Any]:
        """The JSON report of a plan (probabilities as floats; ``exact`` holds fractions)."""
        plan, result = self.result.plan, self.result
        chances = result.win_chances()
        joint = result.joint_points()
        return {
            "format": 1, "game": "assault-of-the-giants", "question": "plan",
            "title": plan.title, "notes": list(plan.notes), "players": list(plan.players),
            "armies": {a.name: {"player": a.player, "npc": a.npc, "giantslayers": a.giantslayers,
                                "unit_names": [u.name for u in a.units]} for a in plan.armies},
            "battles": [self._battle(i) for i in range(len(plan.battles))],
            "final": {
                "players": {p: self._player(p, chances[p]) for p in plan.players},
                "armies": {a.name: self._statuses(a, None) for a in plan.armies},
                "decided_by": self.decided_by(),
                "decided_by_chances": {k: float(v) for k, v in result.decided_by().items()},
                "joint_ordning_points": {",".join(map(str, k)): float(v) for k, v in joint.probabilities().items()},
                "most_likely": self.most_likely(),
            },
            "states": len(result.states()),
            "rulings": list(PLAN_RULINGS) + list(BATTLE_RULINGS),
            "values": self.values(),
        }

    def to_rows(self) -> Rows:
        """Long table: step (``battle N`` or ``final``), subject (army or player), quantity, outcome, probability."""
        plan, result = self.result.plan, self.result
        rows: list[dict[str, Cell]] = []

        def add(step: str, subject: str, quantity: str, dist: Dist[Any]) -> None:
            rows.extend({"step": step, "subject": subject, "quantity": quantity, "outcome": str(o),
                         "probability": float(p)} for o, p in dist.probabilities().items())

        for index, battle in enumerate(plan.battles):
            step = f"battle {index + 1}"
            for role in ROLES:
                for gain in GAINS:
                    add(step, getattr(battle, role).army, f"{gain} earned", result.earned(index, role, gain))
            for army in plan.armies:
                for unit, dist in zip(army.units, result.unit_statuses(army.name, index)):
                    add(step, army.name, f"unit: {unit.name}", dist)
        for player in plan.players:
            add("final", player, "ordning_points", result.points(player))
            add("final", player, "resource_cards", result.resource_cards(player))
            add("final", player, "regions", result.regions(player))
        for player, chances in result.win_chances().items():
            rows += [{"step": "final", "subject": player, "quantity": "victory", "outcome": k,
                      "probability": float(v)} for k, v in chances.items()]
        return Rows(("step", "subject", "quantity", "outcome", "probability"), tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable account for the command line."""
        return "\n".join(self._head() + self._battles() + self._final() + self._notes()) + "\n"

    def _head(self) -> list[str]:
        plan = self.result.plan
        lines = [f"PLAN{': ' + plan.title if plan.title else ''} ({len(plan.battles)} battles)"]
        for army in plan.armies:
            kind = "NPC giants" if army.npc else ("giantslayers of " if army.giantslayers else "") + str(army.player)
            lines.append(f"  army {army.name} ({kind}): " + ", ".join(u.name for u in army.units))
        before = self.result.states(-1)
        state = next(iter(before))
        for i, player in enumerate(plan.players):
            lines.append(f"  before: {player} {state.points[i]} Ordning Points, {state.cards[i]} Resource Cards, "
                         f"{plan.regions(state)[i]} regions")
        return lines + [""]

    def _battles(self) -> list[str]:
        plan, result = self.result.plan, self.result
        lines: list[str] = []
        for index, battle in enumerate(plan.battles):
            label = battle.label(index)
            lines.append(f"{label[:6].upper()}{label[6:]}   takes place {fmt_percent(result.took_place(index))}")
            for role in ROLES:
                army = getattr(battle, role).army
                for gain in GAINS:
                    dist = result.earned(index, role, gain)
                    if gain == "resource_cards" and dist.probability(0) == 1:
                        continue
                    lines.append(f"  {army} earns {gain.replace('_', ' '):<15} mean {float(dist.mean()):6.3f}   "
                                 + _cells(dist))
            for role in ROLES:
                army = plan.army(getattr(battle, role).army)
                for unit, status in zip(army.units, result.unit_statuses(army.name, index)):
                    cells = "  ".join(f"{s.value} {fmt_percent(status.probability(s))}" for s in Status)
                    lines.append(f"  {army.name:<8} {unit.name:<20} {cells}")
                lines.append(f"  {army.name:<8} all units defeated: {fmt_percent(result.wiped_out(army.name, index))}")
            lines.append("")
        return lines

    def _final(self) -> list[str]:
        plan, result = self.result.plan, self.result
        chances = result.win_chances()
        lines = [f"FINAL STANDINGS ({len(result.states())} different end states)",
                 f"  {'player':<10} {'mean OP':>8} {'wins alone':>11} {'shares':>9}"]
        for player in plan.players:
            lines.append(f"  {player:<10} {float(result.points(player).mean()):8.3f} "
                         f"{fmt_percent(chances[player]['wins']):>11} {fmt_percent(chances[player]['shares']):>9}")
        for player in plan.players:
            lines.append(f"  {player} Ordning Points: " + _cells(result.points(player)))
            for label, dist in (("Resource Cards", result.resource_cards(player)), ("regions", result.regions(player))):
                if len(dist) > 1:
                    lines.append(f"  {player} {label}: " + _cells(dist))
        decided = result.decided_by()
        lines.append("  decided by (chance of each step of the chain): " + ", ".join(f"{_DECIDERS[k]} {fmt_percent(v)}" for k, v in decided.items()))
        lines.append("  most likely final standings (Ordning Points/Resource Cards/regions):")
        for row in self.most_likely(5):
            who = " ".join(f"{p} {s['ordning_points']}/{s['resource_cards']}/{s['regions']}"
                           for p, s in row["standings"].items())
            lines.append(f"    {fmt_percent(row['probability']):>8}  {who}  -> {' and '.join(row['winners'])}"
                         f" ({_DECIDERS[row['decided_by']]})")
        return lines + [""]

    def _notes(self) -> list[str]:
        lines = ["RULINGS (the plan)"] + [f"  - {r}" for r in PLAN_RULINGS]
        lines += ["RULINGS (every battle)"] + [f"  - {r}" for r in BATTLE_RULINGS]
        lines += ["VALUES"] + [f"  {key}: {source}" for key, source in self.values().items()]
        return lines


def _cells(dist: Dist[Any]) -> str:
    return "  ".join(f"{o}:{fmt_percent(p)}" for o, p in dist.probabilities().items())
