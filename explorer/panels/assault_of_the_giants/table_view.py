"""HTML of the "Rules of the table" tab's answers: pure functions of `table.report.TableAnswers`.

Every piece of user text (region names) is escaped. An answer that rests on an inferred ruling
is marked "inferred", with the ruling in its tooltip.
"""

from __future__ import annotations

import html

from explorer.games.assault_of_the_giants import (
    QUESTIONS,
    TABLE_RULINGS,
    Answer,
    Recruit,
    TableAnswers,
    phase,
    phase_reason,
    ruling,
    setup_notes,
)
from explorer.scenario.report import fmt_percent

__all__ = ["phase_html", "moves_html", "recruit_html", "slayers_html", "turns_html", "winner_html", "rulings_html",
           "STYLE"]

STYLE = ("<style>.aotg-table-answers{border-collapse:collapse;font-size:90%}"
         ".aotg-table-answers th,.aotg-table-answers td{border-bottom:1px solid #e5e8e8;padding:3px 6px;"
         "text-align:left;vertical-align:top}.aotg-yes{color:#1e8449;font-weight:600}"
         ".aotg-no{color:#b03a2e;font-weight:600}.aotg-inferred{color:#8a5a00;font-size:85%}</style>")
"""The tab's table styles."""

_PHASE_TITLES = {"normal": "Normal play", "final ordning": "The Final Ordning", "endgame": "The Endgame"}


def _e(text: str) -> str:
    return html.escape(text)


def _inferred(answer: Answer | Recruit) -> str:
    if not answer.inferred:
        return ""
    texts = " | ".join(ruling(k).text for k in answer.rulings if ruling(k).inferred)
    return f' <span class="aotg-inferred" title="{_e(texts)}">inferred</span>'


def _verdict(allowed: bool, yes: str = "yes", no: str = "no") -> str:
    return f'<span class="aotg-yes">✔ {yes}</span>' if allowed else f'<span class="aotg-no">✘ {no}</span>'


def _cell(answer: Answer) -> str:
    costs = f"<br><i>costs: {_e(' or '.join(answer.costs))}</i>" if answer.costs else ""
    return f"{_verdict(answer.allowed)} {_e(answer.reason)} ({_e(answer.page)}){costs}{_inferred(answer)}"


def phase_html(answers: TableAnswers) -> str:
    """The phase, in words, with its reason.

    >>> from explorer.games.assault_of_the_giants.table.report import answer_table
    >>> from explorer.games.assault_of_the_giants.table.scenario import parse_table
    >>> "Final Ordning" in phase_html(answer_table(parse_table({"players": ["hill"], "pools": {"first": 0,
    ...     "second": 2}, "regions": [{"name": "G", "kind": "starting", "home": "hill"}]})))
    True
    """
    state = answers.scenario.state
    notes = "".join(f"<br><span class='aotg-inferred'>note: {_e(n)}</span>" for n in setup_notes(answers.scenario))
    return (f"<div class='aotg-table-phase'><b>{_PHASE_TITLES[phase(state).value]}</b>: "
            f"{_e(phase_reason(state))}{notes}</div>")


def moves_html(answers: TableAnswers) -> str:
    """One row per region: may the current player's giants pass through, end a move, attack."""
    me = answers.scenario.state.current
    head = "".join(f"<th>{q}</th>" for q in QUESTIONS)
    rows = "".join(f"<tr><td><b>{_e(name)}</b></td>" + "".join(f"<td>{_cell(a)}</td>" for a in found) + "</tr>"
                   for name, *found in answers.moves)
    return (f"<b>Moves and attacks of the {_e(me)} giants</b> (the current player)"
            f"<table class='aotg-table-answers aotg-table-moves'><tr><th>region</th>{head}</tr>{rows}</table>")


