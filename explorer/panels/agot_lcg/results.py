"""Round results: the headline numbers (the power the first player gains in the round), the summary (power,
dominance, claims), the step trace and two charts, updated in place."""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as widgets

from explorer.charts.agot_lcg import ROUND_CHARTS, round_figures
from explorer.games.agot_lcg import RoundReport, WinnerGrid, challenge_label, round_trace, winner_grid
from explorer.panels.common.chart import Chart, ChartGroup
from explorer.panels.common.stats_view import HeadlineView

__all__ = ["CHART_HEIGHT", "RoundResults", "claim_text", "defence_text", "grid_for", "summary_html", "trace_html",
           "words"]

CHART_HEIGHT = 300
"""Pixels per chart."""

TABLE_STYLE = ("<style>.agot-table {border-collapse:collapse} .agot-table th, .agot-table td {padding:2px 8px;"
               " text-align:left; vertical-align:top; border-bottom:1px solid #eaecee}</style>")


_STR = re.compile(r"\bSTR\b")


def words(text: str) -> str:
    """Text for an HTML table, escaped, with the rulebook's abbreviation STR explained on hover.

    >>> words("STR 3 against 2 <b>")
    '<abbr title="strength">STR</abbr> 3 against 2 &lt;b&gt;'
    """
    return _STR.sub('<abbr title="strength">STR</abbr>', html.escape(text))


def grid_for(report: RoundReport, size: int = 8) -> WinnerGrid:
    """The winner grid the panel shows: STR 0 to at least `size`, or to the largest side's total STR."""
    totals = [sum(c.strength for c in p.characters) for p in report.result.round.board.players]
    top = max(size, *totals)
    return winner_grid(top, top)


def claim_text(challenge: dict[str, Any]) -> str:
    """What a challenge's claim did, in a sentence (from the report's ``claim_effects``).

    >>> claim_text({"claim_effects": {"type": "power", "claim": 1, "power_moved": 1}})
    'power claim 1: 1 power moved'
    """
    effect = challenge.get("claim_effects")
    if not effect:
        return "no claim"
    parts = [f"{effect['type']} claim {effect['claim']}"]
    if effect["type"] == "military":
        killed = effect.get("killed") or []
        parts.append(f"killed {', '.join(killed)}" if killed else "no character killed")
        if effect.get("power_returned_to_treasury"):
            parts.append(f"{effect['power_returned_to_treasury']} power back to the treasury")
        if effect.get("prized_power_gained"):
            parts.append(f"{effect['prized_power_gained']} prized power gained")
    elif effect["type"] == "intrigue":
        chances = effect.get("survival_chance") or {}
        parts.append(f"discards {effect.get('cards_to_discard', 0)} of {effect.get('hand_size', '?')} cards at random"
                     + ("; kept: " + ", ".join(f"{k} {v:.0%}" for k, v in chances.items()) if chances else ""))
    else:
        parts.append(f"{effect.get('power_moved', 0)} power moved")
    return ": ".join(parts[:2]) + ("; " + "; ".join(parts[2:]) if parts[2:] else "")


def _names(names: list[str]) -> str:
    return ", ".join(names) if names else "no one"


def defence_text(challenge: dict[str, Any]) -> str:
    """Who defended a challenge the round made (from the report's challenge entry), in a phrase.

    >>> defence_text({"defence": "listed", "defenders": ["Castellan", "Steward"], "bypassed": []})
    'defended by Castellan, Steward'
    >>> defence_text({"defence": "listed", "defenders": [], "bypassed": []})
    'undefended'
    >>> defence_text({"defence": "best", "defenders": ["Castellan"], "bypassed": ["Steward"],
    ...               "defence_options": [{}, {}]})
    'no defence chosen: the best defence (of 2 sets compared) is Castellan; stealth bypassed Steward'
    >>> defence_text({"defence": "best", "defenders": [], "bypassed": [], "defence_options": [{}]})
    'no defence chosen: the best defence (of 1 set compared) is to leave it undefended'
    """
    defenders = challenge.get("defenders") or []
    if challenge.get("defence") == "best":
        count = len(challenge.get("defence_options") or [])
        best = ", ".join(defenders) if defenders else "to leave it undefended"
        text = f"no defence chosen: the best defence (of {count} set{'s' if count != 1 else ''} compared) is {best}"
    else:
        text = f"defended by {', '.join(defenders)}" if defenders else "undefended"
    bypassed = challenge.get("bypassed") or []
    return text + (f"; stealth bypassed {', '.join(bypassed)}" if bypassed else "")


