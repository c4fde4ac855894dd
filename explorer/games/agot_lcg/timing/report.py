"""The report of a timing scenario: the ordered trace, each line citing its rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.agot_lcg.challenge.report_parts import rulings_lines
from explorer.games.agot_lcg.challenge.rulings import TIMING_RULINGS
from explorer.games.agot_lcg.timing.explain import SEQUENCE, TraceEntry, Trigger, explain
from explorer.scenario.report import Cell, Rows

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TimingReport"]

_TRACE_COLUMNS = ("depth", "condition", "step", "ability", "status", "text", "rule")


def _trace_row(e: TraceEntry) -> dict[str, Cell]:
    """One line of the trace, for JSON and the table."""
    return {"depth": e.depth, "condition": e.condition, "step": e.step, "ability": e.ability, "status": e.status,
            "text": e.text, "rule": e.rule}


@dataclass(frozen=True, slots=True)
class TimingReport:
    """The order in which abilities to a trigger may resolve, and which are no longer possible."""

    trigger: Trigger

    @property
    def trace(self) -> tuple[TraceEntry, ...]:
        """The ordered trace (`explain`)."""
        return explain(self.trigger)

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the trace, the abilities resolved in order, those no longer possible, rulings.

        >>> from explorer.games.agot_lcg.timing.explain import Ability
        >>> TimingReport(Trigger("a card would leave play", (Ability("Treachery", "cancel"),))).to_dict()["resolved"]
        ['Treachery']
        """
        trace = self.trace
        return {"format": 1, "game": "agot-lcg", "question": "timing", "trigger": self.trigger.condition,
                "trace": [_trace_row(e) for e in trace],
                "resolved": [e.ability for e in trace if e.status == "resolves"],
                "not_possible": [e.ability for e in trace if e.status == "not possible"],
                "sequence": [{"step": s, "what": what, "rule": rule} for s, what, rule in SEQUENCE],
                "rulings": list(TIMING_RULINGS)}

    def to_rows(self) -> Rows:
        """The trace as a table: depth, condition, step, ability, status, text, rule."""
        return Rows(_TRACE_COLUMNS, tuple(_trace_row(e) for e in self.trace))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """The trace, indented by nesting depth, with its rules."""
        lines = [f"TIMING: {self.trigger.condition}"]
        for n, e in enumerate(self.trace, 1):
            mark = {"resolves": "+", "not possible": "x", "event": "*"}[e.status]
            lines.append(f"  {n:>2}. {'    ' * e.depth}{mark} {e.text}  ({e.rule})")
        lines.append("  (+ resolves, x no longer possible, * the condition itself)")
        lines += rulings_lines(TIMING_RULINGS)
        return "\n".join(lines) + "\n"
