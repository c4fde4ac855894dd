"""The report of a ``table`` scenario: the phase, every legal move and attack with its reason, turns, winner.

For the current player and every listed region: may its giants pass through (and at what cost),
end a move there, attack there; for every player, where it may recruit; the turns left once the
Endgame begins; the winner from ``standings`` if given; and the rulings applied, the inferred ones
marked. With ``attacker`` / ``defender`` too, the battle's v1 report comes first, unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.games.assault_of_the_giants.battle.battle import resolve_battle
from explorer.games.assault_of_the_giants.battle.report import BattleReport
from explorer.games.assault_of_the_giants.battle.scenario import parse_battle
from explorer.games.assault_of_the_giants.best.costs import check_report
from explorer.games.assault_of_the_giants.rules.data import GIANTSLAYER_ACTIONS, NPC_RACES_BY_PLAYERS
from explorer.games.assault_of_the_giants.table.legality import (
    Answer,
    Recruit,
    Turns,
    may_attack,
    may_end_move,
    move_through,
    npc_controller,
    recruit_places,
    slayer_may_end_move,
    slayer_recruit_places,
    turns_left,
)
from explorer.games.assault_of_the_giants.table.phase import phase, phase_reason
from explorer.games.assault_of_the_giants.table.rulings import TABLE_RULINGS, ruling
from explorer.games.assault_of_the_giants.table.scenario import TableScenario, parse_table
from explorer.games.assault_of_the_giants.table.winner import Victory, winner
from explorer.scenario.fields import Fields
from explorer.scenario.report import Cell, Rows, fmt_percent

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["TableAnswers", "TableReport", "answer_table", "resolve_table", "QUESTIONS", "setup_notes"]

QUESTIONS: tuple[str, ...] = ("pass through", "end move", "attack")
"""The questions asked of every region, for the current player."""

_COLUMNS = ("question", "race", "region", "allowed", "reason", "page", "inferred")


@dataclass(frozen=True, slots=True)
class TableAnswers:
    """Every answer for one table scenario."""

    scenario: TableScenario
    moves: tuple[tuple[str, Answer, Answer, Answer], ...]
    """Per region: its name, then may pass through, may end a move, may attack (the current player)."""
    recruit: Mapping[str, Recruit]
    turns: Turns
    victory: Victory | None
    slayer_recruit: Recruit | None = None
    """Where a giantslayer may be recruited, and what it costs (p.18)."""
    slayer_moves: tuple[tuple[str, Answer], ...] = ()
    """Per region: its name, and may a giantslayer's move end there (p.18)."""

    @property
    def inferred_rulings(self) -> tuple[str, ...]:
        """Keys of the inferred rulings some answer here rests on."""
        keys = [k for _, *answers in self.moves for a in answers for k in a.rulings]
        keys += [k for r in self.recruit.values() for k in r.rulings] + list(self.turns.rulings)
        keys += [k for _, a in self.slayer_moves for k in a.rulings]
        keys += list(self.slayer_recruit.rulings) if self.slayer_recruit else []
        if any(r.units is not None for r in self.scenario.state.regions):
            keys.append("stacking")
        if self.scenario.regions_counted:
            keys.append("regions-counted")
        return tuple(k for k in dict.fromkeys(keys) if ruling(k).inferred)


def answer_table(scenario: TableScenario) -> TableAnswers:
    """Ask every question of a parsed table.

    >>> from explorer.games.assault_of_the_giants.table.scenario import parse_table
    >>> answers = answer_table(parse_table({"players": ["hill"], "regions": [
    ...     {"name": "Sumber Hills", "kind": "starting", "home": "hill", "occupied_by": "hill"}]}))
    >>> answers.recruit["hill"].places, answers.moves[0][2].allowed
    (('Sumber Hills',), True)
    """
    state = scenario.state
    me = state.current
    moves = tuple((r.name, move_through(state, me, r.name), may_end_move(state, me, r.name),
                   may_attack(state, me, r.name)) for r in state.regions)
    recruit: dict[str, Recruit] = {r.name: recruit_places(state, r.name) for r in state.players}
    won = winner(scenario.standings) if scenario.standings else None
    slayers = tuple((r.name, slayer_may_end_move(state, r.name)) for r in state.regions)
    return TableAnswers(scenario, moves, recruit, turns_left(state), won, slayer_recruit_places(state), slayers)