def recruit_html(answers: TableAnswers) -> str:
    """Where each player may recruit."""
    rows = "".join(f"<tr><td><b>{_e(race)}</b></td><td>{_verdict(r.allowed, ', '.join(r.places), 'nowhere')}"
                   f"</td><td>{_e(r.reason)} ({_e(r.page)}){_inferred(r)}</td></tr>"
                   for race, r in answers.recruit.items())
    return (f"<b>Where each player may recruit</b><table class='aotg-table-answers aotg-table-recruit'>"
            f"<tr><th>race</th><th>places</th><th>why</th></tr>{rows}</table>")


def slayers_html(answers: TableAnswers) -> str:
    """Where giantslayers may be recruited and end a move, with the Giantslayer Actions each costs (p.18).

    >>> from explorer.games.assault_of_the_giants.table.report import answer_table
    >>> from explorer.games.assault_of_the_giants.table.scenario import parse_table
    >>> page = slayers_html(answer_table(parse_table({"players": ["hill"], "regions": [
    ...     {"name": "G", "kind": "starting", "home": "hill"}, {"name": "Triboar", "kind": "small-folk"}]})))
    >>> "Triboar" in page, "2 Giantslayer Actions" in page
    (True, True)
    """
    recruit = answers.slayer_recruit
    if recruit is None:
        return ""
    rows = "".join(f"<tr><td><b>{_e(name)}</b></td><td>{_cell(a)}</td></tr>" for name, a in answers.slayer_moves)
    return (f"<b>Giantslayers</b> (Rest Command actions, one per card to its left; {_e(recruit.page)}): "
            f"recruit {_verdict(recruit.allowed, ', '.join(recruit.places), 'nowhere')} {_e(recruit.reason)}"
            f"<table class='aotg-table-answers aotg-table-slayers'><tr><th>region</th><th>a giantslayer's move "
            f"may end there</th></tr>{rows}</table>")


def turns_html(answers: TableAnswers) -> str:
    """The turns left once the Endgame begins, numbered, the final round marked."""
    t = answers.turns
    final = len(answers.scenario.state.players)
    items = "".join(f"<li>{_e(name)}{' <i>(final round)</i>' if i >= len(t.turns) - final else ''}</li>"
                    for i, name in enumerate(t.turns))
    title = "Turns left in the Endgame" if t.begun else "Turns that would follow, were the Endgame to begin now"
    return (f"<b>{title}</b> <span class='aotg-inferred' title='{_e(ruling('endgame-turns').text)}'>"
            f"(counted after {_e(t.after)}'s turn, the one the second pool runs out on; inferred)</span><ol class='aotg-table-turns'>{items}</ol>"
            f"<div>{_e(t.reason)} ({t.page})</div>")


def winner_html(answers: TableAnswers) -> str:
    """The winner and the tiebreak step, or each player's chances while points are random."""
    v = answers.victory
    if v is None:
        return "<i>Tick “final standings” to rank the players (p.20).</i>"
    rows = "".join(f"<tr><td>{_e(p)}</td><td>{fmt_percent(c['wins'])}</td><td>{fmt_percent(c['shares'])}</td></tr>"
                   for p, c in v.chances.items())
    counted = answers.scenario.regions_counted
    note = (f"<br><span class='aotg-inferred'>regions counted from the table for {_e(', '.join(counted))} "
            "(inferred)</span>" if counted else "")
    return (f"<b>Winner</b>: <span class='aotg-table-winner'>{_e(v.reason)}</span>{note}"
            f"<table class='aotg-table-answers'><tr><th>race</th><th>wins alone</th><th>shares</th></tr>{rows}</table>")


def rulings_html() -> str:
    """Every ruling of the table, the inferred ones marked."""
    mark = ' <span class="aotg-inferred">INFERRED</span>'
    items = "".join(f"<li>{_e(r.text)}{mark if r.inferred else ''}</li>" for r in TABLE_RULINGS)
    return f"<details><summary><b>Rulings of the table</b> (click)</summary><ul>{items}</ul></details>"
