"""The `resolve` report of one Assault of the Giants battle (scenario format v1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.assault_of_the_giants.battle.battle import BattleResult, SideResult
from explorer.games.assault_of_the_giants.battle.best_summary import best_play_summary
from explorer.games.assault_of_the_giants.battle.summary import HEADLINE_SIDE, battle_headline
from explorer.games.assault_of_the_giants.rules.cards import ENTER_NOTE, card_to_dict, effect_text, played
from explorer.games.assault_of_the_giants.rules.model import Objective, Side, Status
from explorer.games.assault_of_the_giants.rules.rulings import BATTLE_RULINGS, provenance
from explorer.scenario.report import Cell, Rows, dist_exact, dist_json, fmt_percent
from explorer.scenario.stats import Headline

if TYPE_CHECKING:
    import pandas as pd

    from explorer.games.assault_of_the_giants.best.row_advisor import RowOption

__all__ = ["BattleReport"]

_SIDES = ("attacker", "defender")
_QUANTITIES = ("hits", "blocks", "damage_taken", "ordning_points", "resource_cards")
_COLUMNS = ("side", "quantity", "outcome", "probability")


@dataclass(frozen=True, slots=True)
class BattleReport:
    """Exact answer to one battle scenario; `to_dict` is the spec's JSON."""

    result: BattleResult
    row_advice: tuple[Objective, tuple[RowOption, ...]] | None = None
    """The command-row advisor's (objective, options best first), when the scenario asks (``advisor``)."""

    def side(self, name: str) -> SideResult:
        """The result of ``"attacker"`` or ``"defender"``."""
        return self.result.attacker if name == "attacker" else self.result.defender

    def _scenario_side(self, name: str) -> Side:
        return self.result.battle.attacker if name == "attacker" else self.result.battle.defender

    def headline(self, side: str = HEADLINE_SIDE) -> Headline:
        """The headline numbers of the damage `side` takes (default the defender's, `summary.battle_headline`)."""
        return battle_headline(self.result, side)

    def best_play(self) -> dict[str, dict[str, Any]]:
        """Per side playing ``best``: objective, value reached and gain over ``misses`` (`best_summary.best_play_summary`)."""
        return best_play_summary(self.result.battle)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: per side the spec's keys, plus means, exact fractions and settings.

        ``headline`` (top level) gives the mean, standard deviation, median and at least / at most k
        of the damage the defender takes; each side's ``headline`` gives the same for its own damage taken.
        A side playing ``best`` also has ``best_play``: its objective, the value reached, the value
        the ``misses`` policy reaches in the same battle, and the gain (floats, and exact as text).
        """
        out: dict[str, Any] = {"format": 1, "game": "assault-of-the-giants",
                               "headline": self.headline().to_dict()}
        best = self.best_play()
        for name in _SIDES:
            res, side = self.side(name), self._scenario_side(name)
            entry: dict[str, Any] = {q: dist_json(getattr(res, q)) for q in _QUANTITIES}
            entry["units"] = [
                {s.value: float(res.unit_status(i).probability(s)) for s in Status}
                for i in range(len(side.units))
            ]
            entry["unit_names"] = [u.name for u in side.units]
            entry["means"] = {q: float(getattr(res, q).mean()) for q in _QUANTITIES}
            entry["headline"] = self.headline(name).to_dict()
            entry["wiped_out"] = float(res.wiped_out())
            entry["exact"] = {q: dist_exact(getattr(res, q)) for q in _QUANTITIES}
            entry["modifiers"] = {
                "rerolls": side.modifiers.rerolls, "arcane_to_hits": side.modifiers.arcane_to_hits,
                "arcane_to_blocks": side.modifiers.arcane_to_blocks, "source": side.modifiers.source,
            }
            entry["casualty_order"] = side.casualty_order
            entry["reroll_policy"] = side.reroll_policy
            entry["objective"] = side.objective
            if side.cards:
                entry["cards"] = [{**card_to_dict(c), "effects": effect_text(c), "note": ENTER_NOTE} for c in side.cards]
            if name in best:
                entry["best_play"] = _best_json(best[name])
            out[name] = entry
        if self.row_advice is not None:
            out["row_advice"] = _advice_json(*self.row_advice)
        out["provenance"] = provenance(self.result.battle)
        out["rulings"] = list(BATTLE_RULINGS)
        return out

    def to_rows(self) -> Rows:
        """Long table: side, quantity, outcome, probability (units as ``unit: name``).

        Rows with side ``provenance`` (where each value comes from) and ``rulings`` close the table.
        """
        rows: list[dict[str, Cell]] = []
        for name in _SIDES:
            res, side = self.side(name), self._scenario_side(name)
            for q in _QUANTITIES:
                rows += [{"side": name, "quantity": q, "outcome": str(o), "probability": float(p)}
                         for o, p in getattr(res, q).probabilities().items()]
            for i, unit in enumerate(side.units):
                status = res.unit_status(i)
                rows += [{"side": name, "quantity": f"unit {i}: {unit.name}", "outcome": s.value,
                          "probability": float(status.probability(s))} for s in Status]
            rows += [{"side": name, "quantity": f"card {i}: {c.name} ({c.kind})", "outcome": effect_text(c),
                      "probability": None} for i, c in enumerate(side.cards)]
        for name, summary in self.best_play().items():
            rows += [{"side": name, "quantity": f"best play ({summary['objective']})", "outcome": key,
                      "probability": value} for key, value in _best_json(summary).items()
                     if isinstance(value, float)]
        if self.row_advice is not None:
            goal, options = self.row_advice
            rows += [{"side": "row_advice", "quantity": " · ".join(o.row), "outcome": goal,
                      "probability": float(o.value)} for o in options]
        rows += [{"side": "provenance", "quantity": key, "outcome": source, "probability": None}
                 for key, source in provenance(self.result.battle).items()]
        rows += [{"side": "rulings", "quantity": f"ruling {i + 1}", "outcome": ruling, "probability": None}
                 for i, ruling in enumerate(BATTLE_RULINGS)]
        return Rows(_COLUMNS, tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable summary and distribution table for the command line."""
        lines: list[str] = ["HEADLINE:"]
        for name in (HEADLINE_SIDE, *(n for n in _SIDES if n != HEADLINE_SIDE)):
            lines += [f"  {line}" for line in self.headline(name).text_lines()]
        lines.append("")
        for name in _SIDES:
            res, side = self.side(name), self._scenario_side(name)
            mods = played(side).modifiers
            kind = " (NPC giants)" if side.npc else " (giantslayers)" if side.giantslayers else ""
            second = f" then {mods.card_rerolls} (cards, second round)" if mods.card_rerolls else ""
            lines.append(f"{name.upper()}{kind}: {side.dice_count} dice, {mods.rerolls} rerolls{second}, "
                         f"{mods.arcane_to_hits} arcane->2 hits, {mods.arcane_to_blocks} arcane->block "
                         f"[{mods.source}{' + cards' if side.cards else ''}]; casualties: {side.casualty_order}; "
                         f"rerolls: {side.reroll_policy}")
            if side.cards:
                lines.append(f"  cards (before final totals, pp.16-17; effects: {ENTER_NOTE}): "
                             + "; ".join(f"{c.name} ({c.kind}): {effect_text(c)}" for c in side.cards))
            for q in _QUANTITIES:
                dist = getattr(res, q)
                if q == "resource_cards" and dist.probability(0) == 1:
                    continue
                cells = "  ".join(f"{o}:{fmt_percent(p)}" for o, p in dist.probabilities().items())
                lines.append(f"  {q:<15} mean {float(dist.mean()):6.3f}   {cells}")
            for i, unit in enumerate(side.units):
                status = res.unit_status(i)
                cells = "  ".join(f"{s.value} {fmt_percent(status.probability(s))}" for s in Status)
                lines.append(f"  unit {unit.name:<20} {cells}")
            if side.units:
                lines.append(f"  all units defeated: {fmt_percent(res.wiped_out())}")
            lines.append("")
        best = self.best_play()
        for name, summary in best.items():
            relative = summary["relative_gain_float"]
            lines.append(f"BEST PLAY ({name}, objective {summary['objective']}): {summary['value_float']:.4f}, "
                         f"against {summary['misses_value_float']:.4f} with rerolls by 'misses': gain "
                         f"{summary['gain_float']:+.4f}" + (f" ({relative:+.1%})" if relative is not None else ""))
        if best:
            lines.append("")
        if self.row_advice is not None:
            goal, options = self.row_advice
            lines.append(f"WHICH ROW? attack now, or play cards first (objective {goal}), best first:")
            for o in options:
                m = o.modifiers
                lines.append(f"  {o.value.__float__():8.4f}  {' · '.join(o.row):<48} {o.extra_cards} first; "
                             f"{m.rerolls} rerolls, {m.arcane_to_hits} arcane->2 hits, {m.arcane_to_blocks} arcane->block")
            lines.append("")
        lines.append("WHERE THE VALUES COME FROM:")
        lines += [f"  - {key}: {source}" for key, source in provenance(self.result.battle).items()]
        lines.append("RULINGS:")
        lines += [f"  - {ruling}" for ruling in BATTLE_RULINGS]
        return "\n".join(lines).rstrip() + "\n"


def _best_json(summary: dict[str, Any]) -> dict[str, Any]:
    """One side's best-play summary for JSON: floats, and the exact values as text."""
    return {
        "objective": summary["objective"], "value": summary["value_float"],
        "misses_value": summary["misses_value_float"], "gain": summary["gain_float"],
        "relative_gain": summary["relative_gain_float"],
        "exact": {k: str(summary[k]) for k in ("value", "misses_value", "gain")},
    }


def _advice_json(objective: Objective, options: tuple[RowOption, ...]) -> dict[str, Any]:
    """The advisor's answer for JSON: the objective and each row with what it gives and its value."""
    return {"objective": objective, "options": [
        {"row": list(o.row), "cards_first": o.extra_cards, "rerolls": o.modifiers.rerolls,
         "arcane_to_hits": o.modifiers.arcane_to_hits, "arcane_to_blocks": o.modifiers.arcane_to_blocks,
         "value": float(o.value), "exact": str(o.value)} for o in options]}