def setup_notes(scenario: TableScenario) -> list[str]:
    """Remarks on a table set up otherwise than the setup rules say (accepted, but worth a look).

    >>> from explorer.games.assault_of_the_giants.table.scenario import parse_table
    >>> setup_notes(parse_table({"players": ["hill", "stone", "storm"], "regions": [
    ...     {"name": n, "kind": "starting", "home": n} for n in ("hill", "stone", "storm")]}))[0][:40]
    'with 3 players the setup makes stone, cl'
    """
    state = scenario.state
    notes = []
    expected = NPC_RACES_BY_PLAYERS.get(len(state.players))
    npcs = sorted(r.name for r in state.races if r.npc)
    if expected is not None and sorted(expected.value) != npcs:
        notes.append(f"with {len(state.players)} players the setup makes {', '.join(expected.value) or 'no race'} "
                     f"NPC giants ({expected.source}); this table has {', '.join(npcs) or 'none'}")
    return notes


def _answer_dict(answer: Answer | Recruit) -> dict[str, Any]:
    out: dict[str, Any] = {"allowed": answer.allowed, "reason": answer.reason, "page": answer.page}
    if isinstance(answer, Answer):
        out["costs"] = list(answer.costs)
    else:
        out["places"] = list(answer.places)
    out["ruling_keys"] = list(answer.rulings)
    out["rulings"] = list(answer.rulings)  # deprecated alias of ruling_keys
    out["inferred"] = answer.inferred
    return out


def _turns_dict(turns: Turns) -> dict[str, Any]:
    """The Endgame's turns, named by what they count from (the old ``turns`` / ``after`` kept as aliases)."""
    return {"turns_after_second_pool_empty": list(turns.turns), "second_pool_emptied_on_turn_of": turns.after,
            "count": len(turns.turns), "begun": turns.begun, "equal": turns.equal, "reason": turns.reason,
            "page": turns.page, "turns": list(turns.turns), "after": turns.after}


def _slayers_dict(answers: TableAnswers) -> dict[str, Any]:
    """Where giantslayers may be recruited and end a move, and what each Giantslayer Action costs (p.18)."""
    out: dict[str, Any] = {"actions": {k: v.value for k, v in GIANTSLAYER_ACTIONS.items()}, "page": "p.18"}
    if answers.slayer_recruit is not None:
        out["recruit"] = _answer_dict(answers.slayer_recruit)
    out["end_move"] = {name: _answer_dict(a) for name, a in answers.slayer_moves}
    return out


def _victory_dict(victory: Victory) -> dict[str, Any]:
    return {
        "winners": list(victory.winners), "decided_by": victory.decided_by, "reason": victory.reason,
        "chances": {p: {k: float(v) for k, v in c.items()} for p, c in victory.chances.items()},
        "exact": {p: {k: str(v) for k, v in c.items()} for p, c in victory.chances.items()},
        "decided_by_chances": {k: float(v) for k, v in victory.steps.items()},
    }


def _mark(inferred: bool) -> str:
    return " [INFERRED]" if inferred else ""


