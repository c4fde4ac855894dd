"""The `resolve` report of one Arcadia Quest attack (scenario format v1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.arcadia_quest.attack.model import AttackResult
from explorer.games.arcadia_quest.attack.scenario import scenario_to_dict
from explorer.scenario.report import Cell, Rows, dist_json, dist_weights, fmt_percent
from explorer.scenario.stats import Headline, headline

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ArcadiaReport"]

_QUANTITIES = ("hits", "saves", "wounds")


@dataclass(frozen=True, slots=True)
class ArcadiaReport:
    """Exact answer to one attack scenario; `to_dict` is the spec's JSON.

    >>> from explorer.games.arcadia_quest import resolve
    >>> report = resolve({"attack": {"dice": 1, "kind": "melee"}, "target": {"life": 1}})
    >>> round(report.to_dict()["kill"], 9)
    0.666666667
    """

    result: AttackResult

    def headline(self) -> Headline:
        """The headline outcome: the wounds the attack deals to the target (`explorer.scenario.stats`)."""
        return headline(self.result.wounds, "wounds dealt to the target")

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the spec's keys, then the cut, means, exact fractions and the scenario read.

        ``cut`` is the probability left out of ``wounds`` (and so of ``kill`` and ``overkill``, which
        are short of the truth by at most that much); ``cuts`` gives it per distribution.
        """
        res = self.result
        dists = {q: getattr(res, q) for q in _QUANTITIES}
        out: dict[str, Any] = {"format": 1, "game": "arcadia-quest"}
        out.update({q: dist_json(d) for q, d in dists.items()})
        out["kill"] = float(res.kill)
        out["overkill"] = float(res.overkill)
        out["cut"] = float(res.cut)
        out["cuts"] = {q: float(d.cut_mass()) for q, d in dists.items()}
        out["means"] = {q: float(d.mean()) for q, d in dists.items()}
        out["exact"] = {**{q: dist_weights(d) for q, d in dists.items()},
                        "kill": str(res.kill), "overkill": str(res.overkill), "cut": str(res.cut)}
        out["scenario"] = scenario_to_dict(res.scenario)
        out["dice_source"] = res.scenario.dice_source
        out["headline"] = self.headline().to_dict()
        return out

    def to_rows(self) -> Rows:
        """Long table: quantity, outcome, probability (kill, overkill and the cut as one row each).

        >>> from explorer.games.arcadia_quest import resolve
        >>> rows = resolve({"attack": {"dice": 1, "kind": "melee"}, "target": {"life": 1}}).to_rows()
        >>> rows.columns, rows.column("quantity")[-3:]
        (('quantity', 'outcome', 'probability'), ['kill', 'overkill', 'cut'])
        """
        res = self.result
        rows: list[dict[str, Cell]] = [{"quantity": q, "outcome": str(o), "probability": float(p)}
                for q in _QUANTITIES for o, p in getattr(res, q).probabilities().items()]
        rows += [{"quantity": "kill", "outcome": "killed", "probability": float(res.kill)},
                 {"quantity": "overkill", "outcome": "overkilled", "probability": float(res.overkill)},
                 {"quantity": "cut", "outcome": "truncated", "probability": float(res.cut)}]
        return Rows(("quantity", "outcome", "probability"), tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable summary and distribution table for the command line.

        >>> from explorer.games.arcadia_quest import resolve
        >>> print(resolve({"attack": {"dice": 1, "kind": "melee"}, "target": {"life": 1}}).to_text())  # doctest: +ELLIPSIS
        ATTACK: 1 melee dice, reroll pool 0; DEFENCE: 0 dice, reroll pool 0
        ...
          kill     66.67%   (wounds >= 1)
        ...
        """
        res, s = self.result, self.result.scenario
        target = s.target
        overkill = "cannot be overkilled" if target.overkill is None else f"overkill {target.overkill}"
        lines = [s.title,
                 (f"ATTACK: {s.attack.dice} {s.attack.kind} dice, reroll pool {s.attack.rerolls}; "
                  f"DEFENCE: {s.defence.dice} dice, reroll pool {s.defence.rerolls}"),
                 f"TARGET: life {target.life}, {target.wounds} wounds already, {overkill}"]
        for q in _QUANTITIES:
            dist = getattr(res, q)
            cells = "  ".join(f"{o}:{fmt_percent(p)}" for o, p in dist.probabilities().items()
                              if p >= 0.00005)
            lines.append(f"  {q:<8} mean {float(dist.mean()):6.3f}   {cells}")
        lines.append(f"  kill     {fmt_percent(res.kill):>6}   (wounds >= {target.life_left})")
        if target.overkill is not None:
            lines.append(f"  overkill {fmt_percent(res.overkill):>6}   (wounds >= {target.overkill})")
        lines.append(f"  cut      {float(res.cut):.1e} (open CRIT chains cut, not renormalised)")
        lines += ["HEADLINE: " + line if i == 0 else line for i, line in enumerate(self.headline().text_lines())]
        lines.append(f"  dice faces: {s.dice_source}")
        return "\n".join(line for line in lines if line) + "\n"