def summary_html(report: RoundReport) -> str:
    """Power before and after, dominance, the game's end, and each challenge's attackers, defenders (or how
    the defence was chosen), winner and claim."""
    out = report.to_dict()
    dom = out["dominance"]
    rows = [f"<tr><th>power</th><td>{html.escape(', '.join(f'{k} {v}' for k, v in out['power_before'].items()))} "
            f"→ <b>{html.escape(', '.join(f'{k} {v}' for k, v in out['power_after'].items()))}</b></td></tr>"]
    if dom is not None:
        count = ", ".join(f"{k} {v}" for k, v in dom["count"].items())
        who = f"the {dom['winner']} player leads and gains 1 power" if dom["winner"] else "a tie: no one gains power"
        rows.append(f"<tr><th>dominance</th><td>{words(count)} ({words('standing STR + gold')}): {who}</td></tr>")
    if out["game_winner"]:
        rows.append(f"<tr><th>game</th><td><b>{html.escape(str(out['game_winner']))} wins the game</b></td></tr>")
    for number, c in enumerate(out["challenges"], 1):
        label = challenge_label(c["type"], number, c["attacker"])
        if not c.get("initiated", True) or "winner" not in c:
            text = "not made: " + "; ".join(c.get("dropped") or ["no attacker left"])
        else:
            winner = f"the {c['winner_player']} player" if c.get("winner_player") else "no one"
            text = (f"attacked by {_names(c.get('attackers') or [])}; {defence_text(c)}; won by {winner}"
                    f"{' (unopposed)' if c.get('unopposed') else ''}; {claim_text(c)}")
            if c.get("dropped"):
                text += "; dropped: " + "; ".join(c["dropped"])
        rows.append(f"<tr><th>{html.escape(label)}</th><td>{words(text)}</td></tr>")
    return f"{TABLE_STYLE}<table class='agot-table agot-summary-table'>{''.join(rows)}</table>"


def trace_html(report: RoundReport) -> str:
    """The round's steps as a table: challenge, step, what happened, power after, rule."""
    body = "".join(
        f"<tr><td>{html.escape(r['challenge'])}</td><td>{html.escape(r['step'])}</td><td>{words(r['event'])}"
        f"</td><td style='white-space:nowrap'>{html.escape(', '.join(f'{k} {v}' for k, v in r['power'].items()))}"
        f"</td><td style='color:#5d6d7e'>{html.escape(r['rule'])}</td></tr>" for r in round_trace(report.result))
    return (f"{TABLE_STYLE}<table class='agot-table agot-trace-table'><tr><th>challenge</th><th>step</th>"
            f"<th>event</th><th>power after</th><th>rule</th></tr>{body}</table>")


class RoundResults(ChartGroup):
    """The summary, the charts and the step trace of one round, created once and updated in place."""

    stale_class = "agot-stale"

    def __init__(self, report: RoundReport) -> None:
        self.report = report
        self.figures = {name: Chart(fig, height=CHART_HEIGHT) for name, fig in
                        round_figures(report.result, grid_for(report)).items()}
        self.headline = HeadlineView()
        """The report's headline numbers (`RoundReport.headline`), above the summary."""
        self.summary = widgets.HTML()
        self.summary.add_class("agot-summary")
        self.trace = widgets.HTML()
        self.trace.add_class("agot-steps")
        grid = widgets.Box([self.figures[name] for name in ROUND_CHARTS])
        grid.add_class("explorer-charts")
        self.widget = widgets.VBox([self.headline.widget, self.summary, grid, widgets.HTML("<b>The round, step by step</b>"), self.trace])
        self.tables = (self.headline.widget, self.summary, self.trace)
        self._tables()

    def update(self, report: RoundReport) -> None:
        """Show a new round: every figure and table, in place."""
        self.report = report
        for name, fig in round_figures(report.result, grid_for(report)).items():
            self.figures[name].show(fig)
        self._tables()

    def _tables(self) -> None:
        self._mark_fresh()
        self.headline.show(self.report.headline())
        self.summary.value = summary_html(self.report)
        self.trace.value = trace_html(self.report)