@dataclass(frozen=True, slots=True)
class TableReport:
    """The report of a scenario with ``table``: its answers, and the battle's report if there is one."""

    answers: TableAnswers
    battle: BattleReport | None = None
    title: str = ""
    notes: tuple[str, ...] = ()

    def table_dict(self) -> dict[str, Any]:
        """The ``table`` part of the JSON report."""
        a = self.answers
        state = a.scenario.state
        out: dict[str, Any] = {
            "phase": {"phase": phase(state).value, "reason": phase_reason(state), "page": "p.20",
                      "pools": {"first": state.pools.first, "second": state.pools.second}},
            "current": state.current,
            "seats": [{"race": r.name, "ordning_number": r.ordning_number} for r in state.players],
            "npc": [r.name for r in state.races if r.npc],
            "npc_controller": npc_controller(state),
            "region_answers": {name: {q.replace(" ", "_"): _answer_dict(x) for q, x in zip(QUESTIONS, answers)}
                               for name, *answers in a.moves},
            "recruit": {race: _answer_dict(r) for race, r in a.recruit.items()},
            "giantslayers": _slayers_dict(a),
            "endgame_turns": _turns_dict(a.turns),
            "setup_notes": setup_notes(a.scenario),
            "inferred_rulings": list(a.inferred_rulings),
            "rulings": [{"key": r.key, "text": r.text, "inferred": r.inferred} for r in TABLE_RULINGS],
            # deprecated aliases (docs/assault-of-the-giants.md): the answers as a list, and the inferred keys
            "regions": [{"region": name, **{q.replace(" ", "_"): _answer_dict(x) for q, x in zip(QUESTIONS, answers)}}
                        for name, *answers in a.moves],
            "inferred": list(a.inferred_rulings),
        }
        units = {r.name: {"race": r.occupied_by, "units": r.units} for r in state.regions if r.units is not None}
        if units:
            out["units"] = units
        if a.victory is not None:
            out["winner"] = _victory_dict(a.victory)
            out["winner"]["regions_counted"] = list(a.scenario.regions_counted)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON report: the battle's v1 keys (if any battle), then ``table``."""
        out: dict[str, Any] = self.battle.to_dict() if self.battle else {"format": 1, "game": "assault-of-the-giants"}
        if self.title:
            out["title"] = self.title
        if self.notes:
            out["notes"] = list(self.notes)
        out["table"] = self.table_dict()
        return out

    def to_rows(self) -> Rows:
        """Long table: question, race, region, allowed, reason, page, inferred (battle rows first).

        With a battle, its rows come first, with question ``battle`` and its own columns in front.
        """
        a = self.answers
        me = a.scenario.state.current
        rows: list[dict[str, Cell]] = []
        for name, *answers in a.moves:
            rows += [{"question": q, "race": me, "region": name, "allowed": x.allowed,
                      "reason": x.reason + (f" (costs: {' or '.join(x.costs)})" if x.costs else ""),
                      "page": x.page, "inferred": x.inferred} for q, x in zip(QUESTIONS, answers)]
        rows += [{"question": "recruit", "race": race, "region": ", ".join(r.places), "allowed": r.allowed,
                  "reason": r.reason, "page": r.page, "inferred": r.inferred} for race, r in a.recruit.items()]
        rows.append({"question": "endgame turns", "race": a.turns.after, "region": ", ".join(a.turns.turns),
                     "allowed": a.turns.begun, "reason": a.turns.reason, "page": a.turns.page,
                     "inferred": True})
        if a.victory is not None:
            rows.append({"question": "winner", "race": ", ".join(a.victory.winners), "region": "",
                         "allowed": a.victory.decided_by is not None, "reason": a.victory.reason,
                         "page": "p.20", "inferred": bool(a.scenario.regions_counted)})
        if self.battle is None:
            return Rows(_COLUMNS, tuple(rows))
        battle = self.battle.to_rows()
        columns = tuple(dict.fromkeys(battle.columns + _COLUMNS))
        return Rows(columns, tuple({**r, "question": "battle"} for r in battle.records) + tuple(rows))

    def to_frame(self) -> pd.DataFrame:
        """`to_rows` as a pandas table (needs pandas: the ``frames`` extra)."""
        return self.to_rows().to_frame()

    def to_text(self) -> str:
        """A readable report for the command line."""
        a = self.answers
        state = a.scenario.state
        lines = [self.battle.to_text(), ""] if self.battle else []
        if self.title:
            lines.append(self.title)
        lines.append(f"PHASE: {phase(state).value}: {phase_reason(state)}")
        seats = ", ".join(f"{r.name} ({r.ordning_number})" for r in state.players)
        npcs = ", ".join(r.name for r in state.races if r.npc) or "none"
        lines.append(f"SEATS (turn order): {seats}; NPC giants: {npcs}; current player: {state.current}")
        lines += [f"  note: {note}" for note in setup_notes(a.scenario)]
        lines.append(f"MOVES AND ATTACKS of the {state.current} giants:")
        for name, *answers in a.moves:
            lines.append(f"  {name}")
            for q, x in zip(QUESTIONS, answers):
                costs = f" Costs: {' or '.join(x.costs)}." if x.costs else ""
                lines.append(f"    {q:<12} {'yes' if x.allowed else 'no':<4} {x.reason} ({x.page}).{costs}"
                             f"{_mark(x.inferred)}")
        lines.append("RECRUIT:")
        for race, r in a.recruit.items():
            where = ", ".join(r.places) if r.places else "nowhere"
            lines.append(f"  {race:<6} {where}: {r.reason} ({r.page}){_mark(r.inferred)}")
        if a.slayer_recruit is not None:
            slayer = a.slayer_recruit
            lines.append(f"GIANTSLAYERS (Rest Command actions, {slayer.page}): recruit in "
                         f"{', '.join(slayer.places) if slayer.places else 'nowhere'}: {slayer.reason}")
            barred = [name for name, x in a.slayer_moves if not x.allowed]
            lines.append("  a move may end anywhere" + (f" but {', '.join(barred)} (Starting Regions, until the "
                                                        "Final Ordning)" if barred else "")
                         + f"; {GIANTSLAYER_ACTIONS['move'].value} action per region moved, "
                         f"{GIANTSLAYER_ACTIONS['attack'].value} per attacking giantslayer")
        t = a.turns
        lines.append(f"ENDGAME TURNS after {t.after}'s turn, the one the second pool runs out on"
                     f"{'' if t.begun else ' (were it now)'}: {', '.join(t.turns)} ({len(t.turns)} turns)")
        lines.append(f"  {t.reason} ({t.page}) [INFERRED: the emptying turn is not counted]")
        if a.victory is not None:
            lines.append(f"WINNER: {a.victory.reason}")
            for player, c in a.victory.chances.items():
                lines.append(f"  {player:<6} wins {fmt_percent(c['wins'])}  shares {fmt_percent(c['shares'])}")
            if a.victory.decided_by is None:
                steps = ", ".join(f"{k} {fmt_percent(p)}" for k, p in a.victory.steps.items() if p)
                lines.append(f"  decided by: {steps}")
            if a.scenario.regions_counted:
                lines.append(f"  regions counted from the table for {', '.join(a.scenario.regions_counted)} "
                             "[INFERRED]")
        lines.append("RULINGS:")
        lines += [f"  - {r.text}{_mark(r.inferred)}" for r in TABLE_RULINGS]
        lines += [f"NOTE: {n}" for n in self.notes]
        return "\n".join(lines).rstrip() + "\n"


def resolve_table(data: Mapping[str, Any]) -> TableReport:
    """Resolve a scenario with a ``table`` key (and a battle too, if it has ``attacker`` / ``defender``).

    Raises:
        ScenarioError: naming the first bad key and what it allows.

    >>> report = resolve_table({"game": "aotg", "table": {"players": ["hill"], "pools": {"first": 0, "second": 0},
    ...     "regions": [{"name": "Sumber Hills", "kind": "starting", "home": "hill"}]}})
    >>> report.to_dict()["table"]["phase"]["phase"], report.battle is None
    ('endgame', True)
    """
    top = Fields(data, "", allowed=("format", "game"))
    answers = answer_table(parse_table(top.raw("table")))
    if "attacker" in data or "defender" in data:
        battle = parse_battle({k: v for k, v in data.items() if k != "table"})
        check_report(battle)
        report = BattleReport(resolve_battle(battle))
        report.best_play()  # worked out now (cached): the outputs never stop on a refusal
        return TableReport(answers, report, str(data.get("title", "")), battle.notes)
    title, notes = top.meta()
    top.done()
    return TableReport(answers, None, title, notes)
